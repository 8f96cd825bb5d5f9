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
The diagnostic tasks of the limit monitor: what each status says.

As in diagnostic_updater, a task only describes; when to publish is the schedule's business
(:mod:`dh_kinematics.node_logic.schedule`). One status per joint (its level, position, limits and
distance to the nearer one; with the effort monitor on, its efforts and residual too) and one for
the arm (every joint not OK, worst first, and why; the message counts and the joint_states
rate). The arm is in ERROR whenever a joint is, even beside a STALE one.
Values are in SI units, formatted for people.
"""

from collections import namedtuple

from dh_kinematics.core.display import format_number
from dh_kinematics.node_logic.monitors.levels import ERROR, LEVEL_NAMES, OK, STALE, WARN
import numpy as np

Status = namedtuple('Status', 'task level message values')
Status.__doc__ = """One diagnostic status: task name, level, message and (key, value) strings."""


def against_limit(size, limit):
    """
    Say where a size stands against its limit (both >= 0, one unit): ``'96% of limit 2.5'``.

    Past the limit, by how much: ``'above limit 25 by 0.1'``. Only the limit itself reads
    100%: a size short of it reads 99% at most, and one past it never as a share. A size not
    known (NaN) reads ``'unknown; limit 2.5'``.
    """
    if size != size:
        return f'unknown; limit {format_number(limit, 3)}'
    if size > limit:
        return (f'above limit {format_number(limit, 3)} by '
                f'{format_number(size - limit, 3)}')
    share = round(100.0 * size / limit)
    return f'{share if size == limit else min(share, 99)}% of limit {format_number(limit, 3)}'


def joint_status(cache, j, level, lower, upper, margin, now_ns, efforts=None, motion=None,
                 band=0.0):
    """
    Describe joint ``j`` at limit level ``level``: a message and key/values (SI units).

    A level the hysteresis ``band`` (rad or m) holds says so: back inside the limit, or
    past the warn margin, and until where it holds.

    With an active :class:`EffortMonitor` ``efforts`` or :class:`MotionLimits` ``motion``,
    the status takes the highest of the position, effort and motion levels (STALE stays
    STALE) and carries their values.
    """
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
    elif level in (WARN, ERROR):
        side = 'lower' if q - lo < hi - q else 'upper'
        if level == ERROR:  # inside the limits: the hysteresis holds it
            message = (f'back {format_number(distance)} inside its {side} limit; ERROR holds '
                       f'until {format_number(band)} inside it (diagnostics.hysteresis)')
        elif distance <= margin:
            message = f'within {format_number(margin)} of {side} limit'
        else:
            message = (f'{format_number(distance)} from its {side} limit; WARN holds until '
                       f'{format_number(margin + band)} from it (diagnostics.hysteresis)')
    else:
        message = 'within limits' if np.isfinite(lo) or np.isfinite(hi) else 'no limits'
    values = tuple((key, format_number(value)) for key, value in (
        ('position', q), ('lower', lo), ('upper', hi), ('distance_to_limit', distance)))
    texts = []
    for monitor in (efforts, motion):
        if monitor is None or not monitor.active:
            continue
        values += monitor.values(j)
        if level != STALE and monitor.levels[j] != OK:
            texts.append(monitor.describe(j))
    if texts:
        message = '; '.join(texts if level == OK else [message] + texts)
    return Status(cache.names[j], joint_level(j, level, efforts, motion), message, values)


def joint_level(j, level, efforts=None, motion=None):
    """
    Return joint ``j``'s status level: its position's ``level``, raised to its monitors'.

    The highest of the position's, and the active :class:`EffortMonitor`'s and
    :class:`MotionLimits`' levels of the joint; STALE stays STALE.
    """
    if level != STALE:
        for monitor in (efforts, motion):
            if monitor is not None and monitor.active:
                level = max(level, monitor.levels[j])
    return int(level)


WORST_FIRST = (ERROR, STALE, WARN)
"""The order the arm's summary names joints in: an ERROR is never hidden behind a STALE."""


def arm_level(levels):
    """Return the arm's level: ERROR if any joint is in ERROR, else the highest level."""
    levels = list(levels)
    if ERROR in levels:
        return ERROR
    return max(levels, default=OK)


def arm_status(joints, received, rate_hz, dropped, counts, contact=None):
    """
    Summarise the arm: every joint not OK, worst first, with why; and the message counts.

    Parameters
    ----------
    joints : sequence of Status
        The statuses as published (task = joint name), the arm's checks (``tool_speed``,
        ``singularity``) after them, each counted like a joint.
    received : int
        joint_states messages received.
    rate_hz : float
        Their rate, Hz.
    dropped : int
        Messages dropped, for any reason.
    counts : dict
        Messages counted by reason.
    contact : str, optional
        The link an external force is at or beyond (:meth:`EffortMonitor.contact`), said first.

    """
    level = arm_level(status.level for status in joints)
    groups = []
    for worst in WORST_FIRST:
        named = [f'{status.task} ({status.message})' for status in joints
                 if status.level == worst]
        if named:
            groups.append(f'{LEVEL_NAMES[worst]}: {", ".join(named)}')
    message = '; '.join(groups) if groups else 'all joints within limits'
    if contact is not None:
        message = f'contact at or beyond {contact}; {message}'
    values = (('joint_states received', str(received)),
              ('joint_states rate (Hz)', format_number(rate_hz)),
              ('dropped', str(dropped))) + tuple(
        (f'count {reason}', str(number)) for reason, number in sorted(counts.items()))
    return Status('arm', level, message, values)


class MessageRate:
    """
    The joint_states rate, in Hz, measured over at least a given window (as FrequencyStatus).

    Parameters
    ----------
    start_ns : int
        Monotonic time the count starts from, ns.

    """

    def __init__(self, start_ns):
        self._count, self._since_ns, self._rate = 0, start_ns, 0.0

    def rate(self, received, mono_ns, window_ns):
        """Return the rate for ``received`` messages so far; measure anew after ``window_ns``."""
        if mono_ns - self._since_ns >= window_ns:
            self._rate = (received - self._count) * 1e9 / (mono_ns - self._since_ns)
            self._count, self._since_ns = received, mono_ns
        return self._rate
