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
Inverse dynamics of a chain: friction, rne and the joint-space inertia matrix.

Functions over :class:`Dynamics`, a record of the constants they need, which :class:`Chain`
builds once. Torques include the motor inertia reflected through the gearbox (``G^2 Jm qdd``)
and oppose friction: ``tau = rigid-body torque + G^2 Jm qdd - friction(qd)``. Units are SI.
"""

from collections import namedtuple
import math

from dh_kinematics.core.checks import check_array, check_joint_array, InvalidFieldError
from dh_kinematics.core.dynamics.friction import friction_torque
from dh_kinematics.core.dynamics.payload import fold, NO_PAYLOAD
from dh_kinematics.core.dynamics.rne import LinkConstants, rigid_body_torques
import numpy as np

ROUNDING = 1e-14
"""Relative to the largest entry of an inertia matrix, what is rounding of zero."""
Dynamics = namedtuple('Dynamics', 'n table rne_links motor_inertia G B tc_pos tc_neg '
                                  'R_world_base base_acceleration floats')
Dynamics.__doc__ = """The constants of a chain's dynamics.

n : int
    Number of joints.
table : DHTable
    The DH table and its joint substitution.
rne_links : tuple of LinkConstants
    Per link: joint type, flip, a, cos and sin of alpha, mass, centre of mass and inertia.
motor_inertia : array, shape (n,)
    ``G^2 Jm``, kg m^2.
G, B, tc_pos, tc_neg : array, shape (n,)
    Gear ratio, viscous friction (N m s/rad) and Coulomb friction (N m), motor side.
R_world_base : array, shape (3, 3)
    Orientation of the base frame in the world.
base_acceleration : tuple of 3 floats
    ``-R_world_base^T g`` for the chain's gravity g: what stands in for gravity, m/s^2.
floats : tuple of 5 lists
    motor_inertia, G, B, tc_pos and tc_neg as lists of Python floats.
"""


def dynamics(links, table, T_world_base, gravity, payload=NO_PAYLOAD, T_last_tool=None):
    """
    Return the :class:`Dynamics` record of ``links`` (see :class:`Chain` for the rest).

    ``payload`` (:mod:`core.dynamics.payload`) is folded into the last link, through
    ``T_last_tool``.
    """
    def column(field):
        return np.array([getattr(link, field) for link in links], dtype=float)

    G = column('G')
    R_world_base = T_world_base[:3, :3]
    masses = [(link.m, link.r, link.I) for link in links]
    masses[-1] = fold(*masses[-1], payload, np.eye(4) if T_last_tool is None else T_last_tool)
    rne_links = tuple(
        LinkConstants(
            link.isprismatic(), sign, link.a, math.cos(link.alpha), math.sin(link.alpha),
            float(m), tuple(r.tolist()), tuple(map(tuple, I.tolist())), math.cos(link.beta),
            math.sin(link.beta))
        for link, sign, (m, r, I) in zip(links, table.sign.tolist(), masses))
    columns = (column('Jm') * G ** 2, G, column('B'), np.array([link.Tc[0] for link in links]),
               np.array([link.Tc[1] for link in links]))
    return Dynamics(len(links), table, rne_links, *columns, R_world_base,
                    _base_acceleration(R_world_base, gravity),
                    tuple(column.tolist() for column in columns))


def _base_acceleration(R_world_base, gravity):
    """Return the base-frame acceleration that stands in for gravity: ``-R^T g``, m/s^2."""
    return tuple((-R_world_base.T @ gravity).tolist())


def friction(dyn, qd):
    """Return the friction torques (N m) or forces (N) at velocities ``qd`` of shape (m, n)."""
    return friction_torque(qd, dyn.G, dyn.B, dyn.tc_pos, dyn.tc_neg)


def motion(n, q, qd, qdd):
    """
    Return ``(q, qd, qdd, single)`` checked: arrays (m, n), the rates zero where None.

    ``single`` tells whether q was one configuration (n,); each rate must have q's shape.
    """
    q, single = check_joint_array('q', q, n)
    rates = []
    for field, value in (('qd', qd), ('qdd', qdd)):
        if value is None:
            rates.append(np.zeros_like(q))
            continue
        value, value_single = check_joint_array(field, value, n)
        if value.shape != q.shape or value_single != single:
            wanted = (n,) if single else q.shape
            raise InvalidFieldError(field, np.shape(value[0] if value_single else value),
                                    f'must have the shape of q, {wanted}')
        rates.append(value)
    return q, rates[0], rates[1], single


def rigid_body(dyn, q, qd, qdd, base_acceleration, fext=None):
    """
    Return the rigid bodies' torques (N m or N), shape (m, n), for checked q, qd, qdd (m, n).

    No motor inertia, no friction; ``fext`` is None or an array of shape (m, 6).
    """
    single = len(q) == 1  # floats: ten times faster than arrays of one
    if single:
        theta, d = dyn.table.floats(q[0].tolist())
        ct, st = [math.cos(t) for t in theta], [math.sin(t) for t in theta]
        columns = (d, qd[0].tolist(), qdd[0].tolist())
        fext = None if fext is None else tuple(fext[0].tolist())
    else:
        theta, d = dyn.table.values(q)
        ct, st = np.cos(theta.T), np.sin(theta.T)
        # Every value a full (m,) array: the code adds in place, which a broadcast d of one
        # row (no prismatic joint) could not take.
        columns = (np.ascontiguousarray(np.broadcast_to(d, theta.shape).T),
                   np.ascontiguousarray(qd.T), np.ascontiguousarray(qdd.T))
        fext = None if fext is None else tuple(np.ascontiguousarray(fext.T))
    tau = rigid_body_torques(dyn.table.mdh, dyn.rne_links, ct, st, *columns,
                             base_acceleration, fext)
    return np.array(tau)[None] if single else np.array(tau).T


def rne(dyn, q, qd=None, qdd=None, gravity=None, fext=None):
    """Return the joint torques of a motion; see :meth:`Chain.rne` for the arguments."""
    q, qd, qdd, single = motion(dyn.n, q, qd, qdd)
    if fext is not None:
        fext = check_array('fext', fext, [(6,)] if single else [(6,), (q.shape[0], 6)])
        fext = np.broadcast_to(fext, (q.shape[0], 6))
    if gravity is None:
        base_acceleration = dyn.base_acceleration
    else:
        gravity = check_array('gravity', gravity, [(3,)])
        base_acceleration = _base_acceleration(dyn.R_world_base, gravity)
    tau = rigid_body(dyn, q, qd, qdd, base_acceleration, fext)
    tau += dyn.motor_inertia * qdd
    tau -= friction(dyn, qd)
    return tau[0] if single else tau


def joint_torques(dyn, q, qd=None, qdd=None):
    """
    Return :func:`rne` for one configuration, in Python floats (a list of n; no checks).

    :mod:`core.dynamics.rne` with the chain's gravity and no external wrench: ``q``, ``qd``
    and ``qdd`` are sequences of n floats (rad or m, per s, per s^2); without ``qd`` and ``qdd``
    it is the gravity load. sim_arm uses it; the node runs the same code compiled
    (:mod:`core.dynamics.rne_unrolled`). A test checks it against :func:`rne`.
    """
    theta, d = dyn.table.floats(q)
    ct, st = [math.cos(t) for t in theta], [math.sin(t) for t in theta]
    mdh, links, base = dyn.table.mdh, dyn.rne_links, dyn.base_acceleration
    if qd is None and qdd is None:
        return rigid_body_torques(mdh, links, ct, st, d, None, None, base)
    zero = [0.0] * dyn.n
    qd, qdd = qd or zero, qdd or zero
    tau = rigid_body_torques(mdh, links, ct, st, d, qd, qdd, base)
    return with_motors(dyn, tau, qd, qdd)


def with_motors(dyn, tau, qd, qdd):
    """Add motor inertia and friction to rigid-body torques ``tau`` (lists of n floats, SI)."""
    motor, G, B, tc_pos, tc_neg = dyn.floats
    return [t + m * a - friction_torque(v, g, b, p, n) for t, m, a, v, g, b, p, n in zip(
        tau, motor, qdd, qd, G, B, tc_pos, tc_neg)]


def inertia(dyn, q, centres):
    """
    Return the joint-space inertia matrix; see :meth:`Chain.inertia`.

    ``centres(Q)`` gives, at each configuration of ``Q`` (m, n), the chain's
    :meth:`Chain.points_function` of its links' centres of mass (link frames 1 to n,
    ``rne_links``' r): per link its centre, its frame's rotation and its Jacobian [v; w]. An
    entry within rounding of zero (:data:`ROUNDING` of the largest) is 0: a
    joint about which nothing beyond it has inertia has none, not 1e-34 kg m^2.
    """
    q, single = check_joint_array('q', q, dyn.n)
    n = dyn.n
    mass = np.array([link.m for link in dyn.rne_links])
    I_link = np.array([link.inertia for link in dyn.rne_links])
    motors = np.diag(dyn.motor_inertia)
    # Per configuration and link: its centre, R_world_link and Jacobian; then every sum at once.
    values = np.reshape(centres(q), (len(q), n, 12 + 6 * n))
    R, J = values[..., 3:12].reshape(-1, n, 3, 3), values[..., 12:].reshape(-1, n, 6, n)
    Jv, Jw = J[:, :, :3], J[:, :, 3:]
    I_world = R @ I_link @ np.swapaxes(R, -1, -2)
    M = (np.swapaxes(Jv, -1, -2) @ (mass[:, None, None] * Jv)
         + np.swapaxes(Jw, -1, -2) @ (I_world @ Jw)).sum(axis=1) + motors
    M[np.abs(M) <= ROUNDING * np.abs(M).max(axis=(1, 2), keepdims=True)] = 0.0
    return M[0] if single else M
