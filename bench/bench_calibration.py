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
Calibration of arms whose every parameter is off: residuals, held-out errors, ranks, time.

For each shipped arm, as a tracker would see it: every joint's offset (or theta), d, a and
alpha off by a seeded 1 mm or 1.75 mrad (0.1 degree), the base 1.3 m from the tracker and
turned, the target 5 cm off the flange's axis; 60 positions (and 60 poses) with 0.05 mm of
noise per axis (0.5 mrad on orientations), and 200 held-out configurations compared with the
true arm. Prints a table; ``--json PATH`` writes the results with their provenance.

    .venv/bin/python bench/bench_calibration.py --json bench/results/<date>-calibration/c.json
"""

import argparse
import json
import math
import sys
import time

from dh_kinematics import Chain
from dh_kinematics.core.calibration import fit
from dh_kinematics.core.calibration.measurements import Measurements
from dh_kinematics.core.rotations import rotation_to_quaternion, rotvec_to_matrix
import numpy as np

try:
    from provenance import provenance, ROOT
except ImportError:  # run as a module
    from bench.provenance import provenance, ROOT

ARMS = ('puma560', 'puma560_mdh', 'stanford', 'ur5', 'panda')
NOISE, TURN_NOISE = 5e-5, 5e-4
MEASUREMENTS, HELD_OUT, ROUNDS = 60, 200, 5


def true_arm(nominal, rng):
    """Return ``nominal`` with every kinematic parameter off, 1.3 m from the tracker."""
    links = []
    for link in nominal.links:
        angle, length = ('offset', 'd') if link.isrevolute() else ('theta', 'offset')
        links.append(link.replace(**{
            angle: getattr(link, angle) + rng.normal(0.0, math.radians(0.1)),
            length: getattr(link, length) + rng.normal(0.0, 1e-3),
            'a': link.a + rng.normal(0.0, 1e-3),
            'alpha': link.alpha + rng.normal(0.0, math.radians(0.1))}))
    axis = rng.normal(size=3)
    T_tracker_world = np.eye(4)
    T_tracker_world[:3, :3] = rotvec_to_matrix(axis / np.linalg.norm(axis) * 0.7)
    direction = rng.normal(size=3)
    T_tracker_world[:3, 3] = 1.3 * direction / np.linalg.norm(direction)
    tool = nominal.tool.copy()
    tool[:3, 3] += nominal.tool[:3, :3] @ [0.05, 0.03, 0.1]
    return Chain(links, T_tracker_world @ nominal.base, tool, nominal.gravity, nominal.name)


def measured(arm, q, rng, orientation):
    """Return the true arm's measurements at ``q``."""
    T = arm.fkine(q)
    quaternion = None
    if orientation:
        quaternion = rotation_to_quaternion(np.array(
            [rotvec_to_matrix(rng.normal(0.0, TURN_NOISE, 3)) @ R for R in T[:, :3, :3]]))
    return Measurements(q, T[:, :3, 3] + rng.normal(0.0, NOISE, (len(q), 3)), quaternion)


def run(name, orientation):
    """Return one arm's results, the time a median over ROUNDS calibrations."""
    nominal = Chain.from_yaml(ROOT / 'config' / f'{name}.yaml')
    rng = np.random.default_rng(sum(map(ord, name)) + orientation)
    arm = true_arm(nominal, rng)
    q = nominal.random_q(MEASUREMENTS, rng)
    data = measured(arm, q, rng, orientation)
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        result = fit.calibrate(nominal, data)
        times.append(time.perf_counter() - start)
    check = nominal.random_q(HELD_OUT, rng)
    error = np.linalg.norm(result.chain.fkine(check)[:, :3, 3] - arm.fkine(check)[:, :3, 3],
                           axis=1)
    return {'arm': name, 'data': 'poses' if orientation else 'positions',
            'before_mm': 1e3 * result.before.position_rms,
            'after_mm': 1e3 * result.after.position_rms,
            'held_out_mm': 1e3 * float(np.sqrt(np.mean(error ** 2))),
            'noise_3d_mm': 1e3 * math.sqrt(3.0) * NOISE,
            'rank': result.rank, 'expected': result.expected,
            'held': [p.name for p in result.parameters if p.status == 'held'],
            'condition': result.observability.condition, 'O1': result.observability.O1,
            'failure': result.failure, 'ms': 1e3 * float(np.median(times))}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--json', help='write the results here')
    args = parser.parse_args(argv)
    rows = [run(name, orientation) for name in ARMS for orientation in (False, True)]
    print(f'{MEASUREMENTS} measurements, noise {NOISE * 1e3:g} mm per axis '
          f'({math.sqrt(3.0) * NOISE * 1e3:.3f} mm in 3-D); held-out: {HELD_OUT} configurations '
          'against the true arm')
    print('| arm | data | before mm | after mm | held-out mm | rank / expected | ms |')
    print('|---|---|---|---|---|---|---|')
    for row in rows:
        print(f'| {row["arm"]} | {row["data"]} | {row["before_mm"]:.2f} | '
              f'{row["after_mm"]:.4f} | {row["held_out_mm"]:.4f} | {row["rank"]} / '
              f'{row["expected"]} | {row["ms"]:.0f} |')
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as stream:
            json.dump({'provenance': provenance(), 'results': rows}, stream, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
