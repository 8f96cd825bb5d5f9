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

"""The node's motion limits over DDS: a stream that crosses a velocity limit, on /diagnostics."""

import re

from dh_kinematics import Chain
from helpers import PACKAGE
import numpy as np
import pytest

from ros_fixtures import Running

pytestmark = pytest.mark.ros

UR5 = str(PACKAGE / 'config' / 'ur5.yaml')
CHAIN = Chain.from_yaml(UR5)
JOINTS = list(CHAIN.joint_names)
STEP_NS = 10_000_000  # 100 Hz of stamps


@pytest.fixture
def running():
    run = Running(['--params-file', UR5, '-p', 'diagnostics.period:=60.0'])
    yield run
    run.stop()


def _status(message, name):
    return next((status for status in message.status if status.name.endswith(f': {name}')),
                None)


class Sweep:
    """Send joint 1 at a constant speed, in lock-step: each message once its frames are on /tf."""

    def __init__(self, probe):
        now = probe.node.get_clock().now().nanoseconds
        self.probe, self.stamp, self.q = probe, now - now % STEP_NS, 0.0

    def send(self, speed, count, velocities=False):
        """Move joint 1 at ``speed`` rad/s for ``count`` messages; velocities in them or not."""
        for _ in range(count):
            self.stamp += STEP_NS
            self.q += speed * STEP_NS * 1e-9
            positions = np.r_[self.q, np.zeros(5)]
            given = np.r_[speed, np.zeros(5)] if velocities else ()
            self.probe.send(JOINTS, positions, given, stamp_ns=self.stamp)
            self.probe.wait_for_stamp('tf', self.stamp)


@pytest.mark.parametrize('velocities', [False, True], ids=['estimated', 'given'])
def test_a_velocity_past_its_limit_is_an_error_named_with_its_value(running, velocities):
    probe = running.probe
    sweep = Sweep(probe)
    sweep.send(1.0, 5, velocities)  # OK: 1 rad/s of 3.14
    sweep.send(3.3, 12, velocities)  # past the limit of pi rad/s
    found = probe.wait_for('diagnostics', lambda m: _status(m, JOINTS[0]) is not None
                           and _status(m, JOINTS[0]).level[0] == 2)
    joint = _status(found, JOINTS[0])
    values = {kv.key: kv.value for kv in joint.values}
    velocity = float(values['velocity'])  # the message's, or the filter's on its way to 3.3
    assert np.pi < velocity <= 3.3 and (velocity == 3.3 or not velocities)
    # The message rounds the value itself, the key/value its six-digit text: compared as numbers
    # (the two roundings may differ in a last digit), never as text.
    said = re.fullmatch(r'velocity (\S+) rad/s above limit 3\.14 by (\S+)', joint.message)
    assert said, joint.message
    assert float(said[1]) == pytest.approx(velocity, rel=2e-3)
    assert float(said[2]) == pytest.approx(velocity - np.pi, rel=2e-2, abs=1e-4)
    assert float(values['velocity_limit']) == pytest.approx(np.pi, rel=1e-5)
    arm = _status(found, 'arm')
    assert arm.level[0] == 2 and arm.message == f'ERROR: {JOINTS[0]} ({joint.message})'
    sweep.send(3.05, 12, velocities)  # 97 %: inside the hysteresis band, still ERROR
    sweep.send(2.9, 12, velocities)  # 92 %: WARN
    found = probe.wait_for('diagnostics', lambda m: _status(m, JOINTS[0]).level[0] == 1,
                           after=found)
    # The status tells the velocity of the last message taken when it is published: the one
    # whose velocity left the band, or a later one (how much later is the machine's timing).
    # Given, that is 2.9; estimated, the filter's on its way from 3.05 to about 2.9.
    said = re.fullmatch(r'velocity (\S+) rad/s at (\d+)% of limit 3\.14',
                        _status(found, JOINTS[0]).message)
    assert said, _status(found, JOINTS[0]).message
    velocity = float(said[1])
    assert 2.85 <= velocity < 3.05 and (velocity == 2.9 or not velocities)
    assert int(said[2]) == pytest.approx(100 * velocity / np.pi, abs=1)
    sweep.send(1.0, 12, velocities)
    found = probe.wait_for('diagnostics', lambda m: _status(m, JOINTS[0]).level[0] == 0,
                           after=found)
    assert _status(found, 'arm').message == 'all joints within limits'


def test_the_tool_speed_and_a_singularity_reach_diagnostics_and_the_manipulability_topic():
    from dh_kinematics.core.kinematics import manipulability
    from std_msgs.msg import Float64MultiArray

    run = Running(['--params-file', UR5, '-p', 'diagnostics.period:=60.0', '-p',
                   'singularity.enabled:=true', '-p', 'tool_speed_limit:=0.25'])
    try:
        probe = run.probe
        probe.record('manipulability', Float64MultiArray, '/dh_kinematics/manipulability', 100)
        run.wait_matched(run.node)
        probe.wait_until(lambda: run.node.flow.wanted.manipulability, 'no subscriber seen')
        sweep = Sweep(probe)
        sweep.q = -1.0
        sweep.send(0.5, 4)  # joint 1 at 0.5 rad/s: the tool (0.19 m from its axis) is slow
        found = probe.wait_for('diagnostics', lambda m: _status(m, 'singularity') is not None
                               and _status(m, 'singularity').level[0] == 2)
        # Joints 2 to 6 at 0: the UR5 stretched out, elbow straight, wrist in line.
        singular = _status(found, 'singularity')
        assert singular.message.split(' singularity: ')[0] in ('elbow', 'wrist')
        assert singular.message.endswith(' above 1000')
        assert 'singularity (' in _status(found, 'arm').message
        q = np.r_[sweep.q, np.zeros(5)]
        expected = manipulability.Conditioning(CHAIN).measures(CHAIN.jacob0(q))
        message = probe.wait_for('manipulability', lambda m: m.data[0] == expected[0])
        assert message.layout.dim[0].label.split() == [
            'sigma_translation', 'condition_translation', 'sigma_rotation',
            'condition_rotation', 'sigma', 'condition', 'sigma_scaled', 'condition_scaled',
            'tool_speed', 'stamp.sec', 'stamp.nanosec']
        np.testing.assert_allclose(message.data[:4], expected[:4], rtol=1e-12)
        # At the singularity the smallest singular values of the whole and the scaled
        # Jacobian are rounding noise (about 1e-16), which differs from one of the sweep's
        # configurations to the next: the node says zero and an unbounded condition.
        assert max(message.data[4], message.data[6], expected[4], expected[6]) < 1e-12
        assert min(message.data[5], message.data[7], expected[5], expected[7]) > 1e12
        speed = manipulability.tool_speed(CHAIN.jacob0(q), np.r_[0.5, np.zeros(5)])
        assert message.data[8] == pytest.approx(speed, rel=1e-9)
        sweep.send(2.0, 4)  # now the tool moves faster than 0.25 m/s
        found = probe.wait_for('diagnostics', lambda m: _status(m, 'tool_speed') is not None
                               and _status(m, 'tool_speed').level[0] == 2, after=found)
        assert _status(found, 'tool_speed').message.startswith('tool0 at ')
        assert 'above limit 0.25 by' in _status(found, 'tool_speed').message
    finally:
        run.stop()
