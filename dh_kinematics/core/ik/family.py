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
A goal with a free tool axis, on an arm with a closed form: the member nearest the start.

A pose whose rotation about the tool's axis ``k`` (x, y or z) is free is a family of poses
``T(phi) = T R_k(phi)``, one angle ``phi`` (rad) about that axis. The closed form gives every
solution of each member; the distance (Euclidean, rad and m) of the nearest of them from ``q0``
is a function of ``phi``. It is sampled at :data:`SAMPLES` angles round the turn, all members
at once, and each of its local minima among the samples is refined by a golden-section search
on the angle (to :data:`ANGLE_TOL`; the least value it meets, so that a minimum where a
solution leaves the limits is found on its side); the nearest of those is the answer.
"""

import math

from dh_kinematics.core.ik.result import IKResult
import numpy as np

SAMPLES = 72
"""Members of the family solved at once, 5 degrees apart."""
ANGLE_TOL = 1e-12
"""Where the golden-section search stops: its bracket this wide (rad)."""
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def nearest(closed, T, q0, search, tol, axis):
    """
    Return the :class:`IKResult` of the member of ``T``'s family whose solution is nearest q0.

    Parameters
    ----------
    closed : ClosedForm
        The arm's closed form.
    T : array, shape (4, 4)
        One member of the family, ``T_world_tool``.
    q0 : array, shape (n,)
        The start.
    search : Search
        The full pose's search (no mask, no free axis), for the closed form's polish.
    tol : float
        Tolerance on the member's position (m) and orientation (rad) errors.
    axis : {0, 1, 2}
        The free tool axis: x, y or z.

    Returns
    -------
    result : IKResult
        ``solutions`` are those of the member found, nearest ``q0`` first; on failure (no
        member reached within the limits), ``success`` is False and the note says so.

    """
    angles = np.linspace(-math.pi, math.pi, SAMPLES, endpoint=False)
    members = T @ _turns(axis, angles)
    found = closed.solve(members, np.tile(q0, (SAMPLES, 1)), search, tol)
    distance = np.array([float(np.linalg.norm(r.q - q0)) if r.success else math.inf
                         for r in found])
    note = f'closed form ({closed.name}); free {"xyz"[axis]} axis'
    if not np.isfinite(distance).any():
        return IKResult(q0, False, math.nan, math.nan, sum(r.iterations for r in found),
                        np.zeros((0, len(q0))), 'analytic',
                        f'{note}: no pose turned about it reached within the limits '
                        f'({SAMPLES} turns tried)')
    step = angles[1] - angles[0]

    def solved(angle):
        result = closed.solve_one(T @ _turns(axis, np.array([angle]))[0], q0, search, tol)
        return result, float(np.linalg.norm(result.q - q0)) if result.success else math.inf

    best, best_distance = None, math.inf
    before, after = np.roll(distance, 1), np.roll(distance, -1)
    for k in np.nonzero(np.isfinite(distance) & (distance <= before)
                        & (distance <= after))[0].tolist():
        angle = _golden(lambda a: solved(a)[1], angles[k] - step, angles[k] + step)
        result, value = solved(angle)
        if value > distance[k]:  # the minimum sits where a solution leaves the limits
            result, value = found[k], distance[k]
        if value < best_distance:
            best, best_distance = result, value
    return IKResult(best.q, True, best.position_error, best.orientation_error,
                    best.iterations, best.solutions, 'analytic', note)


def turn_about(axis, angle):
    """Return the homogeneous rotation by ``angle`` (rad) about axis 0, 1 or 2: (4, 4)."""
    return _turns(axis, np.array([float(angle)]))[0]


def _turns(axis, angles):
    """Return rotations about the axis (0, 1, 2) by each angle (rad), shape (m, 4, 4)."""
    c, s = np.cos(angles), np.sin(angles)
    i, j = (axis + 1) % 3, (axis + 2) % 3
    R = np.tile(np.eye(4), (len(angles), 1, 1))
    R[:, i, i], R[:, i, j], R[:, j, i], R[:, j, j] = c, -s, s, c
    return R


def _golden(f, low, high):
    """
    Return where ``f`` is least in [low, high] by golden-section search.

    The least value met, not the last bracket's middle: where a solution leaves the limits, f
    jumps, and its infimum is at the jump, on one side only.
    """
    a, b = low, high
    c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
    fc, fd = f(c), f(d)
    best = min((fc, c), (fd, d))
    while b - a > ANGLE_TOL:
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - _GOLDEN * (b - a)
            fc = f(c)
            best = min(best, (fc, c))
        else:
            a, c, fc = c, d, fd
            d = a + _GOLDEN * (b - a)
            fd = f(d)
            best = min(best, (fd, d))
    return best[1]
