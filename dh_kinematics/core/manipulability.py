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
linear velocity (m/s) and angular velocity (rad/s). Three measures are taken of it: of its
translational and rotational blocks (3 x n each, whose units do not mix) and of the whole
(what moveit_servo judges: it decelerates at a condition number of 17 and halts at 30). For
each, the smallest singular value (m or rad per unit joint rate, mixed for the whole: how fast
the tool can still move in its weakest direction) and the condition number (largest over
smallest singular value: 1 for an isotropic arm, infinite at a singularity). A wrist
singularity (the Puma's at q5 = 0) shows in the whole Jacobian, not always in either block.

An arm with fewer than 6 joints, or a planar one, cannot span every direction anywhere: a
block's *rank* is what the arm reaches at a generic configuration (the largest numerical rank
over a few configurations spread over the limits), and only that many singular values are
judged. A block of rank 0 (the rotation of an arm of prismatic joints only) is not
judged at all.
"""

import math

import numpy as np

SAMPLES = 16
"""Configurations the generic rank of each block is taken over."""
RANK_TOLERANCE = 1e-9
"""A singular value counts toward the rank above this fraction of the largest."""


def generic_ranks(chain):
    """
    Return the ranks (translational, rotational, whole) the arm's Jacobian reaches.

    Taken as the largest numerical rank over :data:`SAMPLES` configurations spread
    deterministically (a Kronecker sequence: the fractional parts of multiples of square roots
    of primes) within the joint limits, or within +-pi rad (+-1 m) where a joint has none.
    """
    lower, upper = np.asarray(chain.qlim, dtype=float).T
    revolute = np.array([link.isrevolute() for link in chain.links])
    span = np.where(revolute, math.pi, 1.0)
    lower = np.where(np.isfinite(lower), lower, -span)
    upper = np.where(np.isfinite(upper), upper, span)
    steps = np.sqrt(_primes(chain.n))
    fractions = np.modf(np.outer(np.arange(1, SAMPLES + 1), steps))[0]
    ranks = [0, 0, 0]
    for J in chain.jacob0(lower + fractions * (upper - lower)):
        for block, rows in enumerate((J[:3], J[3:], J)):
            values = np.linalg.svd(rows, compute_uv=False)
            if values[0] > 0.0:
                rank = int((values > RANK_TOLERANCE * values[0]).sum())
                ranks[block] = max(ranks[block], rank)
    return tuple(ranks)


def _primes(count):
    """Return the first ``count`` primes."""
    primes, candidate = [], 2
    while len(primes) < count:
        if all(candidate % prime for prime in primes):
            primes.append(candidate)
        candidate += 1
    return np.array(primes, dtype=float)


def conditioning(J, ranks):
    """
    Return the smallest singular value and condition number of each block of ``J``.

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
    result = []
    for rows, rank in ((J[:3], ranks[0]), (J[3:], ranks[1]), (J, ranks[2])):
        if rank == 0:
            result += [math.nan, math.nan]
            continue
        values = np.linalg.svd(rows, compute_uv=False)
        smallest = float(values[rank - 1])
        result += [smallest, float(values[0]) / smallest if smallest > 0.0 else math.inf]
    return tuple(result)


def tool_speed(J, qd):
    """Return the linear speed (m/s) of the tool point at joint rates ``qd`` (rad/s or m/s)."""
    return float(np.linalg.norm(J[:3] @ np.asarray(qd, dtype=float)))
