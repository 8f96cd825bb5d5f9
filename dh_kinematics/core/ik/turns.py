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
floats, :func:`turned_array` for arrays, equal value for value.
"""

import math

import numpy as np

TURN = 2.0 * math.pi
"""A whole turn (rad)."""


def turned(value, start, lower, upper):
    """
    Return a revolute joint's ``value`` at the whole turn nearest ``start`` (floats, rad).

    Where that turn is beyond ``lower`` or ``upper`` (``start`` beyond them), the turn nearest
    it inside them instead, if any: the result is not clipped, so the caller tells whether it
    is within. The limits may be infinite; NaN stays NaN.
    """
    gap = start - value
    if not -math.pi <= gap <= math.pi and math.isfinite(gap):
        value += TURN * round(gap / TURN)  # half to even, as numpy's
    if value > upper:
        value -= TURN * math.ceil((value - upper) / TURN)
    elif value < lower:
        value += TURN * math.ceil((lower - value) / TURN)
    return value


def turned_array(value, start, lower, upper):
    """:func:`turned` on arrays that broadcast (rad); infinite limits and NaN as there."""
    with np.errstate(invalid='ignore'):  # inf - inf where a limit is infinite: not taken
        value = value + TURN * np.round((start - value) / TURN)
        value = np.where(value > upper, value - TURN * np.ceil((value - upper) / TURN), value)
        return np.where(value < lower, value + TURN * np.ceil((lower - value) / TURN), value)
