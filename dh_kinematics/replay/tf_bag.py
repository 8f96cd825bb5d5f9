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
The bag a ``joint_states`` bag never had: its messages, ``/tf`` per stamp, the static frames.

Written with ``rosbags`` (sqlite3): the input's messages as they were, ``/tf`` at each input
stamp (the node's own transforms: the flow's, :class:`Replay` with ``tf``), ``/tf_static`` and
``/robot_description`` once, offered as transient local in the bag's metadata, as rosbag2
records a latched topic, so that ``ros2 bag play`` latches them again.
"""

from dh_kinematics.node_logic import frames

__all__ = ['TfBag']

TF_TYPE, STRING_TYPE = 'tf2_msgs/msg/TFMessage', 'std_msgs/msg/String'


def _latched():
    from rosbags.interfaces import (
        Qos, QosDurability, QosHistory, QosLiveliness, QosReliability, QosTime)
    never = QosTime(0, 0)
    return [Qos(QosHistory.KEEP_LAST, 1, QosReliability.RELIABLE,
                QosDurability.TRANSIENT_LOCAL, never, never, QosLiveliness.AUTOMATIC, never,
                False)]


class TfBag:
    """
    A bag being written: :meth:`joint_state` and :meth:`tf` per message, :meth:`close` at the end.

    Parameters
    ----------
    path : path
        The new bag folder.
    names, children : tuple of str
        The frames (:func:`core.names.frame_names`, :func:`frames.joint_children`), prefixed.
    static : Frames
        :func:`frames.static_frames`.
    urdf : str
        The robot description.
    topic : str
        The joint_states topic, as in the input.
    start_ns : int
        The stamp of the static frames and the description: the first message's.

    """

    def __init__(self, path, names, children, static, urdf, topic, start_ns):
        from rosbags.rosbag2 import Writer
        from rosbags.typesys import get_typestore, Stores

        self._store = store = get_typestore(Stores.ROS2_JAZZY)
        self._names, self._children = names, children
        self._writer = writer = Writer(path, version=9)
        writer.open()
        self._joint_states = writer.add_connection(topic, 'sensor_msgs/msg/JointState',
                                                   typestore=store)
        self._tf = writer.add_connection('/tf', TF_TYPE, typestore=store)
        tf_static = writer.add_connection('/tf_static', TF_TYPE, typestore=store,
                                          offered_qos_profiles=_latched())
        description = writer.add_connection('/robot_description', STRING_TYPE,
                                            typestore=store, offered_qos_profiles=_latched())
        writer.write(tf_static, start_ns, self._message(static, start_ns))
        String = store.types[STRING_TYPE]
        writer.write(description, start_ns, store.serialize_cdr(String(urdf), STRING_TYPE))

    def _message(self, chosen, stamp_ns):
        """Return a serialized TFMessage of :data:`Frames` at ``stamp_ns``."""
        types = self._store.types
        Time = types['builtin_interfaces/msg/Time']
        Header = types['std_msgs/msg/Header']
        Stamped, Transform, Vector3, Quaternion = (types[f'geometry_msgs/msg/{name}'] for name in (
            'TransformStamped', 'Transform', 'Vector3', 'Quaternion'))
        time = Time(*divmod(stamp_ns, 1_000_000_000))
        transforms = [
            Stamped(Header(time, parent), child, Transform(Vector3(*map(float, xyz)),
                                                           Quaternion(*map(float, xyzw))))
            for parent, child, xyz, xyzw in zip(chosen.parents, chosen.children,
                                                chosen.translations, chosen.rotations)]
        return self._store.serialize_cdr(types[TF_TYPE](transforms), TF_TYPE)

    def joint_state(self, bag_ns, data):
        """Write one input message as it was."""
        self._writer.write(self._joint_states, bag_ns, data)

    def tf(self, bag_ns, outcome_tf):
        """Write the flow's ``tf`` outcome ``(joints, stamp_ns, poses)`` as one TFMessage."""
        joints, stamp_ns, poses = outcome_tf
        chosen = frames.joint_frames(self._names, self._children, joints, poses)
        self._writer.write(self._tf, bag_ns, self._message(chosen, stamp_ns))

    def close(self):
        """Finish the bag (its metadata)."""
        self._writer.close()
