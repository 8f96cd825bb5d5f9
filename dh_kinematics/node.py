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
import sys
import time

from dh_kinematics import limit_monitor, node_params, ros_messages, tf_frames
from dh_kinematics.chain import Chain
from dh_kinematics.joint_state_cache import JointStateCache
from dh_kinematics.ros_main import run
from dh_kinematics.ros_parameters import declare, declare_model
from diagnostic_msgs.msg import DiagnosticArray
import numpy as np
from rcl_interfaces.msg import SetParametersResult
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.qos_overriding_options import QoSOverridingOptions
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

Model = namedtuple('Model', 'chain names prefix')


class DhKinematicsNode(Node):
    """Publish TF, friction and joint-limit diagnostics for a DH arm from joint_states."""

    def __init__(self, node_name='dh_kinematics', **kwargs):
        super().__init__(node_name, **kwargs)
        self._declared = [declare(self, spec) for spec in node_params.NODE]
        self._declared += declare_model(self)
        self._model = self._make_model(self._values())
        self._settings = self._read_settings(self._values())
        self._cache = JointStateCache(self._model.chain.joint_names)
        self._levels = None
        self._received = 0
        self._rate = (0, time.monotonic(), 0.0)
        self._last_now_ns = 0
        self._last_log = {}

        self._tf = self.create_publisher(TFMessage, '/tf', TF_QOS)
        self._tf_static = self.create_publisher(TFMessage, '/tf_static', TF_STATIC_QOS)
        self._friction = self.create_publisher(JointState, '~/friction_torque', 10)
        self._diagnostics = self.create_publisher(DiagnosticArray, '/diagnostics', 10)
        self.create_subscription(
            JointState, 'joint_states', self._on_joint_states, JOINT_STATES_QOS,
            qos_overriding_options=QoSOverridingOptions.with_default_policies())
        self._timer = self.create_timer(self._settings['diagnostics.period'],
                                        self._publish_diagnostics)
        self._pending = None
        self.add_on_set_parameters_callback(self._check_change)
        self.add_post_set_parameters_callback(self._apply_change)
        self._publish_static()
        self.get_logger().info(
            f'{self._model.chain.name or "arm"}: {self._model.chain.n} joints, '
            f'frames {self._model.names[1]} .. {self._model.names[-1]}')

    # Parameters ---------------------------------------------------------------------------

    def _values(self, changes=()):
        values = {name: self.get_parameter_or(name).value for name in self._declared}
        values.update((parameter.name, parameter.value) for parameter in changes)
        return values

    def _make_model(self, values):
        chain = Chain.from_params(node_params.model_values(values))
        prefix = values['frame_prefix']
        return Model(chain, tf_frames.frame_names(chain, prefix), prefix)

    @staticmethod
    def _read_settings(values):
        return {spec.name: values[spec.name] for spec in node_params.NODE}

    def _check_change(self, parameters):
        """Validate a change as a whole; refuse it with the reason, or keep it for applying."""
        values = self._values(parameters)
        try:
            self._pending = (self._make_model(values), self._read_settings(values))
        except ValueError as error:
            self._pending = None
            self.get_logger().warning(f'parameter change refused: {error}')
            return SetParametersResult(successful=False, reason=str(error))
        return SetParametersResult(successful=True)

    def _apply_change(self, parameters):
        if self._pending is None:
            return
        (self._model, settings), self._pending = self._pending, None
        if settings['diagnostics.period'] != self._settings['diagnostics.period']:
            self._timer.cancel()
            self._timer = self.create_timer(settings['diagnostics.period'],
                                            self._publish_diagnostics)
        self._settings = settings
        self._publish_static()
        self.get_logger().info(f'model updated: {", ".join(p.name for p in parameters)}')

    # Publishing ---------------------------------------------------------------------------

    def _now_ns(self):
        now_ns = self.get_clock().now().nanoseconds
        if now_ns < self._last_now_ns:
            self._cache.reset_stamps(now_ns)
            self._log('clock_jump', 'the clock jumped back; accepting older stamps from now on')
        self._last_now_ns = now_ns
        return now_ns

    def _log(self, key, text):
        now = time.monotonic()
        if now - self._last_log.get(key, -LOG_EVERY_S) >= LOG_EVERY_S:
            self._last_log[key] = now
            self.get_logger().warning(f'{text} (counts: {dict(self._cache.counts)})')

    def _publish_static(self):
        frames = tf_frames.static_frames(self._model.chain, self._model.names)
        self._tf_static.publish(ros_messages.tf_message(frames, self.get_clock().now().to_msg()))

    def _on_joint_states(self, message):
        now_ns = self._now_ns()
        stamp_ns = message.header.stamp.sec * 1_000_000_000 + message.header.stamp.nanosec
        update = self._cache.update(message.name, message.position, message.velocity,
                                    stamp_ns, now_ns)
        self._received += 1
        if update.dropped:
            self._log(update.dropped, f'dropped a joint_states message: {update.dropped}')
        for note in update.notes:
            self._log(note, f'joint_states: {note.replace("_", " ")}')
        model = self._model
        time_msg = ros_messages.stamp(update.stamp_ns)
        if len(update.positions):
            frames = tf_frames.moving_frames(model.chain, model.names, self._cache.positions,
                                             update.positions)
            self._tf.publish(ros_messages.tf_message(frames, time_msg))
        if len(update.velocities):
            joints = update.velocities
            efforts = model.chain.friction(np.nan_to_num(self._cache.velocities))[joints]
            self._friction.publish(ros_messages.joint_efforts(
                [model.chain.joint_names[j] for j in joints], efforts, time_msg))
        levels = self._joint_levels(now_ns)
        if self._levels is None or not np.array_equal(levels, self._levels):
            self._publish_diagnostics(levels, now_ns)

    def _joint_levels(self, now_ns):
        lower, upper = self._model.chain.qlim.T
        return limit_monitor.joint_levels(
            self._cache, lower, upper, self._settings['diagnostics.warn_margin'],
            self._settings['diagnostics.stale_timeout'], now_ns)

    def _publish_diagnostics(self, levels=None, now_ns=None):
        now_ns = self._now_ns() if now_ns is None else now_ns
        levels = self._joint_levels(now_ns) if levels is None else levels
        chain, margin = self._model.chain, self._settings['diagnostics.warn_margin']
        lower, upper = chain.qlim.T
        statuses = [limit_monitor.joint_status(self._cache, j, level, lower, upper, margin,
                                               now_ns)
                    for j, level in enumerate(levels.tolist())]
        statuses.append(limit_monitor.arm_status(self._cache, levels, self._received,
                                                 self._update_rate()))
        self._diagnostics.publish(ros_messages.diagnostic_array(
            statuses, self.get_name(), chain.name or self.get_name(),
            ros_messages.stamp(now_ns)))
        self._levels = levels

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
    return run(DhKinematicsNode, 'dh_kinematics', args)


if __name__ == '__main__':
    sys.exit(main())
