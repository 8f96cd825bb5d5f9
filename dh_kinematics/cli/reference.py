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
Reference tables in Markdown, generated from the code that defines what they describe.

The node's and sim_arm's parameters come from their specs
(:mod:`dh_kinematics.parameters.specs`), the command line's options from its argparse
parsers (:func:`dh_kinematics.cli.main.parsers`), so the documentation cannot drift from them.
``python -m dh_kinematics.cli.reference FOLDER`` writes ``parameters.md`` and ``cli.md`` there;
the docs build (``doc/conf.py``) calls :func:`write`.
"""

import argparse
import math
import pathlib
import sys

from dh_kinematics.cli.main import parsers, PROG
from dh_kinematics.core import files
from dh_kinematics.core.model_file.params import RCLPY_SETTINGS
from dh_kinematics.parameters.specs import (
    FRAME, HUGE, JOINT, MESH, MODEL, named_setting_specs, NODE, SIM_ARM)

JOINT_PLACEHOLDER = '<joint>'
FRAME_PLACEHOLDER = '<frame>'
"""How the tables name a joint block: ``<joint>.qlim`` is ``panda_joint1.qlim`` and so on."""


def _cell(text):
    return str(text).replace('|', '\\|').replace('\n', ' ')


def _value(value):
    if value is None:
        return ''
    if isinstance(value, bool):
        return f'`{str(value).lower()}`'
    if isinstance(value, (list, tuple)):
        return '`[' + ', '.join(_number(item) for item in value) + ']`'
    if isinstance(value, str):
        return f"`'{value}'`"
    return f'`{_number(value)}`'


def _number(value):
    if isinstance(value, float) and math.isinf(value):
        return '.inf' if value > 0 else '-.inf'
    return f'{value:g}' if isinstance(value, float) else str(value)


def _range(spec):
    if spec.limit:
        return '> 0, or .inf (off)'
    if spec.minimum is None and spec.maximum is None:
        return ''
    if spec.maximum in (None, HUGE):
        return f'>= {_number(spec.minimum)}'
    return f'{_number(spec.minimum)} to {_number(spec.maximum)}'


def parameter_rows(specs, prefix=''):
    """Return (name, type, default, range, description) for each spec, name in backticks."""
    return [(f'`{prefix}{spec.name}`', spec.kind + (' (read-only)' if spec.read_only else ''),
             _value(spec.default), _range(spec), spec.description) for spec in specs]


def parameter_names(joints, frames=(), meshes=()):
    """
    Return the names the node declares for a model (rclpy's own aside).

    ``joints`` are its joints, ``frames`` its extra frames, ``meshes`` its frames with meshes.
    """
    return ([spec.name for spec in MODEL + NODE]
            + [f'{joint}.{spec.name}' for joint in joints for spec in JOINT]
            + [f'frames.{frame}.{spec.name}' for frame in frames for spec in FRAME]
            + [f'meshes.{frame}.{spec.name}' for frame in meshes for spec in MESH])


def _table(header, rows):
    lines = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    lines += ['| ' + ' | '.join(_cell(cell) for cell in row) + ' |' for row in rows]
    return '\n'.join(lines)


def parameters_markdown():
    """Return the Markdown reference of the node's and sim_arm's parameters."""
    header = ('parameter', 'type', 'default', 'range', 'meaning')
    rclpy = ', '.join(f'`{name}`' for name in RCLPY_SETTINGS)
    return '\n\n'.join([
        '# Parameter reference',
        'Generated from `dh_kinematics/parameters/specs.py`, the specs the node declares '
        'its parameters from. Lengths in m, angles in rad, masses in kg, times in s. A model '
        "field without a default takes the core's (an unset `qlim` is no limit). rclpy adds "
        f'{rclpy} and `qos_overrides.*`.',
        '## The model', _table(header, parameter_rows(MODEL)),
        f'## One block per joint (`{JOINT_PLACEHOLDER}` is each name in `joints`)',
        _table(header, parameter_rows(JOINT, JOINT_PLACEHOLDER + '.')),
        '## One block per extra frame (`<frame>` is its name; optional)',
        _table(header, parameter_rows(FRAME, f'frames.{FRAME_PLACEHOLDER}.')),
        '## One block per frame with meshes (`<frame>`: the base, a link, the tool or an extra '
        'frame; optional)',
        _table(header, parameter_rows(MESH, f'meshes.{FRAME_PLACEHOLDER}.')),
        '## Settings of dh_kinematics_node', _table(header, parameter_rows(NODE)),
        '## Safety settings named by the user (`<frame>`: a frame of the arm; `<plane>`: a '
        "plane's name; optional)", _table(header, parameter_rows(named_setting_specs(
            {'safety.frame_speed_limits.' + FRAME_PLACEHOLDER: None,
             'safety.planes.<plane>': None}))),
        '## Settings of sim_arm (the same file may hold them)',
        _table(header, parameter_rows(SIM_ARM))]) + '\n'


def _argument(action):
    metavar = action.metavar or action.dest.upper()
    if not action.option_strings:
        return f'`{metavar}`' + (' ...' if action.nargs in ('*', '+') else '')
    value = f' {metavar}' if action.nargs != 0 else ''
    return ', '.join(f'`{option}{value}`' for option in action.option_strings)


def _required(action):
    if action.option_strings:
        return action.required
    return action.nargs not in ('*', '?')


def _default(action):
    if action.default in (None, False, '', argparse.SUPPRESS) or action.nargs == '*':
        return ''
    return _value(action.default)


def cli_markdown():
    """Return the Markdown reference of the ``dh_kinematics`` command, a table per command."""
    top, commands = parsers()
    sections = [
        '# Command-line reference',
        f'Generated from the argparse parsers of `{PROG}` (`dh_kinematics/cli/main.py`). '
        'Exit codes: 0 done, 1 bad input (one line on stderr), 2 a command line that cannot '
        'be read. Options and values may come in any order.',
        top.description]
    header = ('argument', 'required', 'default', 'choices', 'meaning')
    for name, command in commands.items():
        rows = [(_argument(action), 'yes' if _required(action) else '', _default(action),
                 ', '.join(map(str, action.choices or ())), action.help or '')
                for action in command._actions if not isinstance(action, argparse._HelpAction)]
        sections += [f'## `{PROG} {name}`', _table(header, rows)]
    return '\n\n'.join(sections) + '\n'


def write(folder):
    """Write parameters.md and cli.md into ``folder`` (when changed); return their paths."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in (('parameters.md', parameters_markdown()), ('cli.md', cli_markdown())):
        path = folder / name
        if not path.exists() or path.read_text(encoding='utf-8') != text:
            files.write_text(path, text)
        paths.append(path)
    return paths


if __name__ == '__main__':
    for written in write(sys.argv[1] if len(sys.argv) > 1 else '.'):
        print(written)
