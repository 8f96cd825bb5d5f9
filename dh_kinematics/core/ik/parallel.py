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

from dh_kinematics.core.ik.geometry import ZERO
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
    Return every DH solution for the last frame's pose ``T_0_6``, shape (k, 6), k <= 8.

    ``hint`` (DH values, shape (6,)) gives joint 6 where the pose leaves it free (axes 2 and 6
    parallel).
    """
    g = geometry
    alpha, d = g.alpha, g.d
    sa1, ca1 = math.sin(alpha[0]), math.cos(alpha[0])
    sa4, ca4 = math.sin(alpha[3]), math.cos(alpha[3])
    sa5, ca5 = math.sin(alpha[4]), math.cos(alpha[4])
    p5 = g.origin_before(5, T_0_6)
    # Joint 1: frame 5's origin lies at d2 + d3 + d4 + cos(alpha4) d5 along axis 2 from
    # frame 1's origin, whatever joints 2 to 5 do.
    depth = d[1] + d[2] + d[3] + ca4 * d[4]
    rho, phi = math.hypot(p5[0], p5[1]), math.atan2(p5[1], p5[0])
    if rho < ZERO:
        return np.zeros((0, 6))  # frame 5 on axis 1: joint 1 is free
    ratio = (depth - ca1 * (p5[2] - d[0])) / sa1 / rho  # rho sin(v1 - phi)
    if abs(ratio) > 1.0 + 1e-9:
        return np.zeros((0, 6))
    angle = math.asin(max(-1.0, min(1.0, ratio)))
    found = []
    for v1 in (phi + angle, phi + math.pi - angle):
        z1 = np.array([sa1 * math.sin(v1), -sa1 * math.cos(v1), ca1])  # axis 2 in frame 0
        z5 = T_0_6[:3, :3] @ (0.0, math.sin(alpha[5]), math.cos(alpha[5]))  # axis 6
        cos5 = (ca4 * ca5 - z5 @ z1) / (sa4 * sa5)
        if abs(cos5) > 1.0 + 1e-9:
            continue
        angle5 = math.acos(max(-1.0, min(1.0, cos5)))
        for v5 in (angle5, -angle5):
            v6 = _joint6(g, T_0_6, z1, v5, hint[5])
            T_1_4 = (np.linalg.inv(g.link_transform(0, v1)) @ T_0_6
                     @ np.linalg.inv(g.link_transform(5, v6))
                     @ np.linalg.inv(g.link_transform(4, v5)))
            for v2, v3, v4 in _planar(g, T_1_4):
                found.append((v1, v2, v3, v4, v5, v6))
    return np.array(found).reshape(-1, 6)


def _joint6(g, T_0_6, z1, v5, hint6):
    """Return joint 6 from axis 2's direction seen in frame 6, or ``hint6`` where it is free."""
    sa4, ca4 = math.sin(g.alpha[3]), math.cos(g.alpha[3])
    sa5, ca5 = math.sin(g.alpha[4]), math.cos(g.alpha[4])
    c5, s5 = math.cos(v5), math.sin(v5)
    # Axis 2 in frame 5, and (turned by joint 6) in frame 6 less alpha6.
    u = (s5 * sa4, ca5 * c5 * sa4 + sa5 * ca4)
    v = rot_x(g.alpha[5]) @ (T_0_6[:3, :3].T @ z1)
    if math.hypot(*u) < 1e-12 or math.hypot(v[0], v[1]) < 1e-12:
        return hint6
    return math.atan2(u[1], u[0]) - math.atan2(v[1], v[0])


def _planar(g, T_1_4):
    """Yield (v2, v3, v4): the planar 3R arm of the parallel joints, elbow up and down."""
    a2, a3 = g.a[1], g.a[2]
    x, y, _ = g.origin_before(3, T_1_4)  # frame 3's origin in frame 1
    cos3 = (x * x + y * y - a2 * a2 - a3 * a3) / (2.0 * a2 * a3)
    if abs(cos3) > 1.0 + 1e-9:
        return
    angle3 = math.acos(max(-1.0, min(1.0, cos3)))
    total = math.atan2(T_1_4[1, 0], T_1_4[0, 0])  # v2 + v3 + v4
    for v3 in (angle3, -angle3):
        v2 = math.atan2(y, x) - math.atan2(a3 * math.sin(v3), a2 + a3 * math.cos(v3))
        yield v2, v3, total - v2 - v3
