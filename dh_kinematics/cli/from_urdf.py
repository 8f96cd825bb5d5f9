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
``dh_kinematics from-urdf``: the chain between two links of a URDF as a model file.

The URDF comes from a file or, with ``--topic``, from a running robot_state_publisher. The model
file (:mod:`core.urdf_import`) starts with a comment that says where it came from and every
note of the import, which the command also prints, with the largest difference between the
model and the URDF over the configurations it compared.
"""

from dh_kinematics.cli import models
from dh_kinematics.core import escaping, files
from dh_kinematics.core import urdf_import as importer
from dh_kinematics.core.kinematics.dh_fit import PARALLEL_TOLERANCE
from dh_kinematics.core.urdf import reader

PROG = 'dh_kinematics'
CLOSE = 1e-9
"""A model farther than this from its URDF (m or rad) is reported as a warning."""


def _source(args, out):
    if (args.urdf is None) == (args.topic is None):
        raise ValueError('give a URDF file or --topic, not both and not neither')
    if args.topic is None:
        return files.read_text(args.urdf, 'URDF', reader.MAX_CHARS), args.urdf
    from dh_kinematics.cli.description_topic import robot_description

    return robot_description(args.topic, args.timeout, out), f'topic {args.topic}'


def add_parser(commands):
    """Add the ``from-urdf`` command to ``commands`` (argparse's subparsers); return its parser."""
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
    return command


def run(args, out):
    """Import the chain, write the model file and say what was chosen and what not held."""
    text, source = _source(args, out)
    keep = args.keep_frames or ()
    try:
        result = importer.from_urdf(text, args.base, args.tip, args.convention, keep,
                                    args.parallel_tolerance, args.name, not args.plain_dh)
    except ValueError as error:
        raise ValueError(f'{source}: {error}') from None
    chain = result.chain
    difference = (f'largest difference from the URDF over {importer.SAMPLES} configurations: '
                  f'{result.position_error:.2g} m, {result.orientation_error:.2g} rad')
    header = [f'Imported by `{PROG} from-urdf` from {source}: the chain from {args.base} to '
              f'{args.tip}, {args.convention} DH.'] + [f'note: {note}' for note in result.notes]
    header.append(difference)
    models.write(args.output, ''.join(escaping.yaml_comment(line) + '\n'
                                      for line in header) + chain.to_yaml(), 'model file')
    kept = f', frames {", ".join(frame.name for frame in chain.frames)}' if chain.frames else ''
    out.write(f'wrote {args.output}: {chain.n} joints ({chain.links[0].convention} DH) '
              f'from {chain.world_frame} to {chain.tool_frame}{kept}\n')
    for note in result.notes:
        out.write(f'  note: {note}\n')
    far = max(result.position_error, result.orientation_error) > CLOSE
    out.write(f'  {"warning: " if far else ""}{difference}\n')
    out.write(f'check it with: {PROG} check {args.output}\n')
    return 0
