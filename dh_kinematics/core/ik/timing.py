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
A joint path's time law within the joints' velocity and acceleration limits and a tool speed.

The path is pieces, each at rest at both ends (a straight line of the tool stops where the
next one turns): a piece's joint values ``q_i`` at knots ``s_i`` of a path parameter, joined
by cubic Hermite curves with monotone tangents (:func:`_tangents`: the curve passes through
every knot and never beyond the values of the two it joins; its velocity is continuous).
Along it ``x = ds/dt ^ 2`` is linear in s between knots (``d2s/dt2 = u``, constant there), and
at each knot the joint velocities ``q'(s) ds/dt`` and accelerations ``q'(s) u + q''(s) x``
(with ``q''`` on either side) keep their limits: the time-optimal law of this discretisation
(Pham's reachability analysis, in closed form per knot as every bound is linear in x): a
backward pass gives each knot the largest x from which the piece can still stop in time; a
forward pass accelerates as much as that and the limits allow. Between knots the law is not
held to the limits; the whole is then sampled :data:`CHECKS` times per knot interval, and
where a sample exceeds a limit, time is stretched uniformly (velocities by 1/k,
accelerations by 1/k^2) until none does, by the margin :data:`MARGIN`.

Units: s; rad or m per joint; m/s for the tool.
"""

import math

import numpy as np

CHECKS = 16
"""Samples per knot interval in the final check of the limits."""
MARGIN = 0.999
"""The share of each limit the final check allows: rounding and the samples between."""
KEEP = 0.25
"""The least share of x = (ds/dt)^2 a knot keeps at the next, but at a piece's end."""


class Trajectory:
    """
    A timed joint path: pieces of knots, each starting and ending at rest.

    Parameters
    ----------
    pieces : list of (s, q, p)
        Per piece the knots' path parameter ``s`` (k,), increasing; the joint values ``q``
        (k, n), rad or m; the tool positions ``p`` (k, 3), m.
    velocity, acceleration : array, shape (n,)
        Each joint's limits (rad/s or m/s; rad/s^2 or m/s^2), > 0.
    tool_speed : float or None
        The tool's largest speed, m/s.
    start : array, shape (n,)
        Where the arm is at time 0: all there is without pieces.

    """

    def __init__(self, pieces, velocity, acceleration, tool_speed, start):
        self.velocity, self.acceleration = velocity, acceleration
        self._start = np.asarray(start, dtype=float)
        self._pieces = [_Piece(s, q, p, velocity, acceleration, tool_speed)
                        for s, q, p in pieces]
        ratio = max([piece.worst() for piece in self._pieces], default=0.0)
        self.stretch = max(1.0, ratio / MARGIN)
        """The uniform stretch of time the final check asked for (1: none)."""
        starts, ends, start = [], [], 0.0
        for piece in self._pieces:
            piece.t = piece.t * self.stretch
            starts.append(start)
            ends.append(piece.t[-1] + start)  # as knot_times gives it
            start += piece.t[-1]
        self._starts, self._ends = np.array(starts), np.array(ends)
        self.duration = start
        """The trajectory's duration, s."""

    @property
    def knot_times(self):
        """Each given knot's time, s: the pieces in turn (a piece's end, then the next's start)."""
        return np.concatenate([piece.t[piece.knots] + start for piece, start in
                               zip(self._pieces, self._starts)] or [np.zeros(0)])

    def sample(self, t):
        """
        Return joint values, velocities and accelerations at times ``t`` (s), each (m, n).

        Times before 0 or past the end give the ends, at rest.
        """
        t = np.clip(np.atleast_1d(np.asarray(t, dtype=float)), 0.0, self.duration)
        if not self._pieces:
            return np.tile(self._start, (len(t), 1)), np.zeros((len(t), len(self._start))), (
                np.zeros((len(t), len(self._start))))
        which = np.clip(np.searchsorted(self._starts, t, side='right') - 1, 0,
                        len(self._pieces) - 1)
        n = len(self.velocity)
        q, qd, qdd = np.empty((len(t), n)), np.empty((len(t), n)), np.empty((len(t), n))
        for k, piece in enumerate(self._pieces):
            rows = which == k
            if rows.any():
                q[rows], qd[rows], qdd[rows] = piece.sample(t[rows] - self._starts[k],
                                                            self.stretch)
                qd[rows & (t >= self._ends[k])] = 0.0  # at rest at the end, not to rounding
        return q, qd, qdd


class _Piece:
    """One piece of the path, timed: :class:`Trajectory`'s, at rest at both ends."""

    def __init__(self, s, q, p, velocity, acceleration, tool_speed):
        self.knots = np.arange(len(s))  # the given knots among the piece's
        if len(s) == 2:  # from rest to rest needs a knot between (u is constant per interval)
            s, q, p = (np.array([s[0], (s[0] + s[1]) / 2.0, s[1]]),
                       np.array([q[0], (q[0] + q[1]) / 2.0, q[1]]),
                       np.array([p[0], (p[0] + p[1]) / 2.0, p[1]]))
            self.knots = np.array([0, 2])
        self.s, self.q = s, q
        self.dq = _tangents(s, q)
        h = np.diff(s)[:, None]
        # On interval i: q(s) = h00 q_i + h10 h m_i + h01 q_i+1 + h11 h m_i+1 (t = (s - s_i)/h);
        # its second derivative at either end.
        dq, step = self.dq, np.diff(q, axis=0)
        left = (6.0 * step - h * (4.0 * dq[:-1] + 2.0 * dq[1:])) / h ** 2  # at s_i, on the right
        right = (-6.0 * step + h * (2.0 * dq[:-1] + 4.0 * dq[1:])) / h ** 2  # at s_i+1, left
        zero = np.zeros((1, q.shape[1]))
        after, before = np.vstack([left, zero]), np.vstack([zero, right])  # q'' at each knot
        x_max = _velocity_bound(dq, velocity)
        if tool_speed is not None:
            speed = np.linalg.norm(np.gradient(p, s, axis=0), axis=1)
            with np.errstate(divide='ignore'):
                x_max = np.minimum(x_max, np.where(speed > 0.0, (tool_speed / speed) ** 2,
                                                   np.inf))
        rows = _Rows(dq, after, before, acceleration)
        x_max = np.minimum(x_max, rows.feasible())
        x = _law(np.diff(s), rows, x_max)
        speed = np.sqrt(x)
        self.u = np.diff(x) / (2.0 * np.diff(s))  # d2s/dt2 on each interval
        dt = 2.0 * np.diff(s) / (speed[:-1] + speed[1:])
        self.t = np.concatenate([[0.0], np.cumsum(dt)])
        self._speed = speed
        self.velocity, self.acceleration = velocity, acceleration

    def sample(self, t, stretch=1.0):
        """Return q, qd, qdd at times ``t`` (s, from the piece's start) under the stretch."""
        k = np.clip(np.searchsorted(self.t, t, side='right') - 1, 0, len(self.s) - 2)
        return self._at(k, (t - self.t[k]) / stretch, stretch)

    def _at(self, k, tau, stretch=1.0):
        """Return q, qd, qdd on intervals ``k`` at ``tau`` (s, unstretched) from their start."""
        speed0, u = self._speed[k], self.u[k]
        s = self.s[k] + speed0 * tau + 0.5 * u * tau ** 2
        sd = (speed0 + u * tau) / stretch
        sdd = u / stretch ** 2
        q, dq, ddq = self._curve(k, np.clip(s, self.s[k], self.s[k + 1]))
        return q, dq * sd[:, None], dq * sdd[:, None] + ddq * (sd ** 2)[:, None]

    def worst(self):
        """Return the largest share of a limit any of the check's samples reaches."""
        k = np.repeat(np.arange(len(self.s) - 1), CHECKS + 1)
        fraction = np.tile(np.arange(CHECKS + 1) / CHECKS, len(self.s) - 1)
        _, qd, qdd = self._at(k, fraction * (self.t[k + 1] - self.t[k]))  # both ends, each side
        return max(float(np.max(np.abs(qd) / self.velocity, initial=0.0)),
                   math.sqrt(float(np.max(np.abs(qdd) / self.acceleration, initial=0.0))))

    def _curve(self, k, s):
        """Return the Hermite curve's value and its first two derivatives in s at ``s``."""
        h = (self.s[k + 1] - self.s[k])[:, None]
        t = (s - self.s[k])[:, None] / h
        q0, q1, m0, m1 = self.q[k], self.q[k + 1], self.dq[k] * h, self.dq[k + 1] * h
        t2, t3 = t * t, t * t * t
        q = ((2 * t3 - 3 * t2 + 1) * q0 + (t3 - 2 * t2 + t) * m0 + (-2 * t3 + 3 * t2) * q1
             + (t3 - t2) * m1)
        q = np.clip(q, np.minimum(q0, q1), np.maximum(q0, q1))  # monotone: within, but rounding
        dq = ((6 * t2 - 6 * t) * q0 + (3 * t2 - 4 * t + 1) * m0 + (-6 * t2 + 6 * t) * q1
              + (3 * t2 - 2 * t) * m1) / h
        ddq = ((12 * t - 6) * q0 + (6 * t - 4) * m0 + (-12 * t + 6) * q1
               + (6 * t - 2) * m1) / h ** 2
        return q, dq, ddq


class _Rows:
    """
    The acceleration bounds at each knot as bounds on u, affine in x.

    Joint j, either side's ``q''``: ``-a <= q' u + q'' x <= a``. Where ``q' != 0``:
    ``lo = alpha_lo + beta x <= u <= alpha_hi + beta x``; where ``q' = 0`` it bounds x alone.
    """

    def __init__(self, dq, after, before, acceleration):
        c = np.concatenate([dq, dq], axis=1)  # (k, 2n)
        d = np.concatenate([after, before], axis=1)
        a = np.concatenate([acceleration, acceleration])
        moving = np.abs(c) > 1e-300
        safe = np.where(moving, c, 1.0)
        self.alpha_hi = np.where(moving, a / np.abs(safe), np.inf)
        self.alpha_lo = -self.alpha_hi
        self.beta = np.where(moving, -d / safe, 0.0)
        with np.errstate(divide='ignore'):
            self.still = np.where(moving | (d == 0.0), np.inf, a / np.abs(d)).min(axis=1)

    def feasible(self):
        """Return each knot's largest x at which some u keeps every bound (lo(x) <= hi(x))."""
        lo_a, lo_b = self.alpha_lo[:, :, None], self.beta[:, :, None]
        hi_a, hi_b = self.alpha_hi[:, None, :], self.beta[:, None, :]
        slope = lo_b - hi_b  # lo_r(x) - hi_s(x) = (lo_a - hi_a) + slope x <= 0
        with np.errstate(divide='ignore', invalid='ignore'):
            bound = np.where(slope > 0.0, (hi_a - lo_a) / slope, np.inf)
        bound = np.where(np.isnan(bound), np.inf, bound)
        return np.minimum(bound.min(axis=(1, 2)), self.still)

    def lo(self, i, x):
        return float(np.max(self.alpha_lo[i] + self.beta[i] * x))

    def hi(self, i, x):
        return float(np.min(self.alpha_hi[i] + self.beta[i] * x))

    def backward(self, i, h, x_next, last):
        """
        Return the largest x at knot i from which a u within the bounds reaches x_next or less.

        ``x + 2 h lo(x) <= x_next``: every row's ``x (1 + 2 h beta) <= x_next - 2 h alpha_lo``.
        Before the last interval, also ``x + 2 h hi(x) >= KEEP x``, so that the next knot is
        reached still moving (an interval from rest to rest takes for ever at a constant u):
        every row's ``x (1 - KEEP + 2 h beta) >= -2 h alpha_hi``.
        """
        slope = 1.0 + 2.0 * h * self.beta[i]
        room = x_next - 2.0 * h * self.alpha_lo[i]
        with np.errstate(divide='ignore', invalid='ignore'):
            bound = np.where(slope > 0.0, room / slope, np.inf)
            if not last:
                slope = slope - KEEP
                bound = np.minimum(bound, np.where(
                    slope < 0.0, 2.0 * h * self.alpha_hi[i] / -slope, np.inf))
        return float(np.min(np.where(np.isnan(bound), np.inf, bound)))


def _tangents(s, q):
    """
    Return the Hermite tangents at the knots (k, n): monotone, as Fritsch and Butland's.

    Where a joint turns back (its steps change sign), the tangent is 0; elsewhere a weighted
    harmonic mean of the two steps' slopes: the curve never passes a knot's value between two
    knots, so within the limits where the knots are. At the ends, the slope of the step.
    """
    h = np.diff(s)[:, None]
    slope = np.diff(q, axis=0) / h
    tangent = np.empty_like(q)
    tangent[0], tangent[-1] = slope[0], slope[-1]
    before, after = slope[:-1], slope[1:]
    w1, w2 = 2.0 * h[1:] + h[:-1], h[1:] + 2.0 * h[:-1]
    same = before * after > 0.0
    with np.errstate(divide='ignore', invalid='ignore'):
        mean = (w1 + w2) / (w1 / before + w2 / after)
    tangent[1:-1] = np.where(same, mean, 0.0)
    return tangent


def _velocity_bound(dq, velocity):
    """Return each knot's largest x the joint velocity limits allow."""
    with np.errstate(divide='ignore'):
        return np.min(np.where(dq != 0.0, (velocity / np.abs(dq)) ** 2, np.inf), axis=1)


def _law(h, rows, x_max):
    """Return x at each knot: at rest at both ends, the largest the bounds allow between."""
    k = len(x_max)
    reachable = np.empty(k)  # the backward pass: the largest x that can still stop
    reachable[-1] = 0.0
    for i in range(k - 2, -1, -1):
        reachable[i] = max(0.0, min(x_max[i], rows.backward(i, h[i], reachable[i + 1],
                                                            i == k - 2)))
    x = np.empty(k)
    x[0] = 0.0
    for i in range(k - 1):
        x[i + 1] = max(0.0, min(reachable[i + 1], x[i] + 2.0 * h[i] * rows.hi(i, x[i])))
    return x
