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
Self-collision: how near the arm comes to itself, judged on every message from joint_states.

The distance (m) between the closest two of the arm's capsules
(:class:`core.safety.link_capsules.LinkCapsules`: the pairs not joined by one joint, less
``safety.self_collision.ignore``), WARN within ``safety.self_collision.warn_distance`` and
ERROR within ``safety.self_collision.error_distance``, clearing ``diagnostics.hysteresis`` (m)
back, whether the pair closes in or not: the level is the positions' alone, as a plane's
(judged while a rate is unknown; an arm held still near itself stays WARN, and no noise in a
velocity flips it). The pair's closing speed and time to collision go with it, for a
controller that slows only while closing.

In two halves: :meth:`SelfCollision.measure`, the figures, a pure function of the arm's state
(:class:`core.state.ArmState`: the capsules' ends and their velocities) over rows, one message
or a block; :func:`level`, the level from the distance and the level it had (:func:`levels`
over a column of them). A status of its own on /diagnostics (``self_collision``), after the
safety monitor's, its figures the last of ``~/safety``. Nothing here runs while it is off, or
while every pair is ignored (no pair: no figure).
"""

import math

from dh_kinematics.core.display import format_number
from dh_kinematics.core.safety.link_capsules import LinkCapsules
from dh_kinematics.core.safety.points import LinkPoints
from dh_kinematics.core.state import ArmState
from dh_kinematics.node_logic.monitors.levels import (
    OK, STALE, threshold_level, threshold_levels)
from dh_kinematics.node_logic.monitors.sample import Figure, NOTHING_YET, unknown_positions
from dh_kinematics.node_logic.monitors.tasks import Status
from dh_kinematics.parameters import rules
import numpy as np

__all__ = ['level', 'levels', 'SelfCollision']

TASK = 'self_collision'
NAMES = ('distance', 'closing_speed', 'time_to_collision')
"""The figures, in the order of ``~/safety``: m, m/s (positive while closing), s."""


def level(distance, previous, warn, error, band):
    """
    Return the level of the closest pair ``distance`` (m) apart, given the level it had.

    WARN within ``warn`` and ERROR within ``error`` (m); a level clears once the pair is
    ``band`` (m) beyond the distance that raised it.
    """
    return threshold_level(-distance, previous, -warn, -error, -warn - band, -error - band)


def levels(distances, previous, warn, error, band):
    """Return the level at each of a column of ``distances`` (m): :func:`level` of each in turn."""
    return threshold_levels(-np.asarray(distances, dtype=float), previous, -warn, -error,
                            -warn - band, -error - band)


class SelfCollision:
    """
    The self-collision level of the arm.

    Attributes
    ----------
    active : bool
        Whether it is watched: switched on, and some pair is left to judge.
    levels : dict
        ``'self_collision'`` -> OK, WARN, ERROR or STALE, while watched; else empty.
    measured : bool
        Whether the last :meth:`judge` found every figure (every joint's position and rate).
    figures : tuple of Figure
        Its values of ``~/safety`` (:data:`NAMES`), while watched.
    points : LinkPoints
        The capsules' ends, two a capsule, in the order of the capsules.
    parts : tuple of str
        The parts of the arm's state read here (:data:`core.state.PARTS`).

    """

    def __init__(self):
        self.active = self.measured = False
        self.levels, self.figures, self.parts = {}, (), ()
        self.points = LinkPoints([], [])
        self._value, self._unjudged = None, NOTHING_YET

    def configure(self, chain, settings):
        """Take the model and the node's settings (SI units, checked: :mod:`parameters.rules`)."""
        self._band = settings['diagnostics.hysteresis']
        self._near = tuple(settings[f'safety.self_collision.{name}_distance']
                           for name in ('warn', 'error'))
        capsules = None
        if settings['safety.self_collision.enabled']:
            capsules = LinkCapsules(chain, rules.ignored(settings), 'safety.self_collision.ignore')
        self._capsules = capsules if capsules is not None and len(capsules.pairs) else None
        self.active = self._capsules is not None
        self.levels = {TASK: STALE} if self.active else {}
        self.points = self._capsules.points if self.active else LinkPoints([], [])
        self.parts = ('points',) if self.active else ()
        self.figures = tuple(
            Figure(f'{TASK}.{name}', TASK, self._near[1] if name == 'distance' else None,
                   name != 'closing_speed') for name in NAMES) if self.active else ()
        self.measured = False
        self._value, self._unjudged = None, NOTHING_YET
        self._chain, self._state, self._first = chain, None, 0

    @property
    def state(self):
        """Return the arm's state read here: the one :meth:`use` gave, else the ends' alone."""
        if self._state is None:  # made once, where no state was given
            self._state = ArmState(self._chain, self.points.links, self.points.offsets)
        return self._state

    def use(self, state, first=0):
        """Read the capsules' ends from ``state``'s points, from its ``first`` point on."""
        self._state, self._first = state, first

    def measure(self, rows):
        """
        Return the closest pair's figures in each of the state ``rows`` of :attr:`state`.

        ``rows``: (k, width), a row per message. Columns ``(pair, distance, closing_speed,
        time_to_collision)``, each (k,): the pair's index in :attr:`LinkCapsules.pairs`, m, m/s
        (0.0 at rest, never -0.0) and s (inf while not closing, 0 in contact). One message is
        one row. A block of 1000 rows costs 30 to 42 µs a row, its state's columns included,
        where a message alone costs 228 to 275 (the Panda's 60 or 44 pairs, a slow day:
        ``bench/self_collision.py``'s ``rows`` and ``closing``, 2026-11-29).
        """
        rows = np.asarray(rows, dtype=float)
        start = self.state.points.start + 6 * self._first
        ends = rows[:, start:start + 6 * len(self.points.links)].reshape(len(rows), -1, 6)
        pair, distance, speed = self._capsules.nearest(ends[..., :3], ends[..., 3:])
        speed += 0.0
        time = np.full(len(rows), math.inf)
        np.divide(distance, speed, out=time, where=speed > 0.0)
        time[distance <= 0.0] = 0.0
        return pair, distance, speed, time

    def ahead(self, rows):
        """Return the figures of each of a block's state ``rows``: :meth:`measure`'s, by row."""
        return list(zip(*(column.tolist() for column in self.measure(rows))))

    def update(self, q, qd, row=None):
        """
        Take every joint's position (rad or m) and rate (per s); tell whether the level moved.

        ``row`` is the arm's state there (:attr:`state`, at least :attr:`parts`), computed here
        where not given.
        """
        self.measured = True
        return self._judge(q, qd, row)

    def judge(self, sample):
        """
        Judge a :data:`Sample`'s configuration; tell whether the level moved.

        STALE while a joint's position is unknown; judged while a rate is (from the positions
        alone, no motion claimed).
        """
        q, qd = sample.configuration, sample.rates.qd
        self.measured = q is not None and None not in qd
        if q is not None:
            return self._judge(q, qd if self.measured else [0.0] * len(q), sample.state,
                               None if sample.figures is None else sample.figures.get(TASK))
        before, self._unjudged = self.levels[TASK], unknown_positions()
        self.levels[TASK] = STALE
        return before != STALE

    def _judge(self, q, qd, row, figures=None):
        if figures is None:
            if row is None:
                row = self.state.one([float(value) for value in q],
                                     [float(value) for value in qd], self.parts)
            figures = tuple(column[0].item() for column in self.measure([row]))
        before = self.levels[TASK]
        self._value = figures
        self._unjudged = None
        self.levels[TASK] = level(self._value[1], OK if before == STALE else before,
                                  *self._near, self._band)
        return self.levels[TASK] != before

    def topic_values(self):
        """Return the last message's figures, for ``~/safety`` (m, m/s, s); none unwatched."""
        if not self.active:
            return []
        return [math.nan] * len(NAMES) if self._value is None else list(self._value[1:])

    def statuses(self):
        """Return the status, while watched (SI units)."""
        if not self.active:
            return []
        level = self.levels[TASK]
        if self._unjudged is not None:
            return [Status(TASK, level, self._unjudged, ())]
        pair, distance, speed, time = self._value
        names = self._capsules.pair_name(pair)
        warn, error = self._near
        if not self.measured:  # judged from the positions alone: no rate to tell the motion
            motion, speed, time = 'its rate unknown', math.nan, math.nan
        else:
            motion = (f'closing at {_shown(speed)} m/s' if speed > 0.0
                      else f'parting at {_shown(-speed)} m/s' if speed < 0.0 else 'at rest')
        return [Status(TASK, level, f'{names.replace(" ", " and ")} {_shown(distance)} m '
                       f'apart (warn {_shown(warn)} m, error {_shown(error)} m), {motion}', (
                           ('closest pair', names), ('distance (m)', format_number(distance)),
                           ('closing speed (m/s)', format_number(speed)),
                           ('time to collision (s)', format_number(time)),
                           ('pairs judged', str(len(self._capsules.pairs)))))]


def _shown(value):
    return format_number(float(value), 3)
