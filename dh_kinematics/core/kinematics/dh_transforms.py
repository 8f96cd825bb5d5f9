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
DH link transforms: batched in numpy, and in Python floats for one configuration.

All angles are in radians and lengths in metres. Transforms are named by their frames:
``T_parent_child`` maps coordinates in the child frame to the parent frame.
"""

import math

import numpy as np


def fixed_transforms(a, alpha, beta=None):
    """
    Return the constant part of each DH link transform, ``Tx(a) Rx(alpha) Ry(beta)``.

    Parameters
    ----------
    a, alpha : array-like, shape (n,)
        Link length (m) and twist (rad).
    beta : array-like, shape (n,), optional
        Hayati's rotation about y (rad); 0 (plain DH) by default.

    Returns
    -------
    T : array, shape (n, 4, 4)

    """
    ca, sa = np.cos(alpha), np.sin(alpha)
    T = np.zeros(np.shape(a) + (4, 4))
    T[:, 0, 0] = 1.0
    T[:, 0, 3] = a
    T[:, 1, 1] = ca
    T[:, 1, 2] = -sa
    T[:, 2, 1] = sa
    T[:, 2, 2] = ca
    T[:, 3, 3] = 1.0
    if beta is not None and np.any(beta):
        cb, sb = np.cos(beta), np.sin(beta)
        Ry = np.zeros_like(T)
        Ry[:, 0, 0], Ry[:, 0, 2], Ry[:, 1, 1] = cb, sb, 1.0
        Ry[:, 2, 0], Ry[:, 2, 2], Ry[:, 3, 3] = -sb, cb, 1.0
        T = T @ Ry
    return T


def dh_transforms(theta, d, fixed, modified):
    """
    Link transforms for arrays of DH parameters.

    Parameters
    ----------
    theta, d : array, shape (..., n)
        Joint angle (rad) and offset along z (m), with the joint values already substituted.
    fixed : array, shape (n, 4, 4)
        ``Tx(a) Rx(alpha)`` of each link, from :func:`fixed_transforms`.
    modified : bool
        False for standard DH, ``A = Rz(theta) Tz(d) Tx(a) Rx(alpha)``; True for modified DH,
        ``A = Tx(a) Rx(alpha) Rz(theta) Tz(d)``.

    Returns
    -------
    T_prev_link : array, shape (..., n, 4, 4)
        Each link's transform ``A_i`` from its own frame to the previous link's frame.

    """
    ct, st = np.cos(theta), np.sin(theta)
    joint = np.zeros(np.shape(theta) + (4, 4))
    joint[..., 0, 0] = ct
    joint[..., 0, 1] = -st
    joint[..., 1, 0] = st
    joint[..., 1, 1] = ct
    joint[..., 2, 2] = 1.0
    joint[..., 2, 3] = d
    joint[..., 3, 3] = 1.0
    return fixed @ joint if modified else joint @ fixed


def chain_poses(theta, d, a, cos_alpha, sin_alpha, T_world_base, modified, hayati=None):
    """
    Compose the poses of one configuration with Python floats (faster than numpy for one).

    Parameters
    ----------
    theta, d : sequence of float, length n
        Joint angle (rad) and offset (m) of each link, joint values substituted.
    a, cos_alpha, sin_alpha : sequence of float, length n
        Link length (m) and the cosine and sine of the twist.
    T_world_base : sequence of 3 rows of 4 floats
        Top three rows of the base pose.
    modified : bool
        True for modified DH.
    hayati : sequence of (float, float), length n, optional
        Per link the cosine and sine of Hayati's beta; None where no link has one.

    Returns
    -------
    flat : list of float, length 16 (n+1)
        [base, base A1, ..., base A1...An], each 4x4 row-major.

    """
    cos, sin = math.cos, math.sin
    return composed_poses([cos(t) for t in theta], [sin(t) for t in theta], d, a, cos_alpha,
                          sin_alpha, T_world_base, modified, hayati)


def composed_poses(cos_theta, sin_theta, d, a, cos_alpha, sin_alpha, T_world_base, modified,
                   hayati=None):
    """
    Return :func:`chain_poses` from the cosines and sines of theta.

    The arithmetic is plain ``*``, ``+`` and ``-``, so it also runs on symbols
    (:mod:`core.kinematics.batch` compiles it for batches). ``hayati`` as for chain_poses: its
    cosines and sines are numbers, never symbols.
    """
    (x0, x1, x2, x3), (y0, y1, y2, y3), (z0, z1, z2, z3) = T_world_base
    flat = [x0, x1, x2, x3, y0, y1, y2, y3, z0, z1, z2, z3, 0.0, 0.0, 0.0, 1.0]
    hayati = hayati or ((1.0, 0.0),) * len(a)
    rows = zip(cos_theta, sin_theta, d, a, cos_alpha, sin_alpha, hayati)
    for ct, st, dj, aj, ca, sa, (cb, sb) in rows:
        if not modified:
            # Rows (x, y, z) times Rz(theta) Tz(d) ...
            x0, x1, x3 = x0 * ct + x1 * st, x1 * ct - x0 * st, x2 * dj + x3
            y0, y1, y3 = y0 * ct + y1 * st, y1 * ct - y0 * st, y2 * dj + y3
            z0, z1, z3 = z0 * ct + z1 * st, z1 * ct - z0 * st, z2 * dj + z3
        # ... times Tx(a) Rx(alpha) ...
        x1, x2, x3 = x1 * ca + x2 * sa, x2 * ca - x1 * sa, x0 * aj + x3
        y1, y2, y3 = y1 * ca + y2 * sa, y2 * ca - y1 * sa, y0 * aj + y3
        z1, z2, z3 = z1 * ca + z2 * sa, z2 * ca - z1 * sa, z0 * aj + z3
        if sb:  # ... times Hayati's Ry(beta) ...
            x0, x2 = x0 * cb - x2 * sb, x0 * sb + x2 * cb
            y0, y2 = y0 * cb - y2 * sb, y0 * sb + y2 * cb
            z0, z2 = z0 * cb - z2 * sb, z0 * sb + z2 * cb
        if modified:
            # ... times Rz(theta) Tz(d) last in modified DH.
            x0, x1, x3 = x0 * ct + x1 * st, x1 * ct - x0 * st, x2 * dj + x3
            y0, y1, y3 = y0 * ct + y1 * st, y1 * ct - y0 * st, y2 * dj + y3
            z0, z1, z3 = z0 * ct + z1 * st, z1 * ct - z0 * st, z2 * dj + z3
        flat += (x0, x1, x2, x3, y0, y1, y2, y3, z0, z1, z2, z3, 0.0, 0.0, 0.0, 1.0)
    return flat


def link_poses(theta, d, twists, modified):
    """
    Each link's own transform as a translation and a unit quaternion, with Python floats.

    The rotation of a DH link is elementary rotations, so its quaternion follows from the
    half angles exactly: Rz(theta) Rx(alpha) Ry(beta) for standard DH, Rx(alpha) Ry(beta)
    Rz(theta) for modified (without Ry where beta is 0).

    Parameters
    ----------
    theta, d : sequence of float, length n
        Joint angle (rad) and offset (m) of each link, joint values substituted.
    twists : sequence of tuple, length n
        Per link :func:`twist_constants`: its length a (m) and the trigonometry of its twist.
    modified : bool
        True for modified DH.

    Returns
    -------
    flat : list of float, length 7 n
        Per link [x, y, z, qx, qy, qz, qw], translation in m, quaternion in ROS order with
        qw >= 0.

    """
    flat = []
    for t, dj, twist in zip(theta, d, twists):
        pose = link_pose(t, dj, twist, modified)
        if pose[6] < 0.0:
            pose[3:] = [-pose[3], -pose[4], -pose[5], -pose[6]]
        flat += pose
    return flat


def link_pose(theta, d, twist, modified, cos=math.cos, sin=math.sin):
    """
    Return one link's [x, y, z, qx, qy, qz, qw] as :func:`link_poses` does, before qw >= 0.

    Plain arithmetic and the given ``cos`` and ``sin``: it also runs on symbols
    (:mod:`core.kinematics.poses_unrolled`).
    """
    a, ca2, sa2, ca, sa, cb2, sb2, cb, sb = twist
    ct2, st2 = cos(0.5 * theta), sin(0.5 * theta)
    if not sb2:  # plain DH
        if modified:
            return [a, -d * sa, d * ca, ct2 * sa2, -st2 * sa2, st2 * ca2, ct2 * ca2]
        return [a * cos(theta), a * sin(theta), d, ct2 * sa2, st2 * sa2, st2 * ca2, ct2 * ca2]
    if modified:  # q = qx(alpha) qy(beta) qz(theta); t = (a, 0, 0) + Rx Ry (0, 0, d)
        x, y, z, w = sa2 * cb2, ca2 * sb2, sa2 * sb2, ca2 * cb2
        return [a + d * sb, -d * sa * cb, d * ca * cb, ct2 * x + st2 * y, ct2 * y - st2 * x,
                ct2 * z + st2 * w, ct2 * w - st2 * z]
    x, y, z, w = ct2 * sa2, st2 * sa2, st2 * ca2, ct2 * ca2  # q = qz(theta) qx(alpha) qy(beta)
    return [a * cos(theta), a * sin(theta), d, cb2 * x - sb2 * z, cb2 * y + sb2 * w,
            cb2 * z + sb2 * x, cb2 * w - sb2 * y]


def twist_constants(a, alpha, beta=0.0):
    """
    Return a link's constants for :func:`link_pose`.

    ``a``, then the cosine and sine of half ``alpha``, of ``alpha``, of half ``beta`` and of
    ``beta``.
    """
    return (a, math.cos(0.5 * alpha), math.sin(0.5 * alpha), math.cos(alpha), math.sin(alpha),
            math.cos(0.5 * beta), math.sin(0.5 * beta), math.cos(beta), math.sin(beta))
