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
3 and 4 are a planar 3R arm (elbow up or down). Up to 8 solutions, in closed form, written
once for the floats of one pose (:func:`candidates`) and compiled for the arm.
"""

import math

from dh_kinematics.core.ik import compiled
from dh_kinematics.core.ik.geometry import apply_rows, checks, ZERO
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


def solutions(geometry, T, start):
    """
    Return every candidate solution of poses ``T_world_tool`` (m, 4, 4), checked: up to 8 each.

    ``start`` (joint values, (m, n)) gives the whole turns, and joint 6 where the pose leaves
    it free (axes 2 and 6 parallel). A pose's candidates are joint 1's two values, each with
    joint 5's two, each with the elbow up and down, as far as they exist, each checked
    (:func:`geometry.checks`), all compiled for the arm (:mod:`core.ik.compiled`) and run on
    every pose at once.

    Returns
    -------
    checks : array, shape (k, 8)
        Per candidate its joint values at the nearest turn within the limits (NaN where none
        is), its position and orientation errors (:func:`geometry.checks`), pose after pose.
    pose : array of int, shape (k,)
        The index of the pose each solves.

    """
    return compiled.batch(geometry, 'three parallel axes', _checked, T,
                          np.ascontiguousarray(start.T), arguments=('start',))


def solutions_one(geometry, t, start):
    """
    Return :func:`solutions` of one pose as a flat list, 8 values per candidate.

    ``t`` is the pose's top rows (12 floats), ``start`` q0 (a list).
    """
    return compiled.one(geometry, 'three parallel axes', _checked, ('start',))(t, start)


def _checked(g, t, start, f):
    hint = g.dh_value(5, start[5])  # joint 6 where the pose leaves it free
    return checks(g, t, candidates(g, t, hint, f), start, f)


def candidates(g, t, hint, f):
    """
    Return the 8 candidate solutions of one pose (each 6 DH values; NaN where none).

    ``t`` is ``T_0_6``'s top rows (12 values, row-major), ``hint`` joint 6's DH value where the
    pose leaves it free; ``f`` holds the functions (:data:`geometry.FLOATS`). Written for
    floats, and run once on symbols to compile it (:mod:`core.ik.compiled`).
    """
    d, a = g.d, g.a
    (ca1, sa1), (ca4, sa4), (ca5, sa5), (ca6, sa6) = (g.twist(i) for i in (0, 3, 4, 5))
    x5, y5, z5 = g.origin_of(5, t)
    # Joint 1: frame 5's origin lies at d2 + d3 + d4 + cos(alpha4) d5 along axis 2 from
    # frame 1's origin, whatever joints 2 to 5 do. Frame 5 on axis 1 leaves joint 1 free.
    depth = d[1] + d[2] + d[3] + ca4 * d[4]
    rho, phi = f.hypot(x5, y5), f.atan2(y5, x5)
    angle = f.asin((depth - ca1 * (z5 - d[0])) / sa1 / f.positive(rho, ZERO))
    axis6 = apply_rows(t, (0.0, sa6, ca6), False)  # axis 6 in frame 0
    found = []
    for v1 in (phi + angle, phi + math.pi - angle):
        z1 = (sa1 * f.sin(v1), -sa1 * f.cos(v1), ca1)  # axis 2 in frame 0
        angle5 = f.acos((ca4 * ca5 - sum(p * q for p, q in zip(axis6, z1))) / (sa4 * sa5))
        # Axis 2 seen in frame 6, less alpha6: R^T z1, then Rx(alpha6).
        r = [t[k] * z1[0] + t[4 + k] * z1[1] + t[8 + k] * z1[2] for k in range(3)]
        w0, w1 = r[0], ca6 * r[1] - sa6 * r[2]
        for v5 in (angle5, -angle5):
            v6 = _joint6(g, w0, w1, v5, hint, f)
            # Frame 3's origin and x4 in frame 1, from frame 4 through frames 5, 6, 0.
            (ca, sa), x4 = g.twist(3), (1.0, 0.0, 0.0)
            origin = (-a[3], -sa * d[3], -ca * d[3])
            for i, value in ((4, v5), (5, v6)):
                origin = g.to_link(i, value, origin, True, f)
                x4 = g.to_link(i, value, x4, False, f)
            origin = g.to_link(0, v1, apply_rows(t, origin), True, f)
            x4 = g.to_link(0, v1, apply_rows(t, x4, False), False, f)
            for v2, v3, v4 in _planar(g, origin, x4, f):
                found.append((v1, v2, v3, v4, v5, v6))
    return found


def _joint6(g, w0, w1, v5, hint, f):
    """Return joint 6 from axis 2's direction seen in frame 6, or ``hint`` where it is free."""
    (ca4, sa4), (ca5, sa5) = g.twist(3), g.twist(4)
    # Axis 2 in frame 5, and (turned by joint 6) in frame 6 less alpha6.
    u0, u1 = f.sin(v5) * sa4, ca5 * f.cos(v5) * sa4 + sa5 * ca4
    free = (f.hypot(u0, u1) < 1e-12) | (f.hypot(w0, w1) < 1e-12)
    return f.select(free, hint, f.atan2(u1, u0) - f.atan2(w1, w0))


def _planar(g, origin, x4, f):
    """Return the planar 3R arm of the parallel joints, elbow up and down: 2 (v2, v3, v4)."""
    a2, a3 = g.a[1], g.a[2]
    x, y = origin[0], origin[1]
    angle3 = f.acos((x * x + y * y - a2 * a2 - a3 * a3) / (2.0 * a2 * a3))
    total = f.atan2(x4[1], x4[0])  # v2 + v3 + v4
    found = []
    for v3 in (angle3, -angle3):
        v2 = f.atan2(y, x) - f.atan2(a3 * f.sin(v3), a2 + a3 * f.cos(v3))
        found.append((v2, v3, total - v2 - v3))
    return found
