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
Each short way of the message path against its long way: the CPU it saves per message.

A short way skips work where a cheap test settles the result (a bound on a speed, a band a
value stays in, a message like the last). Each is timed in process on the node's callback
(the Panda, the sweep ``drive_joint_states.py`` sends at 1 kHz, positions, velocities and
efforts, hot caches; at the driver's pace, ten times real time, and at real time), with the
node's settings of a ``node_rate.py`` target it serves, once as it is and once with its cheap
test made to fail, in alternating rounds; printed as medians and their difference, and with
``--json`` written with the commit. A short way that saves less
than the spread of its rounds does not pay for its lines.

    .venv/bin/python bench/short_ways.py
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import time

from dh_kinematics import Chain
from dh_kinematics.node_logic.sweep import sweep
from dh_kinematics.ros.node import DhKinematicsNode
from drive_joint_states import CONFIGS
import numpy as np
from rate_tools import PANDA, target_command
import rclpy
from rclpy.serialization import serialize_message
from sensor_msgs.msg import JointState

ROOT = pathlib.Path(__file__).resolve().parents[1]
WARM, TIMED = 1000, 3000


def _long_way_usual(flow):
    flow._bind_usual = lambda: None
    flow._usual = None


def _long_way_drift(flow):
    flow.limits.arm._settled = lambda q, previous: False


def _long_way_stop(flow):
    flow.limits.safety._stop_settled = lambda time, qd: False


def _long_way_contact(flow):
    flow.limits.safety._slowest = 0.0


def _long_way_motion(flow):
    motion = flow.limits.motion
    motion._quiet = {name: [-1.0] * len(bounds) for name, bounds in motion._quiet.items()}


SHORT_WAYS = {
    'the usual message (JointStatesFlow)': ('dh_kinematics_velocity', _long_way_usual),
    'condition number within its drift bound (ArmLimits)': ('dh_kinematics_every',
                                                            _long_way_drift),
    "stop's path under its bound (Safety)": ('dh_kinematics_every', _long_way_stop),
    'contact slower than the region allows (Safety)': ('dh_kinematics_every',
                                                       _long_way_contact),
    'limits within warn_fraction (MotionLimits)': ('dh_kinematics_every', _long_way_motion),
}
"""Each short way: the target whose settings it serves, and how to make its test fail."""


def messages(count, pace):
    """
    Return ``count`` serialized joint_states of the driver's sweep, 1 ms apart.

    ``pace``: seconds of the sweep per message; the driver's is 0.01 (ten times real time).
    """
    chain = Chain.from_yaml(PANDA)
    prismatic = [link.isprismatic() for link in chain.links]
    table = [sweep(t, chain.qlim, prismatic, 10.0)
             for t in np.arange(CONFIGS) * pace]
    stamp_ns = time.time_ns() - (count + 1000) * 1_000_000  # all in the past when taken
    data = []
    for k in range(count):
        q, qd, qdd = table[k % CONFIGS]
        message = JointState(name=list(chain.joint_names), position=q.tolist(),
                             velocity=qd.tolist(), effort=chain.rne(q, qd, qdd).tolist())
        message.header.stamp.sec, message.header.stamp.nanosec = divmod(
            stamp_ns + k * 1_000_000, 1_000_000_000)
        data.append(bytes(serialize_message(message)))
    return data


def per_message_us(target, long_way, data):
    """Return the callback's CPU µs per message for ``target``, with ``long_way`` applied."""
    context = rclpy.Context()
    arguments = [str(part) for part in target_command(target)[2:]]  # after '-m module'
    rclpy.init(args=['bench'] + arguments + ['--log-level', 'error'], context=context)
    node = DhKinematicsNode(context=context)
    try:
        if long_way is not None:
            long_way(node.flow)
        for message in data[:WARM]:
            node._on_joint_states(message)
        start = time.process_time()
        for message in data[WARM:]:
            node._on_joint_states(message)
        return (time.process_time() - start) / (len(data) - WARM) * 1e6
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)


def main():
    """Time each short way on and off in alternating rounds; print and write the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=7)
    parser.add_argument('--json', type=pathlib.Path)
    args = parser.parse_args()
    results = {}
    for pace, label in ((0.01, 'driver'), (0.001, 'real time')):
        data = messages(WARM + TIMED, pace)
        for name, (target, long_way) in SHORT_WAYS.items():
            short, long = [], []
            for _ in range(args.rounds):
                short.append(per_message_us(target, None, data))
                long.append(per_message_us(target, long_way, data))
            gain = statistics.median(long) - statistics.median(short)
            spread = statistics.median(abs(a - b) for a, b in zip(short, short[1:]))
            results[f'{name}, {label}'] = {
                'target': target, 'pace_s': pace, 'short_us': short, 'long_us': long,
                'saves_us': round(gain, 2), 'spread_us': round(spread, 2)}
            print(f'{name} ({target}, {label}): short way {statistics.median(short):.1f}, long '
                  f'way {statistics.median(long):.1f} µs per message: saves {gain:.1f} µs '
                  f'(round to round {spread:.1f})', flush=True)
    if args.json:
        commit = subprocess.run(['git', 'describe', '--always', '--dirty'], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip()
        args.json.write_text(json.dumps({'commit': commit, 'short_ways': results},
                                        indent=1) + '\n')


if __name__ == '__main__':
    main()
