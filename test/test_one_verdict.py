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
One verdict, in the same words, whichever door a model comes through (issue 59).

A model file with a bad setting goes through every door a user has: ``dh_kinematics check``,
``view``, the launch files' check (alone and with an argument), the demo, the node at start,
``ros2 param set`` on a running node and the managed node's configure. Each refuses it naming
the setting with the same words.
"""

import math

from helpers import PACKAGE, run_cli
import pytest

pytestmark = pytest.mark.ros  # the launch files' check (dh_kinematics.ros.launch_config)
UR5 = PACKAGE / 'config' / 'ur5.yaml'
BAD = [('safety.momentum_limit', '-1.0', -1.0, 'must be > 0, or .inf for off'),
       ('tf.max_rate', '1.0e-300', 1e-300, 'must be 0 (every message) or within [0.001, 1e+06]'),
       ('limits.hysteresis', '0.95', 0.95, 'must be within [0, limits.warn_fraction)'),
       ('safety.tool_direction.limit', '.nan', math.nan, 'must be > 0, or .inf for off')]


def _model(tmp_path, name, text):
    path = tmp_path / 'bad.yaml'
    path.write_text(UR5.read_text().replace('ros__parameters:\n',
                                            f'ros__parameters:\n    {name}: {text}\n', 1))
    return path


def _doors_before_a_node(path):
    """Yield (door, what it said) for each door that needs no ROS graph."""
    from dh_kinematics.ros import launch_config
    for command in ('check', 'view'):
        yield command, run_cli(command, path, code=1)[1]
    for arguments in ({}, {'xyz': '0 0 0.1'}):  # ffbc72e: only the second was refused
        try:
            launch_config.node_settings(dict(arguments, params_file=str(path)))
        except ValueError as error:
            yield f'launch {arguments}', str(error)
        else:
            yield f'launch {arguments}', 'accepted'


@pytest.mark.parametrize('name, text, value, words', BAD, ids=[bad[0] for bad in BAD])
def test_every_door_before_a_node_starts_refuses_a_bad_setting_in_the_same_words(
        tmp_path, name, text, value, words):
    path = _model(tmp_path, name, text)
    said = dict(_doors_before_a_node(path))
    assert len(said) == 4
    for door, text in said.items():
        assert f'{name}: {words}' in text, (door, text)


@pytest.mark.parametrize('name, text, value, words', BAD, ids=[bad[0] for bad in BAD])
def test_every_door_of_a_running_system_refuses_it_in_the_same_words(tmp_path, capfd, name,
                                                                     text, value, words):
    from dh_kinematics.ros.node import DhKinematicsNode
    from rclpy.parameter import Parameter
    from ros_fixtures import refused_start, Running

    path = _model(tmp_path, name, text)
    code, output = refused_start(DhKinematicsNode, 'dh_kinematics',
                                 ['--ros-args', '--params-file', path], capfd,
                                 'dh_kinematics_node')
    assert code == 1 and f'{name}: {words}' in output, output
    run = Running(['--params-file', str(UR5)])
    try:
        result, = run.probe.set_parameters('/dh_kinematics', [Parameter(name, value=value)])
        assert not result.successful and f'{name}: {words}' in result.reason, result.reason
    finally:
        run.stop()
