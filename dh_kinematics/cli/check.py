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
``dh_kinematics check``: a model file read exactly as the node reads it, OK or one line.

Then what it holds: the limits, and the pairs of links the self-collision check would find
near in most configurations (:func:`core.safety.near_pairs.near_pairs`), as the
``safety.self_collision.ignore`` to set.
"""

from dh_kinematics.cli.models import extra_line, limits_line, load, self_collision_pairs
from dh_kinematics.core import meshes


def add_parser(commands):
    """Add the ``check`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('check', help='validate a model exactly as the node will')
    command.add_argument('file', nargs='+', help='the model file, and any more parameter files '
                         "(a joint_limits.yaml) merged in order, as the node's --params-file")
    command.add_argument('--strict', action='store_true', help='exit 1 on any warning too')
    return command


def run(args, out):
    """
    Validate a model file as the node will; print its warnings and a one-line summary.

    With ``--strict``, any warning is an error (exit code 1), after the same output.
    """
    chain, warnings, given = load(args.file)
    warnings += [f'{field}: {uri}: {reason}' for field, uri, reason
                 in meshes.missing_files(chain.meshes)]
    for line in warnings:
        out.write(f'warning: {line}\n')
    kinds = ''.join(link.RP for link in chain.links)
    convention = 'modified' if chain.mdh else 'standard'
    verdict = 'OK'
    if warnings:
        verdict = 'refused by --strict' if args.strict else 'OK with warnings'
    files = ', '.join(args.file)
    out.write(f'{files}: {verdict}: {chain.name or "arm"}, {chain.n} joints ({kinds}, '
              f'{convention} DH), frames {chain.world_frame} -> {chain.base_frame} .. '
              f'{chain.tool_frame}{extra_line(chain)}\n')
    out.write(limits_line(chain) + '\n')
    out.write(self_collision_line(chain, given) + '\n')
    if warnings and args.strict:
        raise ValueError(f'--strict: {len(warnings)} warning{"s" if len(warnings) > 1 else ""}'
                         ' (above, on stdout)')
    return 0


def self_collision_line(chain, given):
    """Return the line proposing ``safety.self_collision.ignore`` for the settings ``given``."""
    capsules, ignored, near = self_collision_pairs(chain, given)
    judged = 'judged' if given.get('safety.self_collision.enabled') else (
        'to judge once safety.self_collision.enabled is true')
    judged = (f'self-collision: {len(capsules.links)} capsules, {len(capsules.pairs)} pairs '
              f'{judged} ({len(ignored)} ignored)')
    if not near:
        return f'{judged}; no other pair near in most configurations'
    pairs = ', '.join(repr(pair) for pair in ignored + near)
    return (f'{judged}; {len(near)} near in most configurations: set '
            f'safety.self_collision.ignore: [{pairs}]')
