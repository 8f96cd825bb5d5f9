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
How close an arm is to a singularity: the conditioning of its geometric Jacobian.

The Jacobian ``J = [J_v; J_w]`` (:meth:`Chain.jacob0`, 6 x n) maps joint rates to the tool's
linear velocity (m/s) and angular velocity (rad/s). Its whole condition number mixes metres
and radians: it changes with the unit of length, and at the scale of an arm it is above 17 in
half of all poses. So the measure the node judges is that of the **scaled** Jacobian

    J_s = [J_v / L; J_w] (revolute columns),  [J_v; 0] (prismatic columns, rates times L)

where the characteristic length ``L`` (:func:`characteristic_length`) is the RMS distance from
the revolute joints' axes to the tool point over configurations spread over the joint ranges:
a turn and a slide of the tool point then weigh alike, and ``J_s`` is dimensionless. It loses
rank exactly where ``J`` does, so it sees every singularity of the arm, the wrist's (the
Puma's at q5 = 0, where neither block of ``J`` loses rank) included. Beside it the blocks and
the unscaled whole are measured, as before: the translational and rotational blocks (3 x n,
whose units do not mix) and the whole (what moveit_servo judges). For each, the smallest
singular value (per unit joint rate: how fast the tool can still move in its weakest
direction) and the condition number (largest over smallest singular value: 1 for an
isotropic arm, infinite at a singularity).

An arm with fewer than 6 joints, or a planar one, cannot span every direction anywhere: a
block's *rank* is what the arm reaches at a generic configuration (the largest numerical rank
over a few configurations spread over the limits), and only that many singular values are
judged. A block of rank 0 (the rotation of an arm of prismatic joints only) is not
judged at all.
"""

import math

from dh_kinematics.core import configurations
import numpy as np

SAMPLES = 16
"""Configurations the generic rank of each block is taken over."""
RANK_TOLERANCE = 1e-9
"""A singular value counts toward the rank above this fraction of the largest."""


def _spread_jacobians(chain):
    """Return the Jacobians at :data:`SAMPLES` spread configurations, shape (SAMPLES, 6, n)."""
    return chain.jacob0(configurations.spread(chain, SAMPLES))


def generic_ranks(chain, jacobians=None):
    """
    Return the ranks (translational, rotational, whole) the arm's Jacobian reaches.

    Taken as the largest numerical rank over :data:`SAMPLES` configurations spread
    deterministically within the joint ranges (:func:`core.configurations.spread`);
    ``jacobians`` are the Jacobians there, where the caller has them.
    """
    ranks = [0, 0, 0]
    for J in _spread_jacobians(chain) if jacobians is None else jacobians:
        for block, rows in enumerate((J[:3], J[3:], J)):
            values = np.linalg.svd(rows, compute_uv=False)
            if values[0] > 0.0:
                rank = int((values > RANK_TOLERANCE * values[0]).sum())
                ranks[block] = max(ranks[block], rank)
    return tuple(ranks)


def characteristic_length(chain, jacobians=None):
    """
    Return the arm's characteristic length L, m: what a turn of the tool weighs in metres.

    The RMS distance from the revolute joints' axes to the tool point, over :data:`SAMPLES`
    configurations spread over the joint ranges: the RMS of the revolute columns of ``J_v``
    (each column's norm is that distance). 1 m for an arm with no revolute joint, or whose tool
    point is on every revolute axis. ``jacobians`` as for :func:`generic_ranks`.
    """
    revolute = np.array([link.isrevolute() for link in chain.links])
    if not revolute.any():
        return 1.0
    J = _spread_jacobians(chain) if jacobians is None else jacobians
    length = float(np.sqrt(np.mean(np.sum(J[:, :3, revolute] ** 2, axis=1))))
    return length if length > 0.0 else 1.0


class Conditioning:
    """
    The singularity measures of one arm: its generic ranks and length, found once.

    Parameters
    ----------
    chain : Chain

    Attributes
    ----------
    ranks : (int, int, int)
        :func:`generic_ranks`.
    length : float
        :func:`characteristic_length`, m.

    """

    def __init__(self, chain):
        jacobians = _spread_jacobians(chain)  # once, for both
        self.ranks = generic_ranks(chain, jacobians)
        self.length = characteristic_length(chain, jacobians)
        self.reach = reach(chain)
        prismatic = np.array([link.isprismatic() for link in chain.links])
        # How fast J_s can change per unit of each joint (module docstring of drift).
        root_n, R, L = math.sqrt(chain.n), self.reach, self.length
        self._rates = [root_n / L if slide else root_n * math.hypot(R / L, 1.0)
                       for slide in prismatic.tolist()]
        self._speeds = [1.0 if slide else R for slide in prismatic.tolist()]
        self._column_scale = np.where(prismatic, self.length, 1.0)
        self._row_scale = np.array([1.0 / self.length] * 3 + [1.0] * 3)[:, None]
        self._scale = self._row_scale * self._column_scale

    def scaled(self, J):
        """Return the scaled Jacobian ``J_s`` (dimensionless), shape (6, n)."""
        return J * self._scale

    def measures(self, J):
        """
        Return the smallest singular value and condition number of each block, and of ``J_s``.

        Parameters
        ----------
        J : array, shape (6, n) or (m, 6, n)
            Geometric Jacobian [v; w], world frame; or many, their SVDs at once.

        Returns
        -------
        tuple of 8 float, or of 8 arrays of shape (m,)
            ``(sigma_v, condition_v, sigma_w, condition_w, sigma, condition, sigma_scaled,
            condition_scaled)``: per unit joint rate m, rad, mixed and dimensionless, and the
            condition numbers; NaN for a block of rank 0, and a condition number of inf where
            its smallest judged singular value is 0.

        """
        return conditioning(J, self.ranks) + self.judged(J)

    def drift(self, q, q_reference):
        """
        Return a bound on ``|J_s(q) - J_s(q_reference)|`` (spectral norm), q in rad or m.

        A revolute joint k turns every axis and point beyond it: a column of ``J_s`` changes
        by at most ``sqrt((R / L)^2 + 1)`` per rad (its linear part ``z x (p - o)``, turned
        whole by a joint before it, or by the tool point's motion about axis k, by at most R,
        the :func:`reach`, over L; its angular part by 1); a prismatic joint's by at most
        ``1 / L`` per m. The Frobenius norm over n columns bounds the spectral one, and the
        path from ``q_reference`` to ``q`` sums the joints'. By Weyl's inequality every
        singular value moves by at most this much, which lets a caller know a level without
        an SVD.
        """
        total = 0.0
        for rate, a, b in zip(self._rates, q, q_reference):
            total += rate * abs(a - b)
        return total

    def speed_bound(self, qd):
        """Return a bound on the tool point's linear speed at joint rates ``qd``, m/s."""
        total = 0.0
        for speed, rate in zip(self._speeds, qd):
            total += speed * abs(rate)
        return total

    def judged(self, J):
        """Return ``(sigma_scaled, condition_scaled)`` of :meth:`measures` alone: one SVD."""
        return _values(J * self._scale, self.ranks[2])


def conditioning(J, ranks):
    """
    Return the smallest singular value and condition number of each block of ``J``, unscaled.

    Parameters
    ----------
    J : array, shape (6, n)
        Geometric Jacobian [v; w], world frame.
    ranks : (int, int, int)
        The generic ranks (:func:`generic_ranks`).

    Returns
    -------
    tuple of 6 float
        ``(sigma_v, condition_v, sigma_w, condition_w, sigma, condition)``: per unit joint
        rate, m, rad and mixed, and dimensionless; NaN for a block of rank 0, and a condition
        number of inf where its smallest judged singular value is 0.

    """
    return (_values(J[..., :3, :], ranks[0]) + _values(J[..., 3:, :], ranks[1])
            + _values(J, ranks[2]))


def _values(rows, rank):
    """
    Return (smallest judged singular value, condition number) of ``rows``.

    Of a stack of them, (m, rows, n): two arrays of shape (m,), the SVDs at once.
    """
    if rank == 0:
        return (math.nan, math.nan) if rows.ndim == 2 else (np.full(len(rows), math.nan),) * 2
    values = np.linalg.svd(rows, compute_uv=False)
    if values.ndim == 2:
        smallest, condition = values[:, rank - 1], np.full(len(values), math.inf)
        np.divide(values[:, 0], smallest, out=condition, where=smallest > 0.0)
        return smallest, condition
    smallest = float(values[rank - 1])
    return (smallest, float(values[0]) / smallest if smallest > 0.0 else math.inf)


def reach(chain):
    """
    Return a bound on the distance from any joint axis to the tool point, m.

    The sum of every link's |a| and |d| (a prismatic joint's largest |d| within its limits)
    and the tool's offset: inf where a prismatic joint has no limits.
    """
    total = float(np.linalg.norm(chain.tool[:3, 3]))
    for link in chain.links:
        if link.isprismatic():
            if link.qlim is None:
                return math.inf
            total += max(abs(value) for value in link.qlim) + abs(link.offset) + abs(link.a)
        else:
            total += abs(link.a) + abs(link.d)
    return total


def tool_speed(J, qd):
    """
    Return the linear speed (m/s) of the tool point at joint rates ``qd`` (rad/s or m/s).

    Of many, ``J`` (m, 6, n) and ``qd`` (m, n): an array of shape (m,).
    """
    qd = np.asarray(qd, dtype=float)
    if J.ndim == 3:
        return np.linalg.norm((J[:, :3] @ qd[:, :, None])[..., 0], axis=1)
    return float(np.linalg.norm(J[:3] @ qd))
