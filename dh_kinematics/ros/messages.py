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

"""Conversions from the core's plain results to ROS messages (no rclpy node code)."""

from builtin_interfaces.msg import Time
from dh_kinematics.node_logic.frames import joint_frames
from dh_kinematics.node_logic.message_template import Template
from dh_kinematics.node_logic.monitors.arm import MEASURES
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import TransformStamped, WrenchStamped
from rclpy.serialization import deserialize_message, serialize_message
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray, MultiArrayDimension
from tf2_msgs.msg import TFMessage

TEMPLATES_PER_MODEL = 64


def stamp(nanoseconds):
    """Return a builtin_interfaces/Time for a time in ns."""
    seconds, rest = divmod(int(nanoseconds), 1_000_000_000)
    return Time(sec=seconds, nanosec=rest)


def read_joint_state(data):
    """
    Decode a serialized JointState with the middleware (any encoding it knows).

    Returns ``(stamp_ns, names, positions, velocities, efforts)``; raises ValueError for bytes
    that do not decode (rclpy raises its RMWError, or a UnicodeDecodeError for bad UTF-8).
    """
    try:
        message = deserialize_message(data, JointState)
    except (RuntimeError, ValueError) as error:
        raise ValueError(f'undecodable JointState: {error}') from None
    stamp = message.header.stamp
    return (stamp.sec * 1_000_000_000 + stamp.nanosec, message.name, message.position,
            message.velocity, message.effort)


def tf_message(frames, time):
    """Return a TFMessage with one TransformStamped per frame, all stamped ``time``."""
    transforms = []
    rows = zip(frames.parents, frames.children, frames.translations.tolist(),
               frames.rotations.tolist())
    for parent, child, xyz, quat in rows:
        transform = TransformStamped()
        transform.header.stamp = time
        transform.header.frame_id = parent
        transform.child_frame_id = child
        translation, rotation = transform.transform.translation, transform.transform.rotation
        translation.x, translation.y, translation.z = xyz
        rotation.x, rotation.y, rotation.z, rotation.w = quat
        transforms.append(transform)
    return TFMessage(transforms=transforms)


def joint_efforts(names, efforts, time):
    """Return a JointState carrying only names and efforts (N m or N)."""
    message = JointState(name=list(names), effort=[float(e) for e in efforts])
    message.header.stamp = time
    return message


def diagnostic_array(statuses, node_name, hardware_id, time):
    """Return a DiagnosticArray, naming each status ``'<node name>: <task>'``."""
    array = DiagnosticArray()
    array.header.stamp = time
    for status in statuses:
        array.status.append(DiagnosticStatus(
            level=bytes([status.level]), name=f'{node_name}: {status.task}',
            message=status.message, hardware_id=hardware_id,
            values=[KeyValue(key=key, value=value) for key, value in status.values]))
    return array


def _tf_serializer(frame_names, children, joints):
    def serialize(stamps, values):
        message = tf_message(joint_frames(frame_names, children, joints, values), Time())
        for transform, (sec, nanosec) in zip(message.transforms, stamps):
            transform.header.stamp = Time(sec=sec, nanosec=nanosec)
        return serialize_message(message)
    return serialize


def _efforts_serializer(names):
    def serialize(stamps, values):
        time = Time(sec=stamps[0][0], nanosec=stamps[0][1])
        return serialize_message(joint_efforts(names, values, time))
    return serialize


STAMP_LABELS = ('stamp.sec', 'stamp.nanosec')
"""The last two values of ``~/manipulability`` and ``~/safety``: the joint_states message's
stamp they were computed from, exact (whole numbers, as ``builtin_interfaces/Time``)."""
MANIPULABILITY_LABEL = ' '.join(MEASURES + ('tool_speed',) + STAMP_LABELS)
"""The one dimension's label of ``~/manipulability``: the name of each value, in order."""


def manipulability(stamp_ns, values):
    """Return the Float64MultiArray of ``~/manipulability``: :data:`MANIPULABILITY_LABEL`."""
    return labelled(MANIPULABILITY_LABEL, _stamped(stamp_ns, values))


def labelled(label, values):
    """Return a Float64MultiArray of ``values`` whose one dimension's label names them."""
    message = Float64MultiArray(data=[float(value) for value in values])
    message.layout.dim = [MultiArrayDimension(label=label, size=len(values),
                                              stride=len(values))]
    return message


def safety(monitor, stamp_ns, values):
    """Return the Float64MultiArray of ``~/safety``: ``values`` named by ``monitor.labels``."""
    return labelled(' '.join(monitor.labels + STAMP_LABELS), _stamped(stamp_ns, values))


def _stamped(stamp_ns, values):
    """Return ``values`` and the message's stamp: :data:`STAMP_LABELS`."""
    return list(values) + list(divmod(stamp_ns, 1_000_000_000))


def wrench(frame, stamp_ns, values):
    """Return the WrenchStamped of ``values``: [fx, fy, fz, mx, my, mz] (N, N m) in ``frame``."""
    message = WrenchStamped()
    message.header.frame_id, message.header.stamp = frame, stamp(stamp_ns)
    force, torque = message.wrench.force, message.wrench.torque
    force.x, force.y, force.z, torque.x, torque.y, torque.z = values
    return message


class SerializedMessages:
    """
    A model's TFMessages and effort JointStates as ready-to-publish bytes.

    Each distinct set of joints gets a :class:`message_template.Template` (at most
    ``TEMPLATES_PER_MODEL``); after that, or if a template cannot be made, the methods build
    the message and serialize it with rclpy. The bytes are the same either way.

    Parameters
    ----------
    frame_names : tuple of str
        From :func:`core.names.frame_names`: the parent of joint j's frame is
        ``frame_names[1 + j]``.
    joint_names : tuple of str
        The model's joints.
    children : tuple of str
        The frame each joint moves (:func:`node_logic.frames.joint_children`).

    """

    def __init__(self, frame_names, joint_names, children):
        self._frames, self._joints, self._children = frame_names, joint_names, children
        self._templates = {}

    def _template(self, key, make):
        template = self._templates.get(key, False)
        if template is False:
            template = None
            if len(self._templates) < TEMPLATES_PER_MODEL:
                try:
                    template = make()
                except ValueError:
                    pass
                self._templates[key] = template
        return template

    def _names(self, joints):
        return [self._joints[j] for j in joints]

    def templates(self, joints):
        """Return the templates :meth:`tf` and :meth:`efforts` fill for ``joints`` (or None)."""
        return self._tf_template(joints), self._efforts_template(joints)

    def _tf_template(self, joints):
        return self._template(('tf', joints), lambda: Template(
            _tf_serializer(self._frames, self._children, joints), len(joints), 7 * len(joints)))

    def _efforts_template(self, joints):
        return self._template(('efforts', joints), lambda: Template(
            _efforts_serializer(self._names(joints)), 1, len(joints)))

    def tf(self, joints, stamp_ns, poses):
        """
        Return the TFMessage of the chosen joints, all stamped ``stamp_ns``.

        Parameters
        ----------
        joints : tuple of int
            Joint indices; each publishes the frame it moves.
        stamp_ns : int
            Stamp in ns.
        poses : sequence of float
            Per joint [x, y, z, qx, qy, qz, qw], as :meth:`StreamMath.finite_poses` gives
            them.

        """
        template = self._tf_template(joints)
        if template is None:
            return serialize_message(tf_message(
                joint_frames(self._frames, self._children, joints, poses), stamp(stamp_ns)))
        return template.fill(stamp_ns, poses)

    def efforts(self, joints, stamp_ns, efforts):
        """Return the JointState of the chosen joints with ``efforts`` (N m or N), stamped."""
        template = self._efforts_template(joints)
        if template is None:
            return serialize_message(
                joint_efforts(self._names(joints), efforts, stamp(stamp_ns)))
        return template.fill(stamp_ns, efforts)
