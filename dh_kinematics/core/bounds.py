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
Physical bounds of model parameters: refuse what no arm has, warn about what few arms have.

A table typed in degrees or millimetres, or a value that would overflow the arithmetic, is
refused; a value that is possible but unusual is only named in :func:`model_warnings`.

==============================================================  ===============  ============
quantity                                                        refused beyond   warned beyond
==============================================================  ===============  ============
alpha, beta, theta, a revolute joint's offset, base/tool rpy    +-2 pi rad
a, d, a prismatic joint's offset, r, base/tool xyz              +-1000 m         10 m
payload com                                                     +-1000 m         10 m
finite joint limits                                             +-1e6 rad or m   +-4 pi rad,
                                                                                 +-10 m
m, payload mass                                                 1e6 kg           1000 kg
I, payload inertia                                              1e6 kg m^2       not a body's
Jm, B, Tc, G                                                    1e6 (SI)
gravity                                                         1000 m/s^2
==============================================================  ===============  ============
"""

import math

from dh_kinematics.core.checks import InvalidFieldError
import numpy as np

ANGLE_MAX = 2.0 * math.pi
LENGTH_MAX = 1e3
LENGTH_WARN = 10.0
LIMIT_MAX = 1e6
REVOLUTE_LIMIT_WARN = 4.0 * math.pi
DYNAMICS_MAX = 1e6
GRAVITY_MAX = 1e3
MASS_WARN = 1e3


def check_angles(field, value):
    """
    Refuse angles beyond +-2 pi, saying radians are expected; return ``value``.

    Parameters
    ----------
    field : str
        Field name for error messages.
    value : float or array
        Checked, finite angle(s) in rad.

    """
    flat = np.ravel(value)
    worst = float(flat[np.argmax(np.abs(flat))]) if flat.size else 0.0
    if abs(worst) > ANGLE_MAX:
        shown = value.tolist() if isinstance(value, np.ndarray) else value
        guess = (f'; did you mean {np.round(np.radians(value), 4).tolist()}?'
                 if abs(worst) <= 360.0 else '')
        raise InvalidFieldError(field, shown, f'must be within +-2 pi: radians are expected '
                                f'({worst:g} rad{guess})')
    return value


def check_magnitude(field, value, maximum, unit):
    """Refuse a value (or array) whose magnitude exceeds ``maximum``; return ``value``."""
    if np.size(value) and float(np.max(np.abs(value))) > maximum:
        shown = value.tolist() if isinstance(value, np.ndarray) else value
        raise InvalidFieldError(field, shown, f'must be within +-{maximum:g} {unit}')
    return value


def check_limits(field, qlim):
    """Refuse finite joint limits beyond +-1e6 (rad or m); +-inf means no limit."""
    if qlim is not None:
        finite = [value for value in qlim if math.isfinite(value)]
        check_magnitude(field, np.array(finite), LIMIT_MAX, 'rad or m (inf for none)')
    return qlim


def model_warnings(chain):
    """
    Return the unusual but possible values of a model, one sentence each.

    Lengths beyond 10 m (millimetres?): a, d, a prismatic joint's offset and limits, r, the
    payload's centre of mass, base and tool; revolute limits beyond +-4 pi rad (degrees?);
    masses beyond 1000 kg (grams?); and inertias no rigid body has (a negative principal
    moment, or one larger than the sum of the other two).
    """
    notes = []
    for name, link in zip(chain.joint_names, chain.links):
        notes += _limit_warnings(name, link)
        lengths = {'a': link.a, 'd': link.d}
        if link.isprismatic():
            lengths['offset'] = link.offset
        for field, value in lengths.items():
            if abs(value) > LENGTH_WARN:
                notes.append(f'{name}.{field}: {value:g} m is longer than {LENGTH_WARN:g} m; '
                             'metres are expected (millimetres?)')
        notes += _mass_warnings(name, link.m, link.r, link.I, 'r', 'I')
    payload = chain.payload
    notes += _mass_warnings('payload', payload.mass, payload.com, payload.inertia, 'com',
                            'inertia')
    for field, T in (('base.xyz', chain.base), ('tool.xyz', chain.tool)):
        notes += _far(field, T[:3, 3])
    return notes


def _limit_warnings(name, link):
    finite = [value for value in link.qlim or () if math.isfinite(value)]
    if not finite:
        return []
    worst = max(abs(value) for value in finite)
    if link.isrevolute() and worst > REVOLUTE_LIMIT_WARN:
        return [f'{name}.qlim: {list(link.qlim)} is beyond +-4 pi rad; radians are expected '
                '(degrees?)']
    if link.isprismatic() and worst > LENGTH_WARN:
        return [f'{name}.qlim: {list(link.qlim)} is beyond +-{LENGTH_WARN:g} m; metres are '
                'expected (millimetres?)']
    return []


def _far(field, xyz):
    if np.abs(xyz).max() <= LENGTH_WARN:
        return []
    return [f'{field}: {np.asarray(xyz).tolist()} is farther than {LENGTH_WARN:g} m; metres '
            'are expected (millimetres?)']


def _mass_warnings(name, mass, com, inertia, com_field, inertia_field):
    notes = []
    if mass > MASS_WARN:
        notes.append(f'{name}.{"mass" if name == "payload" else "m"}: {mass:g} kg is more '
                     f'than {MASS_WARN:g} kg; kilograms are expected (grams?)')
    notes += _far(f'{name}.{com_field}', com)
    reason = inertia_problem(inertia)
    if reason:
        notes.append(f'{name}.{inertia_field}: {reason}; no rigid body has it (a reduced '
                     'model, or a typing error?)')
    return notes


def inertia_problem(inertia):
    """
    Say why an inertia matrix is not one a rigid body can have, or return ``''``.

    Parameters
    ----------
    inertia : array of shape (3, 3)
        Symmetric inertia about the centre of mass, kg m^2.

    Returns
    -------
    str
        Empty when the principal moments are all >= 0 and each is at most the sum of the
        other two (the triangle inequality), within 1e-9 of the largest.

    """
    moments = np.linalg.eigvalsh(np.asarray(inertia, dtype=float))
    tolerance = 1e-9 * max(float(np.abs(moments).max()), 1e-300)
    shown = ', '.join(f'{value:.6g}' for value in moments)
    if moments[0] < -tolerance:
        return f'a principal moment is negative ([{shown}] kg m^2)'
    if moments[0] + moments[1] < moments[2] - tolerance:
        return (f'its principal moments [{shown}] kg m^2 break the triangle inequality '
                '(I1 + I2 >= I3)')
    return ''


def check_link(values):
    """
    Check the bounds of one link's checked fields (a dict of Link's field values).

    Angles (alpha, theta, a revolute offset) within +-2 pi rad; lengths (a, d, a prismatic
    offset, r) within +-1000 m; finite limits within +-1e6; m, I, Jm, B, Tc and G within 1e6.
    """
    revolute = values['joint'] == 'revolute'
    for field in ('alpha', 'beta', 'theta') + (('offset',) if revolute else ()):
        check_angles(field, values[field])
    for field in ('a', 'd', 'r') + (() if revolute else ('offset',)):
        check_magnitude(field, values[field], LENGTH_MAX, 'm')
    check_limits('qlim', values['qlim'])
    for field in ('m', 'I', 'Jm', 'B', 'Tc', 'G'):
        check_magnitude(field, np.asarray(values[field]), DYNAMICS_MAX, '(SI units)')
