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
The effort monitor: measured against expected joint efforts, per joint, with levels.

When joint_states carries ``effort``, each joint's residual is either the external torque of the
momentum observer (:mod:`node_logic.momentum_observer`, ``effort.estimator: observer``, where
the message carries every joint's velocity and effort) or ``measured - expected`` (N m or N),
the expected effort being the model's inverse dynamics at the joint's state
(:meth:`StreamMath.torques`). A residual that departs from 0 is a collision, a payload other
than the one configured, a brake not released or friction that has grown; the most distal
joint whose observer estimate has a level names the link the contact is at or beyond
(:meth:`EffortMonitor.contact`). Levels follow diagnostic_msgs (:mod:`limits`):

- WARN once ``|residual|`` has stayed above ``effort.warn`` for ``effort.hold`` seconds of
  message stamps, ERROR likewise above ``effort.error``, so that a single spike does not alarm;
- a level clears only once ``|residual|`` is below ``(1 - effort.hysteresis)`` of its
  threshold, as the limit levels clear only once back inside by a band;
- a threshold of ``inf`` (the default) is off; one value is every joint's, or one per joint;
- with ``effort.rest_speed`` > 0, ``effort.rest_warn`` and ``effort.rest_error`` judge while
  every joint is slower than it (the arm at rest: its estimate's noise is not its motion's, as
  Franka's collision thresholds differ by phase); a joint's unknown rate is motion.

A joint keeps its level while messages carry no effort for it; when its joint_states stop
altogether, the limit monitor makes it STALE.
"""

import math

from dh_kinematics.core.display import format_number
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, WARN
from dh_kinematics.parameters.rules import per_joint
import numpy as np


class EffortMonitor:
    """
    The effort level and last residual of every joint.

    Parameters
    ----------
    n : int
        Number of joints.

    Attributes
    ----------
    levels : array of int, shape (n,)
        OK, WARN or ERROR.
    measured, expected, residual : list of float
        Per joint, the last values (N m or N); NaN until known (the expected effort also under
        the observer, which needs none).
    observed : list of bool
        Per joint, whether its last residual was the observer's estimate of external torque.

    """

    def __init__(self, n):
        self._n = n
        self.active = False
        self.levels = np.full(n, OK)
        self._thresholds = self._moving = self._resting = [(math.inf, math.inf)] * n
        self._rest_speed = 0.0
        self._hold_ns, self._keep = 0, 1.0
        self._units = ['N m'] * n
        self._links = [''] * n
        self._floor, self._armed = math.inf, True
        self.forget()

    def forget(self):
        """Clear the residuals and levels (the monitor was turned off or on)."""
        n = self._n
        self.measured, self.expected, self.residual = [math.nan] * n, [math.nan] * n, [
            math.nan] * n
        self.observed = [False] * n
        self.restart_holds()
        self.levels = np.full(n, OK)
        self._armed = True

    def restart_holds(self):
        """Forget when each residual passed its threshold (the stamps' clock jumped back)."""
        self._since = [[None, None] for _ in range(self._n)]

    def configure(self, chain, settings):
        """Take the model (:class:`Chain`) and the node's settings, checked by the caller."""
        warn, error, rest_warn, rest_error = (per_joint(settings[name], self._n) for name in (
            'effort.warn', 'effort.error', 'effort.rest_warn', 'effort.rest_error'))
        self._rest_speed = settings['effort.rest_speed']
        if not self._rest_speed > 0.0:
            rest_warn, rest_error = warn, error
        self._units = ['N' if link.isprismatic() else 'N m' for link in chain.links]
        self._links = list(chain.link_frames)
        every = warn + error + rest_warn + rest_error
        active = any(math.isfinite(value) for value in every)
        if active != self.active:
            self.forget()
        self.active = active
        self._thresholds = self._moving = list(zip(warn, error))
        self._resting = list(zip(rest_warn, rest_error))
        self._hold_ns = int(settings['effort.hold'] * 1e9)
        self._keep = 1.0 - settings['effort.hysteresis']
        # Below this, no level can rise and none needs clearing: the common case, kept cheap.
        self._floor = min(every)
        self._armed = True

    def update(self, joints, measured, expected, stamp_ns, residuals=None, observed=False):
        """
        Take measured and expected efforts (N m or N); tell whether a level changed.

        ``residuals``: measured - expected, when the caller has them already; with
        ``observed``, the observer's external torques instead, and ``expected`` None.
        """
        if residuals is None:
            residuals = [value - model for value, model in zip(measured, expected)]
        store_measured, store_expected, store_residual = self.measured, self.expected, (
            self.residual)
        if observed:
            for j, value, residual in zip(joints, measured, residuals):
                store_measured[j], store_expected[j], store_residual[j] = value, math.nan, residual
                self.observed[j] = True
        else:
            for j, value, model, residual in zip(joints, measured, expected, residuals):
                store_measured[j], store_expected[j], store_residual[j] = value, model, residual
                self.observed[j] = False
        if not self._armed and residuals and max(map(abs, residuals)) <= self._floor:
            return False
        changed = False
        levels = self.levels
        for j, residual in zip(joints, residuals):
            level = self._level(j, abs(residual), stamp_ns, levels[j])
            if level != levels[j]:
                if not changed:
                    levels = self.levels = levels.copy()
                    changed = True
                levels[j] = level
        self._armed = bool(levels.any()) or any(
            since[0] is not None or since[1] is not None for since in self._since)
        return changed

    def judge(self, sample):
        """
        Judge a :data:`Sample`'s efforts, where it has them; tell whether a level changed.

        At rest (every joint's rate known and below ``effort.rest_speed``) by the rest
        thresholds, else by the motion ones.
        """
        if sample.efforts is None:
            return False
        speed, qd = self._rest_speed, sample.rates.qd
        self._thresholds = self._resting if speed > 0.0 and None not in qd and max(
            map(abs, qd), default=0.0) < speed else self._moving
        return self.update(*sample.efforts)

    def describe(self, j):
        """Say how far joint ``j``'s effort is from the model's: 'external torque +12 N m'."""
        what = 'external torque' if self.observed[j] else 'effort residual'
        return f'{what} {self.residual[j]:+.3g} {self._units[j]}'

    def contact(self):
        """
        Return the link a contact is at or beyond, or None: the most distal joint's link.

        The most distal joint whose observer estimate has a level (WARN or ERROR): an external
        force on a link acts on its joint and the joints before it, never on those after it.
        """
        for j in range(self._n - 1, -1, -1):
            if self.levels[j] != OK and self.observed[j]:
                return self._links[j]
        return None

    def values(self, j):
        """Return joint ``j``'s key/values: measured, expected and residual effort (SI)."""
        if math.isnan(self.residual[j]):
            return ()
        pairs = (('effort', self.measured[j]), ('external_torque', self.residual[j])) if (
            self.observed[j]) else (('effort', self.measured[j]),
                                    ('expected_effort', self.expected[j]),
                                    ('effort_residual', self.residual[j]))
        return tuple((key, format_number(value)) for key, value in pairs + (
            ('effort_warn', self._thresholds[j][0]), ('effort_error', self._thresholds[j][1])))

    def _level(self, j, size, stamp_ns, current):
        since = self._since[j]
        raised = OK
        for k, (level, threshold) in enumerate(zip((WARN, ERROR), self._thresholds[j])):
            if size > threshold:
                if since[k] is None:
                    since[k] = stamp_ns
                if stamp_ns - since[k] >= self._hold_ns:
                    raised = level
            else:
                since[k] = None
        if raised >= current:
            return raised
        for level, threshold in zip((ERROR, WARN), reversed(self._thresholds[j])):
            if level <= current and size > self._keep * threshold:
                return max(level, raised)
        return raised
