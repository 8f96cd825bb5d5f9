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
Limits of the whole arm, watched per message: the tool's speed and nearness to a singularity.

- **Tool speed**: the linear speed of the tool frame's origin, ``|J_v(q) qd|`` (m/s), against
  ``tool_speed_limit`` (ISO 10218-1's reduced speed is 0.25 m/s), with the WARN fraction and
  hysteresis of the joints' motion limits (:func:`monitors.motion.ratio_level`).
- **Singularity**: the condition number of the scaled Jacobian
  (:mod:`core.kinematics.manipulability`: its linear rows over the arm's characteristic length, so
  that units do not mix and every singularity shows, the wrist's included) against
  ``singularity.warn`` and ``singularity.error`` (500 and 1000 by default: at most 5 % of random
  configurations of the shipped arms reach WARN); a level clears once the condition number is
  ``singularity.hysteresis`` (a fraction) below the threshold that raised it. A status above OK
  names the kind where the arm's geometry tells it (:mod:`core.kinematics.singularities`): ``wrist
  singularity: joint5 at 0.004 rad (...)``. The blocks' and the unscaled whole Jacobian's values
  are reported beside it.

Each is a status of its own on /diagnostics (``tool_speed``, ``singularity``), which the arm's
summary counts like a joint. Nothing here runs while neither is switched on.
"""

import math

from dh_kinematics.core.display import format_number
from dh_kinematics.core.kinematics import manipulability, singularities
from dh_kinematics.core.state import ArmState
from dh_kinematics.node_logic.monitors.levels import (
    ERROR, OK, ratio_level, STALE, threshold_level)
from dh_kinematics.node_logic.monitors.sample import (
    NOTHING_YET, unknown_positions, unknown_rates)
from dh_kinematics.node_logic.monitors.tasks import against_limit, Status
import numpy as np

MEASURES = ('sigma_translation', 'condition_translation', 'sigma_rotation',
            'condition_rotation', 'sigma', 'condition', 'sigma_scaled', 'condition_scaled')
"""The values of :meth:`manipulability.Conditioning.measures`, by name (m, rad, mixed or
dimensionless per unit rate; condition numbers dimensionless)."""
_UNMEASURED = (math.nan,) * (len(MEASURES) - 2)  # all but the judged two, where not measured


class ArmLimits:
    """
    The tool-speed and singularity levels of the arm.

    Attributes
    ----------
    measures : tuple of 8 float
        The last :data:`MEASURES`; NaN until known.
    speed : float
        The tool's last linear speed, m/s; NaN until known.
    levels : dict
        'tool_speed' and 'singularity' -> OK, WARN or ERROR.
    measured : bool
        Whether the last :meth:`judge` found the measures (every joint's position known).

    """

    def __init__(self):
        self.active = self.watch_speed = self.watch_singularity = self.measured = False
        self._chain = self._q = self._qd = self._J = self._reference = None
        self._stale = False
        self.measures, self.speed = (math.nan,) * len(MEASURES), math.nan
        self.levels = {'tool_speed': STALE, 'singularity': STALE}
        self._unjudged = dict.fromkeys(self.levels, NOTHING_YET)

    def configure(self, chain, settings):
        """
        Take the model and the node's settings (SI units, checked: :mod:`parameters.rules`).

        The generic ranks and the characteristic length are found once here
        (:class:`manipulability.Conditioning`), and the kinds of singularity the geometry
        names (:class:`singularities.Kinds`), so the measures are ready for
        ``~/manipulability`` even while nothing is watched.
        """
        self._chain, self._state = chain, None
        self._speed_limit = settings['tool_speed_limit']
        self._warn_fraction = settings['limits.warn_fraction']
        self._hysteresis = settings['limits.hysteresis']
        self._thresholds = (settings['singularity.warn'], settings['singularity.error'])
        self._keep = 1.0 - settings['singularity.hysteresis']
        self.watch_speed = math.isfinite(self._speed_limit)
        self.watch_singularity = settings['singularity.enabled']
        self.active = self.watch_speed or self.watch_singularity
        self._conditioning = manipulability.Conditioning(chain)
        self._kinds = singularities.Kinds(chain, self._conditioning.ranks[2],
                                          self._conditioning.length)
        self._q = self._qd = self._J = self._reference = None
        self._stale = False
        self.measures, self.speed = (math.nan,) * len(MEASURES), math.nan
        self.levels = {'tool_speed': STALE, 'singularity': STALE}
        self._unjudged = dict.fromkeys(self.levels, NOTHING_YET)

    @property
    def state(self):
        """Return the arm's state the Jacobian is read from: :meth:`use`'s, else the arm's."""
        if self._state is None:  # made once, where no state was given
            self._state = ArmState(self._chain)
        return self._state

    def use(self, state):
        """Take the tool's Jacobian from ``state`` (:class:`core.state.ArmState`) if not given."""
        self._state = state

    def ahead(self, J, QD, measure=False):
        """
        Return the measures and the tool's speed at each of a block's configurations, at once.

        ``J`` (m, 6, n): the tool's Jacobians there, from the arm's state; ``QD`` (m, n): the
        joint rates (per s; 0 where one is unknown). A pair ``(measures, speed)`` per
        configuration, for :meth:`update` with the same ``measure``; the SVDs of the stack as
        one call each. Without ``measure`` (``~/manipulability`` not wanted), the judged two
        alone (one SVD of four), the others NaN: a status computes them when it is asked for.
        """
        conditioning = self._conditioning
        found = conditioning.measures(J) if measure else (
            (np.full(len(J), math.nan),) * len(_UNMEASURED) + conditioning.judged(J))
        measures = zip(*(np.asarray(value).tolist() for value in found))
        return list(zip(measures, manipulability.tool_speed(J, QD).tolist()))

    def update(self, q, qd=None, measure=False, jacobian=None, figures=None):
        """
        Take the whole configuration (rad or m) and joint rates (or None); tell if a level moved.

        ``jacobian`` is the tool's Jacobian there (6, n), from the arm's state
        (:class:`core.state.ArmState`); taken from :attr:`state` here where not given. With
        ``measure`` (for ``~/manipulability``) every measure and the speed are computed; with
        ``figures``, :meth:`ahead`'s of this configuration, they are taken from it.
        Otherwise the singularity's level is judged the short way where a bound settles it: the
        scaled condition number lies within the bounds that :meth:`Conditioning.drift` puts on
        the singular values since the last configuration measured; only where it leaves the
        level open is the SVD computed. On the Panda with every monitor on
        (``bench/short_ways.py``, 2026-11-28) it saves 5 µs of 115 per message at real time and
        nothing on the benchmark's sweep ten times faster. (A bound on the tool's speed saved
        nothing on either and was folded away: the Jacobian is computed whenever the speed is
        watched.) What a status shows is computed when it is asked for.
        """
        before = dict(self.levels)
        self._q, self._qd, self._J = q, qd, jacobian
        J = jacobian
        self._stale = not measure  # every measure only where asked for (ahead's too)
        measure = measure or figures is not None
        self._unjudged.pop('singularity', None)
        if qd is not None:
            self._unjudged.pop('tool_speed', None)
        if figures is not None:
            self.measures, speed = figures
            self._reference = (q, self.measures[-2], self.measures[-2] * self.measures[-1])
            if qd is not None:
                self.speed = speed
        elif measure:
            J = self._jacob0(q) if J is None else J
            self.measures = self._conditioning.measures(J)
            self._reference = (q, self.measures[-2], self.measures[-2] * self.measures[-1])
            if qd is not None:
                self.speed = manipulability.tool_speed(J, qd)
        if self.watch_speed and qd is not None:
            if not measure:  # measured above
                J = self._jacob0(q) if J is None else J
                self.speed = manipulability.tool_speed(J, qd)
            self.levels['tool_speed'] = ratio_level(
                self.speed / self._speed_limit, self.levels['tool_speed'], self._warn_fraction,
                self._hysteresis)
        if self.watch_singularity:
            previous = self.levels['singularity']
            if measure or previous == STALE or not self._settled(q, previous):
                if not measure:
                    J = self._jacob0(q) if J is None else J
                    self.measures = _UNMEASURED + self._conditioning.judged(J)
                    self._reference = (q, self.measures[-2],
                                       self.measures[-2] * self.measures[-1])
                self.levels['singularity'] = self._singularity_level(previous)
        return self.levels != before

    def _jacob0(self, q):
        """Return the tool's Jacobian [v; w] at ``q`` (rad or m), from :attr:`state`."""
        state = self.state
        q = [float(value) for value in q]
        J = self._J = state.jacobian_of(state.one(q, [0.0] * len(q), ('jacobian',)))
        return J

    def _settled(self, q, previous):
        """Tell whether the bounds on the condition number since the reference keep the level."""
        if self._reference is None:
            return False
        q_reference, smallest, largest = self._reference
        drift = self._conditioning.drift(q, q_reference)
        if not smallest > drift:
            return False
        low, high = (largest - drift) / (smallest + drift), (largest + drift) / (smallest - drift)
        warn, error = self._thresholds
        keep = self._keep
        return (threshold_level(low, previous, warn, error, warn * keep, error * keep)
                == threshold_level(high, previous, warn, error, warn * keep, error * keep))

    def _refresh(self):
        """Compute what a status shows for the latest configuration, where it was skipped."""
        if self._stale and self._q is not None:
            J = self._jacob0(self._q) if self._J is None else self._J
            self.measures = self._conditioning.measures(J)
            if self._qd is not None:
                self.speed = manipulability.tool_speed(J, self._qd)
            self._stale = False

    def judge(self, sample):
        """
        Judge a :data:`Sample`'s whole configuration; tell whether a level moved.

        :attr:`measured` tells whether the measures are this message's: not while a joint's
        position is unknown (the sample has no configuration).
        """
        q, qd, before = sample.configuration, sample.rates.qd, dict(self.levels)
        self.measured = q is not None
        if q is None:
            self._unjudged = dict.fromkeys(self.levels, unknown_positions())
        else:
            if None in qd:  # update judges the tool's speed only with every rate
                self._unjudged['tool_speed'] = unknown_rates(sample, self._chain)
            self.update(q, None if None in qd else qd, sample.measure, sample.jacobian,
                        None if sample.figures is None else sample.figures.get('arm'))
        self.levels.update(dict.fromkeys(self._unjudged, STALE))
        return self.levels != before

    def _singularity_level(self, previous):
        condition = self.measures[-1]
        if condition != condition:
            return previous
        warn, error = self._thresholds
        return threshold_level(condition, previous, warn, error, warn * self._keep,
                               error * self._keep)

    def statuses(self, only=None):
        """
        Return the statuses of what is watched: tool speed, singularity (SI units).

        ``only``: the tasks wanted (a set), or all; nothing is computed for the others.
        """
        shown_speed, shown_singularity = (
            watched and (only is None or task in only) for task, watched in (
                ('tool_speed', self.watch_speed), ('singularity', self.watch_singularity)))
        if not (shown_speed or shown_singularity):
            return []
        self._refresh()
        statuses = []
        if shown_speed:
            level, speed, limit = self.levels['tool_speed'], self.speed, self._speed_limit
            tool = self._chain.tool_frame
            if 'tool_speed' in self._unjudged:
                message = self._unjudged['tool_speed']
            else:
                message = (f'{tool} at {format_number(speed, 3)} m/s '
                           f'({against_limit(speed, limit)})')
            statuses.append(Status('tool_speed', level, message, (
                ('frame', tool), ('speed', format_number(speed)),
                ('limit', format_number(limit)))))
        if shown_singularity:
            statuses.append(self._singularity_status())
        return statuses

    def _singularity_status(self):
        level, condition = self.levels['singularity'], self.measures[-1]
        warn, error = self._thresholds
        kind = None
        if 'singularity' in self._unjudged:
            message = self._unjudged['singularity']
        else:
            shown = format_number(condition, 4)
            if level == OK:
                message = f'condition number {shown}, below {format_number(warn)}'
            else:
                limit = format_number(error if level == ERROR else warn)
                kind = self._kinds.named(self._q)
                message = (f'{kind.message}: condition number {shown} above {limit}'
                           if kind is not None else
                           f'near a singularity: condition number {shown} above {limit}')
        values = tuple((name, format_number(value)) for name, value in zip(
            MEASURES, self.measures)) + (
            ('length', format_number(self._conditioning.length)),
            ('kind', '' if kind is None else kind.kind), ('warn', format_number(warn)),
            ('error', format_number(error)))
        return Status('singularity', level, message, values)
