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
Every solution of a closed form: for one target, or for a batch of targets at once.

The closed form (:mod:`core.ik.wrist`, :mod:`core.ik.parallel`), compiled for the arm, gives
each target's candidate solutions already checked (:func:`core.ik.geometry.checks`): each
revolute joint at the whole turn nearest ``q0`` within the limits, or none, and the pose error
of each. Only a candidate whose error exceeds the tolerance (a root near a double root, a pose
near a singularity) is polished by the numerical search, and kept if that converges. The kept
candidates of a target, less repeats (closer than :data:`SAME` in every joint), nearest ``q0``
first, are its solutions. One target runs in floats, a batch on numpy arrays.
"""

import math
import operator

from dh_kinematics.core.ik.compiled import SIZE
from dh_kinematics.core.ik.numerical import FAR, norms
from dh_kinematics.core.ik.result import IKResult
import numpy as np

POLISH_ITERATIONS = 20
# Two solutions closer than this in every joint (rad, m) are one.
SAME = 1e-6


class ClosedForm:
    """
    A chain's closed form, applied to one target or a batch of targets.

    Parameters
    ----------
    name : str
        The closed form's name, as notes give it.
    module : module
        :mod:`core.ik.wrist` or :mod:`core.ik.parallel`.
    geometry : Geometry
        The chain in standard DH.

    """

    def __init__(self, name, module, geometry):
        self.name, self._module, self._geometry = name, module, geometry

    def solve(self, T, q0, search, tol):
        """
        Return an :class:`IKResult` per target.

        Where a target has no solution, its result's ``success`` is False, its ``q`` its
        ``q0``, and its note says why: the numerical search (:mod:`core.ik.ikine`) takes it
        from there.

        Parameters
        ----------
        T : array, shape (m, 4, 4)
            Targets ``T_world_tool``.
        q0 : array, shape (m, n)
            Each target's start: it decides free joints and whole turns.
        search : Search
            The limits, and the polish.
        tol : float
            Tolerance on the position (m) and orientation (rad) errors.

        """
        if len(T) == 1:
            return [self.solve_one(T[0], q0[0], search, tol)]
        g = self._geometry
        m = len(T)
        rows, pose = self._module.solutions(g, T, q0)
        inside = ~np.isnan(rows[:, :6]).any(axis=1)  # a turn of each joint is within limits
        counts = np.bincount(pose, minlength=m)
        outside = np.bincount(pose[~inside], minlength=m)
        q, pose = rows[inside, :6], pose[inside]
        position, orientation = rows[inside, 6], rows[inside, 7]
        iterations = np.zeros(m, dtype=int)
        for k in np.nonzero(np.abs(q).max(axis=1) > FAR)[0].tolist():
            q[k], position[k], orientation[k] = search.measured_far(
                T[pose[k]], q[k].tolist(), position[k], orientation[k], tol)
        for k in np.nonzero((position > tol) | (orientation > tol))[0].tolist():
            attempt = search.solve(T[pose[k]], q[k], tol, POLISH_ITERATIONS)
            iterations[pose[k]] += attempt.iterations
            position[k] = orientation[k] = np.inf
            if attempt.converged:
                q[k], error = search.at_nearest_turn(T[pose[k]], attempt, q0[pose[k]], tol)
                position[k], orientation[k] = norms(error)
        kept = (position <= tol) & (orientation <= tol)
        q, pose, error = q[kept], pose[kept], np.stack([position, orientation], axis=-1)[kept]
        # Each target's solutions nearest q0 first; one that repeats a nearer one is dropped.
        distance = np.linalg.norm(q - q0[pose], axis=-1)
        order = _nearest_first(pose, distance, m)
        q, pose, error, distance = q[order], pose[order], error[order], distance[order]
        repeat = np.zeros(len(q), dtype=bool)
        # A repeat is within sqrt(n) SAME of the distance of the one it repeats.
        gap, back = SAME * math.sqrt(q.shape[1]), 1
        while True:
            near = np.nonzero((pose[back:] == pose[:-back])
                              & (distance[back:] - distance[:-back] <= gap))[0] + back
            if not len(near):
                break
            repeat[near] |= np.abs(q[near] - q[near - back]).max(axis=-1) < SAME
            back += 1
        q, pose, error = q[~repeat], pose[~repeat], error[~repeat]
        ends = np.searchsorted(pose, np.arange(m + 1))
        solved = ends[1:] > ends[:-1]
        firsts = iter(error[ends[:-1][solved]].tolist())  # the nearest solution's errors
        ends, iterations = ends.tolist(), iterations.tolist()
        note = f'closed form ({self.name})'
        results = []
        for j, (start, end) in enumerate(zip(ends[:-1], ends[1:])):
            if start < end:
                results.append(IKResult(q[start], True, *next(firsts), iterations[j],
                                        q[start:end], 'analytic', note))
            else:
                results.append(IKResult(q0[j], False, math.nan, math.nan, iterations[j],
                                        q[:0], 'analytic', _failure_note(
                                            note, int(counts[j]), outside[j])))
        return results

    def solve_one(self, T, q0, search, tol):
        """
        Return :meth:`solve`'s result for one target ``T`` (4, 4) from ``q0`` (n,).

        In floats: the closed form and its checks, compiled (:mod:`core.ik.compiled`).
        """
        g = self._geometry
        start = q0.tolist()
        values = self._module.solutions_one(g, T[:3].ravel().tolist(), start)
        kept, count, outside, iterations = [], 0, 0, 0
        for k in range(0, len(values), SIZE):
            q, position, orientation = values[k:k + 6], values[k + 6], values[k + 7]
            if position != position:  # this branch has none
                continue
            count += 1
            if math.isnan(sum(q)):  # no whole turn brings it within the limits
                outside += 1
                continue
            q, position, orientation = search.measured_far(T, q, position, orientation, tol)
            if position > tol or orientation > tol:
                attempt = search.solve(T, np.array(q), tol, POLISH_ITERATIONS)
                iterations += attempt.iterations
                if not attempt.converged:
                    continue
                q, error = search.at_nearest_turn(T, attempt, q0, tol)
                q, (position, orientation) = q.tolist(), norms(error)
            kept.append((math.dist(q, start), q, position, orientation))
        kept.sort(key=_first)
        solutions, distances, errors = [], [], None
        gap = SAME * math.sqrt(len(start))  # a repeat is this near in distance from q0
        for distance, q, position, orientation in kept:
            k = len(solutions)
            while k and distance - distances[k - 1] <= gap:  # nearest the last kept first
                k -= 1
                if max(map(abs, map(operator.sub, q, solutions[k]))) < SAME:
                    break  # a repeat of a nearer solution: dropped
            else:
                solutions.append(q)
                distances.append(distance)
                errors = errors or (position, orientation)
        note = f'closed form ({self.name})'
        if solutions:
            solutions = np.array(solutions)
            return IKResult(solutions[0], True, *errors, iterations, solutions, 'analytic', note)
        return IKResult(q0, False, math.nan, math.nan, iterations, np.zeros((0, len(q0))),
                        'analytic', _failure_note(note, count, outside))


def _nearest_first(pose, distance, m):
    """
    Return the order that sorts each target's candidates by ``distance``, targets in turn.

    ``pose`` (k,) is each candidate's target, ascending already; ``distance`` (k,) finite.
    Ties keep their order (as a stable sort). One sort of an (m, most per target) table.
    """
    counts = np.bincount(pose, minlength=m)
    first = np.cumsum(counts) - counts  # each target's first candidate
    table = np.full((m, counts.max(initial=0)), np.inf)
    table[pose, np.arange(len(pose)) - first[pose]] = distance
    within = np.argsort(table, axis=1, kind='stable')
    return (first[:, None] + within)[within < counts[:, None]]


def _first(item):
    return item[0]


def _failure_note(note, count, outside):
    """Return ``note`` with why a target has no solution: the limits, or out of reach."""
    if outside:
        return note + (f': {count} solution{"" if count == 1 else "s"}, none within the joint '
                       'limits')
    return note + ': the pose is out of reach'
