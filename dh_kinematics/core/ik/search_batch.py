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
The numerical search for a batch of targets at once, vectorised over the targets.

The same Levenberg-Marquardt as :mod:`core.ik.numerical` (the damping ``mu = lambda E``, a
step kept only when it lowers the error, joints turned into their limits or stopped there, a
start abandoned when 10 iterations do not halve its error), each target with its own
configuration, error and damping, all advanced together: the poses and Jacobians of every
target still searching are computed in one compiled batch (:mod:`core.kinematics.batch`) and
their steps solved in one batched call. :mod:`core.ik.ikine` gives it one start per target
still unsolved, round after round (q0, then the seeded starts), and the last few targets go on
alone. Units: rad and m.
"""

from dh_kinematics.core.ik.numerical import HOLD, STALL
from dh_kinematics.core.ik.turns import middles, TURN
from dh_kinematics.core.kinematics.batch import BatchKinematics
from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.rotations import matrix_to_rotvec
import numpy as np


class BatchSearch:
    """
    A chain's search for batches of targets, with one mask.

    Parameters
    ----------
    chain : Chain
    mask : array, shape (6,)
        Weights of the error components [x y z rx ry rz], >= 0.

    """

    def __init__(self, chain, mask):
        self._kinematics = BatchKinematics(DHTable(chain.links), chain.base, chain.tool)
        self._weight = np.asarray(mask, dtype=float)
        self._kept = self._weight > 0.0
        self._lower, self._upper = chain.qlim[:, 0], chain.qlim[:, 1]
        self._middle = middles(self._lower, self._upper)
        self._turnable = (np.array([link.isrevolute() for link in chain.links])
                          & ~np.isnan(self._middle))
        self._identity = np.eye(chain.n)

    def errors(self, T, Q):
        """Return the masked pose error of each configuration of Q (m, n) (pose_error): (m, 6)."""
        poses = self._kinematics.tool_poses(Q)
        e = np.empty((len(Q), 6))
        e[:, :3] = T[:, :3, 3] - poses[:, :3, 3]
        e[:, 3:] = matrix_to_rotvec(T[:, :3, :3] @ np.swapaxes(poses[:, :3, :3], 1, 2))
        return np.where(self._kept, e, 0.0)

    def into_limits(self, Q):
        """Return Q with every joint inside its limits: whole turns first, then clipping."""
        outside = (Q < self._lower) | (Q > self._upper)
        turned = Q + TURN * np.round((self._middle - Q) / TURN)
        turn = (outside & self._turnable & (turned >= self._lower) & (turned <= self._upper))
        return np.clip(np.where(turn, turned, Q), self._lower, self._upper)

    def solve(self, T, Q, tol, max_iterations, few=0):
        """
        Search from Q (m, n, inside the limits) for targets T (m, 4, 4).

        Once fewer than ``few`` targets are still being searched, the batch stops (numpy's
        cost per iteration no longer shared): those are the ones ``searching`` marks, each to
        go on alone from where it is.

        Returns
        -------
        Q : array, shape (m, n)
            Where each search ended.
        e : array, shape (m, 6)
            Its masked pose error there.
        iterations : array of int, shape (m,)
        converged : array of bool, shape (m,)
            Position and orientation errors both at most ``tol``.
        searching : array of bool, shape (m,)
            Still searching when the batch stopped.

        """
        weight = self._weight
        Q = np.array(Q, dtype=float)
        e = self.errors(T, Q)
        E = 0.5 * (e * e) @ weight
        damping = np.ones(len(Q))
        before = E.copy()
        iterations = np.zeros(len(Q), dtype=int)
        searching = ~all_within(e, tol)
        for iteration in range(1, max_iterations + 1):
            if iteration % STALL == 0:  # stalled: a local minimum, or a limit in the way
                searching &= ~(E > 0.5 * before)
                before = np.where(searching, E, before)
            active = np.nonzero(searching)[0]
            if len(active) < max(few, 1):
                break
            iterations[active] += 1
            J = self._kinematics.jacobians(Q[active])
            WJ = np.swapaxes(J, 1, 2) * weight
            A = WJ @ J + (damping[active] * E[active] + 1e-12)[:, None, None] * self._identity
            g = WJ @ e[active][:, :, None]
            moved = Q[active] + np.linalg.solve(A, g)[:, :, 0]
            Q_new = self.into_limits(moved)
            e_new = self.errors(T[active], Q_new)
            E_new = 0.5 * (e_new * e_new) @ weight
            # Stopped at a limit, and no better: the step again, those joints held (Search).
            stopped = (Q_new != moved) & ((Q_new == self._lower) | (Q_new == self._upper))
            again = np.nonzero((E_new >= E[active]) & stopped.any(axis=1))[0]
            if len(again):
                A_held = A[again] + HOLD * (stopped[again][:, :, None] * self._identity)
                Q_new[again] = self.into_limits(
                    Q[active[again]] + np.linalg.solve(A_held, g[again])[:, :, 0])
                e_new[again] = self.errors(T[active[again]], Q_new[again])
                E_new[again] = 0.5 * (e_new[again] * e_new[again]) @ weight
            better = E_new < E[active]
            kept = active[better]
            Q[kept], e[kept], E[kept] = Q_new[better], e_new[better], E_new[better]
            damping[kept] = np.maximum(damping[kept] / 2.0, 1e-3)
            worse = active[~better]
            damping[worse] *= 8.0
            # Within tol: done; no step lowers the error: a minimum, or a limit.
            searching[kept] = ~all_within(e[kept], tol)
            searching[worse] = damping[worse] <= 1e9
        return Q, e, iterations, all_within(e, tol), searching & (iterations < max_iterations)


def all_within(e, tol):
    """Tell which pose errors (k, 6) are within ``tol`` in position (m) and orientation (rad)."""
    return ((np.linalg.norm(e[:, :3], axis=1) <= tol)
            & (np.linalg.norm(e[:, 3:], axis=1) <= tol))
