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
The worst of each joint's quantities and each safety figure over a replay, with stamp and limit.

Per joint: the smallest position margin (rad or m; negative past a limit), and the largest
|velocity|, |acceleration|, |jerk| (the flow's estimates, :class:`RateEstimate`), |effort|
(the message's), |residual| (measured - expected effort) and |external torque| (the momentum
observer's), each where the messages give it; per safety figure of ``~/safety``
(:data:`Figure`), its largest size, or its smallest value where smaller is worse (a plane's
distance, the permitted contact speed).
"""

import math

import numpy as np

__all__ = ['Maxima', 'QUANTITIES']

QUANTITIES = ('position margin', 'velocity', 'acceleration', 'jerk', 'effort', 'residual',
              'external torque')
"""Each joint's quantities, in the order of the rows."""


class Maxima:
    """
    The worst values seen so far: :meth:`take` after each block, :meth:`rows` at the end.

    Parameters
    ----------
    chain : Chain
        The model: its joint names and limits.
    figures : tuple of Figure
        The safety figures of ``~/safety`` (:attr:`Safety.figures`; none where none is
        watched).

    """

    def __init__(self, chain, figures=()):
        self._names = chain.joint_names
        self._lower, self._upper = chain.qlim[:, 0], chain.qlim[:, 1]
        links = chain.links
        self._limits = {'velocity': [link.velocity_limit for link in links],
                        'acceleration': [link.acceleration_limit for link in links],
                        'jerk': [link.jerk_limit for link in links],
                        'effort': [link.effort_limit for link in links]}
        self.worst = {}  # (subject, quantity) -> (value, stamp_ns, limit)
        self._figures = figures

    def take(self, stamps, values, safety_stamps=(), safety=None):
        """
        Take a block of messages, in order.

        ``stamps`` (ns) and ``values`` (m, 7, n), each joint's values of a message in the order
        of :data:`QUANTITIES` but its position in place of the margin (NaN where none);
        ``safety_stamps`` and ``safety`` (k, figures), the messages whose safety figures were
        measured, and those figures.
        """
        names, limits = self._names, self._limits
        q = values[:, 0]
        self._keep(names, 'position margin', np.minimum(q - self._lower, self._upper - q),
                   stamps, [0.0] * len(names), larger=False)
        for k, quantity in enumerate(QUANTITIES[1:], 1):
            self._keep(names, quantity, np.abs(values[:, k]), stamps,
                       limits.get(quantity, [None] * len(names)))
        if len(safety_stamps) and self._figures:
            for k, figure in enumerate(self._figures):
                self._keep(['safety'], figure.label, safety[:, k:k + 1] if figure.smaller
                           else np.abs(safety[:, k:k + 1]), safety_stamps, [figure.limit],
                           larger=not figure.smaller)

    def _keep(self, subjects, quantity, values, stamps, limits, larger=True):
        """Keep each column's worst of ``values`` (m, subjects; NaN: none), the first of ties."""
        known = ~np.isnan(values)
        for j in np.flatnonzero(known.any(axis=0)).tolist():
            found = values[known[:, j], j]
            worst = found.max() if larger else found.min()
            key, kept = (subjects[j], quantity), self.worst.get((subjects[j], quantity))
            if kept is None or (worst > kept[0] if larger else worst < kept[0]):
                row = int(np.argmax(values[:, j] == worst))
                self.worst[key] = (float(worst), stamps[row], limits[j])

    def rows(self):
        """
        Return the rows: ``(subject, quantity, worst, stamp_s, limit)``, limit NaN where none.

        The joints in model order, each's quantities in :data:`QUANTITIES` order, then the
        safety figures in ``~/safety``'s order.
        """
        order = {name: k for k, name in enumerate(self._names)}
        figures = {figure.label: k for k, figure in enumerate(self._figures)}

        def key(item):
            subject, quantity = item[0]
            if subject in order:
                return order[subject], QUANTITIES.index(quantity)
            return len(order), figures[quantity]
        return [(subject, quantity, value, stamp_ns * 1e-9,
                 math.nan if limit is None else limit)
                for (subject, quantity), (value, stamp_ns, limit) in sorted(
                    self.worst.items(), key=key)]
