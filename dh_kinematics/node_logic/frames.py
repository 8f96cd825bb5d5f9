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
TF frames of a chain, as its URDF has them: one transform per URDF joint (pure numpy).

Every transform on /tf and /tf_static is a joint of the generated URDF (:mod:`core.urdf.writer`),
parent to child, and every URDF joint is published exactly once: the moving joints on /tf
(:func:`joint_frames`), the fixed ones on /tf_static (:func:`static_frames`). So the TF tree is
the URDF's tree, and robot_state_publisher or a simulator given the same URDF publishes the same
transforms. A modified DH link's joint moves link i-1's frame to link i's; a standard DH link
with ``a`` or ``alpha`` not 0 moves its parent's frame to its axis frame ``<link>_axis``, the
link's frame being fixed on that (:mod:`core.names`). Names: :mod:`core.names`.
"""

from collections import namedtuple

from dh_kinematics.core.names import axis_frame_names, frame_names, parent_name
from dh_kinematics.core.rotations import rotation_to_quaternion
import numpy as np

Frames = namedtuple('Frames', 'parents children translations rotations')
Frames.__doc__ = """Transforms to publish: parent and child names, translations (k, 3) in m and
rotations (k, 4) as quaternions [x, y, z, w]."""


def joint_children(names, axes):
    """
    Return, per joint, the frame its motion moves: its axis frame if it has one, else its link.

    Parameters
    ----------
    names : tuple of str
        From :func:`core.names.frame_names`: joint j's link frame is ``names[2 + j]``, its
        parent ``names[1 + j]``.
    axes : tuple of (str or None)
        From :func:`core.names.axis_frame_names`.

    """
    return tuple(axis or link for axis, link in zip(axes, names[2:-1]))


def joint_frames(names, children, joints, poses):
    """
    Return the transforms of the chosen joints from their poses, parent to moved frame.

    Parameters
    ----------
    names : tuple of str
        From :func:`core.names.frame_names`: joint j's parent frame is ``names[1 + j]``.
    children : tuple of str
        From :func:`joint_children`.
    joints : sequence of int
        Joint indices.
    poses : array-like, shape (k, 7) or (7 k,)
        Per joint [x, y, z, qx, qy, qz, qw], in m, as :meth:`StreamMath.finite_poses` gives
        them.

    Returns
    -------
    frames : Frames

    """
    poses = np.reshape(np.asarray(poses, dtype=float), (len(joints), 7))
    return Frames([names[1 + j] for j in joints], [children[j] for j in joints],
                  poses[:, :3], poses[:, 3:])


def static_frames(chain, prefix=''):
    """
    Return the fixed transforms of ``chain`` with ``prefix``: every fixed joint of its URDF.

    World to base, each axis frame to its link (``Tx(a) Rx(alpha)``), last link to tool, and
    each extra frame from its parent (:mod:`core.fixed_frames`), in that order.
    """
    names = frame_names(chain, prefix)
    axes = axis_frame_names(chain, prefix)
    fixed = chain.dynamic_constants.table.fixed
    parents, children, T = [names[0]], [names[1]], [chain.base]
    for j, axis in enumerate(axes):
        if axis is not None:
            parents.append(axis)
            children.append(names[2 + j])
            T.append(fixed[j])
    parents.append(names[-2])
    children.append(names[-1])
    T.append(chain.tool)
    for frame in chain.frames:
        parents.append(parent_name(chain, frame.parent, prefix))
        children.append(prefix + frame.name)
        T.append(frame.T_parent_frame)
    T = np.stack(T)
    return Frames(parents, children, T[:, :3, 3], rotation_to_quaternion(T[:, :3, :3]))
