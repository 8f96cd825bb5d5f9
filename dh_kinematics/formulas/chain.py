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
A chain's formulas: each link's transform, the forward kinematics, the Jacobian, the dynamics.

:class:`SymbolicChain` takes a numeric :class:`~dh_kinematics.Chain` (from a model file, or
built in Python) and gives the matrices a lecture derives, as SymPy expressions in the joint
variables ``q1 .. qn`` (and ``qd``, ``qdd`` for the dynamics). Every number is exact
(:mod:`formulas.exact`: ``pi/2`` stays ``pi/2``); any DH or dynamic parameter can stay a symbol
(``keep=('a2', 'd4')``: the parameter, then the joint's number from 1), or be any SymPy
expression (``values={'a2': L}``). Why a twin of the Chain rather than symbols inside it: the
numeric core stays floats and numpy (it never imports SymPy), and the twin is built from the
model file the node reads, so the formulas are those of the arm the node runs.

Conventions are the core's: standard DH ``A = Rz(theta) Tz(d) Tx(a) Rx(alpha) [Ry(beta)]``,
modified ``A = Tx(a) Rx(alpha) [Ry(beta)] Rz(theta) Tz(d)``, a joint value ``q`` entering as
``q * sign + offset`` (``sign`` -1 for a flipped joint) into theta (revolute) or d
(prismatic). The dynamics run the core's own Newton-Euler arithmetic
(:mod:`core.dynamics.rne`, written for floats and symbols alike) on these exact values, plus
the motors' ``G^2 Jm qdd`` and the friction.
"""

import re

from dh_kinematics.core.dynamics.rne import LinkConstants, rigid_body_torques
from dh_kinematics.core.kinematics.dh_table import DHTable, joint_axes
from dh_kinematics.core.kinematics.unrolled import point_jacobian
from dh_kinematics.core.rotations import matrix_to_rpy
from dh_kinematics.formulas.exact import cleaned, exact
import numpy as np
import sympy

KEPT = ('a', 'alpha', 'd', 'theta', 'offset', 'beta', 'm', 'r', 'I', 'Jm', 'G', 'B')
"""The per-joint parameters that may stay symbols: ``<name><joint number from 1>``."""
_KEEP = re.compile(r'(a|alpha|d|theta|offset|beta|m|r|I|Jm|G|B)([1-9][0-9]*)')
_GEOMETRY = ('a', 'alpha', 'd', 'theta', 'offset', 'beta')
_ANGLES = ('alpha', 'theta', 'offset', 'beta')
PARALLEL = 1e-12
"""Joint axes whose unit directions' cross product is below this are parallel."""


def rot(axis, angle):
    """Return the 4x4 homogeneous rotation about x, y or z by ``angle``."""
    c, s = sympy.cos(angle), sympy.sin(angle)
    R = {'x': [[1, 0, 0], [0, c, -s], [0, s, c]], 'y': [[c, 0, s], [0, 1, 0], [-s, 0, c]],
         'z': [[c, -s, 0], [s, c, 0], [0, 0, 1]]}[axis]
    return sympy.Matrix([row + [0] for row in R] + [[0, 0, 0, 1]])


def trans(x=0, y=0, z=0):
    """Return the 4x4 homogeneous translation by (x, y, z)."""
    return sympy.Matrix([[1, 0, 0, x], [0, 1, 0, y], [0, 0, 1, z], [0, 0, 0, 1]])


def pose(xyz, rpy):
    """Return ``Trans(xyz) Rz(yaw) Ry(pitch) Rx(roll)``, the URDF's origin convention."""
    return (trans(*xyz) * rot('z', rpy[2]) * rot('y', rpy[1]) * rot('x', rpy[0]))


class SymbolicChain:
    """
    The formulas of a chain, in its joint variables.

    Parameters
    ----------
    chain : Chain
        The model.
    keep : sequence of str
        Parameters left as symbols, as ``a2``, ``d4``, ``alpha1``, ``m3`` (:data:`KEPT`):
        ``r2`` is the centre of mass ``(r2x, r2y, r2z)``, ``I2`` the inertia about it (``I2xx``
        .. ``I2zz``, symmetric), ``Jm2``, ``G2`` and ``B2`` the motor's inertia, gear ratio and
        viscous friction. A kept ``r`` or ``I`` of the last link replaces its mass properties
        with the payload folded in.
    values : dict, optional
        Parameters given as SymPy expressions, by the same names.
    joints : str
        The joint variables' name: ``q`` gives ``q1 .. qn`` (and ``qd1``, ``qdd1`` ..).
    simplify : bool
        Simplify each transform and the Jacobian once composed (``trigsimp``: ``sin(q2 +
        q3)``; seconds for a six-joint arm), where two revolute joints turn about axes that
        stay parallel (or a kept angle may make them so). Elsewhere it cannot shorten them:
        a pose is linear in each joint's sine and cosine, so only such angle sums form (the
        Panda has none: 43 s of trigsimp on its pose gave the same 6,135 characters). The
        dynamics are left as the recursion builds them (:func:`sympy.simplify` them where
        wanted: minutes on a six-joint arm). False for formulas only to evaluate.

    Attributes
    ----------
    q, qd, qdd : tuple of sympy.Symbol
        The joint variables (rad or m) and their rates.
    parameters : dict
        Every parameter left a symbol, by name.

    """

    def __init__(self, chain, keep=(), values=None, joints='q', simplify=True):
        self.chain = chain
        n = chain.n
        if not re.fullmatch(r'[A-Za-z_]\w*', joints, re.ASCII):
            raise ValueError(f'joints: must be a name such as q, got {joints!r}')
        self.q = sympy.symbols(f'{joints}1:{n + 1}', real=True)
        self.qd = sympy.symbols(f'{joints}d1:{n + 1}', real=True)
        self.qdd = sympy.symbols(f'{joints}dd1:{n + 1}', real=True)
        given = dict(values or {})
        self.parameters = {}
        variables = {str(symbol) for symbol in self.q + self.qd + self.qdd}
        for name in keep:
            self._check_name(name, 'keep', n)
            self.parameters[name] = _symbols(name)
            clash = sorted(str(symbol) for symbol in self.parameters[name].free_symbols
                           if str(symbol) in variables)
            if clash:
                raise ValueError(f'joints: {joints!r} names a joint variable {clash[0]}, as '
                                 f'keep names {name!r}: one symbol for both would make every '
                                 'formula wrong; choose another name for the joints (q)')
        for name in given:
            self._check_name(name, 'values', n)
        self._given = dict(self.parameters, **given)
        self._simplify = simplify and self._angle_sums_form()
        self._rows = [self._link(j, link) for j, link in enumerate(chain.links)]
        self._base = self._pose(chain.base)
        self._tool = self._pose(chain.tool)
        self._composed = None

    def _angle_sums_form(self):
        """Tell whether two revolute joints turn about axes parallel at every configuration."""
        if any(_KEEP.fullmatch(name).group(1) in _ANGLES for name in self._given):
            return True  # a kept or given angle may make axes parallel
        chain = self.chain
        z, _ = joint_axes(chain, chain.fkine_all(np.zeros(chain.n)))
        revolute = [j for j, link in enumerate(chain.links) if link.isrevolute()]
        # Past the next revolute joint, an axis moves with it: only the next one can stay
        # parallel (prismatic joints between turn nothing).
        return any(np.linalg.norm(np.cross(z[i], z[j])) < PARALLEL
                   for i, j in zip(revolute, revolute[1:]))

    @staticmethod
    def _check_name(name, field, n):
        match = _KEEP.fullmatch(name)
        if match is None or not 1 <= int(match.group(2)) <= n:
            raise ValueError(f'{field}: {name!r} is not a parameter of a joint 1 to {n}: '
                             f'{", ".join(KEPT)} and the joint number, such as a2 or d4')

    def _value(self, name, j, number):
        key = f'{name}{j + 1}'
        if key in self._given:
            return self._given[key]
        return exact(number, angle=name in _ANGLES)

    def _vector(self, name, j, numbers):
        """Return a kept or given vector or matrix parameter, else the numbers made exact."""
        key = f'{name}{j + 1}'
        if key in self._given:
            return sympy.Matrix(self._given[key]).tolist() if name == 'I' else list(
                sympy.Matrix(self._given[key]))
        if name == 'I':
            return [[exact(value) for value in row] for row in numbers]
        return [exact(value) for value in numbers]

    def _link(self, j, link):
        value = {name: self._value(name, j, getattr(link, name)) for name in _GEOMETRY}
        sign = -1 if link.flip else 1
        joint = self.q[j] * sign + value['offset']
        theta, d = (value['theta'], joint) if link.isprismatic() else (joint, value['d'])
        return value, theta, d, sign

    def _pose(self, T):
        return pose([exact(v) for v in T[:3, 3]], [exact(v, angle=True)
                                                   for v in matrix_to_rpy(T[:3, :3])])

    def _tidy(self, matrix):
        """Simplify (where asked), then make whole-number floats the arithmetic left exact."""
        return matrix.applyfunc(self._tidy_entry)

    def _tidy_entry(self, expression):
        return cleaned(sympy.trigsimp(expression) if self._simplify else expression)

    def A(self, j):
        """
        Return link ``j``'s transform ``A_j(q_j)`` (0-based), frame j-1 to frame j.

        Returns
        -------
        T_prev_link : sympy.Matrix, shape (4, 4)

        """
        return self._tidy(self._link_transform(j))

    def _link_transform(self, j):
        value, theta, d, _ = self._rows[j]
        fixed = trans(x=value['a']) * rot('x', value['alpha'])
        if value['beta'] != 0:
            fixed = fixed * rot('y', value['beta'])
        joint = rot('z', theta) * trans(z=d)
        return fixed * joint if self.chain.mdh else joint * fixed

    def _poses(self):
        """Return the world poses of the base, each link frame and the tool, unsimplified."""
        if self._composed is None:
            poses = [self._base]
            for j in range(self.chain.n):
                poses.append(poses[-1] * self._link_transform(j))
            self._composed = poses + [poses[-1] * self._tool]
        return self._composed

    def fkine_all(self):
        """
        Return the world pose of the base and of each link frame, as ``Chain.fkine_all``.

        Returns
        -------
        T_world_frames : list of sympy.Matrix, length n + 1

        """
        return [self._tidy(T) for T in self._poses()[:-1]]

    def fkine(self):
        """Return ``T_world_tool``, the tool's pose in the world (sympy.Matrix, 4x4)."""
        return self._tidy(self._poses()[-1])

    def fkine_entries(self):
        """
        Yield ``(i, j, T_world_tool[i, j])`` over the top three rows, each entry as it is done.

        The entries of :meth:`fkine`, simplified one at a time: a long arm's take seconds each,
        so that a caller can show each as it comes.
        """
        T = self._poses()[-1]
        for i in range(3):
            for j in range(4):
                yield i, j, self._tidy_entry(T[i, j])

    def jacob0(self):
        """
        Return the tool's geometric Jacobian in the world frame, as ``Chain.jacob0``.

        Returns
        -------
        J : sympy.Matrix, shape (6, n)
            Rows vx vy vz (m/s) and wx wy wz (rad/s) per unit joint rate.

        """
        poses, n = self._poses(), self.chain.n
        frames = [entry for T in poses[:-1] for entry in T]  # row-major, as the core's
        entries = point_jacobian(DHTable(self.chain.links), frames, list(poses[-1][:3, 3]), n)
        return self._tidy(sympy.Matrix(6, n, [sympy.S(value) for value in entries]))

    def _constants(self):
        """Per link the core's Newton-Euler constants, exact (a kept mass a symbol)."""
        constants = []
        for j, (numeric, (value, _, _, sign)) in enumerate(zip(
                self.chain.dynamic_constants.rne_links, self._rows)):
            alpha, beta = value['alpha'], value['beta']
            constants.append(LinkConstants(
                numeric.prismatic, sign, value['a'], sympy.cos(alpha), sympy.sin(alpha),
                self._value('m', j, numeric.m), tuple(self._vector('r', j, numeric.r)),
                tuple(map(tuple, self._vector('I', j, numeric.inertia))), sympy.cos(beta),
                sympy.sin(beta)))
        return constants

    def rne(self, gravity=None, friction=True):
        """
        Return the joint torques of a motion in ``q``, ``qd``, ``qdd``, as ``Chain.rne``.

        ``gravity`` (3 numbers or expressions, m/s^2, world frame) is the chain's by default.
        With ``friction``, the friction as the core models it (viscous, and Coulomb by the sign
        of ``qd``) and the motors' ``G^2 Jm qdd``.

        Returns
        -------
        tau : sympy.Matrix, shape (n, 1)
            N m or N.

        """
        return self._torques(self.qd, self.qdd, gravity, friction)

    def gravload(self, gravity=None):
        """Return the torques that hold the arm still at ``q`` (sympy.Matrix, (n, 1), N m or N)."""
        return self._torques(None, None, gravity, False)

    def _torques(self, qd, qdd, gravity, friction):
        chain, links = self.chain, self._constants()
        g = sympy.Matrix([exact(v) if not isinstance(v, sympy.Basic) else v for v in (
            chain.gravity if gravity is None else gravity)])
        base = list(-(self._base[:3, :3].T * g))
        theta = [theta for _, theta, _, _ in self._rows]
        d = [d for _, _, d, _ in self._rows]
        tau = rigid_body_torques(chain.mdh, links, [sympy.cos(t) for t in theta],
                                 [sympy.sin(t) for t in theta], d, qd, qdd, base)
        tau = [cleaned(sympy.sympify(t)) for t in tau]
        if qd is not None:
            for j, link in enumerate(chain.links):
                gain = abs(self._value('G', j, link.G))
                tau[j] += gain ** 2 * self._value('Jm', j, link.Jm) * qdd[j]
                if friction:
                    tau[j] -= _friction(qd[j], gain, self._value('B', j, link.B),
                                        exact(link.Tc[0]), exact(link.Tc[1]))
        return sympy.Matrix(tau)


def _symbols(name):
    """Return a kept parameter's symbol: a vector for ``r``, a symmetric matrix for ``I``."""
    if name.startswith('r'):
        return sympy.Matrix(sympy.symbols(f'{name}x {name}y {name}z', real=True))
    if name.startswith('I'):
        xx, yy, zz, xy, xz, yz = sympy.symbols(
            f'{name}xx {name}yy {name}zz {name}xy {name}xz {name}yz', real=True)
        return sympy.Matrix([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    return sympy.Symbol(name, real=True)


def _friction(qd, gain, B, tc_pos, tc_neg):
    """Return the core's friction at ``qd`` (:func:`core.dynamics.friction`), exact."""
    coulomb = sympy.Piecewise((tc_pos, qd > 0), (tc_neg, qd < 0), (0, True)) if (
        tc_pos != 0 or tc_neg != 0) else 0
    return -gain * (B * gain * qd + coulomb)
