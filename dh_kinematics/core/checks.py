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
Validators for DH and dynamic parameters and for joint-space arrays.

Every ``check_*`` function returns the value in canonical form (a float, a tuple or a numpy
array) or raises :class:`InvalidFieldError`, a :class:`ValueError` whose message names the bad
field and value.
"""

import math
import numbers

import numpy as np


class InvalidFieldError(ValueError):
    """
    A parameter failed validation.

    Parameters
    ----------
    field : str
        Name of the offending field, e.g. ``'alpha'`` or ``'joint1.qlim'``.
    value : object
        The value that was refused.
    reason : str
        What was expected.

    """

    def __init__(self, field, value, reason):
        self.field = field
        self.value = value
        self.reason = reason
        super().__init__(f'{field}: {reason}, got {_short_repr(value)}')

    def renamed(self, field):
        """Return the same error for another field name (e.g. with a prefix)."""
        return InvalidFieldError(field, self.value, self.reason)


def _short_repr(value, limit=120):
    text = repr(value.tolist() if isinstance(value, np.ndarray) else value)
    return text if len(text) <= limit else text[:limit - 3] + '...'


def check_choice(field, value, choices, min_prefix=3):
    """
    Match a case-insensitive name or unambiguous prefix of at least ``min_prefix`` letters.

    Parameters
    ----------
    field : str
        Field name for error messages.
    value : str
        Name or prefix, e.g. ``'mod'`` for ``'modified'``.
    choices : sequence of str
        The full names accepted.
    min_prefix : int
        Shortest prefix accepted.

    Returns
    -------
    choice : str
        The full name from ``choices``.

    """
    if isinstance(value, str) and value in choices:
        return value
    text = value.strip().lower() if isinstance(value, str) else ''
    matches = [c for c in choices if len(text) >= min_prefix and c.startswith(text)]
    if len(matches) != 1:
        raise InvalidFieldError(field, value, 'must be ' + ' or '.join(repr(c) for c in choices)
                                + f' (or a prefix of at least {min_prefix} letters)')
    return matches[0]


def check_scalar(field, value, minimum=None, nonzero=False):
    """
    Check a finite real number.

    Parameters
    ----------
    field : str
        Field name for error messages.
    value : float
        The number; bools and strings are refused.
    minimum : float, optional
        Smallest value allowed (inclusive).
    nonzero : bool
        Refuse zero.

    Returns
    -------
    value : float

    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        if isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in 'iuf':
            value = value.item()
        else:
            raise InvalidFieldError(field, value, 'must be a real number')
    value = float(value)
    if not math.isfinite(value):
        raise InvalidFieldError(field, value, 'must be finite')
    if minimum is not None and value < minimum:
        raise InvalidFieldError(field, value, f'must be >= {minimum:g}')
    if nonzero and value == 0.0:
        raise InvalidFieldError(field, value, 'must be non-zero')
    return value


def check_bool(field, value):
    """Check a boolean (``True``/``False``; numbers and strings are refused)."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidFieldError(field, value, 'must be true or false')
    return bool(value)


def check_array(field, value, shapes, allow_inf=False):
    """
    Convert to a float array of one of the allowed shapes, refusing NaN and inf.

    Parameters
    ----------
    field : str
        Field name for error messages.
    value : array-like
        Numbers; bools and strings are refused.
    shapes : sequence of tuple
        The accepted shapes.
    allow_inf : bool
        Accept +-inf (never NaN).

    Returns
    -------
    array : array, shape one of `shapes`

    """
    array = _as_float_array(value)
    if array is None or array.shape not in [tuple(s) for s in shapes]:
        wanted = ' or '.join(str(s) if len(s) != 1 else f'({s[0]},)' for s in shapes)
        raise InvalidFieldError(field, value, f'must be an array of numbers of shape {wanted}')
    array = array.copy()
    bad = np.isnan(array) if allow_inf else ~np.isfinite(array)
    if bad.any():
        raise InvalidFieldError(field, value, 'must not contain NaN'
                                + ('' if allow_inf else ' or inf'))
    return array


def check_transform(field, value):
    """
    Check a 4x4 homogeneous transform with an orthonormal, right-handed rotation.

    Returns
    -------
    transform : array, shape (4, 4)

    """
    array = _as_float_array(value)
    if array is not None and array.shape == (4, 4) and _is_transform(*array.ravel().tolist()):
        return array.copy()
    check_array(field, value, [(4, 4)])  # the shape, NaN and inf first, each its own message
    raise InvalidFieldError(field, value, 'must be a homogeneous transform (rotation '
                            'orthonormal with det +1, last row [0 0 0 1])')


def check_transforms(field, value):
    """
    Check a batch of transforms as :func:`check_transform` checks one.

    The first one refused is named ``field[i]``.

    Returns
    -------
    transforms : array, shape (m, 4, 4)

    """
    shape = np.shape(value)
    if len(shape) != 3 or shape[1:] != (4, 4):
        raise InvalidFieldError(field, shape, 'must be a batch of poses of shape (m, 4, 4)')
    array = check_array(field, value, [shape])
    refused = np.nonzero(~_transforms(array))[0]
    if len(refused):
        check_transform(f'{field}[{refused[0]}]', array[refused[0]])
    return array


def _is_transform(r00, r01, r02, x, r10, r11, r12, y, r20, r21, r22, z, b0, b1, b2, b3):
    """:func:`_transforms` for one transform, in floats (16 entries, row-major), all finite."""
    # The rows orthonormal; NaN or inf in the rotation fails here too.
    if not (abs(r00 * r00 + r01 * r01 + r02 * r02 - 1.0) <= 1e-9
            and abs(r10 * r10 + r11 * r11 + r12 * r12 - 1.0) <= 1e-9
            and abs(r20 * r20 + r21 * r21 + r22 * r22 - 1.0) <= 1e-9
            and abs(r00 * r10 + r01 * r11 + r02 * r12) <= 1e-9
            and abs(r00 * r20 + r01 * r21 + r02 * r22) <= 1e-9
            and abs(r10 * r20 + r11 * r21 + r12 * r22) <= 1e-9):
        return False
    det = (r00 * (r11 * r22 - r12 * r21) - r01 * (r10 * r22 - r12 * r20)
           + r02 * (r10 * r21 - r11 * r20))
    return (det >= 0.0 and (b0, b1, b2, b3) == (0.0, 0.0, 0.0, 1.0) and math.isfinite(x)
            and math.isfinite(y) and math.isfinite(z))


def _transforms(T):
    """Tell which of T (m, 4, 4) are homogeneous transforms: rotation orthonormal, det +1."""
    R = T[:, :3, :3]
    return ((np.abs(R @ np.swapaxes(R, 1, 2) - np.eye(3)).max(axis=(1, 2)) <= 1e-9)
            & (np.linalg.det(R) >= 0.0)
            & (np.abs(T[:, 3] - (0.0, 0.0, 0.0, 1.0)).max(axis=1) <= 0.0))


def check_joint_array(field, value, n):
    """
    Check joint-space input for an n-joint chain, one configuration or a batch.

    Parameters
    ----------
    field : str
        Field name for error messages (``'q'``, ``'qd'``, ...).
    value : array-like, shape (n,) or (m, n)
        Joint values in rad (revolute) or m (prismatic), or their derivatives.
    n : int
        Number of joints.

    Returns
    -------
    array : array, shape (m, n)
        Always two-dimensional; ``m == 1`` for a single configuration.
    single : bool
        True when the input was one configuration of shape (n,).

    """
    array = _as_float_array(value)
    if array is None or array.ndim not in (1, 2) or array.shape[-1] != n:
        shape = np.shape(value) if array is not None else value
        raise InvalidFieldError(field, shape, f'must be numbers of shape ({n},) or (m, {n})')
    if not np.isfinite(array).all():
        raise InvalidFieldError(field, value, 'must be finite (no NaN or inf)')
    if array.ndim == 1:
        return array.reshape(1, n), True
    return array, False


def _as_float_array(value):
    """Return ``value`` as a float array, or None if it is not numeric (bools are refused)."""
    if not isinstance(value, np.ndarray):
        try:
            value = np.asarray(value)
        except (ValueError, TypeError):
            return None
    if value.dtype.kind not in 'iuf':
        return None
    return value.astype(float, copy=False)
