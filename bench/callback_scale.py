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
How the node's joint_states callback scales with the joints in a message (no DDS).

For 7, 50 and 100 revolute joints with limits and friction, the node is built in-process and
fed the same serialized message (stamp increasing) 3000 times; prints the CPU time per message.

    .venv/bin/python bench/callback_scale.py
"""

import pathlib
import sys
import tempfile
import time

from dh_kinematics import Chain, Link
from dh_kinematics.ros.node import DhKinematicsNode
import rclpy
from rclpy.serialization import serialize_message
from sensor_msgs.msg import JointState

MESSAGES = 3000


def per_message_us(joints, folder):
    """Return the callback's CPU time per message, in µs, for an arm of ``joints`` joints."""
    chain = Chain([Link(a=0.1, alpha=0.3, d=0.05, qlim=(-2.0, 2.0), B=0.001, Tc=0.1,
                        name=f'j{i}') for i in range(joints)])
    path = pathlib.Path(folder, f'arm{joints}.yaml')
    chain.to_yaml(path)
    context = rclpy.Context()
    rclpy.init(args=['bench', '--ros-args', '--params-file', str(path), '--log-level',
                     'warn'], context=context)
    node = DhKinematicsNode(context=context)
    try:
        data = bytearray(serialize_message(JointState(
            name=list(chain.joint_names), position=[0.1] * joints, velocity=[0.2] * joints)))
        start = time.process_time()
        for k in range(MESSAGES):
            data[4:8] = (1000 + k).to_bytes(4, 'little')  # header.stamp.sec
            node._on_joint_states(bytes(data))
        return (time.process_time() - start) / MESSAGES * 1e6
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)


def main():
    """Print the table."""
    with tempfile.TemporaryDirectory() as folder:
        for joints in (7, 50, 100):
            print(f'{joints:4d} joints: {per_message_us(joints, folder):6.1f} µs per message')
    return 0


if __name__ == '__main__':
    sys.exit(main())
