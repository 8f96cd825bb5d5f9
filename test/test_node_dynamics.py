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
The dynamics on the wire, over real DDS: gravity torques, expected efforts, residuals, payload.

Each topic is checked against the core's own :meth:`Chain.gravload` and :meth:`Chain.rne` at
the joint states the probe published (to 1e-9). The motion has a constant acceleration and its
stamps are 1/64 s apart, so that the node's estimates of velocity and acceleration are exact.
"""

import math
import re

from helpers import PACKAGE
import numpy as np
import pytest
from rclpy.parameter import Parameter
from ros_fixtures import NodeThread, Running
from sensor_msgs.msg import JointState

from dh_kinematics import Chain  # noqa: I100
from dh_kinematics.ros.sim_arm import SimArm  # noqa: I100
from dh_kinematics.node_logic.joint_states import NONE_WANTED, Wanted  # noqa: I100

pytestmark = pytest.mark.ros

PANDA = str(PACKAGE / 'config' / 'panda.yaml')
PUMA = str(PACKAGE / 'config' / 'puma560.yaml')
CHAIN = Chain.from_yaml(PANDA)
JOINTS = list(CHAIN.joint_names)
STEP_NS = 1_000_000_000 // 64
Q0 = np.array([0.5, -0.25, 0.25, -1.5, 0.125, 1.5, -0.5])
V0 = np.array([0.25, -0.5, 0.125, 0.5, 0.25, -0.125, 0.5])
A = np.array([0.75, 0.5, -0.25, 1.5, -1.0, 0.5, 2.0])
TOPICS = {'gravity': 'gravity_torque', 'expected': 'expected_effort',
          'residual': 'effort_residual'}


@pytest.fixture
def running():
    run = Running(['--params-file', PANDA, '-p', 'diagnostics.period:=60.0'])
    yield run
    run.stop()


def _subscribe(running, keys=TOPICS):
    for key in keys:
        running.probe.record(key, JointState, f'/dh_kinematics/{TOPICS[key]}', 100)
    running.wait_matched(running.node)
    wanted = Wanted(*(key in keys for key in TOPICS))
    running.probe.wait_until(lambda: running.node.flow.wanted == wanted,
                             'the node did not see the subscriptions')


class Motion:
    """Send a motion of constant acceleration, one message per 1/64 s of stamps."""

    def __init__(self, probe):
        now = probe.node.get_clock().now().nanoseconds
        self.probe, self.base, self.k = probe, now - now % STEP_NS, 0

    def send(self, chain=CHAIN, offsets=None):
        """Send the next state, with measured efforts ``rne + offsets`` if given."""
        t = self.k / 64
        q, qd = Q0 + V0 * t + A * t * t / 2, V0 + A * t
        efforts = () if offsets is None else chain.rne(q, qd, A) + offsets
        stamp = self.probe.send(JOINTS, q, qd, stamp_ns=self.base + self.k * STEP_NS,
                                efforts=efforts)
        self.k += 1
        return stamp, q, qd


def test_each_topic_equals_the_core_at_the_published_states(running):
    _subscribe(running)
    motion, probe = Motion(running.probe), running.probe
    offsets = np.array([0.0, 3.0, 0.0, -1.5, 0.0, 0.0, 0.25])
    for _ in range(2):  # the second message gives the first acceleration
        stamp, *_ = motion.send(offsets=offsets)
    probe.wait_for_stamp('expected', stamp)
    for _ in range(5):
        stamp, q, qd = motion.send(offsets=offsets)
        gravity = probe.wait_for_stamp('gravity', stamp)
        expected = probe.wait_for_stamp('expected', stamp)
        residual = probe.wait_for_stamp('residual', stamp)
        assert gravity.name == expected.name == residual.name == JOINTS
        np.testing.assert_allclose(gravity.effort, CHAIN.gravload(q), rtol=0, atol=1e-9)
        np.testing.assert_allclose(expected.effort, CHAIN.rne(q, qd, A), rtol=0, atol=1e-9)
        np.testing.assert_allclose(residual.effort, offsets, rtol=0, atol=1e-9)


def test_a_payload_change_at_run_time_reaches_the_torques(running):
    _subscribe(running, ['gravity', 'expected'])
    motion, probe = Motion(running.probe), running.probe
    payload = [Parameter('payload.mass', value=2.5),
               Parameter('payload.com', value=[0.0, 0.02, 0.08]),
               Parameter('payload.inertia', value=[0.01, 0.02, 0.015])]
    result, = probe.set_parameters('/dh_kinematics', payload, atomically=True)
    assert result.successful, result.reason
    loaded = CHAIN.with_payload(2.5, [0.0, 0.02, 0.08], [0.01, 0.02, 0.015])
    for _ in range(4):
        stamp, q, qd = motion.send()
    np.testing.assert_allclose(probe.wait_for_stamp('gravity', stamp).effort,
                               loaded.gravload(q), rtol=0, atol=1e-9)
    np.testing.assert_allclose(probe.wait_for_stamp('expected', stamp).effort,
                               loaded.rne(q, qd, A), rtol=0, atol=1e-9)
    assert np.abs(loaded.gravload(q) - CHAIN.gravload(q)).max() > 1.0
    result, = probe.set_parameters('/dh_kinematics', [Parameter('payload.mass', value=-1.0)],
                                   atomically=True)
    assert not result.successful and 'payload.mass' in result.reason
    assert running.node.config.chain.payload.mass == 2.5  # the refused change lost nothing


def test_nothing_is_computed_until_someone_subscribes(running):
    node, probe = running.node, running.probe
    motion = Motion(probe)
    for _ in range(3):
        stamp, *_ = motion.send()
        probe.wait_for_stamp('tf', stamp)
    assert node.flow.wanted == NONE_WANTED and node.flow.rates.qd == [None] * 7
    _subscribe(running, ['gravity'])
    stamp, *_ = motion.send()
    probe.wait_for_stamp('gravity', stamp)
    assert node.flow.rates.qd == [None] * 7  # gravity needs no velocities


def test_the_effort_monitor_flags_sim_arms_collision_and_recovers():
    """sim_arm hits joint2 with 10 N m for 0.5 s of every 1.5 s: WARN, OK, then ERROR, OK."""
    run = Running(['--params-file', PUMA, '-p', 'effort.warn:=[5.0]',
                   '-p', 'effort.error:=[20.0]', '-p', 'effort.hold:=0.05',
                   '-p', 'effort.estimator:=acceleration'])
    sim = NodeThread(SimArm, 'sim_arm', [
        '--params-file', PUMA, '-p', 'rate:=200.0', '-p', 'collision.joint:=joint2',
        '-p', 'collision.effort:=10.0', '-p', 'collision.start:=0.5',
        '-p', 'collision.duration:=0.5', '-p', 'collision.every:=1.5'])
    try:
        probe = run.probe

        def joint2(flagged, level=None, after=None):
            """Wait for joint2's status, flagged for its effort or not (and at ``level``)."""
            def matches(array):
                return any(s.name.endswith(': joint2')
                           and ('effort residual' in s.message) == flagged
                           and level in (None, s.level[0]) for s in array.status)
            found = probe.wait_for('diagnostics', matches, after=after)
            return found, next(s for s in found.status if s.name.endswith(': joint2'))

        # The sweep touches the limits, which may add a WARN of their own (never an ERROR).
        found, status = joint2(True, level=1)
        assert status.message.endswith(' N m'), status.message
        residual = float({v.key: v.value for v in status.values}['effort_residual'])
        assert 5.0 < residual < 20.0
        arm = next(s for s in found.status if s.name.endswith(': arm'))
        assert re.search(r'joint2 \([^)]*effort residual \+', arm.message), arm.message
        found, status = joint2(False, after=found)
        assert status.level[0] < 2
        result, = probe.set_parameters('/dh_kinematics',
                                       [Parameter('effort.error', value=[8.0])], True)
        assert result.successful, result.reason
        found, status = joint2(True, level=2, after=found)
        joint2(False, after=found)
    finally:
        assert sim.stop() == 0
        run.stop()


def test_bad_thresholds_are_refused_at_run_time_naming_the_parameter(running):
    probe = running.probe
    for value, words in (([1.0, 2.0], 'must hold 1 value'), ([-1.0], 'must be > 0'),
                         ([math.nan], 'must be > 0')):
        result, = probe.set_parameters('/dh_kinematics',
                                       [Parameter('effort.warn', value=value)], True)
        assert not result.successful and words in result.reason, result.reason
    assert running.node.config.settings['effort.warn'] == [math.inf]
