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
The managed node over real DDS, driven as ``ros2 lifecycle set`` drives it.

Through its ``~/change_state`` and ``~/get_state`` services: nothing but a status on
/diagnostics before ``activate``, the plain node's output while active, nothing again after
``deactivate``; a model that fails the check fails ``configure`` with the node unconfigured.
"""

from helpers import PACKAGE
from lifecycle_msgs.msg import Transition
from lifecycle_msgs.srv import ChangeState, GetState
import pytest
from rclpy.parameter import Parameter
from ros_fixtures import matched_both_ways, NodeThread, Probe, SimArm

from dh_kinematics.ros.managed_node import DhKinematicsManagedNode  # noqa: I100
from dh_kinematics.ros.node import DESCRIPTION_QOS  # noqa: I100
from std_msgs.msg import String  # noqa: I100

pytestmark = pytest.mark.ros

UR5 = PACKAGE / 'config' / 'ur5.yaml'
NODE = '/dh_kinematics'


class Managed:
    """The managed node in a thread, and a probe that drives and watches it."""

    def __init__(self, params_file):
        self.thread = NodeThread(DhKinematicsManagedNode, 'dh_kinematics',
                                 ['--params-file', str(params_file)])
        self.probe = Probe()
        self.probe.record('description', String, '/robot_description', DESCRIPTION_QOS)

    def state(self):
        return self.probe.call(GetState, f'{NODE}/get_state',
                               GetState.Request()).current_state.label

    def change(self, transition):
        request = ChangeState.Request()
        request.transition.id = transition
        return self.probe.call(ChangeState, f'{NODE}/change_state', request).success

    def go(self, transition, state):
        """
        Make a transition and check the state it leads to.

        Not the answer's success: a lost answer is asked again, and the second call of a
        transition already made is refused.
        """
        self.change(transition)
        assert self.state() == state

    def arm_status(self, text, after=None):
        """Wait for the node's summary status starting with ``text``; return its message."""
        def says(message):
            return any(status.name == f'{NODE}: arm' and status.message.startswith(text)
                       for status in message.status)
        return self.probe.wait_for('diagnostics', says, after=after)

    def stop(self):
        self.probe.close()
        assert self.thread.stop() == 0


def test_it_publishes_only_while_active():
    run = Managed(UR5)
    try:
        run.arm_status('unconfigured: no model read yet')
        assert run.state() == 'unconfigured'
        assert not run.probe.messages.get('description')
        assert run.change(Transition.TRANSITION_CONFIGURE)
        assert run.state() == 'inactive'
        run.arm_status('inactive: the model is checked')
        assert not run.probe.messages.get('description')  # still nothing but the status
        assert run.change(Transition.TRANSITION_ACTIVATE)
        assert run.state() == 'active'
        run.probe.wait_for('description', lambda m: '<robot name="ur5">' in m.data)
        run.probe.wait_until(lambda: matched_both_ways(run.thread.node, run.probe.node),
                             'the node and the probe did not match')
        chain = run.thread.node.config.chain
        stamp = run.probe.send_until_seen(chain.joint_names, [0.2] * chain.n)
        assert run.change(Transition.TRANSITION_DEACTIVATE)
        assert run.state() == 'inactive'
        # Sent after the node stopped: no /tf for it, up to the second status after that.
        with run.probe.condition:
            mark = run.probe.messages['diagnostics'][-1]
        later = run.probe.send(chain.joint_names, [0.4] * chain.n)
        first = run.arm_status('inactive: the model is checked', after=mark)
        run.arm_status('inactive: the model is checked', after=first)
        assert run.probe.wait_for_stamp('tf', later, timeout=0.0, fail=False) is None
        assert run.probe.wait_for_stamp('tf', stamp, timeout=0.0) is not None
        assert run.change(Transition.TRANSITION_CLEANUP)
        assert run.state() == 'unconfigured'
        assert run.change(Transition.TRANSITION_CONFIGURE)  # the declared values, again
        assert run.change(Transition.TRANSITION_ACTIVATE)
        assert run.state() == 'active'
    finally:
        run.stop()


def test_a_bad_model_fails_configure_and_leaves_it_unconfigured(tmp_path):
    bad = tmp_path / 'bad.yaml'
    bad.write_text(UR5.read_text().replace('convention: standard', 'convention: sideways'))
    run = Managed(bad)
    try:
        assert not run.change(Transition.TRANSITION_CONFIGURE)
        assert run.state() == 'unconfigured'
        run.arm_status('unconfigured')
    finally:
        run.stop()


def test_a_parameter_set_while_inactive_is_checked_and_used_on_activate():
    run = Managed(UR5)
    try:
        refused, = run.probe.set_parameters(NODE, [Parameter('tf.max_rate', value=25.0)], True)
        assert not refused.successful and 'configure it first' in refused.reason
        run.go(Transition.TRANSITION_CONFIGURE, 'inactive')
        bad, = run.probe.set_parameters(NODE, [Parameter('tf.max_rate', value=-1.0)], True)
        assert not bad.successful and bad.reason.startswith('tf.max_rate: ')
        good, = run.probe.set_parameters(NODE, [Parameter('tf.max_rate', value=25.0)], True)
        assert good.successful, good.reason
        run.go(Transition.TRANSITION_ACTIVATE, 'active')
        assert run.thread.node.config.settings['tf.max_rate'] == 25.0
    finally:
        run.stop()


def test_after_shutdown_the_status_and_the_parameters_say_it_is_finalized():
    # Issue 58 (9): after shutdown the status still said "activate starts it".
    run = Managed(UR5)
    try:
        run.go(Transition.TRANSITION_CONFIGURE, 'inactive')
        run.go(Transition.TRANSITION_INACTIVE_SHUTDOWN, 'finalized')
        run.arm_status('finalized: shut down, nothing runs')
        refused, = run.probe.set_parameters(NODE, [Parameter('tf.max_rate', value=25.0)], True)
        assert not refused.successful and 'shut down (finalized)' in refused.reason
    finally:
        run.stop()


CYCLES = 20
"""Lifecycle cycles under a stream: the node died within 3 to 6 before issue 57's fix."""


def test_every_transition_is_safe_while_joint_states_stream_at_1_khz():
    # Issue 57: a deactivate under a live stream let a joint_states message the executor had
    # already taken reach the destroyed publishers (RCLError: publisher pointer is invalid),
    # which ended the node.
    run = Managed(UR5)
    sim = NodeThread(SimArm, 'sim_arm', ['--params-file', str(UR5), '-p', 'rate:=1000.0'])
    try:
        for _ in range(CYCLES):
            run.go(Transition.TRANSITION_CONFIGURE, 'inactive')
            with run.probe.condition:
                mark = (run.probe.messages['tf'] or [None])[-1]
            run.go(Transition.TRANSITION_ACTIVATE, 'active')
            run.probe.wait_for('tf', lambda message: True, after=mark)  # the stream is in
            run.go(Transition.TRANSITION_DEACTIVATE, 'inactive')
            run.go(Transition.TRANSITION_CLEANUP, 'unconfigured')
        run.go(Transition.TRANSITION_CONFIGURE, 'inactive')
        run.go(Transition.TRANSITION_ACTIVATE, 'active')
        run.go(Transition.TRANSITION_ACTIVE_SHUTDOWN, 'finalized')
        assert run.thread.thread.is_alive()
    finally:
        assert sim.stop() == 0
        run.stop()
