# Copyright 2026 The dh_kinematics authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""ros_main's shutdown helpers, without DDS: a callback cut short by shutdown, a kept executor."""

import sys

from dh_kinematics.ros import main as ros_main
import pytest

pytestmark = pytest.mark.ros


class _Context:

    def __init__(self, ok):
        self._ok = ok

    def ok(self):
        return self._ok


class _Node:

    def __init__(self, ok):
        self.context = _Context(ok)
        self.calls = []

    @ros_main.quiet_at_shutdown
    def publish(self, value):
        self.calls.append(value)
        raise RuntimeError("Failed to publish: publisher's context is invalid")

    @ros_main.quiet_at_shutdown
    def compute(self, value):
        return 2 * value


def test_a_publish_that_fails_after_shutdown_ends_the_callback_quietly():
    node = _Node(ok=False)
    assert node.publish(1) is None and node.calls == [1]


def test_the_same_error_while_running_propagates():
    with pytest.raises(RuntimeError, match='context is invalid'):
        _Node(ok=True).publish(1)


def test_a_callback_that_succeeds_returns_its_value():
    assert _Node(ok=True).compute(2) == 4


def test_an_executor_kept_until_exit_is_never_freed():
    executor = object()
    before = sys.getrefcount(executor)
    ros_main.keep_until_exit(executor)
    assert sys.getrefcount(executor) == before + 1


class _SingleThreaded(ros_main.SingleThreadedExecutor):
    """A SingleThreadedExecutor that needs no context: only its type matters here."""

    def __init__(self):
        pass

    def __del__(self):
        pass


def test_a_single_threaded_executor_is_freed_as_usual():
    executor = _SingleThreaded()
    before = sys.getrefcount(executor)
    ros_main.keep_until_exit(executor)
    assert sys.getrefcount(executor) == before
