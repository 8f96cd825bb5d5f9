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

==========================================================  ===============  ============
quantity                                                     refused beyond   warned beyond
==========================================================  ===============  ============
alpha, theta, a revolute joint's offset, base/tool rpy       +-2 pi rad
a, d, a prismatic joint's offset, r, base/tool xyz           +-1000 m         10 m
finite joint limits                                          +-1e6 rad or m   +-4 pi rad
m, I, Jm, B, Tc, G                                           1e6 (SI)
gravity                                                      1000 m/s^2
==========================================================  ===============  ============
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
    worst = float(np.max(np.abs(value))) if np.size(value) else 0.0
    if worst > ANGLE_MAX:
        shown = value.tolist() if isinstance(value, np.ndarray) else value
        guess = (f'; did you mean {np.round(np.radians(value), 4).tolist()}?'
                 if worst <= 360.0 else '')
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

    Revolute joint limits beyond +-4 pi rad (degrees?) and lengths beyond 10 m (millimetres?).
    """
    notes = []
    for name, link in zip(chain.joint_names, chain.links):
        if link.isrevolute() and link.qlim is not None:
            finite = [value for value in link.qlim if math.isfinite(value)]
            if finite and max(abs(value) for value in finite) > REVOLUTE_LIMIT_WARN:
                notes.append(f'{name}.qlim: {list(link.qlim)} is beyond +-4 pi rad; '
                             'radians are expected (degrees?)')
        lengths = {'a': link.a, 'd': link.d}
        if link.isprismatic():
            lengths['offset'] = link.offset
        for field, value in lengths.items():
            if abs(value) > LENGTH_WARN:
                notes.append(f'{name}.{field}: {value:g} m is longer than {LENGTH_WARN:g} m; '
                             'metres are expected (millimetres?)')
    for field, T in (('base.xyz', chain.base), ('tool.xyz', chain.tool)):
        if np.abs(T[:3, 3]).max() > LENGTH_WARN:
            notes.append(f'{field}: {T[:3, 3].tolist()} is farther than {LENGTH_WARN:g} m; '
                         'metres are expected (millimetres?)')
    return notes


def check_link(values):
    """
    Check the bounds of one link's checked fields (a dict of Link's field values).

    Angles (alpha, theta, a revolute offset) within +-2 pi rad; lengths (a, d, a prismatic
    offset, r) within +-1000 m; finite limits within +-1e6; m, I, Jm, B, Tc and G within 1e6.
    """
    revolute = values['joint'] == 'revolute'
    for field in ('alpha', 'theta') + (('offset',) if revolute else ()):
        check_angles(field, values[field])
    for field in ('a', 'd', 'r') + (() if revolute else ('offset',)):
        check_magnitude(field, values[field], LENGTH_MAX, 'm')
    check_limits('qlim', values['qlim'])
    for field in ('m', 'I', 'Jm', 'B', 'Tc', 'G'):
        check_magnitude(field, np.asarray(values[field]), DYNAMICS_MAX, '(SI units)')
