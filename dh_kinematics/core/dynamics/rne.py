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
Recursive Newton-Euler inverse dynamics for DH chains, written out in scalar arithmetic.

Every vector operation is expanded into arithmetic on its components and each link's rotation
is computed once, so the one code serves three callers: one configuration in Python floats
(three times faster than arrays of one, what a node computing efforts at 1 kHz needs), a batch
of m configurations with each value an (m,) array (:meth:`Chain.rne` of a batch and
``inertia``), and symbols, from which :mod:`core.dynamics.rne_unrolled` compiles it for one
arm. Units are SI. Frames: link j's frame is the standard or modified DH frame; forces and
moments of link j are expressed in frame j, moments about its origin.
"""

from collections import namedtuple

LinkConstants = namedtuple('LinkConstants', 'prismatic sign a ca sa m r inertia cb sb')
LinkConstants.__doc__ = """Per-link constants: joint type, flip sign (+1 or -1), a (m),
cos and sin of alpha, mass (kg), centre of mass (m, link frame), inertia rows (kg m^2), and cos
and sin of Hayati's beta (1 and 0 for plain DH)."""


def rotations(mdh, links, ct, st):
    """Return each link's rotation from the previous frame, as 9 floats, row-major."""
    rotations = []
    for link, c, s in zip(links, ct, st):
        ca, sa, cb, sb = link.ca, link.sa, link.cb, link.sb
        if sb and mdh:  # Rx(alpha) Ry(beta) Rz(theta)
            rotations.append((cb * c, -cb * s, sb, sa * sb * c + ca * s, ca * c - sa * sb * s,
                              -sa * cb, sa * s - ca * sb * c, ca * sb * s + sa * c, ca * cb))
        elif sb:  # Rz(theta) Rx(alpha) Ry(beta)
            rotations.append((c * cb - s * sa * sb, -s * ca, c * sb + s * sa * cb,
                              s * cb + c * sa * sb, c * ca, s * sb - c * sa * cb,
                              -ca * sb, sa, ca * cb))
        elif mdh:  # Rx(alpha) Rz(theta)
            rotations.append((c, -s, 0.0, ca * s, ca * c, -sa, sa * s, sa * c, ca))
        else:  # Rz(theta) Rx(alpha)
            rotations.append((c, -s * ca, s * sa, s, c * ca, -c * sa, 0.0, sa, ca))
    return rotations


def rigid_body_torques(mdh, links, ct, st, d, qd, qdd, base_acceleration, fext=None,
                       R=None):
    """
    Joint torques of the rigid bodies alone (no motor inertia, no friction).

    Parameters
    ----------
    mdh : bool
        True for modified DH.
    links : sequence of LinkConstants, length n
        Constants of each link, base to tip.
    ct, st : sequence, length n
        cos and sin of each joint's theta (joint value substituted): floats, or (m,) arrays
        for a batch; in a batch every value of every argument is a whole (m,) array, since
        the sums are taken in place.
    d : sequence, length n
        Each joint's d in m (joint value substituted), likewise.
    qd, qdd : sequence, length n, or None
        Joint velocities and accelerations (rad/s, rad/s^2 or m/s, m/s^2), before flip; both
        None for an arm at rest (the gravity load, about twice as fast).
    base_acceleration : tuple of 3
        Linear acceleration of the base frame, in the base frame: ``-R_base^T g`` for gravity g.
    fext : tuple of 6, optional
        Wrench ``[Fx Fy Fz Mx My Mz]`` (N, N m) exerted by the last link frame on the
        environment, expressed in that frame, about its origin; none by default.
    R : list, optional
        The :func:`rotations` of this configuration, when already known.

    Returns
    -------
    tau : list, length n
        Joint torques (N m) or forces (N), floats or (m,) arrays.

    """
    R = R or rotations(mdh, links, ct, st)
    if qd is None:
        bodies = _bodies_at_rest(mdh, links, R, ct, st, d, base_acceleration)
    else:
        bodies = _bodies(mdh, links, R, ct, st, d, qd, qdd, base_acceleration)
    return _joint_torques(mdh, links, R, d, bodies, fext)


def _bodies_at_rest(mdh, links, rotations, ct, st, d, base_acceleration):
    """Per link: the force and moment (about its origin) it needs at rest, and its offset p."""
    ax, ay, az = base_acceleration
    bodies = []
    for (_, _, a, ca, sa, m, (rx, ry, rz), _, cb, sb), R, c, s, dj in zip(
            links, rotations, ct, st, d):
        r0, r1, r2, r3, r4, r5, r6, r7, r8 = R
        ax, ay, az = (r0 * ax + r3 * ay + r6 * az, r1 * ax + r4 * ay + r7 * az,
                      r2 * ax + r5 * ay + r8 * az)
        fx, fy, fz = m * ax, m * ay, m * az
        if mdh and sb:
            p = (a + sb * dj, -sa * cb * dj, ca * cb * dj)
        else:
            p = (a, -sa * dj, ca * dj) if mdh else (a * c, a * s, dj)
        bodies.append((fx, fy, fz, ry * fz - rz * fy, rz * fx - rx * fz, rx * fy - ry * fx) + p)
    return bodies


def _bodies(mdh, links, rotations, ct, st, d, qd, qdd, base_acceleration, motions=None):
    """
    Per link: the force and moment (about its origin) its motion needs, and its offset p.

    ``motions``, a list, takes per link its frame's angular acceleration and its origin's
    linear acceleration, in that frame: ``(bx, by, bz, ax, ay, az)``.
    """
    wx = wy = wz = bx = by = bz = 0.0  # angular velocity w and acceleration b
    ax, ay, az = base_acceleration  # linear acceleration of the frame origin
    bodies = []
    for link, R, c, s, dj, rate, accel in zip(links, rotations, ct, st, d, qd, qdd):
        prismatic, sign, a, ca, sa, m, (rx, ry, rz), inertia, cb, sb = link
        rate, accel = rate * sign, accel * sign
        if mdh and sb:  # the joint axis in the previous frame: Rx(alpha) Ry(beta) z
            ux, uy, uz = sb, -sa * cb, ca * cb
            px, py, pz = a + sb * dj, -sa * cb * dj, ca * cb * dj
        elif mdh:
            ux, uy, uz = 0.0, -sa, ca  # the joint axis in the previous frame
            px, py, pz = a, -sa * dj, ca * dj
        else:
            ux, uy, uz = 0.0, 0.0, 1.0
            px, py, pz = a * c, a * s, dj
        sx, sy, sz = ux * rate, uy * rate, uz * rate  # w of the joint itself
        if prismatic or mdh:  # the origin moves with the previous frame's w and b
            cx, cy, cz = wy * pz - wz * py, wz * px - wx * pz, wx * py - wy * px
            ax += by * pz - bz * py + wy * cz - wz * cy
            ay += bz * px - bx * pz + wz * cx - wx * cz
            az += bx * py - by * px + wx * cy - wy * cx
        if prismatic:
            ax += 2.0 * (wy * sz - wz * sy) + ux * accel
            ay += 2.0 * (wz * sx - wx * sz) + uy * accel
            az += 2.0 * (wx * sy - wy * sx) + uz * accel
        else:
            bx += ux * accel + wy * sz - wz * sy
            by += uy * accel + wz * sx - wx * sz
            bz += uz * accel + wx * sy - wy * sx
            wx, wy, wz = wx + sx, wy + sy, wz + sz
            if not mdh:  # the origin moves with this link's own w and b
                cx, cy, cz = wy * pz - wz * py, wz * px - wx * pz, wx * py - wy * px
                ax += by * pz - bz * py + wy * cz - wz * cy
                ay += bz * px - bx * pz + wz * cx - wx * cz
                az += bx * py - by * px + wx * cy - wy * cx
        r0, r1, r2, r3, r4, r5, r6, r7, r8 = R  # R^T v: columns of R
        wx, wy, wz = (r0 * wx + r3 * wy + r6 * wz, r1 * wx + r4 * wy + r7 * wz,
                      r2 * wx + r5 * wy + r8 * wz)
        bx, by, bz = (r0 * bx + r3 * by + r6 * bz, r1 * bx + r4 * by + r7 * bz,
                      r2 * bx + r5 * by + r8 * bz)
        ax, ay, az = (r0 * ax + r3 * ay + r6 * az, r1 * ax + r4 * ay + r7 * az,
                      r2 * ax + r5 * ay + r8 * az)
        cx, cy, cz = wy * rz - wz * ry, wz * rx - wx * rz, wx * ry - wy * rx
        fx = m * (ax + by * rz - bz * ry + wy * cz - wz * cy)
        fy = m * (ay + bz * rx - bx * rz + wz * cx - wx * cz)
        fz = m * (az + bx * ry - by * rx + wx * cy - wy * cx)
        (i0, i1, i2), (i3, i4, i5), (i6, i7, i8) = inertia
        hx, hy, hz = i0 * wx + i1 * wy + i2 * wz, i3 * wx + i4 * wy + i5 * wz, (
            i6 * wx + i7 * wy + i8 * wz)
        nx = i0 * bx + i1 * by + i2 * bz + wy * hz - wz * hy
        ny = i3 * bx + i4 * by + i5 * bz + wz * hx - wx * hz
        nz = i6 * bx + i7 * by + i8 * bz + wx * hy - wy * hx
        bodies.append((fx, fy, fz, nx + ry * fz - rz * fy, ny + rz * fx - rx * fz,
                       nz + rx * fy - ry * fx, px, py, pz))
        if motions is not None:
            motions.append((bx, by, bz, ax, ay, az))
    return bodies


def momenta(mdh, links, ct, st, d, qd, R=None):
    """
    Return the rigid bodies' generalised momentum, and the Coriolis matrix's transpose times qd.

    With ``qd`` as accelerations of an arm at rest, and no gravity, Newton-Euler's forces and
    moments are the bodies' linear and angular momenta ``l`` and ``h`` (about each frame's
    origin), its velocities their frames' ``w`` and ``v``: summed from the tip, the momentum of
    link j and beyond, projected on joint j's screw ``S_j`` as a wrench is, is ``(M qd)_j``;
    projected on the screw's rate ``dS_j/dt`` (the axis carried by its link's motion), it is
    ``(C^T qd)_j``, the kinetic energy's derivative in ``q_j``. That rate's projection is the
    wrench projection of ``(l x w, h x w + l x v)``: the axis point's shift cancels by Jacobi's
    identity. Arguments as :func:`rigid_body_torques` (floats or symbols). Return ``(p, c)``,
    lists of n: N m s or kg m/s, and N m or N; no motor inertia.
    """
    R = R or rotations(mdh, links, ct, st)
    motions = []
    bodies = _bodies(mdh, links, R, ct, st, d, [0.0] * len(links), qd, (0.0, 0.0, 0.0),
                     motions)
    p, c = [0.0] * len(links), [0.0] * len(links)
    for j, (lx, ly, lz, hx, hy, hz) in _subtree_sums(links, R, bodies, None):
        wx, wy, wz, vx, vy, vz = motions[j]
        p[j] = _generalised(mdh, links[j], d[j], lx, ly, lz, hx, hy, hz)
        c[j] = _generalised(mdh, links[j], d[j], ly * wz - lz * wy, lz * wx - lx * wz,
                            lx * wy - ly * wx, hy * wz - hz * wy + ly * vz - lz * vy,
                            hz * wx - hx * wz + lz * vx - lx * vz,
                            hx * wy - hy * wx + lx * vy - ly * vx)
    return p, c


def _subtree_sums(links, rotations, bodies, fext):
    """
    Yield ``j, (fx, fy, fz, nx, ny, nz)`` from the tip: link j and beyond, in frame j.

    The sum of the bodies' forces and moments (about origin j) with ``fext`` at the tip.
    """
    # The wrench of the next link on this one, this frame: at the tip, the environment's.
    fx, fy, fz, nx, ny, nz = (0.0,) * 6 if fext is None else fext
    n = len(links)
    for j in range(n - 1, -1, -1):
        if j < n - 1:  # from frame j+1 to frame j: R v, and the moment moved to origin j
            r0, r1, r2, r3, r4, r5, r6, r7, r8 = rotations[j + 1]
            fx, fy, fz = (r0 * fx + r1 * fy + r2 * fz, r3 * fx + r4 * fy + r5 * fz,
                          r6 * fx + r7 * fy + r8 * fz)
            nx, ny, nz = (r0 * nx + r1 * ny + r2 * nz, r3 * nx + r4 * ny + r5 * nz,
                          r6 * nx + r7 * ny + r8 * nz)
            px, py, pz = bodies[j + 1][6:]
            nx, ny, nz = nx + py * fz - pz * fy, ny + pz * fx - px * fz, nz + px * fy - py * fx
        bfx, bfy, bfz, bnx, bny, bnz = bodies[j][:6]
        fx, fy, fz, nx, ny, nz = fx + bfx, fy + bfy, fz + bfz, nx + bnx, ny + bny, nz + bnz
        yield j, (fx, fy, fz, nx, ny, nz)


def _generalised(mdh, link, d, fx, fy, fz, nx, ny, nz):
    """
    Return a wrench in frame j (moment about origin j) projected on joint j's screw.

    The force along the axis for a prismatic joint, the moment about the axis for a revolute
    one; times the joint's flip sign. ``d`` is the joint's d, m.
    """
    prismatic, sign, a, ca, sa = link[:5]
    cb, sb = link[8:]
    if mdh:
        generalised = fz if prismatic else nz
    elif sb:  # the axis (Rx(alpha) Ry(beta))^T z, through -(Rx(alpha) Ry(beta))^T (a, 0, d)
        ux, uy, uz = -ca * sb, sa, ca * cb
        if prismatic:
            generalised = ux * fx + uy * fy + uz * fz
        else:
            ex, ey, ez = a * cb + ux * d, uy * d, a * sb + uz * d
            generalised = (ux * (nx + ey * fz - ez * fy) + uy * (ny + ez * fx - ex * fz)
                           + uz * (nz + ex * fy - ey * fx))
    elif prismatic:
        generalised = sa * fy + ca * fz
    else:  # about joint j's axis, through origin j-1 at -(a, d sin alpha, d cos alpha)
        ex, ey, ez = a, sa * d, ca * d
        generalised = sa * (ny + ez * fx - ex * fz) + ca * (nz + ex * fy - ey * fx)
    return generalised * sign


def _joint_torques(mdh, links, rotations, d, bodies, fext):
    """Sum the wrenches from the tip (``fext``) to the base; project each on its joint's axis."""
    tau = [0.0] * len(links)
    for j, wrench in _subtree_sums(links, rotations, bodies, fext):
        tau[j] = _generalised(mdh, links[j], d[j], *wrench)
    return tau
