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
The kinds of singularity an arm's geometry names: wrist, elbow and shoulder.

:mod:`core.kinematics.manipulability` says how near a singularity the arm is; this module says
which, where the arm's structure tells it. The structure is read once from the joint axes (lines in
space; whether two consecutive axes are parallel, or meet, does not change as the arm moves),
for an arm that is not redundant (no more joints than the rank its Jacobian reaches: a 7-joint
arm's alignments are not singularities by themselves):

- **wrist**: the last three joints revolute, the middle one able to turn the outer two
  parallel (they make equal angles with it, as in every orthogonal wrist). Singular when they
  are parallel (coincident in a spherical wrist: the Puma's, an IRB's at q5 = 0; parallel in
  the UR's). Measure: the sine of the angle between them.
- **elbow**: the first two consecutive revolute joints with parallel axes, i and i+1.
  Singular when the arm's far point is in line with them, the arm stretched or folded. The far
  point is the next axis if it is parallel too (a planar chain: the UR's joints 2 to 4, a
  SCARA's), else the wrist point. Measure: the sine of the angle, across the axes, between the
  link from axis i to axis i+1 and the line from axis i+1 to the far point. With no such pair,
  the first prismatic joint among joints 2 and 3 that follows a revolute one (the Stanford
  arm's boom): singular when the wrist point is on that revolute joint's axis; measure: that
  distance over the characteristic length.
- **shoulder**: joints 1 and 2 revolute with axes that are not parallel. Singular when the
  wrist point is in the plane through axis 1 parallel to axis 2 (on axis 1 itself where the
  arm has no shoulder offset; the UR's and the Puma's offset keep it off the axis). Measure:
  that distance over the characteristic length.

The wrist point is where the last two joint axes meet (a spherical wrist's centre; the UR's
joint 5 and 6 axes), else the tool point. Each measure is 0 at its singularity and of order 1
away from it; each below :data:`NAMED` is named (two at once where a pose is both).
"""

from collections import namedtuple
import math

from dh_kinematics.core.kinematics.dh_table import joint_axes
import numpy as np

NAMED = 0.05
"""A kind's measure below this names it (a sine, or a distance over the length)."""
TOLERANCE = 1e-9
"""Axes whose directions' cross product is below this are parallel; lines closer than this
times the length meet."""

SIGNS = {1: '+', -1: '-'}
"""A branch's sign (:meth:`Kinds.branches`) as reports write it."""

Kind = namedtuple('Kind', 'kind measure message')
Kind.__doc__ = """A singularity's kind ('wrist', 'elbow' or 'shoulder'), its measure (0 at the
singularity) and a sentence naming it, with the joint and how far: ``wrist singularity: joint5
at 0.004 rad (joint4's and joint6's axes 0.004 rad from parallel)``."""


def _closest(p, u, r, v):
    """Return the midpoint of the common perpendicular of lines (p, u) and (r, v), non-parallel."""
    w = p - r
    b, d, e = u @ v, u @ w, v @ w
    denominator = 1.0 - b * b
    s, t = (b * e - d) / denominator, (e - b * d) / denominator
    return 0.5 * (p + s * u + r + t * v), float(np.linalg.norm(p + s * u - r - t * v))


def _triple(a, b, c):
    """Return ``a . (b x c)`` of rows of 3-vectors (m, 3): (m,), written out (np.cross costs)."""
    (a0, a1, a2), (b0, b1, b2), (c0, c1, c2) = a.T, b.T, c.T
    return a0 * (b1 * c2 - b2 * c1) + a1 * (b2 * c0 - b0 * c2) + a2 * (b0 * c1 - b1 * c0)


def _closest_many(p, u, r, v):
    """Return :func:`_closest`'s midpoints for rows of lines (m, 3), non-parallel."""
    w = p - r
    b, d, e = (u * v).sum(axis=1), (u * w).sum(axis=1), (v * w).sum(axis=1)
    denominator = 1.0 - b * b
    s, t = (b * e - d) / denominator, (e - b * d) / denominator
    return 0.5 * (p + s[:, None] * u + r + t[:, None] * v)


class Kinds:
    """
    The singularity kinds one arm's geometry names; see the module docstring.

    Parameters
    ----------
    chain : Chain
    rank : int
        The rank the arm's whole Jacobian reaches (:func:`manipulability.generic_ranks`).
    length : float
        The characteristic length, m (:func:`manipulability.characteristic_length`).

    """

    def __init__(self, chain, rank, length):
        self._chain, self._length = chain, length
        self._names = chain.joint_names
        n = chain.n
        directions, points = joint_axes(chain, chain.fkine_all(np.zeros(n)))
        revolute = [link.isrevolute() for link in chain.links]
        parallel = [float(np.linalg.norm(np.cross(directions[j], directions[j + 1])))
                    < TOLERANCE for j in range(n - 1)]
        self.wrist = self.elbow = self.boom = self.shoulder = None
        self.wrist_point = None
        if n > rank or n < 2:
            return
        if revolute[-1] and revolute[-2] and not parallel[-1]:
            _, gap = _closest(points[-2], directions[-2], points[-1], directions[-1])
            self.wrist_point = gap < TOLERANCE * length
        if n >= 3 and all(revolute[-3:]) and abs(
                abs(directions[-3] @ directions[-2]) - abs(directions[-2] @ directions[-1])) < (
                TOLERANCE) and not parallel[-2]:
            self.wrist = n - 2
        for i in range(n - 2):
            apart = np.linalg.norm(np.cross(points[i + 1] - points[i], directions[i]))
            if revolute[i] and revolute[i + 1] and parallel[i] and apart > TOLERANCE * length:
                self.elbow = (i, parallel[i + 1])
                break
        else:
            for k in (1, 2):
                if k < n and not revolute[k] and revolute[k - 1]:
                    self.boom = k
                    break
        if n >= 3 and revolute[0] and revolute[1] and not parallel[0]:
            self.shoulder = True

    def named(self, q):
        """
        Return the :data:`Kind` the arm is at or near at ``q`` (rad or m), or None.

        Every kind whose measure is below :data:`NAMED` is named, in the order wrist, elbow,
        shoulder, whatever their measures: a pose can be two at once (the Stanford arm's boom
        at 0 puts the wrist point on joint 2's axis, which lies in the shoulder's plane), and
        which of two measures near 0 is the smaller is rounding. The kinds are joined by
        ``', '`` (``'elbow, shoulder'``), the sentences by ``'; '``; the measure is the
        smallest. None where the arm names no kind, or none is below :data:`NAMED`.
        """
        near = [kind for kind in self.kinds(q) if kind.measure < NAMED]
        if not near:
            return None
        return Kind(', '.join(kind.kind for kind in near), min(kind.measure for kind in near),
                    '; '.join(kind.message for kind in near))

    def kinds(self, q):
        """Return every named kind's :data:`Kind` at configuration ``q``."""
        q = np.asarray(q, dtype=float)
        T = self._chain.fkine_all(q)
        directions, points = joint_axes(self._chain, T)
        far = self._far_point(points, directions, (T[-1] @ self._chain.tool)[:3, 3])
        kinds = []
        if self.wrist is not None:
            j = self.wrist
            sine = float(np.linalg.norm(np.cross(directions[j - 1], directions[j + 1])))
            angle = math.asin(min(sine, 1.0))
            kinds.append(Kind('wrist', sine, (
                f'wrist singularity: {self._names[j]} at {q[j]:.4g} rad ({self._names[j - 1]}'
                f"'s and {self._names[j + 1]}'s axes {angle:.3g} rad from parallel)")))
        if self.elbow is not None:
            kinds.append(self._elbow(q, points, directions, far))
        if self.boom is not None:
            k = self.boom
            distance = float(np.linalg.norm(np.cross(far - points[k - 1], directions[k - 1])))
            kinds.append(Kind('elbow', distance / self._length, (
                f'elbow singularity: {self._names[k]} at {q[k]:.4g} m, the wrist point '
                f"{distance:.3g} m from {self._names[k - 1]}'s axis")))
        if self.shoulder:
            normal = np.cross(directions[0], directions[1])
            normal /= np.linalg.norm(normal)
            distance = abs(float((far - points[0]) @ normal))
            kinds.append(Kind('shoulder', distance / self._length, (
                f'shoulder singularity: the wrist point {distance:.3g} m from the plane of '
                f"{self._names[0]}'s and {self._names[1]}'s axes")))
        return kinds

    @property
    def branch_kinds(self):
        """Return the kinds :meth:`branches` signs, in its columns' order."""
        return tuple(kind for kind, named in (
            ('shoulder', self.shoulder), ('elbow', self.elbow is not None),
            ('wrist', self.wrist is not None)) if named)

    def branch(self, q):
        """Return :meth:`branches` of one configuration as a dict, kind: sign."""
        return dict(zip(self.branch_kinds, self.branches(np.asarray(q, dtype=float)[None])[0]
                        .tolist()))

    def branches(self, Q):
        """
        Return the arm's branch at each configuration: the signs of the kinds' measures.

        ``Q`` (m, n), rad or m. An int array (m, k), +1, -1 or 0 (at the singularity), a column
        per kind of :attr:`branch_kinds` (a boom's elbow has no sign). The closed forms'
        solutions of one pose differ in these, and an arm that moves from one to another has
        passed the singularity between. Signed as the measures: the wrist's outer axes crossed,
        along the middle one; the elbow's link and reach crossed, along the parallel axes; the
        wrist point's side of the shoulder's plane, along ``axis 1 x axis 2``.
        """
        T = self._chain.fkine_all(Q)
        directions, points = joint_axes(self._chain, T)
        if self.wrist_point:
            far = _closest_many(points[:, -2], directions[:, -2], points[:, -1],
                                directions[:, -1])
        else:
            far = (T[:, -1] @ self._chain.tool)[:, :3, 3]
        columns = []
        if self.shoulder:
            columns.append(_triple(far - points[:, 0], directions[:, 0], directions[:, 1]))
        if self.elbow is not None:
            i, planar = self.elbow
            target = points[:, i + 2] if planar else far
            columns.append(_triple(directions[:, i], points[:, i + 1] - points[:, i],
                                   target - points[:, i + 1]))
        if self.wrist is not None:
            j = self.wrist
            columns.append(_triple(directions[:, j], directions[:, j - 1], directions[:, j + 1]))
        return np.sign(np.stack(columns, axis=-1)).astype(int) if columns else np.zeros(
            (len(Q), 0), dtype=int)

    def _far_point(self, points, directions, tool):
        """Return the wrist point: where the last two axes meet, else the tool point."""
        if not self.wrist_point:
            return tool
        return _closest(points[-2], directions[-2], points[-1], directions[-1])[0]

    def _elbow(self, q, points, directions, far):
        """Return the elbow's :data:`Kind`: the stretch of axes i, i+1 toward the far point."""
        i, planar = self.elbow
        u = directions[i]
        target = points[i + 2] if planar else far

        def across(point):  # the point's position across the parallel axes
            return point - (point @ u) * u

        link = across(points[i + 1]) - across(points[i])
        reach = across(target) - across(points[i + 1])
        sizes = np.linalg.norm(link) * np.linalg.norm(reach)
        sine = float(np.linalg.norm(np.cross(link, reach)) / sizes) if sizes > 0.0 else 0.0
        angle = math.asin(min(sine, 1.0))
        state = 'stretched' if link @ reach >= 0.0 else 'folded'
        joint = self._names[i + 1]
        return Kind('elbow', sine, f'elbow singularity: {joint} at {q[i + 1]:.4g} rad, the arm '
                    f'{angle:.3g} rad from {state}')
