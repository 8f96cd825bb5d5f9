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
    dh_kinematics path FILE [FILE ...] --from Q ... --to X Y Z R P Y [--via ...] -o TRAJ.csv
    dh_kinematics urdf FILE [-o OUT] [--prefix P | --xacro]
    dh_kinematics moveit FILE [FILE ...] -o DIR [--group G] [--samples N] [--seed S]
    dh_kinematics convert TABLE --order corke|scilab|matlab -o OUT.yaml [...]
    dh_kinematics convert FILE --to standard|modified -o OUT.yaml
    dh_kinematics from-urdf URDF|--topic T --base LINK --tip LINK -o OUT.yaml [...]
    dh_kinematics calibrate FILE DATA.csv -o OUT.yaml [--validate DATA2] [...]
    dh_kinematics identify FILE LOG [LOG ...] -o OUT.yaml [--report DIR] [--holdout F] [...]
    dh_kinematics tune-contact FILE [FILE ...] LOG [LOG ...] -o OUT.yaml [--report DIR] [...]
    dh_kinematics excite FILE -o TRAJ.csv [--period S] [--duration S] [--rate HZ]
    dh_kinematics plot FILE [Q ...] -o ARM.png [--limits] [--size WxH]
    dh_kinematics monitor [--namespace NS]
    dh_kinematics record -o LOG.csv [--topic T] [--duration S] [--count N]
    dh_kinematics view FILE [FILE ...] [--port P] [--host H] [--deg] | --follow [NS]

Exit codes: 0 done, 1 bad input, (ik) no solution or (path) a path stopped short (one line
on stderr), 2 a bad command line.
"""

import argparse
import sys

from dh_kinematics.cli import (
    calibrate, check, convert, excite, fk, from_urdf, health, identify, ik, monitor,
    moveit_files, path, plot, record, replay, show, tune_contact, urdf, view)
from dh_kinematics.cli.arguments import check_outputs, PROG

COMMANDS = (check, show, fk, ik, path, urdf, moveit_files, from_urdf, convert, calibrate,
            identify, tune_contact, excite, plot, monitor, record, replay, health, view)
"""The command modules, in the order of the help: each has ``add_parser`` and ``run``."""


def parsers():
    """Return the top parser and each subcommand's, by name."""
    top = argparse.ArgumentParser(prog=PROG, description='Check, show and use a DH model file '
                                  '(a ROS 2 parameter file) before it meets hardware.')
    commands = top.add_subparsers(dest='command', required=True, metavar='COMMAND')
    for module in COMMANDS:
        module.add_parser(commands).set_defaults(run=module.run)
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


def main(argv=None, out=None):
    """Run one subcommand; return the exit code."""
    args = parse(argv)
    try:
        check_outputs(args)
        return args.run(args, out or sys.stdout)
    except BrokenPipeError:  # the reader left: the executable's to end quietly (cli.entry)
        raise
    except ValueError as error:  # InvalidFieldError included
        sys.stderr.write(f'{PROG} {args.command}: error: {error}\n')
    except OSError as error:  # one the command did not name itself
        sys.stderr.write(f'{PROG} {args.command}: error: {error.filename or ""}: '
                         f'{error.strerror or error}\n')
    return 1


if __name__ == '__main__':
    from dh_kinematics.cli.entry import run

    run()
