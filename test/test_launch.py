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
The real launch files under launch_pytest: demo.launch.py, which includes dh_kinematics.launch.py.

It starts the node and sim_arm on the Panda in a namespace and with a frame prefix, then checks
/tf against the model at the published joint_states, /tf_static, ~/friction_torque and
/diagnostics, and that every process ends with exit code 0. It skips cleanly where launch_pytest
or launch_ros is missing, or where dh_kinematics is not installed in an ament prefix (after
``colcon build`` and sourcing the workspace, it runs).
"""

import os

from helpers import launch_of, PACKAGE, skip_unless_installed
import numpy as np
import pytest

launch_pytest = pytest.importorskip('launch_pytest')
pytest.importorskip('launch_ros')

from dh_kinematics.core.rotations import rotation_to_quaternion  # noqa: E402,I100
from dh_kinematics.ros import launch_config  # noqa: E402
from rclpy.qos import QoSProfile, ReliabilityPolicy  # noqa: E402,I100
from ros_probe import Probe, stamp_ns  # noqa: E402,I100
from sensor_msgs.msg import JointState  # noqa: E402

pytestmark = pytest.mark.ros

skip_unless_installed()

NAMESPACE, PREFIX = 'arm', 'left/'
CHAIN = launch_config.load_model(PACKAGE / 'config' / 'panda.yaml')
EXIT_CODES = {}


@launch_pytest.fixture(scope='module')
def demo():
    """Return the demo with the Panda in namespace ``arm`` and frame prefix ``left/``."""
    return launch_of('demo.launch.py', {'robot': 'panda', 'namespace': NAMESPACE,
                                        'frame_prefix': PREFIX, 'overshoot': '0.2'}, EXIT_CODES)


@pytest.fixture(scope='module')
def probe():
    """Record /tf, /tf_static, friction, diagnostics and the arm's joint_states."""
    probe = Probe(f'/{NAMESPACE}')
    probe.record('joint_states', JointState, f'/{NAMESPACE}/joint_states',
                 QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT))
    yield probe
    probe.close()


def _joint_states_with_tf(probe):
    """Return a joint_states message and the /tf message stamped like it."""
    tf = probe.wait_for('tf', lambda message: any(
        stamp_ns(t.header) == stamp_ns(j.header)
        for j in probe.messages['joint_states'] for t in message.transforms))
    stamp = stamp_ns(tf.transforms[0].header)
    joints = probe.wait_for('joint_states', lambda message: stamp_ns(message.header) == stamp)
    return joints, tf


@pytest.mark.launch(fixture=demo)
def test_tf_follows_joint_states_with_prefixed_frames(probe):
    joints, tf = _joint_states_with_tf(probe)
    frames = (CHAIN.base_frame,) + CHAIN.link_frames
    assert [t.header.frame_id for t in tf.transforms] == [PREFIX + f for f in frames[:-1]]
    assert [t.child_frame_id for t in tf.transforms] == [PREFIX + f for f in frames[1:]]
    q = [dict(zip(joints.name, joints.position))[name] for name in CHAIN.joint_names]
    A = CHAIN.link_transforms(q)
    xyz = [[t.transform.translation.x, t.transform.translation.y, t.transform.translation.z]
           for t in tf.transforms]
    quat = [[t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z,
             t.transform.rotation.w] for t in tf.transforms]
    np.testing.assert_allclose(xyz, A[:, :3, 3], atol=1e-12)
    np.testing.assert_allclose(quat, rotation_to_quaternion(A[:, :3, :3]), atol=1e-12)


@pytest.mark.launch(fixture=demo)
def test_tf_static_holds_the_fixed_frames(probe):
    message = probe.wait_for('tf_static', lambda message: len(message.transforms) == 2)
    assert [(t.header.frame_id, t.child_frame_id) for t in message.transforms] == [
        (CHAIN.world_frame, PREFIX + CHAIN.base_frame),
        (PREFIX + CHAIN.link_frames[-1], PREFIX + CHAIN.tool_frame)]


@pytest.mark.launch(fixture=demo)
def test_friction_torque_follows_joint_velocities(probe):
    friction = probe.wait_for('friction', lambda message: any(
        stamp_ns(j.header) == stamp_ns(message.header) for j in probe.messages['joint_states']))
    joints = probe.wait_for(
        'joint_states', lambda message: stamp_ns(message.header) == stamp_ns(friction.header))
    assert list(friction.name) == list(CHAIN.joint_names)
    qd = [dict(zip(joints.name, joints.velocity))[name] for name in CHAIN.joint_names]
    np.testing.assert_allclose(friction.effort, CHAIN.friction(qd), rtol=1e-12, atol=1e-12)


@pytest.mark.launch(fixture=demo)
def test_diagnostics_report_every_joint_and_see_the_overshoot(probe):
    node = f'/{NAMESPACE}/dh_kinematics'
    names = {f'{node}: {joint}' for joint in CHAIN.joint_names} | {f'{node}: arm'}
    message = probe.wait_for('diagnostics', lambda message: {
        status.name for status in message.status} == names)
    assert {status.hardware_id for status in message.status} == {CHAIN.name}
    probe.wait_for('diagnostics', lambda message: any(
        status.level == b'\x02' for status in message.status))


@pytest.mark.launch(fixture=demo, shutdown=True)
def test_every_process_ends_with_exit_code_0():
    assert sorted(name.rsplit('-', 1)[0] for name in EXIT_CODES) == [
        'dh_kinematics_node', 'sim_arm']
    assert set(EXIT_CODES.values()) == {0}


def test_the_environment_keeps_dds_on_loopback():
    assert os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] == 'LOCALHOST'
