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
Extra fixed frames: named frames attached to any frame of a chain, or to one another.

A chain publishes its world, base, link, axis and tool frames (:mod:`core.names`). Beside them
a model may carry frames of its own: REP-199's ``base`` (the controller's base, which the
pendant reports) and ``flange`` (where an end effector is attached), a camera, a tool changer, a
TCP. Each is a :data:`FixedFrame`: a name, the frame it hangs from (``parent``), and its pose in
that frame, ``T_parent_frame`` (m). The node publishes them on /tf_static and the URDF holds
each as a link with a fixed joint ``<parent>_to_<name>``. A parent is a frame of the chain or
another extra frame, in any order, as long as the frames form a tree rooted at the chain.
"""

from collections import namedtuple

from dh_kinematics.core import bounds, names
from dh_kinematics.core.checks import check_transform, InvalidFieldError
from dh_kinematics.core.kinematics.dh_transforms import fixed_transforms
from dh_kinematics.core.rotations import xyz_rpy_to_transform
import numpy as np

FixedFrame = namedtuple('FixedFrame', 'name parent T_parent_frame')
FixedFrame.__doc__ = """An extra frame: its name, its parent frame's name and its pose in the
parent, a (4, 4) homogeneous transform in m."""


def fixed_frame(name, parent, xyz=(0.0, 0.0, 0.0), rpy=(0.0, 0.0, 0.0)):
    """Return the :data:`FixedFrame` ``name`` at ``xyz`` (m) and ``rpy`` (rad) in ``parent``."""
    return FixedFrame(name, parent, xyz_rpy_to_transform(xyz, rpy))


def check_frames(frames, chain_frames):
    """
    Check extra frames against the chain's own; return them as a tuple, parents first.

    Parameters
    ----------
    frames : sequence of FixedFrame
        The extra frames, in any order.
    chain_frames : collection of str
        The frames of the chain they may hang from (unprefixed): world, base, links, axis
        frames and tool.

    Raises
    ------
    InvalidFieldError
        Naming ``frames.<name>.parent`` for a parent that is neither a chain frame nor an
        extra one, or for frames that hang from each other in a loop; ``frames.<name>`` for
        a transform that is not homogeneous or puts the frame beyond +-1000 m; ``frames``
        for something that is not a sequence of FixedFrame.

    """
    if not isinstance(frames, (list, tuple)) or not all(
            isinstance(frame, FixedFrame) for frame in frames):
        raise InvalidFieldError('frames', frames, 'must be a sequence of FixedFrame')
    by_name = {}
    for frame in frames:
        names.check_name(f'frames.{frame.name}', frame.name, 'frame')
        if frame.name in chain_frames or frame.name in by_name:
            raise InvalidFieldError(f'frames.{frame.name}', frame.name, 'is already the name of '
                                    'a frame; every frame on TF needs a name of its own')
        if not isinstance(frame.parent, str):
            raise InvalidFieldError(f'frames.{frame.name}.parent', frame.parent,
                                    'must be the name of a frame')
        T = check_transform(f'frames.{frame.name}', frame.T_parent_frame)
        bounds.check_magnitude(f'frames.{frame.name}.xyz', T[:3, 3], bounds.LENGTH_MAX, 'm')
        T.flags.writeable = False
        by_name[frame.name] = FixedFrame(frame.name, frame.parent, T)
    for frame in by_name.values():
        if frame.parent not in chain_frames and frame.parent not in by_name:
            raise InvalidFieldError(f'frames.{frame.name}.parent', frame.parent,
                                    'must name a frame of the chain or another extra frame ('
                                    f'chain frames: {", ".join(chain_frames)})')
    ordered, placed = [], set(chain_frames)
    while len(ordered) < len(by_name):
        ready = [frame for frame in by_name.values()
                 if frame.name not in placed and frame.parent in placed]
        if not ready:
            looped = sorted(name for name in by_name if name not in placed)
            raise InvalidFieldError(f'frames.{looped[0]}.parent', by_name[looped[0]].parent,
                                    f'frames {looped} hang from one another in a loop; one '
                                    'must hang from a frame of the chain')
        ordered += ready
        placed.update(frame.name for frame in ready)
    return tuple(ordered)


def world_poses(chain, q):
    """
    Return the world pose of every frame of ``chain`` at joint values ``q``, by name.

    The world, base, link, axis and tool frames and the extra frames, unprefixed:
    ``T_world_frame``, shape (4, 4), m; or (m, 4, 4) for ``m`` configurations. ``q`` has shape
    (n,) or (m, n), rad or m.
    """
    T = chain.fkine_all(q)  # (n+1, 4, 4) or (m, n+1, 4, 4)
    poses = {chain.world_frame: np.broadcast_to(np.eye(4), T[..., 0, :, :].shape),
             chain.base_frame: T[..., 0, :, :], chain.tool_frame: T[..., -1, :, :] @ chain.tool}
    poses.update((frame, T[..., j, :, :]) for j, frame in enumerate(chain.link_frames, start=1))
    for j, (link, axis) in enumerate(zip(chain.links, names.axis_frame_names(chain))):
        if axis:  # the link's frame without its fixed Tx(a) Rx(alpha) Ry(beta)
            poses[axis] = T[..., j + 1, :, :] @ np.linalg.inv(
                fixed_transforms([link.a], [link.alpha], [link.beta])[0])
    for frame in chain.frames:  # parents first
        poses[frame.name] = poses[frame.parent] @ frame.T_parent_frame
    return poses
