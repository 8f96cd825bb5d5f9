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
Soak test: dh_kinematics_node on the Panda at 1 kHz for a long run; memory growth and loss.

The node runs in its own process with friction and diagnostics on; a driver process publishes
joint_states at 1 kHz for ``--duration`` seconds (600 by default) and a raw /tf subscription
here counts what arrives. The node's resident memory is sampled every 10 s. Reports RSS at the
start and the end, the growth, and messages sent, received and lost; prints a summary and
writes JSON.

    .venv/bin/python bench/soak.py [--duration 600] [--json bench/results/soak.json]
"""

import argparse
import json
import pathlib
import sys

from node_rate import measure_with
from rate_tools import ROOT, ros_environment, rss_bytes, start, stop, target_command, TfReceiver

MB = 1e6


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--duration', type=float, default=600.0, help='s at 1 kHz')
    parser.add_argument('--rate', type=float, default=1000.0, help='Hz')
    parser.add_argument('--json', default=str(ROOT / 'bench' / 'results' / 'soak.json'))
    args = parser.parse_args(argv)
    ros_environment()
    receiver = TfReceiver()
    node = start(target_command('dh_kinematics'))
    samples = []
    try:
        receiver.wait_for_publisher()

        def sample(elapsed):
            samples.append((round(elapsed, 1), rss_bytes(node.pid)))

        run = measure_with(receiver, node.pid, args.rate, args.duration, sample, 10.0)
    finally:
        stop(node)
        receiver.close()
    start_rss, end_rss = samples[0][1], samples[-1][1]
    result = {'duration_s': args.duration, 'rate_hz': args.rate, 'run': run,
              'rss_start_mb': round(start_rss / MB, 2), 'rss_end_mb': round(end_rss / MB, 2),
              'rss_growth_mb': round((end_rss - start_rss) / MB, 2),
              'rss_samples': [(t, round(rss / MB, 2)) for t, rss in samples]}
    result['met'] = result['rss_growth_mb'] < 5.0 and run['lost'] == 0
    print(f'{args.duration:.0f} s at {args.rate:.0f} Hz: sent {run["sent"]}, received '
          f'{run["received"]}, lost {run["lost"]}; RSS {result["rss_start_mb"]} MB -> '
          f'{result["rss_end_mb"]} MB ({result["rss_growth_mb"]:+} MB); latency p50 '
          f'{run["latency_ms"]["p50"]} ms, p99 {run["latency_ms"]["p99"]} ms; CPU '
          f'{run["cpu_percent"]} %')
    print(('met' if result['met'] else 'MISSED') + ': growth < 5 MB and no loss')
    path = pathlib.Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + '\n')
    print(f'wrote {path}')
    return 0 if result['met'] else 1


if __name__ == '__main__':
    sys.exit(main())
