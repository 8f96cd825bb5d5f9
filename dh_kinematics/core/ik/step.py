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
The arithmetic of one Levenberg-Marquardt step for one arm, compiled to straight-line Python.

Three pieces of the numerical search (:mod:`core.ik.numerical`) are written here for floats
and run once on symbols (:mod:`core.symbolic`), as the poses are:

- the residual: the tool pose at ``q`` against the target's top three rows ``t``, as the
  position difference and the entries of ``R_target R^T`` (whose rotation vector is the
  orientation error), with the joint axes and the tool position the step needs;
- the normal equations: the geometric Jacobian at ``q`` from those axes (the poses are not
  composed twice), then ``J^T W J`` and ``J^T W e`` with the mask's weights W, once per
  configuration the search reaches;
- the step: their solution with the damping ``mu`` added to the diagonal, by Cholesky's
  factorisation, written out for the arm's n joints: again for each damping tried.

The generated code holds no loop, no numpy call, and no term a zero of the arm's table (or of
the weights) removes. Units: rad and m in; m, rad and rad or m per step out.
"""

import math

from dh_kinematics.core.kinematics import unrolled
from dh_kinematics.core.rotations import angle_over_sine2
from dh_kinematics.core.symbolic import Code, list_function, Symbol


def normal_equations(J, e, weight):
    """
    Return ``J^T W J`` (its lower triangle, row by row) and ``J^T W e``.

    Parameters
    ----------
    J : sequence of 6 sequences of n values
        The Jacobian's rows [vx, vy, vz, wx, wy, wz].
    e : sequence of 6 values
        The pose error.
    weight : sequence of 6 floats
        The diagonal of W.

    """
    n = len(J[0])
    WJ = [[w * value for value in row] for w, row in zip(weight, J)]
    lower = [sum(WJ[r][i] * J[r][j] for r in range(6)) for i in range(n) for j in range(i + 1)]
    return lower, [sum(WJ[r][i] * e[r] for r in range(6)) for i in range(n)]


def damped_solution(lower, g, mu, sqrt):
    """
    Return x solving ``(A + mu I) x = g``, A symmetric positive semi-definite, mu > 0.

    ``lower`` is A's lower triangle row by row; Cholesky's factorisation ``L L^T``, then the two
    triangular solves. ``sqrt`` is the square root of the values.
    """
    n = len(g)
    L = []
    for i in range(n):
        row = lower[i * (i + 1) // 2:(i + 1) * (i + 2) // 2]
        factor = []
        for j in range(i):
            total = row[j]
            for k in range(j):
                total = total - factor[k] * L[j][k]
            factor.append(total / L[j][j])
        total = row[i] + mu
        for k in range(i):
            total = total - factor[k] * factor[k]
        factor.append(sqrt(total))
        L.append(factor)
    y = []
    for i in range(n):
        total = g[i]
        for k in range(i):
            total = total - L[i][k] * y[k]
        y.append(total / L[i][i])
    x = [0.0] * n
    for i in reversed(range(n)):
        total = y[i]
        for k in range(i + 1, n):
            total = total - L[k][i] * x[k]
        x[i] = total / L[i][i]
    return x


ERROR, ENERGY, NORMS, HALF_TURN, AXES = 12, 18, 19, 21, 22
"""Where the residual's values (:func:`compile_residual`) hold each quantity."""


def compile_residual(table, base_rows, tool, weight, free=None):
    """
    Return ``residual(q, t)``: the tool's pose against a target's, and what a step needs of q.

    ``t`` is the target's top three rows, row-major (12 floats). The values: [dx, dy, dz]
    (d = target - tool, m), ``R_target R^T`` row-major (9); from :data:`ERROR` the pose error
    [d, rotation vector of ``R_target R^T``] with the components of weight 0 at 0 (6), its
    energy ``E = e^T W e / 2`` (:data:`ENERGY`), the position (m) and orientation (rad) errors
    (:data:`NORMS`, 2), whether the rotation is within 1e-6 of a half turn (:data:`HALF_TURN`,
    where the rotation vector given is not to be used); from :data:`AXES` the frame entries
    the Jacobian reads (:func:`unrolled.axis_entries`) and the tool's position (3): the step
    at q (:func:`compile_normal`) takes them rather than composing the poses again.

    With ``free`` (0, 1 or 2: the tool's x, y or z axis), the rotation about that axis is free:
    the orientation error is the rotation vector of the smallest rotation that turns the tool's
    axis onto the target's (perpendicular to both, its norm the angle between them), and the
    tool's axis (3 values) follows the tool's position, for the step's projection.
    """
    code, frames = unrolled.values(table, base_rows, tool, 'frames')
    T = unrolled.times_constant(frames[-16:], tool)
    t = [code.emit(f't[{k}]') for k in range(12)]
    d = [t[3] - T[3], t[7] - T[7], t[11] - T[11]]
    m = [t[4 * i] * T[4 * j] + t[4 * i + 1] * T[4 * j + 1] + t[4 * i + 2] * T[4 * j + 2]
         for i in range(3) for j in range(3)]
    if free is None:
        # The rotation vector as rotations.rotvec_of_entries gives it away from a half turn.
        skew = (m[7] - m[5], m[2] - m[6], m[3] - m[1])  # 2 sin(angle) axis
        cosine2 = m[0] + m[4] + m[8] - 1.0  # 2 cos(angle)
    else:  # the tool's axis z onto the target's g: z x g is sin(angle) times the axis
        z, g = [T[free], T[4 + free], T[8 + free]], [t[free], t[4 + free], t[8 + free]]
        skew = [2.0 * value for value in _cross(z, g)]
        cosine2 = 2.0 * (z[0] * g[0] + z[1] * g[1] + z[2] * g[2])
    sine2 = code.call('hypot', *skew)
    scale = code.call('angle_over_sine2', sine2, cosine2)
    e = [value if w > 0.0 else 0.0 for value, w in zip(d + [s * scale for s in skew], weight)]
    energy = 0.5 * sum(w * value * value for value, w in zip(e, weight))
    values = d + m + e + [energy, code.call('hypot', *e[:3]), code.call('hypot', *e[3:]),
                          (cosine2 < 0.0) & (sine2 < 1e-6)]
    values += [frames[i] for i in unrolled.axis_entries(table)] + [T[3], T[7], T[11]]
    if free is not None:
        values += z
    return list_function(code, [values], 'q, t', f'<residual of {len(table.a)} links>',
                         single=True, functions={'hypot': math.hypot,
                                                 'angle_over_sine2': angle_over_sine2})


def compile_normal(table, base_rows, tool, weight, free=None):
    """
    Return ``normal(r)``: the normal equations at q, ``J^T W J`` (lower triangle) and ``J^T W e``.

    ``r`` is :func:`compile_residual`'s values at ``q``, its pose error among them; the
    Jacobian comes from the axes they hold. n (n + 1) / 2 + n floats, for :func:`compile_solve`.
    A rejected step leaves q, and these, as they were. With ``free`` (an axis, as
    :func:`compile_residual`'s), the angular rows are projected off the tool's axis ``z``:
    ``(I - z z^T) J_w``, as a turn about it leaves the error be.
    """
    _, frames = unrolled.values(table, base_rows, tool, 'frames')  # which entries are constants
    tool_pose = unrolled.times_constant(frames[-16:], tool)
    code, n = Code(), len(table.a)
    read = unrolled.axis_entries(table)
    given, given_tool = [0.0] * len(frames), [0.0] * 16
    for k, (entries, into, i) in enumerate(
            [(frames, given, i) for i in read] + [(tool_pose, given_tool, i) for i in (3, 7, 11)]):
        value = entries[i]
        into[i] = code.emit(f'r[{AXES + k}]') if isinstance(value, Symbol) else value
    entries = unrolled.point_jacobian(table, given, given_tool[3:12:4], n)
    J = [entries[r * n:(r + 1) * n] for r in range(6)]
    if free is not None:
        z = [code.emit(f'r[{AXES + len(read) + 3 + k}]') for k in range(3)]
        along = [z[0] * J[3][i] + z[1] * J[4][i] + z[2] * J[5][i] for i in range(n)]
        J[3:] = [[value - axis * turn for value, turn in zip(J[3 + k], along)]
                 for k, axis in enumerate(z)]
    e = [code.emit(f'r[{ERROR + k}]') for k in range(6)]
    lower, g = normal_equations(J, e, [float(w) for w in weight])
    return list_function(code, [lower + g], 'r', f'<normal equations of {n} links>',
                         single=True)


def _cross(u, v):
    return [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]


def compile_solve(n):
    """
    Return ``solve(s, mu, q, hold)``: q after the damped Gauss-Newton step (rad or m), n floats.

    ``s`` is :func:`compile_normal`'s values at ``q``, ``mu`` the damping (> 0), ``hold`` each
    joint's own damping on top of it (n floats: 0, or large for a joint held where it is).
    """
    code = Code()
    size = n * (n + 1) // 2
    lower = [code.emit(f's[{k}]') for k in range(size)]
    g = [code.emit(f's[{size + j}]') for j in range(n)]
    for j in range(n):  # a joint held at a limit: its own damping on top
        lower[j * (j + 1) // 2 + j] = lower[j * (j + 1) // 2 + j] + code.emit(f'hold[{j}]')
    x = damped_solution(lower, g, code.emit('mu'), lambda value: code.call('sqrt', value))
    moved = [code.emit(f'q[{j}]') + x[j] for j in range(n)]
    return list_function(code, [moved], 's, mu, q, hold', f'<damped step of {n} joints>',
                         single=True)
