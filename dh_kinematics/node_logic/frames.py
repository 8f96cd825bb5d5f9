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
TF frames of a chain: per-link transforms and the fixed ones (pure numpy; names: core.names).

Each moving link is published as its own transform, parent to child: the link's DH transform
``A_i(q_i)`` from link i-1's frame (the base frame for i = 1) to link i's frame. The fixed
transforms are world to base (``Chain.base``) and last link to tool (``Chain.tool``).
"""

from collections import namedtuple

from dh_kinematics.core.rotations import rotation_to_quaternion
import numpy as np

Frames = namedtuple('Frames', 'parents children translations rotations')
Frames.__doc__ = """Transforms to publish: parent and child names, translations (k, 3) in m and
rotations (k, 4) as quaternions [x, y, z, w]."""


def _frames(parents, children, T):
    return Frames(parents, children, T[:, :3, 3], rotation_to_quaternion(T[:, :3, :3]))


def link_frames(names, joints, poses, axes=None):
    """
    Return the transforms of the chosen links, and of their axis frames, from their poses.

    Parameters
    ----------
    names : tuple of str
        From :func:`core.names.frame_names`: joint j moves the frame ``names[2 + j]`` in
        ``names[1 + j]``.
    joints : sequence of int
        Joint indices.
    poses : array-like, shape (k, 7) or (7 k,)
        Per joint [x, y, z, qx, qy, qz, qw], in m; then one per joint that has an axis frame,
        as :meth:`StreamMath.finite_poses` gives them.
    axes : tuple of (str or None), optional
        From :func:`core.names.axis_frame_names`: joint j's axis frame, a child of
        ``names[1 + j]``, or None.

    Returns
    -------
    frames : Frames

    """
    with_axis = [j for j in joints if axes is not None and axes[j]]
    poses = np.reshape(np.asarray(poses, dtype=float), (len(joints) + len(with_axis), 7))
    return Frames([names[1 + j] for j in joints] + [names[1 + j] for j in with_axis],
                  [names[2 + j] for j in joints] + [axes[j] for j in with_axis],
                  poses[:, :3], poses[:, 3:])


def static_frames(chain, names):
    """Return the fixed transforms: world to base, and last link to tool."""
    T = np.stack([chain.base, chain.tool])
    return _frames([names[0], names[-2]], [names[1], names[-1]], T)
