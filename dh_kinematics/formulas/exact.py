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
A model's numbers as SymPy numbers that hold no rounding a formula would show.

An angle that is a multiple of pi/24 within 1e-12 becomes that multiple of ``pi`` (``pi/2``
stays ``pi/2``, whose cosine is exactly 0); a whole number becomes an Integer; a value within
1e-15 of 0, the leftover of a cosine of pi/2, becomes 0; any other number becomes a Float of
its text, shortened to 12 digits where that is within 4 ulp of it (0.67183 for
0.6718299999999999), printed as written (:func:`export.text` prints no trailing digits).
"""

import math

import sympy

PI_STEPS = 24
"""Angles are snapped to multiples of pi / PI_STEPS."""


def exact(value, angle=False):
    """Return ``value`` (a float, or a SymPy expression left as it is) as an exact number."""
    if isinstance(value, sympy.Basic):
        return value
    value = float(value)
    if abs(value) < 1e-15:
        return sympy.Integer(0)
    if angle:
        steps = value / math.pi * PI_STEPS
        if abs(steps - round(steps)) < 1e-12 * max(1.0, abs(steps)):
            return sympy.Rational(round(steps), PI_STEPS) * sympy.pi
    if value == round(value):
        return sympy.Integer(round(value))
    short = f'{value:.12g}'  # the number a datasheet wrote, where it is within 4 ulp
    if abs(float(short) - value) > 4 * math.ulp(value):
        short = repr(value)
    return sympy.Float(short, 17)


def cleaned(expression):
    """Return ``expression`` with its float literals (0.0, 1.0 of numeric code) made exact."""
    floats = expression.atoms(sympy.Float)
    if not floats:
        return expression
    return expression.xreplace({number: exact(float(number)) for number in floats})
