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
Helpers for tests that run the node over real DDS with real rclpy, confined to loopback.

Each test gets its own rclpy context, the node under test and a probe node, spun by one executor
in a background thread. Waiting is always on a condition with a deadline, never a sleep.
"""

import os
import select
import signal
import subprocess
import sys
import threading
import time

import pytest

rclpy = pytest.importorskip('rclpy')
pytest.importorskip('tf2_msgs.msg')

from diagnostic_msgs.msg import DiagnosticArray  # noqa: E402,I100
from dh_kinematics.node import DhKinematicsNode  # noqa: E402,I100
from rclpy.executors import MultiThreadedExecutor  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from tf2_msgs.msg import TFMessage  # noqa: E402

os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
os.environ.setdefault('ROS_DOMAIN_ID', str(100 + os.getpid() % 100))
DEADLINE_S = 10.0


class Probe:
    """A node that publishes joint_states and records /tf, /tf_static, friction, diagnostics."""

    def __init__(self, context, namespace=''):
        self.node = rclpy.create_node('probe', context=context)
        self.condition = threading.Condition()
        self.messages = {'tf': [], 'tf_static': [], 'friction': [], 'diagnostics': []}
        self.node.create_subscription(TFMessage, '/tf', self._recorder('tf'), 100)
        self.node.create_subscription(
            TFMessage, '/tf_static', self._recorder('tf_static'),
            QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        self.node.create_subscription(JointState, f'{namespace}/dh_kinematics/friction_torque',
                                      self._recorder('friction'), 100)
        self.node.create_subscription(DiagnosticArray, '/diagnostics',
                                      self._recorder('diagnostics'), 100)
        self.reliable = self.node.create_publisher(JointState, f'{namespace}/joint_states', 100)
        self.best_effort = self.node.create_publisher(
            JointState, f'{namespace}/joint_states',
            QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT))

    def record(self, key, message_type, topic, qos=100):
        """Also record the messages on ``topic`` under ``key``."""
        self.messages[key] = []
        self.node.create_subscription(message_type, topic, self._recorder(key), qos)

    def _recorder(self, key):
        def record(message):
            with self.condition:
                self.messages[key].append(message)
                self.condition.notify_all()
        return record

    def wait_for(self, key, predicate, timeout=DEADLINE_S):
        """Return the first message on ``key`` satisfying ``predicate``; fail at the deadline."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                for message in self.messages[key]:
                    if predicate(message):
                        return message
                remaining = deadline - time.monotonic()
                assert remaining > 0, f'no matching message on {key} within {timeout} s'
                self.condition.wait(remaining)

    def clear(self, key):
        """Forget the messages recorded on ``key``."""
        with self.condition:
            self.messages[key].clear()

    def send(self, names, positions, velocities=(), stamp_ns=None, publisher=None):
        """Publish a JointState; return its stamp in ns."""
        message = JointState(name=list(names), position=[float(p) for p in positions],
                             velocity=[float(v) for v in velocities])
        if stamp_ns is None:
            stamp_ns = self.node.get_clock().now().nanoseconds
        message.header.stamp.sec, message.header.stamp.nanosec = divmod(stamp_ns, 10 ** 9)
        (publisher or self.reliable).publish(message)
        return stamp_ns

    def send_fields(self, names, positions, velocities, sec, nanosec):
        """Publish a JointState of any content, as it is, on the reliable publisher."""
        message = JointState(name=list(names), position=list(positions),
                             velocity=list(velocities))
        message.header.stamp.sec, message.header.stamp.nanosec = sec, nanosec
        self.reliable.publish(message)

    def wait_until(self, predicate, what, timeout=DEADLINE_S):
        """Re-check ``predicate`` every 10 ms, and whenever a message arrives, until true."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while not predicate():
                remaining = deadline - time.monotonic()
                assert remaining > 0, f'{what} within {timeout} s'
                self.condition.wait(min(remaining, 0.01))


def stamp_ns(header):
    """Return a header's stamp in ns."""
    return header.stamp.sec * 10 ** 9 + header.stamp.nanosec


class Running:
    """The node under test and a probe, spinning in a background thread."""

    def __init__(self, cli_args, namespace=''):
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = DhKinematicsNode(context=self.context, cli_args=['--ros-args'] + cli_args,
                                     namespace=namespace)
        self.probe = Probe(self.context, namespace)
        self.executor = MultiThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self.executor.add_node(self.probe.node)
        self.thread = threading.Thread(target=self.executor.spin, daemon=True)
        self.thread.start()
        self.probe.wait_until(lambda: self.probe.reliable.get_subscription_count() > 0,
                              'the node did not subscribe to joint_states')

    def stop(self):
        self.executor.shutdown()
        self.node.destroy_node()
        self.probe.node.destroy_node()
        rclpy.try_shutdown(context=self.context)
        self.thread.join(timeout=DEADLINE_S)


class Streamer:
    """Publish joint_states from the probe on a timer, recording each stamp's positions."""

    def __init__(self, probe, names, configurations, period=0.005):
        self.probe, self.names = probe, list(names)
        self.configurations = configurations
        self.sent = {}
        self.lock = threading.Lock()
        self.timer = probe.node.create_timer(period, self._send)

    def _send(self):
        q = self.configurations[len(self.sent) % len(self.configurations)]
        stamp = self.probe.send(self.names, q)
        with self.lock:
            self.sent[stamp] = q

    def count(self):
        """Return how many messages were sent so far."""
        with self.lock:
            return len(self.sent)

    def stop(self):
        """Stop sending; return the last stamp sent, in ns."""
        self.timer.cancel()
        self.probe.node.destroy_timer(self.timer)
        with self.lock:
            return max(self.sent)


def start_node(module, ros_args):
    """Start ``python -m module --ros-args ...`` in a process; wait for its first log line."""
    process = subprocess.Popen([sys.executable, '-m', module, '--ros-args'] + ros_args,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = _read_line(process, DEADLINE_S)
    if '[INFO]' not in line:
        process.kill()
        raise AssertionError(f'{module} did not start: {line}{process.communicate()[1]}')
    return process


def _read_line(process, timeout):
    ready = select.select([process.stderr], [], [], timeout)[0]
    return process.stderr.readline() if ready else ''


def interrupt(process, sig=signal.SIGINT, timeout=DEADLINE_S):
    """Send ``sig``; return (exit code, stderr), killing the process after ``timeout``."""
    process.send_signal(sig)
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        return None, err
    return process.returncode, err
