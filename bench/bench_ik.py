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
Inverse kinematics against the compiled solvers: the same targets, interleaved, one machine.

Arms: the shipped models, the vendor URDFs of ``../shared/vendor-urdf`` where present, or of
the folders given with ``--urdf-dir`` (each with an ``arms.json``: file, base and tip link;
imported with ``from_urdf``; the peers load the URDF itself) and seeded random 6- and 7-joint
arms. Targets: the tool poses of seeded configurations drawn uniformly within the limits
(within +-pi where a joint has none), so each has a solution within the limits. Every solver
starts from the middle of the limits and every answer is checked with this package's forward
kinematics: a success is within the limits and within the tolerance in position (m) and angle
(rad). A solver that says it succeeded when the check fails is counted as a false success.

Two protocols:

- ``exact``: tolerance 1e-10, no time limit. Ours with its closed form where the arm has one
  (``auto``) and its numerical search (``numerical``); roboticstoolbox-python's C++ ``ik_LM``
  (``tol`` bounds ``0.5 e^T e``: set to ``0.5 tol^2``), TRAC-IK (``pytracik``, Speed, 5 ms),
  KDL's ``ChainIkSolverPos_LMA`` and ``ChainIkSolverPos_NR_JL`` (Debian's ``python3-pykdl``)
  from the seed alone, and EAIK (``eaik``) where the arm fits it.
- ``tracik``: TRAC-IK's published protocol, tolerance 1e-5 and 5 ms per target (an answer
  after 5 ms is a failure), on the chains of its paper that are at hand.

Then the closed forms: ours for one target and for a batch of 1000 (µs per target), against
EAIK one at a time and batched (one thread), each compiled before it is timed; our numerical
search on a batch of 1000 per arm; and targets beyond every arm's reach, which no solver
should report as solved. Times are per target, median and p99, in µs; a batch's time is the
best of three runs (one for the search). The search's ratio to ik_LM is taken with the two
alone, in turn (:func:`head_to_head`): among every solver, the others' code pushes ik_LM's out
of the caches. Last, issue 43's targets, each against its worst arm; the exit status is 0
when every one is met.
"""

import argparse
import json
import math
import pathlib
import sys
import time
import warnings

from dh_kinematics import Chain, from_urdf, Link
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import ik_peers  # noqa: E402, I100
from provenance import provenance, ROOT  # noqa: E402

SHIPPED = ('puma560', 'stanford', 'ur5', 'panda')
VENDOR = ROOT.parent / 'shared' / 'vendor-urdf'
# The chains of TRAC-IK's paper (Beeson and Ames, 2015) that are at hand, by arm name.
TRACIK_CHAINS = ('ur5', 'ur_ur5e', 'panda', 'franka_fr3', 'kuka_iiwa14', 'kinova_j2n6s300',
                 'fetch', 'baxter')
TRACIK_TOL, TRACIK_TIME = 1e-5, 0.005
EXACT_TOL = 1e-10
BATCH_RUNS = 3  # a batch's time is the best of this many runs
# Issue 43's targets: closed form for one target and per target of a batch, numerical search
# per target of a batch (µs), and the numerical search's median against ik_LM's.
CLOSED_ONE_US, CLOSED_BATCH_US, SEARCH_BATCH_US, SEARCH_RATIO = 50.0, 10.0, 50.0, 2.0
HEAD_TO_HEAD_ROUNDS = 3


def random_arm(rng, n, convention):
    """Return a random arm of n joints, every joint limited, maybe one prismatic."""
    prismatic = int(rng.integers(n)) if rng.random() < 0.4 else -1
    links = []
    for j in range(n):
        lower = rng.uniform(-3.0, 0.0)
        slide = j == prismatic
        links.append(Link(
            joint='prismatic' if slide else 'revolute', convention=convention,
            a=rng.uniform(-0.5, 0.5) if rng.random() < 0.7 else 0.0,
            alpha=rng.choice([0.0, math.pi / 2, -math.pi / 2, rng.uniform(-3.0, 3.0)]),
            d=0.0 if slide else rng.uniform(-0.5, 0.5),
            theta=rng.uniform(-3.0, 3.0) if slide else 0.0,
            offset=rng.uniform(-1.0, 1.0) if rng.random() < 0.5 else 0.0,
            flip=bool(rng.random() < 0.3),
            qlim=(-0.5, 0.5) if slide else (lower, lower + rng.uniform(1.0, 6.0))))
    base, tool = np.eye(4), np.eye(4)
    base[:3, 3], tool[:3, 3] = rng.uniform(-1.0, 1.0, 3), rng.uniform(-0.2, 0.2, 3)
    return Chain(links, base=base, tool=tool, name=f'random-{n}-{convention}-{len(links)}')


def arms(random_count, seed, folders=(VENDOR,)):
    """
    Yield (name, chain, urdf, base link, tip link) for every arm.

    ``folders`` hold URDFs and an ``arms.json`` naming each one's file, base and tip links (as
    ``../shared/vendor-urdf``'s); a folder without one is skipped.
    """
    for name in SHIPPED:
        chain = Chain.from_yaml(ROOT / 'config' / f'{name}.yaml')
        yield name, chain, chain.to_urdf(), chain.world_frame, chain.tool_frame
    for folder in map(pathlib.Path, folders):
        if not (folder / 'arms.json').exists():
            continue
        for entry in json.loads((folder / 'arms.json').read_text())['arms']:
            urdf = (folder / entry['file']).read_text()
            chain = from_urdf(urdf, entry['base'], entry['tip']).chain
            yield entry['file'].removesuffix('.urdf'), chain, urdf, entry['base'], entry['tip']
    rng = np.random.default_rng(seed)
    for k in range(random_count):
        chain = random_arm(rng, 6 + k % 2, ('standard', 'modified')[k // 2 % 2])
        chain = chain.replace(name=f'random-{k}')
        yield chain.name, chain, chain.to_urdf(), chain.world_frame, chain.tool_frame


def targets_of(chain, count, seed):
    """Return seeded configurations within the limits and their tool poses."""
    lower = np.maximum(chain.qlim[:, 0], -math.pi)
    upper = np.minimum(chain.qlim[:, 1], math.pi)
    Q = np.random.default_rng(seed).uniform(lower, upper, (count, chain.n))
    return Q, chain.fkine(Q)


def middle(chain):
    """Return the middle of the limits (0 where a joint has none): every solver's seed."""
    lower, upper = chain.qlim[:, 0], chain.qlim[:, 1]
    return np.where(np.isfinite(lower) & np.isfinite(upper), (lower + upper) / 2.0, 0.0)


def checked(chain, q, T, tol):
    """Tell whether q is within the limits and puts the tool within tol (m, rad) of T."""
    if q is None or np.isnan(q).any() or chain.islimit(q).any():
        return False
    reached = chain.fkine(q)
    # |R - R_t| (Frobenius) is 2 sqrt(2) sin(angle / 2): exact at small angles.
    chord = np.linalg.norm(reached[:3, :3] - T[:3, :3]) / (2.0 * math.sqrt(2.0))
    angle = 2.0 * math.asin(min(1.0, chord))
    return bool(np.linalg.norm(reached[:3, 3] - T[:3, 3]) <= tol and angle <= tol)


class Ours:
    """This package's ``Chain.ikine``, closed form where it applies or numerical."""

    def __init__(self, chain, tol, method):
        self.name = f'ours {method}'
        self._chain, self._tol, self._method = chain, tol, method

    def solve(self, T, q0):
        result = self._chain.ikine(T, q0=q0, tol=self._tol, method=self._method)
        return result.q if result.success else None


def solvers(name, chain, urdf, base, tip, tol):
    """Return the solvers for one arm and tolerance, and why any is left out."""
    made, missing = [Ours(chain, tol, 'auto'), Ours(chain, tol, 'numerical')], {}
    makers = [('ik_LM (C++)', lambda: ik_peers.Toolbox(urdf, base, tip, tol)),
              ('TRAC-IK', lambda: ik_peers.TracIK(urdf, base, tip, tol, TRACIK_TIME)),
              ('KDL LMA', lambda: ik_peers.KDL(urdf, base, tip, tol, 'LMA')),
              ('KDL NR_JL', lambda: ik_peers.KDL(urdf, base, tip, tol, 'NR_JL'))]
    for label, make in makers:
        try:
            made.append(make())
        except Exception as error:  # a package missing, or an arm its loader refuses
            missing[label] = f'{type(error).__name__}: {error}'[:120]
    return made, missing


def run_protocol(arm_list, count, seed, tol, limit):
    """Solve every arm's targets with every solver, interleaved; return rows per arm."""
    rows = []
    for name, chain, urdf, base, tip in arm_list:
        chosen, missing = solvers(name, chain, urdf, base, tip, tol)
        Q, Ts = targets_of(chain, count, seed)
        q0 = middle(chain)
        record = {s.name: {'times': [], 'ok': 0, 'false': 0} for s in chosen}
        for T in Ts:
            for solver in chosen:
                start = time.perf_counter()
                q = solver.solve(T, q0)
                elapsed = time.perf_counter() - start
                entry = record[solver.name]
                entry['times'].append(elapsed)
                good = checked(chain, q, T, tol)
                entry['ok'] += good and (limit is None or elapsed <= limit)
                entry['false'] += q is not None and not good
        rows.append({'arm': name, 'n': chain.n, 'targets': count, 'missing': missing,
                     'solvers': {key: _summary(value, count) for key, value in record.items()}})
    return rows


def head_to_head(arm_list, count, seed, rounds=HEAD_TO_HEAD_ROUNDS):
    """
    Time our numerical search and ik_LM alone, target by target in turn; return rows per arm.

    In :func:`run_protocol` each target passes through every solver, whose code and data
    push the others' out of the caches: ik_LM's median grows by about half there, ours by a
    few per cent. Here only the two alternate, ``rounds`` times over the targets, for the
    ratio the issue's bound is on.
    """
    rows = []
    for name, chain, urdf, base, tip in arm_list:
        try:
            theirs = ik_peers.Toolbox(urdf, base, tip, EXACT_TOL)
        except Exception:  # reported with the protocol's missing solvers
            continue
        ours = Ours(chain, EXACT_TOL, 'numerical')
        Ts, q0 = targets_of(chain, count, seed)[1], middle(chain)
        times = {'ours': [], 'ik_LM': []}
        for _ in range(rounds):
            for T in Ts:
                for label, solver in (('ours', ours), ('ik_LM', theirs)):
                    start = time.perf_counter()
                    solver.solve(T, q0)
                    times[label].append(time.perf_counter() - start)
        medians = {label: 1e6 * float(np.median(value)) for label, value in times.items()}
        rows.append({'arm': name, 'ours_median_us': medians['ours'],
                     'ik_lm_median_us': medians['ik_LM'],
                     'ratio': medians['ours'] / medians['ik_LM']})
    return rows


def beyond_reach(chain, count, seed):
    """Return ``count`` targets farther from the base than the arm and its tool can reach."""
    rng = np.random.default_rng(seed)
    reach = np.linalg.norm(chain.tool[:3, 3]) + sum(
        abs(link.a) + (np.abs(link.qlim).max() + abs(link.offset) if link.isprismatic()
                       else abs(link.d)) for link in chain.links)
    targets = targets_of(chain, count, seed)[1]
    directions = rng.normal(size=(count, 3))
    targets[:, :3, 3] = chain.base[:3, 3] + (reach + 0.5) * (
        directions / np.linalg.norm(directions, axis=1, keepdims=True))
    return targets


def unreachable(arm_list, count, seed):
    """Count, per solver, the targets beyond reach it reports as solved (none should be)."""
    claimed = {}
    for name, chain, urdf, base, tip in arm_list:
        chosen, _ = solvers(name, chain, urdf, base, tip, EXACT_TOL)
        for T in beyond_reach(chain, count, seed):
            for solver in chosen:
                claimed[solver.name] = claimed.get(solver.name, 0) + (
                    solver.solve(T, middle(chain)) is not None)
    return claimed


def _summary(entry, count):
    times = 1e6 * np.array(entry['times'])
    return {'success': entry['ok'] / count, 'false_success': entry['false'],
            'median_us': float(np.median(times)), 'p99_us': float(np.percentile(times, 99))}


def closed_forms(arm_list, count, seed):
    """Time ours (one target, a batch) and EAIK (one, batched) on the closed-form arms."""
    rows = []
    for name, chain, _, _, _ in arm_list:
        Q, Ts = targets_of(chain, count, seed)
        q0 = middle(chain)
        if chain.ikine(Ts[0], q0=q0).method != 'analytic':
            continue
        row = {'arm': name}
        chain.ikine(Ts[:2], q0=q0)  # compiled on first use: once per arm, not timed
        single, found = [], 0
        for T in Ts:
            start = time.perf_counter()
            result = chain.ikine(T, q0=q0)
            single.append(time.perf_counter() - start)
            found += result.success and checked(chain, result.q, T, EXACT_TOL)
        batch, batch_time = _best_of(BATCH_RUNS, lambda: chain.ikine(Ts, q0=q0))
        row['ours'] = {'one_median_us': 1e6 * float(np.median(single)),
                       'one_p99_us': 1e6 * float(np.percentile(single, 99)),
                       'batch_us_per_target': 1e6 * batch_time / count,
                       'success': found / count,
                       'solutions_mean': float(np.mean([len(r.solutions) for r in batch]))}
        try:
            eaik = ik_peers.EAIK(chain, EXACT_TOL)
        except ImportError as error:
            row['eaik'] = {'missing': str(error)}
        else:
            if eaik.fits:
                poses = np.array([eaik.target(T) for T in Ts])
                single, solved = [], 0
                for pose, T in zip(poses, Ts):
                    start = time.perf_counter()
                    Q_eaik = eaik.solve_all(pose)
                    single.append(time.perf_counter() - start)
                    solved += any(checked(chain, _inside(chain, q), T, EXACT_TOL) for q in Q_eaik)
                _, batch_time = _best_of(BATCH_RUNS, lambda: eaik._robot.IK_batched(
                    list(poses), num_worker_threads=1))
                row['eaik'] = {'one_median_us': 1e6 * float(np.median(single)),
                               'one_p99_us': 1e6 * float(np.percentile(single, 99)),
                               'batch_us_per_target': 1e6 * batch_time / count,
                               'success': solved / count}
            else:
                row['eaik'] = {'missing': 'no known decomposition'}
        rows.append(row)
    return rows


def searches(arm_list, count, seed):
    """Time our numerical search on a batch of targets per arm (vectorised over them)."""
    rows = []
    for name, chain, _, _, _ in arm_list:
        Q, Ts = targets_of(chain, count, seed)
        q0 = middle(chain)
        chain.ikine(Ts[:64], q0=q0, method='numerical')  # compiled on first use, not timed
        results, elapsed = _best_of(1, lambda: chain.ikine(Ts, q0=q0, method='numerical'))
        found = sum(r.success and checked(chain, r.q, T, EXACT_TOL) for r, T in zip(results, Ts))
        rows.append({'arm': name, 'batch_us_per_target': 1e6 * elapsed / count,
                     'success': found / count,
                     'false_success': sum(r.success for r in results) - found})
    return rows


def _sources(folders):
    """Return where each URDF of ``folders`` came from, by arm name (their arms.json)."""
    sources = {}
    for folder in map(pathlib.Path, folders):
        if (folder / 'arms.json').exists():
            for entry in json.loads((folder / 'arms.json').read_text())['arms']:
                sources[entry['file'].removesuffix('.urdf')] = entry.get('source')
    return sources


def _best_of(runs, run):
    """Return ``run()``'s result and its shortest time of ``runs`` runs (s)."""
    best = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return result, best


def _inside(chain, q):
    """Return q with each revolute joint turned by whole turns into its limits, if one does."""
    q = np.array(q, dtype=float)
    for j, link in enumerate(chain.links):
        if link.isrevolute() and link.qlim is not None:
            lower, upper = link.qlim
            q[j] += 2.0 * math.pi * math.ceil((lower - q[j]) / (2.0 * math.pi))
            if q[j] > upper:
                return None
    return q


def print_protocol(title, rows, names):
    """Print one protocol's table: success, median and p99 per solver, and ours / ik_LM."""
    print(f'\n{title}')
    print('| arm | n | ' + ' | '.join(f'{n} ok % | med µs | p99 µs' for n in names)
          + ' | numerical / ik_LM (all interleaved) |')
    print('|---|---|' + '---|---|---|' * len(names) + '---|')
    for row in rows:
        cells = []
        for name in names:
            entry = row['solvers'].get(name)
            cells.append('— | — | —' if entry is None else
                         f'{100 * entry["success"]:.0f}{"*" if entry["false_success"] else ""} | '
                         f'{entry["median_us"]:.0f} | {entry["p99_us"]:.0f}')
        ratio = _ratio(row, 'ours numerical', 'ik_LM (C++)')
        print(f'| {row["arm"]} | {row["n"]} | ' + ' | '.join(cells)
              + f' | {"—" if ratio is None else f"{ratio:.2f}"} |')


def _ratio(row, ours, theirs):
    a, b = row['solvers'].get(ours), row['solvers'].get(theirs)
    return None if a is None or b is None else a['median_us'] / b['median_us']


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--targets', type=int, default=100, help='targets per arm')
    parser.add_argument('--random', type=int, default=4, help='random arms')
    parser.add_argument('--batch', type=int, default=1000, help='closed-form batch size')
    parser.add_argument('--unreachable', type=int, default=3,
                        help='targets beyond reach per arm')
    parser.add_argument('--seed', type=int, default=2043)
    parser.add_argument('--urdf-dir', action='append', type=pathlib.Path,
                        help='a folder of URDFs with an arms.json (as ../shared/vendor-urdf, '
                        'the default); repeat for more')
    parser.add_argument('--json', type=pathlib.Path, help='also write the results here')
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        arm_list = list(arms(args.random, args.seed, args.urdf_dir or (VENDOR,)))
        exact = run_protocol(arm_list, args.targets, args.seed, EXACT_TOL, None)
        tracik = run_protocol([arm for arm in arm_list if arm[0] in TRACIK_CHAINS],
                              args.targets, args.seed + 1, TRACIK_TOL, TRACIK_TIME)
        closed = closed_forms(arm_list, args.batch, args.seed + 2)
        batched = searches(arm_list, args.batch, args.seed + 4)
        paired = head_to_head(arm_list, args.targets, args.seed)
        beyond = unreachable(arm_list, args.unreachable, args.seed + 3)
    versions = ik_peers.versions()
    print(f'{len(arm_list)} arms, {args.targets} targets each, seed {args.seed}; '
          + ', '.join(f'{k} {v}' for k, v in versions.items())
          + f'; Python {sys.version.split()[0]}')
    names = ['ours auto', 'ours numerical', 'ik_LM (C++)', 'TRAC-IK', 'KDL LMA', 'KDL NR_JL']
    print_protocol(f'Exact: within the limits and {EXACT_TOL:g} m and rad (* a false success)',
                   exact, names)
    print_protocol(f'TRAC-IK protocol: {TRACIK_TOL:g}, {1e3 * TRACIK_TIME:g} ms', tracik, names)
    print('\nClosed forms, every solution: µs per target')
    print('| arm | ours one (median) | ours batch of '
          f'{args.batch} | ours ok % | EAIK one | EAIK batch | EAIK ok % |')
    print('|---|---|---|---|---|---|---|')
    for row in closed:
        ours, eaik = row['ours'], row['eaik']
        theirs = ('— | — | —' if 'missing' in eaik else
                  f'{eaik["one_median_us"]:.1f} | {eaik["batch_us_per_target"]:.1f} | '
                  f'{100 * eaik["success"]:.0f}')
        print(f'| {row["arm"]} | {ours["one_median_us"]:.0f} | '
              f'{ours["batch_us_per_target"]:.1f} | {100 * ours["success"]:.0f} | {theirs} |')
    print(f'\nOur numerical search, a batch of {args.batch} (vectorised): µs per target')
    print('| arm | µs per target | ok % | false successes |')
    print('|---|---|---|---|')
    for row in batched:
        print(f'| {row["arm"]} | {row["batch_us_per_target"]:.0f} | '
              f'{100 * row["success"]:.4g} | {row["false_success"]} |')
    print(f'\nOur numerical search and ik_LM alone, in turn, {HEAD_TO_HEAD_ROUNDS} rounds of the '
          "exact protocol's targets: median µs")
    print('| arm | ours numerical | ik_LM (C++) | ratio |')
    print('|---|---|---|---|')
    for row in paired:
        print(f'| {row["arm"]} | {row["ours_median_us"]:.0f} | {row["ik_lm_median_us"]:.0f} | '
              f'{row["ratio"]:.2f} |')
    ratios = [row['ratio'] for row in paired]
    false = sum(row['solvers'][s]['false_success'] for row in exact for s in row['solvers']
                if s.startswith('ours')) + sum(row['false_success'] for row in batched)
    ours_ok = min(row['solvers']['ours numerical']['success'] for row in exact)
    print(f'\nours numerical / ik_LM alone, median over arms of the median ratio: '
          f'{np.median(ratios):.2f} (worst {max(ratios):.2f}); ours numerical lowest '
          f'success {100 * ours_ok:.0f} %; ours false successes {false}')
    print(f'targets beyond reach ({args.unreachable} per arm) reported as solved: '
          + ', '.join(f'{name} {value}' for name, value in beyond.items()))
    false += sum(value for name, value in beyond.items() if name.startswith('ours'))
    worst = {'closed form, one target (median µs)': (
                 max(row['ours']['one_median_us'] for row in closed), CLOSED_ONE_US),
             f'closed form, a batch of {args.batch} (µs per target)': (
                 max(row['ours']['batch_us_per_target'] for row in closed), CLOSED_BATCH_US),
             'numerical / ik_LM, alone in turn (median µs)': (max(ratios), SEARCH_RATIO),
             f'numerical, a batch of {args.batch} (µs per target)': (
                 max(row['batch_us_per_target'] for row in batched), SEARCH_BATCH_US)}
    print('\nTargets, worst arm against the bound:')
    for label, (value, bound) in worst.items():
        verdict = 'met' if value <= bound else 'MISSED'
        print(f'- {label}: {value:.2f}, at most {bound:g}: {verdict}')
    missed = sum(round(row['targets'] * (1.0 - row['solvers']['ours numerical']['success']))
                 for row in exact) + sum(round(args.batch * (1.0 - row['success']))
                                         for row in batched)
    total = sum(row['targets'] for row in exact) + args.batch * len(batched)
    solved = missed == 0 and false == 0
    print(f'- every search target solved ({total - missed} of {total}), no false success '
          f'({false}): {"met" if solved else "MISSED"}')
    met = solved and all(value <= bound for value, bound in worst.values())
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(dict(provenance(), **{
            'versions': versions, 'targets_per_arm': args.targets, 'seed': args.seed,
            'urdf_sources': _sources(args.urdf_dir or (VENDOR,)),
            'exact': exact, 'tracik': tracik, 'head_to_head': paired, 'closed_forms': closed,
            'search_batches': batched,
            'beyond_reach': beyond, 'met': met}),
            indent=2) + '\n')
    return 0 if met else 1


if __name__ == '__main__':
    sys.exit(main())
