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
The dh_kinematics node as a managed (lifecycle) node: ``dh_kinematics_managed_node``.

The same parameters, topics and message path as :mod:`ros.node`, sequenced as ROS 2 hardware
bring-up sequences its nodes (``ros2 lifecycle set /dh_kinematics configure``, then
``activate``):

- *unconfigured*: the parameters given are not read yet; nothing is published but a status;
- ``configure`` reads and checks the model as the plain node does at start-up (a bad model
  fails the transition with the node's message, and the node stays unconfigured);
- ``activate`` starts the message path: TF, the URDF, the torques, every monitor;
- ``deactivate`` stops it (no subscription, timer or publisher is left but /diagnostics);
- ``cleanup`` drops the model; a later ``configure`` checks the declared values again.

A parameter change is checked and applied as the plain node's is while active; while inactive
it is checked against the model and used on ``activate``; unconfigured, it is refused.

In every state but active, ``/diagnostics`` carries one status, ``<node>: arm``, at the
diagnostics period, STALE, saying which state and what comes next.
"""

import sys

from dh_kinematics.node_logic.monitors.levels import STALE
from dh_kinematics.node_logic.monitors.tasks import Status
from dh_kinematics.parameters import validation
from dh_kinematics.parameters.specs import NODE
from dh_kinematics.ros import entry, messages
from dh_kinematics.ros.main import guard_clock, run
from dh_kinematics.ros.node import Wiring
from dh_kinematics.ros.parameters import declare, python_value
from dh_kinematics.ros.rclpy_compat import whole_parameter_services
from diagnostic_msgs.msg import DiagnosticArray
from rclpy.lifecycle import LifecycleNode, TransitionCallbackReturn

STATE_TEXTS = {
    'unconfigured': 'unconfigured: no model read yet (configure reads it)',
    'inactive': 'inactive: the model is checked, nothing is published (activate starts it)',
    'finalized': 'finalized: shut down, nothing runs (start the node again to use it)',
}
"""The arm's status in each state but active (where the monitors say it)."""
STATE_PERIOD_S = 1.0
"""How often the state's status is published while not active, s."""


class DhKinematicsManagedNode(Wiring, LifecycleNode):
    """The dh_kinematics node, configured, activated and deactivated by lifecycle transitions."""

    def __init__(self, node_name='dh_kinematics', **kwargs):
        super().__init__(node_name, start_parameter_services=False, **kwargs)
        self._parameter_service = whole_parameter_services(self)
        guard_clock(self)
        self._diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        self._declared = None  # the parameters' names, once a configure declared them
        self._checked = None  # the checked model between configure and cleanup
        self._state = 'unconfigured'
        self._state_timer = self.create_timer(STATE_PERIOD_S, self._publish_state)
        self._publish_state()

    def on_configure(self, state):
        """Read and check the model; FAILURE (with the node's message) leaves it unconfigured."""
        try:
            if self._declared is None:
                self._checked = declare(self, NODE)
                self._declared = tuple(self._checked.values)
            else:  # after cleanup: the values declared, as they are now
                values = {name: python_value(self.get_parameter(name).value)
                          for name in self._declared}
                self._checked = validation.checked(values, NODE, self.get_fully_qualified_name())
        except ValueError as error:
            self.get_logger().error(f'configure failed: {error}')
            return TransitionCallbackReturn.FAILURE
        self._enter('inactive')
        return TransitionCallbackReturn.SUCCESS

    def on_activate(self, state):
        """Start the message path: publishers, the joint_states subscription, the timer."""
        self._wire(self._checked)
        self._enter('active')
        return super().on_activate(state)

    def on_deactivate(self, state):
        """Stop the message path; the model stays checked."""
        self._checked = self._config
        self._unwire()
        self._config = None
        self._enter('inactive')
        return super().on_deactivate(state)

    def on_cleanup(self, state):
        """Drop the model."""
        self._checked = None
        self._enter('unconfigured')
        return TransitionCallbackReturn.SUCCESS

    def on_shutdown(self, state):
        """Stop whatever runs; the status says so."""
        if self._timer is not None:
            self._unwire()
            self._config = None
        self._checked = None
        self._enter('finalized')
        return TransitionCallbackReturn.SUCCESS

    def _checked_config(self):
        """Return the model in use while active, the checked one while inactive, else None."""
        return self._config if self._state == 'active' else self._checked

    def _no_model(self):
        """Say why a parameter cannot change: no model yet, or none any more."""
        if self._state == 'finalized':
            return 'the node is shut down (finalized): start it again to change its parameters'
        return 'the node has no model: configure it first (ros2 lifecycle set <node> configure)'

    def _use(self, config, names):
        """Use a change at once while active; while inactive, keep it for ``activate``."""
        if self._state == 'active':
            self._take(config, names)
        else:
            self._checked = config
            self.get_logger().info(f'model updated: {", ".join(names)} (used on activate)')

    def _enter(self, name):
        self._state = name
        self.get_logger().info(f'{name}')
        self._publish_state()

    def _publish_state(self):
        """Publish the state's status, except while active (the monitors' statuses run)."""
        if self._state == 'active':
            return
        status = Status('arm', STALE, STATE_TEXTS[self._state], (('state', self._state),))
        self._diagnostics.publish(messages.diagnostic_array(
            [status], self.get_fully_qualified_name(), self.get_name(),
            self.get_clock().now().to_msg()))


def main(args=None):
    """Run the managed node; it waits for its lifecycle transitions."""
    return entry.guarded(run, DhKinematicsManagedNode, 'dh_kinematics', args,
                         executable='dh_kinematics_managed_node')


if __name__ == '__main__':
    sys.exit(main())
