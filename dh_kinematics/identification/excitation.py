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
Exciting trajectories: five harmonics a joint, chosen to tell the base parameters apart.

Each joint follows a finite Fourier series (Swevers, Ganseman, De Schutter, Van Brussel, IEEE
TRA 1997), periodic in ``period`` s, with ``w = 2 pi / period``:

    q_j(t) = c_j + s_j sum_{l=1..5} (a_jl sin(l w t) - b_jl cos(l w t)) / (l w)

The shape (``a``, ``b``) is chosen to make the base regressor's condition number small over one
period; ``c_j`` is the middle of the joint's range and ``s_j`` the largest scale that keeps
the joint within :data:`RANGE_USED` of its range, below its velocity limit and below its
acceleration limit (:data:`VELOCITY_DEFAULT` and :data:`ACCELERATION_DEFAULT` where the model
has none). The search: :data:`CANDIDATES` random shapes (seeded), then :data:`STEPS` random
steps from the best, each kept where it lowers the condition number (a (1+1) evolution
strategy, whose step shrinks when it fails): no gradient of a condition number needed.
"""

from dataclasses import dataclass
import math

from dh_kinematics.core.configurations import ranges
from dh_kinematics.core.dynamics import regressor
from dh_kinematics.identification.fit import expected_base
import numpy as np

HARMONICS = 5
RANGE_USED = 0.8
"""The fraction of each joint's range a trajectory may use, about its middle."""
VELOCITY_DEFAULT = 1.0
"""A joint's speed limit where the model has none, rad/s (m/s for a prismatic joint: x 0.25)."""
ACCELERATION_DEFAULT = 3.0
"""A joint's acceleration limit where the model has none, rad/s^2 (m/s^2: x 0.25)."""
SAMPLES = 100
"""Samples over one period on which the condition number is found."""
CANDIDATES = 20
"""Random shapes tried first."""
STEPS = 80
"""Random steps from the best shape."""


@dataclass(frozen=True)
class Excitation:
    """
    A Fourier trajectory for every joint.

    Attributes
    ----------
    period : float
        s.
    centre, scale : array, shape (n,)
        ``c`` (rad or m) and ``s`` of each joint.
    a, b : array, shape (n, 5)
        The shape's coefficients.
    condition : float
        The base regressor's condition number over one period.

    """

    period: float
    centre: np.ndarray
    scale: np.ndarray
    a: np.ndarray
    b: np.ndarray
    condition: float

    def at(self, t):
        """Return q, qd, qdd at the times ``t`` (s), shapes (len(t), n)."""
        return _motion(np.asarray(t, dtype=float), self.period, self.centre, self.scale,
                       self.a, self.b)


def _motion(t, period, centre, scale, a, b):
    w = 2.0 * math.pi / period * np.arange(1, HARMONICS + 1)
    phase = np.outer(t, w)
    sin, cos = np.sin(phase), np.cos(phase)
    q = sin @ (a / w).T - cos @ (b / w).T
    qd = cos @ a.T + sin @ b.T
    qdd = -sin @ (a * w).T + cos @ (b * w).T
    return centre + q * scale, qd * scale, qdd * scale


def _limits(chain):
    prismatic = np.array([link.isprismatic() for link in chain.links])
    unit = np.where(prismatic, 0.25, 1.0)

    def limit(field, default):
        return np.array([getattr(link, field) or default * u
                         for link, u in zip(chain.links, unit)])
    return limit('velocity_limit', VELOCITY_DEFAULT), limit('acceleration_limit',
                                                            ACCELERATION_DEFAULT)


def _scaled(shape, period, half, velocity, acceleration):
    """
    Return each joint's scale and the shift that centres it.

    The bounds are met on 1000 samples a period, 200 a cycle of the fifth harmonic, where a
    peak is missed by at most 1.3e-4 of itself; the scale keeps 1e-3 in hand.
    """
    t = np.arange(1000) * (period / 1000)
    q, qd, qdd = _motion(t, period, 0.0, 1.0, *shape)
    excursion = np.abs(q - q.mean(axis=0)).max(axis=0)
    scale = (1.0 - 1e-3) * np.min([half / excursion, velocity / np.abs(qd).max(axis=0),
                                   acceleration / np.abs(qdd).max(axis=0)], axis=0)
    return scale, -q.mean(axis=0) * scale


def excite(chain, period=10.0, seed=0):
    """
    Return an :class:`Excitation` of ``chain`` with a small base condition number.

    Parameters
    ----------
    chain : Chain
        Its limits bound the trajectory; its kinematics, gravity and gear ratios set the
        regressor.
    period : float
        The trajectory's period, s (> 0).
    seed : int
        The search's random numbers.

    """
    if not (math.isfinite(period) and period > 0.0):
        raise ValueError(f'--period: {period!r} must be a positive number of seconds')
    rng = np.random.default_rng(seed)
    lower, upper = ranges(chain)
    middle, half = 0.5 * (lower + upper), 0.5 * RANGE_USED * (upper - lower)
    velocity, acceleration = _limits(chain)
    t = np.arange(SAMPLES) * (period / SAMPLES)
    dyn = chain.dynamic_constants
    columns = list(expected_base(chain, seed).columns)

    def condition(shape):
        scale, shift = _scaled(shape, period, half, velocity, acceleration)
        q, qd, qdd = _motion(t, period, middle + shift, scale, *shape)
        Y = regressor.regressor(dyn, q, qd, qdd)[:, :, columns].reshape(-1, len(columns))
        return float(np.linalg.cond(Y))

    best = rng.normal(size=(2, chain.n, HARMONICS))
    cost = condition(best)
    for _ in range(CANDIDATES - 1):
        shape = rng.normal(size=(2, chain.n, HARMONICS))
        value = condition(shape)
        if value < cost:
            best, cost = shape, value
    step = 0.3
    for _ in range(STEPS):
        shape = best + step * rng.normal(size=best.shape)
        value = condition(shape)
        if value < cost:
            best, cost, step = shape, value, step * 1.5
        else:
            step *= 0.9
    scale, shift = _scaled(best, period, half, velocity, acceleration)
    return Excitation(period, middle + shift, scale, best[0], best[1], cost)
