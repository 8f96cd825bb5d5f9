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
Closed-form inverse kinematics of a 6-joint arm with a spherical wrist (Pieper's method).

The last three axes, all revolute, meet in one point, the wrist centre: in standard DH,
``a_4 = a_5 = d_5 = 0``. The wrist centre then depends on joints 1 to 3 only (joints 1 and 2
revolute, joint 3 revolute or prismatic), and the tool pose gives it. Two functions of the
wrist centre do not depend on joint 1: its height along axis 1 and its squared distance from
frame 0's origin. Eliminating joint 2 between them leaves one polynomial in joint 3's value
(``tan(theta_3 / 2)``, or ``d_3``) of degree at most 8 with at most 4 real roots; each root gives
joint 2, then joint 1. The wrist's three angles then follow from the orientation, two ways
round. So up to 8 solutions, all of them, in closed form (polynomial roots); the arms of the
textbooks (Puma 560, Stanford arm) and most 6-axis industrial arms are of this kind.
"""

import math

from dh_kinematics.core.ik.geometry import ZERO
from dh_kinematics.core.rotations import rot_x, rot_z
import numpy as np


def reason(geometry):
    """
    Return why this closed form does not apply to ``geometry``, or None when it does.

    ``geometry`` has 6 joints and no Hayati beta (:mod:`core.ik.ikine` sees to it).
    """
    g = geometry
    if g.prismatic[0] or g.prismatic[1] or g.prismatic[3:].any():
        return 'joints 1, 2 and 4 to 6 are not all revolute'
    if max(abs(g.a[3]), abs(g.a[4]), abs(g.d[4])) > ZERO:
        return (f'the last three axes do not meet in one point (a4 = {g.a[3]:g}, a5 = '
                f'{g.a[4]:g}, d5 = {g.d[4]:g} m in standard DH)')
    if min(abs(math.sin(g.alpha[3])), abs(math.sin(g.alpha[4]))) < ZERO:
        return 'two of the wrist axes are parallel'
    if abs(g.a[0]) < ZERO and abs(math.sin(g.alpha[0])) < ZERO:
        return 'the first two axes are one line'
    if _constant(g):
        return 'joints 1 to 3 leave the wrist centre a family of solutions'
    return None


def solutions(geometry, T_0_6, hint):
    """
    Return every DH solution for the last frame's pose ``T_0_6``, shape (k, 6), k <= 8.

    ``hint`` (DH values, shape (6,)) decides what the pose leaves free: joint 4 when joints 4
    and 6 line up (the wrist singularity). Candidates are exact to the precision of the
    polynomial roots; :mod:`core.ik.ikine` polishes and checks them.
    """
    g = geometry
    wrist = g.origin_before(5, T_0_6)
    found = []
    reach = 1e-6 * (1.0 + np.abs(wrist).max())
    for v1, v2, v3 in _positions(g, wrist):
        T_0_3 = g.link_transform(0, v1) @ g.link_transform(1, v2) @ g.link_transform(2, v3)
        if np.abs(T_0_3[:3, 2] * g.d[3] + T_0_3[:3, 3] - wrist).max() > reach:
            continue  # a root that is not one (t = inf, or a complex pair taken as real)
        for v4, v5, v6 in _wrist(g, T_0_3[:3, :3].T @ T_0_6[:3, :3], hint[3]):
            found.append((v1, v2, v3, v4, v5, v6))
    return np.array(found).reshape(-1, 6)


def _positions(g, p):
    """Yield (v1, v2, v3) that put the wrist centre at ``p`` (frame 0)."""
    x, y, z = p[0], p[1], p[2] - g.d[0]
    r = x * x + y * y + z * z
    a1, s1, c1 = g.a[0], math.sin(g.alpha[0]), math.cos(g.alpha[0])
    for v3 in _joint3_roots(g, r, z):
        e = _elbow(g, v3)
        k3 = a1 * a1 + g.d[1] ** 2 + e @ e + 2.0 * g.d[1] * e[2]
        k4 = c1 * (e[2] + g.d[1])
        rho = math.hypot(e[0], e[1])
        if rho < ZERO:
            continue  # the wrist centre on axis 2: joint 2 is free (not a finite set)
        phi = math.atan2(e[1], e[0])
        if abs(a1) < ZERO:  # only the height fixes joint 2: rho sin(v2 + phi) = B
            ratio = (z - k4) / s1 / rho
            if abs(ratio) > 1.0 + 1e-9:
                continue
            angle = math.asin(max(-1.0, min(1.0, ratio)))
            joint2 = (angle - phi, math.pi - angle - phi)
        elif abs(s1) < ZERO:  # only the distance: rho cos(v2 + phi) = A
            ratio = (r - k3) / (2.0 * a1) / rho
            if abs(ratio) > 1.0 + 1e-9:
                continue
            angle = math.acos(max(-1.0, min(1.0, ratio)))
            joint2 = (angle - phi, -angle - phi)
        else:
            A, B = (r - k3) / (2.0 * a1), (z - k4) / s1
            joint2 = (math.atan2(B * e[0] - A * e[1], A * e[0] + B * e[1]),)
        for v2 in joint2:
            # h: the wrist centre in frame 0 turned back by joint 1, less d1.
            g1 = rot_z(v2) @ e + (0.0, 0.0, g.d[1])
            h = np.array([a1, 0.0, 0.0]) + rot_x(g.alpha[0]) @ g1
            v1 = math.atan2(y, x) - math.atan2(h[1], h[0])
            yield v1, v2, v3


def _elbow(g, v3):
    """
    Return e: the wrist centre in frame 1, before joint 2 turns it and less d2, shape (3,).

    That is ``[a2, 0, 0] + Rx(alpha2) f``, f being the wrist centre in frame 2.
    """
    theta, d = (g.theta[2], v3) if g.prismatic[2] else (v3, g.d[2])
    f = rot_z(theta) @ (g.a[2], -math.sin(g.alpha[2]) * g.d[3],
                        d + math.cos(g.alpha[2]) * g.d[3])
    return np.array([g.a[1], 0.0, 0.0]) + rot_x(g.alpha[1]) @ f


def _joint3_roots(g, r, z):
    """Return joint 3's candidate values: the real roots of its polynomial (rad or m)."""
    equation = _equation(g, r, z)[0]
    if len(equation) < 2:
        return []
    real = [root.real for root in np.roots(equation[::-1])
            if abs(root.imag) <= 1e-6 * (1.0 + abs(root))]
    if g.prismatic[2]:
        return real
    return [2.0 * math.atan(t) for t in real] + [math.pi]  # t = inf is theta3 = pi


def _equation(g, r, z):
    """
    Return the polynomial in joint 3's t whose roots put the wrist centre at (r, z).

    ``r`` is the wrist centre's squared distance from frame 0's origin less d1 along z, ``z``
    its height above it (m^2, m). A revolute joint's cosine and sine are written
    ``(1 - t^2) w`` and ``2t w`` with ``w = 1 / (1 + t^2)``; every quantity below is a
    polynomial in t times a power of w, the power tracked by multiplying through by
    ``one = 1 + t^2``. For a prismatic joint t is ``d_3`` and ``one`` is 1.

    Returns
    -------
    equation : array
        Coefficients, lowest degree first, with those at rounding level dropped.
    one : array
        Coefficients of ``one``.
    power : int
        The power of ``one`` the equation carries: its value is ``equation / one^power``.

    """
    if g.prismatic[2]:
        one, c, s = np.array([1.0]), np.array([math.cos(g.theta[2])]), np.array(
            [math.sin(g.theta[2])])
        d3 = np.array([0.0, 1.0])
    else:
        one, c, s = np.array([1.0, 0.0, 1.0]), np.array([1.0, 0.0, -1.0]), np.array([0.0, 2.0])
        d3 = g.d[2] * one
    m1, m2 = g.a[2], -math.sin(g.alpha[2]) * g.d[3]
    f = (_add(m1 * c, -m2 * s), _add(m1 * s, m2 * c),
         _add(d3, math.cos(g.alpha[2]) * g.d[3] * one))
    ca2, sa2 = math.cos(g.alpha[1]), math.sin(g.alpha[1])
    ex, ey = _add(g.a[1] * one, f[0]), _add(ca2 * f[1], -sa2 * f[2])
    ez = _add(sa2 * f[1], ca2 * f[2])
    a1, s1, c1, d2 = g.a[0], math.sin(g.alpha[0]), math.cos(g.alpha[0]), g.d[1]
    one2 = _mul(one, one)
    # Powers of w: ex, ey, ez 1; k3 and the in-plane square 2; k4 1.
    plane = _add(_mul(ex, ex), _mul(ey, ey))
    k3 = _add((a1 * a1 + d2 * d2) * one2, plane, _mul(ez, ez), 2.0 * d2 * _mul(one, ez))
    k4 = c1 * _add(ez, d2 * one)
    if abs(a1) < ZERO:
        equation, power = _add(r * one2, -k3), 2
    elif abs(s1) < ZERO:
        equation, power = _add(z * one, -k4), 1
    else:
        A, B = _add(r * one2, -k3), _add(z * one, -k4)
        equation, power = _add(s1 * s1 * _mul(A, A), 4.0 * a1 * a1 * _mul(
            _add(_mul(B, B), -s1 * s1 * plane), one2)), 4
    # Coefficients at rounding level (a degree the geometry cancels) are zeros.
    kept = np.nonzero(np.abs(equation) > 1e-12 * np.abs(equation).max())[0]
    return equation[:kept[-1] + 1] if len(kept) else equation[:0], one, power


def _add(*polynomials):
    """Sum of polynomials (coefficient arrays, lowest degree first)."""
    total = np.zeros(max(len(p) for p in polynomials))
    for p in polynomials:
        total[:len(p)] += p
    return total


def _mul(p, q):
    """Product of two polynomials (coefficient arrays, lowest degree first)."""
    return np.convolve(p, q)


def _constant(g):
    """Tell whether joint 3 does not enter the equation: joints 1 to 3 are redundant."""
    equation, one, power = _equation(g, 0.7, 0.3)
    t = np.array([-2.0, -0.3, 0.4, 1.7])
    values = np.polyval(equation[::-1], t) / np.polyval(one[::-1], t) ** power
    return len(equation) == 0 or np.ptp(values) <= 1e-12 * np.abs(equation).max()


def _wrist(g, R_3_6, hint4):
    """Yield (v4, v5, v6) for the wrist's rotation ``R_3_6``: two, or one at a singularity."""
    M = R_3_6 @ rot_x(g.alpha[5]).T  # = Rz(v4) Rx(alpha4) Rz(v5) Rx(alpha5) Rz(v6)
    m = M[:, 2]
    sa4, ca4 = math.sin(g.alpha[3]), math.cos(g.alpha[3])
    ca5, sa5 = math.cos(g.alpha[4]), math.sin(g.alpha[4])
    rho, phi = math.hypot(m[0], m[1]), math.atan2(m[1], m[0])
    if rho < 1e-12:
        joint4 = (hint4,)  # axes 4 and 6 in line: only v4 + v6 (or v4 - v6) is fixed
    else:
        ratio = (ca5 - ca4 * m[2]) / sa4 / rho  # rho sin(v4 - phi) = ratio rho
        if abs(ratio) > 1.0 + 1e-9:
            return
        angle = math.asin(max(-1.0, min(1.0, ratio)))
        joint4 = (phi + angle, phi + math.pi - angle)
    for v4 in joint4:
        v = rot_x(g.alpha[3]).T @ rot_z(v4).T @ m  # = Rz(v5) [0, -sin alpha5, cos alpha5]
        v5 = math.atan2(v[0] * math.copysign(1.0, sa5), -v[1] * math.copysign(1.0, sa5))
        R = (rot_z(v4) @ rot_x(g.alpha[3]) @ rot_z(v5) @ rot_x(g.alpha[4])).T @ M
        yield v4, v5, math.atan2(R[1, 0], R[0, 0])
