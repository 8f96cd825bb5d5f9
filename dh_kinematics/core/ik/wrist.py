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
    Return every DH solution for last-frame poses ``T_0_6`` (m, 4, 4), up to 8 per pose.

    ``hint`` (DH values, shape (m, 6)) decides what the pose leaves free: joint 4 when joints 4
    and 6 line up (the wrist singularity). Solutions are exact to the precision of the
    polynomial roots; :mod:`core.ik.closed_form` polishes and checks them.

    Returns
    -------
    values : array, shape (k, 6)
        The solutions of every pose, pose after pose.
    pose : array of int, shape (k,)
        The index of the pose each solves.

    """
    g = geometry
    wrist = g.origin_before(5, T_0_6)  # (m, 3)
    v1, v2, v3 = _positions(g, wrist)  # (m, k3, j2)
    pose = np.nonzero(~np.isnan(v1))
    v1, v2, v3, pose = v1[pose], v2[pose], v3[pose], pose[0]
    # A root that is not one (t = inf, or a complex pair taken as real) misses the centre.
    reached = g.from_link(0, v1, g.from_link(1, v2, g.from_link(2, v3, (0.0, 0.0, g.d[3]))))
    miss = np.abs(np.stack(reached, axis=-1) - wrist[pose]).max(axis=-1)
    hit = miss <= 1e-6 * (1.0 + np.abs(wrist[pose]).max(axis=-1))
    v1, v2, v3, pose = v1[hit], v2[hit], v3[hit], pose[hit]
    # Axis 6 (less alpha6) and x6 in frame 3: the wrist's rotation, as far as it needs it.
    R = T_0_6[pose, :3, :3]
    axis, x = tuple((R @ (0.0, math.sin(g.alpha[5]), math.cos(g.alpha[5]))).T), tuple(
        R[:, :, 0].T)
    for i, value in enumerate((v1, v2, v3)):
        axis, x = g.to_link(i, value, axis, False), g.to_link(i, value, x, False)
    v4, v5, v6 = _wrist(g, axis, x, hint[pose, 3])  # (k, 2)
    values = np.stack([np.repeat(v[:, None], 2, axis=1) for v in (v1, v2, v3)]
                      + [v4, v5, v6], axis=-1).reshape(-1, 6)
    pose = np.repeat(pose, 2)
    real = ~np.isnan(values).any(axis=-1)
    return values[real], pose[real]


def _positions(g, p):
    """Return (v1, v2, v3) that put the wrist centre at ``p`` (frame 0, (m, 3)): (m, k, j)."""
    x, y, z = p[:, 0], p[:, 1], p[:, 2] - g.d[0]
    r = x * x + y * y + z * z
    a1, s1, c1 = g.a[0], math.sin(g.alpha[0]), math.cos(g.alpha[0])
    v3 = _joint3_roots(g, r, z)  # (m, k)
    e0, e1, e2 = _elbow(g, v3)
    k3 = a1 * a1 + g.d[1] ** 2 + e0 * e0 + e1 * e1 + e2 * e2 + 2.0 * g.d[1] * e2
    k4 = c1 * (e2 + g.d[1])
    rho = np.hypot(e0, e1)
    rho = np.where(rho < ZERO, np.nan, rho)  # the wrist centre on axis 2: joint 2 is free
    phi = np.arctan2(e1, e0)
    z, r = z[:, None], r[:, None]
    if abs(a1) < ZERO:  # only the height fixes joint 2: rho sin(v2 + phi) = B
        angle = _arcsin((z - k4) / s1 / rho)
        v2 = np.stack([angle - phi, math.pi - angle - phi], axis=-1)
    elif abs(s1) < ZERO:  # only the distance: rho cos(v2 + phi) = A
        angle = _arccos((r - k3) / (2.0 * a1) / rho)
        v2 = np.stack([angle - phi, -angle - phi], axis=-1)
    else:
        A, B = (r - k3) / (2.0 * a1), (z - k4) / s1
        v2 = np.arctan2(B * e0 - A * e1, A * e0 + B * e1)[..., None] + 0.0 * rho[..., None]
    e0, e1, e2 = e0[..., None], e1[..., None], e2[..., None]
    # h: the wrist centre in frame 0 turned back by joint 1, less d1.
    c2, s2 = np.cos(v2), np.sin(v2)
    h0 = a1 + c2 * e0 - s2 * e1
    h1 = c1 * (s2 * e0 + c2 * e1) - s1 * (e2 + g.d[1])
    v1 = np.arctan2(y, x)[:, None, None] - np.arctan2(h1, h0)
    return v1, v2, np.broadcast_to(v3[..., None], v2.shape)


def _elbow(g, v3):
    """
    Return e: the wrist centre in frame 1, before joint 2 turns it and less d2, 3 of (m, k).

    That is ``[a2, 0, 0] + Rx(alpha2) f``, f being the wrist centre in frame 2.
    """
    theta, d = (g.theta[2], v3) if g.prismatic[2] else (v3, g.d[2])
    c, s = np.cos(theta), np.sin(theta)
    m1, m2 = g.a[2], -math.sin(g.alpha[2]) * g.d[3]
    f0, f1, f2 = c * m1 - s * m2, s * m1 + c * m2, d + math.cos(g.alpha[2]) * g.d[3]
    ca2, sa2 = math.cos(g.alpha[1]), math.sin(g.alpha[1])
    return g.a[1] + f0, ca2 * f1 - sa2 * f2, sa2 * f1 + ca2 * f2


def _joint3_roots(g, r, z):
    """
    Return joint 3's candidate values (rad or m), shape (m, k): its polynomial's real roots.

    NaN where a target has fewer; a revolute joint's last column is t = inf, theta3 = pi.
    """
    basis = g.constant('wrist basis', lambda: _basis(g)[0])
    weights = np.stack([r * r, r, z * z, z, np.ones_like(r)], axis=-1)
    equation = weights @ basis  # (m, degree + 1), lowest degree first
    size = np.abs(equation)
    kept = size > 1e-12 * size.max(axis=-1, keepdims=True)  # coefficients at rounding: zeros
    degree = np.where(kept.any(axis=-1), basis.shape[1] - 1 - np.argmax(kept[:, ::-1], axis=-1),
                      0)
    roots = np.full((len(r), basis.shape[1] - 1), np.nan)
    for order in np.unique(degree):
        rows = np.nonzero(degree == order)[0]
        if order < 1:
            continue
        # The companion matrix's eigenvalues are the roots, as np.roots finds them.
        leading = equation[rows, order]
        companion = np.zeros((len(rows), order, order))
        companion[:, 0, :] = -equation[rows, order - 1::-1] / leading[:, None]
        companion[:, np.arange(1, order), np.arange(order - 1)] = 1.0
        found = np.linalg.eigvals(companion)
        real = np.abs(found.imag) <= 1e-6 * (1.0 + np.abs(found))
        roots[rows, :order] = np.where(real, found.real, np.nan)
    if g.prismatic[2]:
        return roots
    ends = np.where(degree >= 1, math.pi, np.nan)[:, None]  # no equation: no candidate
    return np.concatenate([2.0 * np.arctan(roots), ends], axis=-1)


def _basis(g):
    """
    Return joint 3's equation as polynomials in its t, weighted by [r^2, r, z^2, z, 1].

    ``r`` is the wrist centre's squared distance from frame 0's origin less d1 along z, ``z``
    its height above it (m^2, m); the equation, ``weights @ basis``, has the roots that put
    the wrist centre there. A revolute joint's cosine and sine are written ``(1 - t^2) w`` and
    ``2t w`` with ``w = 1 / (1 + t^2)``; every quantity below is a polynomial in t times a power
    of w, the power tracked by multiplying through by ``one = 1 + t^2``. For a prismatic
    joint t is ``d_3`` and ``one`` is 1.

    Returns
    -------
    basis : array, shape (5, degree + 1)
        Coefficients, lowest degree first.
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
    none = np.zeros(1)
    if abs(a1) < ZERO:  # r one2 - k3
        rows, power = [none, one2, none, none, -k3], 2
    elif abs(s1) < ZERO:  # z one - k4
        rows, power = [none, none, none, one, -k4], 1
    else:  # s1^2 A^2 + 4 a1^2 (B^2 - s1^2 plane) one2, A = r one2 - k3, B = z one - k4
        rows, power = [s1 * s1 * _mul(one2, one2), -2.0 * s1 * s1 * _mul(one2, k3),
                       4.0 * a1 * a1 * _mul(one2, one2), -8.0 * a1 * a1 * _mul(one2, _mul(
                           one, k4)), _add(s1 * s1 * _mul(k3, k3), 4.0 * a1 * a1 * _mul(
                               _add(_mul(k4, k4), -s1 * s1 * plane), one2))], 4
    size = max(len(row) for row in rows)
    return np.array([np.pad(row, (0, size - len(row))) for row in rows]), one, power


def _arcsin(ratio):
    """Return arcsin of ``ratio``, clipped within 1e-9 of +-1, NaN beyond (no solution)."""
    return np.arcsin(np.clip(np.where(np.abs(ratio) > 1.0 + 1e-9, np.nan, ratio), -1.0, 1.0))


def _arccos(ratio):
    """Return arccos of ``ratio``, clipped within 1e-9 of +-1, NaN beyond (no solution)."""
    return np.arccos(np.clip(np.where(np.abs(ratio) > 1.0 + 1e-9, np.nan, ratio), -1.0, 1.0))


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
    basis, one, power = _basis(g)
    equation = np.array([0.49, 0.7, 0.09, 0.3, 1.0]) @ basis  # r = 0.7, z = 0.3
    t = np.array([-2.0, -0.3, 0.4, 1.7])
    values = np.polyval(equation[::-1], t) / np.polyval(one[::-1], t) ** power
    size = np.abs(equation).max()
    return size == 0.0 or np.ptp(values) <= 1e-12 * size


def _wrist(g, m, x, hint4):
    """
    Return (v4, v5, v6) for the wrist's rotation ``R_3_6``, each (k, 2).

    ``m`` is ``R_3_6 Rx(alpha6)^T`` 's last column and ``x`` its first (three arrays of shape
    (k,) each): ``R_3_6 Rx(alpha6)^T = Rz(v4) Rx(alpha4) Rz(v5) Rx(alpha5) Rz(v6)``. The wrist
    two ways round; at the singularity (axes 4 and 6 in line: only v4 + v6, or v4 - v6, is
    fixed) joint 4 is ``hint4`` (shape (k,)) and the second way is NaN.
    """
    m0, m1, m2 = m
    sa4, ca4 = math.sin(g.alpha[3]), math.cos(g.alpha[3])
    ca5, sa5 = math.cos(g.alpha[4]), math.sin(g.alpha[4])
    rho, phi = np.hypot(m0, m1), np.arctan2(m1, m0)
    singular = rho < 1e-12
    angle = _arcsin((ca5 - ca4 * m2) / sa4 / np.where(singular, 1.0, rho))
    v4 = np.stack([np.where(singular, hint4, phi + angle),
                   np.where(singular, np.nan, phi + math.pi - angle)], axis=-1)
    c4, s4 = np.cos(v4), np.sin(v4)
    m0, m1, m2 = m0[:, None], m1[:, None], m2[:, None]
    # Rz(v4)^T m = Rx(alpha4) Rz(v5) [0, -sin alpha5, cos alpha5]
    w0, w1 = c4 * m0 + s4 * m1, -s4 * m0 + c4 * m1
    sign = math.copysign(1.0, sa5)
    v5 = np.arctan2(w0 * sign, -(ca4 * w1 + sa4 * m2) * sign)
    # Rz(v6) = P^T M, P = Rz(v4) Rx(alpha4) Rz(v5) Rx(alpha5): v6 from P's first two columns
    # against M's first, x, all turned back by joint 4 (u = Rz(v4)^T x).
    x0, x1, x2 = x[0][:, None], x[1][:, None], x[2][:, None]
    u0, u1 = c4 * x0 + s4 * x1, -s4 * x0 + c4 * x1
    c5, s5 = np.cos(v5), np.sin(v5)
    cosine = c5 * u0 + ca4 * s5 * u1 + sa4 * s5 * x2
    sine = (-s5 * ca5 * u0 + (ca4 * c5 * ca5 - sa4 * sa5) * u1
            + (sa4 * c5 * ca5 + ca4 * sa5) * x2)
    return v4, v5, np.arctan2(sine, cosine)
