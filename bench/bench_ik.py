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
Inverse kinematics side by side with roboticstoolbox-python's ikine_LM: success and time.

Arms: the shipped models and seeded random 6- and 7-joint arms (standard and modified DH, some
with a prismatic joint, offsets, flips, base and tool, every joint limited). Targets: forward
kinematics of seeded random configurations within the limits, so each has a solution within
the limits. Each target is given to ``Chain.ikine`` (closed form where the arm has one; also
with ``method='numerical'``) and to the toolbox's ``ikine_LM`` with its defaults (ilimit 30,
slimit 100, tol 1e-6 on 0.5 e^T e, joint_limits True, method 'chan') and a seed. A success is
the solver's own flag; "exact" counts successes within the limits whose tool pose is within
1e-9 m and 1e-9 rad of the target, measured by our forward kinematics. Times are per target,
the median over targets, in one process. Then targets beyond every arm's reach: how many each
solver reports as solved (none should be).
"""

import argparse
import json
import math
import pathlib
import sys
import time
import warnings

from dh_kinematics import Chain, Link
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from provenance import provenance, ROOT  # noqa: E402

SHIPPED = ('puma560', 'puma560_mdh', 'stanford', 'ur5', 'panda')
EXACT = 1e-9


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
    return Chain(links, base=base, tool=tool, name=f'random {n} {convention}')


def toolbox_robot(chain):
    """Return the same arm as a roboticstoolbox DHRobot."""
    import roboticstoolbox as rtb
    from spatialmath import SE3

    classes = ({'revolute': rtb.RevoluteMDH, 'prismatic': rtb.PrismaticMDH} if chain.mdh
               else {'revolute': rtb.RevoluteDH, 'prismatic': rtb.PrismaticDH})
    links = []
    for link in chain.links:
        kind = 'prismatic' if link.isprismatic() else 'revolute'
        fixed = {'theta': link.theta} if kind == 'prismatic' else {'d': link.d}
        links.append(classes[kind](a=link.a, alpha=link.alpha, offset=link.offset,
                                   qlim=None if link.qlim is None else list(link.qlim),
                                   flip=link.flip, **fixed))
    return rtb.DHRobot(links, name=chain.name or 'arm', base=SE3(chain.base, check=False),
                       tool=SE3(chain.tool, check=False))


def exact(chain, q, T):
    """Tell whether q is within the limits and puts the tool within EXACT of T."""
    if q is None or chain.islimit(q).any():
        return False
    reached = chain.fkine(q)
    # |R - I| (Frobenius) is 2 sqrt(2) sin(angle / 2): exact for small angles, unlike acos.
    chord = np.linalg.norm(reached[:3, :3].T @ T[:3, :3] - np.eye(3)) / (2.0 * math.sqrt(2.0))
    angle = 2.0 * math.asin(min(1.0, chord))
    return bool(np.linalg.norm(reached[:3, 3] - T[:3, 3]) <= EXACT and angle <= EXACT)


def beyond_reach(chain, rng, count):
    """Return ``count`` targets farther from the base than the arm and its tool can reach."""
    reach = np.linalg.norm(chain.tool[:3, 3]) + sum(
        abs(link.a) + (np.abs(link.qlim).max() + abs(link.offset) if link.isprismatic()
                       else abs(link.d)) for link in chain.links)
    targets = chain.fkine(rng.uniform(np.maximum(chain.qlim[:, 0], -math.pi),
                                      np.minimum(chain.qlim[:, 1], math.pi), (count, chain.n)))
    directions = rng.normal(size=(count, 3))
    targets[:, :3, 3] = chain.base[:3, 3] + (reach + 0.5) * (
        directions / np.linalg.norm(directions, axis=1, keepdims=True))
    return targets


def unreachable(arms, count, seed):
    """Count the targets beyond reach that each solver reports as solved (none should be)."""
    solved = {'ours': 0, 'toolbox': 0, 'targets': 0}
    for chain in arms:
        robot = toolbox_robot(chain)
        for k, T in enumerate(beyond_reach(chain, np.random.default_rng(seed), count)):
            solved['ours'] += chain.ikine(T, seed=k).success
            solved['toolbox'] += bool(robot.ikine_LM(T, seed=k).success)
            solved['targets'] += 1
    return solved


def measure(arms, targets, seed):
    """Solve every target with each solver; return rows per arm and every time."""
    rows = []
    for chain in arms:
        robot = toolbox_robot(chain)
        rng = np.random.default_rng(seed)
        lower, upper = np.maximum(chain.qlim[:, 0], -math.pi), np.minimum(chain.qlim[:, 1],
                                                                          math.pi)
        Q = rng.uniform(lower, upper, size=(targets, chain.n))
        assert np.abs(robot.fkine(Q[0]).A - chain.fkine(Q[0])).max() < 1e-12
        row = {'arm': chain.name, 'n': chain.n, 'closed_form': None}
        for solver in ('auto', 'numerical', 'toolbox'):
            successes, exacts, times = 0, 0, []
            for k, q in enumerate(Q):
                T = chain.fkine(q)
                start = time.perf_counter()
                if solver == 'toolbox':
                    solution = robot.ikine_LM(T, seed=k)
                    ok, found = bool(solution.success), solution.q
                else:
                    result = chain.ikine(T, method=solver, seed=k)
                    ok, found = result.success, result.q
                    if solver == 'auto':
                        row['closed_form'] = result.method == 'analytic'
                times.append(time.perf_counter() - start)
                successes += ok
                exacts += ok and exact(chain, found, T)
            row[solver] = {'success': successes, 'exact': exacts, 'targets': targets,
                           'median_ms': 1e3 * float(np.median(times)),
                           'mean_ms': 1e3 * float(np.mean(times))}
        rows.append(row)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--targets', type=int, default=50, help='targets per arm')
    parser.add_argument('--random', type=int, default=8,
                        help='random arms of each kind (6 and 7 joints, each convention)')
    parser.add_argument('--unreachable', type=int, default=3,
                        help='targets beyond reach per arm')
    parser.add_argument('--seed', type=int, default=2032)
    parser.add_argument('--json', type=pathlib.Path, help='also write the results here')
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        import roboticstoolbox
    arms = [Chain.from_yaml(ROOT / 'config' / f'{name}.yaml') for name in SHIPPED]
    rng = np.random.default_rng(args.seed)
    arms += [random_arm(rng, n, convention) for n in (6, 7)
             for convention in ('standard', 'modified') for _ in range(args.random)]
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        rows = measure(arms, args.targets, args.seed)
        beyond = unreachable(arms, args.unreachable, args.seed)
    print(f'{len(arms)} arms, {args.targets} targets each; roboticstoolbox-python '
          f'{roboticstoolbox.__version__} ikine_LM with its defaults; numpy {np.__version__}, '
          f'Python {sys.version.split()[0]}')
    print(f'| {"arm":<22} | {"n":>1} | {"closed":>6} | {"ours ok/exact":>13} | '
          f'{"ms":>6} | {"numerical ok/exact":>18} | {"ms":>6} | {"toolbox ok/exact":>16} | '
          f'{"ms":>6} |')
    print('|' + '|'.join('-' * (w + 2) for w in (22, 1, 6, 13, 6, 18, 6, 16, 6)) + '|')
    for row in rows:
        cells = [f'{row[s]["success"]}/{row[s]["exact"]}'
                 for s in ('auto', 'numerical', 'toolbox')]
        print(f'| {row["arm"]:<22} | {row["n"]:>1} | {"yes" if row["closed_form"] else "no":>6} '
              f'| {cells[0]:>13} | {row["auto"]["median_ms"]:6.2f} | {cells[1]:>18} | '
              f'{row["numerical"]["median_ms"]:6.2f} | {cells[2]:>16} | '
              f'{row["toolbox"]["median_ms"]:6.2f} |')
    totals = {s: {k: sum(row[s][k] for row in rows) for k in ('success', 'exact', 'targets')}
              for s in ('auto', 'numerical', 'toolbox')}
    print()
    for solver, total in totals.items():
        print(f'{solver:<9}: {total["success"]}/{total["targets"]} succeeded, '
              f'{total["exact"]} exact (1e-9 m, 1e-9 rad, within limits)')
    for closed in (True, False):
        chosen = [row for row in rows if row['closed_form'] is closed]
        if chosen:
            print(f'median ms per target, {"closed-form" if closed else "other"} arms: ours '
                  f'{np.median([r["auto"]["median_ms"] for r in chosen]):.2f}, numerical '
                  f'{np.median([r["numerical"]["median_ms"] for r in chosen]):.2f}, toolbox '
                  f'{np.median([r["toolbox"]["median_ms"] for r in chosen]):.2f}')
    print(f'targets beyond reach reported as solved: ours {beyond["ours"]}, toolbox '
          f'{beyond["toolbox"]}, of {beyond["targets"]}')
    met = (totals['auto']['success'] >= totals['toolbox']['success']
           and totals['numerical']['success'] >= totals['toolbox']['success']
           and totals['auto']['exact'] == totals['auto']['success'] and beyond['ours'] == 0)
    verdict = 'met' if met else 'MISSED'
    print('success at least the toolbox rate, every success exact, nothing beyond reach '
          f'solved: {verdict}')
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(dict(provenance(), **{
            'toolbox': roboticstoolbox.__version__, 'targets_per_arm': args.targets,
            'seed': args.seed, 'rows': rows, 'totals': totals, 'beyond_reach': beyond,
            'met': met}), indent=2) + '\n')
    return 0 if met else 1


if __name__ == '__main__':
    sys.exit(main())
