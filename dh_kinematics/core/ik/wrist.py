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
textbooks (Puma 560, Stanford arm) and most 6-axis industrial arms are of this kind. The
polynomial's coefficients (:func:`equation`) and the joints for each root (:func:`candidates`)
are written once for the floats of one pose and compiled for the arm.
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


def solutions(geometry, T, start):
    """
    Return every candidate solution of poses ``T_world_tool`` (m, 4, 4), checked: up to 8 each.

    ``start`` (joint values, (m, n)) gives the whole turns, and joint 4 where the pose leaves
    it free (joints 4 and 6 in line: the wrist singularity). Candidates are exact to the
    precision of the polynomial roots, and checked (:func:`geometry.checks`). The wrist
    centre's polynomial (:func:`equation`) and the joints for each of its real roots
    (:func:`candidates`) are compiled for the arm (:mod:`core.ik.compiled`), on every pose at
    once; the roots come from each polynomial's companion matrix.

    Returns
    -------
    checks : array, shape (k, 8)
        Per candidate its joint values at the nearest turn within the limits (NaN where none
        is), its position and orientation errors (:func:`geometry.checks`), pose after pose.
    pose : array of int, shape (k,)
        The index of the pose each solves.

    """
    g = geometry
    roots = _joint3_roots(g, compiled.batch_values(g, 'wrist centre', equation, T))
    pose, column = np.nonzero(~np.isnan(roots))  # each real root once, pose after pose
    rows, which = compiled.batch(g, 'spherical wrist', _checked, T[pose], roots[pose, column],
                                 np.ascontiguousarray(start[pose].T),
                                 arguments=('root', 'start'))
    return rows, pose[which]


def solutions_one(geometry, t, start):
    """
    Return :func:`solutions` of one pose as a flat list, 8 values per candidate.

    ``t`` is the pose's top rows (12 floats), ``start`` q0 (a list).
    """
    g = geometry
    roots = _joint3_roots_one(g, compiled.one(g, 'wrist centre', equation)(t))
    solve = compiled.one(g, 'spherical wrist', _checked, ('root', 'start'))
    values = []
    for root in roots:
        values += solve(t, root, start)
    return values


def _checked(g, t, root, start, f):
    hint = g.dh_value(3, start[3])  # joint 4 where the pose leaves it free
    return checks(g, t, candidates(g, t, hint, root, f), start, f)


def equation(g, t, f):
    """
    Return the coefficients of joint 3's polynomial for one pose, lowest degree first.

    ``t`` is ``T_0_6``'s top rows (12 values); its wrist centre fixes ``r`` (squared distance
    from frame 0's origin less d1 along z) and ``z`` (height), which weight the polynomials
    of :func:`_basis`. Written for floats and compiled (:mod:`core.ik.compiled`).
    """
    x, y, z = g.origin_of(5, t)
    z = z - g.d[0]
    r = x * x + y * y + z * z
    basis = g.constant('wrist basis', lambda: _basis(g)[0]).tolist()
    weights = (r * r, r, z * z, z, 1.0)
    return [sum(w * row[k] for w, row in zip(weights, basis)) for k in range(len(basis[0]))]


def candidates(g, t, hint, v3, f):
    """
    Return the candidates for one root of joint 3 (its DH value ``v3``): up to 4, NaN where none.

    Joint 2 one or two ways, joint 1 from it, then the wrist two ways round; a root whose
    joints 1 to 3 miss the wrist centre (a root at infinity, a complex pair taken as real) is
    NaN. ``hint`` is joint 4's DH value where the wrist singularity leaves it free. Written
    for floats and compiled (:mod:`core.ik.compiled`).
    """
    x, y, zc = g.origin_of(5, t)
    z = zc - g.d[0]
    r = x * x + y * y + z * z
    (c1, s1), a1 = g.twist(0), g.a[0]
    e0, e1, e2 = _elbow(g, v3, f)
    k3 = a1 * a1 + g.d[1] * g.d[1] + e0 * e0 + e1 * e1 + e2 * e2 + 2.0 * g.d[1] * e2
    k4 = c1 * (e2 + g.d[1])
    rho = f.positive(f.hypot(e0, e1), ZERO)  # the wrist centre on axis 2: joint 2 is free
    phi = f.atan2(e1, e0)
    if abs(a1) < ZERO:  # only the height fixes joint 2: rho sin(v2 + phi) = B
        angle = f.asin((z - k4) / s1 / rho)
        joint2 = (angle - phi, math.pi - angle - phi)
    elif abs(s1) < ZERO:  # only the distance: rho cos(v2 + phi) = A
        angle = f.acos((r - k3) / (2.0 * a1) / rho)
        joint2 = (angle - phi, -angle - phi)
    else:
        A, B = (r - k3) / (2.0 * a1), (z - k4) / s1
        joint2 = (f.unless_nan(f.atan2(B * e0 - A * e1, A * e0 + B * e1), rho),)
    scale = 1e-6 * (1.0 + f.max(f.max(abs(x), abs(y)), abs(zc)))
    found = []
    for v2 in joint2:
        # h: the wrist centre in frame 0 turned back by joint 1, less d1.
        c2, s2 = f.cos(v2), f.sin(v2)
        h0 = a1 + c2 * e0 - s2 * e1
        h1 = c1 * (s2 * e0 + c2 * e1) - s1 * (e2 + g.d[1])
        v1 = f.atan2(y, x) - f.atan2(h1, h0)
        reached = g.from_link(0, v1, g.from_link(1, v2, g.from_link(
            2, v3, (0.0, 0.0, g.d[3]), True, f), True, f), True, f)
        miss = f.max(f.max(abs(reached[0] - x), abs(reached[1] - y)), abs(reached[2] - zc))
        v1 = f.select(miss <= scale, v1, math.nan)
        # Axis 6 (less alpha6) and x6 in frame 3: the wrist's rotation, as far as it needs.
        ca6, sa6 = g.twist(5)
        axis = apply_rows(t, (0.0, sa6, ca6), False)
        x6 = (t[0], t[4], t[8])
        for i, value in enumerate((v1, v2, v3)):
            axis, x6 = g.to_link(i, value, axis, False, f), g.to_link(i, value, x6, False, f)
        for v4, v5, v6 in _wrist(g, axis, x6, hint, f):
            found.append((v1, v2, v3, v4, v5, v6))
    return found


def _elbow(g, v3, f):
    """
    Return e: the wrist centre in frame 1, before joint 2 turns it and less d2 (3 values).

    That is ``[a2, 0, 0] + Rx(alpha2) f``, f being the wrist centre in frame 2.
    """
    theta, d = (g.theta[2], v3) if g.prismatic[2] else (v3, g.d[2])
    c, s = f.cos(theta), f.sin(theta)
    (ca3, sa3), (ca2, sa2) = g.twist(2), g.twist(1)
    m1, m2 = g.a[2], -sa3 * g.d[3]
    f0, f1, f2 = c * m1 - s * m2, s * m1 + c * m2, d + ca3 * g.d[3]
    return g.a[1] + f0, ca2 * f1 - sa2 * f2, sa2 * f1 + ca2 * f2


def _joint3_roots_one(g, equation):
    """Return :func:`_joint3_roots` of one pose's coefficients (a list): a list."""
    top = max(abs(value) for value in equation)
    degree = max((k for k, value in enumerate(equation) if abs(value) > 1e-12 * top),
                 default=0)
    if degree < 1:
        return []
    if degree == 1:
        roots = [-equation[0] / equation[1]]
    elif degree == 2:
        roots = _quadratic_roots(*equation[:3])
    else:
        roots = [root.real for root in np.roots(equation[degree::-1]).tolist()
                 if abs(root.imag) <= 1e-6 * (1.0 + abs(root))]
    if g.prismatic[2]:
        return roots
    # t = inf (theta3 = pi) is a root where the leading coefficient vanishes.
    return [2.0 * math.atan(root) for root in roots] + (
        [math.pi] if degree < len(equation) - 1 else [])


def _quadratic_roots(c0, c1, c2):
    """
    Return the real roots of ``c2 t^2 + c1 t + c0`` (``c2`` not 0) as ``np.roots`` finds them.

    A complex pair within 1e-6 of real (relative) counts as its real part, twice.
    """
    discriminant = c1 * c1 - 4.0 * c2 * c0
    if discriminant >= 0.0:
        q = -0.5 * (c1 + math.copysign(math.sqrt(discriminant), c1))
        return [q / c2, c0 / q] if q else [0.0, 0.0]
    real, imaginary = -c1 / (2.0 * c2), math.sqrt(-discriminant) / (2.0 * abs(c2))
    if imaginary <= 1e-6 * (1.0 + math.hypot(real, imaginary)):
        return [real, real]
    return []


def _joint3_roots(g, equation):
    """
    Return joint 3's candidate values (rad or m), shape (m, k): its polynomial's real roots.

    ``equation`` holds each pose's coefficients, lowest degree first, shape (m, degree + 1).
    NaN where a pose has fewer; a revolute joint's last column is theta3 = pi (t = inf) where
    the leading coefficient vanishes.
    """
    size = np.abs(equation)
    kept = size > 1e-12 * size.max(axis=-1, keepdims=True)  # coefficients at rounding: zeros
    top = equation.shape[1] - 1
    degree = np.where(kept.any(axis=-1), top - np.argmax(kept[:, ::-1], axis=-1), 0)
    roots = np.full((len(equation), top), np.nan)
    for order in np.unique(degree).tolist():
        if order < 1:
            continue
        rows = np.nonzero(degree == order)[0]
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
    # t = inf (theta3 = pi) is a root where the leading coefficient vanishes.
    ends = np.where((degree >= 1) & (degree < top), math.pi, np.nan)[:, None]
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
    while power and len(one) == 3:  # each factor one = 1 + t^2 that every row holds, out
        divided = [_over_one(row) for row in rows]
        if any(row is None for row in divided):
            break
        rows, power = divided, power - 1
    size = max(len(row) for row in rows)
    return np.array([np.pad(row, (0, size - len(row))) for row in rows]), one, power


def _over_one(p):
    """Return the polynomial p / (1 + t^2) where it divides (to rounding), else None."""
    p = np.trim_zeros(p, 'b')
    if len(p) < 3:
        return None if p.any() else np.zeros(1)
    quotient = np.zeros(len(p) - 2)
    rest = p.copy()
    for k in range(len(p) - 1, 1, -1):  # highest degree first
        quotient[k - 2] = rest[k]
        rest[k - 2] -= rest[k]
        rest[k] = 0.0
    return quotient if np.abs(rest[:2]).max() <= 1e-12 * np.abs(p).max() else None


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


def _wrist(g, m, x, hint4, f):
    """
    Return the wrist's (v4, v5, v6) two ways round, for its rotation ``R_3_6``.

    ``m`` is ``R_3_6 Rx(alpha6)^T`` 's last column and ``x`` its first (3 values each):
    ``R_3_6 Rx(alpha6)^T = Rz(v4) Rx(alpha4) Rz(v5) Rx(alpha5) Rz(v6)``. At the singularity
    (axes 4 and 6 in line: only v4 + v6, or v4 - v6, is fixed) joint 4 is ``hint4`` and the
    second way is NaN.
    """
    m0, m1, m2 = m
    x0, x1, x2 = x
    (ca4, sa4), (ca5, sa5) = g.twist(3), g.twist(4)
    rho, phi = f.hypot(m0, m1), f.atan2(m1, m0)
    singular = rho < 1e-12
    angle = f.asin((ca5 - ca4 * m2) / sa4 / f.select(singular, 1.0, rho))
    sign = math.copysign(1.0, sa5)
    found = []
    for v4 in (f.select(singular, hint4, phi + angle),
               f.select(singular, math.nan, phi + math.pi - angle)):
        c4, s4 = f.cos(v4), f.sin(v4)
        # Rz(v4)^T m = Rx(alpha4) Rz(v5) [0, -sin alpha5, cos alpha5]
        w0, w1 = c4 * m0 + s4 * m1, -s4 * m0 + c4 * m1
        v5 = f.atan2(w0 * sign, -(ca4 * w1 + sa4 * m2) * sign)
        # Rz(v6) = P^T M, P = Rz(v4) Rx(alpha4) Rz(v5) Rx(alpha5): v6 from P's first two
        # columns against M's first, x, all turned back by joint 4 (u = Rz(v4)^T x).
        u0, u1 = c4 * x0 + s4 * x1, -s4 * x0 + c4 * x1
        c5, s5 = f.cos(v5), f.sin(v5)
        cosine = c5 * u0 + ca4 * s5 * u1 + sa4 * s5 * x2
        sine = (-s5 * ca5 * u0 + (ca4 * c5 * ca5 - sa4 * sa5) * u1
                + (sa4 * c5 * ca5 + ca4 * sa5) * x2)
        found.append((v4, v5, f.atan2(sine, cosine)))
    return found
