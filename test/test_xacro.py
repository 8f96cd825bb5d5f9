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
The xacro macro, expanded by ROS's xacro (from PyPI) inside a cell, checked in pinocchio.

A wrapper puts the arm on a table link (itself placed in the world) with a prefix and hangs a
gripper link on its flange (or its tool frame): every frame of the expanded cell must be where
the plain URDF puts it, moved by the table's pose, for the shipped arms and 100 random ones with
extra frames (seeded).
"""

import zlib

from dh_kinematics import Chain
from dh_kinematics.core.rotations import xyz_rpy_to_transform
from dh_kinematics.core.urdf.writer import macro_name
from helpers import (
    CHAINS, for_each_arm, optional, PACKAGE, pin, pin_configuration, run_cli, with_random_frames)
import numpy as np
import pytest

xacro = optional('xacro')
needs = pytest.mark.skipif(pin is None or xacro is None,
                           reason='pinocchio (pin) and xacro are not both installed')

T_WORLD_TABLE = xyz_rpy_to_transform([0.5, -0.2, 0.8], [0.0, 0.0, 0.3])
T_HOLDER_GRIPPER = xyz_rpy_to_transform([0.0, 0.0, 0.05], [0.0, 0.0, 0.0])
CELL = """<?xml version="1.0"?>
<robot name="cell" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="{macro_file}"/>
  <link name="world"/>
  <link name="table"/>
  <joint name="world_to_table" type="fixed">
    <parent link="world"/><child link="table"/>
    <origin xyz="0.5 -0.2 0.8" rpy="0 0 0.3"/>
  </joint>
  <xacro:{macro} prefix="{prefix}" parent="table"/>
  <link name="gripper"/>
  <joint name="holder_to_gripper" type="fixed">
    <parent link="{prefix}{holder}"/><child link="gripper"/>
    <origin xyz="0 0 0.05" rpy="0 0 0"/>
  </joint>
</robot>
"""
CASES = [(name, chain) for name, chain in CHAINS[:5]] + [
    (name, with_random_frames(chain, np.random.default_rng(zlib.crc32(name.encode()))))
    for name, chain in CHAINS[5:105]]


def _frames(model, data):
    return {frame.name: data.oMf[i].homogeneous for i, frame in enumerate(model.frames)
            if frame.type == pin.FrameType.BODY}


@needs
@for_each_arm(CASES)
def test_the_macro_in_a_cell_puts_every_frame_where_the_urdf_does(name, chain, tmp_path):
    macro_file = tmp_path / 'arm.urdf.xacro'
    chain.to_urdf(path=macro_file, xacro=True)
    holder = 'flange' if 'flange' in [f.name for f in chain.frames] else chain.tool_frame
    prefix = 'left_'
    cell = tmp_path / 'cell.urdf.xacro'
    cell.write_text(CELL.format(macro_file=macro_file.name, macro=macro_name(chain),
                                prefix=prefix, holder=holder))
    expanded = xacro.process_file(str(cell)).toxml()
    cell_model = pin.buildModelFromXML(expanded)
    plain_model = pin.buildModelFromXML(chain.to_urdf())
    cell_data, plain_data = cell_model.createData(), plain_model.createData()
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for q in rng.uniform(-2.0, 2.0, (3, chain.n)):
        pin.framesForwardKinematics(plain_model, plain_data, pin_configuration(
            pin, plain_model, chain.joint_names, q))
        pin.framesForwardKinematics(cell_model, cell_data, pin_configuration(
            pin, cell_model, [prefix + joint for joint in chain.joint_names], q))
        plain, cell_frames = _frames(plain_model, plain_data), _frames(cell_model, cell_data)
        arm = {frame: T for frame, T in plain.items() if frame != chain.world_frame}
        assert set(cell_frames) == {prefix + frame for frame in arm} | {
            'world', 'table', 'gripper'}
        for frame, T in arm.items():
            np.testing.assert_allclose(cell_frames[prefix + frame], T_WORLD_TABLE @ T,
                                       atol=1e-12, err_msg=frame)
        np.testing.assert_allclose(cell_frames['gripper'], T_WORLD_TABLE @ plain[holder]
                                   @ T_HOLDER_GRIPPER, atol=1e-12)


@needs
def test_the_command_writes_the_macro_and_two_arms_share_a_cell(tmp_path):
    ur5 = PACKAGE / 'config' / 'ur5.yaml'
    run_cli('urdf', ur5, '--xacro', '-o', tmp_path / 'ur5.urdf.xacro')
    (tmp_path / 'two.urdf.xacro').write_text(
        '<robot name="two" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:include filename="ur5.urdf.xacro"/><link name="world"/>'
        '<xacro:ur5 prefix="left_" parent="world"/><xacro:ur5 prefix="right_" '
        'parent="world"/></robot>')
    model = pin.buildModelFromXML(xacro.process_file(str(tmp_path / 'two.urdf.xacro')).toxml())
    joints = [name for name in model.names if name != 'universe']
    assert joints == [side + joint for side in ('left_', 'right_')
                      for joint in Chain.from_yaml(ur5).joint_names]
    assert {'left_flange', 'right_tool0', 'left_base_link'} <= {f.name for f in model.frames}
