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
What a replay's pictures show, in memory bounded by the pictures, not the bag.

Per message: rows of values, one per column (a joint's position, velocity, effort and effort
estimate; a safety figure), and the level of each column. They are kept in bins of time: each
bin holds the smallest and the largest value (so a spike shows, however long the bag) and the
highest level; when the bins are full, each two neighbours merge and a bin spans twice the
time.
"""

import numpy as np

__all__ = ['Series']

COLUMNS = ('position', 'velocity', 'effort', 'estimate')


class Series:
    """
    Binned min and max of each row of values over time, and the highest level per bin.

    Parameters
    ----------
    rows, n : int
        Values per message: ``rows`` rows (:data:`COLUMNS` for the joints) of ``n`` (the
        joints, or the safety figures), each of its own level.
    bins : int
        At most this many bins (even); a picture's width in points.

    """

    def __init__(self, rows, n, bins=2000):
        self._bins = bins
        self._span_ns = None  # the time one bin covers, set by the first two messages
        self._start_ns = None
        self._low = np.full((bins, rows, n), np.nan)
        self._high = np.full((bins, rows, n), np.nan)
        self._level = np.zeros((bins, n), dtype=np.int8)
        self._used = 0

    def add(self, stamps_ns, values, levels):
        """
        Take a block of messages in order: their stamps (ns), values and levels.

        ``values`` (m, rows, n): NaN where none; ``levels`` (m, n). A message goes to the bin
        its stamp falls in (the first bin for a stamp before the first message's), the bins
        merged as often as the newest needs.
        """
        stamps_ns = np.asarray(stamps_ns, dtype=np.int64)
        if not len(stamps_ns):
            return
        if self._start_ns is None:
            self._start_ns = int(stamps_ns[0])
        after = stamps_ns - self._start_ns
        if self._span_ns is None:  # the first stamp after the first message's sets the span
            later = np.flatnonzero(after > 0)
            if len(later):
                self._span_ns = int(after[later[0]])
        if self._span_ns is None:
            k = np.zeros(len(after), dtype=np.int64)
        else:
            while int(after.max()) // self._span_ns >= self._bins:
                self._halve()
            k = np.maximum(0, after // self._span_ns)
        np.fmin.at(self._low, k, np.asarray(values, dtype=float))
        np.fmax.at(self._high, k, np.asarray(values, dtype=float))
        np.maximum.at(self._level, k, np.asarray(levels, dtype=np.int8))
        self._used = max(self._used, int(k.max()) + 1)

    def _halve(self):
        """Merge each two neighbouring bins: twice the span, half the bins used."""
        low, high = self._low, self._high
        self._low = np.full_like(low, np.nan)
        self._high = np.full_like(high, np.nan)
        half = self._bins // 2
        self._low[:half] = np.fmin(low[0::2], low[1::2])
        self._high[:half] = np.fmax(high[0::2], high[1::2])
        level = np.zeros_like(self._level)
        level[:half] = np.maximum(self._level[0::2], self._level[1::2])
        self._level = level
        self._span_ns *= 2
        self._used = (self._used + 1) // 2

    def arrays(self):
        """Return ``(t, low, high, level)``: bin starts (s from the first), and per bin values."""
        used = self._used
        span = 0 if self._span_ns is None else self._span_ns
        return (np.arange(used) * span * 1e-9, self._low[:used], self._high[:used],
                self._level[:used])
