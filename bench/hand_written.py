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
What the hand-written pieces of the node's message path save against what rclpy offers.

- The JointState reader (``node_logic/cdr.py``) against ``rclpy.serialization.
  deserialize_message`` plus reading the message's fields into Python lists, on the same
  serialized Panda messages (7 joints, positions, velocities, efforts).
- The message templates (``node_logic/message_template.py``) against building the TFMessage
  of the Panda's 7 joint frames and serializing it with rclpy (``ros/messages.py`` does the
  latter where no template can be made): the same bytes either way.

Prints µs per message, the medians of ``--rounds`` interleaved rounds.

    .venv/bin/python bench/hand_written.py
"""

import argparse
import math
import pathlib
import statistics
import time

from dh_kinematics import Chain
from dh_kinematics.core.names import axis_frame_names, frame_names
from dh_kinematics.node_logic import frames
from dh_kinematics.node_logic.cdr import JointStateReader
from dh_kinematics.ros import messages
from rclpy.serialization import deserialize_message, serialize_message
from sensor_msgs.msg import JointState

MESSAGES = 5000
ROOT = pathlib.Path(__file__).resolve().parents[1]


def _messages():
    names = [f'panda_joint{j}' for j in range(1, 8)]
    data = []
    for k in range(MESSAGES):
        message = JointState(name=names, position=[math.sin(k + j) for j in range(7)],
                             velocity=[math.cos(k + j) for j in range(7)], effort=[1.0] * 7)
        message.header.stamp.sec, message.header.stamp.nanosec = k // 1000, k % 1000 * 10**6
        data.append(serialize_message(message))
    return data


def _ours(data):
    reader = JointStateReader()
    start = time.perf_counter()
    for message in data:
        reader.read(message)
    return (time.perf_counter() - start) / len(data) * 1e6


def _rclpy(data):
    start = time.perf_counter()
    for message in data:
        decoded = deserialize_message(message, JointState)
        (decoded.header.stamp.sec, decoded.header.stamp.nanosec, list(decoded.name),
         list(decoded.position), list(decoded.velocity), list(decoded.effort))
    return (time.perf_counter() - start) / len(data) * 1e6


def _tf(templates):
    """Return µs per TFMessage of the Panda's 7 frames: templates on, or built by rclpy."""
    chain = Chain.from_yaml(ROOT / 'config' / 'panda.yaml')
    names = frame_names(chain, '')
    built = messages.SerializedMessages(names, chain.joint_names, frames.joint_children(
        names, axis_frame_names(chain, '')))
    joints = tuple(range(chain.n))
    poses = [0.1, 0.2, 0.3, 0.0, 0.0, 0.0, 1.0] * chain.n
    kept = messages.TEMPLATES_PER_MODEL
    messages.TEMPLATES_PER_MODEL = kept if templates else 0
    try:
        start = time.perf_counter()
        for k in range(MESSAGES):
            built.tf(joints, k * 1_000_000, poses)
        return (time.perf_counter() - start) / MESSAGES * 1e6
    finally:
        messages.TEMPLATES_PER_MODEL = kept


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=7)
    args = parser.parse_args()
    data = _messages()
    times = {name: [] for name in ('reader', 'rclpy read', 'template', 'rclpy build')}
    for _ in range(args.rounds):
        times['reader'].append(_ours(data))
        times['rclpy read'].append(_rclpy(data))
        times['template'].append(_tf(True))
        times['rclpy build'].append(_tf(False))
    print('| piece | µs per message (median of rounds) |')
    print('|---|---|')
    for name, label in (('reader', 'node_logic/cdr.JointStateReader'),
                        ('rclpy read', 'rclpy deserialize_message + fields'),
                        ('template', 'message_template.Template: /tf of 7 joints'),
                        ('rclpy build', 'TFMessage built + serialize_message')):
        print(f'| {label} | {statistics.median(times[name]):.2f} |')
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
