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
Joint-limit diagnostics: a level per joint and for the arm, from the joint-state cache.

Levels follow diagnostic_msgs: OK, WARN, ERROR, STALE (0 to 3). Per joint, in precedence order:

- STALE: no value yet, or none received within ``timeout`` seconds;
- ERROR: the last position is non-finite, or beyond a limit;
- WARN: within ``margin`` (rad or m) of a limit;
- OK: otherwise, and always for a joint without limits.

Hysteresis: a level only clears once the joint is back inside by ``band`` (rad or m): ERROR
clears once the joint is ``band`` inside its limit, WARN once it is ``margin + band`` from it.
A position dithering around a threshold therefore does not flip the level on every message.

The arm's level is the highest of its joints'. Pure numpy; the node turns the statuses into a
DiagnosticArray.
"""

from collections import namedtuple

from dh_kinematics.core.display import format_number
import numpy as np

OK, WARN, ERROR, STALE = 0, 1, 2, 3
LEVEL_NAMES = ('OK', 'WARN', 'ERROR', 'STALE')

Status = namedtuple('Status', 'task level message values')
Status.__doc__ = """One diagnostic status: task name, level, message and (key, value) strings."""


def _limit_levels(q, lower, upper, margin):
    with np.errstate(invalid='ignore'):
        beyond = (q < lower) | (q > upper)
        near = (q < lower + margin) | (q > upper - margin)
    return np.where(beyond, ERROR, np.where(near, WARN, OK))


def joint_levels(cache, lower, upper, margin, timeout, now_ns, previous=None, band=0.0):
    """
    Return the level of each joint (array of int, model order); see the module docstring.

    Parameters
    ----------
    cache : JointStateCache
        The last joint values.
    lower, upper : array, shape (n,)
        Joint limits in rad or m (+-inf for none).
    margin : float
        WARN distance from a limit, rad or m.
    timeout : float
        STALE after this many seconds without a value.
    now_ns : int
        The node's clock, ns.
    previous : array of int, shape (n,), optional
        The levels so far: a lower level needs the joint back inside by ``band``.
    band : float
        Hysteresis band, rad or m.

    """
    q = cache.positions
    levels = _limit_levels(q, lower, upper, margin)
    if previous is not None and band > 0.0:
        strict = _limit_levels(q, lower + band, upper - band, margin)
        clearing = (levels < previous) & (previous <= ERROR)  # not when STALE ends
        levels = np.where(clearing, np.minimum(previous, strict), levels)
    levels = np.where(cache.non_finite, ERROR, levels)
    age_ns = now_ns - cache.received_ns
    stale = (cache.received_ns < 0) | (age_ns > timeout * 1e9)
    return np.where(stale, STALE, levels)


def joint_status(cache, j, level, lower, upper, margin, now_ns):
    """Describe joint ``j`` at ``level``: a message and key/values (SI units)."""
    q, lo, hi = cache.positions[j], lower[j], upper[j]
    distance = min(q - lo, hi - q) if np.isfinite(q) else float('nan')
    if level == STALE:
        if cache.received_ns[j] < 0:
            message = 'no joint_states value yet'
        else:
            message = f'no joint_states for {(now_ns - cache.received_ns[j]) / 1e9:.3g} s'
    elif cache.non_finite[j]:
        message = 'non-finite position'
    elif q < lo:
        message = f'below lower limit by {format_number(lo - q)}'
    elif q > hi:
        message = f'above upper limit by {format_number(q - hi)}'
    elif level == WARN:
        side = 'lower' if q - lo < hi - q else 'upper'
        message = f'within {format_number(margin)} of {side} limit'
    else:
        message = 'within limits' if np.isfinite(lo) or np.isfinite(hi) else 'no limits'
    values = tuple((key, format_number(value)) for key, value in (
        ('position', q), ('lower', lo), ('upper', hi), ('distance_to_limit', distance)))
    return Status(cache.names[j], int(level), message, values)


def arm_status(cache, levels, received, rate_hz):
    """Summarise the arm: the highest joint level, and the message counts."""
    level = int(levels.max()) if len(levels) else OK
    worst = [cache.names[j] for j in np.flatnonzero(levels == level)] if level != OK else []
    message = 'all joints within limits' if level == OK else (
        f'{LEVEL_NAMES[level]}: {", ".join(worst)}')
    counts = sorted(cache.counts.items())
    values = (('joint_states received', str(received)),
              ('joint_states rate (Hz)', format_number(rate_hz)),
              ('dropped', str(cache.dropped_total()))) + tuple(
        (f'count {reason}', str(number)) for reason, number in counts)
    return Status('arm', level, message, values)
