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

1. **Start.** The base is placed by a rigid registration of the nominal model's tool points
   onto the measured ones (unless it is known: the measurement frame is the model's world);
   then the base and the tool alone are fitted, so that what follows sees where the measured
   point really is on the tool.
2. **Identifiability** (:mod:`core.calibration.identifiability`): the identification Jacobian
   (:mod:`core.calibration.identification`, from the arm's own frames) of every parameter, at each
   distinct configuration once, its columns scaled so that lengths and angles compare; its
   numerical rank against the noise, and the parameters to hold by subset selection. The
   *expected count* is the same rank at :data:`EXPECTED_SAMPLES` configurations spread over
   the joint ranges, with exact data: what the arm can give. Data whose distinct
   configurations give no more equations than that are refused; data that identify fewer are
   warned about, naming how many configurations to measure.
3. **Levenberg-Marquardt** on the parameters to estimate: position residuals in m and, with
   orientations, orientation residuals (rotation vector, rad) times ``orientation_weight``
   (m/rad). Without a given noise, a first fit holds what even :data:`PROVISIONAL_NOISE` would
   hide; its residuals give the noise; with that the analysis runs again and, where it changes
   what is held, the fit too.
4. **Standard deviations** from the distinct configurations: ``s^2 (J_d^T J_d)^-1``, ``J_d``
   the Jacobian's rows of each distinct configuration once and ``s^2 = |r|^2 / (rows -
   parameters)``: measuring a configuration again does not make a parameter better known.
5. **Failure** (:attr:`Calibration.failure` says why; write nothing then): the fit did not
   converge; its residual is more than :data:`FAR` times a given noise; or a link's correction
   is beyond :data:`core.calibration.identifiability.MAX_CORRECTION` (an angle's times the
   characteristic length), which is a wrong model, joint order or unit rather than an error to
   calibrate.
"""

from dataclasses import dataclass, replace
import fnmatch
import math

from dh_kinematics.core import configurations
from dh_kinematics.core.calibration import (
    identifiability, identification, measurements as measured)
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.kinematics import dh_fit
from dh_kinematics.core.rotations import rotation_to_quaternion, rotvec_to_matrix
import numpy as np


@dataclass(frozen=True)
class Parameter:
    """
    One parameter of the fit.

    Attributes
    ----------
    name : str
        ``<joint>.<field>``, ``base.<field>`` or ``tool.<field>``.
    nominal, estimate : float
        The model's value and the fit's, rad or m.
    std : float or None
        The estimate's standard deviation (rad or m); None unless estimated.
    status : str
        ``'estimated'``, ``'held'`` (at nominal, by the data) or ``'fixed'`` (at nominal, as
        asked).
    reason : str
        Why a held one is held: ``'redundant'``, ``'below noise'`` or ``'no effect'``
        (:data:`core.calibration.identifiability.Held`); '' otherwise.
    partners : tuple of str
        The parameters a held one is confused with; () otherwise.
    fit_change : float
        How much holding it changes the best fit, m RMS; 0.0 otherwise.

    """

    name: str
    nominal: float
    estimate: float
    std: object
    status: str
    reason: str
    partners: tuple
    fit_change: float


@dataclass(frozen=True)
class Residuals:
    """
    Residuals over the measurements: root mean square and largest.

    Attributes
    ----------
    position_rms, position_max : float
        Position residuals, m.
    orientation_rms, orientation_max : float or None
        Orientation residuals, rad; None without measured orientations.

    """

    position_rms: float
    position_max: float
    orientation_rms: object
    orientation_max: object


@dataclass(frozen=True)
class Calibration:
    """
    What :func:`calibrate` returns: the calibrated model and the report of its fit.

    Attributes
    ----------
    chain : Chain
        The calibrated chain: its world frame the measurement frame, its tool frame's origin
        the measured point.
    parameters : list of Parameter
        Every parameter, estimated, held or fixed.
    before, after : Residuals
        Of the nominal model (registered) and of the calibrated one.
    iterations : int
        The solver's iterations.
    converged : bool
        Whether the solver converged.
    errors_before, errors_after : array, shape (m,)
        Each measurement's position error, m.
    rank, expected : int
        The rank of the identification Jacobian (the number of parameters estimated) and the
        expected count for the arm.
    configurations : int
        The number of distinct configurations.
    noise : float
        The noise the rank was judged against, m per coordinate.
    noise_given : bool
        Whether it was given (else estimated from the fit).
    length : float
        The characteristic length of the scaling, m.
    observability : Observability
        :data:`core.calibration.identifiability.Observability` of the data.
    warnings : list of str
        A sentence each.
    failure : str or None
        Why the fit failed (write nothing then), or None.

    """

    chain: object
    parameters: list
    before: Residuals
    after: Residuals
    iterations: int
    converged: bool
    errors_before: np.ndarray
    errors_after: np.ndarray
    rank: int
    expected: int
    configurations: int
    noise: float
    noise_given: bool
    length: float
    observability: object
    warnings: list
    failure: object


ORIENTATION_WEIGHT = 0.1
"""Metres per radian of orientation residual, to weigh it against position residuals."""
WEIGHT_MAX = 1e3
"""The largest orientation weight taken, m/rad (an arm's length per mrad, a thousandfold)."""
NOISE_MIN = 1e-9
"""The smallest measurement noise taken, m (a nanometre: below any instrument's)."""
PROVISIONAL_NOISE = 1e-6
"""The noise (m) a first fit is judged against when none is given."""
EXPECTED_SAMPLES = 100
"""Configurations, spread over the joint ranges, at which the expected count is taken."""
FAR = 3.0
"""A fit whose residual is more than this many times a given noise has failed."""
OUTLIER = 5.0
"""A measurement whose error is beyond this many standard deviations is named in a warning."""


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
    return chain.replace(links=new_links, base=T_base, tool=T_tool)


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


def _selected(names, free, fixed):
    """Return the names the masks leave free (fnmatch patterns; ``free`` None: all)."""
    chosen = [name for name in names
              if free is None or any(fnmatch.fnmatchcase(name, p) for p in free)]
    return [name for name in chosen if not any(fnmatch.fnmatchcase(name, p) for p in fixed)]


def _summary(residuals, count, weight):
    position = _errors(residuals, count)
    orientation_rms = orientation_max = None
    if len(residuals) > 3 * count:
        angle = np.linalg.norm(residuals[3 * count:].reshape(count, 3), axis=1) / weight
        orientation_rms, orientation_max = float(np.sqrt(np.mean(angle ** 2))), float(
            angle.max())
    return Residuals(float(np.sqrt(np.mean(position ** 2))), float(position.max()),
                     orientation_rms, orientation_max)


def _errors(residuals, count):
    """Return each measurement's position error (m) from a residual vector."""
    return np.linalg.norm(residuals[:3 * count].reshape(count, 3), axis=1)


def residuals(chain, data):
    """
    Return how far ``chain`` is from measurements ``data`` (held-out ones, say).

    Returns
    -------
    summary : Residuals
    errors : array, shape (m,)
        Each measurement's position error, m.

    Raises
    ------
    ValueError
        For measurements the chain cannot have made (:func:`core.calibration.measurements.check`).

    """
    q = measured.check(chain, data)
    r = identification.residuals(identification.tool_poses(chain, q)[1], data, 1.0)
    return _summary(r, len(q), 1.0), _errors(r, len(q))


def calibrate(chain, data, base_known=False, free=None, fixed=(), noise=None,
              orientation_weight=ORIENTATION_WEIGHT, max_iterations=100):
    """
    Estimate the corrections of ``chain`` that measurements ``data`` call for; see the module.

    Parameters
    ----------
    chain : Chain
        The nominal model; its tool transform places the measured point (and orientation).
    data : core.calibration.measurements.Measurements
        Positions (and orientations) of the tool point at configurations spread over the joint
        ranges: more distinct configurations than the arm has identifiable parameters, by 3
        (positions) or 6 (poses) rows each.
    base_known : bool
        The measurement frame is the model's world frame: the base is not estimated.
    free, fixed : sequence of str, optional
        fnmatch patterns of parameter names: only those in ``free`` (all by default) and not
        in ``fixed`` are estimated.
    noise : float, optional
        The measurements' standard deviation per coordinate, m (the instrument's and the arm's
        repeatability): what the rank is judged against, and a fit that leaves more than FAR
        times it fails. Estimated from the fit when not given.
    orientation_weight : float
        m/rad of an orientation residual against a position one; > 0 (measurements without
        orientations fit the positions alone).
    max_iterations : int
        Of Levenberg-Marquardt.

    Returns
    -------
    calibration : Calibration
        Check its ``failure`` (None on success) before using its chain.

    Raises
    ------
    ValueError
        For measurements the chain cannot have made (:func:`core.calibration.measurements.check`),
        a mask that names no parameter or leaves none free, a noise outside [NOISE_MIN,
        MAX_CORRECTION] m, an orientation weight outside (0, WEIGHT_MAX] m/rad, or too few
        distinct configurations to identify what the arm can give.

    Examples
    --------
    Tool positions measured on an arm whose second link is 2 cm longer than the model's and
    whose base stands 1 cm higher:

    >>> import numpy as np
    >>> from dh_kinematics import calibrate, Chain, Link, Measurements
    >>> nominal = Chain([Link(a=1.0, name='shoulder'), Link(a=0.5, name='elbow')])
    >>> true = Chain([Link(a=1.0, name='shoulder'), Link(a=0.52, d=0.01, name='elbow')])
    >>> q = np.random.default_rng(1).uniform(-2.0, 2.0, (20, 2))
    >>> result = calibrate(nominal, Measurements(q, true.fkine(q)[:, :3, 3], None))
    >>> result.failure is None, result.after.position_rms < 1e-9
    (True, True)
    >>> round(float(result.before.position_rms), 3) > 0.001
    True

    """
    q = measured.check(chain, data)
    top = identifiability.MAX_CORRECTION
    if noise is not None and not (isinstance(noise, (int, float)) and NOISE_MIN <= noise <= top):
        raise ValueError(f'noise: must be within [{NOISE_MIN:g}, {top:g}] m (a standard '
                         f'deviation per coordinate), got {noise!r}')
    if not (isinstance(orientation_weight, (int, float))
            and 0.0 < orientation_weight <= WEIGHT_MAX):
        raise ValueError(f'orientation_weight: must be within (0, {WEIGHT_MAX:g}] m per rad '
                         '(to fit the positions alone, leave out the qx, qy, qz, qw columns), '
                         f'got {orientation_weight!r}')
    orientation = data.quaternion is not None
    names = parameter_names(chain, orientation, not base_known)
    unknown = [pattern for pattern in list(free or []) + list(fixed)
               if not any(fnmatch.fnmatchcase(name, pattern) for name in names)]
    if unknown:
        raise ValueError(f'{unknown[0]!r} names no parameter (parameters: {", ".join(names)})')
    candidates = [names.index(name) for name in _selected(names, free, fixed)]
    if not candidates:
        raise ValueError(f'free, fixed: {list(free or ["*"])} less {list(fixed)} leaves no '
                         'parameter to estimate')
    first, _ = measured.distinct(q)
    weight, count = orientation_weight, len(q)
    base = chain.base.copy()
    if not base_known:
        nominal = identification.tool_poses(chain, q)[1][:, :3, 3]
        base = registration(nominal, data.position) @ chain.base
    values = np.zeros(len(names))
    r = identification.residuals(identification.tool_poses(
        corrected(chain, names, values, base), q)[1], data, weight)
    before, errors_before = _summary(r, count, weight), _errors(r, count)
    frame = [k for k in candidates if names[k].startswith(('base.', 'tool.'))]
    fit = _Fit(chain, names, base, data, q, weight)
    values, r, _, _ = fit.run(values, frame, max_iterations)
    now = corrected(chain, names, values, base)
    prismatic = {joint for joint, link in zip(chain.joint_names, chain.links)
                 if link.isprismatic()}
    length = _characteristic_length(now, q)
    chosen = [names[k] for k in candidates]
    arm = _arm_analysis(now, chosen, length, weight, orientation, prismatic)
    expected = arm.rank
    rows = 6 if orientation else 3
    minimum = expected // rows + 1
    if len(first) * rows <= expected:
        raise ValueError(
            f'measurements: {len(first)} distinct configurations ({count} rows) give '
            f'{len(first) * rows} equations for the {expected} parameters this arm' + "'s "
            f'{"poses" if orientation else "positions"} identify; measure at least {minimum} '
            "distinct configurations spread over every joint's range (three times that is "
            'better)')
    sample = _rows(data, first)
    analysis = _analyse(now, chosen, sample, length, weight,
                        PROVISIONAL_NOISE if noise is None else noise, prismatic, arm.blind)
    estimate = [candidates[k] for k in analysis.estimated]
    values, r, iterations, converged = fit.run(values, estimate, max_iterations)
    sigma = math.sqrt(r @ r / max(len(r) - len(estimate), 1))
    if noise is None:
        now = corrected(chain, names, values, base)
        again = _analyse(now, chosen, sample, length, weight, sigma, prismatic, arm.blind)
        if again.estimated != analysis.estimated:
            analysis = again
            estimate = [candidates[k] for k in analysis.estimated]
            values[[k for k in candidates if k not in estimate]] = 0.0
            values, r, more, converged = fit.run(values, estimate, max_iterations)
            iterations += more
            sigma = math.sqrt(r @ r / max(len(r) - len(estimate), 1))
    final = corrected(chain, names, values, base)
    estimate_names = [names[k] for k in estimate]
    J_d, _ = identification.jacobian(final, estimate_names, q[first], sample, weight)
    with np.errstate(all='ignore'):
        covariance = sigma ** 2 * np.linalg.pinv(J_d.T @ J_d)
    J_all, _ = identification.jacobian(final, chosen, q, data, weight)
    held = {candidates[item.index]: item for item in identifiability.holding_changes(
        J_all, chosen, length, analysis, r, prismatic)}
    parameters = _table(chain, names, base, values, estimate, covariance, held)
    used = noise if noise is not None else sigma
    warnings = _warnings(analysis, expected, minimum, names, candidates, r, count, used, data)
    failure = _failure(converged, iterations, noise, sigma, names, values, estimate, length,
                       prismatic)
    return Calibration(final, parameters, before, _summary(r, count, weight), iterations,
                       converged, errors_before, _errors(r, count), analysis.rank, expected,
                       len(first), used, noise is not None, length, analysis.observability,
                       warnings, failure)


def _table(chain, names, base, values, estimate, covariance, held):
    """Return every :data:`Parameter`: estimated (with its std), held (and why) or fixed."""
    parameters = []
    for k, name in enumerate(names):
        value = _nominal(chain, name, base)
        if k in estimate:
            i = estimate.index(k)
            parameters.append(Parameter(name, value, value + values[k],
                                        float(np.sqrt(max(covariance[i, i], 0.0))),
                                        'estimated', '', (), 0.0))
        elif k in held:
            item = held[k]
            parameters.append(Parameter(name, value, value, None, 'held', item.reason,
                                        item.partners, item.fit_change))
        else:
            parameters.append(Parameter(name, value, value, None, 'fixed', 'as asked', (),
                                        0.0))
    return parameters


class _Fit:
    """Levenberg-Marquardt over some of the parameters, the others held where they are."""

    def __init__(self, chain, names, base, data, q, weight):
        self._chain, self._names, self._base = chain, names, base
        self._data, self._q, self._weight = data, q, weight

    def residuals(self, values):
        """Return the residuals at ``values``, or None where a value is beyond the bounds."""
        try:
            model = corrected(self._chain, self._names, values, self._base)
        except InvalidFieldError:
            return None
        return identification.residuals(identification.tool_poses(model, self._q)[1],
                                        self._data, self._weight)

    def run(self, values, free, max_iterations):
        """Return (values, residuals, iterations, converged), starting from ``values``."""
        values = values.copy()
        model = corrected(self._chain, self._names, values, self._base)
        chosen = [self._names[k] for k in free]
        J, r = identification.jacobian(model, chosen, self._q, self._data, self._weight)
        if not free:
            return values, r, 0, True
        lam, converged, iteration = 1e-3, False, 0
        for iteration in range(1, max_iterations + 1):
            A, g = J.T @ J, J.T @ r
            damping = np.diag(np.diag(A)) + 1e-12 * np.trace(A) / len(free) * np.eye(len(free))
            while True:
                step = np.linalg.solve(A + lam * damping, -g)
                trial = values.copy()
                trial[free] += step
                r_trial = self.residuals(trial)
                if r_trial is not None and r_trial @ r_trial <= r @ r:
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
            model = corrected(self._chain, self._names, values, self._base)
            J, r = identification.jacobian(model, chosen, self._q, self._data, self._weight)
        return values, r, iteration, converged


def _rows(data, rows):
    """Return the measurements of ``rows`` only."""
    return replace(data, q=np.asarray(data.q)[rows], position=np.asarray(data.position)[rows],
                   quaternion=None if data.quaternion is None else np.asarray(
                       data.quaternion)[rows],
                   lines=None if data.lines is None else [data.lines[i] for i in rows])


def _characteristic_length(chain, q):
    """Return the RMS distance of the tool point from the base's origin, m (1 if 0)."""
    point = identification.tool_poses(chain, q)[1][:, :3, 3]
    length = float(np.sqrt(np.mean(np.sum((point - chain.base[:3, 3]) ** 2, axis=1))))
    return length if length > 0.0 else 1.0


def _analyse(chain, names, sample, length, weight, noise, prismatic, redundant):
    """Return the identifiability analysis of ``names`` at the distinct configurations."""
    J, _ = identification.jacobian(chain, names, sample.q, sample, weight)
    return identifiability.analyse(J, names, length, noise, len(sample.q), prismatic,
                                   redundant)


def _arm_analysis(chain, names, length, weight, orientation, prismatic):
    """Return the analysis of ``names`` with exact data spread over the ranges: the arm's."""
    q = configurations.spread(chain, EXPECTED_SAMPLES)
    T = identification.tool_poses(chain, q)[1]
    exact = measured.Measurements(q, T[:, :3, 3], rotation_to_quaternion(T[:, :3, :3])
                                  if orientation else None)
    return _analyse(chain, names, exact, length, weight, 0.0, prismatic, None)


def _warnings(analysis, expected, minimum, names, candidates, r, count, noise, data):
    """Return the warnings of a fit: parameters the data could not see, outlying rows."""
    warnings = []
    if analysis.rank < expected:
        blind = [names[candidates[item.index]] for item in analysis.held
                 if item.reason in ('unseen', 'below noise')]
        warnings.append(
            f'the data identify {analysis.rank} of the {expected} parameters this arm can '
            f'give; held at nominal for want of data: {", ".join(blind)}. Measure '
            'configurations that move every joint over its range (at least '
            f'{minimum} distinct ones, three times that is better)')
    errors = _errors(r, count)
    far = np.flatnonzero(errors > OUTLIER * math.sqrt(3.0) * max(noise, 1e-300))
    for i in far[:5]:
        warnings.append(f'{measured.row_name(data, int(i))}: its error after the fit, '
                        f'{errors[i] * 1e3:.4g} mm, is {errors[i] / noise:.3g} times the noise: '
                        'a glitch of the instrument, or the wrong configuration?')
    return warnings


def _failure(converged, iterations, noise, sigma, names, values, estimate, length, prismatic):
    """Return why a fit failed, or None."""
    if not converged:
        return f'the fit did not converge in {iterations} iterations'
    if noise is not None and sigma > FAR * noise:
        return (f'the fit leaves {sigma * 1e3:.4g} mm per coordinate (RMS), {sigma / noise:.3g} '
                f'times the noise of {noise * 1e3:.4g} mm: the model cannot explain the data '
                '(a wrong model, joint order, unit or tool?)')
    for k in estimate:
        name = names[k]
        if name.startswith(('base.', 'tool.')):
            continue
        angle = identifiability.is_angle(name, prismatic)
        size = abs(values[k]) * (length if angle else 1.0)
        if size > identifiability.MAX_CORRECTION:
            unit = 'rad' if angle else 'm'
            return (f'{name} moved by {values[k]:.4g} {unit}, beyond what a calibration '
                    f'corrects ({identifiability.MAX_CORRECTION:g} m'
                    f'{f", or {identifiability.MAX_CORRECTION / length:.3g} rad" if angle else ""}'
                    '): a wrong model, joint order or unit?')
    return None


def _nominal(chain, name, base):
    """Return a parameter's nominal value: the link field, or 0 for a base or tool one."""
    owner, field = name.rsplit('.', 1)
    if owner in ('base', 'tool'):  # a translation's value; a rotation's starts at 0
        T = base if owner == 'base' else chain.tool
        return float(T['xyz'.index(field), 3]) if field in ('x', 'y', 'z') else 0.0
    return float(getattr(chain.links[chain.joint_names.index(owner)], field))
