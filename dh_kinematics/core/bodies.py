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
The arm's default body: a segment with a radius along each DH length and each joint's axis.

Where a model has no geometry of its own, its links are drawn from their DH parameters: a rod
along each link's ``a`` and (for a revolute joint) its ``d``, and a short, thicker rod along
each joint's axis, all of one radius sized from the arm's reach (2.5 % of the summed
``|a| + |d|``, at least 5 mm). The URDF writer draws each as a cylinder; the self-collision
check takes each as the capsule of the same segment and radius, which encloses that cylinder.

A segment's ends are in the frame it is drawn in (:data:`Segment`): joint ``j``'s axis frame
for a standard DH link (``Rz(theta) Tz(d)`` from frame ``j - 1``; its link frame where ``a``
and ``alpha`` are 0), the frame of the link it moves with for a modified DH one.
"""

from collections import namedtuple

__all__ = ['radius', 'Segment', 'segments']

Segment = namedtuple('Segment', 'joint axis_frame start end radius')
Segment.__doc__ = """A rod of the default body (m).

joint : int
    The joint it moves with (0-based; -1: the base, which no joint moves).
axis_frame : bool
    Whether its ends are in that joint's axis frame (a standard DH link), else in the frame
    of the link the joint moves (the base frame for -1).
start, end : tuple of float
    Its ends, (3,) each, on one axis of that frame.
radius : float
    Its radius."""


def radius(chain):
    """Return the rods' radius in m: 2.5 % of the arm's reach, at least 5 mm."""
    reach = sum(abs(link.a) + abs(link.d) for link in chain.links)
    return max(0.005, 0.025 * max(reach, 0.1))


def segments(chain):
    """
    Return the :data:`Segment` rods of ``chain``'s default body, link by link.

    Per link, in order: along ``a``, along ``d`` (revolute joints), along the joint's axis
    (1.3 times the radius, 3 radii long). Rods shorter than 1 nm are left out.
    """
    r = radius(chain)
    rods = []
    for j, link in enumerate(chain.links):
        along_a = (0.0, 0.0, 0.0), (float(link.a), 0.0, 0.0)
        if link.mdh:  # the a of a modified DH link lies in the frame before its joint
            rods.append(Segment(j - 1, False, *along_a, r))
        else:
            rods.append(Segment(j, True, *along_a, r))
        standard = not link.mdh
        if link.isrevolute():
            rods.append(Segment(j, standard, (0.0, 0.0, -float(link.d)), (0.0, 0.0, 0.0), r))
        rods.append(Segment(j, standard, (0.0, 0.0, -1.5 * r), (0.0, 0.0, 1.5 * r), 1.3 * r))
    return [rod for rod in rods
            if sum((b - a) ** 2 for a, b in zip(rod.start, rod.end)) >= 1e-18]
