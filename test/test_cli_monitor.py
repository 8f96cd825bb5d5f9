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

"""``dh_kinematics monitor`` over real DDS: the live table of a running node's joints."""

import subprocess

from helpers import CLI_COMMAND as COMMAND, PACKAGE
from processes import read_line, spawn
import pytest
from ros_fixtures import interrupt, start_node

pytestmark = pytest.mark.ros

PANDA = str(PACKAGE / 'config' / 'panda.yaml')


def _monitor(*args):
    process = spawn(COMMAND + ['monitor'] + list(args), stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True)
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


def test_monitor_shows_each_joint_of_the_node_it_watches():
    node = start_node('dh_kinematics.ros.node', ['--params-file', PANDA, '-r', '__ns:=/left',
                                                 '-p', 'diagnostics.period:=0.1'])
    try:
        # It waits for the node's /diagnostics itself; --count ends it after one full table.
        code, out, err = _monitor('--namespace', 'left', '--count', '1', '--period', '0.1')
        assert code == 0, err
        table = out.split('/left/dh_kinematics\n')[-1].splitlines()
        assert table[0].startswith('arm: STALE: STALE: panda_joint1 (no joint_states value yet)')
        assert table[1].split() == ['joint', 'position', 'lower', 'upper', 'margin', 'level',
                                    'age', 'message']
        rows = {line.split()[0]: line for line in table[2:] if line.strip()}
        assert sorted(rows) == [f'panda_joint{i}' for i in range(1, 8)]
        assert all('STALE' in row and 'no joint_states value yet' in row
                   for row in rows.values())  # nothing publishes joint_states here
    finally:
        assert interrupt(node)[0] == 0


def test_ctrl_c_ends_the_monitor_quietly():
    # As record's: under load, Ctrl-C landed inside spin_once as rcl's invalid-context error.
    process = spawn(COMMAND + ['monitor', '--namespace', 'nobody', '--period', '0.1'],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    read_line(process, stream=process.stdout)  # spinning: the first refresh is out
    code, err = interrupt(process)
    assert code == 0 and err == '', err


def test_monitor_refuses_a_bad_period():
    code, _, err = _monitor('--period', '0')
    assert code == 2 and 'a refresh period of 0.01 to 60 s' in err


def test_the_table_gets_a_residual_column_when_the_effort_monitor_is_on():
    from dh_kinematics.cli.monitor import table
    limits = {'position': '0.1', 'lower': '-1', 'upper': '1', 'distance_to_limit': '0.9'}
    joints = {'a': {'level': 0, 'message': 'within limits', 'values': dict(limits),
                    'received': 10.0}}
    assert table(joints, {}, 10.5).splitlines()[0].split() == [
        'joint', 'position', 'lower', 'upper', 'margin', 'level', 'age', 'message']
    joints['b'] = {'level': 2, 'message': 'effort residual +25 N m',
                   'values': dict(limits, effort_residual='25'), 'received': 10.0}
    header, first, second = table(joints, {'a': 0.25}, 10.5).splitlines()
    assert header.split()[5] == 'residual'
    assert first.split()[:9] == ['a', '0.25', '-1', '1', '0.75', '-', 'OK', '0.5', 's']
    assert second.split()[5:7] == ['25', 'ERROR']
    joints['b']['values'] = dict(limits, external_torque='-25')  # the observer's estimate
    header, _, second = table(joints, {'a': 0.25}, 10.5).splitlines()
    assert header.split()[5] == 'external' and second.split()[5:7] == ['-25', 'ERROR']


def test_each_row_computes_its_margin_from_the_position_it_shows():
    from dh_kinematics.cli.monitor import table
    # The status is a period old: it saw 1.254 with margin 0.064; the joint is now at 0.82.
    status = {'level': 1, 'message': 'within 0.1 of upper limit', 'received': 3.0,
              'values': {'position': '1.254', 'lower': '-1.318', 'upper': '1.318',
                         'distance_to_limit': '0.064'}}
    row = table({'j': status}, {'j': 0.827}, 4.0).splitlines()[1].split()
    assert row[:5] == ['j', '0.827', '-1.318', '1.318', '0.491']
    assert row[5:8] == ['WARN', '1.0', 's']  # the status's own level, and its age
    row = table({'j': status}, {}, 4.0).splitlines()[1].split()
    assert row[1:5] == ['1.254', '-1.318', '1.318', '0.064']  # both from the status


def test_a_status_text_cannot_drive_the_terminal():
    # Issue 41 (8): control sequences from status texts went raw to the terminal.
    from dh_kinematics.cli.monitor import table
    joints = {'a\x1b]0;title\x07': {'level': 1, 'message': '\x1b[2J\x1b[31mred\rover',
                                    'values': {'lower': '\x1b[5m-1'}, 'received': 1.0}}
    text = table(joints, {}, 1.0)
    assert '\x1b' not in text and '\r' not in text and '\x07' not in text
    assert '\\x1b[2J\\x1b[31mred\\rover' in text


def test_monitor_keeps_no_more_joints_than_a_node_has():
    # Issue 41 (8): every status name any publisher invented was kept (112 MB in 8 s).
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus

    from dh_kinematics.cli.monitor import MAX_JOINTS
    context = rclpy.Context()
    rclpy.init(context=context)
    node = rclpy.create_node('flood', context=context)
    process = spawn(COMMAND + ['monitor', '--period', '0.1', '--count', '3'],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        publisher = node.create_publisher(DiagnosticArray, '/diagnostics', 10)
        k = 0
        while process.poll() is None:  # until it has shown three tables
            publisher.publish(DiagnosticArray(status=[DiagnosticStatus(
                name=f'/dh_kinematics: j{k + i}', message='x') for i in range(100)]))
            k += 100
            try:
                process.wait(timeout=0.02)
            except subprocess.TimeoutExpired:
                pass
        out, err = process.communicate(timeout=60)
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)
    assert process.returncode == 0, err
    last = out.rstrip().split('/dh_kinematics\n')[-1].splitlines()
    assert 0 < len(last) - 1 <= MAX_JOINTS, len(last)
