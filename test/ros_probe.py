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
The probe: a node that publishes joint_states and records what the node under test publishes.

It has its own rclpy context (a DDS participant of its own, as a separate process would have)
and its own spinning thread; its DDS traffic stays on loopback (conftest.py sets that). Waiting
is always on a condition with a deadline, never a sleep; a deadline is how long a failing run
waits before it says so, not a bound on how fast anything must be.
"""

import threading
import time

from dh_kinematics.ros.main import spin
from diagnostic_msgs.msg import DiagnosticArray
import numpy as np
from rcl_interfaces.srv import SetParameters, SetParametersAtomically
import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from sensor_msgs.msg import JointState
from tf2_msgs.msg import TFMessage

DEADLINE_S = 30.0
# A message not seen within this is sent again (with a new stamp). On loopback a joint_states
# message takes about a millisecond; this only matters when one is lost (best effort).
RESEND_S = 1.0


def stamp_ns(header):
    """Return a header's stamp in ns."""
    return header.stamp.sec * 10 ** 9 + header.stamp.nanosec


def tf_poses(message):
    """Return a TFMessage's transforms as an array of [x, y, z, qx, qy, qz, qw] rows."""
    return np.array([[t.transform.translation.x, t.transform.translation.y,
                      t.transform.translation.z, t.transform.rotation.x, t.transform.rotation.y,
                      t.transform.rotation.z, t.transform.rotation.w]
                     for t in message.transforms])


def _message_stamp(message):
    """Return the stamp of a message (a TFMessage's first transform's), or None."""
    if isinstance(message, TFMessage):
        return stamp_ns(message.transforms[0].header) if message.transforms else None
    header = getattr(message, 'header', None)  # std_msgs/String has none
    return None if header is None else stamp_ns(header)


class Probe:
    """A node that publishes joint_states and records /tf, /tf_static, friction, diagnostics."""

    def __init__(self, namespace='', name='probe', best_effort=True):
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node(name, context=self.context)
        self.condition = threading.Condition()
        self.messages, self.by_stamp, self.subscriptions = {}, {}, {}
        self.clients = {}  # one per service, kept: a client made per call churns discovery
        self.record('tf', TFMessage, '/tf', 100)
        self.record('tf_static', TFMessage, '/tf_static',
                    QoSProfile(depth=10, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        self.record('friction', JointState, f'{namespace}/dh_kinematics/friction_torque', 100)
        self.record('diagnostics', DiagnosticArray, '/diagnostics', 100)
        self.reliable = self.node.create_publisher(JointState, f'{namespace}/joint_states', 100)
        self.best_effort = None
        if best_effort:
            self.best_effort = self.node.create_publisher(
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
        self.subscriptions[key] = self.node.create_subscription(
            message_type, topic, self._recorder(key), qos)

    def forget(self, key):
        """
        Stop recording ``key``: destroy its subscription, on the spinning thread.

        Destroyed from this thread while the executor waits on it, the subscription's event
        handler raises InvalidHandle in the spinning thread (seen on Jazzy under load), which
        ends it: the probe then hears nothing more. A task runs between two waits.
        """
        subscription, done = self.subscriptions.pop(key), threading.Event()

        def destroy():
            self.node.destroy_subscription(subscription)
            done.set()
        self._executor.create_task(destroy)
        assert done.wait(DEADLINE_S), f'the probe did not destroy its {key} subscription'

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

    def send(self, names, positions, velocities=(), stamp_ns=None, publisher=None, efforts=()):
        """Publish a JointState; return its stamp in ns (now on the probe's clock by default)."""
        message = JointState(name=list(names), position=[float(p) for p in positions],
                             velocity=[float(v) for v in velocities],
                             effort=[float(e) for e in efforts])
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
        """
        Call a service; ask again if no answer comes (a response can be lost in discovery).

        One client per service, kept. Where it matches no server in DEADLINE_S although the
        graph lists the service (seen once in about 40 runs, with a node of an earlier test
        still in the graph under the same name), a new client is made and waited for once
        more: its endpoints are matched afresh.
        """
        client = self.clients.get(name)
        if client is None:
            client = self.clients[name] = self.node.create_client(service_type, name)
        if not client.wait_for_service(timeout_sec=DEADLINE_S):
            seen = [service for service, _ in self.node.get_service_names_and_types()
                    if service.startswith(name.rsplit('/', 1)[0])]
            if name in seen:
                self.node.destroy_client(client)
                client = self.clients[name] = self.node.create_client(service_type, name)
            if name not in seen or not client.wait_for_service(timeout_sec=DEADLINE_S):
                raise AssertionError(f'no service {name} in {DEADLINE_S} s; the probe sees '
                                     f'nodes {self.node.get_node_names()} and services {seen}')
        deadline = time.monotonic() + DEADLINE_S
        while True:
            future = client.call_async(request)
            if self.wait_until(future.done, '', RESEND_S, fail=False):
                return future.result()
            assert time.monotonic() < deadline, f'no answer from {name} in {DEADLINE_S} s'

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
