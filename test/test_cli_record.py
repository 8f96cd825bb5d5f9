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
excite, sim_arm --trajectory, record, identify: a model learned in simulation, end to end.

sim_arm plays the excitation with a "true" arm's efforts (examples/simulate_joint_log.py's),
``dh_kinematics record`` logs its joint_states over DDS, and ``identify`` learns the arm from
the model it was believed to be. The truths against pinocchio are test_identify.py's; this is
the way a user takes, through the commands.
"""

import signal
import subprocess
import sys

from helpers import CLI_COMMAND, example, needs, PACKAGE, run_cli
import numpy as np
from processes import read_line, spawn
import pytest
from ros_fixtures import interrupt

from dh_kinematics import Chain  # noqa: I100
from dh_kinematics.logs import read  # noqa: I100

pytestmark = pytest.mark.ros
needs_scipy = needs('scipy', 'pip install scipy, or apt install python3-scipy')


@pytest.mark.slow  # excite and identify: a minute of CPU
@needs_scipy
def test_an_arm_is_learned_from_its_excitation_played_and_recorded(tmp_path):
    model = PACKAGE / 'config' / 'ur5.yaml'
    believed = Chain.from_yaml(model)
    truth = example('simulate_joint_log').true_arm(believed, np.random.default_rng(2))
    truth.to_yaml(tmp_path / 'truth.yaml')
    run_cli('excite', model, '-o', tmp_path / 'traj.csv', '--period', '6', '--rate', '200')
    sim = spawn([sys.executable, '-m', 'dh_kinematics.ros.sim_arm', '--trajectory',
                 str(tmp_path / 'traj.csv'), '--ros-args', '--params-file',
                 str(tmp_path / 'truth.yaml'), '-p', 'rate:=500.0'],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert '[INFO]' in read_line(sim)
        out, err = run_cli('record', '-o', tmp_path / 'log.csv', '--duration', '12')
    finally:
        assert interrupt(sim)[0] == 0
    assert out.startswith(f'wrote {tmp_path / "log.csv"}: ') and 'ur5' not in err
    log, _ = read(str(tmp_path / 'log.csv'))
    assert log.names == believed.joint_names and log.effort is not None
    assert log.time[-1] - log.time[0] >= 12.0
    out, _ = run_cli('identify', model, tmp_path / 'log.csv', '-o', tmp_path / 'found.yaml')
    found = Chain.from_yaml(tmp_path / 'found.yaml')
    q = log.position[::10]
    qd = log.velocity[::10]
    qdd = np.zeros_like(q)
    true = truth.rne(q, qd, qdd)
    assert np.linalg.norm(found.rne(q, qd, qdd) - true) < 0.01 * np.linalg.norm(true), out


@pytest.mark.parametrize('sig', [signal.SIGINT, signal.SIGTERM])
def test_record_ended_before_any_message_writes_nothing(tmp_path, sig):
    # Ctrl-C once landed between the loop's check and rclpy's global executor, made again after
    # rclpy's own handler shut it down: a traceback. SIGTERM (ros2 launch, timeout) ends it too.
    record = spawn(CLI_COMMAND + ['record', '-o', str(tmp_path / 'log.csv'), '--topic',
                                  '/nobody'], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                   text=True)
    assert read_line(record).startswith('recording /nobody into ')
    code, err = interrupt(record, sig)
    assert code == 1 and err.endswith('dh_kinematics record: error: /nobody: no '
                                      'sensor_msgs/JointState message came; nothing written\n')
    assert not (tmp_path / 'log.csv').exists()


@pytest.mark.parametrize('args, words', [
    (('--duration', '-1'), '--duration: -1.0 must be 0 or a positive number of s'),
    (('--count', '-2'), '--count: -2 must be from 0 to 3600000'),
])
def test_a_bad_record_request_is_one_line(tmp_path, args, words):
    _, err = run_cli('record', '-o', tmp_path / 'log.csv', *args, code=1)
    assert words in err


@pytest.mark.parametrize('name', ['a,b', 'a\nb', 'a#b', ' a'])
def test_a_joint_name_no_column_holds_is_refused_and_nothing_written(tmp_path, name):
    # Issue 71 (7): record wrote raw joint names into the CSV header: a ',', a line break or a
    # '#' gave a file that read back as other columns.
    from ros_probe import Probe

    probe = Probe()
    record = spawn(CLI_COMMAND + ['record', '-o', str(tmp_path / 'log.csv')],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert read_line(record).startswith('recording /joint_states into ')
        probe.wait_until(lambda: probe.send([name, 'c'], [0.1, 0.2]) and (
            record.poll() is not None), 'record ended on the first message')
    finally:
        probe.close()
    _, err = record.communicate(timeout=60)
    assert record.returncode == 1 and err.count('\n') == 1, err
    assert err.startswith('dh_kinematics record: error: /joint_states: joint name: a joint name '
                          'is letters, digits, _, - and . (no / or space); '), err
    assert err.endswith(f', got {name!r}: nothing written\n'), err
    assert not (tmp_path / 'log.csv').exists()
