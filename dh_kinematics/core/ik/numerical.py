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
outside them. Where a step so stopped does not lower E, it is taken again with the stopped
joints held (a damping of their own, :data:`HOLD`), as an active-set method would: the
others then move as the limit allows.
"""

from dataclasses import dataclass
import math

from dh_kinematics.core.ik import step, turns
from dh_kinematics.core.ik.step import ENERGY, ERROR, HALF_TURN, NORMS
from dh_kinematics.core.ik.turns import TURN
from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.rotations import rotvec_of_entries, single_matrix_to_rotvec
import numpy as np

# The policy of every search, one target's here and a batch's (:mod:`core.ik.search_batch`),
# which differ only in their arithmetic (floats, arrays). A step solves with the damping
# mu = damping E + MU_FLOOR, damping 1 at a start: a step that lowers E is kept and eases it
# (damping / EASE, at least LEAST_DAMPING); one that does not is refused and stiffens it
# (damping * STIFFEN); past GIVE_UP no step lowers E and the start ends. A start that has not
# brought E below STALL_RATIO of what it was STALL iterations before ends too (a local
# minimum, or a limit in the way). A joint a step stopped at a limit is held by HOLD when the
# step is taken again.
STALL = 10
STALL_RATIO = 0.5
MU_FLOOR = 1e-12
EASE, LEAST_DAMPING = 2.0, 1e-3
STIFFEN = 8.0
GIVE_UP = 1e9
# The damping of a joint held at a limit: its step vanishes (rad or m, against J^T J's O(1)).
HOLD = 1e12
FAR = 1e4
"""Beyond this many rad a joint's value rounds its angle by 1e-12 rad or more (the spacing of
floats at 1e4 is 1.8e-12; at 1e6, 1.2e-10): a solution turned so far is measured where it is."""


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
    free : {None, 0, 1, 2}
        The tool axis (x, y, z) the rotation about which is free: the orientation error is
        then the angle between the tool's axis and the target's (:func:`pose_error`).

    """

    def __init__(self, chain, mask, free=None):
        table = DHTable(chain.links)
        base_rows, tool = chain.base[:3].tolist(), chain.tool.tolist()
        self.lower, self.upper = chain.qlim[:, 0], chain.qlim[:, 1]
        self.revolute = ~table.prismatic
        weight = np.asarray(mask, dtype=float)
        self._weights = weight.tolist()
        self._kept_list = None if (weight > 0.0).all() else (weight > 0.0).tolist()
        self.free = free
        self._residual = step.compile_residual(table, base_rows, tool, self._weights, free)
        self._normal = step.compile_normal(table, base_rows, tool, self._weights, free)
        self._step = step.compile_solve(len(table.a))
        middle = turns.middles(self.lower, self.upper)
        self._joints = list(zip(self.lower.tolist(), self.upper.tolist(), middle.tolist(),
                                (self.revolute & ~np.isnan(middle)).tolist()))
        self._revolute = self.revolute.tolist()
        self._turning = list(zip(self.lower.tolist(), self.upper.tolist(), self._revolute))
        self._free = [0.0] * len(self._revolute)

    def error(self, T_target, q):
        """Return the masked pose error of the tool at ``q`` (n,), shape (6,): see pose_error."""
        r = self._residual(q.tolist(), T_target[:3].ravel().tolist())
        if r[HALF_TURN]:
            self._half_turn(r)
        return np.array(r[ERROR:ENERGY])

    def at_nearest_turn(self, T_target, attempt, q0, tol):
        """
        Return a converged attempt's q at its whole turn nearest ``q0``, and its pose error.

        A turn that would take it beyond ``tol`` (a q0 of 1e9 rad and more leaves too few
        digits for the angle) is not taken: q stays as the search found it.
        """
        found = attempt.q.tolist()
        q = self._turned(found, q0.tolist())
        if q == found:
            return attempt.q, attempt.error
        if q[0] == q[0]:  # not NaN: a turn within the limits
            q = np.array(q)
            error = self.error(T_target, q)
            if within(error, tol):
                return q, error
        return attempt.q, attempt.error

    def measured_far(self, T_target, q, position, orientation, tol):
        """
        Return a closed form's solution ``q`` (a list) and its errors, measured where it is.

        The errors given are its principal angles' (a whole turn changes no pose): where a
        joint was turned beyond :data:`FAR` rad, the rounding of its value may not keep
        ``tol``, so the errors are measured at ``q``; past ``tol``, the principal angles come
        back with infinite errors, for the caller to polish (a turn so far is not taken, as
        :meth:`at_nearest_turn` does).
        """
        if max(map(abs, q)) <= FAR:
            return q, position, orientation
        position, orientation = norms(self.error(T_target, np.array(q)))
        if position <= tol and orientation <= tol:
            return q, position, orientation
        principal = [value - TURN * round(value / TURN) if revolute else value
                     for value, revolute in zip(q, self._revolute)]
        return principal, math.inf, math.inf

    def into_limits(self, q):
        """Return ``q`` with every joint inside its limits: whole turns first, then clipping."""
        return np.array(self._into_limits(q.tolist()))

    def _into_limits(self, q):
        """:meth:`into_limits` on a list of floats."""
        inside = []
        for value, (lower, upper, middle, turnable) in zip(q, self._joints):
            if value < lower or value > upper:
                if turnable:
                    moved = value + TURN * round((middle - value) / TURN)
                    if lower <= moved <= upper:
                        value = moved
                value = min(max(value, lower), upper)
            inside.append(value)
        return inside

    def nearest_turn(self, q, q0):
        """
        Return ``q`` with each revolute joint at the whole turn nearest ``q0`` within the limits.

        ``q`` and ``q0`` broadcast, shape (..., n); a configuration that no turn brings within
        the limits (or holding NaN) comes back as NaN in every joint.
        """
        if np.ndim(q) == 1 and np.ndim(q0) == 1:
            return np.array(self._turned(q.tolist(), q0.tolist()))
        value = np.where(self.revolute, turns.turned_array(q, q0, self.lower, self.upper),
                         turns.within_array(q, self.lower, self.upper))
        return np.where(np.isnan(value).any(axis=-1, keepdims=True), np.nan, value)

    def _turned(self, q, q0):
        """Return :meth:`nearest_turn` of one configuration, on lists of floats."""
        found = []
        for value, start, (lower, upper, revolute) in zip(q, q0, self._turning):
            value = turns.turned(value, start, lower, upper) if revolute else turns.within(
                value, lower, upper)
            if value != value:
                return [math.nan] * len(q)
            found.append(value)
        return found

    def solve(self, T_target, q, tol, max_iterations):
        """
        Search from ``q`` (inside the limits) for the target; return an :class:`Attempt`.

        Converged means both the position error (m) and the orientation error (rad) of the
        masked components are at most ``tol``. Every step runs in floats, compiled for the arm
        (:mod:`core.ik.step`).
        """
        target, residual, advance = T_target[:3].ravel().tolist(), self._residual, self._step
        normal = self._normal
        q = q.tolist()
        r = residual(q, target)
        if r[HALF_TURN]:
            self._half_turn(r)
        s = None  # the normal equations at q, once a step is to be taken
        E, iterations, damping, before = r[ENERGY], 0, 1.0, r[ENERGY]
        while (r[NORMS] > tol or r[NORMS + 1] > tol) and iterations < max_iterations:
            iterations += 1
            if iterations % STALL == 0:
                if E > STALL_RATIO * before:  # stalled: a local minimum, or a limit in the way
                    break
                before = E
            mu = damping * E + MU_FLOOR
            s = s or normal(r)
            moved = advance(s, mu, q, self._free)
            q_new = self._into_limits(moved)
            r_new = residual(q_new, target)
            if r_new[HALF_TURN]:
                self._half_turn(r_new)
            if r_new[ENERGY] >= E and q_new != moved:  # stopped at a limit, and no better:
                q_new = self._into_limits(advance(s, mu, q, self._held(moved, q_new)))
                r_new = residual(q_new, target)  # the step again, those joints held
                if r_new[HALF_TURN]:
                    self._half_turn(r_new)
            if r_new[ENERGY] < E:
                q, r, E, s = q_new, r_new, r_new[ENERGY], None
                damping = max(damping / EASE, LEAST_DAMPING)
            else:
                damping *= STIFFEN
                if damping > GIVE_UP:  # no step lowers the error: a minimum, or a limit
                    break
        return Attempt(np.array(q), np.array(r[ERROR:ENERGY]), iterations,
                       r[NORMS] <= tol and r[NORMS + 1] <= tol)

    def _held(self, moved, q):
        """Return the damping of each joint (HOLD where a step stopped it at a limit, else 0)."""
        return [HOLD if value != stopped and (stopped == lower or stopped == upper) else 0.0
                for value, stopped, (lower, upper, _) in zip(moved, q, self._turning)]

    def _half_turn(self, r):
        """
        Put a residual's pose error, energy and norms right near a half turn, in place.

        There the rotation vector comes from the quaternion (:func:`rotvec_of_entries`); with
        a free axis, a half turn about an axis square to the tool's.
        """
        if self.free is None:
            e = r[:3] + rotvec_of_entries(*r[3:12])
        else:
            z = np.array(r[-3:])
            e = r[:3] + (math.pi * _square_to(z)).tolist()
        if self._kept_list is not None:
            e = [value if keep else 0.0 for value, keep in zip(e, self._kept_list)]
        r[ERROR:ENERGY] = e
        r[ENERGY] = 0.5 * sum(w * value * value for value, w in zip(e, self._weights))
        r[NORMS:NORMS + 2] = math.hypot(*e[:3]), math.hypot(*e[3:])


def pose_error(T_target, T, kept, free=None):
    """
    Return the pose error [dp (m), rotation vector (rad)] of T from the target, shape (6,).

    Both in the world frame; components where ``kept`` (bool, shape (6,)) is False are 0.
    With a ``free`` tool axis (0, 1, 2 for x, y, z), the rotation is the smallest that turns
    T's axis onto the target's: its norm is the angle between them.
    """
    e = np.empty(6)
    e[:3] = T_target[:3, 3] - T[:3, 3]
    if free is None:
        e[3:] = single_matrix_to_rotvec(T_target[:3, :3] @ T[:3, :3].T)
    else:
        z, g = T[:3, free], T_target[:3, free]
        axis = np.cross(z, g)
        sine = float(np.linalg.norm(axis))
        angle = math.atan2(sine, float(z @ g))
        e[3:] = axis * (angle / sine) if sine > 0.0 else (
            0.0 if angle < 1.0 else math.pi * _square_to(z))
    return np.where(kept, e, 0.0)


def _square_to(z):
    """Return a unit vector square to the unit vector ``z`` (3,)."""
    other = np.eye(3)[int(np.argmin(np.abs(z)))]
    axis = np.cross(z, other)
    return axis / np.linalg.norm(axis)


def within(e, tol):
    """Tell whether a pose error is within ``tol`` in position (m) and orientation (rad)."""
    return math.hypot(e[0], e[1], e[2]) <= tol and math.hypot(e[3], e[4], e[5]) <= tol


def norms(e):
    """Return the position (m) and orientation (rad) errors of a pose error (6,): 2 floats."""
    e = e.tolist()
    return math.hypot(*e[:3]), math.hypot(*e[3:])
