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

"""A model file for the commands: loaded as the node loads it, printed, written."""

import math

from dh_kinematics.core import display, files
from dh_kinematics.core.model_file import joint_limits, params
from dh_kinematics.core.safety.link_capsules import LinkCapsules
from dh_kinematics.core.safety.near_pairs import near_pairs
from dh_kinematics.parameters import rules
from dh_kinematics.parameters.files import read
from dh_kinematics.parameters.specs import NODE
from dh_kinematics.parameters.validation import notes
import numpy as np


def load(paths):
    """
    Read and check model files exactly as the node does; return (chain, warnings, values).

    :func:`parameters.files.read`: the files merged as rcl merges them for
    ``/dh_kinematics``, every parameter checked as a whole. ``paths`` is one path or a list.
    Raises ValueError with the node's message.
    """
    given, checked = read(paths)
    return checked.chain, notes(checked), given


def self_collision_pairs(chain, given):
    """
    Return the arm's capsules, the pairs of links ignored and those to propose, for ``given``.

    ``(LinkCapsules, ignored, near)``: ``near`` are the further pairs within
    ``safety.self_collision.warn_distance`` in most configurations
    (:func:`core.safety.near_pairs.near_pairs`); both lists of ``'linkA linkB'``.
    """
    settings = {spec.name: given.get(spec.name, spec.default) for spec in NODE}
    ignored = rules.ignored(settings)
    capsules = LinkCapsules(chain, ignored, 'safety.self_collision.ignore')
    near = near_pairs(capsules, settings['safety.self_collision.warn_distance'])
    return capsules, ignored, near


LIMIT_KINDS = (('position', 'qlim'), ('soft position', 'soft_limits'),
               ('velocity', 'velocity_limit'), ('acceleration', 'acceleration_limit'),
               ('deceleration', 'deceleration_limit'), ('jerk', 'jerk_limit'),
               ('effort', 'effort_limit'))
"""The limits ``check`` reports: (name, Link field)."""


def limits_line(chain):
    """Return one line saying how many joints have each kind of limit."""
    counts = [(name, sum(getattr(link, field) is not None for link in chain.links))
              for name, field in LIMIT_KINDS]
    return 'limits: ' + ', '.join(f'{name} {count}/{chain.n}' for name, count in counts)


def extra_line(chain):
    """Return ``', extra frames a, b'`` and ``', meshes on c'`` for what the chain has."""
    text = ''
    if chain.frames:
        text += f', extra frames {", ".join(frame.name for frame in chain.frames)}'
    if chain.meshes:
        text += f', meshes on {", ".join(chain.meshes)}'
    return text


def configuration(chain, given, values, name, degrees, field='Q', name_field='--q-name'):
    """
    Return the joint values from the command line (rad or m; deg for revolute with --deg).

    ``field`` names the values' option in messages, ``name_field`` the name's.
    """
    if name is not None:
        named = params.configurations(given, chain.n)
        if name not in named:
            raise ValueError(f'{name_field}: no configuration {name!r} in the file (it has '
                             f'{", ".join(sorted(named)) or "none"}; add configurations.{name})')
        return named[name]
    if not values:
        return np.zeros(chain.n)
    if len(values) != chain.n:
        raise ValueError(f'{field}: {chain.n} joint values expected, got {len(values)}')
    q = np.array([_number(field, value) for value in values])
    if degrees:
        revolute = np.array([link.isrevolute() for link in chain.links])
        q = np.where(revolute, np.radians(q), q)
    return q


def _number(field, text):
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f'{field}: {text!r} is not a number') from None
    if not math.isfinite(value):
        raise ValueError(f'{field}: {text!r} is not finite')
    return value


def limit_notes(chain, q, degrees=False, digits=6):
    """
    Return a sentence for every joint of ``q`` beyond its limits (the limits count as inside).

    Revolute values in degrees when ``degrees``; otherwise rad, and m for prismatic joints.
    """
    notes = []
    for name, link, value in zip(chain.joint_names, chain.links, q):
        side = link.islimit(value)
        if not side:
            continue
        scale, unit = display.joint_unit(link.isprismatic(), degrees)
        limit = link.qlim[1] if side > 0 else link.qlim[0]
        notes.append(f'{name} = {display.format_number(value * scale, digits)} {unit} is '
                     f'{"above its upper" if side > 0 else "below its lower"} limit '
                     f'{display.format_number(limit * scale, digits)} {unit} (by '
                     f'{display.format_number(abs(value - limit) * scale, digits)})')
    return notes


def model_file_text(chain, given):
    """
    Return the model file of ``chain`` with the settings of the file it came from.

    ``given`` is that file's parameters, as :func:`load` returns them: its node settings,
    named configurations and ``joint_limits`` block are kept as they were.
    """
    import yaml

    values = chain.to_params()
    for name, value in given.items():
        if params.is_setting(name) or name.split('.')[0] in (
                params.CONFIGURATIONS, joint_limits.BLOCK):
            *blocks, key = name.split('.')
            block = values
            for part in blocks:
                block = block.setdefault(part, {})
            block[key] = value
    return yaml.safe_dump({'/**': {'ros__parameters': values}}, sort_keys=False,
                          default_flow_style=None)


def write(path, text, what):
    """Write ``text`` (str or bytes) to ``path`` whole or not at all; a ValueError says why."""
    try:
        files.write_bytes(path, text.encode('utf-8') if isinstance(text, str) else text)
    except OSError as error:
        raise ValueError(f'{path}: cannot write the {what}: {error.strerror}') from None
