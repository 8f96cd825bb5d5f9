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
The pose of every link for one configuration, compiled to straight-line Python.

What :meth:`DHTable.poses` returns for all joints, as
:func:`core.kinematics.dh_transforms.link_poses` computes it, run once on symbols
(:mod:`core.symbolic`): no loop, no per-link call, and no
terms that the link's constants make zero. The quaternion's sign (qw >= 0) is one conditional
expression per link. The values equal (``==``) those of ``link_poses`` to the last bit, but
for the sign of a zero (:mod:`core.symbolic`). The node publishes these poses on /tf for every
joint_states message. Units: rad and m in, m and unit quaternions out.
"""

from dh_kinematics.core.kinematics.dh_transforms import link_pose
from dh_kinematics.core.symbolic import Code, list_function, Symbol


def compile_link_poses(table, twists):
    """
    Return ``poses(q)``: the flat list of every link's [x, y, z, qx, qy, qz, qw], n floats in.

    Parameters
    ----------
    table : DHTable
        The joint substitution (:meth:`DHTable.floats`) and the convention.
    twists : sequence of tuple
        Per link :func:`core.kinematics.dh_transforms.twist_constants`.

    """
    code = Code()
    flat = link_pose_values(code, table, twists)
    return list_function(code, [flat], 'q', f'<poses of {len(twists)} links>', single=True)


def link_pose_values(code, table, twists):
    """
    Return every link's pose as values of ``code`` (symbols and floats), 7 per link.

    The joint values are ``q[0]`` .. ``q[n - 1]`` of the generated code; the values are those
    :func:`compile_link_poses` returns, operation for operation.
    """
    n = len(twists)
    theta, d = table.floats([code.emit(f'q[{j}]') for j in range(n)])
    flat = []
    for t, dj, twist in zip(theta, d, twists):
        pose = link_pose(t, dj, twist, table.mdh, lambda x: code.call('cos', x),
                         lambda x: code.call('sin', x))
        qw = pose[6]
        if isinstance(qw, Symbol):  # -1.0 or 1.0, which multiply exactly
            sign = code.emit(f'(-1.0 if {qw.name} < 0.0 else 1.0)')
        else:
            sign = -1.0 if qw < 0.0 else 1.0
        flat += pose[:3] + [value * sign for value in pose[3:]]
    return flat
