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
A chain re-expressed in the other DH convention: the same arm, joints, frames and dynamics.

Standard DH puts link i's frame on joint i+1, modified DH on joint i; the same arm therefore
has other parameters and other link frames in each. :func:`converted` takes the chain's joint
axes at the zero configuration and places the other convention's frames on them
(:func:`core.kinematics.dh_fit.fit`). What moves with the frames is carried along: each link's
centre of mass, inertia and capsules (in its new frame), and the pose of every extra frame and
mesh that hangs on a link frame or the base frame (an axis frame's go to its link's frame). The
joint values, the limits, the friction, the base-to-tool kinematics and the dynamics are unchanged;
the base and tool transforms absorb what the conventions place differently.
"""

from dh_kinematics.core import fixed_frames, names
from dh_kinematics.core.dynamics.inertials import Inertial, moved
from dh_kinematics.core.kinematics import dh_fit
from dh_kinematics.core.kinematics.dh_table import joint_axes
import numpy as np


def converted(chain, convention, parallel_tolerance=dh_fit.PARALLEL_TOLERANCE):
    """
    Return ``chain`` in DH ``convention`` ('standard' or 'modified'); see the module docstring.

    A chain already in that convention is returned as it is.
    """
    modified = {'standard': False, 'modified': True}[convention]
    if chain.mdh == modified:
        return chain
    q = np.zeros(chain.n)
    T = chain.fkine_all(q)
    axes = [dh_fit.Axis(o, z, link.isrevolute())
            for z, o, link in zip(*joint_axes(chain, T), chain.links)]
    fit = dh_fit.fit(axes, chain.fkine(q), modified, parallel_tolerance, chain.joint_names)
    links = []
    for j, (link, fields) in enumerate(zip(chain.links, fit.links)):
        T_new_old = np.linalg.inv(fit.frames[j + 1]) @ T[j + 1]
        body = moved(Inertial(link.m, link.r, link.I), T_new_old)
        links.append(link.replace(convention=convention, r=dh_fit.clean(body.c),
                                  I=dh_fit.clean(body.I),
                                  collision=_moved_capsules(link.collision, T_new_old),
                                  **fields))
    before = fixed_frames.world_poses(chain, q)
    after = {chain.world_frame: np.eye(4), chain.base_frame: fit.frames[0]}
    after.update(zip(chain.link_frames, fit.frames[1:]))
    moved_to = dict(zip(names.axis_frame_names(chain), chain.link_frames))
    moved_to.pop(None, None)
    frames = []
    for frame in chain.frames:
        parent = moved_to.get(frame.parent, frame.parent)
        if parent in after:
            T_parent_frame = np.linalg.inv(after[parent]) @ before[frame.parent] @ \
                frame.T_parent_frame
            frame = frame._replace(parent=parent, T_parent_frame=T_parent_frame)
        frames.append(frame)
    meshes = {}
    for name, mesh in chain.meshes.items():
        if name in after:
            mesh = mesh._replace(T_frame_mesh=np.linalg.inv(after[name]) @ before[name] @
                                 mesh.T_frame_mesh)
        meshes[name] = mesh
    return chain.replace(links=links, base=fit.base, tool=fit.tool, frames=frames,
                         meshes=meshes)


def _moved_capsules(capsules, T_new_old):
    """Return capsules ``[a, b, radius]`` of frame ``old`` in frame ``new``, or None."""
    if capsules is None:
        return None
    ends = capsules[:, :6].reshape(-1, 3) @ T_new_old[:3, :3].T + T_new_old[:3, 3]
    return np.hstack([dh_fit.clean(ends).reshape(-1, 6), capsules[:, 6:]])
