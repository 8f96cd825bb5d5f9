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
The core's batch path against plain vectorised numpy (bench/plain_numpy.py), batch by batch.

Part of ``make bench``. For batches of 1 to 100,000 Puma 560 configurations it times
``fkine_all``, ``fkine``, ``link_transforms``, ``jacob0`` and ``rne`` against the plain loop,
interleaved in one run, and measures the peak memory of one call (tracemalloc, which sees
numpy's buffers). The target: the core at least 1.25x faster than the plain loop.
"""

import timeit
import tracemalloc

import numpy as np
import plain_numpy

SIZES = (1, 10, 100, 1000, 100000)
TARGET = 1.25
OPERATIONS = ('fkine_all', 'fkine', 'link_transforms', 'jacob0', 'rne')


def _seconds(function, at_least=0.02):
    timer = timeit.Timer(function)
    number = max(1, int(at_least / max(timer.timeit(1), 1e-7)))
    return timer.timeit(number) / number


def _peak_bytes(function):
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(chain, rounds, sizes=SIZES):
    """
    Return one row per operation and batch size, and the largest difference seen.

    Rows are dicts: operation, batch, ours and plain (µs per configuration, medians of
    interleaved rounds; fewer rounds for the largest batch), ratio (plain / ours), and
    ours_bytes and plain_bytes (peak memory of one call, per configuration).
    """
    rng = np.random.default_rng(2026)
    rows, worst = [], 0.0
    for m in sizes:
        Q, QD, QDD = rng.uniform(-1.5, 1.5, size=(3, m, chain.n))
        calls = {}
        for name in OPERATIONS:
            args = (Q, QD, QDD) if name == 'rne' else (Q,)
            calls[name, 'ours'] = lambda f=getattr(chain, name), a=args: f(*a)
            calls[name, 'plain'] = lambda f=getattr(plain_numpy, name), a=args: f(chain, *a)
            difference = np.abs(calls[name, 'ours']() - calls[name, 'plain']()).max()
            worst = max(worst, float(difference))
        samples = {key: [] for key in calls}
        for _ in range(rounds if m < 10000 else max(3, rounds // 3)):
            for key, call in calls.items():
                samples[key].append(_seconds(call))
        for name in OPERATIONS:
            ours, plain = (float(np.median(samples[name, lib])) / m * 1e6
                           for lib in ('ours', 'plain'))
            rows.append({
                'operation': name, 'batch': m, 'ours': ours, 'plain': plain,
                'ratio': plain / ours,
                'ours_bytes': _peak_bytes(calls[name, 'ours']) / m,
                'plain_bytes': _peak_bytes(calls[name, 'plain']) / m})
    return rows, worst


def report(rows, worst):
    """Print the table and the verdict; return True when every ratio meets the target."""
    print('Batch path against plain vectorised numpy (bench/plain_numpy.py): µs and peak '
          'bytes per configuration')
    print(f'| {"operation":<15} | {"batch":>6} | {"ours µs":>8} | {"plain µs":>8} | '
          f'{"plain/ours":>10} | {"ours B":>7} | {"plain B":>7} |')
    print(f'|{"-" * 17}|{"-" * 8}|{"-" * 10}|{"-" * 10}|{"-" * 12}|{"-" * 9}|{"-" * 9}|')
    for row in sorted(rows, key=lambda row: (OPERATIONS.index(row['operation']),
                                             row['batch'])):
        print(f'| {row["operation"]:<15} | {row["batch"]:>6} | {row["ours"]:>8.3f} | '
              f'{row["plain"]:>8.3f} | {row["ratio"]:>10.2f} | {row["ours_bytes"]:>7.0f} | '
              f'{row["plain_bytes"]:>7.0f} |')
    lowest = min(rows, key=lambda row: row['ratio'])
    met = lowest['ratio'] >= TARGET
    print(f'lowest plain/ours {lowest["ratio"]:.2f} ({lowest["operation"]}, batch '
          f'{lowest["batch"]})  target: at least {TARGET:g} at every size  '
          f'{"met" if met else "MISSED"}')
    print(f'max |difference| ours vs plain: {worst:.1e}')
    return met
