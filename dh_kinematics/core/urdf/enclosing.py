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
A capsule enclosing each shape of a URDF's collision geometry, for the self-collision check.

Each shape, in its own frame (the URDF's ``<origin>``):

- a sphere of radius r: the capsule of one point and radius r (itself);
- a capsule (radius r, length l along z): itself;
- a cylinder (radius r, length l along z): the segment from ``-l/2`` to ``l/2`` on z with
  radius r (its rims lie on the capsule, its caps inside);
- a box (sides along x, y, z): the segment along its longest side, through the box, with the
  radius of the half-diagonal of the other two sides (every corner on the capsule);
- a mesh: the box of its vertices' bounds (STL or OBJ, scaled, found as RViz finds it:
  :func:`core.meshes.resolve`), as above.

The capsule is ``(a, b, radius)``: the segment's ends in the link's frame (m) and its radius.
"""

from dh_kinematics.core import meshes
import numpy as np

__all__ = ['enclosing']


def enclosing(shape, environ=None):
    """
    Return the capsule ``(a, b, radius)`` enclosing a :data:`core.urdf.reader.Shape` (module).

    ``a`` and ``b`` (3,) in the shape's link frame, m. ``environ``: where ``package://`` is
    looked up (the process's environment by default). Raises ValueError saying why a shape
    cannot be enclosed (a mesh file not found or not readable, an unknown kind).

    Examples
    --------
    >>> from dh_kinematics.core.urdf.reader import Shape
    >>> a, b, r = enclosing(Shape('box', np.eye(4), (0.1, 0.4, 0.2), None, None))
    >>> a.tolist(), b.tolist(), round(r, 4)
    ([0.0, -0.2, 0.0], [0.0, 0.2, 0.0], 0.1118)

    """
    size = shape.size
    if shape.kind == 'sphere':
        return _placed(shape.T_link_shape, np.zeros(3), np.zeros(3), size[0])
    if shape.kind in ('cylinder', 'capsule'):
        half = np.array([0.0, 0.0, size[1] / 2.0])
        return _placed(shape.T_link_shape, -half, half, size[0])
    if shape.kind == 'box':
        return _box(shape.T_link_shape, -np.asarray(size) / 2.0, np.asarray(size) / 2.0)
    if shape.kind == 'mesh':
        try:
            points = meshes.vertices(meshes.resolve(shape.uri, environ)) * shape.scale
        except (OSError, ValueError) as error:
            raise ValueError(f'mesh {shape.uri}: {error}') from None
        return _box(shape.T_link_shape, points.min(axis=0), points.max(axis=0))
    raise ValueError(f'cannot enclose a {shape.kind}')


def _box(T, lower, upper):
    """Return the capsule of a box from ``lower`` to ``upper`` in the frame ``T`` places."""
    centre, sides = (lower + upper) / 2.0, upper - lower
    axis = int(np.argmax(sides))
    others = [k for k in range(3) if k != axis]
    half = np.zeros(3)
    half[axis] = sides[axis] / 2.0
    return _placed(T, centre - half, centre + half, float(np.hypot(*sides[others]) / 2.0))


def _placed(T, a, b, radius):
    return T[:3, :3] @ a + T[:3, 3], T[:3, :3] @ b + T[:3, 3], float(radius)
