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
A category-1 stop from the present state: how long it takes and how far the arm goes.

The arm stops on its path, as a controller's category-1 stop does (IEC 60204-1: the drives
brake, then power is removed): every joint decelerates uniformly and all reach rest together,
after

    T = max_j |qd_j| / a_j

(s), ``a_j`` joint j's deceleration limit (rad/s^2 or m/s^2): the joint whose ratio is the
largest brakes at its limit, the others at less than theirs. Joint j travels ``|qd_j| T / 2``
(rad or m). Along the ramp ``q(t) = q + qd (t - t^2 / (2 T))``, ``qd(t) = qd (1 - t / T)``, and
a point of the arm (the tool) travels the path length

    L = integral_0^T |v(q(t), qd(t))| dt = T integral_0^1 |v(q(s), qd)| (1 - s) ds

(m), taken with Gauss-Legendre quadrature of :data:`NODES` nodes (the speed is smooth along
the ramp: the error is far below a micrometre).
"""

from dh_kinematics.core.checks import InvalidFieldError
import numpy as np

NODES = 12
"""Gauss-Legendre nodes of the path-length integral."""
_S, _W = np.polynomial.legendre.leggauss(NODES)
_S, _W = (_S + 1.0) / 2.0, _W / 2.0  # on [0, 1]
_RAMP, _WEIGHTS = _S - _S * _S / 2.0, _W * (1.0 - _S)  # q(s) - q over qd T; ds (1 - s)


def check_deceleration(deceleration, n):
    """Return each joint's deceleration limit as an array (n,): > 0, inf for none needed."""
    a = np.asarray(deceleration, dtype=float)
    if a.shape != (n,) or not (a > 0.0).all():  # NaN too
        raise InvalidFieldError('deceleration', deceleration.tolist() if isinstance(
            deceleration, np.ndarray) else deceleration,
            f'must be {n} decelerations > 0 (rad/s^2 or m/s^2)')
    return a


def stop(qd, deceleration):
    """
    Return the stopping time (s) and each joint's stopping distance (rad or m).

    Parameters
    ----------
    qd : array, shape (n,)
        Joint rates at the stop, rad/s or m/s.
    deceleration : array, shape (n,)
        Deceleration limits, > 0 (:func:`check_deceleration`).

    Returns
    -------
    T : float
    distances : array, shape (n,)

    """
    speed = np.abs(np.asarray(qd, dtype=float))
    T = float((speed / deceleration).max()) if len(speed) else 0.0
    return T, speed * (T / 2.0)


def path_length(jacobians, q, qd, T):
    """
    Return the path length (m) of the tool point along the stop's ramp, of one stop or many.

    Parameters
    ----------
    jacobians : callable
        The tool's Jacobians [v; w] at many configurations, (m, n) -> (m, 6, n): e.g.
        :meth:`Chain.jacob0`, or the arm's state's (:meth:`ArmState.jacobians`).
    q, qd : array, shape (..., n)
        Where each stop starts (rad or m) and the joint rates there.
    T : float or array, shape (...)
        The stopping times, s (:func:`stop`).

    Returns
    -------
    L : float, or array of shape (...)

    """
    q, qd, T = (np.asarray(value, dtype=float) for value in (q, qd, T))
    n = q.shape[-1]
    nodes = q[..., None, :] + _RAMP[:, None] * (qd * T[..., None])[..., None, :]
    J_v = jacobians(nodes.reshape(-1, n))[:, :3].reshape(q.shape[:-1] + (NODES, 3, n))
    speeds = np.linalg.norm((J_v @ qd[..., None, :, None])[..., 0], axis=-1)
    L = T * (speeds @ _WEIGHTS)
    return float(L) if L.ndim == 0 else L
