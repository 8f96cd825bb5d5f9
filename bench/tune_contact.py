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
``dh_kinematics tune-contact`` on a 10-minute 1 kHz log: seconds against the 30 s target.

The log is the Panda moving free (examples/simulate_free_motion.py, ten minutes at 1 kHz, a
CSV as a user's would be); the command runs as a user runs it, a process per round, with its
defaults (four gains and six holds tried, 30 % held out and certified), ``--rounds`` times:
the median wall time, and the real Panda log's (../shared/panda-log, 21 s, read, never
copied) where present. There is no peer: no other tool tunes these thresholds from a log.

    .venv/bin/python bench/tune_contact.py [--rounds 3] [--json FILE]
"""

import argparse
import importlib.util
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

from bench_identify import PANDA_LOG, panda_log
from dh_kinematics import Chain
from dh_kinematics.logs import for_model
from dh_kinematics.logs.csv_log import write
from provenance import provenance, ROOT, write_results

TARGET = 30.0
"""Seconds to tune a 10-minute 1 kHz log, at most (issue 73)."""
RUN = 'from dh_kinematics.cli.entry import run; run()'
"""The console script's entry."""


def _seconds(arguments, folder, rounds):
    """Return the wall seconds of ``tune-contact arguments`` in each round, and the median."""
    times = []
    for k in range(rounds):
        out = folder / f'contact{k}.yaml'
        start = time.perf_counter()
        subprocess.run([sys.executable, '-c', RUN, 'tune-contact', *arguments, '-o', str(out)],
                       check=True, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if not out.is_file():
            raise RuntimeError(f'tune-contact wrote no {out}')
    return {'seconds': [round(t, 2) for t in times], 'median': round(statistics.median(times), 2)}


def main():
    """Time tune-contact; print the medians against the target; write them with --json."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--json', type=pathlib.Path)
    args = parser.parse_args()
    path = ROOT / 'examples' / 'simulate_free_motion.py'
    spec = importlib.util.spec_from_file_location(path.stem, path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    model = ROOT / 'config' / 'panda.yaml'
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        free = folder / 'free.csv'
        example.main([str(model), '-o', str(free), '--duration', '600', '--rate', '1000'])
        results['simulated 10 min at 1 kHz'] = _seconds([str(model), str(free)], folder,
                                                        args.rounds)
        if PANDA_LOG.is_dir():
            real = folder / 'panda.csv'
            chain = Chain.from_yaml(model)
            write(real, for_model(panda_log(chain)[0], chain))
            results['the real Panda log (21 s)'] = _seconds([str(model), str(real)], folder,
                                                            args.rounds)
    median = results['simulated 10 min at 1 kHz']['median']
    results['target'] = {'seconds at most': TARGET, 'met': median <= TARGET}
    print(json.dumps(dict(results, provenance=provenance()), indent=2, ensure_ascii=False))
    print(f'tune-contact on 10 minutes at 1 kHz: {median:.1f} s (at most {TARGET:g}): '
          f'{"met" if median <= TARGET else "MISSED"}')
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        write_results(args.json, **results)


if __name__ == '__main__':
    main()
