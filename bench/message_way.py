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
A joint_states message's way through the package: the files it enters, the calls, the depth.

The node's callback on the Panda with a ``node_rate.py`` target's settings (by default every
monitor on), fed the benchmark driver's sweep in process; after a warm-up, each of
``--messages`` messages is traced with :func:`sys.setprofile`. Prints, per message, the median
and the largest number of the package's files entered (code compiled for the arm counts as
none), of calls into them and of the call depth, and the files every traced message entered
taken together, with their calls per message; then what building and converting the
diagnostics adds on a message that publishes them (a level changed, or the period is up).

    .venv/bin/python bench/message_way.py
"""

import argparse
import collections
import pathlib
import statistics
import sys
import time

from dh_kinematics.ros import messages as ros_messages
from dh_kinematics.ros.node import DhKinematicsNode
from rate_tools import target_command
import rclpy
from short_ways import messages, WARM

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / 'dh_kinematics'


def trace(callback, data):
    """Return (files and their calls, calls, depth) of ``callback(data)``."""
    files, depth, deepest = collections.Counter(), [0], [0]
    package = str(PACKAGE)

    def profile(frame, event, argument):
        if event == 'call':
            depth[0] += 1
            deepest[0] = max(deepest[0], depth[0])
            name = frame.f_code.co_filename
            if name.startswith(package):
                files[name[len(package) + 1:]] += 1
        elif event == 'return':
            depth[0] -= 1

    sys.setprofile(profile)
    try:
        callback(data)
    finally:
        sys.setprofile(None)
    return files, sum(files.values()), deepest[0]


def main():
    """Trace messages of a target's stream; print the files, calls and depth."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--target', default='dh_kinematics_every')
    parser.add_argument('--messages', type=int, default=1000)
    args = parser.parse_args()
    data = messages(WARM + args.messages, 0.01)
    context = rclpy.Context()
    arguments = [str(part) for part in target_command(args.target)[2:]]  # after '-m module'
    rclpy.init(args=['bench'] + arguments + ['--log-level', 'error'], context=context)
    node = DhKinematicsNode(context=context)
    try:
        for message in data[:WARM]:
            node._on_joint_states(message)
        traces = [trace(node._on_joint_states, message) for message in data[WARM:]]
        publication = trace(lambda now_ns: ros_messages.diagnostic_array(
            node.flow.statuses(now_ns, time.monotonic_ns()), node.get_fully_qualified_name(),
            'panda', ros_messages.stamp(now_ns)), time.time_ns())
    finally:
        node.destroy_node()
        rclpy.try_shutdown(context=context)
    counts = [len(files) for files, _, _ in traces]
    calls = [count for _, count, _ in traces]
    depths = [depth for _, _, depth in traces]
    union = collections.Counter()
    for files, _, _ in traces:
        union.update(files)
    print(f'{args.target}, {len(traces)} messages: files per message median '
          f'{statistics.median(counts):g}, at most {max(counts)}; calls median '
          f'{statistics.median(calls):g}, at most {max(calls)}; depth median '
          f'{statistics.median(depths):g}, at most {max(depths)}; {len(union)} files in all:')
    for name, count in union.most_common():
        print(f'  {count / len(traces):7.2f} calls per message  {name}')
    files, calls, depth = publication
    print(f'publishing the diagnostics: {len(files)} files, {calls} calls, depth {depth}; '
          f'{len(set(files) - set(union))} files more, {len(set(files) | set(union))} in all: '
          f'{", ".join(sorted(set(files) - set(union)))}')


if __name__ == '__main__':
    main()
