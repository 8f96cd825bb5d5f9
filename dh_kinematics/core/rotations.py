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
Rotations: rpy, quaternions and rotation matrices, and small transform helpers.

Angles are in radians and lengths in metres. Quaternions are in ROS order [x, y, z, w] with
w >= 0; roll, pitch and yaw are about fixed x, y, z axes, as in URDF.
"""

import math

import numpy as np


def rotation_to_quaternion(R):
    """
    Return the unit quaternions of rotation matrices, in ROS order [x, y, z, w], w >= 0.

    Parameters
    ----------
    R : array-like, shape (..., 3, 3)
        Rotation matrices.

    Returns
    -------
    q : array, shape (..., 4)

    """
    R = np.asarray(R, dtype=float)
    m00, m01, m02 = R[..., 0, 0], R[..., 0, 1], R[..., 0, 2]
    m10, m11, m12 = R[..., 1, 0], R[..., 1, 1], R[..., 1, 2]
    m20, m21, m22 = R[..., 2, 0], R[..., 2, 1], R[..., 2, 2]
    # Shepperd's method: use the largest of 4w^2, 4x^2, 4y^2, 4z^2 as the divisor.
    squares = np.stack([1.0 + m00 + m11 + m22, 1.0 + m00 - m11 - m22,
                        1.0 - m00 + m11 - m22, 1.0 - m00 - m11 + m22], axis=-1)
    s = 2.0 * np.sqrt(np.maximum(squares, 1e-300))
    candidates = np.stack([
        np.stack([(m21 - m12), (m02 - m20), (m10 - m01), s[..., 0] ** 2 / 4.0], -1) / s[..., 0:1],
        np.stack([s[..., 1] ** 2 / 4.0, (m01 + m10), (m02 + m20), (m21 - m12)], -1) / s[..., 1:2],
        np.stack([(m01 + m10), s[..., 2] ** 2 / 4.0, (m12 + m21), (m02 - m20)], -1) / s[..., 2:3],
        np.stack([(m02 + m20), (m12 + m21), s[..., 3] ** 2 / 4.0, (m10 - m01)], -1) / s[..., 3:4],
    ], axis=-2)
    best = np.argmax(squares, axis=-1)[..., None, None]
    q = np.take_along_axis(candidates, best, axis=-2)[..., 0, :]
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    return np.where(q[..., 3:4] < 0.0, -q, q)


def quaternion_to_matrix(q):
    """
    Return the rotation matrix of a unit quaternion in ROS order [x, y, z, w].

    Parameters
    ----------
    q : array-like, shape (..., 4)
        Unit quaternions.

    Returns
    -------
    R : array, shape (..., 3, 3)

    """
    x, y, z, w = np.moveaxis(np.asarray(q, dtype=float), -1, 0)
    rows = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    return np.stack([np.stack(row, axis=-1) for row in rows], axis=-2)


def rpy_to_matrix(rpy):
    """
    Rotation matrix from roll, pitch, yaw about fixed x, y, z axes (URDF convention).

    Parameters
    ----------
    rpy : array-like, shape (3,)
        Roll, pitch, yaw in rad; ``R = Rz(yaw) Ry(pitch) Rx(roll)``.

    Returns
    -------
    R : array, shape (3, 3)

    """
    cr, cp, cy = np.cos(rpy)
    sr, sp, sy = np.sin(rpy)
    return np.array([
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr]])


def matrix_to_rpy(R):
    """
    Roll, pitch, yaw in rad (fixed x, y, z axes) of a rotation matrix; inverse of rpy_to_matrix.

    Parameters
    ----------
    R : array-like, shape (3, 3)
        Rotation matrix.

    Returns
    -------
    rpy : array, shape (3,)

    """
    R = np.asarray(R, dtype=float)
    pitch = np.arctan2(-R[2, 0], np.hypot(R[0, 0], R[1, 0]))
    if np.hypot(R[0, 0], R[1, 0]) < 1e-12:
        # Gimbal lock: only roll - yaw (or roll + yaw) is defined; put it all in roll.
        rpy = np.array([np.arctan2(-R[1, 2], R[1, 1]), pitch, 0.0])
    else:
        rpy = np.array([np.arctan2(R[2, 1], R[2, 2]), pitch, np.arctan2(R[1, 0], R[0, 0])])
    return rpy + 0.0  # no -0.0


def xyz_rpy_to_transform(xyz, rpy):
    """
    Homogeneous transform from a translation in m and roll, pitch, yaw in rad.

    Returns
    -------
    T : array, shape (4, 4)

    """
    T = np.eye(4)
    T[:3, :3] = rpy_to_matrix(rpy)
    T[:3, 3] = xyz
    return T


def is_identity(T):
    """Tell whether a 4x4 transform is exactly the identity."""
    return bool((np.asarray(T) == np.eye(4)).all())


def rotvec_to_matrix(v):
    """
    Rotation matrix of a rotation vector (axis times angle, rad): Rodrigues' formula.

    Parameters
    ----------
    v : array-like, shape (3,)
        The rotation's axis times its angle, rad.

    Returns
    -------
    R : array, shape (3, 3)

    """
    v = np.asarray(v, dtype=float)
    angle = float(np.linalg.norm(v))
    K = np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])
    if angle < 1e-8:  # second order is exact to 1e-24
        return np.eye(3) + K + K @ K / 2.0
    return np.eye(3) + np.sin(angle) / angle * K + (1.0 - np.cos(angle)) / angle ** 2 * K @ K


def matrix_to_rotvec(R):
    """
    Rotation vectors (axis times angle, rad, angle within [0, pi]) of rotation matrices.

    From the skew part and the trace, exact to rounding at small angles, as
    :func:`rotvec_of_entries`; within 5e-4 rad of a half turn, where the skew part vanishes
    (and the rule's error would pass 1e-12 rad), from the quaternion.

    Parameters
    ----------
    R : array-like, shape (..., 3, 3)
        Rotation matrices.

    Returns
    -------
    v : array, shape (..., 3)

    """
    R = np.asarray(R, dtype=float)
    skew = np.stack([R[..., 2, 1] - R[..., 1, 2], R[..., 0, 2] - R[..., 2, 0],
                     R[..., 1, 0] - R[..., 0, 1]], axis=-1)  # 2 sin(angle) axis
    sine2 = np.sqrt(np.einsum('...i,...i->...', skew, skew))
    cosine2 = np.trace(R, axis1=-2, axis2=-1) - 1.0  # 2 cos(angle)
    with np.errstate(invalid='ignore', divide='ignore'):
        scale = np.where(sine2 > 0.0, np.arctan2(sine2, cosine2) / sine2, 0.5)
    v = skew * scale[..., None]
    half_turn = (cosine2 < 0.0) & (sine2 < 1e-3)
    if half_turn.any():
        v[half_turn] = _rotvec_of_quaternion(R[half_turn])
    return v


def _rotvec_of_quaternion(R):
    """Return the rotation vectors (rad) of rotation matrices (k, 3, 3) from their quaternions."""
    q = rotation_to_quaternion(R)
    sine = np.linalg.norm(q[..., :3], axis=-1, keepdims=True)
    angle = 2.0 * np.arctan2(sine, q[..., 3:4])
    scale = np.where(sine > 1e-12, angle / np.maximum(sine, 1e-300), 2.0)
    return q[..., :3] * scale


def rot_x(angle):
    """Rotation about x by ``angle`` (rad), shape (3, 3)."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_z(angle):
    """Rotation about z by ``angle`` (rad), shape (3, 3)."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def z_along(direction):
    """
    Return a rotation whose z axis is along ``direction`` (any non-zero (3,)), shape (3, 3).

    Its x axis is perpendicular to the world axis least along ``direction``: a frame for a
    shape symmetric about z (a cylinder, a capsule) between two points.
    """
    z = np.asarray(direction, dtype=float)
    z = z / np.linalg.norm(z)
    x = np.cross(np.eye(3)[int(np.argmin(np.abs(z)))], z)
    x /= np.linalg.norm(x)
    return np.column_stack([x, np.cross(z, x), z])


def single_matrix_to_rotvec(R):
    """
    Return the rotation vector (rad) of one rotation matrix in floats, shape (3,).

    :func:`matrix_to_rotvec` for one matrix, several times faster (:func:`rotvec_of_entries`).
    """
    return np.array(rotvec_of_entries(*R.ravel().tolist()))


def rotvec_of_entries(r00, r01, r02, r10, r11, r12, r20, r21, r22):
    """
    Return the rotation vector (rad) of a rotation matrix given entry by entry: 3 floats.

    From the skew part and the trace, exact to rounding at small angles (where the search
    ends); within 1e-6 of a half turn, where the skew part vanishes, from the quaternion.
    """
    skew = (r21 - r12, r02 - r20, r10 - r01)  # 2 sin(angle) axis
    sine2 = math.hypot(*skew)
    cosine2 = r00 + r11 + r22 - 1.0  # 2 cos(angle)
    if cosine2 < 0.0 and sine2 < 1e-6:
        return _rotvec_of_quaternion(np.array([[[r00, r01, r02], [r10, r11, r12],
                                                [r20, r21, r22]]]))[0].tolist()
    scale = angle_over_sine2(sine2, cosine2)
    return [skew[0] * scale, skew[1] * scale, skew[2] * scale]


def angle_over_sine2(sine2, cosine2):
    """
    Return a rotation's angle over 2 sin(angle), from 2 sin and 2 cos of it (floats; rad).

    The skew part of a rotation matrix is 2 sin(angle) times its axis: times this, the rotation
    vector. 1/2 at a zero angle, the limit.
    """
    return math.atan2(sine2, cosine2) / sine2 if sine2 > 0.0 else 0.5


def right_jacobian_inverse(phi):
    """
    Return the inverse right Jacobian of SO(3) at rotation vectors ``phi``.

    ``log(exp(phi) exp(e)) = phi + Jr^-1(phi) e`` to first order in a small rotation ``e``:
    how a rotation vector changes when its rotation is turned a little about its own axes.
    ``Jr^-1 = I + K / 2 + (1 / t^2 - (1 + cos t) / (2 t sin t)) K^2``, ``K = [phi]x``,
    ``t = |phi|`` (the coefficient tends to 1/12 at 0).

    Parameters
    ----------
    phi : array-like, shape (..., 3)
        Rotation vectors, rad, of angle below pi.

    Returns
    -------
    J : array, shape (..., 3, 3)

    """
    phi = np.asarray(phi, dtype=float)
    x, y, z = phi[..., 0], phi[..., 1], phi[..., 2]
    zero = np.zeros_like(x)
    K = np.stack([np.stack([zero, -z, y], -1), np.stack([z, zero, -x], -1),
                  np.stack([-y, x, zero], -1)], -2)
    t = np.linalg.norm(phi, axis=-1)
    small = t < 1e-4
    safe = np.where(small, 1.0, t)
    coefficient = np.where(small, 1.0 / 12.0 + t ** 2 / 720.0, 1.0 / safe ** 2 - (
        1.0 + np.cos(safe)) / (2.0 * safe * np.sin(safe)))
    return np.eye(3) + K / 2.0 + coefficient[..., None, None] * (K @ K)
