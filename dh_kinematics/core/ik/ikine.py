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
Inverse kinematics of a chain: the joint values that put its tool at a pose, within limits.

Where the table allows a closed form (:mod:`core.ik.wrist`: a spherical wrist;
:mod:`core.ik.parallel`: three parallel axes, as Universal Robots), every solution comes from
it, for a whole batch of targets at once (:mod:`core.ik.closed_form`); otherwise a numerical
search (:mod:`core.ik.numerical`) runs from ``q0`` and then from seeded random configurations
within the limits. Either way each solution is within the tolerance (1e-10 m and rad by
default; a closed form's candidate beyond it is polished by the search), within the limits,
and given, for each revolute joint, at the whole turn within the limits nearest ``q0``. A
target that no solution within the limits reaches is a failure, reported with the closest
pose the search found.
"""

import math

from dh_kinematics.core.bounds import LENGTH_MAX, LIMIT_MAX
from dh_kinematics.core.checks import (
    check_array, check_choice, check_joint_array, check_scalar, check_transform, check_transforms,
    InvalidFieldError)
from dh_kinematics.core.ik import family, parallel, wrist
from dh_kinematics.core.ik.closed_form import ClosedForm, SAME
from dh_kinematics.core.ik.geometry import Geometry
from dh_kinematics.core.ik.numerical import norms, pose_error, Search
from dh_kinematics.core.ik.result import IKResult
from dh_kinematics.core.ik.search_batch import all_within, BatchSearch
from dh_kinematics.core.kinematics.batch import MIN_BATCH as BATCH
import numpy as np

CLOSED_FORMS = {'spherical wrist': wrist, 'three parallel axes': parallel}
METHODS = ('auto', 'analytic', 'numerical')
TOLERANCE = 1e-10
RESTARTS = 100
MAX_ITERATIONS = 100


class InverseKinematics:
    """
    A chain's inverse kinematics: its closed form (if any) and its numerical search.

    Parameters
    ----------
    chain : Chain

    """

    def __init__(self, chain):
        self._chain = chain
        self._closed, self._reasons = _closed_form(chain)
        self._searches, self._batches = {}, {}
        self._start = np.clip(np.zeros((1, chain.n)), *chain.qlim.T)  # q0's default: 0, within
        # The note of a search's result where the search was asked for or a closed form exists.
        self._note = 'numerical' if self._closed is not None else (
            f'numerical; no closed form ({self.no_closed_form})')

    @property
    def no_closed_form(self):
        """Why no closed form applies, one clause per form tried ('' when one does)."""
        return '; '.join(why if name is None else f'{name}: {why}'
                         for name, why in self._reasons.items())

    def solve(self, T, q0=None, mask=None, method='auto', all_solutions=False,
              tol=TOLERANCE, restarts=RESTARTS, max_iterations=MAX_ITERATIONS, seed=0,
              free_axis=None):
        """Solve for one target or a batch; see :meth:`Chain.ikine`."""
        n = self._chain.n
        method = check_choice('method', method, METHODS)
        tol = check_scalar('tol', tol, minimum=0.0, nonzero=True)
        restarts = _count('restarts', restarts, 0)
        max_iterations = _count('max_iterations', max_iterations, 1)
        mask = _check_mask(mask)
        free = check_free_axis(free_axis, mask)
        analytic = self._closed is not None and (mask is _ONES or bool((mask > 0.0).all()))
        if method == 'analytic' and not analytic:
            raise InvalidFieldError('method', method, 'no closed form applies: ' + (
                self.no_closed_form or 'the mask drops a pose component'))
        targets, single = _check_targets(T)
        if single:
            starts = self._start[0] if q0 is None else _check_start(q0, n)
        elif q0 is None:
            starts = np.tile(self._start, (len(targets), 1))
        else:
            starts = check_joint_array('q0', q0, n)[0]
            if len(starts) == 1:
                starts = np.tile(starts, (len(targets), 1))
            elif len(starts) != len(targets):
                raise InvalidFieldError('q0', np.shape(q0), f'must be of shape ({n},) or '
                                        f'({len(targets)}, {n}), one per target')
            _check_start_values(starts)
        search = self._search(mask, free)
        options = (tol, restarts, max_iterations, seed, all_solutions)
        analytic = analytic and method != 'numerical'
        if free is not None:
            return self._free(targets[None] if single else targets, starts, search, analytic,
                              method, options, single)
        if single:
            found = self._closed.solve_one(targets, starts, search, tol) if analytic else None
            return found if found is not None and found.success else self._one(
                search, targets, starts, found, method, options)
        if analytic:
            closed = self._closed.solve(targets, starts, search, tol)
        elif len(targets) >= BATCH and not all_solutions:
            closed = self._batch(mask, search, targets, starts, options, method)
        else:
            closed = [None] * len(targets)
        results = [found if found is not None and found.success else
                   self._one(search, target, start, found, method, options)
                   for target, start, found in zip(targets, starts, closed)]
        return results

    def _batch(self, mask, search, T, q0, options, method):
        """
        Return the batched search's result for each target it solved, None for the others.

        The starts are the single search's (:meth:`_one`): q0, then the seeded random ones,
        every target advanced at once (:meth:`BatchSearch.solve`), and each answer its first
        start that converges, as alone. Each solution is given at its whole turn nearest q0
        where that keeps it within tol.
        """
        tol, restarts, max_iterations, seed, _ = options
        key = mask.tobytes()
        if key not in self._batches:
            self._batches[key] = BatchSearch(self._chain, mask)
        lower, upper = _start_bounds(search, T)
        lower, upper = np.broadcast_to(lower, q0.shape), np.broadcast_to(upper, q0.shape)
        draws = np.random.default_rng(seed).random((restarts, q0.shape[1]))  # _random_start's
        batch = self._batches[key]
        Q, e, iterations, solved = batch.solve(
            T, batch.into_limits(q0), (draws, lower, upper), tol, max_iterations)
        turned = search.nearest_turn(Q, q0)
        moved = solved & ~np.isnan(turned[:, 0]) & (turned != Q).any(axis=1)
        if moved.any():
            e_turned = batch.errors(T[moved], turned[moved])
            keep = all_within(e_turned, tol)
            rows = np.nonzero(moved)[0][keep]
            Q[rows], e[rows] = turned[rows], e_turned[keep]
        note = 'numerical' if method == 'numerical' else self._note
        position = np.linalg.norm(e[:, :3], axis=1).tolist()
        orientation = np.linalg.norm(e[:, 3:], axis=1).tolist()
        return [IKResult(q, True, p, o, int(k), q[None], 'numerical', note) if ok else None
                for q, p, o, k, ok in zip(Q, position, orientation, iterations.tolist(),
                                          solved.tolist())]

    def _search(self, mask, free=None):
        key = mask.tobytes(), free
        if key not in self._searches:
            self._searches[key] = Search(self._chain, mask, free)
        return self._searches[key]

    def _free(self, targets, starts, search, analytic, method, options, single):
        """
        Solve targets whose rotation about a tool axis is free (:mod:`core.ik.family`).

        With a closed form, the member of each target's family nearest its start; elsewhere
        (or where no member is reached) the numerical search, whose error is the angle between
        the tool's axis and the target's.
        """
        tol = options[0]
        starts = np.broadcast_to(starts, (len(targets), self._chain.n))
        results = []
        for target, start in zip(targets, starts):
            found = family.nearest(self._closed, target, start, self._search(_ONES), tol,
                                   search.free) if analytic else None
            if found is not None and found.success:
                q = found.q
                results.append(IKResult(q, True, *norms(search.error(target, q)),
                                        found.iterations, found.solutions, found.method,
                                        found.note))
            else:
                results.append(self._one(search, target, start, found, method, options))
        return results[0] if single else results

    def _one(self, search, T, q0, found, method, options):
        """Search for one target, after the closed form's failed result (None if not tried)."""
        tol, restarts, max_iterations, seed, all_solutions = options
        iterations = 0
        analytic = found is not None
        if analytic:
            iterations, note = found.iterations, found.note
        else:
            note = 'numerical' if method == 'numerical' else self._note
        # The search: from q0, then from seeded random starts within the limits.
        rng, found, best = None, [], None
        for start in range(restarts + 1):
            if start == 0:
                q = search.into_limits(q0)
            else:
                rng = rng or np.random.default_rng(seed)
                q = _random_start(search, rng, T)
            attempt = search.solve(T, q, tol, max_iterations)
            iterations += attempt.iterations
            if attempt.converged:
                found.append(attempt)
                if not all_solutions:
                    break
            elif best is None or _size(attempt.error) < _size(best.error):
                best = attempt
        if found:  # after a closed form that found none: a singular pose's continuum
            return _result(found, q0, search, T, tol, iterations, 'numerical',
                           note + ('; the numerical search found one' if analytic else ''))
        if not analytic:
            note += f': no solution within the limits from {restarts + 1} starts'
        return IKResult(best.q, False, *norms(best.error), iterations,
                        np.zeros((0, len(q0))), 'analytic' if analytic else 'numerical',
                        note + '; q is the closest pose the search reached')


def _closed_form(chain):
    """
    Return the chain's :class:`ClosedForm`, or None; and why not others.

    The reasons are a dict of closed-form name to why it does not apply; the key None holds
    one that rules every closed form out.
    """
    if chain.n != 6:
        return None, {None: f'{chain.n} joints; the closed forms are for 6'}
    try:
        geometry = Geometry(chain)
    except ValueError as error:  # the standard DH form does not fit (nearly parallel axes)
        return None, {None: f'no standard DH form: {error}'}
    if geometry.hayati:
        return None, {None: 'a link has a Hayati beta'}
    reasons = {}
    for name, module in CLOSED_FORMS.items():
        why = module.reason(geometry)
        if why is None:
            return ClosedForm(name, module, geometry), reasons
        reasons[name] = why
    return None, reasons


def _result(found, q0, search, T, tol, iterations, method, note):
    """Return the result of the converged attempts: distinct, each at its turn nearest q0."""
    if len(found) == 1:
        q, error = search.at_nearest_turn(T, found[0], q0, tol)
        return IKResult(q, True, *norms(error), iterations, q[None], method, note)
    solutions, errors = [], []
    for attempt in found:
        q, error = search.at_nearest_turn(T, attempt, q0, tol)
        if not any(np.abs(q - s).max() < SAME for s in solutions):
            solutions.append(q)
            errors.append(error)
    order = sorted(range(len(solutions)), key=lambda k: float(np.linalg.norm(solutions[k] - q0)))
    return IKResult(solutions[order[0]], True, *norms(errors[order[0]]), iterations,
                    np.array([solutions[k] for k in order]), method, note)


def _random_start(search, rng, T):
    """Return a configuration drawn within the limits (a turn, or the reach, where none)."""
    return rng.uniform(*_start_bounds(search, T))


def _start_bounds(search, T):
    """
    Return the bounds random starts are drawn within, for a target (4, 4) or targets (m, 4, 4).

    A joint's limits; a turn about 0 for a revolute joint without them, the target's distance
    from the world origin and 1 m more for a prismatic one. Each of shape (n,) or (m, n).
    """
    reach = 1.0 + np.minimum(np.linalg.norm(T[..., :3, 3], axis=-1), LENGTH_MAX)[..., None]
    lower = np.where(np.isfinite(search.lower), search.lower,
                     np.where(search.revolute, -math.pi, -reach))
    upper = np.where(np.isfinite(search.upper), search.upper,
                     np.where(search.revolute, math.pi, reach))
    return lower, upper


def pose_errors(T_target, T, mask=None, free_axis=None):
    """
    Return the position error (m) and orientation error (rad) of pose T from the target.

    With a ``mask`` (6 weights, :meth:`Chain.ikine`), only the components it keeps count;
    with a ``free_axis`` ('x', 'y' or 'z'), the orientation error is the angle between the
    tool's axis and the target's.
    """
    mask = _check_mask(mask)
    free = check_free_axis(free_axis, mask)
    return norms(pose_error(np.asarray(T_target, dtype=float), np.asarray(T, dtype=float),
                            mask > 0.0, free))


FREE_AXES = ('x', 'y', 'z')


def check_free_axis(free_axis, mask):
    """
    Return the free tool axis as 0, 1 or 2 (x, y, z), or None; the mask must suit it.

    A free axis needs the three rotation weights equal and not 0: the error it leaves is a
    rotation square to the tool's axis, weighted alike whichever way it points.
    """
    if free_axis is None:
        return None
    free = FREE_AXES.index(check_choice('free_axis', free_axis, FREE_AXES))
    if not mask[3] == mask[4] == mask[5] or mask[3] == 0.0:
        raise InvalidFieldError('mask', mask.tolist(), 'must weight rx, ry and rz alike and '
                                'above 0 with a free_axis (the angle between the axes is what '
                                'counts)')
    return free


def _size(e):
    return sum(norms(e))


def _count(field, value, minimum):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise InvalidFieldError(field, value, f'must be an integer >= {minimum}')
    return int(value)


_ONES = np.ones(6)  # the default mask, every component weighted 1: shared, read-only
_ONES.flags.writeable = False


def _check_mask(mask):
    """Return the mask as weights, shape (6,): [x y z rx ry rz], each >= 0, one at least > 0."""
    if mask is None:
        return _ONES
    weights = check_array('mask', mask, [(6,)])
    if (weights < 0.0).any() or not (weights > 0.0).any():
        raise InvalidFieldError('mask', mask, 'must be 6 weights >= 0 for x y z rx ry rz, '
                                'one at least > 0 (e.g. [1, 1, 1, 0, 0, 0] for position only)')
    return weights


def _check_targets(T):
    """Return the targets, shape (4, 4) for one or (m, 4, 4), and whether one was given."""
    shape = T.shape if isinstance(T, np.ndarray) else np.shape(T)
    if len(shape) == 3:
        if shape[1:] != (4, 4) or not shape[0]:
            raise InvalidFieldError('T', shape, 'must be a pose of shape (4, 4) or a batch of '
                                    'shape (m, 4, 4)')
        return check_transforms('T', T), False
    return check_transform('T', T), True


def _check_start(q0, n):
    """Return one target's start, shape (n,): q0 of shape (n,) or (1, n)."""
    starts, _ = check_joint_array('q0', q0, n)
    if len(starts) != 1:
        raise InvalidFieldError('q0', np.shape(q0), f'must be of shape ({n},) or (1, {n}), '
                                'one per target')
    _check_start_values(starts)
    return starts[0]


def _check_start_values(starts):
    """Refuse starts beyond LIMIT_MAX (finite already)."""
    if max(map(abs, starts.ravel().tolist())) > LIMIT_MAX:
        raise InvalidFieldError('q0', float(starts[np.abs(starts) > LIMIT_MAX][0]),
                                f'must be within +-{LIMIT_MAX:g} (rad or m)')
