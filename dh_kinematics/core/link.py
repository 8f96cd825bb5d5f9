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

"""One joint of a serial arm: its DH parameters and the dynamics of the body it moves."""

from dh_kinematics.core import bounds, display, legacy_rows
from dh_kinematics.core.checks import (
    check_array, check_bool, check_choice, check_scalar, InvalidFieldError)
from dh_kinematics.core.dynamics.friction import friction_torque
from dh_kinematics.core.kinematics.dh_transforms import dh_transforms, fixed_transforms
from dh_kinematics.core.link_checks import (
    check_capsules, check_coulomb, check_inertia, check_optional_limit, check_qlim,
    check_soft_limits)
import numpy as np

JOINT_TYPES = ('revolute', 'prismatic')
CONVENTIONS = ('standard', 'modified')

# Link's arguments; a model file's joint block has the same fields
# (core.model_file.params.JOINT_FIELDS), with 'type' for 'joint', and the convention and name from
# outside the block.
_FIELDS = ('joint', 'convention', 'a', 'alpha', 'beta', 'd', 'theta', 'offset', 'flip', 'qlim',
           'm', 'r',
           'I', 'Jm', 'G', 'B', 'Tc', 'effort_limit', 'velocity_limit', 'acceleration_limit',
           'deceleration_limit', 'jerk_limit', 'soft_limits', 'k_position', 'k_velocity',
           'collision', 'name')


class Link:
    """
    One joint and the body it moves, in standard or modified DH convention.

    All parameters are keyword arguments, in SI units and radians:

    Parameters
    ----------
    joint : {'revolute', 'prismatic'}
        Joint type; an unambiguous prefix of at least 3 letters is accepted.
    convention : {'standard', 'modified'}
        DH convention; ``'stand'`` and ``'mod'`` are accepted too.
    a, alpha : float
        Link length (m) and twist (rad).
    beta : float
        Hayati's rotation about the link frame's y axis (rad), after ``alpha``: the link's
        constant part is ``Tx(a) Rx(alpha) Ry(beta)``. It holds consecutive axes that are
        nearly parallel, where a plain DH ``d`` grows without bound; 0 (the default) is plain
        DH.
    d, theta : float
        Link offset (m) and joint angle (rad). The joint variable replaces ``theta`` (revolute)
        or ``d`` (prismatic), so that one must be 0: put a constant into ``offset`` instead.
    offset : float
        Added to the joint value: ``theta = (-q if flip else q) + offset`` (or ``d``).
    flip : bool
        The joint moves in the opposite direction.
    qlim : (float, float) or None
        Joint limits (lower, upper) in rad or m; None for none.
    m : float
        Link mass in kg.
    r : array-like, shape (3,)
        Centre of mass in the link frame, in m.
    I : array-like, shape (3, 3), (3,) or (6,)
        Inertia about the centre of mass in kg m^2: a symmetric matrix, its diagonal, or
        ``[Ixx Iyy Izz Ixy Iyz Ixz]``.
    Jm : float
        Motor inertia in kg m^2, motor side.
    G : float
        Gear ratio, motor over link velocity; may be negative, not zero.
    B : float
        Viscous friction, motor side, in N m s/rad.
    Tc : float or (float, float)
        Coulomb friction, motor side, in N m: ``T`` (symmetric ``[T, -T]``) or ``[Tc+, Tc-]``.
    effort_limit : float or None
        Largest joint torque (N m) or force (N), for the URDF's ``<limit>``; None (or inf) when
        not known.
    velocity_limit : float or None
        Largest joint speed (rad/s or m/s), likewise; the node watches it.
    acceleration_limit, deceleration_limit : float or None
        Largest joint acceleration, and deceleration where it differs (rad/s^2 or m/s^2);
        None when not known (a deceleration limit of None is the acceleration limit).
    jerk_limit : float or None
        Largest rate of change of acceleration (rad/s^3 or m/s^3); None when not known.
    soft_limits : (lower, upper) or None
        Soft position limits inside ``qlim`` (rad or m), as URDF's ``<safety_controller>`` and
        ros2_control's soft limiter define them; None for none.
    k_position, k_velocity : float
        The soft limiter's gains: velocity bound per unit of position beyond a soft limit
        (1/s), and effort bound per unit of velocity beyond it (N m s/rad or N s/m); 0 is none.
    collision : array-like, shape (m, 7) or (7 m,), or None
        Capsules fixed on the link frame this joint moves, each ``[ax, ay, az, bx, by, bz,
        radius]``: its segment's ends in that frame and its radius, m. None (or empty): the
        default body's (:mod:`dh_kinematics.core.bodies`).
    name : str or None
        Joint name, e.g. as in ``joint_states``.

    Notes
    -----
    Values no arm has are refused (angles beyond +-2 pi rad, lengths beyond 1000 m, ...; see
    :mod:`dh_kinematics.core.bounds`). Links are immutable: use :meth:`replace` to change a field.

    """

    __slots__ = _FIELDS

    def __init__(self, *, joint='revolute', convention='standard', a=0.0, alpha=0.0, beta=0.0,
                 d=0.0,
                 theta=0.0, offset=0.0, flip=False, qlim=None, m=0.0, r=(0.0, 0.0, 0.0),
                 I=(0.0, 0.0, 0.0), Jm=0.0, G=1.0, B=0.0, Tc=0.0, effort_limit=None,
                 velocity_limit=None, acceleration_limit=None, deceleration_limit=None,
                 jerk_limit=None, soft_limits=None, k_position=0.0, k_velocity=0.0,
                 collision=None, name=None):  # noqa: E741
        values = {
            'joint': check_choice('joint', joint, JOINT_TYPES),
            'convention': check_choice('convention', convention, CONVENTIONS),
            'a': check_scalar('a', a), 'alpha': check_scalar('alpha', alpha),
            'beta': check_scalar('beta', beta),
            'd': check_scalar('d', d), 'theta': check_scalar('theta', theta),
            'offset': check_scalar('offset', offset), 'flip': check_bool('flip', flip),
            'qlim': check_qlim('qlim', qlim),
            'm': check_scalar('m', m, minimum=0.0), 'r': check_array('r', r, [(3,)]),
            'I': check_inertia('I', I), 'Jm': check_scalar('Jm', Jm, minimum=0.0),
            'G': check_scalar('G', G, nonzero=True), 'B': check_scalar('B', B, minimum=0.0),
            'Tc': check_coulomb('Tc', Tc),
            'effort_limit': check_optional_limit('effort_limit', effort_limit),
            'velocity_limit': check_optional_limit('velocity_limit', velocity_limit),
            'acceleration_limit': check_optional_limit('acceleration_limit',
                                                       acceleration_limit),
            'deceleration_limit': check_optional_limit('deceleration_limit',
                                                       deceleration_limit),
            'jerk_limit': check_optional_limit('jerk_limit', jerk_limit),
            'soft_limits': check_qlim('soft_limits', soft_limits),
            'k_position': check_scalar('k_position', k_position, minimum=0.0),
            'k_velocity': check_scalar('k_velocity', k_velocity, minimum=0.0),
            'collision': check_capsules('collision', collision), 'name': name}
        if name is not None and (not isinstance(name, str) or not name):
            raise InvalidFieldError('name', name, 'must be a non-empty string or None')
        bounds.check_link(values)
        check_soft_limits('soft_limits', values['soft_limits'], values['qlim'])
        replaced = 'theta' if values['joint'] == 'revolute' else 'd'
        if values[replaced] != 0.0:
            raise InvalidFieldError(
                replaced, values[replaced],
                f'must be 0 for a {values["joint"]} joint, whose variable replaces it; '
                'put a constant into offset')
        for array in (values['r'], values['I']):
            array.flags.writeable = False
        for field, value in values.items():
            object.__setattr__(self, field, value)

    def __setattr__(self, field, value):
        raise AttributeError(f'Link is immutable; use link.replace({field}=...)')

    def __reduce__(self):
        """Pickle a Link as its fields, checked again when it is rebuilt (Dask sends models)."""
        return _rebuilt, (tuple(getattr(self, field) for field in _FIELDS),)

    def replace(self, **changes):
        """Return a new, validated Link with some fields changed."""
        unknown = set(changes) - set(_FIELDS)
        if unknown:
            raise InvalidFieldError(sorted(unknown)[0], changes[sorted(unknown)[0]],
                                    f'is not a Link field (fields: {", ".join(_FIELDS)})')
        fields = {field: getattr(self, field) for field in _FIELDS}
        fields.update(changes)
        return Link(**fields)

    def copy(self):
        """Return an equal, independent Link."""
        return self.replace()

    def __eq__(self, other):
        if not isinstance(other, Link):
            return NotImplemented
        return all(np.array_equal(getattr(self, f), getattr(other, f)) for f in _FIELDS)

    __hash__ = None

    @property
    def mdh(self):
        """Tell whether the link uses the modified DH convention."""
        return self.convention == 'modified'

    def isrevolute(self):
        """Tell whether the joint is revolute."""
        return self.joint == 'revolute'

    def isprismatic(self):
        """Tell whether the joint is prismatic."""
        return self.joint == 'prismatic'

    @property
    def RP(self):
        """``'R'`` for a revolute joint, ``'P'`` for a prismatic one."""
        return 'R' if self.isrevolute() else 'P'

    def A(self, q):
        """
        Link transform for joint value ``q`` (rad or m).

        Returns
        -------
        T_prev_link : array, shape (4, 4)
            From this link's frame to the previous link's frame.

        """
        value = (-1.0 if self.flip else 1.0) * check_scalar('q', q) + self.offset
        theta, d = (value, self.d) if self.isrevolute() else (self.theta, value)
        fixed = fixed_transforms(np.array([self.a]), np.array([self.alpha]),
                                 np.array([self.beta]))
        return dh_transforms(np.array([theta]), np.array([d]), fixed, self.mdh)[0]

    def friction(self, qd):
        """
        Friction torque (N m) or force (N) at joint velocity ``qd``, link side.

        Opposes motion: ``-|G| * (B * |G| * qd + Tc+ if qd > 0, Tc- if qd < 0)``.
        """
        return float(friction_torque(check_scalar('qd', qd), self.G, self.B, *self.Tc))

    def islimit(self, q):
        """Return -1 below the lower limit, +1 above the upper one, 0 inside or unlimited."""
        q = check_scalar('q', q)
        if self.qlim is None:
            return 0
        return -1 if q < self.qlim[0] else (1 if q > self.qlim[1] else 0)

    def nofriction(self, coulomb=True, viscous=False):
        """Return a copy with Coulomb (default) and/or viscous friction removed."""
        return self.replace(Tc=0.0 if coulomb else self.Tc, B=0.0 if viscous else self.B)

    def __str__(self):
        return display.link_summary(self)

    def __repr__(self):
        return f'Link({display.link_summary(self)})'

    def dyn(self):
        """Multi-line summary of the dynamic parameters, as the toolbox prints it."""
        return display.link_dynamics(self)

    @classmethod
    def from_dh_row(cls, row, convention='standard'):
        """Build a Link from Corke's row ``[theta d a alpha (sigma (offset))]``."""
        return legacy_rows.link_from_row(cls, legacy_rows.corke_row, row, convention)

    @classmethod
    def from_scilab_row(cls, row, convention='standard'):
        """
        Build a Link from a Scilab dh row or 20-element legacy dyn row.

        Layouts: ``[alpha A theta D (sigma)]`` and
        ``[alpha A theta D sigma m rx ry rz Ixx Iyy Izz Ixy Iyz Ixz Jm G B Tc+ Tc-]``.
        """
        return legacy_rows.link_from_row(cls, legacy_rows.scilab_row, row, convention)

    @classmethod
    def from_matlab_row(cls, row, convention='dh', joint='revolute'):
        """
        Build a Link from MATLAB ``setFixedTransform`` order ``[a alpha d theta]``.

        ``convention`` is ``'dh'`` (standard) or ``'mdh'`` (modified).
        """
        return legacy_rows.link_from_row(cls, legacy_rows.matlab_row, row, convention, joint)


def _rebuilt(values):
    """Return the Link of the field values of :meth:`Link.__reduce__`."""
    return Link(**dict(zip(_FIELDS, values)))
