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
Points on an arm's links, where they are and how fast they move.

A point is fixed on one link frame k (0: the base, which stands still in the world). Its
velocity is what the joints before it give it: joint j (1 to k) turns it about its axis or
slides it along it,

    v = sum_j  s_j z_j x (p - o_j) qd_j   (revolute),   s_j z_j qd_j   (prismatic),

with ``z_j`` and ``o_j`` joint j's axis and a point on it in the world (standard DH: frame
j-1's z axis and origin; modified DH: frame j's) and ``s_j`` its flip sign: the Jacobian of
:func:`core.kinematics.unrolled.point_jacobian`, compiled for the arm
(:meth:`Chain.points_function`). Every frame the chain publishes is such a point
(:class:`FramePoints`), and so is each link's centre of mass (:class:`LinkPoints`).
Units: m, m/s, rad/s.
"""

from dh_kinematics.core import names
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.fixed_frames import world_poses
import numpy as np


class LinkPoints:
    """
    Points fixed on a chain's link frames: which frame each is on, and where on it.

    :meth:`Chain.points_function` compiles where they are and how fast they move;
    :class:`core.state.ArmState` what the monitors read of them.

    Parameters
    ----------
    links : sequence of int
        The link frame each point is fixed on: 0 (the base) to n.
    offsets : array-like, shape (k, 3)
        Each point in its link frame, m.

    """

    def __init__(self, links, offsets):
        self.links = np.asarray(links, dtype=int)
        self.offsets = np.asarray(offsets, dtype=float).reshape(-1, 3)


def check_frame(chain, frame, field='frames'):
    """Refuse a frame the chain does not publish, naming ``field``; return the frame."""
    known = [name.name for name in names.published_frames(chain)]
    if frame not in known:
        raise InvalidFieldError(field, frame, f'must be a frame of the arm: one of '
                                f'{", ".join(known)}')
    return frame


class FramePoints(LinkPoints):
    """
    The origins of named frames of a chain (:class:`LinkPoints`).

    Parameters
    ----------
    chain : Chain
    frames : sequence of str
        Frames the chain publishes (:func:`core.names.published_frames`, unprefixed): the
        world, base, link, axis and tool frames and the extra frames.
    field : str
        The field an error names.

    Raises
    ------
    InvalidFieldError
        Naming ``field`` for a frame the chain does not publish.

    """

    def __init__(self, chain, frames, field='frames'):
        self.frames = tuple(check_frame(chain, frame, field) for frame in frames)
        # Which link frame each is fixed on, and its origin there: found at one configuration.
        q = np.zeros(chain.n)
        poses, T = world_poses(chain, q), chain.fkine_all(q)
        owner = {chain.world_frame: 0, chain.base_frame: 0, chain.tool_frame: chain.n}
        owner.update((frame, j) for j, frame in enumerate(chain.link_frames, start=1))
        owner.update((axis, j) for j, axis in enumerate(names.axis_frame_names(chain), start=1)
                     if axis is not None)
        for frame in chain.frames:  # parents first
            owner[frame.name] = owner[frame.parent]
        links = [owner[frame] for frame in self.frames]
        super().__init__(links, [(np.linalg.inv(T[k]) @ poses[frame][:, 3])[:3]
                                 for frame, k in zip(self.frames, links)])
