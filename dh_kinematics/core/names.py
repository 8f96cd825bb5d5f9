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
The names a chain publishes: its frames on TF, its URDF links and joints, and their rules.

A chain names its joints (as in joint_states) and its frames: world, base, one per link, tool,
and its extra fixed frames (:mod:`core.fixed_frames`). Two kinds of name are made from those:
an *axis frame* ``<link>_axis`` for every standard DH link with ``a`` or ``alpha`` not 0
(:func:`has_axis_frame`), and a fixed URDF joint ``<parent>_to_<child>`` for world to base,
axis frame to link, last link to tool, and each extra frame (:func:`fixed_joint_names`). A
prefix (the node's ``frame_prefix``) goes before every frame but the world frame.

The rule, ROS's for names with the ``-`` and ``.`` that URDFs and drivers use beside it:

- a *frame* name is one or more parts joined by ``/``, each part made of ASCII letters, digits,
  ``_``, ``-`` and ``.``: no space or control character (robot_description would not be XML),
  no ``/`` at the start (tf2 refuses such a frame id) or the end, no ``//``;
- a *joint* name is one such part: no ``/`` (ROS reads it as a namespace, and ros2_control
  names a joint's interfaces ``<joint>/position``);
- a prefix is empty, or a frame name that may end with ``/`` (``left/``, ``left_``);
- the robot name is printable text (no control character);
- every published frame, prefix included, is distinct, and so is every URDF joint, the
  generated ones included.

Each check raises :class:`InvalidFieldError` naming the field (``joint_names[2]``,
``link_frames[0]``, ``tool_frame``, ``frame_prefix``, ...) and saying which rule or which other
name it meets.
"""

from collections import namedtuple
import re

from dh_kinematics.core.checks import InvalidFieldError

AXIS_SUFFIX = '_axis'
_PART = r'[A-Za-z0-9_.\-]+'
_JOINT = re.compile(_PART)
_FRAME = re.compile(f'{_PART}(?:/{_PART})*')  # unambiguous: no backtracking to blow up
_PREFIX = re.compile(f'(?:{_PART}(?:/{_PART})*/?)?')
_RULES = {
    'joint': 'a joint name is letters, digits, _, - and . (no / or space)',
    'frame': 'a frame name is parts of letters, digits, _, - and . joined by / (no space, no / '
             'at either end)',
    'prefix': 'a frame prefix is parts of letters, digits, _, - and . joined by / and may end '
              'with / (no space, no / at the start)'}
_PATTERNS = {'joint': _JOINT, 'frame': _FRAME, 'prefix': _PREFIX}

Name = namedtuple('Name', 'name field what')
Name.__doc__ = """One published name: the name, the field it comes from and what it is."""


def has_axis_frame(link):
    """Tell whether a link needs an axis frame: standard DH with a, alpha or beta not 0."""
    return not link.mdh and (link.a != 0.0 or link.alpha != 0.0 or link.beta != 0.0)


def frame_names(chain, prefix=''):
    """Return (world, base, link frames..., tool), every name but the world's prefixed."""
    return (chain.world_frame,) + tuple(prefix + name for name in (
        (chain.base_frame,) + chain.link_frames + (chain.tool_frame,)))


def axis_frame_names(chain, prefix=''):
    """Return, per joint, the name of its axis frame (prefixed), or None where it has none."""
    return tuple(prefix + name + AXIS_SUFFIX if has_axis_frame(link) else None
                 for link, name in zip(chain.links, chain.link_frames))


def fixed_joint_name(parent, child):
    """Return the name of the fixed URDF joint from frame ``parent`` to frame ``child``."""
    return f'{parent}_to_{child}'


def check_name(field, name, kind):
    """
    Check one name against the rule for its ``kind``: 'joint', 'frame' or 'prefix'.

    Returns
    -------
    name : str

    """
    if not isinstance(name, str) or (not name and kind != 'prefix'):
        raise InvalidFieldError(field, name, 'must be a non-empty string')
    if _PATTERNS[kind].fullmatch(name) is None:
        raise InvalidFieldError(field, name, f'{_RULES[kind]}; {_offence(name, kind)}')
    return name


def check_robot_name(field, name):
    """Check a robot name: a string of printable characters (it goes into XML); return it."""
    if not isinstance(name, str):
        raise InvalidFieldError(field, name, 'must be a string')
    if not name.isprintable():
        raise InvalidFieldError(field, name, f'must be printable text; {_offence(name)}')
    return name


def _offence(name, kind=None):
    """Say where a name first breaks the rule for ``kind`` (any printable text for None)."""
    allowed = {'joint': '[A-Za-z0-9_.-]', None: '.'}.get(kind, '[A-Za-z0-9_./-]')
    for i, character in enumerate(name):
        if not (character.isprintable() and re.fullmatch(allowed, character)):
            shown = f'{character!r} ' if character.isprintable() else ''
            return f'character {i + 1} is {shown}U+{ord(character):04X}'
    if name.startswith('/'):
        return 'it starts with / (tf2 refuses such a frame id)'
    return 'it has //' if '//' in name else 'it ends with /'


def published_frames(chain, prefix=''):
    """Return every frame a chain publishes, as :data:`Name` records, in the order of TF."""
    names = frame_names(chain, prefix)
    frames = [Name(names[0], 'world_frame', 'the world frame'),
              Name(names[1], 'base_frame', 'the base frame')]
    for j, (link, axis) in enumerate(zip(chain.link_frames, axis_frame_names(chain, prefix))):
        frames.append(Name(names[2 + j], f'link_frames[{j}]', f'the frame of link {j + 1}'))
        if axis is not None:
            frames.append(Name(axis, f'link_frames[{j}]', f'the axis frame of link {j + 1} '
                               f'(standard DH, a or alpha not 0: <link>{AXIS_SUFFIX})'))
    frames.append(Name(names[-1], 'tool_frame', 'the tool frame'))
    frames += [Name(prefix + frame.name, f'frames.{frame.name}', f'the extra frame {frame.name}')
               for frame in chain.frames]
    return frames


def parent_name(chain, parent, prefix=''):
    """Return the published name of frame ``parent`` of the chain: prefixed but the world."""
    return parent if parent == chain.world_frame else prefix + parent


def fixed_joint_names(chain, prefix=''):
    """Return the fixed URDF joints' names, as :data:`Name` records, world to tool."""
    names = frame_names(chain, prefix)
    joints = [Name(fixed_joint_name(names[0], names[1]), 'base_frame',
                   'the fixed joint <world>_to_<base>')]
    for j, axis in enumerate(axis_frame_names(chain, prefix)):
        if axis is not None:
            joints.append(Name(fixed_joint_name(axis, names[2 + j]), f'link_frames[{j}]',
                               f'the fixed joint <axis>_to_<link> of link {j + 1}'))
    joints.append(Name(fixed_joint_name(names[-2], names[-1]), 'tool_frame',
                       'the fixed joint <last link>_to_<tool>'))
    joints += [Name(fixed_joint_name(parent_name(chain, frame.parent, prefix),
                                     prefix + frame.name), f'frames.{frame.name}',
                    f'the fixed joint <parent>_to_<frame> of extra frame {frame.name}')
               for frame in chain.frames]
    return joints


def check_published(chain, prefix=''):
    """
    Refuse names that would collide once published: two frames, or two URDF joints, of one name.

    ``prefix`` is the node's ``frame_prefix``. A collision with the world frame that the prefix
    makes is blamed on ``frame_prefix``; any other on the later of the two names.
    """
    frames = published_frames(chain, prefix)
    _distinct(frames, 'every frame on TF needs a name of its own', prefix)
    joints = fixed_joint_names(chain, prefix) + [
        Name(name, f'joint_names[{j}]', f'joint {j + 1}')
        for j, name in enumerate(chain.joint_names)]
    _distinct(joints, 'every URDF joint needs a name of its own', prefix)


def check_prefixed(chain, prefix):
    """Check a frame prefix, and every name the chain publishes with it; return the prefix."""
    check_name('frame_prefix', prefix, 'prefix')
    if prefix:  # without, the chain has checked its names
        check_published(chain, prefix)
    return prefix


def _distinct(names, why, prefix):
    seen = {}
    for entry in names:
        first = seen.setdefault(entry.name, entry)
        if first is entry:
            continue
        if prefix and first.field == 'world_frame':
            raise InvalidFieldError('frame_prefix', prefix, f'makes {entry.what} '
                                    f'{entry.name!r}, the name of the world frame; {why}')
        raise InvalidFieldError(entry.field, entry.name, f'{entry.what} is also {first.what}; '
                                f'{why}')
