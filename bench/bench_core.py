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
Time the dh_kinematics core against roboticstoolbox-python and pinocchio on the Puma 560.

Run with ``make bench``, which installs the optional comparison packages into .venv-bench, or
as ``PYTHONPATH=. python bench/bench_core.py`` with any interpreter that has numpy and PyYAML.
Packages that are not installed are reported and skipped. Prints a table of microseconds per
configuration and the ratios that the targets are stated in, and checks that all libraries
agree on the results. Then the batch path against plain vectorised numpy
(bench/batch_vs_plain.py).
"""

import argparse
import json
import pathlib
import sys
import timeit
import warnings

import batch_vs_plain
from dh_kinematics import Chain
import numpy as np
from provenance import provenance

ROOT = pathlib.Path(__file__).resolve().parents[1]

TARGETS = {
    'fkine_all': ('toolbox / ours', 4.0, 'at least'),
    'fkine_all batch': ('toolbox / ours', 50.0, 'at least'),
    'rne': ('ours / toolbox C', 10.0, 'at most'),
    'rne batch': ('ours / toolbox C', 2.0, 'at most'),
}


def per_call(function, seconds=0.02):
    """Return the time of one call in microseconds, from a loop of about `seconds`."""
    timer = timeit.Timer(function)
    number = max(1, int(seconds / max(timer.timeit(1), 1e-7)))
    return timer.timeit(number) / number * 1e6


def side_by_side(functions, rounds):
    """
    Time several functions in interleaved rounds; return the median microseconds of each.

    Interleaving makes the ratios robust to the machine's speed drifting during the run.

    """
    samples = {name: [] for name in functions}
    for _ in range(rounds):
        for name, function in functions.items():
            samples[name].append(per_call(function))
    return {name: float(np.median(times)) for name, times in samples.items()}


def toolbox_puma():
    """Return the toolbox's Puma 560, or None when roboticstoolbox-python is missing."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            import roboticstoolbox
    except ImportError:
        return None
    return roboticstoolbox.models.DH.Puma560()


def pinocchio_model(chain):
    """Build a pinocchio model of a standard-DH chain (rigid bodies only), or None."""
    try:
        import pinocchio
    except ImportError:
        return None
    model = pinocchio.Model()
    model.gravity.linear = np.asarray(chain.gravity)
    parent, placement = 0, pinocchio.SE3(chain.base[:3, :3], chain.base[:3, 3])
    for i, link in enumerate(chain.links):
        # Standard DH: joint i turns about z of frame i-1, after Tz(d); then Tx(a) Rx(alpha).
        joint_placement = placement * pinocchio.SE3(np.eye(3), np.array([0.0, 0.0, link.d]))
        parent = model.addJoint(parent, pinocchio.JointModelRZ(), joint_placement, f'j{i + 1}')
        ca, sa = np.cos(link.alpha), np.sin(link.alpha)
        placement = pinocchio.SE3(np.array([[1.0, 0.0, 0.0], [0.0, ca, -sa], [0.0, sa, ca]]),
                                  np.array([link.a, 0.0, 0.0]))
        body = pinocchio.Inertia(link.m, np.asarray(link.r), np.asarray(link.I))
        model.appendBodyToJoint(parent, body.se3Action(placement), pinocchio.SE3.Identity())
    return pinocchio, model, model.createData()


def measure(batch, rounds):
    """Time every operation; return rows of (operation, library, microseconds per config)."""
    chain = Chain.from_yaml(ROOT / 'config' / 'puma560.yaml')
    rng = np.random.default_rng(2026)
    Q, QD, QDD = rng.uniform(-1.5, 1.5, size=(3, batch, chain.n))
    q, qd, qdd = Q[0], QD[0], QDD[0]
    functions = {
        ('fkine_all', 'ours'): lambda: chain.fkine_all(q),
        ('fkine_all batch', 'ours'): lambda: chain.fkine_all(Q),
        ('rne', 'ours'): lambda: chain.rne(q, qd, qdd),
        ('rne batch', 'ours'): lambda: chain.rne(Q, QD, QDD),
    }
    checks = {}
    puma = toolbox_puma()
    if puma is not None:
        # The toolbox's fkine_all takes one configuration; a batch is a loop of single calls.
        functions[('fkine_all', 'toolbox')] = lambda: puma.fkine_all(q)
        functions[('rne', 'toolbox C')] = lambda: puma.rne(q, qd, qdd)
        functions[('rne batch', 'toolbox C')] = lambda: puma.rne(Q, QD, QDD)
        checks['fkine_all vs toolbox'] = float(np.abs(
            np.array([T.A for T in puma.fkine_all(q)]) - chain.fkine_all(q)).max())
        checks['rne batch vs toolbox C'] = float(np.abs(
            puma.rne(Q, QD, QDD) - chain.rne(Q, QD, QDD)).max())
    pin = pinocchio_model(chain)
    if pin is not None:
        pinocchio, model, data = pin
        functions[('fkine_all', 'pinocchio')] = lambda: pinocchio.forwardKinematics(
            model, data, q)
        functions[('rne', 'pinocchio')] = lambda: pinocchio.rnea(model, data, q, qd, qdd)
        rigid = Chain([link.replace(Jm=0.0, B=0.0, Tc=0.0) for link in chain.links],
                      base=chain.base, gravity=chain.gravity)
        checks['rne (rigid) vs pinocchio'] = float(np.abs(
            pinocchio.rnea(model, data, q, qd, qdd) - rigid.rne(q, qd, qdd)).max())
    times = side_by_side(functions, rounds)
    rows = []
    for (op, lib), t in times.items():
        rows.append((op, lib, t / batch if op.endswith('batch') else t))
    if puma is not None:
        rows.append(('fkine_all batch', 'toolbox', times[('fkine_all', 'toolbox')]))
    return sorted(rows, key=lambda row: (list(TARGETS).index(row[0]), row[1] != 'ours')), checks


def ratios(rows):
    """Return {operation: (ratio, target text, met)} for the operations that have targets."""
    times = {(op, lib): t for op, lib, t in rows}
    result = {}
    for op, (label, bound, kind) in TARGETS.items():
        toolbox = times.get((op, 'toolbox C' if op.startswith('rne') else 'toolbox'))
        if toolbox is None:
            continue
        ratio = toolbox / times[(op, 'ours')] if kind == 'at least' else (
            times[(op, 'ours')] / toolbox)
        met = ratio >= bound if kind == 'at least' else ratio <= bound
        result[op] = (ratio, f'{label} {kind} {bound:g}', met)
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--batch', type=int, default=1000, help='configurations per batch')
    parser.add_argument('--rounds', type=int, default=15,
                        help='interleaved timing rounds; the median counts')
    parser.add_argument('--json', type=pathlib.Path, help='also write the results here')
    parser.add_argument('--sizes', type=int, nargs='+', default=batch_vs_plain.SIZES,
                        help='batch sizes for the comparison with plain numpy')
    args = parser.parse_args(argv)
    rows, checks = measure(args.batch, args.rounds)
    print(f'Puma 560, batch of {args.batch}; microseconds per configuration (median of '
          f'{args.rounds} interleaved rounds); numpy {np.__version__}, '
          f'Python {sys.version.split()[0]}')
    print(f'| {"operation":<16} | {"library":<10} | {"us/config":>10} |')
    print(f'|{"-" * 18}|{"-" * 12}|{"-" * 12}|')
    for op, lib, t in rows:
        print(f'| {op:<16} | {lib:<10} | {t:>10.2f} |')
    print()
    found = ratios(rows)
    for op, (ratio, target, met) in found.items():
        print(f'{op:<16} ratio {ratio:6.2f}  target: {target:<32} {"met" if met else "MISSED"}')
    if not found:
        print('roboticstoolbox-python is not installed: no ratios (make bench installs it)')
    for name, error in checks.items():
        print(f'max |difference| {name}: {error:.1e}')
    print()
    plain_rows, worst = batch_vs_plain.measure(Chain.from_yaml(ROOT / 'config' / 'puma560.yaml'),
                                               args.rounds, args.sizes)
    plain_met = batch_vs_plain.report(plain_rows, worst)
    if args.json:
        args.json.write_text(json.dumps(dict(provenance(), **{
            'rows': [{'operation': op, 'library': lib, 'us_per_config': t}
                     for op, lib, t in rows],
            'ratios': {op: {'ratio': r, 'target': t, 'met': m} for op, (r, t, m) in found.items()},
            'checks': checks, 'against_plain': plain_rows}), indent=2))
    return 0 if plain_met and all(met for _, _, met in found.values()) else 1


if __name__ == '__main__':
    sys.exit(main())
