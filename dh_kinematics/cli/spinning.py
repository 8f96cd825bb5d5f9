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

Ctrl-C (or SIGTERM, as ``ros2 launch`` and ``timeout`` send) ends the listening, not the
command, wherever it lands: it only sets a flag. rclpy installs no handler of its own, so no
KeyboardInterrupt comes after the loop and no shutdown lands between the loop's check and its
spin (rclpy's global executor, made again after a shutdown, came back None there); the node
spins on an executor of its own.
"""

import signal


def spin_until(name, setup, done):
    """
    Spin a node called ``name`` until ``done()`` is true, Ctrl-C or SIGTERM; then take it down.

    ``setup(node)`` makes its subscriptions and timers, once, before the first spin.
    """
    import rclpy
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.signals import SignalHandlerOptions

    stopped = []
    previous = {number: signal.signal(number, lambda *_: stopped.append(True))
                for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        rclpy.init(args=[name], signal_handler_options=SignalHandlerOptions.NO)
        node = rclpy.create_node(name)
        executor = SingleThreadedExecutor()
        try:
            setup(node)
            executor.add_node(node)
            while not stopped and not done():
                executor.spin_once(timeout_sec=0.1)
        finally:
            executor.shutdown()
            node.destroy_node()
            rclpy.try_shutdown()
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
