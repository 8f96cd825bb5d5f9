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
An arm's capsules on its link frames, and the pairs of them that may meet.

Each capsule is fixed on one link frame k (0: the base, n: the last link): its segment's two
ends in that frame (m) and its radius: a link's ``collision`` field (the joint that moves it).
Where the model gives none, they are the default body's rods (:mod:`core.bodies`), each the
capsule of the URDF cylinder the package writes for it: the same segment and radius, so the
capsule encloses the cylinder (its ends' half spheres reach one radius past the cylinder's
caps). A rod drawn in a standard DH link's axis frame is carried to its link frame by the
inverse of that link's fixed ``Tx(a) Rx(alpha)`` (and Hayati's ``Ry(beta)``).

The pairs judged are those of capsules on two links not joined by one joint (link frames
``k`` and ``l`` with ``|k - l| >= 2``): a joint's two links touch at the joint by design.
Pairs of links named in ``ignore`` (as MoveIt's SRDF disables them) are left out too.

The closing speed of a pair is minus its distance's rate: ``-normal . (v_b - v_a)``, with
``v_a`` and ``v_b`` the velocities of the segments' closest points (each the mean of its
segment's ends' velocities weighted as the point lies between them: a rigid body's
velocities are affine in position) from the ends' Jacobians and the joint rates. It is exact
wherever the closest points are unique (the derivative of a minimum is the derivative at
its minimiser), positive while the capsules close in, m/s.
"""

import itertools

from dh_kinematics.core import bodies
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.safety.capsules import Closest, closest_points
from dh_kinematics.core.safety.points import LinkPoints
import numpy as np

__all__ = ['ignored_pairs', 'LinkCapsules']


def ignored_pairs(frames, ignore, field='ignore'):
    """
    Return the pairs of link indices ``(k, l)``, ``k < l``, that ``ignore`` names.

    ``frames``: the link frames' names, the base's first; ``ignore``: strings ``'linkA
    linkB'``. Raises InvalidFieldError naming ``field`` for any other entry.
    """
    index = {name: k for k, name in enumerate(frames)}
    pairs = set()
    for entry in ignore:
        names = entry.split() if isinstance(entry, str) else None
        if names is None or len(names) != 2 or names[0] == names[1] or not all(
                name in index for name in names):
            raise InvalidFieldError(field, entry, "must be 'linkA linkB': two link frames of "
                                    f'the arm ({", ".join(frames)})')
        k, l = sorted(index[name] for name in names)  # noqa: E741
        pairs.add((k, l))
    return pairs


class LinkCapsules:
    """
    Capsules fixed on an arm's link frames (see the module docstring).

    Parameters
    ----------
    chain : Chain
        The arm.
    ignore : sequence of str
        Pairs of links never judged, each ``'linkA linkB'`` (link frame names, the base frame
        for the base).
    field : str
        The setting an error names.

    Raises
    ------
    InvalidFieldError
        Naming ``field`` for an entry that is not two of the arm's link frames.

    Attributes
    ----------
    chain : Chain
        The arm.
    links : array of int, shape (m,)
        The link frame each capsule is fixed on.
    frames : tuple of str
        The names of the link frames: the base frame, then each link's.
    ends : array, shape (m, 2, 3)
        Its segment's ends in that frame, m.
    radii : array, shape (m,)
        Its radius, m.
    pairs : array of int, shape (p, 2)
        The capsules of each pair judged.
    points : LinkPoints
        Every capsule's two ends, in order (for the arm's state, :class:`core.state.ArmState`).

    """

    def __init__(self, chain, ignore=(), field='ignore'):
        T_link_axis = np.linalg.inv(DHTable(chain.links).fixed)  # the fixed part's inverse
        given = {j + 1: link.collision for j, link in enumerate(chain.links)
                 if link.collision is not None}
        links, ends, radii = [], [], []
        for k, capsules in sorted(given.items()):
            links += [k] * len(capsules)
            ends += [row[:6].reshape(2, 3) for row in capsules]
            radii += capsules[:, 6].tolist()
        for rod in bodies.segments(chain):
            if rod.joint + 1 in given:
                continue
            rod_ends = np.array([rod.start, rod.end])
            if rod.axis_frame:
                T = T_link_axis[rod.joint]
                rod_ends = rod_ends @ T[:3, :3].T + T[:3, 3]
            links.append(rod.joint + 1)
            ends.append(rod_ends)
            radii.append(rod.radius)
        order = np.argsort(links, kind='stable')  # link by link
        self.links = np.array(links, dtype=int)[order]
        self.ends = np.array(ends, dtype=float).reshape(-1, 2, 3)[order]
        self.radii = np.array(radii, dtype=float)[order]
        self.frames = (chain.base_frame,) + tuple(chain.link_frames)
        skipped = ignored_pairs(self.frames, ignore, field)
        links = self.links.tolist()
        self.pairs = np.array([(a, b) for a, b in itertools.combinations(range(len(links)), 2)
                               if abs(links[a] - links[b]) >= 2
                               and (links[a], links[b]) not in skipped],
                              dtype=int).reshape(-1, 2)
        self.points = LinkPoints(np.repeat(self.links, 2), self.ends.reshape(-1, 3))
        self.chain = chain

    def placed(self, T_world_links):
        """
        Return each capsule's ends in the world, shape (..., m, 2, 3), m.

        ``T_world_links``: :meth:`Chain.fkine_all`'s link frames (..., n + 1, 4, 4), the base
        first.
        """
        T = T_world_links[..., self.links, :, :]
        return (np.einsum('...mij,...mkj->...mki', T[..., :3, :3], self.ends)
                + T[..., None, :3, 3])

    def closest(self, T_world_links):
        """Return :func:`capsules.closest_points` of every pair, along ``pairs``."""
        return self._closest(self.placed(T_world_links))

    def moving(self, ends, rates):
        """
        Return ``(closest, closing_speed)`` of every pair from its ends' motion.

        ``ends``: every capsule's two ends in the world, in :attr:`points`' order (..., 2 m, 3),
        m; ``rates``: their velocities (..., 2 m, 3), m/s (the arm's state holds both:
        :class:`core.state.ArmState`); the leading axes are rows (configurations).
        ``closest``: :func:`capsules.closest_points` along ``pairs`` (..., p) (m);
        ``closing_speed``: each pair's (..., p) (m/s, positive while closing).
        """
        closest, rates = self._closest(_capsules(ends)), _capsules(rates)
        a, b = self.pairs[:, 0], self.pairs[:, 1]
        return closest, _closing(closest, rates[..., a, :, :], rates[..., b, :, :])

    def nearest(self, ends, rates):
        """
        Return each row's nearest pair, ``(pair, distance, closing_speed)``, each (k,).

        ``ends`` and ``rates`` (k, 2 m, 3), as :meth:`moving` takes them; ``pair`` indexes
        :attr:`pairs` (the first of equals); its distance (m) and closing speed (m/s) are
        :meth:`moving`'s, the speed found for that pair alone.
        """
        closest, rates = self._closest(_capsules(ends)), _capsules(rates)
        pair = closest.distance.argmin(axis=-1)
        rows = np.arange(len(pair))
        nearest = Closest(*(value[rows, pair] for value in closest))
        a, b = self.pairs[pair, 0], self.pairs[pair, 1]
        return pair, nearest.distance, _closing(nearest, rates[rows, a], rates[rows, b])

    def _closest(self, ends):
        """Return :func:`capsules.closest_points` of the capsules' ``ends`` (..., m, 2, 3)."""
        a, b = self.pairs[:, 0], self.pairs[:, 1]
        return closest_points(ends[..., a, 0, :], ends[..., a, 1, :], self.radii[a],
                              ends[..., b, 0, :], ends[..., b, 1, :], self.radii[b])

    def pair_name(self, pair):
        """Return the links of pair ``pair`` (an index into :attr:`pairs`): ``'linkA linkB'``."""
        a, b = self.pairs[pair]
        return f'{self.frames[self.links[a]]} {self.frames[self.links[b]]}'


def _capsules(points):
    """Return ``points`` (..., 2 m, 3) as (..., m, 2, 3): each capsule's two ends."""
    points = np.asarray(points, dtype=float)
    return points.reshape(points.shape[:-2] + (-1, 2, 3))


def _closing(closest, rates_a, rates_b):
    """Return the closing speeds of ``closest``, its capsules' ends moving at ``rates_a``, _b."""
    s, t = closest.s[..., None], closest.t[..., None]
    v_a = (1.0 - s) * rates_a[..., 0, :] + s * rates_a[..., 1, :]
    v_b = (1.0 - t) * rates_b[..., 0, :] + t * rates_b[..., 1, :]
    return -np.einsum('...i,...i', closest.normal, v_b - v_a)
