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
The floor that rclpy and DDS set: receive JointState, republish n precomputed transforms.

A minimal rclpy node for the node benchmark. It subscribes to joint_states with the QoS the
dh_kinematics node uses, stamps a precomputed TFMessage of ``--transforms`` transforms with the
incoming stamp and publishes it on /tf with tf2_ros's QoS. No kinematics, no checks. It runs
with the executor the dh_kinematics node runs with (:func:`dh_kinematics.ros.main.run`).

With ``--raw`` it skips rclpy's message conversion, as the dh_kinematics node does: it takes
the serialized JointState, reads its stamp from the bytes, and publishes serialized bytes.
"""

import argparse
import struct
import sys

from dh_kinematics.node_logic.message_template import Template
from dh_kinematics.ros.main import run
from dh_kinematics.ros.node import JOINT_STATES_QOS, TF_QOS
from geometry_msgs.msg import TransformStamped
from rclpy.node import Node
from rclpy.serialization import serialize_message
from sensor_msgs.msg import JointState
from tf2_msgs.msg import TFMessage


class Baseline(Node):
    """Republish a fixed TFMessage for every JointState, stamped like it."""

    def __init__(self, transforms, raw=False, **kwargs):
        super().__init__('baseline', **kwargs)
        self._message = TFMessage()
        for i in range(transforms):
            transform = TransformStamped(child_frame_id=f'link{i + 1}')
            transform.header.frame_id = f'link{i}'
            transform.transform.rotation.w = 1.0
            self._message.transforms.append(transform)
        self._tf = self.create_publisher(TFMessage, '/tf', TF_QOS)
        if raw:
            self._template = Template(self._serialize, transforms, 0)
        self.create_subscription(JointState, 'joint_states',
                                 self._on_raw if raw else self._on_joint_states,
                                 JOINT_STATES_QOS, raw=raw)

    def _serialize(self, stamps, values):
        for transform, (sec, nanosec) in zip(self._message.transforms, stamps):
            transform.header.stamp.sec, transform.header.stamp.nanosec = sec, nanosec
        return serialize_message(self._message)

    def _on_raw(self, data):
        sec, nanosec = struct.unpack_from('<iI', data, 4)
        self._tf.publish(self._template.fill(sec * 1_000_000_000 + nanosec, ()))

    def _on_joint_states(self, message):
        for transform in self._message.transforms:
            transform.header.stamp = message.header.stamp
        self._tf.publish(self._message)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--transforms', type=int, default=7, help='transforms per message')
    parser.add_argument('--raw', action='store_true', help='serialized messages in and out')
    args, ros_args = parser.parse_known_args(argv)
    return run(lambda **kwargs: Baseline(args.transforms, args.raw, **kwargs), 'baseline',
               ros_args)


if __name__ == '__main__':
    sys.exit(main())
