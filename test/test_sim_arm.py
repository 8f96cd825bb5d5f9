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

"""sim_arm drives the node: a smooth sweep, velocities for friction, and a limit overshoot."""

import subprocess
import sys

from conftest import PACKAGE
import pytest
from ros_fixtures import NodeThread, Running, stamp_ns

from dh_kinematics.ros.sim_arm import SimArm  # noqa: I100

PUMA = str(PACKAGE / 'config' / 'puma560.yaml')


@pytest.fixture
def running():
    run = Running(['--params-file', PUMA, '-p', 'diagnostics.period:=0.1'])
    yield run
    run.stop()


def test_sweep_with_overshoot_reaches_error_and_stays_smooth(running):
    sim = NodeThread(SimArm, 'sim_arm', ['--params-file', PUMA, '-p', 'overshoot:=0.1',
                                         '-p', 'period:=0.5', '-p', 'rate:=200.0'])
    try:
        running.probe.wait_for('diagnostics', lambda d: any(
            s.level == bytes([2]) and 'limit by' in s.message for s in d.status))
        friction = running.probe.wait_for('friction', lambda m: len(m.name) == 6)
        assert any(abs(e) > 0.0 for e in friction.effort)
        # Six links, and the axis frames of the five standard DH links with a or alpha not 0.
        frames = running.probe.wait_for('tf', lambda m: len(m.transforms) == 11)
        assert stamp_ns(frames.transforms[0].header) > 0
    finally:
        assert sim.stop() == 0


def test_invalid_sim_arm_parameters_are_refused():
    result = subprocess.run(
        [sys.executable, '-m', 'dh_kinematics.ros.sim_arm', '--ros-args', '--params-file', PUMA,
         '-p', 'rate:=0.0'], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert 'rate' in result.stderr and 'Traceback' not in result.stderr, result.stderr
