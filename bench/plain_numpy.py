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
The plain vectorised numpy code that the core's batch path is measured against.

What anyone would write in a few lines: for each link, its transform ``A_i`` for the whole
batch as an array of shape (m, 4, 4), then ``T = T @ A_i``; the Jacobian from those frames with
``np.cross``; Newton-Euler with (m, 3) vectors and (m, 3, 3) rotations. Standard DH, revolute
joints (the Puma 560 of ``make bench``). The benchmark checks that it gives the core's numbers.
Units are SI: rad, m, N m.
"""

import numpy as np


def link_transform(link, q):
    """Return a standard DH link's ``A`` for joint angles ``q`` (rad, shape (m,)): (m, 4, 4)."""
    theta = q + link.offset
    ct, st = np.cos(theta), np.sin(theta)
    ca, sa = np.cos(link.alpha), np.sin(link.alpha)
    A = np.zeros((len(q), 4, 4))
    A[:, 0, 0], A[:, 0, 1], A[:, 0, 2], A[:, 0, 3] = ct, -st * ca, st * sa, link.a * ct
    A[:, 1, 0], A[:, 1, 1], A[:, 1, 2], A[:, 1, 3] = st, ct * ca, -ct * sa, link.a * st
    A[:, 2, 1], A[:, 2, 2], A[:, 2, 3] = sa, ca, link.d
    A[:, 3, 3] = 1.0
    return A


def link_transforms(chain, Q):
    """Return every link's ``A_i`` for joint angles ``Q`` (shape (m, n)): (m, n, 4, 4)."""
    return np.stack([link_transform(link, Q[:, j]) for j, link in enumerate(chain.links)], 1)


def frames(chain, Q):
    """Return the list [base, base A1, ..., base A1...An] of (m, 4, 4) arrays."""
    T = [np.broadcast_to(chain.base, (len(Q), 4, 4))]
    for j, link in enumerate(chain.links):
        T.append(T[-1] @ link_transform(link, Q[:, j]))
    return T


def fkine_all(chain, Q):
    """Return the poses of frames 0 to n: (m, n+1, 4, 4)."""
    return np.stack(frames(chain, Q), axis=1)


def fkine(chain, Q):
    """Return the tool poses: (m, 4, 4)."""
    T = np.broadcast_to(chain.base, (len(Q), 4, 4))
    for j, link in enumerate(chain.links):
        T = T @ link_transform(link, Q[:, j])
    return T @ chain.tool


def jacob0(chain, Q):
    """Return the geometric Jacobians [v; w] in the world frame: (m, 6, n)."""
    T = frames(chain, Q)
    tool = T[-1] @ chain.tool
    columns = []
    for j in range(chain.n):
        z, p = T[j][:, :3, 2], T[j][:, :3, 3]
        columns.append(np.concatenate([np.cross(z, tool[:, :3, 3] - p), z], axis=1))
    return np.stack(columns, axis=2)


def rne(chain, Q, QD, QDD):
    """Return the joint torques of :meth:`Chain.rne`, with motors and friction: (m, n)."""
    m, n = Q.shape
    z = np.array([0.0, 0.0, 1.0])
    w, wd = np.zeros((m, 3)), np.zeros((m, 3))
    vd = np.broadcast_to(-chain.base[:3, :3].T @ chain.gravity, (m, 3))
    R, pstar, F, N = [], [], [], []
    for j, link in enumerate(chain.links):
        Rj = link_transform(link, Q[:, j])[:, :3, :3]
        Rt = Rj.transpose(0, 2, 1)
        p = np.array([link.a, link.d * np.sin(link.alpha), link.d * np.cos(link.alpha)])
        rate, accel = z * QD[:, j:j + 1], z * QDD[:, j:j + 1]
        wd = np.einsum('mij,mj->mi', Rt, wd + accel + np.cross(w, rate))
        w = np.einsum('mij,mj->mi', Rt, w + rate)
        vd = np.cross(wd, p) + np.cross(w, np.cross(w, p)) + np.einsum('mij,mj->mi', Rt, vd)
        vc = np.cross(wd, link.r) + np.cross(w, np.cross(w, link.r)) + vd
        F.append(link.m * vc)
        N.append(wd @ link.I.T + np.cross(w, w @ link.I.T))
        R.append(Rj)
        pstar.append(p)
    f, nn = np.zeros((m, 3)), np.zeros((m, 3))
    tau = np.empty((m, n))
    for j in range(n - 1, -1, -1):
        link = chain.links[j]
        if j < n - 1:
            Rt_next = R[j + 1].transpose(0, 2, 1)
            nn = np.einsum('mij,mj->mi', R[j + 1],
                           nn + np.cross(np.einsum('mij,j->mi', Rt_next, pstar[j]), f))
            f = np.einsum('mij,mj->mi', R[j + 1], f)
        nn = nn + np.cross(pstar[j] + link.r, F[j]) + N[j]
        f = f + F[j]
        tau[:, j] = nn[:, 1] * np.sin(link.alpha) + nn[:, 2] * np.cos(link.alpha)
    G = np.array([link.G for link in chain.links])
    Jm = np.array([link.Jm for link in chain.links])
    return tau + G ** 2 * Jm * QDD - chain.friction(QD)
