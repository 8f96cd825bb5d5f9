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
Numerical inverse kinematics: Levenberg-Marquardt on the pose error, inside the joint limits.

The error of a pose ``T`` from a target ``T_t`` is ``e = [p_t - p, log(R_t R^T)]`` in the
world frame (m, then a rotation vector in rad), weighted per component by a mask. Each step
solves ``(J^T W J + mu I) dq = J^T W e`` with the geometric Jacobian J and a damping ``mu``
that is large far from the target and vanishes at it (``mu = lambda E``, E the weighted squared
error, as Chan and Lawrence), so the last steps are Gauss-Newton's and converge quadratically
to rounding. A step is kept only when it lowers E; a joint that would leave its limits is
turned by whole turns into them (revolute) or stopped at the limit, so no iterate is ever
outside them.
"""

from dataclasses import dataclass
import math

from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.rotations import single_matrix_to_rotvec
import numpy as np

TURN = 2.0 * math.pi
# A search that has not halved its squared error in this many iterations stops.
STALL = 10


@dataclass(frozen=True)
class Attempt:
    """One search: where it ended, its error there, and whether that is within tolerance."""

    q: np.ndarray
    error: np.ndarray  # shape (6,), masked
    iterations: int
    converged: bool


class Search:
    """
    The constants of a chain's searches: its table, base, tool, limits and a mask.

    Parameters
    ----------
    chain : Chain
    mask : array, shape (6,)
        Weights of the error components [x y z rx ry rz], >= 0; a 0 drops a component.

    """

    def __init__(self, chain, mask):
        self._table = DHTable(chain.links)
        self._base, self._tool = chain.base, chain.tool
        self._base_rows = chain.base[:3].tolist()
        self.lower, self.upper = chain.qlim[:, 0], chain.qlim[:, 1]
        self.revolute = ~self._table.prismatic
        self._weight = np.asarray(mask, dtype=float)
        self._kept = self._weight > 0.0
        self._identity = np.eye(chain.n)
        limited = np.isfinite(self.lower) & np.isfinite(self.upper)
        self._middle = np.where(limited, (np.where(limited, self.lower, 0.0)
                                          + np.where(limited, self.upper, 0.0)) / 2.0, np.nan)
        self._turnable = self.revolute & limited

    def frames(self, q):
        """Return the poses of frames 0 to n in the world at ``q``, shape (1, n+1, 4, 4)."""
        return self._table.frame_poses(q[None, :], self._base, self._base_rows)

    def tool_pose(self, frames):
        """Return ``T_world_tool`` (4, 4) from :meth:`frames`."""
        return frames[0, -1] @ self._tool

    def jacobian(self, frames):
        """Return the geometric Jacobian (6, n) from :meth:`frames`."""
        return self._table.jacobians(frames, self._tool)[0][0]

    def error(self, T_target, T):
        """Return the masked pose error of T from the target (:func:`pose_error`)."""
        return pose_error(T_target, T, self._kept)

    def into_limits(self, q):
        """Return ``q`` with every joint inside its limits: whole turns first, then clipping."""
        outside = (q < self.lower) | (q > self.upper)
        if not outside.any():
            return q
        turned = q + TURN * np.round((self._middle - q) / TURN)
        turn = outside & self._turnable & (turned >= self.lower) & (turned <= self.upper)
        return np.clip(np.where(turn, turned, q), self.lower, self.upper)

    def solve(self, T_target, q, tol, max_iterations):
        """
        Search from ``q`` (inside the limits) for the target; return an :class:`Attempt`.

        Converged means both the position error (m) and the orientation error (rad) of the
        masked components are at most ``tol``.
        """
        frames = self.frames(q)
        e = self.error(T_target, self.tool_pose(frames))
        E = 0.5 * e @ (self._weight * e)
        damping, iterations, J, before = 1.0, 0, None, E
        while not within(e, tol) and iterations < max_iterations:
            iterations += 1
            if iterations % STALL == 0:
                if E > 0.5 * before:  # stalled: a local minimum, or a limit in the way
                    break
                before = E
            if J is None:
                J = self.jacobian(frames)
            WJ = J.T * self._weight
            step = np.linalg.solve(WJ @ J + (damping * E + 1e-12) * self._identity, WJ @ e)
            q_new = self.into_limits(q + step)
            frames_new = self.frames(q_new)
            e_new = self.error(T_target, self.tool_pose(frames_new))
            E_new = 0.5 * e_new @ (self._weight * e_new)
            if E_new < E:
                q, frames, J, e, E = q_new, frames_new, None, e_new, E_new
                damping = max(damping / 2.0, 1e-3)
            else:
                damping *= 8.0
                if damping > 1e9:  # no step lowers the error: a minimum, or a limit
                    break
        return Attempt(q, e, iterations, within(e, tol))


def pose_error(T_target, T, kept):
    """
    Return the pose error [dp (m), rotation vector (rad)] of T from the target, shape (6,).

    Both in the world frame; components where ``kept`` (bool, shape (6,)) is False are 0.
    """
    e = np.empty(6)
    e[:3] = T_target[:3, 3] - T[:3, 3]
    e[3:] = single_matrix_to_rotvec(T_target[:3, :3] @ T[:3, :3].T)
    return np.where(kept, e, 0.0)


def within(e, tol):
    """Tell whether a pose error is within ``tol`` in position (m) and orientation (rad)."""
    return math.hypot(e[0], e[1], e[2]) <= tol and math.hypot(e[3], e[4], e[5]) <= tol
