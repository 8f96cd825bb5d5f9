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
Recursive Newton-Euler inverse dynamics for DH chains, one code path for floats and arrays.

Vectors are tuples of three components. A component is a Python float for one configuration,
which is fastest in CPython, or an array of shape (m,) for a batch of m configurations, which
vectorises over the batch. The same arithmetic serves both.

Frames: link j's frame is the DH frame after joint j. Its rotation from the previous frame is
``Rz(theta) Rx(alpha) Ry(beta)`` (standard DH) or ``Rx(alpha) Ry(beta) Rz(theta)`` (modified
DH), without the ``Ry`` where Hayati's beta is 0. Units are SI.
"""

from collections import namedtuple

LinkConstants = namedtuple('LinkConstants', 'prismatic sign a ca sa m r inertia cb sb')
LinkConstants.__doc__ = """Per-link constants: joint type, flip sign (+1 or -1), a (m),
cos and sin of alpha, mass (kg), centre of mass (m, link frame), inertia rows (kg m^2), and cos
and sin of Hayati's beta (1 and 0 for plain DH)."""


def _cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _add(u, v):
    return (u[0] + v[0], u[1] + v[1], u[2] + v[2])


def _scale(u, k):
    return (u[0] * k, u[1] * k, u[2] * k)


def _matvec(rows, v):
    r0, r1, r2 = rows
    return (r0[0] * v[0] + r0[1] * v[1] + r0[2] * v[2],
            r1[0] * v[0] + r1[1] * v[1] + r1[2] * v[2],
            r2[0] * v[0] + r2[1] * v[1] + r2[2] * v[2])


def _rz(c, s, v):
    return (c * v[0] - s * v[1], s * v[0] + c * v[1], v[2])


def _rz_t(c, s, v):
    return (c * v[0] + s * v[1], c * v[1] - s * v[0], v[2])


def _rx(c, s, v):
    return (v[0], c * v[1] - s * v[2], s * v[1] + c * v[2])


def _rx_t(c, s, v):
    return (v[0], c * v[1] + s * v[2], c * v[2] - s * v[1])


def _ry(c, s, v):
    return (c * v[0] + s * v[2], v[1], c * v[2] - s * v[0])


def _ry_t(c, s, v):
    return (c * v[0] - s * v[2], v[1], s * v[0] + c * v[2])


def _to_link(mdh, ct, st, link, v):
    """Express v, given in the previous frame, in the link frame: R^T v."""
    if link.sb:
        if mdh:
            return _rz_t(ct, st, _ry_t(link.cb, link.sb, _rx_t(link.ca, link.sa, v)))
        return _ry_t(link.cb, link.sb, _rx_t(link.ca, link.sa, _rz_t(ct, st, v)))
    if mdh:
        return _rz_t(ct, st, _rx_t(link.ca, link.sa, v))
    return _rx_t(link.ca, link.sa, _rz_t(ct, st, v))


def _to_previous(mdh, ct, st, link, v):
    """Express v, given in the link frame, in the previous frame: R v."""
    if link.sb:
        if mdh:
            return _rx(link.ca, link.sa, _ry(link.cb, link.sb, _rz(ct, st, v)))
        return _rz(ct, st, _rx(link.ca, link.sa, _ry(link.cb, link.sb, v)))
    if mdh:
        return _rx(link.ca, link.sa, _rz(ct, st, v))
    return _rz(ct, st, _rx(link.ca, link.sa, v))


def joint_axis(mdh, link):
    """
    Return the joint's axis where the algorithm needs it: a unit vector of 3 floats.

    Modified DH: z of the link frame in the previous frame, ``Rx(alpha) Ry(beta) z``. Standard
    DH: z of the previous frame in the link frame, ``(Rx(alpha) Ry(beta))^T z``.
    """
    ca, sa, cb, sb = link.ca, link.sa, link.cb, link.sb
    if not sb:
        return (0.0, -sa, ca) if mdh else (0.0, sa, ca)
    return (sb, -sa * cb, ca * cb) if mdh else (-ca * sb, sa, ca * cb)


def rigid_body_torques(mdh, links, ct, st, d, qd, qdd, base_acceleration, fext):
    """
    Joint torques of the rigid bodies alone (no motor inertia, no friction).

    Parameters
    ----------
    mdh : bool
        True for modified DH.
    links : sequence of LinkConstants, length n
        Constants of each link, base to tip.
    ct, st : sequence, length n
        cos and sin of each joint's theta (joint value substituted), floats or (m,) arrays.
    d : sequence, length n
        Each joint's d in m (joint value substituted).
    qd, qdd : sequence, length n
        Joint velocities and accelerations (rad/s, rad/s^2 or m/s, m/s^2), before flip.
    base_acceleration : tuple of 3
        Linear acceleration of the base frame, in the base frame: ``-R_base^T g`` for gravity g.
    fext : tuple of 6
        Wrench ``[Fx Fy Fz Mx My Mz]`` exerted by the last link frame on the environment,
        expressed in that frame, about its origin.

    Returns
    -------
    tau : list, length n
        Joint torques (N m) or forces (N), floats or (m,) arrays.

    """
    zero = (0.0, 0.0, 0.0)
    w, wd, acc = zero, zero, base_acceleration
    forces, moments, offsets = [], [], []
    for j, link in enumerate(links):
        c, s, dj = ct[j], st[j], d[j]
        rate, accel = qd[j] * link.sign, qdd[j] * link.sign
        if mdh:
            axis = joint_axis(mdh, link)
            p = ((link.a + axis[0] * dj) if link.sb else link.a, axis[1] * dj, axis[2] * dj)
        else:
            axis = (0.0, 0.0, 1.0)
            p = (link.a * c, link.a * s, dj)
        spin = _scale(axis, rate)
        if link.prismatic:
            acc = _add(_add(acc, _cross(wd, p)), _cross(w, _cross(w, p)))
            acc = _add(_add(acc, _scale(_cross(w, spin), 2.0)), _scale(axis, accel))
        else:
            if mdh:
                acc = _add(_add(acc, _cross(wd, p)), _cross(w, _cross(w, p)))
            wd = _add(_add(wd, _scale(axis, accel)), _cross(w, spin))
            w = _add(w, spin)
            if not mdh:
                acc = _add(_add(acc, _cross(wd, p)), _cross(w, _cross(w, p)))
        w = _to_link(mdh, c, s, link, w)
        wd = _to_link(mdh, c, s, link, wd)
        acc = _to_link(mdh, c, s, link, acc)
        com_acc = _add(_add(acc, _cross(wd, link.r)), _cross(w, _cross(w, link.r)))
        forces.append(_scale(com_acc, link.m))
        moments.append(_add(_matvec(link.inertia, wd), _cross(w, _matvec(link.inertia, w))))
        offsets.append(p)

    force, moment = tuple(fext[:3]), tuple(fext[3:])
    tau = [None] * len(links)
    for j in range(len(links) - 1, -1, -1):
        link = links[j]
        if j < len(links) - 1:
            # Wrench from link j+1, expressed in frame j, moment taken about origin j.
            nxt = links[j + 1]
            force = _to_previous(mdh, ct[j + 1], st[j + 1], nxt, force)
            moment = _to_previous(mdh, ct[j + 1], st[j + 1], nxt, moment)
            moment = _add(moment, _cross(offsets[j + 1], force))
        moment = _add(_add(moments[j], _cross(link.r, forces[j])), moment)
        force = _add(forces[j], force)
        if mdh:
            # The joint axis is z of frame j, through its origin.
            generalised = force[2] if link.prismatic else moment[2]
        else:
            # The joint axis is z of frame j-1: (0, sin alpha, cos alpha) in frame j (with
            # beta: joint_axis), through origin j-1, which is at -p* = -R^T (a, 0, d) from
            # origin j: -(a, d sin alpha, d cos alpha) without beta.
            axis = joint_axis(mdh, link)
            if link.prismatic:
                along = force
            else:
                if link.sb:
                    pstar = (link.a * link.cb + axis[0] * d[j], axis[1] * d[j],
                             link.a * link.sb + axis[2] * d[j])
                else:
                    pstar = (link.a, link.sa * d[j], link.ca * d[j])
                along = _add(moment, _cross(pstar, force))
            generalised = axis[0] * along[0] + axis[1] * along[1] + axis[2] * along[2] \
                if link.sb else link.sa * along[1] + link.ca * along[2]
        tau[j] = generalised * link.sign
    return tau
