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
``dh_kinematics health`` on a simulated fleet: one worker against two, in the same run.

The fleet is examples/simulate_fleet.py's: the Panda, the UR5 and the Puma 560, ``--logs``
logs of ``--seconds`` each at ``--rate`` Hz (CSV, as a user's would be). The command runs as a
user runs it, a process, with ``--workers 1`` (judged in the process, no Dask) and then
``--workers 2`` (a Dask LocalCluster of two processes, started and stopped in the timing),
``--rounds`` times in turn (the machine's speed wanders): the medians of wall seconds and of
the CPU seconds of the process and its workers, the throughput in seconds of log a second and a
CPU second, and the ratio of the two throughputs against the target of 1.8. The CSVs of every
run are compared: the same bytes. Each round also runs two serial runs at once, each on half
of each arm's logs, without Dask: the ceiling the machine itself sets on two processes. No
other tool judges a fleet's logs (PlotJuggler and Foxglove plot one log at a time): the serial
run is the baseline.

    .venv/bin/python bench/fleet_health.py [--logs 12] [--seconds 60] [--rounds 3] [--json F]
"""

import argparse
import importlib.util
import json
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from dh_kinematics import Chain
from provenance import provenance, ROOT, write_results

TARGET = 1.8
"""Two workers' throughput over one worker's, at least (issue 74)."""
RUN = 'from dh_kinematics.cli.entry import run; run()'
"""The console script's entry."""
ARMS = ('panda', 'ur5', 'puma560')


def _example(name):
    path = ROOT / 'examples' / f'{name}.py'
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cpu():
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _once(folder, fleet, workers, k):
    """Return the wall and CPU seconds of one run with ``workers``, and its CSVs."""
    report = folder / f'report-{workers}-{k}'
    models = [str(fleet / f'{arm}.yaml') for arm in ARMS]
    cpu, start = _cpu(), time.perf_counter()
    subprocess.run([sys.executable, '-c', RUN, 'health', *models, str(fleet), '--report',
                    str(report), '--workers', str(workers)], check=True,
                   capture_output=True, text=True)
    wall = time.perf_counter() - start
    tables = [(report / name).read_bytes() for name in ('logs.csv', 'joints.csv')]
    return wall, _cpu() - cpu, tables


def _halves(folder, fleet, k):
    """Return the wall seconds of two serial runs at once, each on half of each arm's logs."""
    models = [str(fleet / f'{arm}.yaml') for arm in ARMS]
    halves = [[], []]
    for arm in ARMS:
        logs = sorted((fleet / arm).glob('*.csv'))
        halves[0] += logs[::2]
        halves[1] += logs[1::2]
    start = time.perf_counter()
    processes = [subprocess.Popen(
        [sys.executable, '-c', RUN, 'health', *models, *map(str, half), '--report',
         str(folder / f'half-{h}-{k}'), '--workers', '1'], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL) for h, half in enumerate(halves)]
    if any(process.wait() for process in processes):
        raise RuntimeError('a half failed')
    return time.perf_counter() - start


def _summary(runs, log_seconds):
    """Return the runs' seconds and the throughputs of their medians."""
    walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    return {'wall seconds': [round(t, 2) for t in walls],
            'cpu seconds': [round(t, 2) for t in cpus],
            'log seconds per second': round(log_seconds / wall, 2),
            'log seconds per cpu second': round(log_seconds / cpu, 2)}


def main():
    """Time health with one worker and with two; print the ratio; write it with --json."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--logs', type=int, default=12)
    parser.add_argument('--seconds', type=float, default=60.0)
    parser.add_argument('--rate', type=float, default=500.0)
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--json', type=pathlib.Path)
    args = parser.parse_args()
    simulate, contact = _example('simulate_fleet'), _example('simulate_contact')
    arms = [(arm, contact.with_motors(Chain.from_yaml(ROOT / 'config' / f'{arm}.yaml')))
            for arm in ARMS]
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        fleet = folder / 'fleet'
        simulate.fleet(fleet, arms, args.logs, args.seconds, args.rate,
                       grow=(0, 1, args.logs // 2, 0.05))
        log_seconds = len(ARMS) * args.logs * args.seconds
        runs, tables, halves = {1: [], 2: []}, set(), []
        for k in range(args.rounds):  # interleaved: the VM's speed wanders within minutes
            for workers in (1, 2):
                wall, cpu, found = _once(folder, fleet, workers, k)
                runs[workers].append((wall, cpu))
                tables.add(tuple(found))
            halves.append(_halves(folder, fleet, k))
        one, two = _summary(runs[1], log_seconds), _summary(runs[2], log_seconds)
    ratio = two['log seconds per second'] / one['log seconds per second']
    # The machine's own ceiling: two serial runs at once, on half the logs each, no Dask.
    ceiling = statistics.median(wall for wall, _ in runs[1]) / statistics.median(halves)
    per_cpu = one['log seconds per cpu second']
    results = {
        'fleet': {'arms': list(ARMS), 'logs per arm': args.logs, 'seconds a log': args.seconds,
                  'rate Hz': args.rate},
        'one worker (here, no Dask)': one, 'two workers (Dask LocalCluster)': two,
        'the same CSVs': len(tables) == 1,
        'two serial runs at once on half the logs each': {
            'wall seconds': [round(t, 2) for t in halves], 'ratio': round(ceiling, 3)},
        'ratios by round': [round(one_run[0] / two_run[0], 3)
                            for one_run, two_run in zip(runs[1], runs[2])],
        'ratio': round(ratio, 3), 'target': {'ratio at least': TARGET, 'met': ratio >= TARGET},
        # 100 arms recording 8 hours a day, judged in a night of 8 hours: 100 / per_cpu cores.
        'cores for 100 arms x 8 h a day, in 8 h': round(100.0 / per_cpu, 1)}
    print(json.dumps(dict(results, provenance=provenance()), indent=2, ensure_ascii=False))
    print(f'health: two workers {ratio:.2f} times one (at least {TARGET:g}): '
          f'{"met" if ratio >= TARGET else "MISSED"}; two serial runs at once {ceiling:.2f}; '
          f'one worker {per_cpu:.1f} log-s per CPU-s')
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        write_results(args.json, **results)


if __name__ == '__main__':
    main()
