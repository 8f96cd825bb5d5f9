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
The distance between capsules: the segments' closest points, less the radii.

A capsule is the set of points within ``radius`` (m) of a segment ``a``-``b``. Two capsules'
signed distance is the distance between their segments less both radii (negative: they
overlap by that much), and their closest points lie on the line between the segments' closest
points. The segments' closest points are Ericson's (Real-Time Collision Detection, 5.1.9):
the parameters ``s`` and ``t`` along each segment minimising ``|p(s) - q(t)|``, clamped to
[0, 1], computed for any number of pairs at once. Where the segments are parallel (the
minimum is a whole interval) the middle of the overlap is taken, so that the points, and not
only the distance, move smoothly with the capsules; a segment of zero length is a sphere.
"""

from collections import namedtuple

import numpy as np

__all__ = ['Closest', 'closest_points']

Closest = namedtuple('Closest', 'distance point_a point_b s t normal')
Closest.__doc__ = """The closest points of pairs of capsules (leading axes: the pairs).

distance : (...)
    Signed distance, m: the segments' distance less both radii (negative: overlapping).
point_a, point_b : (..., 3)
    The closest points on each capsule's surface (within the other where they overlap).
s, t : (...)
    The parameters of the segments' closest points along ``a0``-``a1`` and ``b0``-``b1``.
normal : (..., 3)
    The unit vector from a's segment's closest point to b's (0 where they meet): the
    distance grows at ``normal . (v_b - v_a)`` as those points move at ``v_a``, ``v_b``."""

_SMALL = 1e-12
"""Squared lengths (m^2) below this are a point; cross products below it, parallel segments."""


def _clamp(values):
    return np.minimum(np.maximum(values, 0.0), 1.0)  # NaN stays NaN; np.clip costs twice


def _dot(u, v):
    return np.einsum('...i,...i', u, v)


def closest_points(a0, a1, radius_a, b0, b1, radius_b):
    """
    Return the :data:`Closest` points of capsules ``a0``-``a1`` and ``b0``-``b1`` (m).

    Every argument broadcasts: points ``(..., 3)`` and radii ``(...)``, so one call judges
    every pair of an arm at one configuration or along a path.

    Examples
    --------
    >>> import numpy as np
    >>> from dh_kinematics.core.safety.capsules import closest_points
    >>> found = closest_points(np.array([0.0, 0.0, 0.0]), np.array([1.0, 0.0, 0.0]), 0.1,
    ...                        np.array([0.5, 1.0, -1.0]), np.array([0.5, 1.0, 1.0]), 0.2)
    >>> round(float(found.distance), 12), found.point_a.round(12).tolist()
    (0.7, [0.5, 0.1, 0.0])

    """
    a0, a1, b0, b1 = (np.asarray(point, dtype=float) for point in (a0, a1, b0, b1))
    d1, d2, r = a1 - a0, b1 - b0, a0 - b0
    a, e, b, c, f = (_dot(u, v) for u, v in ((d1, d1), (d2, d2), (d1, d2), (d1, r), (d2, r)))
    with np.errstate(divide='ignore', invalid='ignore'):
        ae = a * e
        denominator = ae - b * b
        parallel = denominator <= _SMALL * np.maximum(ae, _SMALL)
        # Not parallel: s from the lines' closest points, clamped; t for that s.
        s = _clamp((b * f - c * e) / denominator)
        t = (b * s + f) / e
        if parallel.any():  # t in the middle of where a projects onto b (an end of b where
            ends = f / e, (b + f) / e  # it does not)
            t = np.where(parallel, 0.5 * (np.maximum(np.minimum(*ends), 0.0)
                                          + np.minimum(np.maximum(*ends), 1.0)), t)
        # t clamped; then s again for a clamped t, and for the parallel's t.
        clamped = _clamp(t)
        s = np.where(parallel | (clamped != t), _clamp((clamped * b - c) / a), s)
        t = clamped
        point_a, point_b = a < _SMALL, e < _SMALL
        if point_a.any() or point_b.any():  # a segment that is a point: the other's nearest
            t = np.where(point_a, _clamp(f / e), t)  # point to it
            s = np.where(point_b, _clamp(-c / a), s)
            s = np.where(point_a, 0.0, s)
            t = np.where(point_b, 0.0, t)
        on_a = a0 + s[..., None] * d1
        on_b = b0 + t[..., None] * d2
        between = on_b - on_a
        length = np.sqrt(_dot(between, between))
        direction = np.where(length[..., None] > 0.0, between / length[..., None], 0.0)
    radius_a, radius_b = np.asarray(radius_a, dtype=float), np.asarray(radius_b, dtype=float)
    return Closest(length - radius_a - radius_b, on_a + radius_a[..., None] * direction,
                   on_b - radius_b[..., None] * direction, s, t, direction)
