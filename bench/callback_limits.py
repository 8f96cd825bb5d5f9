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
limits), the tool's speed and the singularity, as ``node_rate.py``'s ``dh_kinematics_limits``
(``--target`` another), fed the driver's sweep at real time (positions, velocities and efforts,
stamps 1 ms apart; :func:`short_ways.messages`); prints the CPU time per message, in µs, of
each of ``--rounds`` rounds and their median, and with ``--json`` writes them with the commit.

    .venv/bin/python bench/callback_limits.py
"""

import argparse
import json
import pathlib
import statistics
import subprocess

from short_ways import messages, per_message_us, WARM

ROOT = pathlib.Path(__file__).resolve().parents[1]
MESSAGES = 3000


def main():
    """Time the callback; print each round and the median; write them with --json."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--target', default='dh_kinematics_limits')
    parser.add_argument('--json', type=pathlib.Path)
    args = parser.parse_args()
    data = messages(WARM + MESSAGES, 0.001)
    rounds = [per_message_us(args.target, None, data) for _ in range(args.rounds)]
    median = statistics.median(rounds)
    print(f'{args.target}: {", ".join(f"{value:.1f}" for value in rounds)} µs per message; '
          f'median {median:.1f}')
    if args.json:
        commit = subprocess.run(['git', 'describe', '--always', '--dirty'], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip()
        args.json.write_text(json.dumps({'commit': commit, 'target': args.target,
                                         'us_per_message': rounds, 'median': median},
                                        indent=1) + '\n')


if __name__ == '__main__':
    main()
