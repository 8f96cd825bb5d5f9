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
When diagnostics are published: the scheduling half of diagnostic_updater's Updater.

- every ``period`` seconds;
- when forced (a level changed), at most once every ``CHANGE_INTERVAL_S`` seconds: a change
  within that interval of the last one is published when it ends (at the next tick), so no
  change is lost and a dithering joint cannot flood /diagnostics.

The caller ticks it every :func:`tick_s` seconds: ``TICK_S``, or the period where that is
shorter. Times are a monotonic clock, in ns.
"""

# At most this long between ticks, s. The node's timer costs CPU at every tick, whatever it
# does: at 1 kHz on the Panda, 20 ms ticks cost about 10 µs of CPU per message more than these.
TICK_S = 0.1
CHANGE_INTERVAL_S = 0.1
_CHANGE_INTERVAL_NS = int(CHANGE_INTERVAL_S * 1e9)


def tick_s(period):
    """Return the time between ticks, s, for a period of ``period`` s: at most TICK_S."""
    return min(TICK_S, period)


class Schedule:
    """
    The publication times of one diagnostic updater.

    Parameters
    ----------
    period : float
        Seconds between periodic publications.

    """

    def __init__(self, period=1.0):
        self.period_ns = int(period * 1e9)
        self._last_change_ns = None
        self._last_publish_ns = None
        self._pending = False

    def force(self, mono_ns):
        """Take a change; tell whether to publish it now (else it waits for a tick)."""
        if self._last_change_ns is not None and (
                mono_ns - self._last_change_ns < _CHANGE_INTERVAL_NS):
            self._pending = True
            return False
        self._last_change_ns = mono_ns
        return True

    def due(self, mono_ns):
        """On a tick: tell whether to publish now (a change that waited, or the period)."""
        if self._pending and self.force(mono_ns):
            return True
        return self._last_publish_ns is None or (
            mono_ns - self._last_publish_ns >= self.period_ns)

    def hold(self):
        """Keep a publication that was due pending (nobody to publish it to yet)."""
        self._pending = True

    @property
    def pending(self):
        """Whether a change waits to be published."""
        return self._pending

    def published(self, mono_ns):
        """Note a publication at ``mono_ns``."""
        self._last_publish_ns, self._pending = mono_ns, False
