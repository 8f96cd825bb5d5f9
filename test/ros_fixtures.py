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

The node under test runs exactly as its console script runs it: :func:`ros_main.run`, with the
production executor, in a thread and an rclpy context of its own (a DDS participant of its own,
as a separate process would have). The probe that talks to it has its own context too, and its
own spinning thread. Before a test sends anything, every topic between the two has matched both
ways. Waiting is always on a condition with a deadline, never a sleep; a deadline is how long a
failing run waits before it says so, not a bound on how fast anything must be.
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
from dh_kinematics.ros_main import run, spin  # noqa: E402
from rcl_interfaces.srv import SetParameters, SetParametersAtomically  # noqa: E402,I100
from rclpy.executors import SingleThreadedExecutor  # noqa: E402,I100
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from tf2_msgs.msg import TFMessage  # noqa: E402

os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
os.environ.setdefault('ROS_DOMAIN_ID', str(100 + os.getpid() % 100))
DEADLINE_S = 30.0
# A message not seen within this is sent again (with a new stamp). On loopback a joint_states
# message takes about a millisecond; this only matters when one is lost (best effort).
RESEND_S = 1.0


def stamp_ns(header):
    """Return a header's stamp in ns."""
    return header.stamp.sec * 10 ** 9 + header.stamp.nanosec


def _message_stamp(message):
    """Return the stamp of a message (a TFMessage's first transform's), or None."""
    if isinstance(message, TFMessage):
        return stamp_ns(message.transforms[0].header) if message.transforms else None
    return stamp_ns(message.header)


class Probe:
    """A node that publishes joint_states and records /tf, /tf_static, friction, diagnostics."""

    def __init__(self, namespace='', name='probe', best_effort=True):
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node(name, context=self.context)
        self.condition = threading.Condition()
        self.messages, self.by_stamp = {}, {}
        self.record('tf', TFMessage, '/tf', 100)
        self.record('tf_static', TFMessage, '/tf_static',
                    QoSProfile(depth=10, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        self.record('friction', JointState, f'{namespace}/dh_kinematics/friction_torque', 100)
        self.record('diagnostics', DiagnosticArray, '/diagnostics', 100)
        self.reliable = self.node.create_publisher(JointState, f'{namespace}/joint_states', 100)
        self.best_effort = best_effort and self.node.create_publisher(
            JointState, f'{namespace}/joint_states',
            QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT))
        self._executor = SingleThreadedExecutor(context=self.context)
        self._executor.add_node(self.node)
        self._thread = threading.Thread(target=spin, args=(self._executor, self.context),
                                        daemon=True)
        self._thread.start()

    def close(self):
        """Stop spinning, then destroy: the order rclpy needs for a quiet teardown."""
        rclpy.try_shutdown(context=self.context)
        self._thread.join(DEADLINE_S)
        self._executor.shutdown()
        self.node.destroy_node()

    def record(self, key, message_type, topic, qos=100):
        """Record the messages on ``topic`` under ``key``, also by stamp."""
        self.messages[key], self.by_stamp[key] = [], {}
        self.node.create_subscription(message_type, topic, self._recorder(key), qos)

    def _recorder(self, key):
        def record(message):
            with self.condition:
                self.messages[key].append(message)
                self.by_stamp[key].setdefault(_message_stamp(message), message)
                self.condition.notify_all()
        return record

    def wait_for(self, key, predicate, timeout=DEADLINE_S, after=None):
        """
        Return the first message on ``key`` satisfying ``predicate``; fail at the deadline.

        With ``after`` (a recorded message), only the messages recorded after it count.
        """
        with self.condition:
            start = 0 if after is None else next(
                i for i, m in enumerate(self.messages[key]) if m is after) + 1
        found = []

        def match():
            for message in self.messages[key][start:]:
                if predicate(message):
                    found.append(message)
                    return True
            return False
        self.wait_until(match, f'no matching message on {key}', timeout, poll=False)
        return found[0]

    def wait_for_stamp(self, key, stamp, timeout=DEADLINE_S, fail=True):
        """Return the first message on ``key`` stamped ``stamp`` (ns); None or fail at timeout."""
        if not self.wait_until(lambda: stamp in self.by_stamp[key], f'nothing stamped {stamp} '
                               f'on {key}', timeout, poll=False, fail=fail):
            return None
        return self.by_stamp[key][stamp]

    def clear(self, key):
        """Forget the messages recorded on ``key``."""
        with self.condition:
            self.messages[key].clear()
            self.by_stamp[key].clear()

    def send(self, names, positions, velocities=(), stamp_ns=None, publisher=None):
        """Publish a JointState; return its stamp in ns (now on the probe's clock by default)."""
        message = JointState(name=list(names), position=[float(p) for p in positions],
                             velocity=[float(v) for v in velocities])
        if stamp_ns is None:
            stamp_ns = self.node.get_clock().now().nanoseconds
        message.header.stamp.sec, message.header.stamp.nanosec = divmod(stamp_ns, 10 ** 9)
        (publisher or self.reliable).publish(message)
        return stamp_ns

    def send_until_seen(self, names, positions, velocities=(), key='tf', seen_by=None):
        """
        Send, with a new stamp each time, until a message on ``key`` carries the stamp.

        ``seen_by`` is the probe that must record it (default: this one). Return the stamp.
        """
        deadline = time.monotonic() + DEADLINE_S
        while True:
            stamp = self.send(names, positions, velocities)
            if (seen_by or self).wait_for_stamp(key, stamp, RESEND_S, fail=False) is not None:
                return stamp
            assert time.monotonic() < deadline, f'nothing sent reached {key} in {DEADLINE_S} s'

    def send_fields(self, names, positions, velocities, sec, nanosec):
        """Publish a JointState of any content, as it is, on the reliable publisher."""
        message = JointState(name=list(names), position=list(positions),
                             velocity=list(velocities))
        message.header.stamp.sec, message.header.stamp.nanosec = sec, nanosec
        self.reliable.publish(message)

    def wait_until(self, predicate, what, timeout=DEADLINE_S, poll=True, fail=True):
        """
        Re-check ``predicate`` whenever a message arrives (and every 10 ms with ``poll``).

        Return True once it holds; at the deadline fail, or return False when ``fail`` is off.
        Poll for state that no message of the probe's signals (a node's counters, DDS matches).
        """
        deadline = time.monotonic() + timeout
        with self.condition:
            while not predicate():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    assert not fail, f'{what} within {timeout} s'
                    return False
                self.condition.wait(min(remaining, 0.01) if poll else remaining)
        return True

    def call(self, service_type, name, request):
        """Call a service; ask again if no answer comes (a response can be lost in discovery)."""
        client = self.node.create_client(service_type, name)
        try:
            assert client.wait_for_service(timeout_sec=DEADLINE_S), f'no service {name}'
            deadline = time.monotonic() + DEADLINE_S
            while True:
                future = client.call_async(request)
                if self.wait_until(future.done, '', RESEND_S, fail=False):
                    return future.result()
                assert time.monotonic() < deadline, f'no answer from {name} in {DEADLINE_S} s'
        finally:
            self.node.destroy_client(client)

    def set_parameters(self, node, parameters, atomically=False):
        """
        Set ``parameters`` (rclpy Parameters) over the services of ``node`` (its full name).

        This is what ``ros2 param set`` and ``ros2 param load`` do: the change runs in the
        node's own executor. Return the list of SetParametersResult (one when ``atomically``).
        """
        service = SetParametersAtomically if atomically else SetParameters
        suffix = 'set_parameters_atomically' if atomically else 'set_parameters'
        request = service.Request(parameters=[p.to_parameter_msg() for p in parameters])
        response = self.call(service, f'{node}/{suffix}', request)
        return [response.result] if atomically else list(response.results)


def matched_both_ways(first, second):
    """Tell whether every topic between two nodes has matched, from both ends."""
    for writers, readers in ((list(first.publishers), list(second.subscriptions)),
                             (list(second.publishers), list(first.subscriptions))):
        for topic in {w.topic_name for w in writers} & {r.topic_name for r in readers}:
            on_topic = [r for r in readers if r.topic_name == topic]
            from_topic = [w for w in writers if w.topic_name == topic]
            if (min(w.get_subscription_count() for w in from_topic) < len(on_topic)
                    or min(r.get_publisher_count() for r in on_topic) < len(from_topic)):
                return False
    return True


class NodeThread:
    """A node run by :func:`ros_main.run`, as its console script runs it, in a thread."""

    def __init__(self, node_class, name, ros_args):
        self.context = rclpy.Context()
        self.node = self.exit_code = None
        self._started = threading.Event()

        def factory(**kwargs):
            self.node = node_class(**kwargs)
            self._started.set()
            return self.node

        def target():
            try:
                self.exit_code = run(factory, name, [name, '--ros-args'] + ros_args,
                                     self.context)
            finally:
                self._started.set()
        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()
        assert self._started.wait(DEADLINE_S), f'{name} did not start within {DEADLINE_S} s'
        assert self.node is not None, f'{name} ended with exit code {self.exit_code}'

    def stop(self):
        """Shut the node's context down, as SIGINT would; return ``run``'s exit code."""
        rclpy.try_shutdown(context=self.context)
        self.thread.join(DEADLINE_S)
        assert not self.thread.is_alive(), f'the node did not stop within {DEADLINE_S} s'
        return self.exit_code


class Running:
    """The node under test and a probe, matched both ways on every topic they share."""

    def __init__(self, cli_args, namespace='', best_effort=True):
        args = cli_args + (['-r', f'__ns:={namespace}'] if namespace else [])
        self.node_thread = NodeThread(DhKinematicsNode, 'dh_kinematics', args)
        self.node = self.node_thread.node
        self.probe = None
        started = False
        try:
            self.probe = Probe(namespace, best_effort=best_effort)
            self.wait_matched(self.node)
            started = True
        finally:
            if not started:  # leave nothing behind on DDS for the next test
                self.stop()

    def wait_matched(self, node):
        """Wait until ``node`` and the probe have matched both ways on every shared topic."""
        self.probe.wait_until(lambda: matched_both_ways(node, self.probe.node),
                              f'{node.get_name()} and the probe did not match')

    def stop(self):
        """Close the probe, then stop the node; it must end as it does on Ctrl-C (code 0)."""
        if self.probe is not None:
            self.probe.close()
        assert self.node_thread.stop() == 0


class Streamer:
    """
    Send joint_states from a thread, each once the frames of the one before are on /tf.

    Lock-step keeps the stream as fast as the node and the probe can go on a busy machine,
    and no faster: nothing queues up, and a lost message is sent again after ``RESEND_S``.
    """

    def __init__(self, probe, names, configurations):
        self.probe, self.names = probe, list(names)
        self.configurations = configurations
        self.sent, self.seen = {}, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            q = self.configurations[len(self.seen) % len(self.configurations)]
            stamp = self.probe.node.get_clock().now().nanoseconds
            self.sent[stamp] = q
            self.probe.send(self.names, q, stamp_ns=stamp)
            if self.probe.wait_for_stamp('tf', stamp, RESEND_S, fail=False) is not None:
                self.seen.append(stamp)

    def count(self):
        """Return how many messages reached /tf so far."""
        return len(self.seen)

    def stop(self):
        """Stop sending; return the stamp of the last message that reached /tf, in ns."""
        self._stop.set()
        self._thread.join(DEADLINE_S)
        return self.seen[-1]


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
