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
The commands that listen to a running system (``monitor``, ``record``): one rclpy node, spun.

Ctrl-C ends the listening, not the command, wherever it lands: a flag, in place before rclpy
chains its own handler to it, so that no KeyboardInterrupt comes after the loop, and rclpy's
invalid-context error inside ``spin_once`` taken as the end once its context is down.
"""

import signal


def spin_until(name, setup, done):
    """
    Spin a node called ``name`` until ``done()`` is true or Ctrl-C; then take it down.

    ``setup(node)`` makes its subscriptions and timers, once, before the first spin.
    """
    import rclpy
    from rclpy.executors import ExternalShutdownException

    stopped = []
    previous = signal.signal(signal.SIGINT, lambda *_: stopped.append(True))
    try:
        rclpy.init(args=[name])
        node = rclpy.create_node(name)
        try:
            setup(node)
            while rclpy.ok() and not stopped and not done():
                rclpy.spin_once(node, timeout_sec=0.1)
        except (ExternalShutdownException, RuntimeError):  # rclpy's, once Ctrl-C shut it down
            if rclpy.ok():
                raise
        finally:
            node.destroy_node()
            rclpy.try_shutdown()
    finally:
        signal.signal(signal.SIGINT, previous)
