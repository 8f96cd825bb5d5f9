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
``dh_kinematics ik``: the joint values that put the tool at a pose, and which limits they touch.

It prints where the solutions came from (a closed form, or the numerical search and why), then
the solution nearest the start (every solution with ``--all``): its joint values, its position
and orientation errors, and each joint within 5 % of its range of a limit. An arm with more
joints than the pose has components (a 7-joint arm) reaches it at a continuum of
configurations: it says so, and ``--all`` prints those its restarts found. No solution within
the limits is exit 1 (one line on stderr), with the closest pose the search reached printed.
"""

import sys

from dh_kinematics.cli import arguments, models
from dh_kinematics.core import bounds, display
from dh_kinematics.core.ik.ikine import pose_errors
from dh_kinematics.core.kinematics import manipulability
from dh_kinematics.core.rotations import xyz_rpy_to_transform
import numpy as np

PROG = 'dh_kinematics'
# A joint this close to a limit, as a fraction of its range, is reported as near it.
NEAR = 0.05


def add_parser(commands):
    """Add the ``ik`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('ik', help='the joint values that put the tool at a pose, '
                                  'within the limits')
    command.add_argument('file', help=arguments.MODEL_FILE)
    command.add_argument('--xyz', type=float, nargs=3, required=True, metavar=('X', 'Y', 'Z'),
                         help="the tool's position in the world frame, m")
    command.add_argument('--rpy', type=float, nargs=3, default=[0.0, 0.0, 0.0],
                         metavar=('R', 'P', 'Y'), help="the tool's orientation: roll, pitch, "
                         'yaw about fixed x, y, z (rad; deg with --deg; default 0 0 0)')
    command.add_argument('--q0', nargs='+', metavar='Q', default=[], help='where to start, '
                         'and which solution to prefer (the nearest); 0 within the limits '
                         'by default')
    command.add_argument('--q-name', help='start from a named configuration of the file')
    command.add_argument('--all', action='store_true', help='every solution, not only the '
                         'nearest (the numerical search then runs all its restarts)')
    command.add_argument('--mask', type=float, nargs=6, metavar='W', help='weights of x y z '
                         'rx ry rz; 0 frees a component (1 1 1 0 0 0: position only)')
    command.add_argument('--free-axis', choices=('x', 'y', 'z'), help='a tool axis the '
                         'rotation about which is free (a torch, a suction cup): the nearest '
                         'solution of the family with a closed form')
    command.add_argument('--method', choices=('auto', 'analytic', 'numerical'),
                         default='auto', help='closed form where the arm has one (auto), '
                         'insist on it, or search numerically')
    command.add_argument('--deg', action='store_true', help='--rpy, --q0 and the printed '
                         'revolute joint values in degrees')
    return command


def run(args, out):
    """Solve and print; return 0 with a solution, 1 without."""
    chain, _, given = models.load(args.file)
    rpy = np.radians(args.rpy) if args.deg else np.array(args.rpy, dtype=float)
    for name, given, values, bound, unit in (
            ('--xyz', args.xyz, args.xyz, bounds.LENGTH_MAX, 'm'),
            ('--rpy', args.rpy, rpy, bounds.ANGLE_MAX, 'rad')):
        if not all(-bound <= value <= bound for value in values):
            raise ValueError(f'{name}: each must be within +-{bound:g} {unit}, got '
                             f'{" ".join(map(str, given))}')
    T = xyz_rpy_to_transform(args.xyz, rpy)
    q0 = None
    if args.q0 or args.q_name:
        q0 = models.configuration(chain, given, args.q0, args.q_name, args.deg, '--q0')
    result = chain.ikine(T, q0, args.mask, args.method, all_solutions=args.all,
                         free_axis=args.free_axis)
    out.write(f'{chain.name or "the model"}: {result.note}\n')
    out.write(display.transform_line(f'target ({chain.world_frame} -> {chain.tool_frame})', T,
                                     args.deg) + '\n')
    if not result.success:
        out.write(f'closest pose reached: {result.position_error:.3g} m and '
                  f'{result.orientation_error:.3g} rad from the target, at\n')
        _table(chain, [result.q], T, args, out)
        sys.stderr.write(f'{PROG} ik: no solution within the limits\n')
        return 1
    count = len(result.solutions)
    shown = result.solutions if args.all else result.solutions[:1]
    free = self_motion(chain, args.mask, args.free_axis)
    if free:  # a continuum: the search's restarts sample it
        out.write(f'a continuum of solutions within the limits ({free} degree'
                  f'{"" if free == 1 else "s"} of self-motion: {chain.n} joints for '
                  f'{chain.n - free} pose components); '
                  + (f"{count} of them, from the search's restarts:" if args.all else
                     '--all samples it; nearest the start:') + '\n')
    else:
        out.write(f'{count} solution{"" if count == 1 else "s"} within the limits'
                  + ('' if args.all or count == 1 else ' (--all prints them); nearest the '
                     'start:') + '\n')
    _table(chain, shown, T, args, out)
    return 0


def self_motion(chain, mask=None, free_axis=None):
    """
    Return how many degrees of self-motion the arm has for a target: joints past the pose's.

    The pose components are those ``mask`` weighs (all six by default; one fewer with a free
    axis), as many as the arm's Jacobian reaches: a 7-joint arm has 1, and reaches a pose at a
    continuum of configurations.
    """
    components = 6 if mask is None else sum(1 for weight in mask if weight > 0.0)
    components -= free_axis is not None
    return max(0, chain.n - min(components, manipulability.generic_ranks(chain)[2]))


def _table(chain, solutions, T, args, out):
    """Print one row per solution: joint values, errors, the limits it comes near."""
    mask, degrees = args.mask, args.deg
    widths = [max(11, len(name)) for name in chain.joint_names]
    header = ' '.join(name.rjust(w) for name, w in zip(chain.joint_names, widths))
    out.write(f'{"#":>2} {header} {"error m":>8} {"rad":>8}  near a limit\n')
    for k, q in enumerate(solutions, 1):
        position, angle = pose_errors(T, chain.fkine(q), mask, args.free_axis)
        values = [v * display.joint_unit(link.isprismatic(), degrees)[0]
                  for v, link in zip(q, chain.links)]
        near = ', '.join(near_limits(chain, q, degrees)) or '-'
        out.write(f'{k:>2} ' + ' '.join(display.format_number(v).rjust(w)
                                        for v, w in zip(values, widths))
                  + f' {position:>8.1e} {angle:>8.1e}  {near}\n')


def near_limits(chain, q, degrees=False):
    """
    Return a note for each joint within NEAR of its range from a limit.

    ``'<joint> <distance> <unit> from <lower|upper>'``, or ``'<joint> at its upper limit'``.
    """
    notes = []
    for name, link, value in zip(chain.joint_names, chain.links, q):
        if link.qlim is None:
            continue
        lower, upper = link.qlim
        for side, margin in (('lower', value - lower), ('upper', upper - value)):
            if margin <= NEAR * (upper - lower):
                scale, unit = display.joint_unit(link.isprismatic(), degrees)
                notes.append(f'{name} at its {side} limit' if margin < 1e-9 else
                             f'{name} {display.format_number(margin * scale, 3)} {unit} from '
                             f'{side}')
    return notes
