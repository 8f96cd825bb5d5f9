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
A 0.5 m straight line at 1 mm steps: ``Chain.cartesian_path`` against ``ik_LM`` chained.

On the Panda and the UR5 (the shipped models), seeded lines of 0.5 m (the orientation turned
0.3 rad on the way) from random starts within the limits: ours (every step from the last on
one branch, midpoints checked, then timed within limits of 1 rad/s and 2 rad/s^2) against
roboticstoolbox-python's C++ ``ik_LM`` on the ETS its URDF loader builds from the model's URDF,
chained from the same start through the same 500 poses (each from the last solution, 1e-10,
joint limits on; a step counts while it converges and its midpoint is within 1e-4 m and
1e-3 rad of the line, as ours). Time per line (median over the lines, each timed once, in turn;
ours with its time law), the time per step done (all lines' time over all their steps done)
and the mean fraction completed. Writes
``bench/results/<date>-path/cartesian_path.json``.

    .venv-bench/bin/python bench/cartesian_path.py [--lines N]
"""

import argparse
import math
import pathlib
import statistics
import sys
import time

from dh_kinematics import Chain
from dh_kinematics.core.ik.ikine import pose_errors
from dh_kinematics.core.rotations import rotvec_to_matrix
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import ik_peers  # noqa: E402, I100
from provenance import provenance, ROOT, write_results  # noqa: E402

LENGTH, TURN, STEP = 0.5, 0.3, 0.001


def _line(chain, rng):
    """Return a start within the limits and the pose at a fraction of a 0.5 m line from it."""
    lower, upper = np.maximum(chain.qlim[:, 0], -math.pi), np.minimum(chain.qlim[:, 1], math.pi)
    q0 = rng.uniform(lower, upper)
    start = chain.fkine(q0)
    direction, axis = rng.normal(size=3), rng.normal(size=3)
    direction *= LENGTH / np.linalg.norm(direction)
    axis *= TURN / np.linalg.norm(axis)

    def pose(f):
        T = np.eye(4)
        T[:3, :3] = start[:3, :3] @ rotvec_to_matrix(f * axis)
        T[:3, 3] = start[:3, 3] + f * direction
        return T
    return q0, pose


def _chained(ets, chain, q0, pose, steps):
    """Return the share of the steps ik_LM reaches chained from q0 (midpoints on the line)."""
    q = q0
    for k in range(steps):
        solution = ets.ik_LM(pose((k + 1) / steps), q0=q, ilimit=100, slimit=1, tol=0.5e-20,
                             joint_limits=True)
        if not solution.success:
            return k / steps
        position, angle = pose_errors(pose((k + 0.5) / steps),
                                      chain.fkine((q + solution.q) / 2.0))
        if position > 1e-4 or angle > 1e-3:
            return k / steps
        q = solution.q
    return 1.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--lines', type=int, default=20)
    args = parser.parse_args()
    import roboticstoolbox
    rows = {}
    for name in ('panda', 'ur5'):
        chain = Chain.from_yaml(ROOT / 'config' / f'{name}.yaml')
        ets = ik_peers.Toolbox(chain.to_urdf(), chain.base_frame, chain.tool_frame, 1e-10).ets
        rng = np.random.default_rng(7)
        times = {'ours': [], 'ik_LM': []}
        fractions = {'ours': [], 'ik_LM': []}
        limits = {'velocity_limits': np.ones(chain.n), 'acceleration_limits': np.full(chain.n, 2)}
        for _ in range(args.lines):
            q0, pose = _line(chain, rng)
            began = time.perf_counter()
            path = chain.cartesian_path(q0, pose(1.0), max_step=STEP, **limits)
            times['ours'].append(time.perf_counter() - began)
            fractions['ours'].append(path.fraction)
            began = time.perf_counter()
            fractions['ik_LM'].append(_chained(ets, chain, q0, pose, math.ceil(LENGTH / STEP)))
            times['ik_LM'].append(time.perf_counter() - began)
        steps = math.ceil(LENGTH / STEP)
        rows[name] = {
            'lines': args.lines,
            'median_ms_per_line': {k: 1e3 * statistics.median(v) for k, v in times.items()},
            'mean_fraction': {k: statistics.mean(v) for k, v in fractions.items()},
            'us_per_step_done': {k: 1e6 * sum(times[k]) / max(1.0, steps * sum(fractions[k]))
                                 for k in times},
            'lines_ours_behind': sum(a < b - 1e-12 for a, b in zip(fractions['ours'],
                                                                   fractions['ik_LM'])),
        }
        print(name, rows[name])
    folder = ROOT / 'bench' / 'results' / f'{provenance()["date"]}-path'
    folder.mkdir(parents=True, exist_ok=True)
    write_results(folder / 'cartesian_path.json', roboticstoolbox_python=roboticstoolbox
                  .__version__, line_m=LENGTH, turn_rad=TURN, step_m=STEP, results=rows)


if __name__ == '__main__':
    main()
