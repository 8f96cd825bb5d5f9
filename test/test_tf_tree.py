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
The TF tree is the URDF's tree: every transform on /tf and /tf_static is a URDF joint.

For every shipped model and the 200 random arms, each with extra frames hung on random frames
(seeded), with and without a prefix: the fixed transforms the node publishes on /tf_static are
exactly the fixed joints of its URDF, and the per-message ones on /tf exactly its moving joints,
each once, parent to child; yourdfpy, reading the URDF on its own, puts every child where the
TF transform does; and a lookup composed along the TF tree, as tf2 does, gives every frame the
world pose it had before (link frames by forward kinematics, axis frames, tool, extra frames).
A running node is checked the same way on its topics.
"""

import io
import math
import zlib

from dh_kinematics import Chain
from dh_kinematics.core import names
from dh_kinematics.core.rotations import (
    quaternion_to_matrix, rotation_to_quaternion, rpy_to_matrix)
from dh_kinematics.node_logic.frames import joint_children, joint_frames, static_frames
from dh_kinematics.node_logic.joint_math import StreamMath
from helpers import (
    CHAINS, expected_world_poses, for_each_arm, needs, needs_pin, optional, PACKAGE, pin,
    pose_transform, ur_description_urdf, urdf_joints, with_random_frames, world_poses)
import numpy as np
import pytest

yourdfpy = optional('yourdfpy')

PREFIXES = ('', 'p/')


def tf_edges(chain, q, prefix):
    """Return what the node publishes at ``q``: {(parent, child): (T, 'static' or 'moving')}."""
    frames = names.frame_names(chain, prefix)
    children = joint_children(frames, names.axis_frame_names(chain, prefix))
    joints = tuple(range(chain.n))
    kept, _, poses = StreamMath(chain).finite_poses(joints, q.tolist())
    assert kept == joints
    edges = {}
    for kind, published in (('static', static_frames(chain, prefix)),
                            ('moving', joint_frames(frames, children, joints, poses))):
        for parent, child, xyz, quaternion in zip(*published):
            assert (parent, child) not in edges, (parent, child)
            edges[parent, child] = (pose_transform(xyz, quaternion), kind)
    return edges


CASES = [(name, with_random_frames(chain, np.random.default_rng(zlib.crc32(name.encode()))))
         for name, chain in CHAINS]


@pytest.mark.parametrize('prefix', PREFIXES)
@for_each_arm(CASES)
def test_tf_is_the_urdf_tree_and_lookups_are_unchanged(name, chain, prefix):
    rng = np.random.default_rng(zlib.crc32(name.encode()) + len(prefix))
    text = chain.to_urdf(prefix)
    joints = urdf_joints(text)
    robot = yourdfpy and yourdfpy.URDF.load(
        io.StringIO(text), load_meshes=False, build_collision_scene_graph=False,
        load_collision_meshes=False)
    for _ in range(3):
        q = rng.uniform(-2.0, 2.0, chain.n)
        edges = tf_edges(chain, q, prefix)
        assert {key: kind for key, (_, kind) in edges.items()} == joints
        if robot is not None:  # each child where the URDF puts it in its parent
            robot.update_cfg(dict(zip(chain.joint_names, q)))
            for (parent, child), (T, _) in edges.items():
                np.testing.assert_allclose(robot.get_transform(child, parent), T, atol=1e-12,
                                           err_msg=f'{parent} -> {child}')
        poses = world_poses(edges, chain.world_frame)
        expected = expected_world_poses(chain, q, prefix)
        assert poses.keys() == expected.keys()
        for frame, T in expected.items():
            np.testing.assert_allclose(poses[frame], T, atol=1e-12, err_msg=frame)


def test_the_standard_dh_axis_frame_carries_the_joint_and_the_link_hangs_fixed_on_it():
    chain = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')
    edges = tf_edges(chain, np.zeros(6), 'left/')
    assert edges['left/base', 'left/link1_axis'][1] == 'moving'
    assert edges['left/link1_axis', 'left/link1'][1] == 'static'
    assert ('left/base', 'left/link1') not in edges
    # wrist_3 has a = alpha = 0: no axis frame, its joint moves link6 itself.
    assert edges['left/link5', 'left/link6'][1] == 'moving'
    np.testing.assert_allclose(edges['left/link1_axis', 'left/link1'][0][:3, :3],
                               rpy_to_matrix([math.pi / 2, 0.0, 0.0]), atol=1e-15)


@needs_pin
def test_the_ur5_frames_are_ur_descriptions_base_base_link_flange_and_tool0():
    chain = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')
    model = pin.buildModelFromXML(ur_description_urdf())
    data = model.createData()
    rng = np.random.default_rng(5)
    for q in rng.uniform(-3.0, 3.0, (20, 6)):
        poses = world_poses(tf_edges(chain, q, ''), chain.world_frame)
        pin.framesForwardKinematics(model, data, q)  # UR's joints are in DH order

        def ur(frame):
            return data.oMf[model.getFrameId(frame)].homogeneous
        for frame in ('base_link', 'flange', 'tool0'):
            # The pendant reports tool0 in base: ours is the DH forward kinematics.
            np.testing.assert_allclose(np.linalg.inv(poses['base']) @ poses[frame],
                                       np.linalg.inv(ur('base')) @ ur(frame), atol=1e-9,
                                       err_msg=frame)
        np.testing.assert_allclose(np.linalg.inv(poses['base']) @ poses['tool0'],
                                   chain.fkine(q), atol=1e-15)


@pytest.mark.parametrize('frames, message', [
    ({'cam': {'parent': 'link9'}}, r'frames\.cam\.parent: must name a frame of the chain'),
    ({'a': {'parent': 'b'}, 'b': {'parent': 'a'}}, r'frames\.a\.parent: .*in a loop'),
    ({'link1': {'parent': 'base_link'}}, r'frames\.link1: is already the name of a frame'),
    ({'cam': {'xyz': [0.0, 0.0, 0.1]}}, r'frames\.cam\.parent: is missing'),
    ({'cam': {'parent': 'link6', 'rot': [0.0, 0.0, 0.0]}}, r'frames\.cam\.rot: is not a field '
     r'of a frames block \(fields: parent, xyz, rpy\)'),
    ({'cam': {'parent': 'link6', 'rpy': [0.0, 90.0, 0.0]}}, r'frames\.cam\.rpy: must be within '
     r'\+-2 pi: radians are expected'),
    ({'my cam': {'parent': 'link6'}}, r'frames\.my cam: a frame name is parts of letters'),
    ({'cam': 'link6'}, r'frames\.cam: must be a block of parent, xyz, rpy'),
])
def test_a_bad_extra_frame_is_refused_naming_its_field(frames, message):
    params = Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml').to_params()
    params['frames'] = frames
    with pytest.raises(ValueError, match=message):
        Chain.from_params(params)


@pytest.mark.ros
@needs('tf2_ros', 'a ROS 2 install (apt install ros-$ROS_DISTRO-tf2-ros)')
@for_each_arm(CASES[:24])
def test_tf2_looks_up_every_pair_of_frames_as_before(name, chain):
    from geometry_msgs.msg import TransformStamped
    import tf2_ros
    from rclpy.time import Time

    rng = np.random.default_rng(zlib.crc32(name.encode()))
    q = rng.uniform(-2.0, 2.0, chain.n)
    buffer = tf2_ros.Buffer()
    for (parent, child), (T, kind) in tf_edges(chain, q, 'p/').items():
        transform = TransformStamped()
        transform.header.frame_id, transform.child_frame_id = parent, child
        transform.header.stamp.sec = 1
        translation, rotation = transform.transform.translation, transform.transform.rotation
        translation.x, translation.y, translation.z = T[:3, 3]
        rotation.x, rotation.y, rotation.z, rotation.w = rotation_to_quaternion(T[:3, :3])
        if kind == 'static':
            buffer.set_transform_static(transform, 'test')
        else:
            buffer.set_transform(transform, 'test')
    expected = expected_world_poses(chain, q, 'p/')
    frames = sorted(expected)
    for target, source in zip(frames, rng.permutation(frames)):
        looked_up = buffer.lookup_transform(target, source, Time(seconds=1)).transform
        T = np.eye(4)
        T[:3, :3] = quaternion_to_matrix([looked_up.rotation.x, looked_up.rotation.y,
                                          looked_up.rotation.z, looked_up.rotation.w])
        T[:3, 3] = [looked_up.translation.x, looked_up.translation.y, looked_up.translation.z]
        np.testing.assert_allclose(T, np.linalg.inv(expected[target]) @ expected[source],
                                   atol=1e-9, err_msg=f'{target} <- {source}')
