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
The dh_kinematics node: joint_states in; TF, torques, efforts and diagnostics out.

Wiring only: it declares the parameters (checked in :mod:`parameters.validation`), hands
each joint_states message and each tick to :class:`node_logic.joint_states.JointStatesFlow`, and
publishes what that returns, converted by :mod:`ros.messages`: each message as it arrives, or,
with ``monitors.block_period`` > 0, the messages that arrived within the period as one block
(:meth:`JointStatesFlow.handle_block`), on a timer of that period and before each tick, each
message's outputs published with its own stamp and in its order. What goes on /tf, the friction
torques, gravity torques, expected efforts, effort residuals, external torques and the tool
wrench (with its deviation) are computed only while someone subscribes to them, or, for the
residuals and external torques, while the effort monitor needs them. The node asks its
publishers every tick, and before each message while /tf or the friction has no
subscriber (0.1 µs a publisher), so the first message after a subscriber matches has them.
The limit levels are always kept (they are the monitor), but the diagnostics are built and
published only when /diagnostics has a subscriber; a publication that was due goes out at the
first tick after one appears.
"""

import copy
import sys
from time import monotonic_ns, time_ns

from dh_kinematics.core.names import axis_frame_names, frame_names
from dh_kinematics.node_logic import frames
from dh_kinematics.node_logic.joint_states import JointStatesFlow, Usual, Wanted
from dh_kinematics.node_logic.schedule import tick_s
from dh_kinematics.parameters.specs import NODE
from dh_kinematics.parameters.validation import notes, robot_description
from dh_kinematics.ros import entry, messages
from dh_kinematics.ros.main import guard_clock, quiet_at_shutdown, run
from dh_kinematics.ros.parameters import checked_change, declare
from dh_kinematics.ros.rclpy_compat import raw_publish, whole_parameter_services
from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import WrenchStamped
from rcl_interfaces.msg import SetParametersResult
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.qos_overriding_options import QoSOverridingOptions
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray, String
from tf2_msgs.msg import TFMessage

# tf2_ros's TransformBroadcaster and StaticTransformBroadcaster use exactly these.
TF_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE,
                    durability=DurabilityPolicy.VOLATILE, history=HistoryPolicy.KEEP_LAST)
TF_STATIC_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL,
                           history=HistoryPolicy.KEEP_LAST)
# Best effort matches reliable and best-effort publishers alike.
JOINT_STATES_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT)
# robot_state_publisher publishes robot_description with exactly this.
DESCRIPTION_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                             durability=DurabilityPolicy.TRANSIENT_LOCAL,
                             history=HistoryPolicy.KEEP_LAST)


class Wiring:
    """
    The node's message path, on any rclpy node once it has a checked model.

    :meth:`_wire` makes the publishers, the ``joint_states`` subscription and the timer and
    publishes the static frames and the URDF; :meth:`_unwire` takes them down again, but for
    ``/diagnostics`` (the managed node says there what state it is in). The executor may still
    run a message or a tick it took before :meth:`_unwire`: the callbacks then do nothing.
    """

    _config = _diagnostics = _flow = _timer = _joint_states = _block_timer = None
    _block = ()

    def _wire(self, config):
        """Start publishing for ``config`` (a :data:`parameters.validation.Parameters`)."""
        self._clock = self.get_clock()
        # Whether the clock is sim time (use_sim_time), read again every tick.
        self._sim_time = self._clock.ros_time_is_active
        self._config = config
        self._flow = JointStatesFlow(config.chain.joint_names, messages.read_joint_state,
                                     self.get_logger().warning, monotonic_ns())
        self._tf = self.create_publisher(TFMessage, '/tf', TF_QOS)
        self._tf_static = self.create_publisher(TFMessage, '/tf_static', TF_STATIC_QOS)
        self._friction = self.create_publisher(JointState, '~/friction_torque', 10)
        self._efforts = tuple(self.create_publisher(JointState, topic, 10) for topic in (
            '~/gravity_torque', '~/expected_effort', '~/effort_residual'))
        self._manipulability = self.create_publisher(Float64MultiArray, '~/manipulability', 10)
        self._safety = self.create_publisher(Float64MultiArray, '~/safety', 10)
        self._external = self.create_publisher(JointState, '~/external_torque', 10)
        self._wrench = self.create_publisher(WrenchStamped, '~/external_wrench', 10)
        self._deviation = self.create_publisher(WrenchStamped, '~/external_wrench_deviation',
                                                10)
        # What the per-message path publishes with: serialized bytes, straight to each handle.
        self._send_tf, self._send_friction = map(raw_publish, (self._tf, self._friction))
        self._send_efforts = tuple(map(raw_publish, self._efforts))
        self._send_external = raw_publish(self._external)
        # In the order of Wanted's fields: the wrench's with its deviation's.
        self._readers = tuple((publisher.handle,) for publisher in self._efforts + (
            self._tf, self._friction, self._manipulability, self._safety, self._external)) + (
            (self._wrench.handle, self._deviation.handle),)
        self._subscribers = None
        self._unwatched = True  # whether /tf or the friction has no subscriber
        if self._diagnostics is None:
            self._diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        self._description = self.create_publisher(String, 'robot_description', DESCRIPTION_QOS)
        self._timer = self._block_timer = None
        self._block = []  # the messages of the block being gathered (monitors.block_period)
        self._take(config)
        self._joint_states = self.create_subscription(
            # A copy: rclpy writes the qos_overrides parameters into the profile it is given.
            JointState, 'joint_states', self._on_joint_states, copy.copy(JOINT_STATES_QOS),
            raw=True,
            qos_overriding_options=QoSOverridingOptions.with_default_policies())
        chain, names = config.chain, self._frames
        self.get_logger().info(
            f'{chain.name or "arm"}: {chain.n} joints, frames {names[0]} -> {names[1]} .. '
            f'{names[-1]} (prefix {config.settings["frame_prefix"]!r}), joint_states '
            f'from {self._joint_states.topic_name}')
        self._warn_unusual()

    def _unwire(self):
        """Stop publishing: no subscription, timer or publisher is left but /diagnostics."""
        self._judge_block()
        self.destroy_subscription(self._joint_states)
        for timer in (self._timer, self._block_timer):
            if timer is not None:
                self.destroy_timer(timer)
        self._joint_states = self._timer = self._block_timer = None
        for publisher in (self._tf, self._tf_static, self._friction) + self._efforts + (
                self._manipulability, self._safety, self._external, self._wrench,
                self._deviation, self._description):
            self.destroy_publisher(publisher)

    @property
    def config(self):
        """Return the checked parameters in use: a :data:`parameters.validation.Parameters`."""
        return self._config

    @property
    def flow(self):
        """Return the joint_states logic (:class:`JointStatesFlow`): cache, levels, outputs."""
        return self._flow

    @property
    def tick_period_ns(self):
        """Return the period of the node's timer, ns (:func:`schedule.tick_s`)."""
        return self._timer.timer_period_ns

    def _take(self, config, changed=()):
        """Use checked parameters: the flow, the messages, the static frames and the URDF."""
        before = self._config
        self._judge_block()  # by the model and settings its messages came under
        self._config = config
        chain, prefix = config.chain, config.settings['frame_prefix']
        self._frames = frame_names(chain, prefix)
        self._messages = messages.SerializedMessages(
            self._frames, chain.joint_names,
            frames.joint_children(self._frames, axis_frame_names(chain, prefix)))
        self._flow.configure(chain, config.settings)
        self._flow.templates = self._messages.templates
        tick = tick_s(config.settings['diagnostics.period'])
        if self._timer is None or self._timer.timer_period_ns != int(tick * 1e9):
            if self._timer is not None:
                self.destroy_timer(self._timer)
            self._timer = self.create_timer(tick, self._on_tick)
        block = int(config.settings['monitors.block_period'] * 1e9)
        if (self._block_timer.timer_period_ns if self._block_timer else 0) != block:
            if self._block_timer is not None:
                self.destroy_timer(self._block_timer)
            self._block_timer = (self.create_timer(block * 1e-9, self._judge_block) if block
                                 else None)
        static = frames.static_frames(chain, prefix)
        self._tf_static.publish(messages.tf_message(static, self.get_clock().now().to_msg()))
        if config.settings['publish_robot_description']:
            self._description.publish(String(data=robot_description(config)))
        if changed:
            self.get_logger().info(f'model updated: {", ".join(changed)}')
            self._warn_unusual(notes(before))

    def _warn_unusual(self, said=()):
        """Warn of each unusual value or idle setting, but those ``said`` before a change."""
        for note in notes(self._config):
            if note not in said:
                self.get_logger().warning(note)

    def set_parameters_atomically(self, parameter_list):
        """
        Take a change of parameters wholly, or refuse it wholly with a reason naming one.

        Checked as a whole (:func:`parameters.checked_change`); rclpy's own parameters pass
        to rclpy, which refuses only unsetting one or giving it another type.
        """
        current = self._checked_config()
        if current is None:  # a managed node before configure, after cleanup or shutdown
            return SetParametersResult(successful=False, reason=self._no_model())
        try:
            config, declared, names = checked_change(self, current, parameter_list)
        except ValueError as error:
            text = f'parameter change refused: {error}'
            if self._flow is None:
                self.get_logger().warning(text)
            else:
                self._flow.warn('refused', text, monotonic_ns(), counts=False)
            return SetParametersResult(successful=False, reason=str(error))
        if not declared:
            return SetParametersResult(successful=True)
        result = super().set_parameters_atomically(declared)
        if result.successful and names:
            self._use(config, names)
        return result

    def _checked_config(self):
        """Return the checked parameters a change is checked against; None without a model."""
        return self._config

    def _use(self, config, names):
        """Use the checked parameters of a change that named ``names``."""
        self._take(config, names)

    def _no_model(self):
        """Say why a parameter cannot change while :meth:`_checked_config` is None."""
        return 'the node has no model'

    def set_parameters(self, parameter_list):
        """Set the parameters as one change (see :meth:`set_parameters_atomically`)."""
        result = self.set_parameters_atomically(parameter_list)
        return [result for _ in parameter_list]

    def _now_ns(self):
        """Return the node's clock in ns; 0 while sim time has no /clock yet."""
        # Without sim time the ROS clock is the system clock; time_ns() reads it faster.
        return self._clock.now().nanoseconds if self._sim_time else time_ns()

    @quiet_at_shutdown
    def _on_joint_states(self, data):
        """Take one serialized JointState; publish its TF and friction, and maybe diagnostics."""
        if self._joint_states is None:  # queued before a deactivate took the wiring down
            return
        now_ns = self._now_ns()
        if self._unwatched:  # a subscriber may have come since the tick: ask now
            self._check_subscribers()
        if self._block_timer is not None:  # judged with the block (monitors.block_period)
            self._block.append((data, now_ns, monotonic_ns()))
            return
        self._publish(self._flow.handle(data, now_ns, monotonic_ns()), now_ns)

    @quiet_at_shutdown
    def _judge_block(self):
        """Judge the messages gathered since the last block; publish what each gives."""
        block, self._block = self._block, []
        if block:
            self._flow.handle_block(block, lambda k, outcome: self._publish(outcome,
                                                                            block[k][1]))

    def _publish(self, outcome, now_ns):
        """Publish what one message gives (:meth:`JointStatesFlow.handle`), at ``now_ns``."""
        if outcome.__class__ is Usual:  # the usual message: its TF and friction, serialized
            if outcome.tf is not None:
                self._send_tf(outcome.tf)
            if outcome.friction is not None:
                self._send_friction(outcome.friction)
            return
        serialized = self._messages
        if outcome.tf is not None:
            self._send_tf(serialized.tf(*outcome.tf))
        if outcome.friction is not None:
            self._send_friction(serialized.efforts(*outcome.friction))
        dynamics = (outcome.gravity, outcome.expected, outcome.residual)
        for send, efforts in zip(self._send_efforts, dynamics):
            if efforts is not None:
                send(serialized.efforts(*efforts))
        if outcome.manipulability is not None:
            self._manipulability.publish(messages.manipulability(*outcome.manipulability))
        if outcome.safety is not None:
            self._safety.publish(messages.safety(self._flow.limits, *outcome.safety))
        if outcome.external is not None:
            self._send_external(serialized.efforts(*outcome.external))
        if outcome.wrench is not None:
            stamp_ns, values, deviation = outcome.wrench
            self._wrench.publish(messages.wrench(self._frames[1], stamp_ns, values))
            if deviation is not None:
                self._deviation.publish(messages.wrench(self._frames[1], stamp_ns, deviation))
        if outcome.diagnostics:
            self._publish_diagnostics(now_ns)

    @quiet_at_shutdown
    def _on_tick(self):
        # No arguments: some executors pass a TimerInfo to callbacks that take one.
        if self._joint_states is None:  # as in _on_joint_states
            return
        self._judge_block()  # the messages before the tick first
        self._sim_time = self._clock.ros_time_is_active
        now_ns = self._now_ns()
        self._check_subscribers()
        if self._flow.tick(now_ns, monotonic_ns()):
            self._publish_diagnostics(now_ns)

    def _check_subscribers(self):
        """Tell the flow which of the per-message topics someone subscribes to."""
        subscribers = tuple([any(reader.get_subscription_count() > 0 for reader in readers)
                             for readers in self._readers])
        if subscribers != self._subscribers:
            self._subscribers = subscribers
            self._flow.wanted = wanted = Wanted(*subscribers)
            self._unwatched = not (wanted.tf and wanted.friction)

    def _publish_diagnostics(self, now_ns):
        if not self._diagnostics.handle.get_subscription_count():
            self._flow.limits.hold()  # the levels stay current; the publication waits
            return
        statuses = self._flow.statuses(now_ns, monotonic_ns())
        self._diagnostics.publish(messages.diagnostic_array(
            statuses, self.get_fully_qualified_name(),
            self._config.chain.name or self.get_name(), messages.stamp(now_ns)))


class DhKinematicsNode(Wiring, Node):
    """Publish TF, torques, efforts and diagnostics for a DH arm from joint_states."""

    def __init__(self, node_name='dh_kinematics', **kwargs):
        super().__init__(node_name, start_parameter_services=False, **kwargs)
        self._parameter_service = whole_parameter_services(self)
        guard_clock(self)
        self._wire(declare(self, NODE))


def main(args=None):
    """Run the node; exit 1 with one clear message when the model is invalid."""
    return entry.guarded(run, DhKinematicsNode, 'dh_kinematics', args,
                         executable='dh_kinematics_node')


if __name__ == '__main__':
    sys.exit(main())
