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
The identification Jacobian of a calibration, from the arm's own frames.

Every parameter a calibration corrects enters the arm as one elementary motion in the product
``T_world_tool = T_world_base A_1 ... A_n T_last_tool``: a turn about a line of one of the
arm's frames, or a slide along an axis of one. A small change of the parameter moves the tool
point ``p`` by ``u x (p - c)`` (a turn about the unit axis ``u`` through the point ``c``) or by
``u`` (a slide), and turns the tool by ``u`` or not at all. So each column of the Jacobian is
read off the frames forward kinematics already computes, with no finite differences.

Per link (standard DH ``Rz(theta) Tz(d) Tx(a) Rx(alpha) Ry(beta)``, frames ``j-1`` and ``j``):
theta (a revolute joint's ``offset``, a prismatic one's ``theta``) turns about ``z_{j-1}``
through ``o_{j-1}``; d (a prismatic joint's ``offset``) slides along ``z_{j-1}``; ``a`` slides
along the x axis before beta, ``x_j cos(beta) + z_j sin(beta)``; ``alpha`` turns about that
axis through ``o_j``; ``beta`` turns about ``y_j`` through ``o_j``. Modified DH
(``Tx(a) Rx(alpha) Ry(beta) Rz(theta) Tz(d)``): ``a`` slides along ``x_{j-1}``, ``alpha`` turns
about it, ``beta`` turns about ``y_{j-1} cos(alpha) + z_{j-1} sin(alpha)`` through
``o_{j-1} + a x_{j-1}``, theta turns about ``z_j`` through ``o_j`` and d slides along it. The
base's translations slide along the world axes and its rotations turn about them through the
base's origin; the tool's translations slide along the last link's axes and its rotations turn
the tool about its own axes (the point stays).

Residuals: positions ``p - p_measured`` (m) and, where orientations are measured,
``weight * log(R_measured^T R)`` (the rotation vector, rad, times m/rad), whose derivative is
``weight * Jr^-1(phi) R^T u`` for a turn ``u`` (:func:`rotations.right_jacobian_inverse`).
"""

from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.rotations import (
    matrix_to_rotvec, quaternion_to_matrix, right_jacobian_inverse)
import numpy as np

_AXES = ('x', 'y', 'z', 'rx', 'ry', 'rz')


def tool_poses(chain, q):
    """
    Return the poses of frames 0 to n and of the tool, computed without compiling.

    Parameters
    ----------
    chain : Chain
        The model.
    q : array, shape (m, n)
        Joint values, rad or m.

    Returns
    -------
    T_world_frames : array, shape (m, n+1, 4, 4)
    T_world_tool : array, shape (m, 4, 4)

    """
    T = DHTable(chain.links).frame_poses(q, chain.base, chain.base[:3].tolist())
    return T, T[:, -1] @ chain.tool


def residuals(T_world_tool, measurements, weight):
    """
    Return the residual vector: positions (m), then orientations times ``weight`` (m/rad).

    Parameters
    ----------
    T_world_tool : array, shape (m, 4, 4)
        The model's tool poses at the measured configurations.
    measurements : core.calibration.measurements.Measurements
        What was measured there.
    weight : float
        m/rad of an orientation residual.

    Returns
    -------
    r : array, shape (3 m,) or (6 m,)

    """
    parts = [(T_world_tool[:, :3, 3] - measurements.position).ravel()]
    if measurements.quaternion is not None:
        parts.append(weight * _orientation_errors(T_world_tool, measurements).ravel())
    return np.concatenate(parts)


def _orientation_errors(T_world_tool, measurements):
    """Return ``log(R_measured^T R)`` per measurement, shape (m, 3), rad."""
    R_measured = quaternion_to_matrix(measurements.quaternion)
    return matrix_to_rotvec(R_measured.transpose(0, 2, 1) @ T_world_tool[:, :3, :3])


def jacobian(chain, names, q, measurements=None, weight=1.0):
    """
    Return the residuals' Jacobian with respect to ``names``, and the residuals.

    Parameters
    ----------
    chain : Chain
        The model at which to take it (its corrections so far applied).
    names : sequence of str
        Parameters (:func:`core.calibration.fit.parameter_names`): ``base.*``, ``tool.*``,
        ``<joint>.<field>``.
    q : array, shape (m, n)
        Joint values, rad or m.
    measurements : core.calibration.measurements.Measurements, optional
        With it the rows follow :func:`residuals` (orientation rows where it has orientations)
        and the residuals are returned too; without it, position rows only.
    weight : float
        m/rad of an orientation residual.

    Returns
    -------
    J : array, shape (rows, len(names))
        Per unit of each parameter (m or rad): m, and m per rad times rad for orientations.
    r : array, shape (rows,) or None

    """
    T, T_tool = tool_poses(chain, q)
    moves, turns = motions(chain, names, T, T_tool)
    rows = [moves.transpose(0, 2, 1).reshape(-1, len(names))]
    r = None
    if measurements is not None:
        r = residuals(T_tool, measurements, weight)
        if measurements.quaternion is not None:
            phi = _orientation_errors(T_tool, measurements)
            body = T_tool[:, :3, :3].transpose(0, 2, 1)
            rotated = right_jacobian_inverse(phi) @ body @ turns.transpose(0, 2, 1)
            rows.append(weight * rotated.reshape(-1, len(names)))
    return np.concatenate(rows), r


def motions(chain, names, T_world_frames, T_world_tool):
    """
    Return how each parameter moves the tool point and turns the tool, per configuration.

    Parameters
    ----------
    chain : Chain
        The model.
    names : sequence of str
        The parameters (as for :func:`jacobian`).
    T_world_frames : array, shape (m, n+1, 4, 4)
        Frames 0 to n (:func:`tool_poses`).
    T_world_tool : array, shape (m, 4, 4)
        The tool's poses.

    Returns
    -------
    moves : array, shape (m, len(names), 3)
        The point's velocity per unit parameter rate, m per m or rad.
    turns : array, shape (m, len(names), 3)
        The tool's angular velocity, rad per m or rad (0 for a slide).

    """
    m = T_world_tool.shape[0]
    point = T_world_tool[:, :3, 3]
    moves = np.zeros((m, len(names), 3))
    turns = np.zeros((m, len(names), 3))
    joints = {joint: j for j, joint in enumerate(chain.joint_names)}
    for k, name in enumerate(names):
        owner, field = name.rsplit('.', 1)
        if owner == 'base':
            axis = np.broadcast_to(np.eye(3)[_AXES.index(field) % 3], (m, 3))
            kind, through = ('slide', None) if field in 'xyz' else ('turn', T_world_frames[
                :, 0, :3, 3])
        elif owner == 'tool':
            index = _AXES.index(field) % 3
            if field in 'xyz':
                kind, axis, through = 'slide', T_world_frames[:, -1, :3, index], None
            else:
                kind, axis, through = 'turn', T_world_tool[:, :3, index], point
        else:
            kind, axis, through = _link_motion(chain, joints[owner], field, T_world_frames)
        if kind == 'slide':
            moves[:, k] = axis
        else:
            moves[:, k] = np.cross(axis, point - through)
            turns[:, k] = axis
    return moves, turns


def _link_motion(chain, j, field, T):
    """Return (kind, axis, point) of one link field's motion: see the module docstring."""
    link = chain.links[j]
    before, after = T[:, j], T[:, j + 1]
    turn_field, slide_field = ('offset', 'd') if link.isrevolute() else ('theta', 'offset')
    if not link.mdh:
        if field == turn_field:
            return 'turn', before[:, :3, 2], before[:, :3, 3]
        if field == slide_field:
            return 'slide', before[:, :3, 2], None
        x = (np.cos(link.beta) * after[:, :3, 0] + np.sin(link.beta) * after[:, :3, 2])
        if field == 'a':
            return 'slide', x, None
        if field == 'alpha':
            return 'turn', x, after[:, :3, 3]
        return 'turn', after[:, :3, 1], after[:, :3, 3]  # beta
    if field == turn_field:
        return 'turn', after[:, :3, 2], after[:, :3, 3]
    if field == slide_field:
        return 'slide', after[:, :3, 2], None
    if field == 'a':
        return 'slide', before[:, :3, 0], None
    if field == 'alpha':
        return 'turn', before[:, :3, 0], before[:, :3, 3]
    y = np.cos(link.alpha) * before[:, :3, 1] + np.sin(link.alpha) * before[:, :3, 2]
    return 'turn', y, before[:, :3, 3] + link.a * before[:, :3, 0]  # beta
