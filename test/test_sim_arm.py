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

"""sim_arm drives the node: a smooth sweep, velocities for friction, a limit overshoot, efforts."""

import signal
import subprocess
import sys

from helpers import PACKAGE
import numpy as np
from processes import spawn
import pytest
from ros_fixtures import interrupt, NodeThread, read_line, Running, stamp_ns
from ros_probe import Probe
from sensor_msgs.msg import JointState

from dh_kinematics import Chain  # noqa: I100
from dh_kinematics.ros import demo  # noqa: I100
from dh_kinematics.ros.sim_arm import SimArm  # noqa: I100
from dh_kinematics.node_logic.sweep import sweep  # noqa: I100

pytestmark = pytest.mark.ros

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
        # One transform per joint: to the axis frame of each standard DH link with a or alpha
        # not 0, else to the link frame.
        frames = running.probe.wait_for('tf', lambda m: len(m.transforms) == 6)
        assert stamp_ns(frames.transforms[0].header) > 0
    finally:
        assert sim.stop() == 0


@pytest.mark.parametrize('argument, words', [
    ('rate:=0.0', 'rate'),
    ('collision.joint:=joint9', "collision.joint: 'joint9' is not a joint"),
    ('trajectory:=/no/such/log.csv', '/no/such/log.csv: cannot read the joint log'),
])
def test_invalid_sim_arm_parameters_are_refused(argument, words):
    result = subprocess.run(
        [sys.executable, '-m', 'dh_kinematics.ros.sim_arm', '--ros-args', '--params-file', PUMA,
         '-p', argument], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1, result.stderr
    assert words in result.stderr and 'Traceback' not in result.stderr, result.stderr


def test_sim_arm_efforts_are_the_models_plus_an_unknown_payload_and_the_collision():
    chain = Chain.from_yaml(PUMA)
    loaded = chain.with_payload(2.0, [0.0, 0.0, 0.1])
    probe = Probe(name='effort_probe', best_effort=False)
    probe.record('joint_states', JointState, '/joint_states', 100)
    sim = NodeThread(SimArm, 'sim_arm', [
        '--params-file', PUMA, '-p', 'extra_payload.mass:=2.0',
        '-p', 'extra_payload.com:=[0.0, 0.0, 0.1]', '-p', 'collision.joint:=joint3',
        '-p', 'collision.effort:=-7.5', '-p', 'collision.start:=0.0',
        '-p', 'collision.duration:=1e6'])
    try:
        message = probe.wait_for('joint_states', lambda m: True)
        # sim_arm stamps each message with the time its sweep was evaluated at.
        t = (stamp_ns(message.header) - sim.node.start_time.nanoseconds) * 1e-9
        q, qd, qdd = sweep(t, chain.qlim, [False] * 6, 10.0)
        np.testing.assert_array_equal(message.position, q)
        np.testing.assert_array_equal(message.velocity, qd)
        expected = loaded.rne(q, qd, qdd) + [0.0, 0.0, -7.5, 0.0, 0.0, 0.0]
        np.testing.assert_allclose(message.effort, expected, rtol=0, atol=1e-9)
    finally:
        probe.close()
        assert sim.stop() == 0


def test_sim_arm_plays_a_trajectory_file_over_and_over(tmp_path):
    from dh_kinematics.logs import JointLog
    from dh_kinematics.logs.csv_log import write
    from dh_kinematics.ros.sim_arm import ros_arguments

    chain = Chain.from_yaml(PUMA)
    t = np.arange(0.0, 2.0, 0.01)  # a 2 s trajectory of 100 Hz: sines of 0.5 Hz
    w = 2.0 * np.pi * 0.5
    amplitude = 0.2 * np.arange(1, 7)
    q, qd = amplitude * np.sin(w * t[:, None]), amplitude * w * np.cos(w * t[:, None])
    write(tmp_path / 'traj.csv', JointLog(chain.joint_names, t, q, qd, None))
    assert ros_arguments(['sim_arm', '--trajectory', 'a.csv', '--ros-args', '-p', 'rate:=1.0']) \
        == ['sim_arm', '--ros-args', '-p', 'trajectory:=a.csv', '-p', 'rate:=1.0']
    probe = Probe(name='trajectory_probe', best_effort=False)
    probe.record('joint_states', JointState, '/joint_states', 100)
    sim = NodeThread(SimArm, 'sim_arm', ['--params-file', PUMA, '-p',
                                         f'trajectory:={tmp_path / "traj.csv"}'])
    try:
        late = probe.wait_for('joint_states', lambda m: (  # into the second time round
            stamp_ns(m.header) - sim.node.start_time.nanoseconds) * 1e-9 > 2.2)
        played = (stamp_ns(late.header) - sim.node.start_time.nanoseconds) * 1e-9 % t[-1]
        expected = [np.interp(played, t, column) for column in q.T]
        np.testing.assert_allclose(late.position, expected, rtol=0, atol=1e-12)
        np.testing.assert_allclose(late.velocity, [np.interp(played, t, c) for c in qd.T],
                                   rtol=0, atol=1e-12)
        qdd = -amplitude * w ** 2 * np.sin(w * played)  # the exact sines' accelerations
        np.testing.assert_allclose(late.effort, chain.rne(late.position, late.velocity, qdd),
                                   rtol=0, atol=0.05)
    finally:
        probe.close()
        assert sim.stop() == 0


@pytest.mark.parametrize('model', ['puma560', 'panda'])
def test_sim_arm_crosses_every_safety_limit_the_demo_sets(model):
    # The demo's safety limits (80 % of each quantity's peak over the sweep): sim_arm's
    # sweep, 4 s a period here, takes every safety status to ERROR and then back to OK.
    path = str(PACKAGE / 'config' / f'{model}.yaml')
    chain = Chain.from_yaml(path)
    arguments = demo.safety_arguments(chain, 4.0, 0.0)
    run = Running(['--params-file', path, '-p', 'diagnostics.period:=0.1'] + arguments)
    sim = NodeThread(SimArm, 'sim_arm', ['--params-file', path, '-p', 'period:=4.0',
                                         '-p', 'rate:=200.0'])
    tasks = ('frame_speed', 'momentum', 'kinetic_energy', 'power', 'stopping', 'planes',
             'contact')
    try:
        seen, handled = {task: [] for task in tasks}, set()  # each task's levels, in order

        def every_level(message):  # called again for the messages seen before
            if id(message) not in handled:
                handled.add(id(message))
                for status in message.status:
                    task = status.name.rpartition(': ')[2]
                    if task in seen:
                        seen[task].append(status.level[0])
            return all(2 in levels and 0 in levels[levels.index(2):]  # ERROR, then OK
                       for levels in seen.values())
        try:
            run.probe.wait_for('diagnostics', every_level, timeout=60.0)
        except AssertionError as error:
            raise AssertionError(f'levels seen: {seen}') from error
    finally:
        assert sim.stop() == 0
        run.stop()


@pytest.mark.slow
def test_the_demo_flags_the_collision_a_velocity_a_singularity_and_the_safety_limits():
    """Run make demo's job: the summary names a collision, a velocity, a singularity, safety."""
    demo = spawn([sys.executable, '-m', 'dh_kinematics.ros.demo', '--duration', '0',
                  '--collision-start', '0.5'], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    # sim_arm's collision adds 25 N m to the effort joint2 measures: the world pushes back.
    wanted = {'collision': lambda line: 'joint2: ' in line and 'external torque -25 N m' in line,
              'safety': lambda line: line.startswith('safety: momentum '),
              'contact': lambda line: line.strip().startswith('contact: tool0 at ')
              and ' against hands_fingers: ' in line,
              'velocity': lambda line: line.strip().startswith('joint1: velocity ')
              and 'rad/s above limit' in line,
              'singularity': lambda line: line.strip().startswith('singularity: ')
              and ' singularity: ' in line and ': condition number ' in line}
    try:
        lines, seen = [], set()
        while seen != set(wanted):
            line = read_line(demo, stream=demo.stdout)
            assert line, f'the demo ended or went quiet: {"".join(lines[-20:])}'
            lines.append(line)
            # A summary a second of some 10 lines: minutes of it without a sign is a failure
            # (a line the matchers no longer read), not a wait to the end of CI.
            assert len(lines) < 3000, (set(wanted) - seen, ''.join(lines[-20:]))
            seen |= {name for name, matches in wanted.items() if matches(line)}
        assert any(line.startswith('external torque (N m or N): ') for line in lines)
    finally:
        code, _ = interrupt(demo)
    assert code == 0


def test_the_demo_kills_a_child_that_outlives_the_wait_instead_of_failing(capsys):
    child = subprocess.Popen(
        [sys.executable, '-c', 'import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)'
         '\nprint("ready", flush=True)\ntime.sleep(120)'], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == 'ready\n'
    demo.stop_children([child], timeout=0.5)  # SIGINT ignored: killed at the deadline
    child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    assert 'killed -c import signal' in capsys.readouterr().err
