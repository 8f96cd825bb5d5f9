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

The same Levenberg-Marquardt as :mod:`core.ik.numerical`, with its policy and constants (the
damping ``mu = lambda E``, a step kept only when it lowers the error, joints turned into their
limits or stopped there, a start abandoned when :data:`numerical.STALL` iterations do not halve
its error), each target with its own
configuration, error and damping, all advanced together: the poses and Jacobians of every
target still searching are computed in one compiled batch (:mod:`core.kinematics.batch`) and
their steps solved in one batched call. A target whose start ends unsolved goes on from its
next start (q0, then the seeded starts :mod:`core.ik.ikine` draws) in the same iteration, so
the batch stays full; the last few targets go on alone. Units: rad and m.
"""

from dh_kinematics.core.ik.numerical import (
    EASE, GIVE_UP, HOLD, LEAST_DAMPING, MU_FLOOR, STALL, STALL_RATIO, STIFFEN)
from dh_kinematics.core.ik.turns import middles, TURN
from dh_kinematics.core.rotations import matrix_to_rotvec
import numpy as np

WIDTH = 512
"""Slots the batch keeps busy while targets are unsolved: their starts side by side."""
PER_TARGET = 128
"""The most starts of one target run side by side."""
SEARCHING, CONVERGED, ENDED = 0, 1, 2


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
        self._kinematics = chain.batch_kinematics()
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

    def solve(self, T, Q0, starts, tol, max_iterations):
        """
        Search for targets T (m, 4, 4) from Q0 (m, n, within the limits), then further starts.

        Each target's starts are the single search's: start 0 from Q0, start k >= 1 from
        ``lower + (upper - lower) * draws[k - 1]``, with ``starts = (draws, lower, upper)``:
        draws of shape (restarts, n) in [0, 1), bounds of shape (m, n). A start that ends
        unsolved (stalled, no step lowering its error, or ``max_iterations`` spent) gives way
        to the target's next one at once; once fewer than :data:`WIDTH` targets are left, each
        runs several of its starts side by side, so that the batch stays wide. A target's
        answer is its first start that converges, as alone: one that converges waits for the
        target's earlier starts to end.

        Returns
        -------
        Q : array, shape (m, n)
            Each target's answer (0 where none).
        e : array, shape (m, 6)
            Its masked pose error.
        iterations : array of int, shape (m,)
            Over every start run.
        solved : array of bool, shape (m,)
            Position and orientation errors both at most ``tol``.

        """
        weight, (draws, lower, upper) = self._weight, starts
        m, n = np.shape(Q0)
        last = len(draws)
        found = np.full(m, last + 1)  # per target: its first start that converged
        Q_found, e_found = np.zeros((m, n)), np.zeros((m, 6))
        issued, iterations = np.ones(m, dtype=int), np.zeros(m, dtype=int)
        # Per slot: one start of one target, where it is, its error, damping, status.
        slot_target, slot_start = np.arange(m), np.zeros(m, dtype=int)
        Q = np.array(Q0, dtype=float)
        e = self.errors(T, Q)
        E = 0.5 * (e * e) @ weight
        damping, before, spent = np.ones(m), E.copy(), np.zeros(m, dtype=int)
        status = np.where(all_within(e, tol), CONVERGED, SEARCHING)
        while True:
            converged = np.nonzero(status == CONVERGED)[0]
            if len(converged):  # the target's answer, if no earlier start of its converged
                np.minimum.at(found, slot_target[converged], slot_start[converged])
                first = converged[slot_start[converged] == found[slot_target[converged]]]
                Q_found[slot_target[first]], e_found[slot_target[first]] = Q[first], e[first]
            # Slots searching a start before their target's answer go on; the others end.
            going = (status == SEARCHING) & (slot_start < found[slot_target])
            if not going.all():
                np.add.at(iterations, slot_target[~going], spent[~going])
                slot_target, slot_start, Q, e, E, damping, before, spent = (
                    a[going] for a in (slot_target, slot_start, Q, e, E, damping, before,
                                       spent))
                status = status[going]
            more = self._more_starts(found, issued, slot_target, last)
            if more is not None:  # new slots: starts from the draws
                new_target, new_start = more
                Q_new = (lower[new_target] + (upper[new_target] - lower[new_target])
                         * draws[new_start - 1])
                e_new = self.errors(T[new_target], Q_new)
                E_new = 0.5 * (e_new * e_new) @ weight
                slot_target = np.concatenate((slot_target, new_target))
                slot_start = np.concatenate((slot_start, new_start))
                Q, e = np.concatenate((Q, Q_new)), np.concatenate((e, e_new))
                E = np.concatenate((E, E_new))
                damping = np.concatenate((damping, np.ones(len(new_target))))
                before = np.concatenate((before, E_new))
                spent = np.concatenate((spent, np.zeros(len(new_target), dtype=int)))
                status = np.concatenate((status, np.where(
                    all_within(e_new, tol), CONVERGED, SEARCHING)))
                continue
            if not len(status):
                break
            spent += 1
            check = np.nonzero(spent % STALL == 0)[0]
            if len(check):  # stalled: a local minimum, or a limit in the way
                status[check[E[check] > STALL_RATIO * before[check]]] = ENDED
                before[check] = E[check]
            active = np.nonzero(status == SEARCHING)[0]
            J = self._kinematics.jacobians(Q[active])
            WJ = np.swapaxes(J, 1, 2) * weight
            A = WJ @ J + (damping[active] * E[active] + MU_FLOOR)[:, None, None] * self._identity
            g = WJ @ e[active][:, :, None]
            moved = Q[active] + np.linalg.solve(A, g)[:, :, 0]
            Q_new = self.into_limits(moved)
            e_new = self.errors(T[slot_target[active]], Q_new)
            E_new = 0.5 * (e_new * e_new) @ weight
            # Stopped at a limit, and no better: the step again, those joints held (Search).
            stopped = (Q_new != moved) & ((Q_new == self._lower) | (Q_new == self._upper))
            again = np.nonzero((E_new >= E[active]) & stopped.any(axis=1))[0]
            if len(again):
                A_held = A[again] + HOLD * (stopped[again][:, :, None] * self._identity)
                Q_new[again] = self.into_limits(
                    Q[active[again]] + np.linalg.solve(A_held, g[again])[:, :, 0])
                e_new[again] = self.errors(T[slot_target[active[again]]], Q_new[again])
                E_new[again] = 0.5 * (e_new[again] * e_new[again]) @ weight
            better = E_new < E[active]
            kept = active[better]
            Q[kept], e[kept], E[kept] = Q_new[better], e_new[better], E_new[better]
            damping[kept] = np.maximum(damping[kept] / EASE, LEAST_DAMPING)
            worse = active[~better]
            damping[worse] *= STIFFEN
            status[kept[all_within(e[kept], tol)]] = CONVERGED
            # No step lowers the error (a minimum, or a limit), or the start's iterations spent.
            status[worse[damping[worse] > GIVE_UP]] = ENDED
            status[(status == SEARCHING) & (spent >= max_iterations)] = ENDED
        solved = found <= last
        return Q_found, e_found, iterations, solved

    @staticmethod
    def _more_starts(found, issued, slot_target, last):
        """
        Return the targets and starts of new slots (two arrays of int), or None.

        Each target unsolved with starts left gets its next ones, up to WIDTH // (such
        targets) slots of its own: at least one, at most :data:`PER_TARGET`.
        """
        open_ = (found > last) & (issued <= last)
        count = open_.sum()
        if not count:
            return None
        wanted = min(max(WIDTH // count, 1), PER_TARGET)
        add = np.where(open_, wanted - np.bincount(slot_target, minlength=len(found)), 0)
        add = np.minimum(np.maximum(add, 0), last + 1 - issued)
        total = int(add.sum())
        if not total:
            return None
        new_target = np.repeat(np.arange(len(found)), add)
        offset = np.arange(total) - np.repeat(np.cumsum(add) - add, add)
        new_start = issued[new_target] + offset
        issued += add
        return new_target, new_start


def all_within(e, tol):
    """Tell which pose errors (k, 6) are within ``tol`` in position (m) and orientation (rad)."""
    return ((np.linalg.norm(e[:, :3], axis=1) <= tol)
            & (np.linalg.norm(e[:, 3:], axis=1) <= tol))
