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
A 6-joint chain as standard DH constants, the common ground of the closed-form solvers.

A closed form is written once, for standard DH: link i moves ``Rz(theta_i) Tz(d_i)`` and is
then ``Tx(a_i) Rx(alpha_i)``. A modified DH chain is first re-expressed in standard DH
(:func:`core.kinematics.conventions.converted`: the same joint lines and the same joint values,
with the base and tool absorbing the difference), so one solver serves both conventions. The
solvers work on DH values (theta of a revolute joint, d of a prismatic one) and on the pose
of frame 6 in frame 0; :class:`Geometry` maps both to and from the chain's joint values and
world poses, so offsets, flips, base and tool are handled here, once.
"""

import math

from dh_kinematics.core.kinematics import conventions
from dh_kinematics.core.kinematics.dh_table import DHTable
import numpy as np

# Lengths (m) and sines below this count as zero when a closed form is chosen.
ZERO = 1e-9


class Geometry:
    """
    The standard DH constants of a chain, and its joint values as DH values.

    Parameters
    ----------
    chain : Chain
        Any chain; a modified DH one is converted to standard DH.

    Attributes
    ----------
    n : int
        Number of joints.
    a, alpha, d, theta : array, shape (n,)
        Standard DH constants (m, rad); ``d`` of a prismatic joint and ``theta`` of a revolute
        one are the joint's own (unused).
    prismatic : array of bool, shape (n,)
    hayati : bool
        True when a link has a Hayati beta (no closed form here takes one).

    """

    def __init__(self, chain):
        standard = conventions.converted(chain, 'standard')
        self._table = table = DHTable(standard.links)
        self.n = len(standard.links)
        self.a, self.alpha, self.d, self.theta = table.a, table.alpha, table.d, table.theta
        self.prismatic = table.prismatic
        self.hayati = table.hayati is not None
        self._T_base_world = np.linalg.inv(standard.base)
        self._T_tool_last = np.linalg.inv(standard.tool)
        self._constants = {}

    def constant(self, name, compute):
        """Return the constant ``name`` of a closed form, ``compute()`` on first use."""
        if name not in self._constants:
            self._constants[name] = compute()
        return self._constants[name]

    def frame_pose(self, T_world_tool):
        """Return ``T_0_n``, the last link frame in frame 0, for tool poses (..., 4, 4)."""
        return self._T_base_world @ T_world_tool @ self._T_tool_last

    def dh_values(self, q):
        """Return the DH values (theta in rad, d in m) of joint values ``q``, shape (..., n)."""
        return np.asarray(q, dtype=float) * self._table.sign + self._table.offset

    def joint_values(self, values):
        """Return the joint values (rad, m) of DH values, shape (..., n); inverse of dh_values."""
        return (np.asarray(values, dtype=float) - self._table.offset) * self._table.sign

    def from_link(self, i, value, x, point=True):
        """
        Return a point (or direction) given in link ``i``'s frame in frame i-1: ``A_i x``.

        ``value`` is joint i's DH value (0-based ``i``), ``x`` three arrays (or floats) that
        broadcast with it; returns three arrays. Written out, with no 4x4 products.
        """
        ca, sa = math.cos(self.alpha[i]), math.sin(self.alpha[i])
        theta, d = (self.theta[i], value) if self.prismatic[i] else (value, self.d[i])
        c, s = np.cos(theta), np.sin(theta)
        x0, x1, x2 = x
        y0, y1, y2 = x0 + self.a[i] * point, ca * x1 - sa * x2, sa * x1 + ca * x2
        return c * y0 - s * y1, s * y0 + c * y1, y2 + d * point

    def to_link(self, i, value, x, point=True):
        """Return a point (or direction) given in frame i-1 in link ``i``'s: ``A_i^-1 x``."""
        ca, sa = math.cos(self.alpha[i]), math.sin(self.alpha[i])
        theta, d = (self.theta[i], value) if self.prismatic[i] else (value, self.d[i])
        c, s = np.cos(theta), np.sin(theta)
        x0, x1, x2 = x
        y0, y1, y2 = c * x0 + s * x1 - self.a[i] * point, c * x1 - s * x0, x2 - d * point
        return y0, ca * y1 + sa * y2, ca * y2 - sa * y1

    def origin_before(self, i, T_k_i):
        """
        Return the origin of frame i-1 in frame k, given ``T_k_i`` (link ``i``, 0-based, revolute).

        In frame i that origin is ``-Rx(-alpha_i) [a_i, 0, d_i]`` whatever joint i's angle,
        which is what lets a closed form find it before knowing that angle. ``T_k_i`` has shape
        (..., 4, 4), the origin (..., 3).
        """
        a, alpha, d = self.a[i], self.alpha[i], self.d[i]
        local = -np.array([a, math.sin(alpha) * d, math.cos(alpha) * d])
        return T_k_i[..., :3, :3] @ local + T_k_i[..., :3, 3]


def apply(T, x, point=True):
    """
    Return ``T x`` for poses T (m, 4, 4) and a point (or direction) x: three arrays (m, ...).

    Written out, each entry of T broadcast over x's trailing axes.
    """
    x0, x1, x2 = x
    T = T.reshape(T.shape + (1,) * (np.ndim(x0) - 1))
    return tuple(T[:, r, 0] * x0 + T[:, r, 1] * x1 + T[:, r, 2] * x2 + T[:, r, 3] * point
                 for r in range(3))
