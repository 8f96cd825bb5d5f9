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
Independent dynamics for tests: Lagrange's equations from finite differences of fkine_all.

Nothing here uses the recursive Newton-Euler code: link velocities come from central
differences of link poses, the mass matrix from those Jacobians, and Coriolis terms from
differences of the mass matrix (Christoffel symbols).
"""

import numpy as np

STEP = 1e-6


def _vee(S):
    return np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]]) / 2.0


def link_jacobians(chain, q, step=STEP):
    """Per link: (Jv of the centre of mass, Jw), each shape (3, n), by central differences."""
    n = chain.n
    shifted = np.concatenate([q + step * np.eye(n), q - step * np.eye(n)])
    poses = chain.fkine_all(shifted)[:, 1:]
    jacobians = []
    for i, link in enumerate(chain.links):
        plus, minus = poses[:n, i], poses[n:, i]
        com_plus = plus[:, :3, :3] @ link.r + plus[:, :3, 3]
        com_minus = minus[:, :3, :3] @ link.r + minus[:, :3, 3]
        Jv = ((com_plus - com_minus) / (2 * step)).T
        Jw = np.array([_vee(P[:3, :3] @ M[:3, :3].T) for P, M in zip(plus, minus)]).T
        jacobians.append((Jv, Jw / (2 * step)))
    return jacobians


def mass_matrix(chain, q):
    """Joint-space inertia, including G^2 Jm on the diagonal."""
    M = np.diag([link.Jm * link.G ** 2 for link in chain.links])
    poses = chain.fkine_all(q)[1:]
    for (Jv, Jw), link, T in zip(link_jacobians(chain, q), chain.links, poses):
        inertia_world = T[:3, :3] @ link.I @ T[:3, :3].T
        M = M + link.m * Jv.T @ Jv + Jw.T @ inertia_world @ Jw
    return M


def lagrange_torques(chain, q, qd, qdd, step=1e-4):
    """M(q) qdd + C(q, qd) qd + g(q) - friction(qd), gravity as chain.gravity."""
    q, qd, qdd = (np.asarray(v, dtype=float) for v in (q, qd, qdd))
    n = chain.n
    dM = [(mass_matrix(chain, q + step * e) - mass_matrix(chain, q - step * e)) / (2 * step)
          for e in np.eye(n)]
    coriolis = np.array([sum((dM[i][k, j] - 0.5 * dM[k][i, j]) * qd[i] * qd[j]
                             for i in range(n) for j in range(n)) for k in range(n)])
    gravity = -sum(link.m * Jv.T @ chain.gravity
                   for (Jv, _), link in zip(link_jacobians(chain, q), chain.links))
    return mass_matrix(chain, q) @ qdd + coriolis + gravity - chain.friction(qd)


def numeric_jacob0(chain, q, step=STEP):
    """Geometric Jacobian of the tool point from central differences of fkine."""
    n = chain.n
    J = np.zeros((6, n))
    for j, e in enumerate(np.eye(n)):
        plus, minus = chain.fkine(q + step * e), chain.fkine(q - step * e)
        J[:3, j] = (plus[:3, 3] - minus[:3, 3]) / (2 * step)
        J[3:, j] = _vee(plus[:3, :3] @ minus[:3, :3].T) / (2 * step)
    return J
