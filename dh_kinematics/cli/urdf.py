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

"""``dh_kinematics urdf``: the model's URDF, as the node publishes it, or a xacro macro."""

from dh_kinematics.cli import arguments
from dh_kinematics.cli.models import configuration, load, write
from dh_kinematics.core.urdf import ros2_control


def add_parser(commands):
    """Add the ``urdf`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('urdf', help="the model's URDF, or a xacro macro of it")
    command.add_argument('file', help=arguments.MODEL_FILE)
    command.add_argument('-o', '--output', help='write it here instead of printing it')
    group = command.add_mutually_exclusive_group()
    group.add_argument('--prefix', default='', help='frame_prefix for the link names')
    group.add_argument('--xacro', action='store_true', help='a xacro macro with prefix and '
                       'parent parameters, to put the arm into a larger description')
    command.add_argument('--ros2-control', nargs='?', const='mock', metavar='PLUGIN',
                         help="add a <ros2_control> block for this hardware plugin: 'mock' "
                         '(mock_components/GenericSystem, the default) or package/Class')
    command.add_argument('--initial', metavar='NAME', help='with --ros2-control: the named '
                         'configuration the joints start at (configurations.<name>; each '
                         'joint 0 within its limits by default)')
    return command


def run(args, out):
    """Write the model's URDF (or with --xacro its macro) to -o, or print it."""
    chain, _, given = load(args.file)
    control = None
    if args.ros2_control is not None:
        plugin = ros2_control.check_plugin(args.ros2_control, '--ros2-control')
        initial = (None if args.initial is None else
                   configuration(chain, given, (), args.initial, False, name_field='--initial'))
        control = ros2_control.hardware(chain, plugin, initial, '--initial')
    elif args.initial is not None:
        raise ValueError('--initial: only with --ros2-control')
    text = chain.to_urdf(args.prefix, xacro=args.xacro, control=control)
    if args.output is None:
        out.write(text)
    else:
        write(args.output, text, 'xacro macro' if args.xacro else 'URDF')
        out.write(f'wrote {args.output}\n')
    return 0
