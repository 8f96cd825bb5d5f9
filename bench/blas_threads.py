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
identify on a loaded machine: one BLAS thread (the executables' default) against one per core.

Runs ``bench_identify.py`` (20 s of the real Panda's 1 kHz log, or a simulated one) in a process
of its own twice, with ``OPENBLAS_NUM_THREADS`` 1 and the machine's core count, while a busy
process per core keeps every core loaded (as ``../shared/tools/with-load`` does, and as a
robot's computer is). Prints the best seconds of each; ``--json PATH`` writes them.

    .venv/bin/python bench/blas_threads.py
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

try:
    from provenance import ROOT, write_results
except ImportError:  # run as a module
    from bench.provenance import ROOT, write_results


def identify_seconds(threads, rounds):
    """Return bench_identify's seconds per round with ``threads`` BLAS threads."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, 'identify.json')
        subprocess.run([sys.executable, str(ROOT / 'bench' / 'bench_identify.py'), '--rounds',
                        str(rounds), '--json', path], env=env, cwd=ROOT, check=False,
                       stdout=subprocess.DEVNULL)
        with open(path) as stream:
            return json.load(stream)['seconds']


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('--json', metavar='PATH', help='write the results here')
    parser.add_argument('--rounds', type=int, default=2, help='rounds per setting (default: 2)')
    args = parser.parse_args(argv)
    cores = len(os.sched_getaffinity(0))
    load = [subprocess.Popen([sys.executable, '-c', 'while True: pass'])
            for _ in range(cores)]
    try:
        seconds = {threads: identify_seconds(threads, args.rounds)
                   for threads in sorted({1, cores})}
    finally:
        for process in load:
            process.kill()
            process.wait()
    print(f'identify, 20 s of a 1 kHz Panda log, {cores} cores each kept busy by another process')
    for threads, values in seconds.items():
        print(f'  {threads} BLAS thread{"s" if threads > 1 else " "}: best {min(values):7.1f} s '
              f'of {len(values)}')
    if args.json:
        write_results(args.json, cores=cores, seconds={str(k): v for k, v in seconds.items()})
    return 0


if __name__ == '__main__':
    sys.exit(main())
