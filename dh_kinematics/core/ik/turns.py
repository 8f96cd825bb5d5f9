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
The whole-turn rule: which of a revolute joint's equal angles an answer gives.

A revolute joint at ``q`` and at ``q + 2 pi k`` puts every link in the same place. An answer
gives the turn nearest the start ``q0``; where ``q0`` lies beyond the limits, the turn nearest
it inside them. The closed forms (:func:`core.ik.geometry.checks`, compiled for the arm) and the
numerical search (:class:`core.ik.numerical.Search`) apply this one rule: :func:`turned` for
floats, :func:`turned_array` for arrays, equal value for value. A value within :data:`SLACK`
of a limit counts as within, and is clipped to it; one that no turn brings within is NaN.
"""

import math

import numpy as np

TURN = 2.0 * math.pi
"""A whole turn (rad)."""
SLACK = 1e-12
"""How far beyond a limit a value still counts as within it, rounding (rad or m)."""
_PI = math.pi


def middles(lower, upper):
    """
    Return the middle of each joint's limits (arrays, rad or m), NaN where one is infinite.

    Where a joint outside its limits is turned towards (the nearest turn, if it lands inside).
    """
    limited = np.isfinite(lower) & np.isfinite(upper)
    return np.where(limited, (np.where(limited, lower, 0.0) + np.where(limited, upper, 0.0))
                    / 2.0, np.nan)


def turned(value, start, lower, upper):
    """
    Return a revolute joint's ``value`` at the whole turn nearest ``start``, within the limits.

    Where that turn is beyond ``lower`` or ``upper`` (``start`` beyond them), the turn nearest
    it inside them. Floats (rad); the limits may be infinite. NaN where no turn is within them,
    and for NaN.
    """
    gap = start - value
    if not -_PI <= gap <= _PI and gap - gap == 0.0:  # finite, more than half a turn away
        value += TURN * round(gap / TURN)  # half to even, as numpy's
    if lower <= value <= upper:
        return value
    if value > upper + SLACK:
        value -= TURN * math.ceil((value - upper - SLACK) / TURN)
    elif value < lower - SLACK:
        value += TURN * math.ceil((lower - SLACK - value) / TURN)
    return within(value, lower, upper)


def within(value, lower, upper):
    """Return ``value`` clipped to ``[lower, upper]`` if within SLACK of them, else NaN."""
    if value < lower:
        return lower if value >= lower - SLACK else math.nan
    if value > upper:
        return upper if value <= upper + SLACK else math.nan
    return value  # or NaN


def turned_array(value, start, lower, upper):
    """:func:`turned` on arrays that broadcast (rad), for finite values and NaN."""
    with np.errstate(invalid='ignore'):  # inf - inf where a limit is infinite: not taken
        value = value + TURN * np.round((start - value) / TURN)
        value = np.where(value > upper + SLACK,
                         value - TURN * np.ceil((value - upper - SLACK) / TURN), value)
        value = np.where(value < lower - SLACK,
                         value + TURN * np.ceil((lower - SLACK - value) / TURN), value)
    return within_array(value, lower, upper)


def within_array(value, lower, upper):
    """:func:`within` on arrays that broadcast."""
    inside = (value >= lower - SLACK) & (value <= upper + SLACK)
    return np.where(inside, np.clip(value, lower, upper), np.nan)
