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
Publish joint_states for a model at a fixed rate, or as fast as possible, then report.

Run by the node benchmarks in a process of its own. Each message carries every joint's
position and velocity (and with ``--efforts`` its effort) from a precomputed sweep, and is
stamped with the wall clock just before it is published, so the receiver can measure the
latency to /tf. ``--frame-ids`` changes the header's frame_id from message to message, as a
second publisher or an attacker would: in pairs (``a, a, bb, bb, ...``) or at random (a seeded
random string of 1 to 256 characters each message). Prints one JSON line:
messages sent, first and last stamp in ns, and the achieved rate in Hz.
"""

import argparse
import json
import sys
import time

from dh_kinematics import Chain
from dh_kinematics.node_logic.sweep import sweep
import numpy as np
import rclpy
from sensor_msgs.msg import JointState

CONFIGS = 1000


def _random_names(count, seed=0):
    rng = np.random.default_rng(seed)
    return [''.join(map(chr, rng.integers(97, 123, rng.integers(1, 257)))) for _ in range(count)]


FRAME_IDS = {'steady': [''], 'pairs': ['a', 'a', 'bb', 'bb'], 'random': _random_names(CONFIGS)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--params-file', required=True, help='model parameter file')
    parser.add_argument('--rate', type=float, default=1000.0, help='Hz; 0: as fast as possible')
    parser.add_argument('--duration', type=float, default=5.0, help='s')
    parser.add_argument('--warmup', type=float, default=0.5, help='s before the measurement')
    parser.add_argument('--efforts', action='store_true',
                        help="also send efforts: the model's for the sweep")
    parser.add_argument('--frame-ids', choices=sorted(FRAME_IDS), default='steady',
                        help='how the header frame_id changes from message to message')
    args = parser.parse_args(argv)

    chain = Chain.from_yaml(args.params_file)
    prismatic = [link.isprismatic() for link in chain.links]
    table = [sweep(t, chain.qlim, prismatic, 10.0)
             for t in np.linspace(0.0, 10.0, CONFIGS, endpoint=False)]
    table = [(q.tolist(), qd.tolist(), chain.rne(q, qd, qdd).tolist() if args.efforts else [])
             for q, qd, qdd in table]

    rclpy.init()
    node = rclpy.create_node('bench_driver')
    publisher = node.create_publisher(JointState, 'joint_states', 100)
    deadline = time.monotonic() + 20.0
    while publisher.get_subscription_count() == 0:
        if time.monotonic() > deadline:
            print('no joint_states subscriber within 20 s', file=sys.stderr)
            return 1
        time.sleep(0.01)
    message = JointState(name=list(chain.joint_names))
    frame_ids = FRAME_IDS[args.frame_ids]

    def send(i):
        message.position, message.velocity, message.effort = table[i % CONFIGS]
        message.header.frame_id = frame_ids[i % len(frame_ids)]
        now = time.time_ns()
        message.header.stamp.sec, message.header.stamp.nanosec = divmod(now, 1_000_000_000)
        publisher.publish(message)
        return now

    period = 1.0 / args.rate if args.rate > 0 else 0.0
    warmup = int(args.warmup * args.rate) if period else 200
    for i in range(warmup):
        send(i)
        time.sleep(period or 0.001)
    print('start', flush=True)
    start = time.monotonic()
    sent, first = 0, None
    while time.monotonic() - start < args.duration:
        if period:
            wait = start + sent * period - time.monotonic()
            if wait > 0.0002:
                time.sleep(wait - 0.0001)
            while time.monotonic() < start + sent * period:
                pass
        last = send(sent)
        first = last if first is None else first
        sent += 1
    elapsed = time.monotonic() - start
    # Keep the stream going a little after the measured window, so that its last message is
    # never one that the end of this process might cut off.
    for i in range(sent, sent + (int(0.2 * args.rate) if period else 200)):
        time.sleep(period or 0.001)
        send(i)
    print(json.dumps({'sent': sent, 'first_ns': first, 'last_ns': last,
                      'rate_hz': sent / elapsed}), flush=True)
    node.destroy_node()
    rclpy.try_shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
