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
dh_kinematics.launch.py with the arguments users set, under ``ros2 launch``: the managed node.

The UR5 with its joint limits file beside it, standing at ``xyz`` and ``rpy``, with
``tf_max_rate``, as ``managed:=true``: a status and nothing else until ``configure`` and
``activate`` come over the lifecycle services, then the base where the arguments put it on
/tf_static; Ctrl-C ends it cleanly.
"""

from helpers import PACKAGE
from lifecycle_msgs.msg import Transition
from lifecycle_msgs.srv import ChangeState
import numpy as np
import pytest
from ros_fixtures import launch
from ros_probe import Probe

pytestmark = pytest.mark.ros


def _arm_says(probe, text):
    return probe.wait_for('diagnostics', lambda message: any(
        status.name == '/dh_kinematics: arm' and status.message.startswith(text)
        for status in message.status))


def test_the_managed_node_waits_then_stands_where_the_arguments_put_it(ros2):
    probe = Probe()
    running = launch(ros2, 'dh_kinematics', 'dh_kinematics.launch.py', 'robot:=ur5',
                     'managed:=true', 'xyz:=0.1 0.5 0.8', 'rpy:=0 0 1.5', 'tf_max_rate:=50',
                     f'joint_limits_file:={PACKAGE / "config" / "ur5_joint_limits.yaml"}')
    try:
        _arm_says(probe, 'unconfigured: no model read yet')
        assert not probe.messages['tf_static']
        for transition in (Transition.TRANSITION_CONFIGURE, Transition.TRANSITION_ACTIVATE):
            request = ChangeState.Request()
            request.transition.id = transition
            assert probe.call(ChangeState, '/dh_kinematics/change_state', request).success
        static = probe.wait_for('tf_static', lambda message: any(
            t.child_frame_id == 'base_link' for t in message.transforms))
    finally:
        probe.close()
        code, output = running.stop()
    base = next(t for t in static.transforms if t.header.frame_id == 'world')
    translation = base.transform.translation
    np.testing.assert_allclose([translation.x, translation.y, translation.z], [0.1, 0.5, 0.8])
    assert base.transform.rotation.z == pytest.approx(np.sin(0.75))
    assert code == 0 and 'process has finished cleanly' in output, output
