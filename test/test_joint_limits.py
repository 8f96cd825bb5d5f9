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

"""Joint limits beyond positions: the model's fields and a ros2_control / MoveIt block."""

import io
import math
import subprocess

from dh_kinematics import Chain, Link
from dh_kinematics.core.model_file.parameter_file import flatten
from helpers import CLI_COMMAND, needs_yourdfpy, PACKAGE
import numpy as np
from processes import run_module, spawn
import pytest
import yaml

CONFIG = PACKAGE / 'config'


def _params(name):
    with open(CONFIG / f'{name}.yaml', encoding='utf-8') as stream:
        return flatten(yaml.safe_load(stream)['/**']['ros__parameters'])


def _run(*args):
    process = spawn(CLI_COMMAND + [str(arg) for arg in args], stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True)
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


@pytest.mark.parametrize('model', ['ur5', 'panda'])
def test_a_moveit_joint_limits_file_loads_beside_the_model(model):
    limits = _params(f'{model}_joint_limits')
    chain = Chain.from_params({**_params(model), **limits})
    for name, link in zip(chain.joint_names, chain.links):
        block = f'joint_limits.{name}.'
        for kind, field in (('velocity', 'velocity_limit'), ('acceleration', 'acceleration_limit'),
                            ('jerk', 'jerk_limit'), ('effort', 'effort_limit')):
            has = limits.get(f'{block}has_{kind}_limits', False)
            assert getattr(link, field) == (limits[f'{block}max_{kind}'] if has else None)
    code, out, err = _run('check', CONFIG / f'{model}.yaml', CONFIG / f'{model}_joint_limits.yaml',
                          '--strict')
    assert code == 0, err
    assert out.splitlines()[-2].startswith(f'limits: position {chain.n}/{chain.n}')


def test_a_limit_given_twice_must_agree_and_a_disagreement_names_both():
    params = {**_params('ur5'), **_params('ur5_joint_limits')}
    params['joint_limits.elbow_joint.max_velocity'] = 3.0
    with pytest.raises(ValueError, match=r'elbow_joint\.velocity_limit: disagrees with '
                       r'joint_limits\.elbow_joint\.max_velocity: 3\.0; give one value, or the '
                       r'same in both, got 3\.14159'):
        Chain.from_params(params)
    params['joint_limits.elbow_joint.max_velocity'] = math.pi * (1 + 1e-12)  # agrees
    assert Chain.from_params(params).links[2].velocity_limit == pytest.approx(math.pi)
    params['joint_limits.elbow_joint.min_position'] = -6.0
    with pytest.raises(ValueError, match=r'elbow_joint\.qlim: disagrees with joint_limits\.'
                       r'elbow_joint\.min_position/max_position: \[-6\.0, 6\.28'):
        Chain.from_params(params)


@pytest.mark.parametrize('key, value, message', [
    ('joint_limits.elbow_jiont.max_velocity', 1.0,
     r'names a joint that is not in joints .* \(did you mean elbow_joint\?\)'),
    ('joint_limits.elbow_joint.max_velocty', 1.0,
     r'is not a joint_limits key .* \(did you mean max_velocity\?\)'),
    ('joint_limits.elbow_joint.has_jerk_limits', True,
     r'joint_limits\.elbow_joint\.has_jerk_limits: needs joint_limits\.elbow_joint\.max_jerk'),
    ('joint_limits.elbow_joint.has_velocity_limits', 1,
     r'has_velocity_limits: must be true or false'),
])
def test_a_bad_joint_limits_key_is_named(key, value, message):
    params = dict(_params('ur5'), **{key: value})
    with pytest.raises(ValueError, match=message) as raised:
        Chain.from_params(params)
    assert str(raised.value).startswith('joint_limits.elbow_j')  # the name as in the file


def test_a_bad_value_in_the_block_is_named_as_in_the_file():
    params = dict(_params('ur5'), **{'joint_limits.elbow_joint.has_velocity_limits': True,
                                     'joint_limits.elbow_joint.max_velocity': math.nan})
    with pytest.raises(ValueError, match=r'^joint_limits\.elbow_joint\.max_velocity: must be '
                       'finite, got nan'):
        Chain.from_params(params)


def test_a_limit_switched_off_is_no_limit_and_integers_are_numbers():
    params = dict(_params('puma560'), **{
        'joint_limits.joint1.has_acceleration_limits': False,
        'joint_limits.joint1.max_acceleration': 0,  # MoveIt's files say so
        'joint_limits.joint2.has_acceleration_limits': True,
        'joint_limits.joint2.max_acceleration': 5,
        'joint_limits.joint2.has_deceleration_limits': True,
        'joint_limits.joint2.max_deceleration': 7.5,
        'joint_limits.joint3.angle_wraparound': False})
    links = Chain.from_params(params).links
    assert links[0].acceleration_limit is None
    assert (links[1].acceleration_limit, links[1].deceleration_limit) == (5.0, 7.5)


@needs_yourdfpy
def test_soft_limits_reach_the_urdf_as_a_safety_controller():
    import yourdfpy
    params = dict(_params('puma560'), **{
        'joint_limits.joint2.has_soft_limits': True,
        'joint_limits.joint2.soft_lower_limit': -0.7,
        'joint_limits.joint2.soft_upper_limit': 3.8,
        'joint_limits.joint2.k_position': 10.0,
        'joint_limits.joint2.k_velocity': 20.0})
    chain = Chain.from_params(params)
    link = chain.links[1]
    assert (link.soft_limits, link.k_position, link.k_velocity) == ((-0.7, 3.8), 10.0, 20.0)
    robot = yourdfpy.URDF.load(io.StringIO(chain.to_urdf()), load_meshes=False).robot
    controller = {joint.name: joint.safety_controller for joint in robot.joints}['joint2']
    assert (controller.soft_lower_limit, controller.soft_upper_limit, controller.k_position,
            controller.k_velocity) == (-0.7, 3.8, 10.0, 20.0)
    assert all(controller is None for name, controller in (
        (joint.name, joint.safety_controller) for joint in robot.joints) if name != 'joint2')
    again = Chain.from_params(chain.to_params())  # the model file carries them
    assert again.links[1] == link
    with pytest.raises(ValueError, match=r'joint2\.soft_limits: must lie within qlim'):
        Chain.from_params(dict(params, **{'joint_limits.joint2.soft_lower_limit': -0.9}))


def test_the_new_fields_are_checked_like_the_others():
    with pytest.raises(ValueError, match='acceleration_limit: must be a positive number'):
        Link(acceleration_limit=-1.0)
    with pytest.raises(ValueError, match='k_velocity: must be >= 0'):
        Link(k_velocity=-1.0)
    assert Link(jerk_limit=math.inf).jerk_limit is None
    link = Link(qlim=(-1.0, 1.0), soft_limits=(-0.5, 0.5))
    np.testing.assert_array_equal(link.soft_limits, (-0.5, 0.5))


@pytest.mark.ros
def test_the_node_takes_both_files_and_refuses_a_disagreement(tmp_path):
    import ros_fixtures
    files = ['--params-file', str(CONFIG / 'panda.yaml'), '--params-file',
             str(CONFIG / 'panda_joint_limits.yaml')]
    node = ros_fixtures.NodeThread(ros_fixtures.DhKinematicsNode, 'dh_kinematics', files)
    try:
        links = node.node.config.chain.links
        assert [link.acceleration_limit for link in links] == [
            3.75, 1.875, 2.5, 3.125, 3.75, 5.0, 5.0]
    finally:
        assert node.stop() == 0
    bad = tmp_path / 'bad.yaml'
    bad.write_text((CONFIG / 'ur5_joint_limits.yaml').read_text().replace(
        'max_effort: 28.0', 'max_effort: 30.0', 1))
    code, output = run_module('dh_kinematics.ros.node', [
        '--ros-args', '--params-file', CONFIG / 'ur5.yaml', '--params-file', bad])
    assert code == 1 and ('wrist_1_joint.effort_limit: disagrees with joint_limits.'
                          'wrist_1_joint.max_effort: 30.0') in output
