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
The ``dh_kinematics`` command line: one entry point, a subcommand per task.

    dh_kinematics check FILE [FILE ...] [--strict]   validate a model as the node will
    dh_kinematics show FILE [--deg] [--dyn] [--precision N]
    dh_kinematics fk FILE [Q ...] [--q-name NAME] [--deg] [--jacobian] [--precision N]
    dh_kinematics ik FILE --xyz X Y Z [--rpy R P Y] [--q0 Q ...] [--all] [--mask W ...]
    dh_kinematics urdf FILE [-o OUT] [--prefix P | --xacro]
    dh_kinematics moveit FILE [FILE ...] -o DIR [--group G] [--samples N] [--seed S]
    dh_kinematics convert TABLE --order corke|scilab|matlab -o OUT.yaml [...]
    dh_kinematics convert FILE --to standard|modified -o OUT.yaml
    dh_kinematics from-urdf URDF|--topic T --base LINK --tip LINK -o OUT.yaml [...]
    dh_kinematics calibrate FILE DATA.csv -o OUT.yaml [--validate DATA2] [...]
    dh_kinematics plot FILE [Q ...] -o ARM.png [--limits] [--size WxH]
    dh_kinematics monitor [--namespace NS]

Exit codes: 0 done, 1 bad input or (ik) no solution (one line on stderr), 2 a bad command
line.
"""

import argparse
import sys
import warnings

from dh_kinematics.cli import calibrate, convert, from_urdf, ik, models, moveit_files
from dh_kinematics.core.calibration import fit
from dh_kinematics.core.kinematics.dh_fit import PARALLEL_TOLERANCE
from dh_kinematics.core.model_file.legacy_rows import (
    CORKE_LAYOUT, MATLAB_LAYOUT, PlaceholderWarning, SCILAB_LAYOUT)

PROG = 'dh_kinematics'
MODEL_FILE = 'the model file (a ROS 2 parameter file)'


def _size(text):
    try:
        width, height = (int(part) for part in text.lower().split('x'))
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r}: give WIDTHxHEIGHT in pixels, e.g. '
                                         '800x600') from None
    if not (16 <= width <= 8000 and 16 <= height <= 8000):
        raise argparse.ArgumentTypeError(f'{text!r}: 16 to 8000 pixels each way')
    return width, height


MAX_SAMPLES = 100_000
"""The most configurations ``moveit --samples`` draws (1 MB of them for 7 joints)."""


def _samples(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f'{text!r}: 0 to {MAX_SAMPLES} configurations')
    return value


def _period(text):
    value = float(text)
    if not 0.01 <= value <= 60.0:
        raise argparse.ArgumentTypeError(f'{text}: a refresh period of 0.01 to 60 s')
    return value


def _precision(text):
    if text == 'full':
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 17:
        raise argparse.ArgumentTypeError(f'{text!r}: 1 to 17 significant digits, or full')
    return value


def _precision_argument(parser, default, what):
    parser.add_argument('--precision', type=_precision, default=default, metavar='N',
                        help=f'significant digits of {what}: 1 to 17, or full (the shortest '
                        f'text that reads back as the same double); default {default}')


def _configuration_arguments(parser):
    parser.add_argument('q', nargs='*', metavar='Q', help='joint values, rad or m (deg with '
                        '--deg); all 0 when none is given')
    parser.add_argument('--q-name', help='a named configuration of the file '
                        '(configurations.<name>)')
    parser.add_argument('--deg', action='store_true', help='revolute joint values and '
                        'printed angles in degrees')


def parser():
    """Return the argument parser of every subcommand."""
    return parsers()[0]


def parsers():
    """Return the top parser and each subcommand's, by name."""
    top = argparse.ArgumentParser(prog=PROG, description='Check, show and use a DH model file '
                                  '(a ROS 2 parameter file) before it meets hardware.')
    commands = top.add_subparsers(dest='command', required=True, metavar='COMMAND')

    command = commands.add_parser('check', help='validate a model exactly as the node will')
    command.add_argument('file', nargs='+', help='the model file, and any more parameter files '
                         "(a joint_limits.yaml) merged in order, as the node's --params-file")
    command.add_argument('--strict', action='store_true', help='exit 1 on any warning too')

    command = commands.add_parser('show', help='print the DH table as the toolbox does')
    command.add_argument('file', help=MODEL_FILE)
    command.add_argument('--deg', action='store_true', help='angles in degrees')
    command.add_argument('--dyn', action='store_true', help="each link's dynamics too")
    _precision_argument(command, 6, 'the dynamics')

    command = commands.add_parser('fk', help="each frame's pose in the world at a "
                                  'configuration, the tool last')
    command.add_argument('file', help=MODEL_FILE)
    _configuration_arguments(command)
    command.add_argument('--jacobian', action='store_true', help='the tool Jacobian too')
    _precision_argument(command, 6, 'every number')

    command = commands.add_parser('ik', help='the joint values that put the tool at a pose, '
                                  'within the limits')
    command.add_argument('file', help=MODEL_FILE)
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
    command.add_argument('--method', choices=('auto', 'analytic', 'numerical'),
                         default='auto', help='closed form where the arm has one (auto), '
                         'insist on it, or search numerically')
    command.add_argument('--deg', action='store_true', help='--rpy, --q0 and the printed '
                         'revolute joint values in degrees')

    command = commands.add_parser('urdf', help="the model's URDF, or a xacro macro of it")
    command.add_argument('file', help=MODEL_FILE)
    command.add_argument('-o', '--output', help='write it here instead of printing it')
    group = command.add_mutually_exclusive_group()
    group.add_argument('--prefix', default='', help='frame_prefix for the link names')
    group.add_argument('--xacro', action='store_true', help='a xacro macro with prefix and '
                       'parent parameters, to put the arm into a larger description')

    command = commands.add_parser('moveit', help='the URDF, SRDF, joint_limits.yaml and '
                                  'kinematics.yaml a MoveIt config package needs')
    command.add_argument('file', nargs='+', help='the model file, and any more parameter files '
                         'merged in order, as for check')
    command.add_argument('-o', '--output', required=True, help='the folder to write them in')
    command.add_argument('--group', default='arm', help='the planning group (default: arm)')
    command.add_argument('--prefix', default='', help='frame_prefix for the link names')
    command.add_argument('--samples', type=_samples, default=2000, help='configurations '
                         'sampled for the collision pairs (pinocchio; 0: adjacent pairs only; '
                         f'at most {MAX_SAMPLES})')
    command.add_argument('--seed', type=int, default=0, help='seed of the sampling')

    command = commands.add_parser('from-urdf', help='the chain between two links of a URDF '
                                  'as a model file')
    command.add_argument('urdf', nargs='?', help='the URDF file (or --topic)')
    command.add_argument('--topic', help='read the URDF from this topic instead, as '
                         'robot_state_publisher publishes it (e.g. /robot_description)')
    command.add_argument('--timeout', type=float, default=5.0, help='how long to wait for '
                         'the topic, s (default: 5)')
    command.add_argument('--base', required=True, help='the link the chain starts from: the '
                         "model's world frame")
    command.add_argument('--tip', required=True, help="the link it ends at: the model's tool "
                         'frame')
    command.add_argument('--convention', default='standard', choices=('standard', 'modified'))
    command.add_argument('--keep-frames', nargs='+', metavar='LINK', help='URDF links to '
                         'publish under their own names, as extra frames; all: every link '
                         'of the chain')
    command.add_argument('--plain-dh', action='store_true', help='no Hayati beta: nearly '
                         'parallel axes are taken as parallel within --parallel-tolerance, '
                         'else refused')
    command.add_argument('--parallel-tolerance', type=float, default=PARALLEL_TOLERANCE,
                         metavar='RAD', help='with --plain-dh: joint axes closer than this to '
                         f'parallel are taken as parallel (default: {PARALLEL_TOLERANCE:g})')
    command.add_argument('--name', help="the robot name (default: the URDF's)")
    command.add_argument('-o', '--output', required=True, help='the model file to write')

    command = commands.add_parser('convert', help="a DH table in a toolbox's order, or a model "
                                  'in the other DH convention, to a model file')
    command.add_argument('table', help='a CSV file, or a matrix literal "[r1; r2; ...]"; with '
                         '--to, a model file')
    command.add_argument('--to', choices=('standard', 'modified'), help='re-express the model '
                         'file TABLE in this DH convention (same frames at the joints, same '
                         'dynamics)')
    command.add_argument('--order', choices=convert.ORDERS, help=(
        f'corke: {CORKE_LAYOUT}; scilab: {SCILAB_LAYOUT}; dyn: the legacy DYN matrix of '
        f'Corke (the Scilab dyn row, 16 to 20 columns); matlab: {MATLAB_LAYOUT}. A value in the '
        "joint variable's place is ignored, as the toolboxes do, with a warning. A CSV header "
        f'may name more columns: {", ".join(convert.EXTRA_COLUMNS)}'))
    command.add_argument('--convention', default='standard', choices=('standard', 'modified'))
    command.add_argument('--deg', action='store_true', help='angle columns (and revolute '
                         'limits) in degrees')
    command.add_argument('--joint-names', help='comma-separated joint names (joint1... by '
                         'default)')
    command.add_argument('--prismatic', default='', help='MATLAB order: comma-separated '
                         '1-based indices of prismatic joints')
    command.add_argument('--name', default='', help='robot name')
    command.add_argument('-o', '--output', required=True, help='the model file to write')

    command = commands.add_parser('calibrate', help='a calibrated model from measurements of '
                                  'a point on the tool (a laser tracker)')
    command.add_argument('model', help=MODEL_FILE)
    command.add_argument('data', help='CSV: a header of the joint names and x, y, z (m; and qx, '
                         'qy, qz, qw), a row per measurement')
    command.add_argument('-o', '--output', required=True, help='the calibrated model file')
    command.add_argument('--base-known', action='store_true', help='the measurement frame is '
                         "the model's world frame: do not estimate the base")
    command.add_argument('--free', nargs='+', metavar='PATTERN', help='estimate only these '
                         'parameters (fnmatch patterns: base.*, *.offset, elbow_joint.a)')
    command.add_argument('--fixed', nargs='+', metavar='PATTERN', help='hold these at nominal')
    command.add_argument('--validate', metavar='DATA2', help='measurements not used in the '
                         'fit, to report the residuals on')
    command.add_argument('--report', metavar='DIR', help='write residuals.png, corrections.png '
                         'and parameters.csv here (matplotlib)')
    command.add_argument('--noise', type=float, help="the measurements' standard deviation "
                         "per coordinate, m (the instrument's and the arm's repeatability); "
                         'the fit fails beyond 3 times it (default: estimated from the fit)')
    command.add_argument('--orientation-weight', type=float,
                         default=fit.ORIENTATION_WEIGHT, help='m per rad of '
                         'orientation residual (default: %(default)g)')

    command = commands.add_parser('plot', help='a 3-D picture of the arm (PNG; matplotlib)')
    command.add_argument('file', help=MODEL_FILE)
    _configuration_arguments(command)
    command.add_argument('-o', '--output', required=True, help='the PNG to write')
    command.add_argument('--limits', action='store_true', help="draw each joint's range")
    command.add_argument('--size', type=_size, default=(800, 600), help='WIDTHxHEIGHT pixels')

    command = commands.add_parser('monitor', help='live joint positions, margins and levels '
                                  'of a running node (ROS)')
    command.add_argument('--namespace', default='', help="the node's namespace")
    command.add_argument('--node', default='dh_kinematics', help="the node's name")
    command.add_argument('--period', type=_period, default=0.5, help='refresh period, s')
    command.add_argument('--count', type=int, default=0, help='stop after this many '
                         'refreshes with data (0: until Ctrl-C)')
    return top, commands.choices


def parse(argv=None):
    """Parse a command line; joint values may come before or after the options (fk, plot)."""
    argv = sys.argv[1:] if argv is None else [str(arg) for arg in argv]
    top, commands = parsers()
    args, extra = top.parse_known_args(argv)
    if not extra:
        return args
    if args.command in ('fk', 'plot'):  # fk FILE --deg 0 90 ...: values last
        values = argv[argv.index(args.command) + 1:]
        return commands[args.command].parse_intermixed_args(
            values, argparse.Namespace(command=args.command))
    return top.parse_args(argv)  # argparse's own error for what is left over


def _convert(args, out):
    if args.to is not None:
        return _convert_model(args, out)
    if args.order is None:
        raise ValueError('--order is required for a table (or give --to for a model file)')
    names = [name.strip() for name in args.joint_names.split(',')] if args.joint_names else None
    try:
        prismatic = {int(index) for index in args.prismatic.split(',') if index.strip()}
    except ValueError:
        raise ValueError(f'--prismatic: {args.prismatic!r}: give 1-based indices, e.g. 3,5')
    header, rows = convert.read_table(args.table)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', PlaceholderWarning)
        chain = convert.chain_from_table(rows, args.order, args.convention, args.deg, names,
                                         prismatic, args.name, header)
    for note in caught:
        out.write(f'warning: {note.message}\n')
    models.write(args.output, chain.to_yaml(), 'model file')
    out.write(f'wrote {args.output}: {chain.n} joints; check it with: {PROG} check '
              f'{args.output}\n')
    return 0


def _convert_model(args, out):
    if args.order is not None:
        raise ValueError('--order is for a table; --to takes a model file')
    chain, _, given = models.load([args.table])
    converted = chain.to_modified() if args.to == 'modified' else chain.to_standard()
    models.write(args.output, models.model_file_text(converted, given),
                 'model file')
    out.write(f'wrote {args.output}: {converted.n} joints, {args.to} DH; check it with: '
              f'{PROG} check {args.output}\n')
    return 0


def _plot(args, out):
    from dh_kinematics.cli import plot

    chain, _, given = models.load(args.file)
    q = models.configuration(chain, given, args.q, args.q_name, args.deg)
    plot.plot(chain, q, args.output, args.size, args.limits)
    out.write(f'wrote {args.output} ({args.size[0]}x{args.size[1]})\n')
    return 0


def _monitor(args, out):
    from dh_kinematics.cli import monitor

    return monitor.monitor(args, out)


COMMANDS = {'check': models.check, 'show': models.show,
            'fk': models.fk, 'ik': ik.ik, 'urdf': models.urdf, 'convert': _convert,
            'moveit': moveit_files.moveit_files, 'from-urdf': from_urdf.from_urdf,
            'calibrate': calibrate.calibrate,
            'plot': _plot, 'monitor': _monitor}


def main(argv=None, out=None):
    """Run one subcommand; return the exit code."""
    args = parse(argv)
    try:
        return COMMANDS[args.command](args, out or sys.stdout)
    except ValueError as error:  # InvalidFieldError included
        sys.stderr.write(f'{PROG} {args.command}: error: {error}\n')
    except OSError as error:  # one the command did not name itself
        sys.stderr.write(f'{PROG} {args.command}: error: {error.filename or ""}: '
                         f'{error.strerror or error}\n')
    return 1


if __name__ == '__main__':
    from dh_kinematics.cli.entry import run

    run()
