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
Joint-limit levels: per joint, from the joint-state cache, with hysteresis.

Levels follow diagnostic_msgs: OK, WARN, ERROR, STALE (0 to 3). Per joint, in precedence order:

- STALE: no value yet, or none received within ``timeout`` seconds;
- ERROR: the last position is non-finite, or beyond a limit;
- WARN: within ``margin`` (rad or m) of a limit;
- OK: otherwise, and always for a joint without limits.

Hysteresis: a level only clears once the joint is back inside by ``band`` (rad or m): ERROR
clears once the joint is ``band`` inside its limit, WARN once it is ``margin + band`` from it.
A position dithering around a threshold therefore does not flip the level on every message.

:func:`joint_levels` judges every joint at once (numpy); :class:`Thresholds` judges the few
joints of one message in Python floats, with the same result (a test checks this). Every
monitor's level is the same small machine, given its figure and the level it had:
:func:`threshold_level` against two thresholds, :func:`ratio_level` against a limit; over a
column of figures (a block of messages, each judged after the one before) the same machine is
:func:`threshold_levels` and :func:`ratio_levels`, with the same result (a test checks this):
each level a latch over the column's events (:func:`threshold_events`, :func:`latched_levels`),
which a monitor judging several figures or a STALE row as one level combines.
"""

from operator import le

import numpy as np

OK, WARN, ERROR, STALE = 0, 1, 2, 3
LEVEL_NAMES = ('OK', 'WARN', 'ERROR', 'STALE')


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
    previous : sequence of int, length n, optional
        The levels so far: a lower level needs the joint back inside by ``band``.
    band : float
        Hysteresis band, rad or m.

    """
    q = cache.positions
    levels = _limit_levels(q, lower, upper, margin)
    if previous is not None and band > 0.0:
        previous = np.asarray(previous)
        strict = _limit_levels(q, lower + band, upper - band, margin)
        clearing = (levels < previous) & (previous <= ERROR)  # not when STALE ends
        levels = np.where(clearing, np.minimum(previous, strict), levels)
    levels = np.where(cache.non_finite, ERROR, levels)
    age_ns = now_ns - cache.received_ns
    stale = (cache.received_ns < 0) | (age_ns > timeout * 1e9)
    return np.where(stale, STALE, levels)


class Thresholds:
    """
    The limit levels of chosen joints at finite positions, in Python floats.

    Parameters
    ----------
    lower, upper : array, shape (n,)
        Joint limits in rad or m (+-inf for none).
    margin : float
        WARN distance from a limit, rad or m.
    band : float
        Hysteresis band, rad or m.

    """

    def __init__(self, lower, upper, margin, band=0.0):
        self._limits = list(zip(lower.tolist(), upper.tolist(), (lower + margin).tolist(),
                                (upper - margin).tolist()))
        self._strict = list(zip((lower + band).tolist(), (upper - band).tolist(),
                                (lower + margin + band).tolist(),
                                (upper - margin - band).tolist()))
        # Between these a joint is OK by _level whatever the margin's sign.
        self._quiet_low = np.maximum(lower, lower + margin).tolist()
        self._quiet_high = np.minimum(upper, upper - margin).tolist()

    def quiet(self, q):
        """Tell whether every joint's value in ``q`` (all, in order, finite) keeps OK joints OK."""
        return all(map(le, self._quiet_low, q)) and all(map(le, q, self._quiet_high))

    def levels(self, joints, q, previous):
        """
        Return the level (OK, WARN or ERROR) of each chosen joint at finite ``q``.

        ``previous`` holds every joint's level so far: a lower level than before needs the
        joint back inside by the hysteresis band.
        """
        levels, limits, low, high = [], self._limits, self._quiet_low, self._quiet_high
        for j, value in zip(joints, q):
            before = previous[j]
            if before == OK and low[j] <= value <= high[j]:  # the usual case, without a call
                levels.append(OK)
                continue
            level = _level(value, *limits[j])
            if level < before <= ERROR:
                level = min(before, _level(value, *self._strict[j]))
            levels.append(level)
        return levels


def _level(value, lower, upper, warn_lower, warn_upper):
    if value < lower or value > upper:
        return ERROR
    if value < warn_lower or value > warn_upper:
        return WARN
    return OK


def threshold_level(value, previous, warn, error, warn_clear, error_clear):
    """
    Return the level of ``value`` against two thresholds, given the level it had.

    ERROR above ``error``, WARN above ``warn``; a level lower than ``previous`` needs the value
    at or below the clearing threshold of each level it leaves (``error_clear`` to leave
    ERROR, ``warn_clear`` to leave WARN), so that a value dithering at a threshold does not
    flap. STALE (above ERROR) is not this function's to clear.
    """
    level = ERROR if value > error else WARN if value > warn else OK
    if level < previous <= ERROR:
        strict = ERROR if value > error_clear else WARN if value > warn_clear else OK
        level = min(previous, strict)
    return level


def threshold_levels(values, previous, warn, error, warn_clear, error_clear):
    """
    Return the levels of a column of ``values``, each :func:`threshold_level` of the one before.

    ``previous`` is the level before the first value. The clearing thresholds are at or below
    the raising ones (a band of 0 or more). Each level is a latch over the column: raised where
    a value is above its threshold, cleared where one is at or below its clearing threshold,
    held between; the last of those events before a row is that row's.

    Examples
    --------
    >>> threshold_levels([0.5, 0.91, 0.88, 0.84, 1.01, 0.97, 0.94, 0.5], OK, 0.9, 1.0,
    ...                  0.85, 0.95).tolist()
    [0, 1, 1, 0, 2, 2, 1, 0]

    """
    return latched_levels(*threshold_events(values, warn, error, warn_clear, error_clear),
                          previous)


def threshold_events(values, warn, error, warn_clear, error_clear):
    """
    Return what a column of ``values`` does to the levels of :func:`threshold_level`.

    ``(raised, kept)``, each an array of int: the level each value raises to, and the highest
    level it keeps (a level above it clears), for :func:`latched_levels`.
    """
    values = np.asarray(values, dtype=float)
    raised = np.where(values > error, ERROR, np.where(values > warn, WARN, OK))
    kept = np.where(values > error_clear, ERROR, np.where(values > warn_clear, WARN, OK))
    return raised, kept


def latched_levels(raised, kept, previous):
    """
    Return the levels of a column of events, each level a latch over it.

    Row k raises to ``raised[k]`` and clears every level above ``kept[k]`` (``kept`` at or
    above ``raised``; a row that does neither: -1 and ERROR + 1); ``previous`` is the level
    before the first row (STALE: from OK). A level is held from the last row that raised or
    cleared it: what :func:`threshold_level` gives row after row. Of many columns at once,
    ``raised`` and ``kept`` (m, k) and ``previous`` (k,): each column in turn.
    """
    raised, kept = np.asarray(raised), np.asarray(kept)
    previous = np.asarray(previous)
    start = np.where(previous == STALE, OK, previous)
    rows = np.arange(len(raised)).reshape((-1,) + (1,) * (raised.ndim - 1))
    levels = np.zeros(raised.shape, dtype=int)
    for level in (WARN, ERROR):
        last = np.maximum.accumulate(np.where((raised >= level) | (kept < level), rows, -1),
                                     axis=0)
        hit = np.take_along_axis(raised, np.maximum(last, 0), axis=0) >= level
        levels += np.where(last >= 0, hit, start >= level)
    return levels


def held(events, unjudged):
    """Return ``(raised, kept)`` where the rows ``unjudged`` neither raise nor clear a level."""
    raised, kept = events
    return np.where(unjudged, -1, raised), np.where(unjudged, ERROR + 1, kept)


def ratio_levels(ratios, previous, warn_fraction, hysteresis):
    """Return the levels of a column of ``ratios``, each :func:`ratio_level` of the one before."""
    return threshold_levels(ratios, previous, warn_fraction, 1.0, warn_fraction - hysteresis,
                            1.0 - hysteresis)


def ratio_level(ratio, previous, warn_fraction, hysteresis):
    """
    Return the level of a value at ``ratio`` of its limit, given the level it had.

    ERROR above 1, WARN above ``warn_fraction``; a level lower than ``previous`` needs the
    ratio ``hysteresis`` below the threshold that raised ``previous``.
    """
    return threshold_level(ratio, previous, warn_fraction, 1.0, warn_fraction - hysteresis,
                           1.0 - hysteresis)
