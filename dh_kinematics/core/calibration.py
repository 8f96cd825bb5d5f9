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
Kinematic calibration: the corrections to a model that measurements of its tool call for.

The parameters are corrections to the nominal model: per joint, its ``offset``, ``d``, ``a``
and ``alpha`` (a prismatic joint: ``theta``, ``offset``, ``a``, ``alpha``), in rad and m. Where
a link joins two axes within ``PARALLEL`` of parallel, Hayati's ``beta`` replaces ``d``
(a revolute joint; a prismatic one gains it): a tilt of the second axis about y, which plain
DH could only hold with a common normal far away, and so a ``d`` without bound. Then the
base transform in the measurement frame (``base.x``, ``base.y``, ``base.z`` in m, ``base.rx``,
``base.ry``, ``base.rz``, a small rotation in rad, about the measurement frame's axes); the
tool point (``tool.x``, ``tool.y``, ``tool.z``, m, in the last link frame) and, with measured
orientations, the tool's rotation (``tool.rx``...).

1. The base is first placed by a rigid registration of the nominal model's tool points onto
   the measured ones (unless it is known, that is, the measurement frame is the model's world).
2. **Identifiability**: the identification Jacobian at that start, its columns taken in the
   order base, tool, joints base to tool, is orthogonalised column by column; a column within
   ``conditioning`` (relative) of the span of those before it is unidentifiable: the data
   cannot tell it from them. It is held at its nominal value and listed, never fitted.
3. **Levenberg-Marquardt** on the rest: position residuals in m and, with orientations,
   orientation residuals (rotation vector, rad) times ``orientation_weight`` (m/rad).
4. **Standard deviations** from the residuals: ``s^2 (J^T J)^-1`` with
   ``s^2 = |r|^2 / (rows - parameters)``.
"""

from collections import namedtuple
import fnmatch
import math

from dh_kinematics.core import dh_fit
from dh_kinematics.core.chain import Chain
from dh_kinematics.core.rotations import matrix_to_rotvec, quaternion_to_matrix, rotvec_to_matrix
import numpy as np

Parameter = namedtuple('Parameter', 'name nominal estimate std status')
Parameter.__doc__ = """One parameter: its name, nominal value and estimate (rad or m), its
standard deviation (None unless estimated) and status: 'estimated', 'unidentifiable' (held at
nominal) or 'fixed' (held at nominal, as asked)."""

Residuals = namedtuple('Residuals', 'position_rms position_max orientation_rms orientation_max')
Residuals.__doc__ = """Position residuals (m) and orientation residuals (rad; None without
measured orientations): root mean square and largest, over the measurements."""

Calibration = namedtuple('Calibration', 'chain parameters before after iterations converged '
                         'condition errors_before errors_after')
Calibration.__doc__ = """The calibrated Chain (its world frame the measurement frame, its tool
frame's origin the measured point); every :data:`Parameter`; the :data:`Residuals` of the
nominal model (registered) and of the calibrated one; the solver's iterations, whether it
converged, and the condition number of the scaled identification Jacobian; and each
measurement's position error (m), shape (m,), before and after."""

CONDITIONING = 1e-3
"""A parameter whose Jacobian column is within this (relative) of the span of the earlier ones
is unidentifiable."""
STEP = 1e-7
"""The central-difference step of the identification Jacobian (m or rad)."""
ORIENTATION_WEIGHT = 0.1
"""Metres per radian of orientation residual, to weigh it against position residuals."""


PARALLEL = dh_fit.HAYATI
"""Links joining axes closer than this to parallel (rad) get Hayati's beta."""


def joins_parallel_axes(chain, j):
    """Tell whether link ``j``'s constant part joins two joint axes within PARALLEL."""
    joins_two = j + 1 < chain.n if not chain.mdh else j > 0
    return joins_two and abs(math.sin(chain.links[j].alpha)) < math.sin(PARALLEL)


def joint_fields(link, hayati=False):
    """Return the link fields a calibration corrects: for its joint type, with beta or not."""
    if link.isrevolute():
        return ('offset', 'beta', 'a', 'alpha') if hayati else ('offset', 'd', 'a', 'alpha')
    return ('theta', 'offset', 'a', 'alpha') + (('beta',) if hayati else ())


def parameter_names(chain, orientation=False, base=True):
    """Return every parameter's name, in the order of the identifiability analysis."""
    names = [f'base.{axis}' for axis in ('x', 'y', 'z', 'rx', 'ry', 'rz')] if base else []
    names += [f'tool.{axis}' for axis in ('x', 'y', 'z')]
    names += [f'tool.{axis}' for axis in ('rx', 'ry', 'rz')] if orientation else []
    for j, (joint, link) in enumerate(zip(chain.joint_names, chain.links)):
        names += [f'{joint}.{field}'
                  for field in joint_fields(link, joins_parallel_axes(chain, j))]
    return names


def corrected(chain, names, values, base):
    """
    Return ``chain`` with corrections added, standing on ``base``.

    Parameters
    ----------
    chain : Chain
        The nominal model.
    names : sequence of str
        Parameter names (:func:`parameter_names`).
    values : sequence of float
        Their corrections, rad or m: added to the link fields and the tool translation; the
        base's as a translation and a rotation vector in the world (measurement) frame, the
        tool's rotation as a rotation vector in the tool frame.
    base : array-like, shape (4, 4)
        T_world_base before the base corrections.

    Returns
    -------
    chain : Chain

    """
    links = {joint: {} for joint in chain.joint_names}
    base_delta, tool_delta = np.zeros(6), np.zeros(6)
    axes = ('x', 'y', 'z', 'rx', 'ry', 'rz')
    for name, value in zip(names, values):
        owner, field = name.rsplit('.', 1)
        if owner == 'base':
            base_delta[axes.index(field)] = value
        elif owner == 'tool':
            tool_delta[axes.index(field)] = value
        else:
            links[owner][field] = value
    new_links = [link.replace(**{field: getattr(link, field) + delta
                                 for field, delta in links[joint].items()})
                 for joint, link in zip(chain.joint_names, chain.links)]
    T_base, T_tool = base.copy(), chain.tool.copy()
    T_base[:3, :3] = rotvec_to_matrix(base_delta[3:]) @ base[:3, :3]
    T_base[:3, 3] = base[:3, 3] + base_delta[:3]
    T_tool[:3, 3] = chain.tool[:3, 3] + tool_delta[:3]
    T_tool[:3, :3] = chain.tool[:3, :3] @ rotvec_to_matrix(tool_delta[3:])
    return Chain(new_links, T_base, T_tool, chain.gravity, chain.name, chain.base_frame,
                 chain.link_frames, chain.tool_frame, chain.world_frame, chain.payload,
                 chain.frames, chain.meshes)


def _residuals(chain, measurements, weight):
    """Return the residual vector of ``chain`` against ``measurements``."""
    T = chain.fkine(measurements.q).reshape(-1, 4, 4)
    parts = [(T[:, :3, 3] - measurements.position).ravel()]
    if measurements.quaternion is not None:
        R = quaternion_to_matrix(measurements.quaternion)
        parts.append(weight * matrix_to_rotvec(R.transpose(0, 2, 1) @ T[:, :3, :3]).ravel())
    return np.concatenate(parts)


def _errors(residuals, count):
    """Return each measurement's position error (m) from a residual vector."""
    return np.linalg.norm(residuals[:3 * count].reshape(count, 3), axis=1)


def _summary(residuals, count, weight):
    position = _errors(residuals, count)
    orientation_rms = orientation_max = None
    if len(residuals) > 3 * count:
        angle = np.linalg.norm(residuals[3 * count:].reshape(count, 3), axis=1) / weight
        orientation_rms, orientation_max = float(np.sqrt(np.mean(angle ** 2))), float(
            angle.max())
    return Residuals(float(np.sqrt(np.mean(position ** 2))), float(position.max()),
                     orientation_rms, orientation_max)


def residuals(chain, measurements):
    """
    Return how far ``chain`` is from ``measurements`` (held-out ones, say).

    Returns
    -------
    summary : Residuals
    errors : array, shape (m,)
        Each measurement's position error, m.

    """
    q = _joint_values(chain, measurements)
    r = _residuals(chain, measurements, 1.0)
    return _summary(r, len(q), 1.0), _errors(r, len(q))


def _joint_values(chain, measurements):
    """Return the measured configurations, shape (m, n), refusing another number of joints."""
    q = np.asarray(measurements.q, dtype=float)
    if q.ndim != 2 or q.shape[1] != chain.n:
        raise ValueError(f'measurements: {chain.n} joint values per row expected, got shape '
                         f'{q.shape}')
    return q


def registration(points, targets):
    """
    Return the rigid transform that best maps ``points`` onto ``targets`` (least squares).

    Kabsch's method. Parameters: arrays of shape (m, 3), m; returns T_targets_points (4, 4).
    """
    a, b = points.mean(axis=0), targets.mean(axis=0)
    U, _, Vt = np.linalg.svd((points - a).T @ (targets - b))
    D = np.diag([1.0, 1.0, np.sign(np.linalg.det(Vt.T @ U.T))])
    T = np.eye(4)
    T[:3, :3] = Vt.T @ D @ U.T
    T[:3, 3] = b - T[:3, :3] @ a
    return T


def _jacobian(chain, names, values, base, measurements, weight):
    columns = []
    for k in range(len(names)):
        step = np.zeros(len(names))
        step[k] = STEP
        plus = _residuals(corrected(chain, names, values + step, base), measurements, weight)
        minus = _residuals(corrected(chain, names, values - step, base), measurements, weight)
        columns.append((plus - minus) / (2.0 * STEP))
    return np.array(columns).T


def identifiable(J, conditioning=CONDITIONING):
    """
    Return the columns of ``J`` that are identifiable, in order (indices).

    A column is kept when what is left of it, orthogonalised against the kept ones before it,
    is more than ``conditioning`` of its own norm.
    """
    kept, basis = [], []
    for k in range(J.shape[1]):
        column = J[:, k].copy()
        norm = np.linalg.norm(column)
        if norm == 0.0:
            continue
        for vector in basis:  # twice: Gram-Schmidt loses orthogonality once
            column -= (vector @ column) * vector
        for vector in basis:
            column -= (vector @ column) * vector
        if np.linalg.norm(column) > conditioning * norm:
            kept.append(k)
            basis.append(column / np.linalg.norm(column))
    return kept


def _selected(names, free, fixed):
    """Return the names the masks leave free (fnmatch patterns; ``free`` None: all)."""
    chosen = [name for name in names
              if free is None or any(fnmatch.fnmatchcase(name, p) for p in free)]
    return [name for name in chosen if not any(fnmatch.fnmatchcase(name, p) for p in fixed)]


def calibrate(chain, measurements, base_known=False, free=None, fixed=(),
              conditioning=CONDITIONING, orientation_weight=ORIENTATION_WEIGHT,
              max_iterations=100):
    """
    Estimate the corrections of ``chain`` that ``measurements`` call for; see the module.

    Parameters
    ----------
    chain : Chain
        The nominal model; its tool transform places the measured point (and orientation).
    measurements : core.measurements.Measurements
        At least as many positions as there are parameters to estimate, over varied
        configurations.
    base_known : bool
        The measurement frame is the model's world frame: the base is not estimated.
    free, fixed : sequence of str, optional
        fnmatch patterns of parameter names: only those in ``free`` (all by default) and not
        in ``fixed`` are estimated.
    conditioning : float
        The identifiability threshold (:func:`identifiable`).
    orientation_weight : float
        m/rad of an orientation residual against a position one.
    max_iterations : int
        Of Levenberg-Marquardt.

    Returns
    -------
    calibration : Calibration

    Raises
    ------
    ValueError
        For measurements of another number of joints, or fewer than the parameters.

    """
    q = _joint_values(chain, measurements)
    orientation = measurements.quaternion is not None
    names = parameter_names(chain, orientation, not base_known)
    unknown = [pattern for pattern in list(free or []) + list(fixed)
               if not any(fnmatch.fnmatchcase(name, pattern) for name in names)]
    if unknown:
        raise ValueError(f'{unknown[0]!r} names no parameter (parameters: {", ".join(names)})')
    base = chain.base.copy()
    if not base_known:
        nominal = chain.fkine(q).reshape(-1, 4, 4)[:, :3, 3]
        base = registration(nominal, measurements.position) @ chain.base
    weight = orientation_weight
    zero = np.zeros(len(names))
    start = corrected(chain, names, zero, base)
    r = _residuals(start, measurements, weight)
    before, errors_before = _summary(r, len(q), weight), _errors(r, len(q))
    candidates = _selected(names, free, fixed)
    indices = [names.index(name) for name in candidates]
    J = _jacobian(chain, names, zero, base, measurements, weight)
    kept = [indices[k] for k in identifiable(J[:, indices], conditioning)]
    if len(r) <= len(kept):
        raise ValueError(f'measurements: {len(q)} are too few for {len(kept)} parameters; '
                         'measure more configurations')
    estimate_names = [names[k] for k in kept]
    values, lam, converged, iteration = np.zeros(len(kept)), 1e-3, False, 0
    for iteration in range(1, max_iterations + 1):
        Jk = _jacobian(chain, estimate_names, values, base, measurements, weight)
        A, g = Jk.T @ Jk, Jk.T @ r
        while True:
            step = np.linalg.solve(A + lam * np.diag(np.diag(A)), -g)
            trial = values + step
            r_trial = _residuals(corrected(chain, estimate_names, trial, base), measurements,
                                 weight)
            if r_trial @ r_trial <= r @ r:
                lam = max(lam / 10.0, 1e-12)
                break
            lam *= 10.0
            if lam > 1e12:
                break
        if lam > 1e12:
            converged = True  # no step lowers the cost: a minimum
            break
        decrease = 1.0 - (r_trial @ r_trial) / (r @ r) if r @ r > 0.0 else 0.0
        values, r = trial, r_trial
        if np.abs(step).max() < 1e-9 * (1.0 + np.abs(values).max()) or decrease < 1e-12:
            converged = True  # the step, or what it gains, is down to rounding
            break
    final = corrected(chain, estimate_names, values, base)
    Jk = _jacobian(chain, estimate_names, values, base, measurements, weight)
    dof = len(r) - len(kept)
    covariance = (r @ r) / dof * np.linalg.inv(Jk.T @ Jk)
    scaled = Jk / np.linalg.norm(Jk, axis=0)
    singular = np.linalg.svd(scaled, compute_uv=False)
    parameters = []
    for k, name in enumerate(names):
        nominal = _nominal(chain, name, base)
        if k in kept:
            i = kept.index(k)
            parameters.append(Parameter(name, nominal, nominal + values[i],
                                        float(np.sqrt(covariance[i, i])), 'estimated'))
        else:
            status = 'unidentifiable' if name in candidates else 'fixed'
            parameters.append(Parameter(name, nominal, nominal, None, status))
    after = _summary(r, len(q), weight)
    return Calibration(final, parameters, before, after, iteration, converged,
                       float(singular[0] / singular[-1]), errors_before, _errors(r, len(q)))


def _nominal(chain, name, base):
    """Return a parameter's nominal value: the link field, or 0 for a base or tool one."""
    owner, field = name.rsplit('.', 1)
    if owner in ('base', 'tool'):  # a translation's value; a rotation's starts at 0
        T = base if owner == 'base' else chain.tool
        return float(T['xyz'.index(field), 3]) if field in ('x', 'y', 'z') else 0.0
    return float(getattr(chain.links[chain.joint_names.index(owner)], field))
