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
Straight lines of the tool through waypoints, solved step by step on one branch, then timed.

From the start's pose to each waypoint in turn the tool moves on a straight line: its
position linear, its orientation by slerp (a constant angular velocity about one axis). A line
is cut into steps of at most ``max_step`` (m) and ``max_angle_step`` (rad), at least
:data:`MIN_STEPS`; each step's pose is solved from the last step's joint values (the closed
form's solution nearest them, or the numerical search from them, no restart), so the arm stays
on the branch it starts on. The joints then move linearly between the two steps: the pose at
their midpoint is checked against the line's pose halfway (``max_deviation`` m,
``max_angle_deviation`` rad), and a step must not turn over a sign of the arm's branch
(:meth:`core.kinematics.singularities.Kinds.branch`: shoulder, elbow, wrist); a step that
fails, or whose pose the search does not reach, is halved, down to :data:`HALVINGS` times,
before the path stops there. It says why: a joint at its limit, a singularity (the Jacobian's
least singular value below :data:`SINGULAR`), no solution on the branch (the nearest turns a
sign over, or jumps), the line left between two steps, a pose out of reach; and how much of
the path's steps were done. The joint path so far is then timed
(:class:`core.ik.timing.Trajectory`), stopping at every waypoint.
"""

from dataclasses import dataclass
import math

from dh_kinematics.core.checks import (
    check_joint_array, check_scalar, check_transform, check_transforms, InvalidFieldError)
from dh_kinematics.core.ik.ikine import pose_errors
from dh_kinematics.core.ik.timing import Trajectory
from dh_kinematics.core.kinematics import manipulability, singularities
from dh_kinematics.core.kinematics.singularities import SIGNS
from dh_kinematics.core.rotations import matrix_to_rotvec, rotvec_to_matrix
import numpy as np

MIN_STEPS = 8
"""Steps of a line at least: a line is timed from rest to rest over its steps."""
HALVINGS = 10
"""How often a step whose midpoint is off the line is halved before the path stops."""
SINGULAR = 1e-4
"""A Jacobian whose least singular value (m or rad per rad or m) is below this is singular."""
JUMP = 0.1
"""A step whose joints move more than this (rad or m) past its halvings left the branch."""
MAX_ITERATIONS = 500
"""Iterations of the search from the last step (a joint near its limit slows it)."""
AT_LIMIT = 1e-6
"""A joint this near a limit (rad or m) is at it."""
STOPS = ('limit', 'singularity', 'branch', 'deviation', 'unreachable')
"""Why a path stops short: :attr:`CartesianPath.stop`."""


@dataclass(frozen=True)
class CartesianPath:
    """
    What :meth:`Chain.cartesian_path` found.

    Attributes
    ----------
    q : array, shape (k, n)
        The joint values of each step, the start first (rad or m).
    T : array, shape (k, 4, 4)
        The line's pose at each step, ``T_world_tool``: what each ``q`` solves.
    waypoints : array of int
        The index in ``q`` of each waypoint reached.
    fraction : float
        The share of the path's steps done (1.0 when complete).
    stop : str
        ``''`` when complete; else one of :data:`STOPS`.
    reason : str
        Why the path stops, with the step's pose and the joint in the way ('' when complete).
    trajectory : Trajectory
        The joint path timed within the limits: ``sample(t)``, ``duration``, ``knot_times``.
    t : array, shape (k,)
        The time of each step, s.

    """

    q: np.ndarray
    T: np.ndarray
    waypoints: np.ndarray
    fraction: float
    stop: str
    reason: str
    trajectory: Trajectory
    t: np.ndarray

    @property
    def complete(self):
        """Tell whether every waypoint was reached."""
        return not self.stop


def cartesian_path(chain, q_start, poses, max_step=0.001, max_angle_step=0.01,
                   max_deviation=1e-4, max_angle_deviation=1e-3, mask=None, free_axis=None,
                   velocity_limits=None, acceleration_limits=None, tool_speed=None,
                   tol=1e-10):
    """Return the :class:`CartesianPath` of straight lines; see :meth:`Chain.cartesian_path`."""
    q, single = check_joint_array('q_start', q_start, chain.n)
    if not single:
        raise InvalidFieldError('q_start', np.shape(q_start), f'must be of shape ({chain.n},)')
    q = q[0]
    beyond = np.nonzero(chain.islimit(q))[0]
    if len(beyond):
        link = chain.links[int(beyond[0])]
        raise InvalidFieldError('q_start', q.tolist(), f'joint {link.name or beyond[0] + 1} is '
                                'beyond its limits')
    goals = _check_poses(poses)
    steps = {name: check_scalar(name, value, minimum=0.0, nonzero=True) for name, value in (
        ('max_step', max_step), ('max_angle_step', max_angle_step),
        ('max_deviation', max_deviation), ('max_angle_deviation', max_angle_deviation))}
    velocity, acceleration = _limits(chain, velocity_limits, acceleration_limits)
    if tool_speed is not None:
        tool_speed = check_scalar('tool_speed', tool_speed, minimum=0.0, nonzero=True)
    solver = _Stepper(chain, mask, free_axis, tol, steps)
    solver.start(q)
    lines = [_Line(a, b) for a, b in zip(np.concatenate([chain.fkine(q)[None], goals[:-1]]),
                                         goals)]
    counts = [line.steps(steps['max_step'], steps['max_angle_step']) for line in lines]
    total, done = sum(counts), 0
    Q, T, waypoints, pieces = [q], [lines[0].a], [], []
    stop = reason = ''
    for line, count in zip(lines, counts):
        s, qs, ps = [0.0], [q], [line.a[:3, 3]]
        for k in range(1, count + 1):
            step = solver.step(line, (k - 1) / count, k / count, qs[-1])
            if step.stop:
                stop, reason = step.stop, step.reason
                break
            for fraction, q_step in step.found:
                s.append(fraction * count)
                qs.append(q_step)
                T.append(line.pose(fraction))
                ps.append(T[-1][:3, 3])
            done += 1
        Q.extend(qs[1:])
        if len(s) > 1:
            pieces.append((np.array(s), np.array(qs), np.array(ps)))
        if stop:
            break
        waypoints.append(len(Q) - 1)
        q = qs[-1]
    trajectory = Trajectory(pieces, velocity, acceleration, tool_speed, Q[0])
    times = [np.zeros(1)] + [piece_times[1:] for piece_times in _piece_times(trajectory, pieces)]
    return CartesianPath(np.array(Q), np.array(T), np.array(waypoints, dtype=int),
                         done / total if total else 1.0, stop, reason, trajectory,
                         np.concatenate(times))


def _piece_times(trajectory, pieces):
    """Return each piece's knot times (s), from the trajectory's, piece by piece."""
    times, start = trajectory.knot_times, 0
    for s, _, _ in pieces:
        yield times[start:start + len(s)]
        start += len(s)


@dataclass(frozen=True)
class _Step:
    found: list  # (fraction of the line, q) of each step taken, halvings included
    stop: str = ''
    reason: str = ''


class _Line:
    """A straight line of the tool from pose a to pose b: position linear, rotation slerp."""

    def __init__(self, a, b):
        self.a, self.b = a, b
        self.rotation = matrix_to_rotvec(a[:3, :3].T @ b[:3, :3])  # in a's frame

    def steps(self, max_step, max_angle_step):
        """Return the line's steps: at least MIN_STEPS, 0 where a and b are one pose."""
        length = float(np.linalg.norm(self.b[:3, 3] - self.a[:3, 3]))
        angle = float(np.linalg.norm(self.rotation))
        if length == 0.0 and angle == 0.0:
            return 0
        return max(MIN_STEPS, math.ceil(max(length / max_step, angle / max_angle_step)))

    def pose(self, fraction):
        """Return the line's pose at ``fraction`` (0 at a, 1 at b), (4, 4)."""
        T = np.eye(4)
        T[:3, :3] = self.a[:3, :3] @ rotvec_to_matrix(fraction * self.rotation)
        T[:3, 3] = self.a[:3, 3] + fraction * (self.b[:3, 3] - self.a[:3, 3])
        return T


class _Stepper:
    """Solves a line's steps from the last joint values, checks their midpoints, says why not."""

    def __init__(self, chain, mask, free_axis, tol, steps):
        self._chain, self._mask, self._free, self._tol = chain, mask, free_axis, tol
        self._deviation = steps['max_deviation'], steps['max_angle_deviation']
        # A free axis is solved by the numerical search: it follows the turn from step to step
        # (the closed form's nearest member is a search over the whole family).
        self._method = 'numerical' if free_axis is not None else 'auto'
        conditioning = manipulability.Conditioning(chain)
        self._kinds = singularities.Kinds(chain, conditioning.ranks[2], conditioning.length)
        self._signs = {}

    def start(self, q):
        """Take the start's branch: each kind's sign (:meth:`Kinds.branch`)."""
        self._signs = self._kinds.branch(q)

    def _flipped(self, signs):
        """Return the kind whose sign ``signs`` turn over ('elbow (+ to -)'), or None."""
        for kind, sign in signs.items():
            before = self._signs.get(kind, 0)
            if sign and before and sign != before:
                return f'{kind} ({SIGNS[before]} to {SIGNS[sign]})'
        return None

    def step(self, line, start, end, q):
        """Return the :class:`_Step` from ``q`` at ``start`` to ``end`` (fractions of the line)."""
        goal, found, halvings = end, [], 0
        while True:
            result = self._solve(line.pose(end), q)
            if not result.success:
                if halvings >= HALVINGS:
                    return _Step(found, *self._why_not(line, end, q, result))
                halvings += 1
                end = (start + end) / 2.0
                continue
            off = self._off(line, (start + end) / 2.0, (q + result.q) / 2.0)
            signs = self._kinds.branch(result.q)
            flipped = self._flipped(signs)
            if off is None and flipped is None:
                self._signs = {kind: sign or self._signs.get(kind, 0) for kind, sign
                               in signs.items()}
                found.append((end, result.q))
                if end == goal:
                    return _Step(found)
                start, q, end = end, result.q, goal  # the rest of the step at once
                continue
            if halvings >= HALVINGS:
                if flipped is not None:
                    return _Step(found, 'branch', f'the {flipped} would change branch '
                                 f'{_where(line, end)} (no path on its branch)')
                return _Step(found, *self._jumped(line, end, q, result.q, off))
            halvings += 1
            end = (start + end) / 2.0

    def _solve(self, T, q):
        return self._chain.ikine(T, q0=q, mask=self._mask, method=self._method, restarts=0,
                                 tol=self._tol, free_axis=self._free,
                                 max_iterations=MAX_ITERATIONS)

    def _off(self, line, fraction, q):
        """Return the midpoint's errors (m, rad) if off the line, else None."""
        position, angle = pose_errors(line.pose(fraction), self._chain.fkine(q), self._mask,
                                      self._free)
        if position <= self._deviation[0] and angle <= self._deviation[1]:
            return None
        return position, angle

    def _why_not(self, line, fraction, q, result):
        """Return (stop, reason) where no solution reaches the line's pose at ``fraction``."""
        where = _where(line, fraction)
        held = self._in_the_way(where, q, result.q)  # or where the search stopped
        if held:
            return held
        if 'none within the joint limits' in result.note:
            return 'limit', f'the solutions {where} are beyond the joint limits'
        if 'out of reach' in result.note:
            return 'unreachable', f'the pose {where} is out of reach'
        return 'unreachable', (f'no solution {where} from the last step '
                               f'({result.position_error:.3g} m, '
                               f'{result.orientation_error:.3g} rad off)')

    def _jumped(self, line, fraction, q, q_next, off):
        """Return (stop, reason) where a step's midpoint stays off the line, halved."""
        where = _where(line, fraction)
        held = self._in_the_way(where, q)
        if held:
            return held
        jump = np.abs(q_next - q)
        joint = int(np.argmax(jump))
        if jump[joint] > JUMP and self._signs:
            return 'branch', (f'no solution on the branch {where}: the nearest moves '
                              f'{self._name(joint)} by {jump[joint]:.3g}')
        return 'deviation', (f'the joints leave the line {where}: {off[0]:.3g} m, '
                             f'{off[1]:.3g} rad off halfway')

    def _in_the_way(self, where, q, q_reached=None):
        """Return (stop, reason) for a joint at its limit or a singularity at q, or None."""
        held = self._at_limit(q) or (self._at_limit(q_reached) if q_reached is not None
                                     else '')
        if held:
            return 'limit', f'{held} at its limit {where}'
        sigma = self._least_singular(q)
        if sigma < SINGULAR:
            return 'singularity', (f'a singularity {where} (least singular value '
                                   f'{sigma:.3g})')
        return None

    def _at_limit(self, q):
        lower, upper = self._chain.qlim.T
        near = (np.abs(q - lower) < AT_LIMIT) | (np.abs(q - upper) < AT_LIMIT)
        return ', '.join(self._name(j) for j in np.nonzero(near)[0].tolist())

    def _least_singular(self, q):
        J = self._chain.jacob0(q)
        kept = np.ones(6, dtype=bool) if self._mask is None else np.asarray(self._mask) > 0.0
        return float(np.linalg.svd(J[kept], compute_uv=False)[-1])

    def _name(self, joint):
        return self._chain.links[joint].name or f'joint {joint + 1}'


def _where(line, fraction):
    x, y, z = line.pose(fraction)[:3, 3].tolist()
    return f'at [{x:.4f}, {y:.4f}, {z:.4f}] m'


def _check_poses(poses):
    """Return the waypoints, (m, 4, 4), from one pose (4, 4) or several."""
    if np.ndim(poses) == 2:
        return check_transform('poses', poses)[None]
    return check_transforms('poses', poses)


def _limits(chain, velocity, acceleration):
    """Return each joint's velocity and acceleration limits, given or the model's."""
    found = []
    for field, given, attribute in (('velocity_limits', velocity, 'velocity_limit'),
                                    ('acceleration_limits', acceleration,
                                     'acceleration_limit')):
        if given is None:
            values = []
            for j, link in enumerate(chain.links):
                value = getattr(link, attribute)
                if attribute == 'acceleration_limit' and link.deceleration_limit is not None:
                    value = min(value, link.deceleration_limit) if value else None
                if value is None:
                    raise InvalidFieldError(field, None, f'joint {link.name or j + 1} has no '
                                            f'{attribute}: give {field} (one per joint)')
                values.append(value)
            given = values
        values = np.asarray(given, dtype=float)
        if values.shape != (chain.n,) or not (np.isfinite(values) & (values > 0.0)).all():
            raise InvalidFieldError(field, given, f'must be {chain.n} finite values > 0')
        found.append(values)
    return found
