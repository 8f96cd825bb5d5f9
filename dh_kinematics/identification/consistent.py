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
Physically consistent dynamic parameters: each link's pseudo-inertia by its log-Cholesky factor.

A rigid body's parameters ``(m, m r, I_o)`` (:mod:`core.dynamics.regressor`) are those of a
real body exactly when its pseudo-inertia

    J = [[Sigma, m r], [m r^T, m]],   Sigma = tr(I_o)/2 E - I_o

is positive definite (Wensing, Kim, Slotine, RA-L 2018): then m > 0, the inertia about the
centre of mass is positive definite and obeys the triangle inequality. Writing
``J = U U^T`` with ``U`` upper triangular,

    U = exp(alpha) [[exp(d1), s12, s13, t1], [0, exp(d2), s23, t2], [0, 0, exp(d3), t3],
                    [0, 0, 0, 1]],

any 10 real numbers ``theta = (alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3)`` give a
consistent body and every consistent body has one such theta (Rucker and Wensing, RA-L 2022):
a least-squares fit over theta needs no constraint.
"""

from dh_kinematics.core.dynamics.regressor import symmetric
import numpy as np

_ENTRIES = ((0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3))
"""Where s12, s23, s13, t1, t2, t3 stand in U."""


def _factor(theta):
    alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3 = theta
    return np.exp(alpha) * np.array([[np.exp(d1), s12, s13, t1], [0.0, np.exp(d2), s23, t2],
                                     [0.0, 0.0, np.exp(d3), t3], [0.0, 0.0, 0.0, 1.0]])


def _parameters(J):
    """Return ``(m, m r, I_o)`` of a pseudo-inertia (or of its derivative: the map is linear)."""
    sigma = J[:3, :3]
    I_o = np.trace(sigma) * np.eye(3) - sigma
    return np.concatenate([[J[3, 3]], J[:3, 3], I_o[np.triu_indices(3)]])


def body(theta):
    """Return the 10 rigid-body parameters ``(m, m r, I_o)`` of a log-Cholesky ``theta``."""
    U = _factor(theta)
    return _parameters(U @ U.T)


def body_jacobian(theta):
    """Return d body / d theta, shape (10, 10): column k the derivative along theta[k]."""
    U = _factor(theta)
    scale = np.exp(theta[0])
    derivatives = [U]  # alpha scales all of U
    for i in range(3):
        dU = np.zeros((4, 4))
        dU[i, i] = U[i, i]
        derivatives.append(dU)
    for i, k in _ENTRIES:
        dU = np.zeros((4, 4))
        dU[i, k] = scale
        derivatives.append(dU)
    return np.stack([_parameters(dU @ U.T + U @ dU.T) for dU in derivatives], axis=1)


def pseudo_inertia(parameters):
    """Return the 4x4 pseudo-inertia of 10 rigid-body parameters ``(m, m r, I_o)``."""
    I_o = symmetric(parameters[4:10])
    J = np.empty((4, 4))
    J[:3, :3] = 0.5 * np.trace(I_o) * np.eye(3) - I_o
    J[:3, 3] = J[3, :3] = parameters[1:4]
    J[3, 3] = parameters[0]
    return J


def is_consistent(parameters, tolerance=0.0):
    """Tell whether 10 rigid-body parameters are a real body's (pseudo-inertia > tolerance)."""
    return bool(np.linalg.eigvalsh(pseudo_inertia(parameters)).min() > tolerance)


def theta(parameters, floor=1e-9):
    """
    Return the log-Cholesky theta of 10 rigid-body parameters, made consistent first.

    A pseudo-inertia that is not positive definite (a point mass, a massless link, a datasheet
    that breaks the triangle inequality) has its eigenvalues raised to ``floor`` times its
    largest (at least ``floor`` kg m^2): the nearest consistent body, for a fit to start from.
    """
    J = pseudo_inertia(parameters)
    values, vectors = np.linalg.eigh(J)
    least = max(floor * max(values.max(), 1.0), floor)
    if values.min() < least:
        J = (vectors * np.maximum(values, least)) @ vectors.T
    flipped = np.linalg.cholesky(J[::-1, ::-1])  # J = P L L^T P: U = P L P is upper
    U = flipped[::-1, ::-1]
    scale = U[3, 3]
    U = U / scale
    return np.array([np.log(scale), np.log(U[0, 0]), np.log(U[1, 1]), np.log(U[2, 2]),
                     U[0, 1], U[1, 2], U[0, 2], U[0, 3], U[1, 3], U[2, 3]])
