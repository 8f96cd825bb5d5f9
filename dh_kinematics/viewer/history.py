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


"""The last seconds of a watched quantity, for the page's plot (no viser, no ROS)."""

from collections import deque

import numpy as np


class History:
    """
    Samples of named quantities, each a row of values under fixed names, over a time window.

    Parameters
    ----------
    seconds : float
        How far back samples are kept, s.
    spacing : float
        The least time between two kept samples of a quantity, s (1 kHz streams thinned).

    """

    def __init__(self, seconds=10.0, spacing=0.01):
        self._seconds, self._spacing = seconds, spacing
        self._rows = {}  # quantity -> (names, deque of (t, values))

    def add(self, quantity, t, names, values):
        """Keep ``values`` (one per name, SI units) of ``quantity`` at monotonic time ``t``, s."""
        names = tuple(names)
        known = self._rows.get(quantity)
        if known is None or known[0] != names:
            known = self._rows[quantity] = (names, deque())
        rows = known[1]
        if rows and t - rows[-1][0] < self._spacing:
            return
        rows.append((t, np.array(values, dtype=float)))
        while rows and rows[0][0] < t - self._seconds:
            rows.popleft()

    @property
    def quantities(self):
        """Return the quantities that have samples, in the order they came."""
        return tuple(self._rows)

    def series(self, quantity, now):
        """
        Return the samples of ``quantity`` within the window before ``now``.

        Returns
        -------
        names : tuple of str
        t : array, shape (k,)
            Each sample's time before ``now``, s (<= 0).
        values : array, shape (len(names), k)

        """
        names, rows = self._rows.get(quantity, ((), ()))
        kept = [(t, values) for t, values in rows if t >= now - self._seconds]
        if not kept:
            return names, np.zeros(0), np.zeros((len(names), 0))
        return (names, np.array([t for t, _ in kept]) - now,
                np.array([values for _, values in kept]).T)
