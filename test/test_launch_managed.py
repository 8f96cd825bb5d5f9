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
dh_kinematics.launch.py with the arguments users set, under launch_pytest: the managed node.

The UR5 with its joint limits file beside it, standing at ``xyz`` and ``rpy``, with
``tf_max_rate``, as ``managed:=true``: a status and nothing else until ``configure`` and
``activate`` come over the lifecycle services, then the base where the arguments put it on
/tf_static. Skips as test_launch.py does where launch is missing.
"""

from helpers import launch_of, PACKAGE, skip_unless_installed
import numpy as np
import pytest

launch_pytest = pytest.importorskip('launch_pytest')
pytest.importorskip('launch_ros')

from lifecycle_msgs.msg import Transition  # noqa: E402,I100
from lifecycle_msgs.srv import ChangeState  # noqa: E402
from ros_probe import Probe  # noqa: E402,I100

pytestmark = pytest.mark.ros

skip_unless_installed()

EXIT_CODES = {}


@launch_pytest.fixture(scope='module')
def managed():
    """Return the managed UR5 launch with every argument a user sets for placement."""
    return launch_of('dh_kinematics.launch.py', {
        'robot': 'ur5', 'managed': 'true', 'xyz': '0.1 0.5 0.8', 'rpy': '0 0 1.5',
        'tf_max_rate': '50',
        'joint_limits_file': str(PACKAGE / 'config' / 'ur5_joint_limits.yaml')}, EXIT_CODES)


@pytest.fixture(scope='module')
def probe():
    """Record /tf, /tf_static and /diagnostics."""
    probe = Probe()
    yield probe
    probe.close()


def _arm_says(probe, text):
    return probe.wait_for('diagnostics', lambda message: any(
        status.name == '/dh_kinematics: arm' and status.message.startswith(text)
        for status in message.status))


@pytest.mark.launch(fixture=managed)
def test_the_managed_node_waits_then_stands_where_the_arguments_put_it(probe):
    _arm_says(probe, 'unconfigured: no model read yet')
    assert not probe.messages['tf_static']
    for transition in (Transition.TRANSITION_CONFIGURE, Transition.TRANSITION_ACTIVATE):
        request = ChangeState.Request()
        request.transition.id = transition
        assert probe.call(ChangeState, '/dh_kinematics/change_state', request).success
    static = probe.wait_for('tf_static', lambda message: any(
        t.child_frame_id == 'base_link' for t in message.transforms))
    base = next(t for t in static.transforms if t.header.frame_id == 'world')
    translation = base.transform.translation
    np.testing.assert_allclose([translation.x, translation.y, translation.z], [0.1, 0.5, 0.8])
    assert base.transform.rotation.z == pytest.approx(np.sin(0.75))


@pytest.mark.launch(fixture=managed, shutdown=True)
def test_the_managed_node_ends_with_exit_code_0():
    assert sorted(name.rsplit('-', 1)[0] for name in EXIT_CODES) == [
        'dh_kinematics_managed_node']
    assert set(EXIT_CODES.values()) == {0}
