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
The generated URDF against independent engines: pinocchio, yourdfpy and urdfdom's check_urdf.

For every shipped model and 200 random DH and MDH arms (seeded; prismatic and flipped joints,
offsets, limits or none), the URDF must parse, every frame the node publishes must be a URDF
link whose pose equals ours at random configurations, and pinocchio's gravity torques and
inverse dynamics must equal our rne without motor inertia and friction. Half the random arms
carry a payload, which the URDF puts on the tool link and pinocchio merges into the last joint's
body itself: an independent check of :func:`core.dynamics.payload.fold`.
"""

import io
import math
import os
import subprocess
import xml.etree.ElementTree as ET
import zlib

from dh_kinematics import Chain, Link
from dh_kinematics.core.urdf import writer
from helpers import (
    CHAINS, check_urdf_command, expected_world_poses, for_each_arm, needs_check_urdf, needs_pin,
    needs_yourdfpy, optional, PACKAGE, pin, pin_configuration, run_cli)
import numpy as np
import pytest
import yaml

yourdfpy = optional('yourdfpy')


def _rigid(chain):
    """Return the chain without motor inertia and friction: what a URDF holds of it."""
    return Chain([link.replace(Jm=0.0, B=0.0, Tc=0.0) for link in chain.links],
                 base=chain.base, tool=chain.tool, gravity=chain.gravity,
                 payload=chain.payload)


@needs_pin
@for_each_arm(CHAINS)
def test_pinocchio_agrees_on_every_frame_and_the_dynamics(name, chain):
    text = chain.to_urdf()
    model = pin.buildModelFromXML(text)
    data = model.createData()
    model.gravity.linear = chain.gravity
    rigid = _rigid(chain)
    rng = np.random.default_rng(zlib.crc32(name.encode()))  # hash() varies between runs
    links = {element.get('name') for element in ET.fromstring(text).iter('link')}
    for _ in range(5):
        q = rng.uniform(-2.0, 2.0, chain.n)
        expected = expected_world_poses(chain, q, '')
        assert set(expected) == links
        q_pin = pin_configuration(pin, model, chain.joint_names, q)
        pin.framesForwardKinematics(model, data, q_pin)
        for frame, T in expected.items():
            np.testing.assert_allclose(data.oMf[model.getFrameId(frame)].homogeneous, T,
                                       atol=1e-12, err_msg=frame)
        qd, qdd = rng.uniform(-1.0, 1.0, (2, chain.n))
        np.testing.assert_allclose(pin.computeGeneralizedGravity(model, data, q_pin),
                                   rigid.gravload(q), atol=1e-9)
        np.testing.assert_allclose(pin.rnea(model, data, q_pin, qd, qdd),
                                   rigid.rne(q, qd, qdd), atol=1e-9)


@needs_yourdfpy
@for_each_arm(CHAINS)
def test_yourdfpy_agrees_on_every_frame(name, chain):
    robot = yourdfpy.URDF.load(io.StringIO(chain.to_urdf('p/')), load_meshes=False,
                               build_collision_scene_graph=False, load_collision_meshes=False)
    rng = np.random.default_rng(7)
    for _ in range(3):
        q = rng.uniform(-2.0, 2.0, chain.n)
        robot.update_cfg(dict(zip(chain.joint_names, q)))
        for frame, T in expected_world_poses(chain, q, 'p/').items():
            np.testing.assert_allclose(robot.get_transform(frame, chain.world_frame), T,
                                       atol=1e-12, err_msg=frame)


@needs_check_urdf
@for_each_arm(CHAINS[:4] + CHAINS[4:24])
def test_urdfdom_check_urdf_accepts_it(name, chain, tmp_path):
    command, env = check_urdf_command()
    path = tmp_path / 'arm.urdf'
    path.write_text(chain.to_urdf())
    result = subprocess.run([command, str(path)], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, **env))
    assert result.returncode == 0 and 'Successfully Parsed XML' in result.stdout, (
        result.stdout + result.stderr)


def test_what_the_urdf_holds_for_a_joint():
    link = Link(convention='modified', a=0.1, alpha=0.5, d=0.2, offset=0.3, flip=True,
                qlim=(-1.0, 2.0), G=-10.0, B=0.001, Tc=(0.4, -0.2), effort_limit=50.0,
                name='j')
    free = Link(joint='prismatic', name='k', velocity_limit=0.5)
    root = ET.fromstring(Chain([link, Link(convention='modified', name='i')]).to_urdf())
    joint = root.find("joint[@name='j']")
    assert joint.get('type') == 'revolute' and joint.find('axis').get('xyz') == '0.0 0.0 -1.0'
    assert {key: float(value) for key, value in joint.find('limit').attrib.items()} == {
        'lower': -1.0, 'upper': 2.0, 'effort': 50.0, 'velocity': writer.DEFAULT_VELOCITY}
    dynamics = joint.find('dynamics')
    assert float(dynamics.get('damping')) == pytest.approx(0.1)  # B G^2
    assert float(dynamics.get('friction')) == pytest.approx(3.0)  # |G| (Tc+ - Tc-) / 2
    assert root.find("joint[@name='i']").get('type') == 'continuous'
    limit = ET.fromstring(Chain([free]).to_urdf()).find("joint[@name='k']/limit")
    assert float(limit.get('velocity')) == 0.5 and float(limit.get('effort')) == 1000.0
    assert float(limit.get('upper')) == 1000.0


def test_names_are_the_tf_frames_with_the_prefix_and_numbers_read_back_exactly():
    chain = Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml')
    root = ET.fromstring(chain.to_urdf('left/'))
    links = [element.get('name') for element in root.iter('link')]
    assert links[0] == 'world' and all(name.startswith('left/') for name in links[1:])
    assert 'left/link2_axis' in links and 'np.float64' not in chain.to_urdf()


def test_effort_and_velocity_limits_are_optional_positive_fields():
    assert Link(effort_limit=math.inf).effort_limit is None
    assert Link(velocity_limit=2).velocity_limit == 2.0
    for bad in (0.0, -1.0, math.nan, True, 'fast'):
        with pytest.raises(ValueError, match='velocity_limit: must be a positive number'):
            Link(velocity_limit=bad)
    chain = Chain([Link(name='a', effort_limit=20.0)])
    params = chain.to_params()
    assert params['a']['effort_limit'] == 20.0 and 'velocity_limit' not in params['a']
    assert Chain.from_params(params).links[0] == chain.links[0]


def test_the_guide_export_command_writes_the_urdf(tmp_path):
    line = next(line for line in (PACKAGE / 'doc' / 'urdf.md').read_text().splitlines()
                if line.startswith('dh_kinematics urdf config/puma560.yaml -o'))
    args = line.split()[1:]
    args[1] = str(PACKAGE / 'config' / 'puma560.yaml')
    run_cli(*args, cwd=tmp_path)
    text = (tmp_path / 'puma560.urdf').read_text()
    assert text == Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml').to_urdf()


def test_the_rviz_config_draws_the_robot_model_from_robot_description():
    config = yaml.safe_load((PACKAGE / 'config' / 'dh_kinematics.rviz').read_text())
    displays = {d['Class']: d for d in config['Visualization Manager']['Displays']}
    model = displays['rviz_default_plugins/RobotModel']
    assert model['Description Source'] == 'Topic' and model['TF Prefix'] == ''
    assert model['Description Topic']['Value'] == '/robot_description'
    assert model['Description Topic']['Durability Policy'] == 'Transient Local'
    assert 'rviz_default_plugins/TF' in displays
