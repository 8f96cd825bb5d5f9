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
The dh_kinematics node: joint_states in; TF, friction torques and limit diagnostics out.

A thin layer over the core: it declares the parameters, converts messages, calls the core
(:class:`Chain`, :class:`JointStateCache`, :mod:`limit_monitor`, :mod:`tf_frames`) and publishes.
"""

from collections import namedtuple
import copy
import sys
import time

from dh_kinematics.core import bounds
from dh_kinematics.core.chain import Chain
from dh_kinematics.ros import entry
from dh_kinematics.ros import messages as ros_messages
from dh_kinematics.ros.main import guard_clock, quiet_at_shutdown, run
from dh_kinematics.ros.parameters import (
    AtomicParameterService, declare_model, declare_settings, plain, WholeChanges)
from dh_kinematics.stream import cdr
from dh_kinematics.stream import frames as tf_frames
from dh_kinematics.stream import param_specs as node_params
from dh_kinematics.stream.joint_math import StreamMath
from dh_kinematics.stream.joint_state_cache import JointStateCache, MAX_UNKNOWN_NAMES
from dh_kinematics.stream.limit_diagnostics import LimitDiagnostics, TICK_S
from diagnostic_msgs.msg import DiagnosticArray
from rcl_interfaces.msg import SetParametersResult
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.qos_overriding_options import QoSOverridingOptions
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState
from tf2_msgs.msg import TFMessage

# tf2_ros's TransformBroadcaster and StaticTransformBroadcaster use exactly these.
TF_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE,
                    durability=DurabilityPolicy.VOLATILE, history=HistoryPolicy.KEEP_LAST)
TF_STATIC_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                           durability=DurabilityPolicy.TRANSIENT_LOCAL,
                           history=HistoryPolicy.KEEP_LAST)
# Best effort matches reliable and best-effort publishers alike.
JOINT_STATES_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.BEST_EFFORT)
LOG_EVERY_S = 5.0

Model = namedtuple('Model', 'chain names prefix math messages')


class DhKinematicsNode(WholeChanges, Node):
    """Publish TF, friction and joint-limit diagnostics for a DH arm from joint_states."""

    def __init__(self, node_name='dh_kinematics', **kwargs):
        super().__init__(node_name, start_parameter_services=False, **kwargs)
        self._parameter_service = AtomicParameterService(self)
        guard_clock(self)
        self._declared = declare_settings(self, node_params.NODE)
        self._declared += declare_model(self)[0]
        self._model = self._make_model(self._values())
        self._settings = self._read_settings(self._values())
        self._cache = JointStateCache(self._model.chain.joint_names)
        self._limits = LimitDiagnostics(self._cache)
        self._configure()
        self._reader = cdr.JointStateReader()
        self._received = 0
        self._rate = (0, time.monotonic(), 0.0)
        self._last_now_ns = 0
        self._last_log = {}

        self._tf = self.create_publisher(TFMessage, '/tf', TF_QOS)
        self._tf_static = self.create_publisher(TFMessage, '/tf_static', TF_STATIC_QOS)
        self._friction = self.create_publisher(JointState, '~/friction_torque', 10)
        self._diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        joint_states = self.create_subscription(
            # A copy: rclpy writes the qos_overrides parameters into the profile it is given.
            JointState, 'joint_states', self._on_joint_states, copy.copy(JOINT_STATES_QOS),
            raw=True,
            qos_overriding_options=QoSOverridingOptions.with_default_policies())
        self._timer = self.create_timer(TICK_S, self._on_tick)
        self._pending = None
        self.add_on_set_parameters_callback(self._check_change)
        self.add_post_set_parameters_callback(self._apply_change)
        self._publish_static()
        names = self._model.names
        self.get_logger().info(
            f'{self._model.chain.name or "arm"}: {self._model.chain.n} joints, frames '
            f'{names[0]} -> {names[1]} .. {names[-1]} (prefix {self._model.prefix!r}), '
            f'joint_states from {joint_states.topic_name}')
        self._warn_unusual()

    # Parameters ---------------------------------------------------------------------------

    def _values(self, changes=()):
        """Return the parameter values with ``changes`` applied; arrays as lists."""
        values = {name: self.get_parameter(name).value for name in self._declared}
        values.update((parameter.name, parameter.value) for parameter in changes)
        return {name: plain(value) for name, value in values.items()}

    def _make_model(self, values):
        chain = Chain.from_params(node_params.model_values(values))
        prefix = values['frame_prefix']
        names = tf_frames.frame_names(chain, prefix)
        math = StreamMath(chain, values['diagnostics.warn_margin'],
                          values['diagnostics.hysteresis'])
        return Model(chain, names, prefix, math,
                     ros_messages.SerializedMessages(names, chain.joint_names))

    def _configure(self):
        """Hand the model and the settings to the cache and the limit diagnostics."""
        settings = self._settings
        self._cache.future_tolerance_ns = int(settings['future_stamp_tolerance'] * 1e9)
        self._limits.configure(
            self._model.chain, self._model.math, settings['diagnostics.warn_margin'],
            settings['diagnostics.hysteresis'], settings['diagnostics.stale_timeout'],
            settings['diagnostics.period'])

    @staticmethod
    def _read_settings(values):
        return {spec.name: values[spec.name] for spec in node_params.NODE}

    def _joint_names(self):
        return self._model.chain.joint_names

    def _check_change(self, parameters):
        """Validate a change as a whole; refuse it with the reason, or keep it for applying."""
        values = self._values(parameters)
        try:
            self._pending = (self._make_model(values), self._read_settings(values))
        except ValueError as error:
            self._pending = None
            self._log('refused', f'parameter change refused: {error}', counts=False)
            return SetParametersResult(successful=False, reason=str(error))
        return SetParametersResult(successful=True)

    def _apply_change(self, parameters):
        if self._pending is None:
            return
        (self._model, self._settings), self._pending = self._pending, None
        self._configure()
        self._publish_static()
        self.get_logger().info(f'model updated: {", ".join(p.name for p in parameters)}')
        self._warn_unusual()

    def _warn_unusual(self):
        for note in bounds.model_warnings(self._model.chain):
            self.get_logger().warning(f'unusual model value: {note}')

    # Publishing ---------------------------------------------------------------------------

    def _now_ns(self):
        """Return the node's clock in ns; 0 while sim time has no /clock yet."""
        clock = self.get_clock()
        # Without sim time the ROS clock is the system clock; time.time_ns() reads it faster.
        now_ns = clock.now().nanoseconds if clock.ros_time_is_active else time.time_ns()
        if now_ns < self._last_now_ns:
            self._cache.reset_stamps(now_ns)
            self._log('clock_jump', 'the clock jumped back; accepting older stamps from now on')
        self._last_now_ns = now_ns
        return now_ns

    def _log(self, key, text, counts=True):
        """Log a warning, at most one per ``key`` every LOG_EVERY_S seconds."""
        now = time.monotonic()
        if now - self._last_log.get(key, -LOG_EVERY_S) >= LOG_EVERY_S:
            self._last_log[key] = now
            suffix = f' (counts: {dict(self._cache.counts)})' if counts else ''
            self.get_logger().warning(text + suffix)

    def _publish_static(self):
        frames = tf_frames.static_frames(self._model.chain, self._model.names)
        self._tf_static.publish(ros_messages.tf_message(frames, self.get_clock().now().to_msg()))

    @quiet_at_shutdown
    def _on_joint_states(self, data):
        """Take one serialized JointState: update the cache, publish TF and friction."""
        now_ns = self._now_ns()
        if now_ns == 0:  # sim time, and no /clock yet: nothing to judge stamps by
            if not self._cache.counts['no_clock']:  # said once
                self.get_logger().warning(
                    'joint_states: dropped (no_clock) until /clock starts, as use_sim_time is '
                    'true; they are counted in the diagnostics')
            self._cache.drop('no_clock')
            self._received += 1
            return
        try:
            stamp_ns, names, positions, velocities = self._reader.read(data)
        except ValueError:  # not plain CDR: let the middleware decode it
            try:
                message = deserialize_message(data, JointState)
            except (RuntimeError, ValueError):  # rclpy's RMWError, or bad UTF-8
                return self._drop('malformed', 'undecodable bytes')
            stamp_ns = message.header.stamp.sec * 1_000_000_000 + message.header.stamp.nanosec
            names, positions, velocities = message.name, message.position, message.velocity
        update = self._cache.update(names, positions, velocities, stamp_ns, now_ns)
        self._received += 1
        if update.new_unknown:
            self._name_unknown(update.new_unknown)
        if update.dropped:
            detail = (f'names {list(names)[:10]} match none of the joints '
                      f'{list(self._model.chain.joint_names)}'
                      if update.dropped == 'no_known_joint' else update.dropped)
            self._log(update.dropped, f'dropped a joint_states message: {detail}')
        for note in update.notes:
            if note != 'unknown_joint':
                self._log(note, f'joint_states: {note.replace("_", " ")}')
        model, notes = self._model, update.notes
        joints, moving, q = update.positions, update.velocities, update.q
        if joints:
            joints, q, poses = model.math.finite_poses(joints, update.q)
            if len(joints) < len(update.positions):
                notes = self._non_finite_result(update.positions, joints, notes)
            if joints:
                self._tf.publish(model.messages.tf(joints, update.stamp_ns, poses))
        if moving:
            moving, torques = model.math.finite_friction(moving, update.qd)
            if len(moving) < len(update.velocities):
                notes = self._non_finite_result((), (), notes)
            if moving:
                self._friction.publish(model.messages.efforts(moving, update.stamp_ns, torques))
        if self._limits.after_message(joints, q, notes, now_ns, time.monotonic_ns()):
            self._publish_diagnostics(now_ns)

    def _drop(self, reason, detail):
        self._cache.drop(reason)
        self._received += 1
        self._log(reason, f'dropped a joint_states message: {reason} ({detail})')

    def _name_unknown(self, names):
        """Name each unknown joint once; past MAX_UNKNOWN_NAMES names, say so once."""
        for name in names:
            self.get_logger().warning(
                f'joint_states: unknown joint {name!r} ignored (the model has '
                f'{", ".join(self._model.chain.joint_names)})')
        if len(self._cache.unknown_names) >= MAX_UNKNOWN_NAMES:
            self.get_logger().warning(
                f'joint_states: {MAX_UNKNOWN_NAMES} unknown joint names so far; further ones '
                'are only counted (unknown_joint)')

    def _non_finite_result(self, moved, kept, notes):
        """Treat joints whose transform or torque overflowed like non-finite positions."""
        for j in set(moved) - set(kept):
            self._cache.non_finite[j] = True
        if 'non_finite_result' not in notes:
            self._cache.counts['non_finite_result'] += 1
            self._log('non_finite_result', 'joint_states: a value overflowed to inf or NaN; '
                      'left out of /tf and the friction torques')
            notes = notes + ('non_finite_result',)
        return notes

    @quiet_at_shutdown
    def _on_tick(self):
        # No arguments: some executors pass a TimerInfo to callbacks that take one.
        now_ns = self._now_ns()
        if self._limits.on_tick(now_ns, time.monotonic_ns()):
            self._publish_diagnostics(now_ns)

    def _publish_diagnostics(self, now_ns):
        chain = self._model.chain
        statuses = self._limits.statuses(now_ns, time.monotonic_ns(), self._received,
                                         self._update_rate())
        self._diagnostics.publish(ros_messages.diagnostic_array(
            statuses, self.get_fully_qualified_name(), chain.name or self.get_name(),
            ros_messages.stamp(now_ns)))

    def _update_rate(self):
        """Return the joint_states rate in Hz over the last diagnostics period or longer."""
        count, since, rate = self._rate
        now = time.monotonic()
        if now - since >= 0.5 * self._settings['diagnostics.period']:
            rate = (self._received - count) / (now - since)
            self._rate = (self._received, now, rate)
        return rate


def main(args=None):
    """Run the node; exit 1 with one clear message when the model is invalid."""
    return entry.guarded(run, DhKinematicsNode, 'dh_kinematics', args,
                         executable='dh_kinematics_node')


if __name__ == '__main__':
    sys.exit(main())
