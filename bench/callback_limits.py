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
The node's joint_states callback with every limit watched: the full way, in process (no DDS).

The Panda with config/panda_joint_limits.yaml (velocity, acceleration, jerk, effort and soft
limits), the tool's speed and the singularity, as ``node_rate.py``'s ``dh_kinematics_limits``,
fed a sweep of serialized messages (positions, velocities and efforts, stamps 1 ms apart);
prints the CPU time per message, in µs, of each of ``--rounds`` rounds and their median, and
with ``--json`` writes them with the commit.

    .venv/bin/python bench/callback_limits.py
"""

import argparse
import json
import math
import pathlib
import statistics
import subprocess
import time

from dh_kinematics.ros.node import DhKinematicsNode
import rclpy
from rclpy.serialization import serialize_message
from sensor_msgs.msg import JointState

ROOT = pathlib.Path(__file__).resolve().parents[1]
MESSAGES = 3000


def per_message_us(messages):
    """Return the callback's CPU time per message, µs, on ``messages`` messages of a sweep."""
    context = rclpy.Context()
    rclpy.init(args=['bench', '--ros-args', '--params-file', str(ROOT / 'config' / 'panda.yaml'),
                     '--params-file', str(ROOT / 'config' / 'panda_joint_limits.yaml'),
                     '-p', 'singularity.enabled:=true', '-p', 'tool_speed_limit:=10.0',
                     '--log-level', 'error'], context=context)
    node = DhKinematicsNode(context=context)
    try:
        names = [f'panda_joint{j}' for j in range(1, 8)]
        data = []
        for k in range(messages):
            t = k * 1e-3
            position = [0.3 * math.sin(t + j) for j in range(7)]
            velocity = [0.3 * math.cos(t + j) for j in range(7)]
            message = JointState(name=names, position=position, velocity=velocity,
                                 effort=[1.0] * 7)
            message.header.stamp.sec, message.header.stamp.nanosec = 1000, k * 1_000_000 % 10**9
            message.header.stamp.sec += k // 1000
            data.append(bytes(serialize_message(message)))
        start = time.process_time()
        for message in data:
            node._on_joint_states(message)
        return (time.process_time() - start) / messages * 1e6
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)


def main():
    """Time the callback; print each round and the median; write them with --json."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--json', type=pathlib.Path)
    args = parser.parse_args()
    rounds = [per_message_us(MESSAGES) for _ in range(args.rounds)]
    median = statistics.median(rounds)
    print(f'every limit watched: {", ".join(f"{value:.1f}" for value in rounds)} µs per '
          f'message; median {median:.1f}')
    if args.json:
        commit = subprocess.run(['git', 'describe', '--always', '--dirty'], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip()
        args.json.write_text(json.dumps({'commit': commit, 'us_per_message': rounds,
                                         'median': median}, indent=1) + '\n')


if __name__ == '__main__':
    main()
