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
The arm's state at one message, compiled for the arm: what every monitor reads of it.

Pinocchio keeps what its algorithms compute in one ``Data``; here one function, generated for
the arm, computes from a message's joint values and rates every kinematic quantity a monitor
reads, so that no monitor builds a frame again. Each link k moves as a rigid body with angular
velocity ``w_k`` and, at the point that coincides with the world's origin, linear velocity
``u_k`` (its twist), so that a point ``p`` fixed on it moves at ``u_k + w_k x p``. From the
base (at rest) outwards, joint j adds ``s_j z_j qd_j`` to ``w`` and ``s_j o_j x z_j qd_j`` to
``u`` (revolute) or ``s_j z_j qd_j`` to ``u`` (prismatic). The links' frames come from
:func:`core.kinematics.unrolled.values`, the Jacobian from its one source
(:func:`unrolled.point_jacobian`), and the whole runs once on symbols (:mod:`core.symbolic`):
straight-line code with the arm's zeros left out, run on floats for one message
(:meth:`ArmState.one`) and on numpy columns for many (:meth:`ArmState.columns`).

The state is a flat row; :class:`ArmState`'s attributes say where each quantity sits in it
(m, m/s, kg m/s, J):

- ``momentum``: the linear momentum ``sum_k m_k v_k`` (3), and ``energy``, the kinetic energy
  ``1/2 sum_k (m_k |v_k|^2 + w_k^T R_k I_k R_k^T w_k) + 1/2 sum_j G_j^2 Jm_j qd_j^2`` (1), with
  ``v_k`` the velocity of link k's centre of mass (the payload folded into the last link);
- ``points``: the position and velocity of each given point (3 + 3 each);
- ``tool``: the tool's pose, its top three rows (12);
- ``jacobian``: the tool point's geometric Jacobian [v; w] in the world (6 n, row-major);
- ``planes``: the signed distance of each given sphere to each given plane
  (:func:`planes.signed_distance`), plane by plane;
- ``tilt``: the angle of the tool's z axis to a given axis (:func:`planes.tilt`), where asked.
"""

import math

from dh_kinematics.core.kinematics import unrolled
from dh_kinematics.core.kinematics.batch import MIN_BATCH
from dh_kinematics.core.kinematics.dh_table import axis_frame, DHTable
from dh_kinematics.core.safety.planes import signed_distance, tilt
from dh_kinematics.core.symbolic import Calls, list_function, store_function
import numpy as np

__all__ = ['ArmState', 'PARTS']

_FLOATS = {'atan2': math.atan2, 'sqrt': math.sqrt}
_ARRAYS = {'atan2': np.arctan2, 'sqrt': np.sqrt}


def _cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


PARTS = ('momentum', 'points', 'tool', 'jacobian', 'planes', 'tilt')
"""What a state holds, in order (module docstring); ``momentum`` holds the energy too."""


class ArmState:
    """
    One arm's state per message: momentum, energy, points, tool pose, Jacobian, planes, tilt.

    As pinocchio's algorithms each fill their part of a ``Data``, a state is computed for the
    parts asked for (:data:`PARTS`), each set compiled on first use; the others are NaN.

    Parameters
    ----------
    chain : Chain
        The arm, its dynamics' masses included.
    links : sequence of int
        The link frame each point is fixed on, 0 (the base) to n.
    offsets : sequence of (3,) sequences
        Each point in its link frame, m.
    planes : sequence of planes.Plane
        The planes the spheres are judged against.
    spheres : (links, offsets, radii)
        The spheres judged against each plane: the link frame each centre is fixed on (0 to
        n), the centre there (m) and the radius (m; 0 for a point).
    axis : (3,) array or None
        Where given, the angle (rad) of the tool's z axis to this unit axis in the world.

    Attributes
    ----------
    momentum, points, tool, jacobian, planes : slice
        Where each sits in a state (module docstring).
    energy : int
        The kinetic energy's index.
    tilt : int or None
        The tilt's index, where an axis is given.
    size : int
        The state's length.

    Examples
    --------
    >>> from dh_kinematics import Chain, Link
    >>> arm = Chain([Link(a=1.0, m=2.0, r=[-0.5, 0, 0]), Link(a=0.5, m=1.0, r=[-0.25, 0, 0])])
    >>> state = ArmState(arm, [2], [[0.0, 0.0, 0.0]])
    >>> row = state.one([0.0, 0.0], [1.0, 0.0])
    >>> row[state.points]  # the tool's origin (m) and velocity (m/s)
    [1.5, 0.0, 0.0, 0.0, 1.5, 0.0]
    >>> row[state.energy]  # J
    1.03125
    >>> state.one([0.0, 0.0], [1.0, 0.0], ('jacobian',))[state.energy]  # not asked for
    nan

    """

    def __init__(self, chain, links=(), offsets=(), planes=(), spheres=((), (), ()),
                 axis=None):
        self._n = n = chain.n
        self._chain = chain
        self._code, self._parts = _values(chain, links, offsets, planes, spheres, axis)
        sizes = [len(self._parts[part]) for part in PARTS]
        starts = np.cumsum([0] + sizes).tolist()
        self.momentum, self.energy = slice(0, 3), 3
        self.points, self.tool, self.jacobian, self.planes = (
            slice(starts[k], starts[k + 1]) for k in range(1, 5))
        self.tilt = None if axis is None else starts[5]
        self.size = starts[-1]
        self._label = f'state of {n} links'
        self._one, self._columns = {}, {}

    def _entries(self, parts):
        """Return the state's values for ``parts``, NaN in place of the others."""
        unknown = set(parts) - set(PARTS)
        if unknown:
            raise ValueError(f'parts: {sorted(unknown)} are none of {list(PARTS)}')
        return [value for part in PARTS for value in (
            self._parts[part] if part in parts else [math.nan] * len(self._parts[part]))]

    def one(self, q, qd, parts=PARTS):
        """
        Return the state at joint values ``q`` and rates ``qd`` (lists of n floats): a list.

        Only ``parts`` (of :data:`PARTS`) are computed; the other entries are NaN.
        """
        function = self._one.get(parts)
        if function is None:
            function = self._one[parts] = list_function(
                self._code, [self._entries(parts)], 'q, qd', f'<{self._label}>', single=True,
                functions=_FLOATS)
        return function(q, qd)

    def columns(self, Q, QD, parts=PARTS):
        """
        Return the states of many messages: shape (m, :attr:`size`).

        ``Q`` and ``QD`` have shape (m, n): joint values (rad or m) and rates (per s). Each row
        equals :meth:`one`'s to the rounding of numpy's cos and sin against math's.
        """
        compiled = self._columns.get(parts)
        if compiled is None:
            compiled = self._columns[parts] = store_function(
                self._code, self._entries(parts), 'q, qd', f'<columns of {self._label}>',
                functions=_ARRAYS)
        function, constants = compiled
        Q, QD = np.asarray(Q, dtype=float), np.asarray(QD, dtype=float)
        out = np.empty((Q.shape[0], self.size))
        out[:] = constants
        function(np.ascontiguousarray(Q.T), np.ascontiguousarray(QD.T), out)
        return out

    def points_at(self, q, qd):
        """
        Return where the points are and how fast they move at ``q``, ``qd``: (k, 3), (k, 3).

        In m and m/s, in the world; only the points are computed.
        """
        moving = np.array(self.one([float(value) for value in q], [float(value) for value in qd],
                                   ('points',))[self.points]).reshape(-1, 6)
        return moving[:, :3], moving[:, 3:]

    def jacobian_of(self, row):
        """Return the tool's Jacobian [v; w] from a state ``row``: shape (6, n)."""
        return np.array(row[self.jacobian]).reshape(6, self._n)

    def jacobians(self, Q):
        """
        Return the tool's Jacobian [v; w] at each configuration of ``Q`` (m, n): (m, 6, n).

        The same source compiled two ways: fewer than :data:`batch.MIN_BATCH` configurations
        one at a time (:meth:`Chain.jacobian_function`), more as columns. On the Panda, 5.5 µs
        a configuration one at a time, 0.4 to 5.5 as 1200 to 48 columns, 220 for one alone.
        """
        Q = np.asarray(Q, dtype=float)
        if len(Q) >= MIN_BATCH:
            rows = self.columns(Q, np.zeros_like(Q), ('jacobian',))[:, self.jacobian]
        else:
            jacobian = self._chain.jacobian_function()
            rows = [jacobian(q) for q in Q.tolist()]
        return np.reshape(rows, (-1, 6, self._n))


def _values(chain, links, offsets, planes, spheres, axis):
    """Return ``(code, parts)``: each part's entries (a dict) as values of generated code."""
    table, n = DHTable(chain.links), chain.n
    code, frames = unrolled.values(table, chain.base[:3].tolist(), chain.tool.tolist(), 'frames')
    qd = [code.emit(f'qd[{j}]') for j in range(n)]
    w, u = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    twists = [(w, u)]  # the base's: at rest
    for j, link in enumerate(chain.links):
        frame = frames[16 * axis_frame(j, chain.mdh):]
        sign = -1.0 if link.flip else 1.0
        rate = [sign * frame[k] * qd[j] for k in (2, 6, 10)]  # s z qd
        if link.isprismatic():
            u = [u[i] + rate[i] for i in range(3)]
        else:
            lever = _cross([frame[3], frame[7], frame[11]], rate)  # o x s z qd
            w = [w[i] + rate[i] for i in range(3)]
            u = [u[i] + lever[i] for i in range(3)]
        twists.append((w, u))

    def point(k, offset):
        frame = frames[16 * k:]
        p = [frame[4 * i] * offset[0] + frame[4 * i + 1] * offset[1]
             + frame[4 * i + 2] * offset[2] + frame[4 * i + 3] for i in range(3)]
        w_k, u_k = twists[k]
        turned = _cross(w_k, p)
        return p, [u_k[i] + turned[i] for i in range(3)]

    momentum, energy = [0.0, 0.0, 0.0], 0.0
    constants = chain.dynamic_constants
    for k, body in enumerate(constants.rne_links, start=1):
        _, v = point(k, body.r)
        momentum = [momentum[i] + body.m * v[i] for i in range(3)]
        frame, w_k = frames[16 * k:], twists[k][0]
        w_link = [frame[i] * w_k[0] + frame[4 + i] * w_k[1] + frame[8 + i] * w_k[2]
                  for i in range(3)]  # R^T w: in the link's frame
        spin = [sum(body.inertia[i][c] * w_link[c] for c in range(3)) for i in range(3)]
        energy = energy + 0.5 * (body.m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
                                 + w_link[0] * spin[0] + w_link[1] * spin[1]
                                 + w_link[2] * spin[2])
    for motor, rate in zip(constants.floats[0], qd):
        energy = energy + 0.5 * motor * (rate * rate)
    parts = {'momentum': momentum + [energy], 'points': [], 'planes': [], 'tilt': []}
    for k, offset in zip(links, offsets):
        p, v = point(int(k), [float(value) for value in offset])
        parts['points'] += p + v
    parts['tool'] = pose = unrolled.times_constant(frames[-16:], chain.tool.tolist())[:12]
    parts['jacobian'] = unrolled.point_jacobian(table, frames, pose[3:12:4], n)
    centres = [point(int(k), [float(value) for value in offset])[0]
               for k, offset in zip(*spheres[:2])]
    for plane in planes:
        parts['planes'] += [signed_distance(plane, centre, float(radius))
                            for centre, radius in zip(centres, spheres[2])]
    if axis is not None:
        parts['tilt'] = [tilt((pose[2], pose[6], pose[10]), axis, Calls(code, _FLOATS))]
    return code, parts
