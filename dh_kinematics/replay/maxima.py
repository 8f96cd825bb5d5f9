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

__all__ = ['Maxima', 'QUANTITIES']

QUANTITIES = ('position margin', 'velocity', 'acceleration', 'jerk', 'effort', 'residual',
              'external torque')
"""Each joint's quantities, in the order of the rows."""


class Maxima:
    """
    The worst values seen so far: :meth:`take` after each message, :meth:`rows` at the end.

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
        self._lower, self._upper = zip(*chain.qlim.tolist())
        links = chain.links
        self._limits = {'velocity': [link.velocity_limit for link in links],
                        'acceleration': [link.acceleration_limit for link in links],
                        'jerk': [link.jerk_limit for link in links],
                        'effort': [link.effort_limit for link in links]}
        self.worst = {}  # (subject, quantity) -> (value, stamp_ns, limit)
        self._figures = figures

    def _keep(self, key, value, stamp_ns, limit, larger=True):
        known = self.worst.get(key)
        if value == value and (known is None or (value > known[0] if larger
                                                 else value < known[0])):
            self.worst[key] = (value, stamp_ns, limit)

    def take(self, verdict):
        """Take the flow's :data:`Verdict` of one message."""
        keep, names, stamp_ns = self._keep, self._names, verdict.stamp_ns
        for j, name in enumerate(names):
            q = verdict.positions[j]
            keep((name, 'position margin'), min(q - self._lower[j], self._upper[j] - q),
                 stamp_ns, 0.0, larger=False)
            for quantity, values in (('velocity', verdict.velocities),
                                     ('acceleration', verdict.accelerations),
                                     ('jerk', verdict.jerks)):
                keep((name, quantity), abs(values[j]), stamp_ns, self._limits[quantity][j])
            keep((name, 'effort'), abs(verdict.efforts[j]), stamp_ns, self._limits['effort'][j])
            for quantity, values in (('residual', verdict.residuals),
                                     ('external torque', verdict.external)):
                keep((name, quantity), abs(values[j]), stamp_ns, None)
        if verdict.safety is not None:
            for figure, value in zip(self._figures, verdict.safety):
                keep(('safety', figure.label), value if figure.smaller else abs(value),
                     stamp_ns, figure.limit, larger=not figure.smaller)

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
