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
The external torque on every joint from joint_states alone: a generalised-momentum observer.

De Luca and Mattone (2003); Haddadin, De Luca and Albu-Schaeffer (T-RO 2017). With the momentum
``p = M(q) qd`` and its rate ``dp/dt = tau + C^T qd - g + friction(qd) + tau_ext``
(:class:`core.dynamics.Momentum`), the residual

    r = K (p - p(0) - integral(tau + C^T qd - g + friction(qd) + r) dt)

obeys ``dr/dt = K (tau_ext - r)``: it follows an external torque as a first-order lag of time
constant ``1/K``, with no acceleration and no filter. On message stamps, with the model's terms
``beta = tau + C^T qd - g + friction`` taken as their mean over each interval (the trapezoid),
the same equation solved exactly over an interval ``dt`` is

    r_k = a r_(k-1) + (1 - a) ((p_k - p_(k-1)) / dt - (beta_k + beta_(k-1)) / 2),  a = exp(-K dt)

so the estimate is right for any message rate and a step of ``A`` gives ``A (1 - exp(-K t))``.
``tau`` is the message's effort; ``friction`` is what the model's friction exerts
(:meth:`Chain.friction`), so a friction the model lacks shows in ``r``.

The observer starts at ``r = 0`` from its first sample, and starts again (:meth:`restart`) when
its samples stop being one motion: a gap in the stamps longer than the stale timeout, a stamp
not after the last, a value that is not finite or beyond any arm's (:data:`EFFORT_MAX`), a
new model or settings, the clock jumping back. :func:`tool_wrench` turns the estimate into the
force and moment at the tool, and :func:`wrench_deviation` says how far they can be believed
from the sensors' noise (:func:`estimate_covariance`).
"""

import math

from dh_kinematics.core import bounds
from dh_kinematics.core.dynamics import Momentum, rne_unrolled
from dh_kinematics.node_logic.rate_estimate import MAX_RATE
import numpy as np

__all__ = ['estimate_covariance', 'in_frame', 'MomentumObserver', 'SINGULAR', 'tool_wrench',
           'wrench_deviation']

EFFORT_MAX = bounds.LIMIT_MAX
"""An effort (N m or N) beyond this size (or a velocity beyond :data:`rate_estimate.MAX_RATE`)
is no arm's: the observer restarts, as on a value that is not finite, rather than carry it in
its estimate for seconds."""
SINGULAR = 0.01
"""Singular values of the tool Jacobian below this fraction of the largest count as zero.

A torque error of e N m reads as up to e / (SINGULAR * sigma_max) N in the wrench: near a
singularity an 8 N m contact on the UR5's fourth joint read as 1.9 kN with 1e-6 here. At 0.01
no direction amplifies a torque error more than 100 times the best conditioned one; the
directions the arm can barely feel read as zero instead of as a huge force."""


class MomentumObserver:
    """
    The observer's state for one model.

    Attributes
    ----------
    estimate : list of float or None
        The last estimate of every joint's external torque (N m or N), None until it has two
        samples since its start.
    interval : float
        The interval of the last estimate, s (NaN before the first).

    """

    def __init__(self):
        self.estimate = None
        self.interval = math.nan
        self._last = None  # (stamp_ns, p, beta) of the last sample
        self._gain, self._gap_ns = 50.0, 0

    def configure(self, chain, gain, gap_s):
        """Take the model (:class:`Chain`), the gain ``K`` (1/s) and the longest gap (s)."""
        dyn = chain.dynamic_constants
        self._terms = Momentum(dyn)
        self._friction = rne_unrolled.compile_friction(dyn)
        self._gain, self._gap_ns = gain, int(gap_s * 1e9)
        self.restart()

    def terms_of(self, Q, QD):
        """
        Return what :meth:`update` takes as ``terms`` at many samples: a pair of lists each.

        ``Q`` and ``QD`` (m, n) of finite values: joint values (rad or m) and rates (per s).
        The momentum and its rate's model terms (:class:`Momentum`), over columns.
        """
        P, terms = self._terms.columns(Q, QD)
        return list(zip(P.tolist(), terms.tolist()))

    def covariance(self, M, velocity_noise, effort_noise):
        """Return the last estimate's :func:`estimate_covariance` at inertia ``M``."""
        return estimate_covariance(M, velocity_noise, effort_noise, self._gain, self.interval)

    def restart(self):
        """Start again at the next sample; tell whether it was running (a restart to count)."""
        running = self._last is not None
        self._last = self.estimate = None
        return running

    def update(self, stamp_ns, q, qd, tau, terms=None):
        """
        Take one sample of every joint; return why it restarted (a str), or None.

        ``q``, ``qd`` and ``tau`` are sequences of n floats (rad or m, per s, N m or N); the
        stamp is in ns. ``terms``, where given, are :meth:`terms_of`'s at ``q`` and ``qd``.
        :attr:`estimate` holds the new estimate, or None while the observer starts.
        """
        last = self._last
        if not (max(map(abs, tau), default=0.0) <= EFFORT_MAX
                and max(map(abs, qd), default=0.0) <= MAX_RATE):
            self._last = self.estimate = None
            return (f'an effort beyond {EFFORT_MAX:g} N m or N, or a velocity beyond '
                    f'{MAX_RATE:g} rad/s or m/s' if last is not None else None)
        p, terms = self._terms(q, qd) if terms is None else terms
        beta = [t + c + f for t, c, f in zip(tau, terms, self._friction(qd))]
        self._last = (stamp_ns, p, beta)
        if not math.isfinite(sum(p) + sum(beta)):
            self._last = self.estimate = None
            return 'a value is not finite' if last is not None else None
        if last is None:
            return None
        then, p_then, beta_then = last
        dt_ns = stamp_ns - then
        if not 0 < dt_ns <= self._gap_ns:
            self.estimate = None
            return ('a gap of more than the stale timeout' if dt_ns > 0
                    else 'a stamp not after the last')
        self.interval = dt = dt_ns * 1e-9
        kept = math.exp(-self._gain * dt)
        taken, rate = 1.0 - kept, 1.0 / dt
        r = self.estimate or [0.0] * len(p)
        self.estimate = [kept * value + taken * ((now - before) * rate - 0.5 * (b + b_then))
                         for value, now, before, b, b_then in zip(r, p, p_then, beta, beta_then)]
        return None


def in_frame(J, R):
    """
    Return the Jacobian [v; w] ``J`` (6, n) or (m, 6, n) with its rows in another frame's axes.

    ``R`` (3, 3): that frame's axes in ``J``'s (``R_world_base`` for a world Jacobian and the
    base frame); each of the linear and the angular rows turned by ``R^T``, so that
    :func:`tool_wrench` and :func:`wrench_deviation` of it are in that frame.
    """
    J, R = np.asarray(J, dtype=float), np.asarray(R, dtype=float)
    return np.concatenate([R.T @ J[..., :3, :], R.T @ J[..., 3:, :]], axis=-2)


def tool_wrench(J, torques):
    """
    Return the force and moment at the tool point that best explain joint ``torques``.

    Parameters
    ----------
    J : array, shape (6, n) or (m, 6, n)
        The tool point's geometric Jacobian [v; w] in some frame (:meth:`Chain.jacob0`).
    torques : array, shape (n,) or (m, n)
        External joint torques (N m) or forces (N).

    Returns
    -------
    wrench : array, shape (6,) or (m, 6)
        ``[fx, fy, fz, mx, my, mz]`` (N, N m about the tool point) in the Jacobian's frame: the
        least-squares solution of ``J^T w = torques`` of least norm. A wrench the joints cannot
        feel (an arm of fewer than six joints, or a pose near a singularity: singular values
        of ``J`` below :data:`SINGULAR` of the largest) has no part in it, so a force along
        such a direction reads as zero rather than amplified past any use.

    """
    torques = np.asarray(torques, dtype=float)
    return (_wrench_map(J) @ torques[..., None])[..., 0]


def estimate_covariance(M, velocity_noise, effort_noise, gain, dt):
    """
    Return the covariance of the observer's estimate under white sensor noise (n, n).

    Parameters
    ----------
    M : array, shape (n, n)
        The joint-space inertia at the pose (:meth:`Chain.inertia`), kg m^2 or kg.
    velocity_noise, effort_noise : sequence of n floats
        The standard deviation of each joint's measured velocity (rad/s or m/s) and effort (N m
        or N), each sample's independent of the others'.
    gain : float
        The observer's gain ``K``, 1/s.
    dt : float
        The interval between samples, s.

    Returns
    -------
    covariance : array, shape (n, n)
        (N m)^2 or N^2. :class:`MomentumObserver` takes ``r_k = a r_(k-1) + (1 - a) ((p_k -
        p_(k-1)) / dt - (b_k + b_(k-1)) / 2)``, ``a = exp(-K dt)``: the momentum's noise
        ``M dv`` enters differenced, stationary variance ``2 (1 - a)^2 / ((1 + a) dt^2)`` of
        its own, the effort's noise averaged, ``(1 - a) / 2`` of its own; the two independent.
        Where the arm moves, the model's error adds to this; what the motion thresholds bound.

    """
    kept = math.exp(-gain * dt)
    M = np.asarray(M, dtype=float)
    through = M * np.asarray(velocity_noise, dtype=float)  # M diag(s_v)
    return (2.0 * (1.0 - kept) ** 2 / ((1.0 + kept) * dt ** 2) * (through @ through.T)
            + 0.5 * (1.0 - kept) * np.diag(np.square(np.asarray(effort_noise, dtype=float))))


def wrench_deviation(J, covariance):
    """
    Return the standard deviation of each axis of :func:`tool_wrench` under the torques' noise.

    Parameters
    ----------
    J : array, shape (6, n) or (m, 6, n)
        The tool point's geometric Jacobian [v; w], as for :func:`tool_wrench`.
    covariance : array, shape (n, n) or (m, n, n)
        The covariance of the joints' estimate with nothing pressing, (N m)^2 or N^2
        (:func:`estimate_covariance`).

    Returns
    -------
    deviation : array, shape (6,) or (m, 6)
        Of ``[fx, fy, fz, mx, my, mz]`` (N, N m): the wrench is ``P torques`` with ``P`` the
        pseudo-inverse of ``J^T`` (singular values below :data:`SINGULAR` of the largest
        dropped, as :func:`tool_wrench` drops them), so its covariance is ``P C P^T``; the
        square roots of its diagonal. Near a singularity ``P`` grows as ``1 / sigma``: the
        deviation says so.

    Examples
    --------
    >>> import numpy as np
    >>> J = np.vstack([np.eye(3), np.zeros((3, 3))])  # three prismatic joints along x, y, z
    >>> wrench_deviation(J, np.diag([0.25, 1.0, 4.0])).tolist()
    [0.5, 1.0, 2.0, 0.0, 0.0, 0.0]

    """
    P = _wrench_map(J)
    return np.sqrt(np.einsum('...in,...nk,...ik->...i', P, np.asarray(covariance, dtype=float),
                             P))


def _wrench_map(J):
    """Return ``P`` (6, n) or (m, 6, n): the wrench is ``P torques`` (:func:`tool_wrench`)."""
    return np.linalg.pinv(np.swapaxes(np.asarray(J, dtype=float), -1, -2), rcond=SINGULAR)
