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

"""
Each use of rclpy's private API: present on this rclpy (Jazzy or Kilted), and its fallback.

These fail when an rclpy upgrade removes what a shim of ``ros/rclpy_compat.py`` uses, so that
the upgrade shows here rather than as a silent fallback in the field.
"""

from dh_kinematics.ros import rclpy_compat
import pytest
import rclpy
from rclpy.parameter import Parameter
from rclpy.parameter_service import ParameterService
from rclpy.serialization import serialize_message
from std_msgs.msg import String

pytestmark = pytest.mark.ros


@pytest.fixture
def node():
    context = rclpy.Context()
    rclpy.init(args=['test'], context=context)
    made = rclpy.create_node(
        'compat', context=context, start_parameter_services=False,
        parameter_overrides=[Parameter('x', value=1.5), Parameter('use_sim_time', value=True)])
    yield made
    made.destroy_node()
    rclpy.try_shutdown(context=context)


class _Bare:
    """An object with none of rclpy's private attributes."""

    def get_logger(self):
        return self

    def warning(self, text):
        self.warned = text


def test_parameter_overrides_are_read_before_they_are_declared(node):
    overrides = rclpy_compat.parameter_overrides(node)
    assert overrides['x'].value == 1.5 and not node.has_parameter('x')
    with pytest.raises(RuntimeError, match='_parameter_overrides'):
        rclpy_compat.parameter_overrides(_Bare())


def test_the_clock_callback_is_wrapped_now_and_for_later_subscriptions(node):
    wrapped = []

    def wrap(callback):
        wrapped.append(callback)
        return lambda message: callback(message)
    assert rclpy_compat.wrap_clock_callback(node, wrap)  # use_sim_time: subscribed already
    assert len(wrapped) == 1 and callable(wrapped[0])
    assert not rclpy_compat.wrap_clock_callback(_Bare(), wrap)  # the fallback: not wrapped
    assert len(wrapped) == 1


def test_serialized_bytes_are_published_through_the_handle(node):
    publisher = node.create_publisher(String, 'compat_raw', 1)
    publish = rclpy_compat.raw_publish(publisher)
    assert getattr(publish, '__name__', '') == 'publish_raw'  # the private path, here
    publish(serialize_message(String(data='x')))  # raises if the bytes were refused

    class Public:
        """A publisher without a handle."""

        def publish(self, data):
            self.data = data
    public = Public()
    rclpy_compat.raw_publish(public)(b'bytes')  # the fallback: Publisher.publish
    assert public.data == b'bytes'


def test_set_parameters_requests_go_to_the_node_whole(node, monkeypatch):
    service = rclpy_compat.whole_parameter_services(node)
    assert isinstance(service, ParameterService) and type(service) is not ParameterService
    assert callable(getattr(ParameterService, '_set_parameters_callback', None))

    class OtherService:
        """The parameter services of an rclpy without _set_parameters_callback."""

        def __init__(self, node):
            self.node = node
    monkeypatch.setattr(rclpy_compat, 'ParameterService', OtherService)
    bare = _Bare()
    assert type(rclpy_compat.whole_parameter_services(bare)) is OtherService
    assert 'parameter by parameter' in bare.warned
