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
from dh_kinematics.core.kinematics.dh_transforms import dh_transforms
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

    def frame_pose(self, T_world_tool):
        """Return ``T_0_n``, the last link frame in frame 0, for a tool pose in the world."""
        return self._T_base_world @ T_world_tool @ self._T_tool_last

    def dh_values(self, q):
        """Return the DH values (theta in rad, d in m) of joint values ``q``, shape (n,)."""
        return np.asarray(q, dtype=float) * self._table.sign + self._table.offset

    def joint_values(self, values):
        """Return the joint values (rad, m) of DH values, shape (n,); inverse of dh_values."""
        return (np.asarray(values, dtype=float) - self._table.offset) * self._table.sign

    def link_transform(self, i, value):
        """Return ``T_{i-1}_i`` of link ``i`` (0-based) at DH value ``value``, shape (4, 4)."""
        theta, d = (self.theta[i], value) if self.prismatic[i] else (value, self.d[i])
        return dh_transforms(theta, d, self._table.fixed[i], False)

    def origin_before(self, i, T_k_i):
        """
        Return the origin of frame i-1 in frame k, given ``T_k_i`` (link ``i``, 0-based, revolute).

        In frame i that origin is ``-Rx(-alpha_i) [a_i, 0, d_i]`` whatever joint i's angle,
        which is what lets a closed form find it before knowing that angle.
        """
        a, alpha, d = self.a[i], self.alpha[i], self.d[i]
        local = -np.array([a, math.sin(alpha) * d, math.cos(alpha) * d])
        return T_k_i[:3, :3] @ local + T_k_i[:3, 3]
