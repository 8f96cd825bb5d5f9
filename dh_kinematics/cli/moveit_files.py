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
``dh_kinematics moveit``: the URDF, SRDF and MoveIt's configuration files of a model.

The files: the URDF, the SRDF, ``joint_limits.yaml``, ``kinematics.yaml`` and
``pilz_cartesian_limits.yaml``, which ``moveit_configs_utils`` loads by default.

What each file holds: :mod:`core.urdf.moveit`. The collision pairs MoveIt may skip are the
adjacent ones, those the node's self-collision check ignores (``safety.self_collision.ignore``
and what ``check`` proposes), and those that never (or always) collide over ``--samples``
configurations drawn within the limits (:mod:`cli.collisions`, pinocchio); the acceleration
limits are derived over at least ``ACCELERATION_SAMPLES`` configurations of the same draw.
"""

import os

from dh_kinematics.cli import arguments, collisions
from dh_kinematics.cli.models import load, self_collision_pairs, write
from dh_kinematics.core.model_file import params
from dh_kinematics.core.urdf import moveit
import numpy as np

ACCELERATION_SAMPLES = 1000
"""The fewest configurations the acceleration limits are derived over."""


def disabled_pairs(chain, urdf_text, configurations, ignored=()):
    """
    Return the collision pairs to disable, as (link1, link2, reason), and the counts by reason.

    Adjacent pairs (:func:`core.urdf.moveit.adjacent_pairs`); the pairs the node's
    self-collision check ignores (``ignored``: two URDF link names each; ``User``, unless
    disabled already); then, over ``configurations`` (none: adjacent only), the pairs that
    never collide (``Never``) and those that always do (``Always``, which MoveIt could not plan
    with otherwise).
    """
    links, joints, geometry = moveit.collision_links(urdf_text)
    adjacent = moveit.adjacent_pairs(links, joints, geometry)
    reasons = dict.fromkeys(adjacent, 'Adjacent')
    for pair in map(frozenset, ignored):
        reasons.setdefault(pair, 'User')
    if len(configurations):
        counts = collisions.collision_counts(urdf_text, chain.joint_names, configurations)
        for pair, count in counts.items():
            if pair not in reasons and count in (0, len(configurations)):
                reasons[pair] = 'Never' if count == 0 else 'Always'
    order = {link: i for i, link in enumerate(links)}
    disabled = sorted((tuple(sorted(pair, key=order.get)) + (reason,)
                       for pair, reason in reasons.items()), key=lambda row: (
                           order[row[0]], order[row[1]]))
    tally = {reason: sum(1 for row in disabled if row[2] == reason)
             for reason in ('Adjacent', 'User', 'Never', 'Always')}
    return disabled, tally


def add_parser(commands):
    """Add the ``moveit`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('moveit', help='the URDF, SRDF, joint_limits.yaml and '
                                  'kinematics.yaml a MoveIt config package needs')
    command.add_argument('file', nargs='+', help='the model file, and any more parameter files '
                         'merged in order, as for check')
    command.add_argument('-o', '--output', required=True, help='the folder to write them in')
    command.add_argument('--group', default='arm', help='the planning group (default: arm)')
    command.add_argument('--prefix', default='', help='frame_prefix for the link names')
    command.add_argument('--samples', type=arguments.samples, default=2000, help='configurations '
                         'sampled for the collision pairs (pinocchio; 0: adjacent pairs only; '
                         f'at most {arguments.MAX_SAMPLES})')
    command.add_argument('--seed', type=int, default=0, help='seed of the sampling')
    return command


def run(args, out):
    """Write the MoveIt files of a model into ``args.output``; print what they hold."""
    chain, _, given = load(args.file)
    if args.samples < 0:
        raise ValueError(f'--samples: must be 0 or more, got {args.samples}')
    moveit.check_group(args.group)  # before the folder is made
    states = params.configurations(given, chain.n)
    rng = np.random.default_rng(args.seed)
    count = max(args.samples, ACCELERATION_SAMPLES)
    configurations = chain.random_q(count, rng)
    urdf_text = chain.to_urdf(args.prefix)
    _, ignored, near = self_collision_pairs(chain, given)
    disabled, tally = disabled_pairs(chain, urdf_text, configurations[:args.samples], [
        [args.prefix + link for link in pair.split()] for pair in ignored + near])
    accelerations = moveit.acceleration_limits(chain, configurations)
    robot = moveit.file_stem(chain)
    files = {f'{robot}.urdf': urdf_text,
             f'{robot}.srdf': moveit.srdf(chain, states, disabled, args.group, args.prefix),
             'joint_limits.yaml': moveit.joint_limits_yaml(chain, accelerations, count,
                                                           args.seed,
                                                           os.path.basename(args.file[0])),
             'kinematics.yaml': moveit.kinematics_yaml(args.group),
             'pilz_cartesian_limits.yaml': moveit.pilz_cartesian_limits_yaml()}
    for name in files:  # a file the folder would get is one of the model's files: none written
        arguments.refuse_input(os.path.join(args.output, name), '-o', args)
    try:
        os.makedirs(args.output, exist_ok=True)
    except OSError as error:
        raise ValueError(f'{args.output}: cannot make the folder: {error.strerror}') from None
    for name, text in files.items():
        write(os.path.join(args.output, name), text, name)
    out.write(f'wrote {", ".join(files)} in {args.output}\n')
    out.write(f'group {args.group}: {args.prefix}{chain.base_frame} -> {args.prefix}'
              f'{chain.tool_frame}, {chain.n} joints; states: {", ".join(states) or "none"}\n')
    out.write(f'disabled collision pairs: {tally["Adjacent"]} adjacent, {tally["User"]} the '
              f'self-collision check ignores, {tally["Never"]} never and {tally["Always"]} '
              f'always in collision over {args.samples} configurations\n')
    sources = {'model': 0, 'derived': 0, 'default': 0}
    for link, derived in zip(chain.links, accelerations):
        sources[moveit.planning_limits(link, derived)[1].source] += 1
    out.write(f'acceleration limits: {sources["model"]} from the model, {sources["derived"]} '
              f'derived from the effort limits over {count} configurations, '
              f'{sources["default"]} the default (see the comments)\n')
    return 0
