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
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import TransformStamped
from sensor_msgs.msg import JointState
from tf2_msgs.msg import TFMessage


def stamp(nanoseconds):
    """Return a builtin_interfaces/Time for a time in ns."""
    seconds, rest = divmod(int(nanoseconds), 1_000_000_000)
    return Time(sec=seconds, nanosec=rest)


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
