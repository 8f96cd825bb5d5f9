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

"""``dh_kinematics fk``: each frame's pose at a configuration, the tool last."""

from dh_kinematics.cli import arguments
from dh_kinematics.cli.models import configuration, limit_notes, load
from dh_kinematics.core import display


def add_parser(commands):
    """Add the ``fk`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('fk', help="each frame's pose in the world at a "
                                  'configuration, the tool last')
    command.add_argument('file', help=arguments.MODEL_FILE)
    arguments.configuration_arguments(command)
    command.add_argument('--jacobian', action='store_true', help='the tool Jacobian too')
    arguments.precision_argument(command, 6, 'every number')
    return command


def run(args, out):
    """
    Print each frame's pose in the world (xyz, rpy), the tool last; --jacobian adds J.

    A joint beyond its limits gets a note after the poses (the poses are still printed).
    """
    chain, _, given = load(args.file)
    q = configuration(chain, given, args.q, args.q_name, args.deg)
    digits = args.precision
    names = (chain.base_frame,) + chain.link_frames
    for name, T in zip(names, chain.fkine_all(q)):
        out.write(display.transform_line(name, T, args.deg, digits) + '\n')
    out.write(display.transform_line(chain.tool_frame, chain.fkine(q), args.deg, digits) + '\n')
    if args.jacobian:
        out.write('jacobian (world frame; rows vx vy vz m/s, wx wy wz rad/s per unit rate):\n')
        width = 24 if digits is None else digits + 7
        for row in chain.jacob0(q):
            out.write('  ' + ' '.join(display.format_number(value, digits).rjust(width)
                                      for value in row) + '\n')
    for line in limit_notes(chain, q, args.deg, digits):
        out.write(f'note: {line}\n')
    return 0
