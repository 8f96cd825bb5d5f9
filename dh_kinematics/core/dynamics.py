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
Inverse dynamics of a Chain: rne, gravload and the joint-space inertia matrix.

Torques include the motor inertia reflected through the gearbox (``G^2 Jm qdd``) and oppose
friction: ``tau = rigid-body torque + G^2 Jm qdd - friction(qd)``. Units are SI.
"""

import math

from dh_kinematics.core.checks import check_array, check_joint_array, InvalidFieldError
from dh_kinematics.core.link import friction_torque
from dh_kinematics.core.rne import rigid_body_torques
import numpy as np


class ChainDynamics:
    """Inverse dynamics methods of :class:`dh_kinematics.Chain` (a mixin)."""

    def _motion(self, q, qd, qdd):
        q, single = check_joint_array('q', q, self.n)
        rates = []
        for field, value in (('qd', qd), ('qdd', qdd)):
            if value is None:
                rates.append(np.zeros_like(q))
                continue
            value, value_single = check_joint_array(field, value, self.n)
            if value.shape != q.shape or value_single != single:
                wanted = (self.n,) if single else q.shape
                raise InvalidFieldError(field, np.shape(value[0] if value_single else value),
                                        f'must have the shape of q, {wanted}')
            rates.append(value)
        return q, rates[0], rates[1], single

    def _gravity_acceleration(self, gravity):
        """Base-frame linear acceleration that stands in for gravity: -R_base^T g."""
        if gravity is None:
            return self._base_acceleration
        gravity = check_array('gravity', gravity, [(3,)])
        return tuple((-self._base[:3, :3].T @ gravity).tolist())

    def _rigid_body(self, q, qd, qdd, base_acceleration, fext, single):
        """Rigid-body torques, shape (m, n); fext is None or an array of shape (m, 6)."""
        if single:
            theta, d = self._dh_floats(q[0].tolist())
            ct, st = [math.cos(t) for t in theta], [math.sin(t) for t in theta]
            columns = (d, qd[0].tolist(), qdd[0].tolist())
            fext = (0.0,) * 6 if fext is None else tuple(fext[0].tolist())
        else:
            theta, d = self._dh_values(q)
            ct, st = np.cos(theta.T), np.sin(theta.T)
            columns = (np.ascontiguousarray(d.T), np.ascontiguousarray(qd.T),
                       np.ascontiguousarray(qdd.T))
            fext = (0.0,) * 6 if fext is None else tuple(np.ascontiguousarray(fext.T))
        tau = rigid_body_torques(self.mdh, self._rne_links, ct, st, *columns,
                                 base_acceleration, fext)
        return np.array(tau)[None] if single else np.array(tau).T

    def rne(self, q, qd=None, qdd=None, gravity=None, fext=None):
        """
        Joint torques for a motion: recursive Newton-Euler inverse dynamics.

        Parameters
        ----------
        q, qd, qdd : array-like, shape (n,) or (m, n)
            Joint positions (rad, m), velocities and accelerations; qd and qdd default to 0.
        gravity : array-like, shape (3,), optional
            Gravitational acceleration in the world frame (m/s^2); the chain's by default.
        fext : array-like, shape (6,) or (m, 6), optional
            Wrench [Fx Fy Fz Mx My Mz] (N, N m) that the last link frame exerts on the
            environment, in that frame, about its origin.

        Returns
        -------
        tau : array, shape (n,) or (m, n)
            Joint torques (N m) or forces (N):
            rigid-body torque + G^2 Jm qdd - friction(qd).

        """
        q, qd, qdd, single = self._motion(q, qd, qdd)
        if fext is not None:
            fext = check_array('fext', fext, [(6,)] if single else [(6,), (q.shape[0], 6)])
            fext = np.broadcast_to(fext, (q.shape[0], 6))
        tau = self._rigid_body(q, qd, qdd, self._gravity_acceleration(gravity), fext, single)
        tau += self._motor_inertia * qdd
        tau -= friction_torque(qd, self._G, self._B, self._tc_pos, self._tc_neg)
        return tau[0] if single else tau

    def gravload(self, q, gravity=None):
        """
        Joint torques (N m) or forces (N) that hold the arm still against gravity.

        Returns
        -------
        tau : array, shape (n,) or (m, n)

        """
        return self.rne(q, gravity=gravity)

    def inertia(self, q):
        """
        Joint-space inertia matrix, including the reflected motor inertia G^2 Jm.

        Returns
        -------
        M : array, shape (n, n) or (m, n, n)
            In kg m^2 (revolute) or kg (prismatic) rows and columns.

        """
        q, single = check_joint_array('q', q, self.n)
        m, n = q.shape
        repeated = np.repeat(q, n, axis=0)
        unit = np.tile(np.eye(n), (m, 1))
        zero = np.zeros_like(repeated)
        tau = self._rigid_body(repeated, zero, unit, (0.0, 0.0, 0.0), None, False)
        M = (tau + self._motor_inertia * unit).reshape(m, n, n).transpose(0, 2, 1)
        return M[0] if single else M
