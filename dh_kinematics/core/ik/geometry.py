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
A 6-joint chain as standard DH constants, the common ground of the closed-form solvers.

A closed form is written once, for standard DH: link i moves ``Rz(theta_i) Tz(d_i)`` and is
then ``Tx(a_i) Rx(alpha_i)``. A modified DH chain is first re-expressed in standard DH
(:func:`core.kinematics.conventions.converted`: the same joint lines and the same joint values,
with the base and tool absorbing the difference), so one solver serves both conventions. The
solvers work on DH values (theta of a revolute joint, d of a prismatic one) and on the pose
of frame 6 in frame 0; :class:`Geometry` maps both to and from the chain's joint values and
world poses, so offsets, flips, base and tool are handled here, once. The solvers' arithmetic
is written for the floats of one pose, calling the functions of :data:`FLOATS`, and compiled
for the arm (:mod:`core.ik.compiled`): :data:`ARRAYS` are the same functions for a batch.
"""

import math

from dh_kinematics.core import conventions
from dh_kinematics.core.ik.turns import turned, turned_array, within, within_array
from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.kinematics.dh_transforms import composed_poses
from dh_kinematics.core.kinematics.unrolled import times_constant
from dh_kinematics.core.symbolic import snapped
import numpy as np

# Lengths (m) and sines below this count as zero when a closed form is chosen.
ZERO = 1e-9


class Geometry:
    """
    The standard DH constants of a chain, and its joint values as DH values.

    Parameters
    ----------
    chain : Chain
        Any chain; a modified DH one is converted to standard DH.

    Attributes
    ----------
    n : int
        Number of joints.
    a, alpha, d, theta : array, shape (n,)
        Standard DH constants (m, rad); ``d`` of a prismatic joint and ``theta`` of a revolute
        one are the joint's own (unused).
    prismatic : array of bool, shape (n,)
    hayati : bool
        True when a link has a Hayati beta (no closed form here takes one).

    """

    def __init__(self, chain):
        standard = conventions.converted(chain, 'standard')
        self._table = table = DHTable(standard.links)
        self.n = len(standard.links)
        self.a, self.alpha, self.d, self.theta = table.a, table.alpha, table.d, table.theta
        self.prismatic = table.prismatic
        self.hayati = table.hayati is not None
        self._T_base_world = np.linalg.inv(standard.base)
        self._T_tool_last = np.linalg.inv(standard.tool)
        self._tool = standard.tool.tolist()
        self.limits = [(-math.inf, math.inf) if link.qlim is None else tuple(link.qlim)
                       for link in chain.links]
        self._constants = {}
        self.offsets, self.signs = table.offset.tolist(), table.sign.tolist()
        # cos and sin of each twist, 0 and +-1 exact (so the generated code drops their terms)
        self._twist = [(snapped(math.cos(alpha)), snapped(math.sin(alpha)))
                       for alpha in self.alpha.tolist()]

    def constant(self, name, compute):
        """Return the constant ``name`` of a closed form, ``compute()`` on first use."""
        if name not in self._constants:
            self._constants[name] = compute()
        return self._constants[name]

    def frame_rows(self, t):
        """
        Return ``T_0_n``'s top rows (12 values) from a tool pose ``T_world_tool``'s, ``t``.

        Written out for floats, arrays or symbols: the base's and the tool's inverses are
        constants, their terms of 0 and 1 drop out of generated code.
        """
        full = list(t) + [0.0, 0.0, 0.0, 1.0]
        base = self._T_base_world.tolist()
        left = [sum(base[r][k] * full[4 * k + c] for k in range(4)) for r in range(3)
                for c in range(4)]
        return times_constant(left + [0.0, 0.0, 0.0, 1.0], self._T_tool_last.tolist())[:12]

    def dh_value(self, i, value):
        """Return joint ``i``'s DH value (theta in rad, d in m) of its joint value (0-based)."""
        return value * self.signs[i] + self.offsets[i]

    def from_link(self, i, value, x, point, f):
        """
        Return a point (or direction) given in link ``i``'s frame in frame i-1: ``A_i x``.

        ``value`` is joint i's DH value (0-based ``i``), ``x`` three values (floats, arrays or
        symbols) that broadcast with it; ``f`` has the cos and sin of such values. Written
        out, with no 4x4 products and no term a twist of 0 or 90 degrees makes zero.
        """
        ca, sa = self._twist[i]
        theta, d = (self.theta[i], value) if self.prismatic[i] else (value, self.d[i])
        c, s = f.cos(theta), f.sin(theta)
        x0, x1, x2 = x
        y0, y1, y2 = x0 + self.a[i] * point, ca * x1 - sa * x2, sa * x1 + ca * x2
        return c * y0 - s * y1, s * y0 + c * y1, y2 + d * point

    def to_link(self, i, value, x, point, f):
        """Return a point (or direction) given in frame i-1 in link ``i``'s: ``A_i^-1 x``."""
        ca, sa = self._twist[i]
        theta, d = (self.theta[i], value) if self.prismatic[i] else (value, self.d[i])
        c, s = f.cos(theta), f.sin(theta)
        x0, x1, x2 = x
        y0, y1, y2 = c * x0 + s * x1 - self.a[i] * point, c * x1 - s * x0, x2 - d * point
        return y0, ca * y1 + sa * y2, ca * y2 - sa * y1

    def twist(self, i):
        """Return (cos, sin) of link ``i``'s twist alpha (0-based), 0 and +-1 exact."""
        return self._twist[i]

    def origin_of(self, i, t):
        """
        Return the origin of frame i-1 in frame k, from ``T_k_i``'s top rows ``t`` (12 values).

        For link ``i`` (0-based, revolute): in frame i that origin is ``-Rx(-alpha_i) [a_i, 0,
        d_i]`` whatever joint i's angle, which is what lets a closed form find it before
        knowing that angle. Three values: floats, arrays or symbols, as ``t``'s.
        """
        a, (ca, sa), d = self.a[i], self._twist[i], self.d[i]
        return apply_rows(t, (-a, -sa * d, -ca * d))


def checks(g, t, found, start, f):
    """
    Return each candidate's check: 8 values, written for floats and compiled with the form.

    For each candidate (6 DH values, NaN where its branch has none): its joint values with
    each revolute joint at the whole turn nearest ``start`` within the limits (6 values, NaN
    where no turn brings one within: :mod:`core.ik.turns`), then the position (m) and
    orientation (rad) errors of its tool pose from the target's (NaN where the branch has
    none). Whole turns change no pose, so the errors come from the DH values, frame 0 to the
    tool.
    """
    target = times_constant(list(t) + [0.0, 0.0, 0.0, 1.0], g._tool)
    checked = []
    for values in found:
        pose = _tool_pose(g, values, f)
        dx, dy, dz = (target[4 * r + 3] - pose[4 * r + 3] for r in range(3))
        # |R_target - R| (Frobenius) is 2 sqrt(2) sin(angle / 2), the angle between them.
        chord = f.sqrt(sum((target[4 * r + k] - pose[4 * r + k]) ** 2 for r in range(3)
                           for k in range(3))) / (2.0 * math.sqrt(2.0))
        q = [f.within((value - o) * s, lower, upper) if prismatic else
             f.turn((value - o) * s, first, lower, upper)
             for value, o, s, first, (lower, upper), prismatic in zip(
                 values, g.offsets, g.signs, start, g.limits, g.prismatic.tolist())]
        checked.append(tuple(q) + (f.sqrt(dx * dx + dy * dy + dz * dz), 2.0 * f.asin(chord)))
    return checked


def _tool_pose(g, values, f):
    """Return the tool pose in frame 0 at DH values ``values``: 16 values, row-major."""
    fixed_theta, fixed_d, prismatic = g.theta.tolist(), g.d.tolist(), g.prismatic.tolist()
    theta = [fixed_theta[j] if prismatic[j] else value for j, value in enumerate(values)]
    d = [value if prismatic[j] else fixed_d[j] for j, value in enumerate(values)]
    frames = composed_poses([f.cos(x) for x in theta], [f.sin(x) for x in theta], d,
                            g.a.tolist(), [c for c, _ in g._twist], [s for _, s in g._twist],
                            _IDENTITY_ROWS, False)
    return times_constant(frames[-16:], g._tool)


_IDENTITY_ROWS = ((1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0))


def apply_rows(t, x, point=True):
    """Return ``T x`` for T's top rows ``t`` (12 values, row-major) and a point (or direction)."""
    x0, x1, x2 = x
    return tuple(t[4 * r] * x0 + t[4 * r + 1] * x1 + t[4 * r + 2] * x2 + t[4 * r + 3] * point
                 for r in range(3))


def _asin(x):
    return math.asin(min(1.0, max(-1.0, x))) if abs(x) <= 1.0 + 1e-9 else math.nan


def _acos(x):
    return math.acos(min(1.0, max(-1.0, x))) if abs(x) <= 1.0 + 1e-9 else math.nan


def _array_asin(x):
    return np.arcsin(np.clip(np.where(np.abs(x) > 1.0 + 1e-9, np.nan, x), -1.0, 1.0))


def _array_acos(x):
    return np.arccos(np.clip(np.where(np.abs(x) > 1.0 + 1e-9, np.nan, x), -1.0, 1.0))


FLOATS = {'atan2': math.atan2, 'hypot': math.hypot, 'asin': _asin, 'acos': _acos,
          'positive': lambda x, floor: x if x >= floor else math.nan,
          'select': lambda condition, a, b: a if condition else b, 'max': max, 'min': min,
          'turn': turned, 'within': within, 'sqrt': math.sqrt,
          'unless_nan': lambda value, guard: value if guard == guard else math.nan,
          'cos': math.cos, 'sin': math.sin, 'nan': math.nan}
"""The closed forms' functions for one target: asin and acos of a ratio within 1e-9 beyond +-1
clipped, further NaN (no solution); ``positive(x, floor)`` x, or NaN below the floor;
``unless_nan(value, guard)`` value, or NaN where the guard is; ``turn`` and ``within`` the
whole-turn rule (:mod:`core.ik.turns`)."""
ARRAYS = {'atan2': np.arctan2, 'hypot': np.hypot, 'asin': _array_asin, 'acos': _array_acos,
          'positive': lambda x, floor: np.where(x >= floor, x, np.nan), 'select': np.where,
          'max': np.maximum, 'min': np.minimum, 'turn': turned_array, 'within': within_array,
          'sqrt': np.sqrt, 'unless_nan': lambda value, guard: np.where(
              np.isnan(guard), np.nan, value), 'cos': np.cos, 'sin': np.sin, 'nan': math.nan}
"""The same for a batch: numpy on arrays of one value per target."""
