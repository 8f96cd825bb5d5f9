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
The numbers of a DH table, and how joint values enter it.

A joint value ``q`` (rad or m) becomes ``q * sign + offset``, with ``sign = -1`` for a flipped
joint; it replaces ``theta`` of a revolute link and ``d`` of a prismatic one. :class:`DHTable`
does this substitution for batches (numpy) and for one configuration (Python floats, faster
than numpy for a handful of joints), and composes the link transforms and poses from it.
"""

from dh_kinematics.core.kinematics.dh_transforms import (
    chain_poses, dh_transforms, fixed_transforms, link_poses, twist_constants)
from dh_kinematics.core.kinematics.poses_unrolled import compile_link_poses
import numpy as np


def axis_frame(j, mdh):
    """
    Return the frame whose z axis is joint ``j``'s (0-based): its index, 0 (the base) to n.

    Modified DH puts joint j on link j+1's own frame, standard DH on the frame before it.
    """
    return j + 1 if mdh else j


def joint_axes(chain, T_world_frames):
    """
    Return each joint's axis and a point on it, in the world, with its flip sign applied.

    Parameters
    ----------
    chain : Chain
        The arm.
    T_world_frames : array, shape (..., n+1, 4, 4)
        :meth:`Chain.fkine_all` at one configuration or several.

    Returns
    -------
    z : array, shape (..., n, 3)
        Unit axes times the flip sign (+1 or -1).
    o : array, shape (..., n, 3)
        A point on each axis, m.

    """
    first = axis_frame(0, chain.mdh)
    frames = T_world_frames[..., first:first + chain.n, :, :]
    sign = np.array([-1.0 if link.flip else 1.0 for link in chain.links])
    return frames[..., :3, 2] * sign[:, None], frames[..., :3, 3]


class DHTable:
    """
    The DH parameters of a chain's links as columns, with the joint substitution.

    Parameters
    ----------
    links : sequence of Link
        The links, all standard or all modified DH.

    """

    def __init__(self, links):
        def column(field):
            return np.array([getattr(link, field) for link in links], dtype=float)

        self.mdh = links[0].mdh
        self.a, self.alpha, self.d, self.theta = map(column, ('a', 'alpha', 'd', 'theta'))
        self.beta = column('beta')
        self.offset = column('offset')
        self.sign = np.array([-1.0 if link.flip else 1.0 for link in links])
        self.prismatic = np.array([link.isprismatic() for link in links])
        self.fixed = fixed_transforms(self.a, self.alpha, self.beta)
        self._any_prismatic = bool(self.prismatic.any())
        self._a_list, self._alpha_list = self.a.tolist(), self.alpha.tolist()
        self._cos_alpha, self._sin_alpha = np.cos(self.alpha).tolist(), np.sin(self.alpha).tolist()
        self._rows = tuple(zip(self.prismatic.tolist(), self.sign.tolist(),
                               self.offset.tolist(), self.theta.tolist(), self.d.tolist()))
        self._twists = tuple(twist_constants(a, alpha, beta) for a, alpha, beta in zip(
            self._a_list, self._alpha_list, self.beta.tolist()))
        # Hayati's beta, (cos, sin) per link, where a link has one (chain_poses).
        self.hayati = (tuple(zip(np.cos(self.beta).tolist(), np.sin(self.beta).tolist()))
                       if self.beta.any() else None)
        # A standard DH link's joint moves Rz(theta) Tz(d), the link's a = alpha = 0 part.
        self._joint_twists = self._twists if self.mdh else (twist_constants(0.0, 0.0),) * len(
            links)
        self._all = tuple(range(len(links)))
        self._all_poses = self._all_joint_poses = None  # compiled on first use

    twists = property(lambda self: self._twists,
                      doc='Per link :func:`dh_transforms.twist_constants` of its a, alpha, beta.')

    def values(self, q):
        """
        Return theta (rad) and d (m) of every link for joint values ``q`` of shape (m, n).

        Either may come back with shape (1, n) when it does not depend on q.
        """
        value = q * self.sign + self.offset
        if not self._any_prismatic:
            return value, self.d[None, :]
        theta = np.where(self.prismatic, self.theta, value)
        d = np.where(self.prismatic, value, self.d)
        return theta, d

    def floats(self, q, joints=None):
        """Return theta (rad) and d (m) lists for float joint values: all joints, or ``joints``."""
        rows = self._rows if joints is None else [self._rows[j] for j in joints]
        theta, d = [], []
        for value, (prismatic, sign, offset, theta0, d0) in zip(q, rows):
            value = value * sign + offset
            theta.append(theta0 if prismatic else value)
            d.append(value if prismatic else d0)
        return theta, d

    def transforms(self, q):
        """
        Return each link's transform ``A_i(q_i)`` for joint values of shape (m, n).

        Returns
        -------
        T_prev_link : array, shape (m, n, 4, 4)

        """
        theta, d = self.values(q)
        return dh_transforms(theta, d, self.fixed, self.mdh)

    def poses(self, joints, q):
        """
        Return the chosen links' own transforms as translations and quaternions, in floats.

        Parameters
        ----------
        joints : sequence of int
            Joint indices (model order).
        q : sequence of float
            Their values, rad or m.

        Returns
        -------
        flat : list of float, length 7 len(joints)
            Per joint [x, y, z, qx, qy, qz, qw] (m; unit quaternion in ROS order, qw >= 0).

        """
        if joints == self._all:
            if self._all_poses is None:
                self._all_poses = compile_link_poses(self, self._twists)
            return self._all_poses(q)
        theta, d = self.floats(q, joints)
        return link_poses(theta, d, [self._twists[j] for j in joints], self.mdh)

    def frame_poses(self, q, T_world_base, base_rows):
        """
        Return the poses of frames 0 to n in the world for joint values of shape (m, n).

        ``base_rows`` is ``T_world_base[:3].tolist()``, for the float path that one
        configuration takes (Python floats beat numpy's per-call overhead there).

        Returns
        -------
        T_world_frames : array, shape (m, n+1, 4, 4)
            [base, base A1, ..., base A1...An].

        """
        n = len(self.a)
        if q.shape[0] == 1:
            flat = self.chain_poses(q[0].tolist(), base_rows)
            return np.fromiter(flat, float, len(flat)).reshape(1, n + 1, 4, 4)
        A = self.transforms(q)
        T = np.empty((q.shape[0], n + 1, 4, 4))
        T[:, 0] = T_world_base
        for i in range(n):
            np.matmul(T[:, i], A[:, i], out=T[:, i + 1])
        return T

    def joint_poses(self, joints, q):
        """
        Return the motion of the chosen joints as the URDF has it, in floats: what /tf carries.

        A modified DH link's joint moves its whole transform ``A_i(q_i)`` (as :meth:`poses`); a
        standard DH link's moves ``Rz(theta) Tz(d)``, from the parent's frame to the link's
        axis frame (see :mod:`core.urdf.writer`), the link's ``Tx(a) Rx(alpha)`` being fixed after
        it. Where ``a`` and ``alpha`` are 0 that is the link's own transform.

        Returns
        -------
        flat : list of float, length 7 len(joints)
            Per joint [x, y, z, qx, qy, qz, qw] (m; unit quaternion in ROS order, qw >= 0).

        """
        if joints == self._all:
            if self._all_joint_poses is None:
                self._all_joint_poses = compile_link_poses(self, self._joint_twists)
            return self._all_joint_poses(q)
        theta, d = self.floats(q, joints)
        return link_poses(theta, d, [self._joint_twists[j] for j in joints], self.mdh)

    def chain_poses(self, q, base_rows):
        """
        Return the poses of frames 0 to n for one configuration of floats.

        ``base_rows`` is the top three rows of ``T_world_base``, as lists of floats.

        Returns
        -------
        flat : list of float, length 16 (n+1)
            [base, base A1, ..., base A1...An], each 4x4 row-major.

        """
        return chain_poses(*self.floats(q), self._a_list, self._cos_alpha, self._sin_alpha,
                           base_rows, self.mdh, self.hayati)
