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
When the node publishes its joint-limit diagnostics, and with which levels.

Pure Python and numpy; the node calls :meth:`LimitDiagnostics.after_message` for each accepted
message and :meth:`LimitDiagnostics.on_tick` every ``TICK_S`` seconds, and publishes when
either says so. Diagnostics are published:

- every ``period`` seconds;
- when a level changes, at most once every ``CHANGE_INTERVAL_S`` seconds: a change within that
  interval of the last one is published when it ends, with the levels of that moment, so no
  change is lost and a dithering joint cannot flood /diagnostics;
- when a joint goes STALE, at its own deadline (within one tick), not at the next period.

Levels carry hysteresis (:func:`limit_monitor.joint_levels`). Times: ``now_ns`` is the node's
clock (stamps, STALE ages); ``mono_ns`` is a monotonic clock (the publication schedule).
"""

from dh_kinematics.stream import limits as limit_monitor
from dh_kinematics.stream.limits import STALE
import numpy as np

TICK_S = 0.02
CHANGE_INTERVAL_S = 0.1
_CHANGE_INTERVAL_NS = int(CHANGE_INTERVAL_S * 1e9)


class LimitDiagnostics:
    """
    The levels of every joint, and the schedule of their publication.

    Parameters
    ----------
    cache : JointStateCache
        The last joint values.

    """

    def __init__(self, cache):
        self._cache = cache
        self.levels = None
        self._check_all_ns = 0
        self._last_change_ns = None
        self._last_publish_ns = None
        self._pending = False

    def configure(self, chain, math, margin, band, timeout, period):
        """Take a model (:class:`Chain`, :class:`StreamMath`) and settings (SI units)."""
        self._lower, self._upper = chain.qlim.T
        self._math, self._margin, self._band = math, margin, band
        self._timeout, self._timeout_ns = timeout, int(timeout * 1e9)
        self._period_ns = int(period * 1e9)
        self._check_all_ns = 0  # limits, margin or timeout may have changed

    def _set_all(self, now_ns):
        """Recompute every joint's level; return whether one changed."""
        levels = limit_monitor.joint_levels(
            self._cache, self._lower, self._upper, self._margin, self._timeout, now_ns,
            self.levels, self._band)
        changed = not np.array_equal(levels, self.levels)
        self.levels = levels
        # No joint that is fresh now can go stale before this.
        fresh = self._cache.received_ns[levels != STALE]
        self._check_all_ns = fresh.min() + self._timeout_ns if len(fresh) else float('inf')
        return changed

    def after_message(self, joints, q, notes, now_ns, mono_ns):
        """
        Take the joints an accepted message set (indices, positions); tell whether to publish.

        Only those joints are checked, unless one was STALE, a value was non-finite, or some
        joint may have gone stale since the last full check.
        """
        levels = self.levels
        if (levels is None or now_ns >= self._check_all_ns
                or any(levels[j] == STALE for j in joints)
                or any(note.startswith('non_finite') for note in notes)):
            changed = self._set_all(now_ns)
        else:
            new = self._math.levels(joints, q, levels)
            changed = any(levels[j] != level for j, level in zip(joints, new))
            if changed:
                levels = levels.copy()
                levels[list(joints)] = new
                self.levels = levels
        return changed and self._change_due(mono_ns)

    def on_tick(self, now_ns, mono_ns):
        """Tell whether to publish now: a pending change, a joint gone stale, or the period."""
        if self.levels is None or now_ns >= self._check_all_ns:
            if self._set_all(now_ns):
                self._pending = True
        if self._pending and self._change_due(mono_ns):
            return True
        return self._last_publish_ns is None or (
            mono_ns - self._last_publish_ns >= self._period_ns)

    def _change_due(self, mono_ns):
        if self._last_change_ns is not None and (
                mono_ns - self._last_change_ns < _CHANGE_INTERVAL_NS):
            self._pending = True
            return False
        self._last_change_ns = mono_ns
        return True

    def statuses(self, now_ns, mono_ns, received, rate_hz):
        """Return the statuses to publish now (each joint, then the arm); note the publication."""
        if self.levels is None:
            self._set_all(now_ns)
        self._last_publish_ns, self._pending = mono_ns, False
        levels = self.levels
        statuses = [limit_monitor.joint_status(self._cache, j, level, self._lower, self._upper,
                                               self._margin, now_ns)
                    for j, level in enumerate(levels.tolist())]
        statuses.append(limit_monitor.arm_status(self._cache, levels, received, rate_hz))
        return statuses
