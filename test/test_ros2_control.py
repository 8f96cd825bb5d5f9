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
The ``<ros2_control>`` block against ros2_control's own parser rules, and the URDF around it.

``hardware_interface/src/component_parser.cpp`` (ros2_control, read at 53b9999d1) parses the
block: :func:`parse` below follows its rules, each named after the error it throws, then the
URDF still passes urdfdom's ``check_urdf``, pinocchio and yourdfpy. Shipped arms, random arms,
an imported vendor arm, the xacro macro expanded by xacro, the command line and the node.
"""

import io
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

from helpers import (
    CHAINS, check_urdf_command, needs_check_urdf, needs_vendor, optional, PACKAGE, pin, run_cli,
    vendor_model)
import numpy as np
import pytest

from dh_kinematics.cli import models  # noqa: I100
from dh_kinematics.core.urdf import ros2_control

yourdfpy = optional('yourdfpy')
xacro = optional('xacro')
SYSTEM_CHILDREN = ('hardware', 'properties', 'joint', 'sensor', 'gpio', 'transmission')


def _params(element, context):
    """parse_parameters_from_xml: each param has a name and a text."""
    found = {}
    for param in element.findall('param'):
        assert param.get('name'), f'no parameter name attribute set in param tag for {context}'
        assert param.text, f'text not specified in the {param.get("name")} tag'
        found[param.get('name')] = param.text
    return found


def _interface(element):
    """parse_interfaces_from_xml: a name; min, max and initial_value read by std::stod."""
    assert element.get('name'), f"no attribute 'name' in '{element.tag}' tag"
    params = _params(element, element.get('name'))
    for key in ('min', 'max', 'initial_value'):
        if key in params:
            float(params[key])
    return element.get('name'), params


def parse(text):
    """
    Read the blocks of a URDF as parse_control_resources_from_urdf does; assert its rules.

    Returns {joint: (command interfaces, state interfaces)}, each {name: params}.
    """
    root = ET.fromstring(text)
    assert root.tag == 'robot', 'the robot tag is not root element in URDF'
    blocks = root.findall('ros2_control')
    assert blocks, "no 'ros2_control' tag found in the URDF"
    urdf_joints = {joint.get('name'): joint for joint in root.findall('joint')}
    joints = {}
    for block in blocks:
        assert block.get('name'), "no attribute 'name' in 'ros2_control' tag"
        assert block.get('type') in ('system', 'actuator', 'sensor'), block.get('type')
        for child in block:
            assert child.tag in SYSTEM_CHILDREN, f"invalid tag name '{child.tag}'"
        hardware = block.find('hardware')
        plugin = hardware.find('plugin')
        assert plugin is not None and plugin.text, 'Missing <plugin> tag of <hardware> element'
        _params(hardware, block.get('name'))
        for joint in block.findall('joint'):
            name = joint.get('name')
            assert name, "no attribute 'name' in 'joint' tag"
            assert name in urdf_joints, f"Joint '{name}' not found in URDF"
            assert urdf_joints[name].get('type') != 'fixed', f"Joint '{name}' is of type 'fixed'"
            assert urdf_joints[name].find('mimic') is None
            joints[name] = tuple(dict(map(_interface, joint.findall(kind)))
                                 for kind in ('command_interface', 'state_interface'))
            _params(joint, name)
    return joints, urdf_joints


def _agrees_with_the_urdf(text, chain, initial, prefix=''):
    joints, urdf_joints = parse(text)
    assert list(joints) == [prefix + name for name in chain.joint_names]
    for name, link, q0 in zip(chain.joint_names, chain.links, initial):
        commands, states = joints[prefix + name]
        kinds = ['position'] + ['velocity'] * (link.velocity_limit is not None) + [
            'effort'] * (link.effort_limit is not None)
        assert list(commands) == kinds == list(states)
        assert float(states['position']['initial_value']) == q0
        # The parser takes the narrower of these and the URDF's <limit>: they are the same.
        limit = urdf_joints[prefix + name].find('limit')
        if link.qlim is None:
            assert 'min' not in commands['position']
        else:
            assert (float(commands['position']['min']), float(commands['position']['max'])) == (
                float(limit.get('lower')), float(limit.get('upper'))) == tuple(link.qlim)
        for kind, attribute in (('velocity', 'velocity'), ('effort', 'effort')):
            if kind in commands:
                assert float(commands[kind]['max']) == -float(commands[kind]['min']) == float(
                    limit.get(attribute))


def _other_engines_read(text, chain, tmp_path):
    command, env = check_urdf_command()
    path = tmp_path / 'arm.urdf'
    path.write_text(text)
    result = subprocess.run([command, str(path)], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, **env))
    assert result.returncode == 0 and 'Successfully Parsed XML' in result.stdout, result.stderr
    if pin is not None:
        assert pin.buildModelFromXML(text).nq == pin.buildModelFromXML(chain.to_urdf()).nq
    if yourdfpy is not None:
        loaded = yourdfpy.URDF.load(io.StringIO(text), build_scene_graph=False,
                                    load_meshes=False)
        assert list(loaded.actuated_joint_names) == list(chain.joint_names)


@pytest.mark.parametrize('name, chain', CHAINS[:5] + CHAINS[5:25:4], ids=[
    name for name, _ in CHAINS[:5] + CHAINS[5:25:4]])
@needs_check_urdf
def test_the_block_follows_the_parsers_rules_and_the_urdf_still_reads(name, chain, tmp_path):
    control = ros2_control.hardware(chain, ros2_control.MOCK)
    text = chain.to_urdf(control=control)
    _agrees_with_the_urdf(text, chain, control.initial)
    assert ET.fromstring(text).find('ros2_control/hardware/plugin').text == ros2_control.MOCK
    _other_engines_read(text, chain, tmp_path)


@needs_vendor
@needs_check_urdf
def test_an_imported_vendor_arm_gets_a_block_the_parser_reads(tmp_path):
    model = vendor_model('kuka_iiwa14.urdf', tmp_path)
    out, _ = run_cli('urdf', model, '--ros2-control', 'kuka_drivers/KukaHardware')
    chain = models.load(model)[0]
    assert ET.fromstring(out).find('ros2_control/hardware/plugin').text == (
        'kuka_drivers/KukaHardware')
    _agrees_with_the_urdf(out, chain, np.clip(np.zeros(chain.n), *np.asarray(chain.qlim).T))
    _other_engines_read(out, chain, tmp_path)


@pytest.mark.skipif(xacro is None, reason='xacro is not installed: pip install xacro, or '
                    'apt install ros-$ROS_DISTRO-xacro')
def test_the_xacro_macro_carries_it_with_its_prefix(tmp_path):
    path = PACKAGE / 'config' / 'ur5.yaml'
    out, _ = run_cli('urdf', path, '--xacro', '--ros2-control', '--initial', 'home')
    (tmp_path / 'arm.urdf.xacro').write_text(out)
    (tmp_path / 'cell.urdf.xacro').write_text(
        '<?xml version="1.0"?>\n<robot name="cell" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:include filename="arm.urdf.xacro"/><link name="world"/>'
        '<xacro:ur5 prefix="left_" parent="world"/></robot>\n')
    command = pathlib.Path(sys.executable).with_name('xacro')  # ROS's xacro, as a user runs it
    expanded = subprocess.run([str(command), str(tmp_path / 'cell.urdf.xacro')],
                              capture_output=True, text=True, timeout=60)
    assert expanded.returncode == 0, expanded.stderr
    chain, _, given = models.load(path)
    home = models.params.configurations(given, chain.n)['home']
    _agrees_with_the_urdf(expanded.stdout, chain, home, prefix='left_')
    assert ET.fromstring(expanded.stdout).find('ros2_control').get('name') == 'left_ur5'


def test_the_command_line_names_what_is_wrong():
    path = PACKAGE / 'config' / 'ur5.yaml'
    _, err = run_cli('urdf', path, '--ros2-control', 'not a plugin', code=1)
    assert '--ros2-control: must be' in err and "'not a plugin'" in err
    _, err = run_cli('urdf', path, '--ros2-control', '--initial', 'nope', code=1)
    assert "--initial: no configuration 'nope' in the file (it has home, qz" in err
    _, err = run_cli('urdf', path, '--initial', 'home', code=1)
    assert '--initial: only with --ros2-control' in err


def test_an_initial_configuration_must_lie_within_the_limits():
    chain = dict(CHAINS)['panda']
    beyond = np.zeros(chain.n)
    beyond[3] = 0.5  # above joint 4's upper limit, -0.0698 rad
    with pytest.raises(ValueError, match='panda_joint4 must start within its limits'):
        ros2_control.hardware(chain, ros2_control.MOCK, beyond)


@pytest.mark.ros
def test_the_node_publishes_the_block_when_told_and_drops_it_when_told():
    from rclpy.parameter import Parameter
    from ros_fixtures import Running
    from std_msgs.msg import String

    from dh_kinematics.ros.node import DESCRIPTION_QOS
    path = PACKAGE / 'config' / 'ur5.yaml'
    chain, _, given = models.load(path)
    run = Running(['--params-file', str(path), '-p', 'ros2_control.plugin:=mock', '-p',
                   'ros2_control.initial_configuration:=home', '-p', 'frame_prefix:=left/'])
    try:
        run.probe.record('description', String, '/robot_description', DESCRIPTION_QOS)
        first = run.probe.wait_for('description', lambda m: True)
        home = models.params.configurations(given, chain.n)['home']
        _agrees_with_the_urdf(first.data, chain, home)  # joint names as joint_states has them
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('ros2_control.initial_configuration', value='nope')])
        assert not result.successful and 'ros2_control.initial_configuration' in result.reason
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('ros2_control.plugin', value=''),
            Parameter('ros2_control.initial_configuration', value='')], atomically=True)
        assert result.successful, result.reason
        second = run.probe.wait_for('description', lambda m: m.data != first.data)
        assert ET.fromstring(second.data).find('ros2_control') is None
    finally:
        run.stop()
