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

Two pieces of the numerical search (:mod:`core.ik.numerical`) are written here for floats and
run once on symbols (:mod:`core.symbolic`), as the poses are:

- the residual: the tool pose at ``q`` against the target's top three rows ``t``, as the
  position difference and the entries of ``R_target R^T`` (whose rotation vector is the
  orientation error);
- the step: the geometric Jacobian at ``q``, the normal equations ``J^T W J`` and ``J^T W e``
  with the mask's weights W, and their solution with the damping ``mu`` added to the diagonal,
  by Cholesky's factorisation, written out for the arm's n joints.

The generated code holds no loop, no numpy call, and no term a zero of the arm's table (or of
the weights) removes. Units: rad and m in; m, rad and rad or m per step out.
"""

from dh_kinematics.core.kinematics import unrolled
from dh_kinematics.core.symbolic import list_function


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


def compile_residual(table, base_rows, tool):
    """
    Return ``residual(q, t)``: [dx, dy, dz] then ``R_target R^T`` row-major, 12 floats.

    ``t`` is the target's top three rows, row-major (12 floats); d = target - tool (m).
    """
    code, T = unrolled.values(table, base_rows, tool, 'tool')
    t = [code.emit(f't[{k}]') for k in range(12)]
    values = [t[3] - T[3], t[7] - T[7], t[11] - T[11]]
    values += [t[4 * i] * T[4 * j] + t[4 * i + 1] * T[4 * j + 1] + t[4 * i + 2] * T[4 * j + 2]
               for i in range(3) for j in range(3)]
    return list_function(code, [values], 'q, t', f'<residual of {len(table.a)} links>',
                         single=True)


def compile_step(table, base_rows, tool, weight):
    """
    Return ``step(q, e, mu)``: q after the damped Gauss-Newton step (rad or m), n floats.

    ``e`` is the weighted components' pose error (6 floats), ``mu`` the damping (> 0).
    """
    code, entries = unrolled.values(table, base_rows, tool, 'jacobians')
    n = len(table.a)
    J = [entries[r * n:(r + 1) * n] for r in range(6)]
    e = [code.emit(f'e[{k}]') for k in range(6)]
    lower, g = normal_equations(J, e, [float(w) for w in weight])
    x = damped_solution(lower, g, code.emit('mu'), lambda value: code.call('sqrt', value))
    moved = [code.emit(f'q[{j}]') + x[j] for j in range(n)]
    return list_function(code, [moved], 'q, e, mu', f'<step of {n} links>', single=True)
