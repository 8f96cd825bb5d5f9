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

"""``dh_kinematics show``: the DH table as the toolbox prints it, and the dynamics."""

from dh_kinematics.cli import arguments
from dh_kinematics.cli.models import load
from dh_kinematics.core import display


def add_parser(commands):
    """Add the ``show`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('show', help='print the DH table as the toolbox does')
    command.add_argument('file', help=arguments.MODEL_FILE)
    command.add_argument('--deg', action='store_true', help='angles in degrees')
    command.add_argument('--dyn', action='store_true', help="each link's dynamics too")
    arguments.precision_argument(command, 6, 'the dynamics')
    return command


def run(args, out):
    """Print the DH table as the toolbox prints it; with --dyn, each link's dynamics."""
    chain = load(args.file)[0]
    out.write(display.chain_table(chain, args.deg) + '\n')
    if args.dyn:
        for name, link in zip(chain.joint_names, chain.links):
            out.write(f'\n{name}:\n{display.link_dynamics(link, args.precision)}\n')
    return 0
