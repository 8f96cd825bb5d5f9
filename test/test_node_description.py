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

"""robot_description over real DDS: a late joiner gets the URDF, whose links are the TF frames."""

import xml.etree.ElementTree as ET

from helpers import (
    needs_pin, PACKAGE, pin, run_cli, ur_description_urdf, urdf_joints, world_poses)
import numpy as np
import pytest
from ros_fixtures import published_tree, Running

from dh_kinematics import Chain  # noqa: I100
from dh_kinematics.core import urdf_import as importer
from dh_kinematics.ros.node import DESCRIPTION_QOS  # noqa: I100
from rclpy.parameter import Parameter  # noqa: I100
from std_msgs.msg import String  # noqa: I100

pytestmark = pytest.mark.ros


PUMA = PACKAGE / 'config' / 'puma560.yaml'
UR5 = PACKAGE / 'config' / 'ur5.yaml'


def test_tf_on_the_topics_is_the_urdf_tree_each_joint_once():
    chain = Chain.from_yaml(UR5)  # standard DH with axis frames, and extra frames
    run = Running(['--params-file', str(UR5), '-p', 'frame_prefix:=left/'])
    try:
        run.probe.record('description', String, '/robot_description', DESCRIPTION_QOS)
        description = run.probe.wait_for('description', lambda m: True)
        stamp = run.probe.send_until_seen(chain.joint_names, [0.3] * chain.n)
        published = {}
        for kind, message in (('moving', run.probe.wait_for_stamp('tf', stamp)),
                              ('static', run.probe.wait_for('tf_static', lambda m: True))):
            for transform in message.transforms:
                key = transform.header.frame_id, transform.child_frame_id
                assert key not in published, key
                published[key] = kind
        assert published == urdf_joints(description.data)
        children = [child for _, child in published]
        assert len(children) == len(set(children))  # no frame with two parents
        assert ('left/base', 'left/base_link') in published  # an extra frame, prefixed
    finally:
        run.stop()


def _links(message):
    return {element.get('name') for element in ET.fromstring(message.data).iter('link')}


def _frames(*messages):
    return {name for message in messages for t in message.transforms
            for name in (t.header.frame_id, t.child_frame_id)}


@pytest.mark.parametrize('prefix', ['', 'left/'])
def test_a_late_joiner_reads_a_urdf_whose_links_are_the_tf_frames(prefix):
    chain = Chain.from_yaml(PUMA)
    prefix_args = ['-p', f'frame_prefix:={prefix}'] if prefix else []
    run = Running(['--params-file', str(PUMA)] + prefix_args)
    try:
        # The node published its description before this subscription existed.
        run.probe.record('description', String, '/robot_description', DESCRIPTION_QOS)
        description = run.probe.wait_for('description', lambda m: True)
        assert description.data == chain.to_urdf(prefix)
        stamp = run.probe.send_until_seen(chain.joint_names, [0.1] * chain.n)
        tf = run.probe.wait_for_stamp('tf', stamp)
        static = run.probe.wait_for('tf_static', lambda m: True)
        assert _links(description) == _frames(tf, static)
        assert f'{prefix}link2_axis' in _frames(tf)
        info, = run.probe.node.get_publishers_info_by_topic('/robot_description')
        assert info.qos_profile.durability.name == 'TRANSIENT_LOCAL'
        assert info.qos_profile.reliability.name == 'RELIABLE'
    finally:
        run.stop()


def test_a_model_change_republishes_it_and_the_parameter_turns_it_off():
    run = Running(['--params-file', str(PUMA)])
    try:
        run.probe.record('description', String, '/robot_description', DESCRIPTION_QOS)
        first = run.probe.wait_for('description', lambda m: True)
        result, = run.probe.set_parameters('/dh_kinematics', [Parameter('joint2.a', value=0.5)])
        assert result.successful, result.reason
        second = run.probe.wait_for('description', lambda m: m.data != first.data)
        assert second.data == run.node.config.chain.to_urdf()
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('publish_robot_description', value=False),
            Parameter('joint2.a', value=0.4)], atomically=True)
        assert result.successful, result.reason
        off = run.node.config.chain.to_urdf()
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('publish_robot_description', value=True),
            Parameter('joint2.a', value=0.3)], atomically=True)
        assert result.successful, result.reason
        seen = (first.data, second.data)
        third = run.probe.wait_for('description', lambda m: m.data not in seen)
        assert third.data == run.node.config.chain.to_urdf() != off  # nothing while off
        assert [m.data for m in run.probe.messages['description']] == [
            first.data, second.data, third.data]
    finally:
        run.stop()


@needs_pin
def test_a_model_imported_from_a_urdf_publishes_the_urdfs_frames_where_the_urdf_has_them(
        tmp_path):
    text = ur_description_urdf(inertials=True)
    kept = ['base', 'shoulder_link', 'upper_arm_link', 'forearm_link', 'wrist_1_link',
            'wrist_2_link', 'wrist_3_link', 'flange']
    chain = importer.from_urdf(text, 'base_link', 'tool0', keep_frames=kept).chain
    model = tmp_path / 'ur5.yaml'
    chain.to_yaml(model)
    q = [0.3, -1.2, 0.8, -0.5, 1.1, 0.2]
    run = Running(['--params-file', str(model)])
    try:
        stamp = run.probe.send_until_seen(chain.joint_names, q)
        edges = published_tree(run.probe, stamp)
    finally:
        run.stop()
    poses = world_poses(edges, 'base_link')
    urdf = pin.buildModelFromXML(text)
    data = urdf.createData()
    pin.framesForwardKinematics(urdf, data, np.array(q))  # UR's joints are in this order
    for frame in kept + ['tool0']:
        np.testing.assert_allclose(poses[frame], data.oMf[urdf.getFrameId(frame)].homogeneous,
                                   atol=1e-9, err_msg=frame)


def test_from_urdf_reads_the_robot_description_of_a_running_node(tmp_path):
    chain = Chain.from_yaml(UR5)
    model = tmp_path / 'imported.yaml'
    run = Running(['--params-file', str(UR5)])
    try:  # the timeout only bounds a failure: the command returns on the first message
        run_cli('from-urdf', '--topic', '/robot_description', '--timeout', '120', '--base',
                'world', '--tip', 'tool0', '-o', model)
    finally:
        run.stop()
    assert 'from topic /robot_description: the chain from world to tool0' in model.read_text()
    imported = Chain.from_yaml(model)
    for q in np.random.default_rng(8).uniform(-3.0, 3.0, (10, 6)):
        np.testing.assert_allclose(imported.fkine(q), chain.fkine(q), atol=1e-12)
