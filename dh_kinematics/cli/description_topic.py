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

"""``dh_kinematics from-urdf --topic``: the URDF a running robot_state_publisher publishes."""

import contextlib
import signal
import time

from dh_kinematics.core.escaping import printable

MAX_TIMEOUT_S = 3600.0
"""The longest wait for the topic, s."""


@contextlib.contextmanager
def _ctrl_c():
    """
    Within the block, Ctrl-C only notes itself (the yielded list); raise it after the block.

    Python raises the KeyboardInterrupt of Ctrl-C wherever the main thread is, a finalizer of
    rclpy's included, where it is printed and lost: under load, the wait then went on to its
    timeout. A flag cannot be lost; the loop checks it every spin (at most 0.1 s).
    """
    interrupted = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: interrupted.append(number))
    try:
        yield interrupted
    finally:
        signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt  # the command's Ctrl-C: one line, code 130


def robot_description(topic, timeout, out):
    """
    Return the URDF text on ``topic`` (std_msgs/String, transient local, as latched).

    Says on ``out`` that it waits, and how long at most (Ctrl-C ends the wait).

    Raises
    ------
    ValueError
        For a topic name ROS refuses, a timeout outside (0, MAX_TIMEOUT_S], or when nothing
        arrives within ``timeout`` seconds.

    """
    if not 0.0 < timeout <= MAX_TIMEOUT_S:
        raise ValueError(f'--timeout: must be within (0, {MAX_TIMEOUT_S:g}] s, got {timeout!r}')
    import rclpy
    from rclpy.exceptions import InvalidTopicNameException
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from std_msgs.msg import String

    from rclpy.signals import SignalHandlerOptions

    received = []
    context = rclpy.Context()
    # Ctrl-C is ours from before rclpy starts (rclpy's own handler would shut the context
    # down and leave the wait spinning to its deadline) until rclpy is shut down again.
    with _ctrl_c() as interrupted:
        rclpy.init(args=['dh_kinematics_from_urdf'], context=context,
                   signal_handler_options=SignalHandlerOptions.NO)
        try:
            node = rclpy.create_node('dh_kinematics_from_urdf', context=context)
            executor = SingleThreadedExecutor(context=context)
            executor.add_node(node)
            try:
                node.create_subscription(
                    String, topic, lambda message: received.append(message.data),
                    QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                               reliability=ReliabilityPolicy.RELIABLE))
            except InvalidTopicNameException as error:
                reason = str(error).splitlines()[0].rstrip(':')
                raise ValueError(f'--topic {printable(topic)!r}: not a topic name ROS takes: '
                                 f'{printable(reason)}') from None
            out.write(f'waiting for the URDF on {printable(topic)} (at most {timeout:g} s)\n')
            out.flush()
            deadline = time.monotonic() + timeout
            while (not (received or interrupted) and context.ok()
                   and time.monotonic() < deadline):
                executor.spin_once(timeout_sec=min(0.1, max(0.0, deadline - time.monotonic())))
        finally:
            rclpy.try_shutdown(context=context)
    if not received:
        raise ValueError(f'--topic {topic}: no URDF arrived within {timeout:g} s; is a '
                         'robot_state_publisher running in this ROS_DOMAIN_ID?')
    return received[0]
