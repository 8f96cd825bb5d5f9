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
Safety planes and the tool's direction, as a cobot's safety settings define them.

A plane is ``n . x = offset`` in the world (``n`` a unit normal, ``offset`` in m): the allowed
side is where ``n . x > offset``. A point's signed distance to it is ``n . p - offset``, a
sphere's (a tool's spheres, centre fixed in the tool frame) that less its radius: negative
once it crosses. The tool's direction is the angle (rad) between the tool frame's z axis and a
given axis in the world (0: along it).
"""

from collections import namedtuple
import math

from dh_kinematics.core.checks import check_array, InvalidFieldError
import numpy as np

Plane = namedtuple('Plane', 'name normal offset')
Plane.__doc__ = """A plane in the world: its name, unit normal (3,) and offset, m."""


def check_plane(name, normal, offset, field='planes'):
    """Return the :data:`Plane` ``n . x = offset`` (normal made unit; not zero, finite)."""
    normal = check_array(f'{field}.{name}.normal', normal, [(3,)])
    length = float(np.linalg.norm(normal))
    if not length > 1e-9:
        raise InvalidFieldError(f'{field}.{name}.normal', normal.tolist(),
                                'must be a non-zero vector (the side allowed)')
    if not math.isfinite(offset):
        raise InvalidFieldError(f'{field}.{name}.offset', offset, 'must be finite (m)')
    return Plane(name, normal / length, float(offset))


def signed_distance(plane, point, radius=0.0):
    """
    Return the signed distance (m) of a point ``(x, y, z)``, or a sphere of ``radius``, to a plane.

    Positive on the allowed side. The coordinates may be floats, arrays (a distance each) or
    values of generated code (:class:`core.state.ArmState` compiles it).
    """
    (a, b, c), (x, y, z) = plane.normal.tolist(), point
    return a * x + b * y + c * z - plane.offset - radius


def tilt(z_axis, axis, functions=math):
    """
    Return the angle (rad) between the tool's z axis and the unit ``axis``, both in the world.

    ``z_axis`` is the third column of ``R_world_tool`` (3 floats, or values of generated code,
    with ``functions`` its :class:`core.symbolic.Calls` of ``atan2`` and ``sqrt``).
    """
    (x, y, z), (a, b, c) = z_axis, np.asarray(axis, dtype=float).tolist()
    across = [y * c - z * b, z * a - x * c, x * b - y * a]
    return functions.atan2(functions.sqrt(across[0] * across[0] + across[1] * across[1]
                                          + across[2] * across[2]), x * a + y * b + z * c)
