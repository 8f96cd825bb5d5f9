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
The arm's motion at one configuration, compiled for the arm: what the safety monitor reads.

Each link k moves as a rigid body with angular velocity ``w_k`` and, at the point that
coincides with the world's origin, linear velocity ``u_k`` (its twist), so that a point ``p``
fixed on it moves at ``u_k + w_k x p``. From the base (at rest) outwards, joint j adds
``s_j z_j qd_j`` to ``w`` and ``s_j o_j x z_j qd_j`` to ``u`` (revolute) or ``s_j z_j qd_j``
to ``u`` (prismatic): one step per joint, where :mod:`points` sums a lever per joint and point.
The links' frames come from :func:`core.kinematics.unrolled.values`, and the whole runs once
on symbols (:mod:`core.symbolic`): straight-line float code with the arm's zeros left out.
It returns, in m, m/s, kg m/s and J:

- the linear momentum ``sum_k m_k v_k`` (3) and the kinetic energy
  ``1/2 sum_k (m_k |v_k|^2 + w_k^T R_k I_k R_k^T w_k) + 1/2 sum_j G_j^2 Jm_j qd_j^2`` (1), with
  ``v_k`` the velocity of link k's centre of mass (the payload folded into the last link);
- the position and velocity of each given point (3 + 3 each);
- the tool's pose, its top three rows (12);
- the signed distance of each given sphere to each given plane (:func:`planes.signed_distance`)
  and the tool's direction (:func:`planes.tilt`), where asked for.
"""

import math

from dh_kinematics.core.kinematics import unrolled
from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.safety.planes import signed_distance, tilt
from dh_kinematics.core.symbolic import Calls, list_function


def _cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def compile_motion(chain, links, offsets, planes=(), spheres=((), (), ()), axis=None):
    """
    Return ``motion(q, qd)``: momentum, kinetic energy, points, tool pose, planes (module).

    Parameters
    ----------
    chain : Chain
        The arm, its dynamics' masses included.
    links : sequence of int
        The link frame each point is fixed on, 0 (the base) to n.
    offsets : sequence of (3,) sequences
        Each point in its link frame, m.
    planes : sequence of planes.Plane
        The planes the spheres are judged against.
    spheres : (links, offsets, radii)
        The spheres judged against each plane: the link frame each centre is fixed on (0 to
        n), the centre there (m) and the radius (m; 0 for a point).
    axis : (3,) array or None
        Where given, the angle (rad) of the tool's z axis to this unit axis in the world.

    Returns
    -------
    motion : callable
        ``motion(q, qd)`` with joint values (rad or m) and rates as lists of floats; returns
        a list of 4 + 6 k + 12 floats, then the distance of each sphere to the first plane, to
        the second and so on, then the angle where ``axis`` is given.

    """
    table, n = DHTable(chain.links), chain.n
    code, frames = unrolled.values(table, chain.base[:3].tolist(), chain.tool.tolist(), 'frames')
    qd = [code.emit(f'qd[{j}]') for j in range(n)]
    w, u = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    twists = [(w, u)]  # the base's: at rest
    for j, link in enumerate(chain.links):
        frame = frames[16 * (j + 1 if chain.mdh else j):]
        sign = -1.0 if link.flip else 1.0
        rate = [sign * frame[k] * qd[j] for k in (2, 6, 10)]  # s z qd
        if link.isprismatic():
            u = [u[i] + rate[i] for i in range(3)]
        else:
            lever = _cross([frame[3], frame[7], frame[11]], rate)  # o x s z qd
            w = [w[i] + rate[i] for i in range(3)]
            u = [u[i] + lever[i] for i in range(3)]
        twists.append((w, u))

    def point(k, offset):
        frame = frames[16 * k:]
        p = [frame[4 * i] * offset[0] + frame[4 * i + 1] * offset[1]
             + frame[4 * i + 2] * offset[2] + frame[4 * i + 3] for i in range(3)]
        w_k, u_k = twists[k]
        turned = _cross(w_k, p)
        return p, [u_k[i] + turned[i] for i in range(3)]

    momentum, energy = [0.0, 0.0, 0.0], 0.0
    constants = chain.dynamic_constants
    for k, body in enumerate(constants.rne_links, start=1):
        _, v = point(k, body.r)
        momentum = [momentum[i] + body.m * v[i] for i in range(3)]
        frame, w_k = frames[16 * k:], twists[k][0]
        w_link = [frame[i] * w_k[0] + frame[4 + i] * w_k[1] + frame[8 + i] * w_k[2]
                  for i in range(3)]  # R^T w: in the link's frame
        spin = [sum(body.inertia[i][c] * w_link[c] for c in range(3)) for i in range(3)]
        energy = energy + 0.5 * (body.m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
                                 + w_link[0] * spin[0] + w_link[1] * spin[1]
                                 + w_link[2] * spin[2])
    for motor, rate in zip(constants.floats[0], qd):
        energy = energy + 0.5 * motor * (rate * rate)
    values = momentum + [energy]
    for k, offset in zip(links, offsets):
        p, v = point(int(k), [float(value) for value in offset])
        values += p + v
    pose = unrolled.times_constant(frames[-16:], chain.tool.tolist())[:12]
    values += pose
    centres = [point(int(k), [float(value) for value in offset])[0]
               for k, offset in zip(*spheres[:2])]
    for plane in planes:
        values += [signed_distance(plane, centre, float(radius))
                   for centre, radius in zip(centres, spheres[2])]
    functions = {'atan2': math.atan2, 'sqrt': math.sqrt}
    if axis is not None:
        values.append(tilt((pose[2], pose[6], pose[10]), axis, Calls(code, functions)))
    return list_function(code, [values], 'q, qd', f'<motion of {n} links>', single=True,
                         functions=functions)
