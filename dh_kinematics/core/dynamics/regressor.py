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
The dynamics as a regressor: joint torques linear in the arm's dynamic parameters.

``tau = Y(q, qd, qdd) pi`` (N m or N), what :meth:`Chain.rne` gives, with 14 parameters per
joint j (:data:`PARAMETERS`, SI units):

- link j's mass ``m``, its first moment ``m r`` (kg m; r the centre of mass in link frame j)
  and its inertia about the frame's origin, ``I_o = I + m (r.r E - r r^T)`` (kg m^2: xx, xy,
  xz, yy, yz, zz), the payload folded into the last link as :meth:`Chain.rne` folds it;
- the motor's ``Jm`` (kg m^2, motor side: its column is ``G^2 qdd``), viscous ``B`` (N m s/rad,
  motor side: ``G^2 qd``) and Coulomb ``Tc+`` and ``Tc-`` (N m, motor side: ``|G|`` while
  ``qd > 0``, resp. ``qd < 0``), the friction of :func:`friction.friction_torque` with the
  gear ratio G of the model.

The rigid bodies' columns come from the one Newton-Euler code (:mod:`core.dynamics.rne`), which
is linear in ``(m, m r, I_o)``: each column is its torques for one such parameter, found as the
difference of two bodies of unit mass, so no second dynamics is written.

Not every parameter shows in the torques: :func:`base_parameters` finds the combinations that
do (Gautier's QR method: a column whose ``|R_kk|`` is below :data:`BASE_TOLERANCE` of the
largest is a combination of the columns before it).
"""

from collections import namedtuple

from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.dynamics.equations import motion, rigid_body
import numpy as np

PARAMETERS = ('m', 'mx', 'my', 'mz', 'Ixx', 'Ixy', 'Ixz', 'Iyy', 'Iyz', 'Izz', 'Jm', 'B',
              'Tc+', 'Tc-')
"""The parameters of each joint, in the order of the regressor's columns (14 per joint)."""
RIGID = 10
"""The first parameters of each joint that are its link's rigid body."""
_INERTIA = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))
BASE_TOLERANCE = 1e-8
"""A column whose ``|R_kk|`` is at most this fraction of the largest adds nothing new."""

Base = namedtuple('Base', 'columns combination names')
Base.__doc__ = """The base parameters of a regressor.

columns : tuple of int
    The independent columns, in order: ``Y[:, columns] @ beta`` gives the torques.
combination : array, shape (len(columns), 14 n)
    ``beta = combination @ pi``: each base parameter as a combination of the parameters.
names : tuple of str
    Each base parameter written out: ``'2.Izz + 1.2 3.m'`` (terms below 1e-6 of the largest
    left out).
"""


def names(dyn):
    """Return the regressor's column names, ``'<joint index>.<parameter>'`` (1-based joints)."""
    return [f'{j}.{name}' for j in range(1, dyn.n + 1) for name in PARAMETERS]


def rigid_parameters(m, r, inertia):
    """
    Return a body's 10 parameters ``(m, m r, I_o)``, in :data:`PARAMETERS`' order.

    ``m`` kg, ``r`` its centre of mass (m) and ``inertia`` (kg m^2, 3x3) about that centre, in
    the link frame; ``I_o`` is the inertia about the frame's origin (the parallel axis theorem).
    """
    r = np.asarray(r, dtype=float)
    I_o = np.asarray(inertia, dtype=float) + m * (r @ r * np.eye(3) - np.outer(r, r))
    return np.array([m, *(m * r)] + [I_o[i, k] for i, k in _INERTIA])


def symmetric(six):
    """Return the 3x3 matrix of six inertia entries in :data:`PARAMETERS`' order (xx .. zz)."""
    matrix = np.zeros((3, 3))
    for value, (i, k) in zip(six, _INERTIA):
        matrix[i, k] = matrix[k, i] = value
    return matrix


def body_of(values):
    """Return ``(m, r, inertia)`` of 10 parameters: :func:`rigid_parameters` undone (m > 0)."""
    m = float(values[0])
    r = np.asarray(values[1:4], dtype=float) / m
    return m, r, symmetric(values[4:10]) - m * (r @ r * np.eye(3) - np.outer(r, r))


def parameters(dyn):
    """Return the model's parameter vector (14 n,), in the order of :func:`names`."""
    values = []
    for link, Jm_G2, G, B, tc_pos, tc_neg in zip(
            dyn.rne_links, dyn.motor_inertia, dyn.G, dyn.B, dyn.tc_pos, dyn.tc_neg):
        Jm = Jm_G2 / (G * G) if G else 0.0
        values += list(rigid_parameters(link.m, link.r, link.inertia))
        values += [Jm, B, tc_pos, tc_neg]
    return np.array(values, dtype=float)


def regressor(dyn, q, qd, qdd):
    """
    Return ``Y`` with ``Y @ parameters(dyn)`` the torques of :meth:`Chain.rne`.

    Parameters
    ----------
    dyn : equations.Dynamics
        The arm's constants (:attr:`Chain.dynamic_constants`); only its kinematics, gravity
        and gear ratios enter ``Y``.
    q, qd, qdd : array, shape (n,) or (m, n)
        Positions (rad or m), velocities and accelerations of m samples (rates None: 0).

    Returns
    -------
    Y : array, shape (n, 14 n) or (m, n, 14 n)

    """
    q, qd, qdd, single = motion(dyn.n, q, qd, qdd)
    m, n = q.shape
    base = dyn.base_acceleration
    empty = [link._replace(m=0.0, r=(0.0, 0.0, 0.0), inertia=((0.0,) * 3,) * 3)
             for link in dyn.rne_links]
    Y = np.zeros((m, n, len(PARAMETERS) * n))

    def torques(j, r, inertia):  # link j alone, of unit mass, at r with inertia I about r
        links = list(empty)
        links[j] = empty[j]._replace(m=1.0, r=tuple(r), inertia=tuple(map(tuple, inertia)))
        return rigid_body(dyn._replace(rne_links=tuple(links)), q, qd, qdd, base)

    for j in range(n):
        first = len(PARAMETERS) * j
        point = torques(j, (0.0, 0.0, 0.0), np.zeros((3, 3)))
        Y[:, :, first] = point
        for i in range(3):  # m r: a unit mass at e_i, its own inertia taken away
            e = np.eye(3)[i]
            Y[:, :, first + 1 + i] = torques(j, e, np.outer(e, e) - np.eye(3)) - point
        for k, (a, b) in enumerate(_INERTIA):  # I_o: a unit mass at the origin, I unit
            unit = np.zeros((3, 3))
            unit[a, b] = unit[b, a] = 1.0
            Y[:, :, first + 4 + k] = torques(j, (0.0, 0.0, 0.0), unit) - point
        G = dyn.G[j]
        Y[:, j, first + 10] = G * G * qdd[:, j]
        Y[:, j, first + 11] = G * G * qd[:, j]
        Y[:, j, first + 12] = abs(G) * (qd[:, j] > 0.0)
        Y[:, j, first + 13] = abs(G) * (qd[:, j] < 0.0)
    return Y[0] if single else Y


def base_parameters(Y, names, tolerance=BASE_TOLERANCE):
    """
    Return the :data:`Base` of a regressor stacked over samples.

    Column k is independent where ``|R_kk|`` of ``Y``'s QR factorisation, in the columns'
    order, is above ``tolerance`` times the largest; each dependent column is then the
    least-squares combination of the independent ones, and its parameter adds that much to
    theirs.

    Parameters
    ----------
    Y : array, shape (..., 14 n)
        :func:`regressor` of enough samples to excite the arm, rows stacked as they come.
    names : sequence of str
        :func:`names`.
    tolerance : float
        :data:`BASE_TOLERANCE` by default.

    Returns
    -------
    Base

    """
    Y = np.reshape(Y, (-1, np.shape(Y)[-1]))
    if len(Y) < Y.shape[1]:
        raise InvalidFieldError('Y', list(Y.shape), 'must have at least as many rows as '
                                'columns (more samples)')
    diagonal = np.abs(np.diag(np.linalg.qr(Y, mode='r')))
    independent = np.nonzero(diagonal > tolerance * diagonal.max())[0]
    dependent = np.setdiff1d(np.arange(Y.shape[1]), independent)
    combination = np.zeros((len(independent), Y.shape[1]))
    combination[np.arange(len(independent)), independent] = 1.0
    if len(dependent):
        K = np.linalg.lstsq(Y[:, independent], Y[:, dependent], rcond=None)[0]
        combination[:, dependent] = K
    written = []
    for row in combination:  # weights within rounding of the row's largest left out
        least = 1e-6 * np.abs(row).max()
        terms = [(weight, name) for weight, name in zip(row.tolist(), names)
                 if abs(weight) > least]
        written.append(' '.join(
            (f'{"+ " if k and weight > 0 else "- " if k else "-" if weight < 0 else ""}'
             f'{"" if abs(abs(weight) - 1.0) <= tolerance else f"{abs(weight):.6g} "}{name}')
            for k, (weight, name) in enumerate(terms)))
    return Base(tuple(independent.tolist()), combination, tuple(written))
