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
The kinematics of one arm as straight-line code: poses, link transforms, Jacobians of points.

The float composition of :func:`core.kinematics.dh_transforms.composed_poses` runs once on
symbols (:mod:`core.symbolic`): every entry of the result becomes a value of the generated
code, with no 4x4 products and no terms that a link's constants make zero (its a, d, and twists
of 0 or 90 degrees). The Jacobian of a point fixed on a link (the tool, a centre of mass, a
frame) has one source, :func:`point_jacobian`, on these values: floats here, numpy columns in
a batch, SymPy symbols in :mod:`formulas`. :mod:`core.kinematics.batch` runs that code on
numpy columns for a batch; :class:`Unrolled` runs it on Python floats for one configuration,
where numpy's per-call cost would dominate (:meth:`Chain.fkine` and :meth:`Chain.jacob0` of
one configuration, which the node's monitors call per message). Units are SI: rad, m.
"""

from dh_kinematics.core.kinematics.dh_table import axis_frame
from dh_kinematics.core.kinematics.dh_transforms import composed_poses
from dh_kinematics.core.symbolic import Code, list_function, snapped
import numpy as np

_IDENTITY_ROWS = ((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0))


class Unrolled:
    """
    One arm's tool pose and Jacobian for one configuration, each compiled on first use.

    It keeps the arm's one cache of compiled functions: :class:`batch.BatchKinematics` compiles
    the same :func:`values` for columns into it (:meth:`compiled`).

    Parameters
    ----------
    table : DHTable
        The chain's DH table.
    T_world_base, T_last_tool : array, shape (4, 4)
        The base pose in the world and the tool pose in the last link frame.

    """

    def __init__(self, table, T_world_base, T_last_tool):
        self.table = table
        self._base_rows = T_world_base[:3].tolist()
        self._tool = T_last_tool.tolist()
        self._compiled = {}

    def compiled(self, key, compile_values):
        """
        Return the function cached under ``key``, compiling it on first use.

        ``compile_values(code, values)`` compiles the entries of ``key[0]`` (a kind of
        :func:`values`) into the function kept.
        """
        function = self._compiled.get(key)
        if function is None:
            function = self._compiled[key] = compile_values(
                *values(self.table, self._base_rows, self._tool, key[0]))
        return function

    def tool_pose(self, q):
        """Return the top three rows of ``T_world_tool``, row-major: 12 floats, for q (rad, m)."""
        return self._function('tool')(q)

    def jacobian(self, q):
        """Return the geometric Jacobian [v; w] of the tool, row-major: 6 n floats."""
        return self._function('jacobians')(q)

    def jacobian_function(self):
        """Return :meth:`jacobian` compiled: ``jacobian(q)``, q a list of n floats."""
        return self._function('jacobians')

    def points_function(self, links, offsets):
        """
        Return ``points(q)``, compiled: points fixed on link frames, their frames, Jacobians.

        ``links`` (0 to n) and ``offsets`` (3 floats each, m, in those frames) place the
        points. ``points(q)`` takes n floats (rad or m) and returns, per point, its position in
        the world (3), its link frame's rotation ``R_world_link`` (9) and its Jacobian [v; w]
        (6 n, :func:`point_jacobian`), all row-major.
        """
        kind = ('points', tuple(int(k) for k in links),
                tuple(tuple(float(value) for value in offset) for offset in offsets))
        return self._function(kind)

    def _function(self, kind):
        def compile_values(code, entries):
            if kind == 'tool':
                entries = entries[:12]
            name = kind if isinstance(kind, str) else kind[0]
            return list_function(code, [entries], 'q', f'<{name} of {len(self.table.a)} links>',
                                 single=True)
        return self.compiled((kind, 'one'), compile_values)


def values(table, base_rows, tool, kind):
    """
    Return ``(code, values)``: the entries of ``kind`` as values of a new :class:`Code`.

    The joint values are ``q[0]`` .. ``q[n - 1]`` of the code. ``kind`` is ``'frames'`` (every
    frame's 4x4 pose, (n+1) 16 values), ``'tool'`` (16), ``'transforms'`` (each link's own
    transform, 16 n), ``'jacobians'`` (the tool's, 6 n) or ``('points', links, offsets)``
    (:meth:`Unrolled.points_function`), all row-major.
    """
    code = Code()
    n = len(table.a)
    theta, d = table.floats([code.emit(f'q[{j}]') for j in range(n)])
    ct = [code.call('cos', t) for t in theta]
    st = [code.call('sin', t) for t in theta]
    twists = (table.a.tolist(), [snapped(c) for c in np.cos(table.alpha).tolist()],
              [snapped(s) for s in np.sin(table.alpha).tolist()])
    if kind == 'transforms':
        entries = []
        for j in range(n):
            one = [[column[j]] for column in (ct, st, d) + twists]
            hayati = None if table.hayati is None else [table.hayati[j]]
            entries += composed_poses(*one, _IDENTITY_ROWS, table.mdh, hayati)[16:]
        return code, entries
    frames = composed_poses(ct, st, d, *twists, base_rows, table.mdh, table.hayati)
    tool_pose = times_constant(frames[-16:], tool)
    if kind == 'jacobians':
        return code, point_jacobian(table, frames, tool_pose[3:12:4], n)
    if kind == 'tool':
        return code, tool_pose
    if kind == 'frames':
        return code, frames
    entries = []
    for k, offset in zip(*kind[1:]):
        frame = frames[16 * k:16 * k + 16]
        point = [frame[4 * i] * offset[0] + frame[4 * i + 1] * offset[1]
                 + frame[4 * i + 2] * offset[2] + frame[4 * i + 3] for i in range(3)]
        entries += point + [frame[4 * i + c] for i in range(3) for c in range(3)]
        entries += point_jacobian(table, frames, point, k)
    return code, entries


def axis_entries(table):
    """
    Return the indices into ``frames`` (:func:`values`) that the Jacobian reads, in order.

    Each joint's axis (z) and, for a revolute joint, its frame's origin.
    """
    indices = []
    for j in range(len(table.a)):
        first = 16 * axis_frame(j, table.mdh)
        entries = (2, 6, 10) if table.prismatic[j] else (2, 6, 10, 3, 7, 11)
        indices += [first + k for k in entries]
    return indices


def times_constant(T, constant):
    """Return the 16 entries of ``T @ constant``: T row-major (bottom row 0 0 0 1)."""
    product = []
    for r in range(4):
        for c in range(4):
            total = 0.0
            for k in range(4):
                total = total + T[4 * r + k] * constant[k][c]
            product.append(total)
    return product


def point_jacobian(table, frames, point, link):
    """
    Return the 6 n entries of a point's geometric Jacobian [v; w], row-major.

    The point is fixed on link frame ``link`` (0, the base, to n) at ``point`` (its 3 world
    coordinates); joint j (1 to n) moves it where j <= ``link``. ``frames`` holds the (n + 1)
    frame poses, 16 entries each; only the entries of :func:`axis_entries` are read. The
    angular rows are the link's own angular Jacobian. m/s and rad/s per unit joint rate.
    """
    n = len(table.a)
    columns = []
    for j in range(n):
        if j >= link:
            columns.append([0.0] * 6)
            continue
        on_axis = frames[16 * axis_frame(j, table.mdh):]
        z = on_axis[2], on_axis[6], on_axis[10]
        if table.prismatic[j]:
            linear, angular = z, (0.0, 0.0, 0.0)
        else:
            lever = [point[i] - on_axis[k] for i, k in enumerate((3, 7, 11))]
            linear = (z[1] * lever[2] - z[2] * lever[1], z[2] * lever[0] - z[0] * lever[2],
                      z[0] * lever[1] - z[1] * lever[0])
            angular = z
        # A flip turns the column round; a sign of 1 leaves exact (SymPy) values exact.
        columns.append(list(linear + angular) if table.sign[j] == 1.0
                       else [-value for value in linear + angular])
    return [columns[j][row] for row in range(6) for j in range(n)]
