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
A ros2_control / MoveIt ``joint_limits`` block, read into the joint fields of a model.

ros2_control's joint limiters and MoveIt's ``joint_limits.yaml`` describe each joint's limits
as ``joint_limits.<joint>.<key>``: ``has_position_limits`` with ``min_position`` and
``max_position``; ``has_velocity_limits`` with ``max_velocity``; likewise acceleration,
deceleration, jerk and effort; ``has_soft_limits`` with ``soft_lower_limit``,
``soft_upper_limit``, ``k_position`` and ``k_velocity``; and ``angle_wraparound`` (for a joint
without position limits; accepted, and nothing to do here). A model file may hold such a block
beside its joint blocks, so that the file a controller or MoveIt already reads can be passed
with ``--params-file``. Where the block and a joint block give the same limit, they must agree:
otherwise the model is refused, naming both.

Units are those of the model: rad or m, and per second, per second squared and per second
cubed; N m or N.
"""

import math

from dh_kinematics.core.checks import check_bool, check_scalar, InvalidFieldError

BLOCK = 'joint_limits'
"""The block's name: its keys are ``joint_limits.<joint>.<key>``."""

_LIMITS = (  # (has_ key, value keys, joint field)
    ('has_position_limits', ('min_position', 'max_position'), 'qlim'),
    ('has_velocity_limits', ('max_velocity',), 'velocity_limit'),
    ('has_acceleration_limits', ('max_acceleration',), 'acceleration_limit'),
    ('has_deceleration_limits', ('max_deceleration',), 'deceleration_limit'),
    ('has_jerk_limits', ('max_jerk',), 'jerk_limit'),
    ('has_effort_limits', ('max_effort',), 'effort_limit'),
    ('has_soft_limits', ('soft_lower_limit', 'soft_upper_limit'), 'soft_limits'),
)
_GAINS = (('k_position', 'k_position'), ('k_velocity', 'k_velocity'))
KEYS = tuple(key for has, values, _ in _LIMITS for key in (has,) + values) + (
    'k_position', 'k_velocity', 'angle_wraparound')
"""Every key a joint may have in the block."""
RELATIVE_TOLERANCE = 1e-9
"""Two values agree when they differ by at most this much of the larger."""


def split_key(key):
    """Return (joint, key) of ``joint_limits.<joint>.<key>``, or None for another name."""
    if not key.startswith(BLOCK + '.'):
        return None
    joint, _, field = key[len(BLOCK) + 1:].rpartition('.')
    return (joint, field) if joint else None


def link_fields(flat, joint):
    """
    Return the joint fields that ``joint_limits.<joint>.*`` in ``flat`` sets.

    Parameters
    ----------
    flat : dict
        The model's parameters with rclpy's dotted names.
    joint : str
        A joint of the model.

    Returns
    -------
    dict
        Link fields (``qlim``, ``velocity_limit``, ..., ``soft_limits``, ``k_position``,
        ``k_velocity``) of every limit whose ``has_*`` is true, and of the gains given.

    """
    prefix = f'{BLOCK}.{joint}.'
    given = {key[len(prefix):]: value for key, value in flat.items() if key.startswith(prefix)}
    fields = {}
    for has, keys, field in _LIMITS:
        if has not in given or not check_bool(prefix + has, given[has]):
            continue
        missing = [key for key in keys if key not in given]
        if missing:
            raise InvalidFieldError(prefix + has, True, f'needs {prefix}{missing[0]}')
        values = [check_scalar(prefix + key, given[key]) for key in keys]
        fields[field] = tuple(values) if len(values) == 2 else values[0]
    for key, field in _GAINS:
        if key in given:
            fields[field] = check_scalar(prefix + key, given[key])
    if 'angle_wraparound' in given:
        check_bool(prefix + 'angle_wraparound', given['angle_wraparound'])
    return fields


def merged(block, fields, joint):
    """
    Return the joint block's Link arguments with the ``joint_limits`` fields added.

    Raises InvalidFieldError naming both when they give the same limit differently.
    """
    names = {field: (f'{BLOCK}.{joint}.' + '/'.join(keys)) for _, keys, field in _LIMITS}
    names.update({field: f'{BLOCK}.{joint}.{key}' for key, field in _GAINS})
    arguments = dict(block)
    for field, value in fields.items():
        if not _none(block.get(field)) and not _agree(block[field], value):
            own = block[field]
            raise InvalidFieldError(
                f'{joint}.{field}', own if not isinstance(own, tuple) else list(own),
                f'disagrees with {names[field]}: {_shown(value)}; give one value, or the '
                'same in both')
        arguments[field] = value
    return arguments


def _none(value):
    """Tell whether a joint block's value stands for no limit (absent, None, inf)."""
    if value is None:
        return True
    values = value if isinstance(value, (list, tuple)) else [value]
    try:
        return all(math.isinf(float(v)) for v in values)
    except (TypeError, ValueError):
        return False


def _shown(value):
    return list(value) if isinstance(value, tuple) else value


def _agree(first, second):
    first = first if isinstance(first, (list, tuple)) else [first]
    second = second if isinstance(second, (list, tuple)) else [second]
    try:
        pairs = list(zip([float(v) for v in first], [float(v) for v in second], strict=True))
    except (TypeError, ValueError):
        return False
    return all(a == b or abs(a - b) <= RELATIVE_TOLERANCE * max(abs(a), abs(b))
               for a, b in pairs)
