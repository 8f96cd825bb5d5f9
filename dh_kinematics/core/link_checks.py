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
Checks of the fields only a link has: joint limits, inertia, Coulomb friction and capsules.

Each returns the value in its canonical form or raises :class:`InvalidFieldError` naming the
field. SI units: limits in rad or m, inertia in kg m^2, friction in N m.
"""

import math
import numbers

from dh_kinematics.core.bounds import LENGTH_MAX
from dh_kinematics.core.checks import check_array, check_scalar, InvalidFieldError
import numpy as np


def check_qlim(field, value):
    """
    Check joint limits ``(lower, upper)`` in rad or m, or ``None`` for no limits.

    Infinite bounds are accepted (``[-inf, inf]`` is no limits: None); NaN and
    ``lower > upper`` are not.

    Returns
    -------
    qlim : tuple of 2 float, or None

    """
    if value is None:
        return None
    lower, upper = check_array(field, value, [(2,)], allow_inf=True)
    if lower > upper:
        raise InvalidFieldError(field, value, 'must be (lower, upper) with lower <= upper')
    if lower == -math.inf and upper == math.inf:
        return None
    return (float(lower), float(upper))


def check_inertia(field, value):
    """
    Check a link inertia about the centre of mass, in kg m^2.

    Parameters
    ----------
    field : str
        Field name for error messages.
    value : array-like, shape (3, 3), (3,) or (6,)
        A symmetric matrix, its diagonal [Ixx Iyy Izz], or [Ixx Iyy Izz Ixy Iyz Ixz].

    Returns
    -------
    inertia : array, shape (3, 3)
        Symmetric inertia matrix.

    """
    array = check_array(field, value, [(3, 3), (3,), (6,)])
    if array.shape == (3,):
        return np.diag(array)
    if array.shape == (6,):
        ixx, iyy, izz, ixy, iyz, ixz = array
        return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    tolerance = 1e-12 * max(1.0, float(np.abs(array).max()))
    if np.abs(array - array.T).max() > tolerance:
        raise InvalidFieldError(field, value, 'must be a symmetric 3x3 matrix')
    return 0.5 * (array + array.T)


def check_coulomb(field, value):
    """
    Check Coulomb friction in N m or N, referred to the motor side.

    Parameters
    ----------
    field : str
        Field name for error messages.
    value : float or array-like, shape (2,)
        A scalar ``T >= 0`` means the symmetric ``[T, -T]``; two values are
        ``[Tc+, Tc-]`` with ``Tc+ >= 0`` (applied for positive velocity) and ``Tc- <= 0``.

    Returns
    -------
    tc : tuple of 2 float
        ``(Tc+, Tc-)``.

    """
    if np.ndim(value) == 0 and not isinstance(value, str):
        magnitude = check_scalar(field, value, minimum=0.0)
        return (magnitude, -magnitude)
    positive, negative = check_array(field, value, [(2,)])
    if positive < 0.0 or negative > 0.0:
        raise InvalidFieldError(
            field, value, 'must be [Tc+, Tc-] with Tc+ >= 0 and Tc- <= 0 (both oppose motion)')
    return (float(positive), float(negative))


def check_soft_limits(field, soft, qlim):
    """
    Refuse soft position limits ``(lower, upper)`` outside the joint limits ``qlim``.

    As ros2_control's soft limiter and URDF's ``<safety_controller>`` use them: a band inside
    the hard limits, rad or m. Either may be None (no limits).
    """
    if soft is None or qlim is None:
        return soft
    if soft[0] < qlim[0] or soft[1] > qlim[1]:
        raise InvalidFieldError(field, list(soft), f'must lie within qlim {list(qlim)}')
    return soft


def check_optional_limit(field, value):
    """
    Check a limit of effort, velocity, acceleration or jerk: positive, or None (inf) for none.

    Units: N m or N; rad/s or m/s; rad/s^2 or m/s^2; rad/s^3 or m/s^3.

    Returns
    -------
    limit : float or None

    """
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidFieldError(field, value, 'must be a positive number, or none')
    value = float(value)
    if value == math.inf:
        return None
    if not value > 0.0 or not math.isfinite(value):
        raise InvalidFieldError(field, value, 'must be a positive number, or none')
    return value


MAX_CAPSULES = 16
"""The most capsules a link's ``collision`` holds: 16 on each of two links are 256 pairs."""


def check_capsules(field, value):
    """
    Check a link's capsules: 7 numbers each, ``[ax, ay, az, bx, by, bz, radius]``, in m.

    The segment's ends ``a`` and ``b`` in the link's frame, then a radius > 0; all finite and
    within the bounds of a length (:data:`core.bounds.LENGTH_MAX`). ``None`` or an empty list
    is none (the default body's). At most :data:`MAX_CAPSULES` capsules.

    Returns
    -------
    capsules : array, shape (m, 7), read-only; or None

    """
    words = 'must be 7 numbers per capsule [ax, ay, az, bx, by, bz, radius] (m)'
    if value is None:
        return None
    try:
        shape = np.shape(value)
    except ValueError:  # ragged
        shape = None
    if shape == (0,):
        return None
    if shape is None or len(shape) not in (1, 2) or len(shape) == 2 and shape[1] != 7:
        raise InvalidFieldError(field, value, words)
    capsules = check_array(field, value, [shape]).reshape(-1)
    if capsules.size % 7:
        raise InvalidFieldError(field, value, f'has {capsules.size} numbers: {words}')
    capsules = capsules.reshape(-1, 7)
    if len(capsules) > MAX_CAPSULES:
        raise InvalidFieldError(field, len(capsules), f'must hold at most {MAX_CAPSULES} '
                                'capsules a link (every pair on two links is judged on every '
                                'message), capsules')
    if not (capsules[:, 6] > 0.0).all():
        raise InvalidFieldError(field, value, 'must give each capsule a radius > 0 (m), its '
                                'seventh number')
    if np.abs(capsules).max() > LENGTH_MAX:
        raise InvalidFieldError(field, value, f'must be within +-{LENGTH_MAX:g} m')
    capsules.flags.writeable = False
    return capsules
