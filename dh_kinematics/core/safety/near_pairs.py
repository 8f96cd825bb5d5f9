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
The pairs of links near each other in most configurations: what the self-collision check skips.

As MoveIt's setup assistant finds the pairs "always in collision" by sampling, the capsules of
each pair of links (:class:`LinkCapsules`) are placed at many configurations spread over the
joint ranges (:func:`core.configurations.spread`: no random draw); a pair whose closest
capsules come within ``distance`` (m) in at least ``fraction`` of them touches by the arm's
design (a wrist's links around one point, a shoulder's), and judging it would hold the level
at WARN or ERROR. Those pairs are proposed for ``safety.self_collision.ignore`` and MoveIt's SRDF.
"""

from dh_kinematics.core import configurations

__all__ = ['near_pairs']


def near_pairs(capsules, distance, count=1000, fraction=0.95):
    """
    Return ``'linkA linkB'`` of each pair of links near in most configurations (module).

    Parameters
    ----------
    capsules : LinkCapsules
        The arm's capsules; the pairs it already ignores are not proposed again.
    distance : float
        How near is near, m (the node's ``safety.self_collision.warn_distance``).
    count : int
        The configurations spread over the joint ranges.
    fraction : float
        The share of them a pair must be near in.

    Examples
    --------
    A spherical wrist's first and last links meet at its centre in every configuration:

    >>> import math
    >>> from dh_kinematics import Chain, Link
    >>> from dh_kinematics.core.safety import LinkCapsules
    >>> wrist = Chain([Link(d=0.4, alpha=-math.pi / 2), Link(alpha=math.pi / 2), Link(d=0.1)])
    >>> near_pairs(LinkCapsules(wrist), 0.05)
    ['link1 link3']

    """
    chain = capsules.chain
    q = configurations.spread(chain, count)
    gaps = capsules.closest(chain.fkine_all(q)).distance.reshape(len(q), -1)
    links = capsules.links[capsules.pairs]
    found = []
    for k, l in sorted(set(map(tuple, links.tolist()))):  # noqa: E741
        of_pair = (links[:, 0] == k) & (links[:, 1] == l)
        near = (gaps[:, of_pair].min(axis=1) < distance).mean()
        if near >= fraction:
            found.append(f'{capsules.frames[k]} {capsules.frames[l]}')
    return found
