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
``dh_kinematics excite``: a trajectory that lets ``identify`` tell the dynamics apart.

Five harmonics a joint within its range, velocity and acceleration limits, chosen for a small
condition number of the base regressor (:mod:`identification.excitation`), written as the CSV
joint log (time, positions, velocities) for a controller, or ``sim_arm``, to play. A joint the
model gives no velocity or acceleration limit is held to 1 rad/s and 3 rad/s^2 (0.25 m/s and
0.75 m/s^2 for a prismatic one): set the model's limits to move it faster.
"""

import math

from dh_kinematics.cli import arguments, models
from dh_kinematics.logs import JointLog

INSTALL = 'excite needs SciPy: pip install scipy (apt: python3-scipy)'


def add_parser(commands):
    """Add the ``excite`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('excite', help='an exciting trajectory for identify: five '
                                  'harmonics a joint, within the limits')
    command.add_argument('model', help=arguments.MODEL_FILE)
    command.add_argument('-o', '--output', required=True, help='the trajectory (CSV: time, '
                         '<joint>.position, <joint>.velocity)')
    command.add_argument('--period', type=float, default=10.0, metavar='S',
                         help='the trajectory repeats every S seconds (default: %(default)g)')
    command.add_argument('--duration', type=float, metavar='S', help='seconds written '
                         '(default: three periods)')
    command.add_argument('--rate', type=float, default=100.0, metavar='HZ',
                         help='samples a second (default: %(default)g)')
    command.add_argument('--seed', type=int, default=0, help='the search (default: 0)')
    return command


def run(args, out):
    """Find the trajectory; print its figures; write it."""
    try:
        import scipy  # noqa: F401
    except ImportError:
        raise ValueError(INSTALL) from None
    from dh_kinematics.identification.excitation import excite

    import numpy as np

    if not (math.isfinite(args.period) and args.period > 0.0):
        raise ValueError(f'--period: {args.period!r} must be a positive number of seconds')
    duration = 3.0 * args.period if args.duration is None else args.duration
    for name, value in (('--duration', duration), ('--rate', args.rate)):
        if not (math.isfinite(value) and value > 0.0):
            raise ValueError(f'{name}: {value!r} must be a positive number')
    if duration * args.rate > 1e7:
        raise ValueError(f'--duration x --rate: {duration * args.rate:.3g} samples; at most 1e7')
    chain, _, _ = models.load([args.model])
    trajectory = excite(chain, args.period, args.seed)
    t = np.arange(0.0, duration, 1.0 / args.rate)
    q, qd, qdd = trajectory.at(t)
    out.write(f'excitation of {chain.name or "the model"}: period {args.period:g} s, base '
              f'regressor condition number {trajectory.condition:.4g}\n')
    width = max(len(name) for name in chain.joint_names)
    out.write(f'  {"":<{width}} {"range used":>22} {"peak speed":>11} {"peak acc.":>10}\n')
    for j, name in enumerate(chain.joint_names):
        out.write(f'  {name:<{width}} [{q[:, j].min():>9.4g}, {q[:, j].max():>9.4g}] '
                  f'{np.abs(qd[:, j]).max():>11.4g} {np.abs(qdd[:, j]).max():>10.4g}\n')
    from dh_kinematics.logs.csv_log import text

    models.write(args.output, text(JointLog(chain.joint_names, t, q, qd, None)), 'trajectory')
    out.write(f'wrote {args.output}: {len(t)} samples, {duration:g} s\n')
    return 0
