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
Closed-form inverse kinematics of a 6R arm with three parallel middle axes (Universal Robots).

In standard DH: axes 2, 3 and 4 parallel (``alpha_2 = alpha_3 = 0``), ``a_5 = 0``, and axes 1
and 2, 4 and 5, 5 and 6 not parallel. The UR3 to UR30 are of this kind, and so is any arm
with the same structure whatever its lengths. Every point the parallel joints move stays in
one plane normal to their axes, which fixes joint 1 (two ways) from the origin of frame 5, and
the angle between axis 2 and axis 6 fixes joint 5 (two ways); joint 6 follows, and joints 2,
3 and 4 are a planar 3R arm (elbow up or down). Up to 8 solutions, in closed form.
"""

import math

from dh_kinematics.core.ik.geometry import apply, ZERO
from dh_kinematics.core.rotations import rot_x
import numpy as np


def reason(geometry):
    """
    Return why this closed form does not apply to ``geometry``, or None when it does.

    ``geometry`` has 6 joints and no Hayati beta (:mod:`core.ik.ikine` sees to it).
    """
    g = geometry
    if g.prismatic.any():
        return 'a joint is prismatic'
    if max(abs(g.alpha[1]), abs(g.alpha[2])) > ZERO:
        return 'axes 2, 3 and 4 are not parallel'
    if abs(g.a[4]) > ZERO:
        return f'a5 = {g.a[4]:g} m in standard DH, not 0'
    if min(abs(math.sin(g.alpha[i])) for i in (0, 3, 4)) < ZERO:
        return 'axes 1 and 2, 4 and 5, or 5 and 6 are parallel'
    if min(abs(g.a[1]), abs(g.a[2])) < ZERO:
        return 'a2 or a3 is 0'
    return None


def solutions(geometry, T_0_6, hint):
    """
    Return every DH solution for last-frame poses ``T_0_6`` (m, 4, 4), up to 8 per pose.

    ``hint`` (DH values, shape (m, 6)) gives joint 6 where the pose leaves it free (axes 2 and
    6 parallel). A pose's solutions are joint 1's two values, each with joint 5's two, each
    with the elbow up and down, as far as they exist.

    Returns
    -------
    values : array, shape (k, 6)
        The solutions of every pose, pose after pose.
    pose : array of int, shape (k,)
        The index of the pose each solves.

    """
    g = geometry
    alpha, d = g.alpha, g.d
    sa1, ca1 = math.sin(alpha[0]), math.cos(alpha[0])
    sa4, ca4 = math.sin(alpha[3]), math.cos(alpha[3])
    sa5, ca5 = math.sin(alpha[4]), math.cos(alpha[4])
    p5 = g.origin_before(5, T_0_6)
    # Joint 1: frame 5's origin lies at d2 + d3 + d4 + cos(alpha4) d5 along axis 2 from
    # frame 1's origin, whatever joints 2 to 5 do. Frame 5 on axis 1 leaves joint 1 free.
    depth = d[1] + d[2] + d[3] + ca4 * d[4]
    rho, phi = np.hypot(p5[:, 0], p5[:, 1]), np.arctan2(p5[:, 1], p5[:, 0])
    ratio = (depth - ca1 * (p5[:, 2] - d[0])) / sa1 / np.where(rho < ZERO, np.nan, rho)
    angle = _arcsin(ratio)
    v1 = np.stack([phi + angle, phi + math.pi - angle], axis=-1)  # (m, 2)
    z1 = np.stack([sa1 * np.sin(v1), -sa1 * np.cos(v1), np.full(v1.shape, ca1)], axis=-1)
    z5 = T_0_6[:, :3, :3] @ (0.0, math.sin(alpha[5]), math.cos(alpha[5]))  # axis 6
    cos5 = (ca4 * ca5 - np.einsum('mi,mji->mj', z5, z1)) / (sa4 * sa5)
    angle5 = _arccos(cos5)
    v5 = np.stack([angle5, -angle5], axis=-1)  # (m, 2, 2)
    v1 = np.broadcast_to(v1[:, :, None], v5.shape)
    v6 = _joint6(g, T_0_6, z1, v5, hint[:, 5])
    # Frame 3's origin and x4 in frame 1, from frame 4 through frames 5, 6, 0.
    origin = (-g.a[3], -math.sin(alpha[3]) * d[3], -math.cos(alpha[3]) * d[3])
    x4 = (np.ones(v5.shape), 0.0, 0.0)
    for i, value in ((4, v5), (5, v6)):
        origin, x4 = g.to_link(i, value, origin), g.to_link(i, value, x4, False)
    origin, x4 = g.to_link(0, v1, apply(T_0_6, origin)), g.to_link(0, v1, apply(
        T_0_6, x4, False), False)
    v2, v3, v4 = _planar(g, origin, x4)  # (m, 2, 2, 2)
    shape = v2.shape
    values = np.stack([np.broadcast_to(v1[..., None], shape), v2, v3, v4,
                       np.broadcast_to(v5[..., None], shape),
                       np.broadcast_to(v6[..., None], shape)], axis=-1)
    values = values.reshape(-1, 6)
    real = ~np.isnan(values).any(axis=-1)
    return values[real], np.repeat(np.arange(len(T_0_6)), 8)[real]


def _arcsin(ratio):
    """Return arcsin of ``ratio``, clipped within 1e-9 of +-1, NaN beyond (no solution)."""
    return np.arcsin(np.clip(np.where(np.abs(ratio) > 1.0 + 1e-9, np.nan, ratio), -1.0, 1.0))


def _arccos(ratio):
    """Return arccos of ``ratio``, clipped within 1e-9 of +-1, NaN beyond (no solution)."""
    return np.arccos(np.clip(np.where(np.abs(ratio) > 1.0 + 1e-9, np.nan, ratio), -1.0, 1.0))


def _joint6(g, T_0_6, z1, v5, hint6):
    """Return joint 6 from axis 2's direction seen in frame 6, or ``hint6`` where it is free."""
    sa4, ca4 = math.sin(g.alpha[3]), math.cos(g.alpha[3])
    sa5, ca5 = math.sin(g.alpha[4]), math.cos(g.alpha[4])
    # Axis 2 in frame 5, and (turned by joint 6) in frame 6 less alpha6; shape (m, 2, 2).
    u0, u1 = np.sin(v5) * sa4, ca5 * np.cos(v5) * sa4 + sa5 * ca4
    v = (rot_x(g.alpha[5]) @ np.swapaxes(T_0_6[:, :3, :3], 1, 2))[:, None] @ z1[..., None]
    v0, v1 = v[..., 0, 0, None], v[..., 1, 0, None]  # (m, 2, 1)
    free = (np.hypot(u0, u1) < 1e-12) | (np.hypot(v0, v1) < 1e-12)
    return np.where(free, hint6[:, None, None], np.arctan2(u1, u0) - np.arctan2(v1, v0))


def _planar(g, origin, x4):
    """
    Return (v2, v3, v4): the planar 3R arm of the parallel joints, elbow up and down.

    ``origin`` is frame 3's origin in frame 1 and ``x4`` the x axis of frame 4 there.
    """
    a2, a3 = g.a[1], g.a[2]
    x, y = origin[0][..., None], origin[1][..., None]
    angle3 = _arccos((x * x + y * y - a2 * a2 - a3 * a3) / (2.0 * a2 * a3))
    v3 = np.concatenate([angle3, -angle3], axis=-1)
    total = np.arctan2(x4[1], x4[0])[..., None]  # v2 + v3 + v4
    v2 = np.arctan2(y, x) - np.arctan2(a3 * np.sin(v3), a2 + a3 * np.cos(v3))
    return v2, v3, total - v2 - v3
