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
``dh_kinematics path``: straight lines of the tool from a configuration, timed, as a joint log.

From ``--from`` (joint values, or a configuration's name) through each ``--via`` pose to the
``--to`` pose, the tool moves on straight lines (:meth:`Chain.cartesian_path`), on the branch
it starts on, timed within the joints' velocity and acceleration limits (the model's, or
``--velocity-limits`` and ``--acceleration-limits``) and ``--tool-speed``, at rest at each
pose. The trajectory is written at ``--rate`` as a CSV joint log (``time``,
``<joint>.position``, ``<joint>.velocity``): what ``sim_arm --trajectory`` plays. A path that
stops short is written as far as it goes, and the command exits 1 with the share done and why.
"""

import sys

from dh_kinematics.cli import models
from dh_kinematics.core import bounds
from dh_kinematics.core.rotations import xyz_rpy_to_transform
from dh_kinematics.logs import csv_log
from dh_kinematics.logs.joint_log import JointLog
import numpy as np

PROG = 'dh_kinematics'
POSE = ('X', 'Y', 'Z', 'ROLL', 'PITCH', 'YAW')


def add_parser(commands):
    """Add the ``path`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('path', help='straight lines of the tool through poses, '
                                  'timed within the limits, as a joint log')
    command.add_argument('files', nargs='+', metavar='FILE', help='the model file, then any '
                         'parameter files (a joint_limits.yaml), merged as the node merges '
                         'them')
    command.add_argument('--from', dest='start', nargs='+', required=True, metavar='Q',
                         help="where the arm starts: its joint values, or a configuration's "
                         'name in the file')
    command.add_argument('--to', type=float, nargs=6, required=True, metavar=POSE,
                         help="the tool's last pose in the world frame: m, then roll, pitch, "
                         "yaw about fixed x, y, z as a URDF's rpy (rad; deg with --deg)")
    command.add_argument('--via', type=float, nargs=6, action='append', default=[],
                         metavar=POSE, help='a pose on the way, as --to (again for more, in '
                         'order)')
    command.add_argument('-o', '--output', required=True, metavar='TRAJ.csv',
                         help='the joint log to write')
    command.add_argument('--plot', metavar='F.png', help="also draw the tool's path against "
                         'the lines, and the joints against time (needs matplotlib)')
    command.add_argument('--rate', type=float, default=1000.0, metavar='HZ',
                         help='rows per second of the log (default 1000)')
    command.add_argument('--max-step', type=float, default=0.001, metavar='M',
                         help='the longest step along a line, m (default 0.001)')
    command.add_argument('--max-angle-step', type=float, default=0.01, metavar='RAD',
                         help='the largest turn of a step, rad (default 0.01)')
    command.add_argument('--max-deviation', type=float, default=1e-4, metavar='M',
                         help="how far a step's midpoint may be off the line, m (default "
                         '1e-4)')
    command.add_argument('--free-axis', choices=('x', 'y', 'z'), help='a tool axis the '
                         'rotation about which is free (a torch, a suction cup)')
    command.add_argument('--velocity-limits', type=float, nargs='+', metavar='V',
                         help="each joint's velocity limit, rad/s or m/s (one for all); the "
                         "model's by default")
    command.add_argument('--acceleration-limits', type=float, nargs='+', metavar='A',
                         help="each joint's acceleration limit, rad/s^2 or m/s^2 (one for "
                         "all); the model's by default")
    command.add_argument('--tool-speed', type=float, metavar='M/S',
                         help="the tool's largest speed, m/s")
    command.add_argument('--deg', action='store_true', help="--from values and the poses' "
                         'angles in degrees')
    return command


def run(args, out):
    """Plan, time and write the path; return 0 when whole, 1 when it stops short."""
    chain, _, given = models.load(args.files)
    if len(args.start) == 1 and not _is_number(args.start[0]):
        q0 = models.configuration(chain, given, [], args.start[0], args.deg,
                                  name_field='--from')
    else:
        q0 = models.configuration(chain, given, args.start, None, args.deg, '--from')
    poses = np.array([_pose(values, args.deg, '--via') for values in args.via]
                     + [_pose(args.to, args.deg, '--to')])
    if not 0.0 < args.rate <= 100000.0:
        raise ValueError(f'--rate: must be within (0, 100000] Hz, got {args.rate:g}')
    path = chain.cartesian_path(
        q0, poses, max_step=args.max_step, max_angle_step=args.max_angle_step,
        max_deviation=args.max_deviation, free_axis=args.free_axis,
        velocity_limits=_per_joint(args.velocity_limits, chain.n, '--velocity-limits'),
        acceleration_limits=_per_joint(args.acceleration_limits, chain.n,
                                       '--acceleration-limits'),
        tool_speed=args.tool_speed)
    trajectory = path.trajectory
    t = np.arange(0.0, trajectory.duration, 1.0 / args.rate)
    if not len(t) or trajectory.duration - t[-1] > 1e-9:  # the end, at rest
        t = np.append(t, trajectory.duration)
    q, qd, _ = trajectory.sample(t)
    csv_log.write(args.output, JointLog(tuple(chain.joint_names), t, q, qd, None))
    out.write(f'{chain.name or "the model"}: {len(poses)} line{"s" if len(poses) > 1 else ""}, '
              f'{len(path.q) - 1} steps, {100.0 * path.fraction:.1f} % done, '
              f'{trajectory.duration:.3f} s\n')
    out.write(f'wrote {args.output} ({len(t)} rows at {args.rate:g} Hz)\n')
    if args.plot:
        _plot(chain, path, q0, poses, t, q, args.plot)
        out.write(f'wrote {args.plot}\n')
    if not path.complete:
        sys.stderr.write(f'{PROG} path: stopped at {100.0 * path.fraction:.1f} % of the path '
                         f'({path.stop}): {path.reason}\n')
        return 1
    return 0


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _pose(values, degrees, option):
    """Return the pose (4, 4) of X Y Z ROLL PITCH YAW (m; rad, or deg with --deg)."""
    xyz, rpy = np.array(values[:3]), np.array(values[3:])
    if degrees:
        rpy = np.radians(rpy)
    for what, numbers, bound, unit in (('position', xyz, bounds.LENGTH_MAX, 'm'),
                                       ('angles', rpy, bounds.ANGLE_MAX, 'rad')):
        if not (np.isfinite(numbers).all() and (np.abs(numbers) <= bound).all()):
            raise ValueError(f'{option}: the {what} must be within +-{bound:g} {unit}, got '
                             f'{" ".join(map(str, values))}')
    return xyz_rpy_to_transform(xyz, rpy)


def _per_joint(values, n, option):
    """Return one value per joint (one given for all), or None where none was given."""
    if values is None:
        return None
    if len(values) not in (1, n):
        raise ValueError(f'{option}: 1 or {n} values expected, got {len(values)}')
    return np.broadcast_to(np.array(values, dtype=float), (n,))


def _plot(chain, path, q0, poses, t, q, output):
    """Draw the tool's path against the lines (3D) and each joint against time."""
    from dh_kinematics.cli.plot import pyplot, save_png
    plt = pyplot('path --plot')
    figure = plt.figure(figsize=(11, 4.5))
    axes = figure.add_subplot(1, 2, 1, projection='3d')
    corners = np.vstack([chain.fkine(q0)[:3, 3], poses[:, :3, 3]])
    axes.plot(*corners.T, 'o--', color='0.6', label='the lines')
    tool = chain.fkine(q)[:, :3, 3]
    axes.plot(*tool.T, color='tab:blue', label="the tool's path")
    axes.set_xlabel('x (m)')
    axes.set_ylabel('y (m)')
    axes.set_zlabel('z (m)')
    axes.legend(loc='upper left', fontsize='small')
    title = 'whole' if path.complete else f'{100.0 * path.fraction:.0f} %: {path.stop}'
    axes.set_title(f'{chain.name or "the arm"}: {title}')
    joints = figure.add_subplot(1, 2, 2)
    for k, name in enumerate(chain.joint_names):
        joints.plot(t, q[:, k], label=name)
    joints.set_xlabel('time (s)')
    joints.set_ylabel('joint value (rad or m)')
    joints.legend(fontsize='x-small', ncol=2)
    figure.tight_layout()
    save_png(plt, figure, output, 100, '--plot')
