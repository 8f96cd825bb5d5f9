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
identify: a model's dynamic parameters from logs of its motion and measured torques.

The torques are linear in 14 parameters a joint (:mod:`core.dynamics.regressor`); only their
base combinations show in the torques (:func:`regressor.base_parameters`). In order:

1. Each log is prepared (:mod:`identification.signals`) and split in time: its last
   ``holdout`` fraction is held out, the rest fitted.
2. The base parameters are those of the fitted part's regressor; there must be as many as
   the model's regressor has on random states (:func:`expected_base`), or the log cannot tell
   some parameters apart, and the fit fails naming the joints to move.
3. Weighted least squares: ordinary least squares, then each joint's rows weighted by the
   inverse of its residual's standard deviation (the sensors differ), fitted again. Each base
   parameter's standard deviation comes from that fit's covariance.
4. The physically consistent model: every link's rigid body as a log-Cholesky ``theta``
   (:mod:`identification.consistent`), each at least :data:`THICKNESS_MIN` thick, motor
   inertia, viscous friction and Coulomb friction bounded to their signs, fitted to the same
   weighted torques through the base combinations; a weak pull (:data:`PRIOR_WEIGHT`)
   towards the model's own values holds what the torques cannot see. Where the least-squares
   fit is a real body, this reaches its residual.
5. The fit fails, and nothing is to be written, where the result is not finite, the samples
   are too few, or the held-out part is predicted worse than by the model given or more than
   :data:`HELD_OUT_FACTOR` times worse than by the least squares (a model given that is worse
   still lets no bad fit through).
"""

from dataclasses import dataclass
import math

from dh_kinematics.core.bounds import DYNAMICS_MAX, LENGTH_MAX
from dh_kinematics.core.configurations import uniform
from dh_kinematics.core.dynamics import regressor
from dh_kinematics.identification import consistent
from dh_kinematics.identification.signals import prepare
import numpy as np

HOLDOUT = 0.3
"""The fraction of each log, last in time, held out of the fit by default."""
SAMPLES_PER_PARAMETER = 5
"""The fewest prepared samples (of n equations each) per base parameter in the fitted part."""
PRIOR_WEIGHT = 1e-2
"""The pull towards the model's own values, per unit of theta, in units of weighted torque."""
THICKNESS_MIN = 1e-3
"""The least spread of a link's mass, m: each diagonal entry of the Cholesky factor of its
second moments about the centre of mass, per unit mass (theta's exp(d_i)), is at least this, so
that every inertia is positive definite, not on the edge of it (a body without thickness)."""
FIT_TOLERANCE = 1e-6
"""The consistent fit stops where a step lowers the whole weighted misfit by less than this
fraction: on the real Panda log (20 s) after 57 evaluations, about 1 s for the whole
identification, the held-out part predicted to 1.027 % (least squares: 0.900 %)."""
HELD_OUT_FACTOR = 2.0
"""The most the physical model's held-out error may be of the least squares' own."""
UNIT_RATIO = 100.0
"""The efforts' size against the model's torques past which the log is in another unit: the
fit, which would take minutes to find nothing, is not tried."""
MAX_EVALUATIONS = 5000
"""The most evaluations of the consistent fit's residual (the Stanford arm's ends at 1008)."""
RANDOM_STATES = 200
"""The random states on which the model's own base count is found (seeded)."""


@dataclass(frozen=True)
class Errors:
    """
    How well torques are predicted.

    Attributes
    ----------
    rms : array, shape (n,)
        Each joint's RMS error, N m or N.
    relative : array, shape (n,)
        Each joint's RMS error over its torque's RMS.
    total : float
        The error's norm over the torques', all joints together.

    """

    rms: np.ndarray
    relative: np.ndarray
    total: float


def errors(predicted, measured):
    """Return the :class:`Errors` of predicted against measured torques, shape (k, n)."""
    error = predicted - measured
    rms = np.sqrt(np.mean(error ** 2, axis=0))
    scale = np.sqrt(np.mean(measured ** 2, axis=0))
    return Errors(rms, rms / np.where(scale > 0.0, scale, 1.0),
                  float(np.linalg.norm(error) / max(np.linalg.norm(measured), 1e-300)))


@dataclass(frozen=True)
class Identification:
    """
    What :func:`identify` found.

    Attributes
    ----------
    chain : Chain
        The model with the identified dynamics (the physically consistent fit), its kinematics,
        limits, names and payload as given.
    base : regressor.Base
        The base parameters the fitted part identifies.
    expected : int
        How many base parameters the model has (on random states).
    least_squares, std : array, shape (b,)
        The base parameters by weighted least squares, and each one's standard deviation.
    values : array, shape (b,)
        The base parameters of ``chain``.
    condition : float
        The condition number of the fitted part's base regressor (weighted).
    fit, held_out : dict of str to Errors
        The torques of the fitted and of the held-out part (None without one), predicted by
        ``'model'`` (the model given), ``'least squares'`` and ``'identified'`` (``chain``).
    time, measured, predicted : array
        The prepared samples' stamps (s), the measured (filtered) torques and ``chain``'s.
    held : array of bool
        Which samples were held out.
    failure : str or None
        Why the result must not be used, or None.
    cutoff, samples : float, int
        The filter's cut-off (Hz) and the samples used, after preparation.
    notes : tuple of str
        What preparing the logs merged, cut or dropped.

    """

    chain: object
    base: object
    expected: int
    least_squares: np.ndarray
    std: np.ndarray
    values: np.ndarray
    condition: float
    fit: dict
    held_out: object
    time: np.ndarray
    measured: np.ndarray
    predicted: np.ndarray
    held: np.ndarray
    failure: object
    cutoff: float
    samples: int
    notes: tuple


def expected_base(chain, seed=0):
    """Return the model's base parameters' count: its regressor's on random states (seeded)."""
    dyn = chain.dynamic_constants
    rng = np.random.default_rng(seed)
    q = uniform(chain, RANDOM_STATES, rng)
    qd, qdd = rng.uniform(-1.0, 1.0, (2, RANDOM_STATES, chain.n))
    Y = regressor.regressor(dyn, q, qd, qdd)
    return regressor.base_parameters(Y, regressor.names(dyn))


def _weighted_least_squares(Yb, tau):
    """Return (beta, std, weights): two-step weighted least squares over stacked samples."""
    k, n, b = Yb.shape
    beta = np.linalg.lstsq(Yb.reshape(-1, b), tau.ravel(), rcond=None)[0]
    sigma = np.sqrt(np.sum((Yb @ beta - tau) ** 2, axis=0) / max(k - b / n, 1.0))
    weights = 1.0 / np.where(sigma > 0.0, sigma, 1.0)
    Yw = (Yb * weights[None, :, None]).reshape(-1, b)
    beta = np.linalg.lstsq(Yw, (tau * weights).ravel(), rcond=None)[0]
    covariance = np.linalg.pinv(Yw.T @ Yw)
    residual = Yw @ beta - (tau * weights).ravel()
    scale = residual @ residual / max(len(residual) - b, 1)
    return beta, np.sqrt(np.diag(covariance) * scale), weights


def _chain_of(chain, pi):
    """Return ``chain`` with the 14 n parameters ``pi`` (arm only, payload apart)."""
    links = []
    for j, link in enumerate(chain.links):
        m, r, inertia = regressor.body_of(pi[14 * j:14 * j + 10])
        Jm, B, tc_pos, tc_neg = pi[14 * j + 10:14 * j + 14]
        links.append(link.replace(m=m, r=r.tolist(), I=inertia.tolist(),
                                  Jm=max(float(Jm), 0.0), B=max(float(B), 0.0),
                                  Tc=[max(float(tc_pos), 0.0), min(float(tc_neg), 0.0)]))
    return chain.replace(links=links)


def _theta(pi):
    """Return the fit's variables of 14 n parameters, each body made consistent first."""
    x = []
    for j in range(len(pi) // 14):
        x += list(consistent.theta(pi[14 * j:14 * j + 10]))
        x += [max(pi[14 * j + 10], 0.0), max(pi[14 * j + 11], 0.0),
              max(pi[14 * j + 12], 0.0), min(pi[14 * j + 13], 0.0)]
    return np.array(x)


def _consistent_fit(chain, combination, R, z, rest, pi_payload, beta):
    """
    Return the arm's 14 n parameters: consistent, friction signed, fitted to R beta = z.

    The fit starts from the least-squares ``beta`` carried into the full parameters by the
    least change of the model's own (each body then made consistent), and is pulled towards
    the model's own.

    ``rest`` is the part of the weighted torques no parameters reach (the least-squares fit's
    residual norm): a constant of the cost, kept in it so that the stopping rule
    (:data:`FIT_TOLERANCE`, relative) weighs a step against the whole misfit.
    """
    from scipy.optimize import least_squares

    n = chain.n
    prior = regressor.parameters(chain.replace(payload=None).dynamic_constants)
    start = _theta(prior)
    nearest = prior + np.linalg.pinv(combination) @ (beta - combination @ (prior + pi_payload))
    lower = np.full(14 * n, -np.inf)
    upper = np.full(14 * n, np.inf)
    for j in range(n):  # within the model file's bounds: no overflow on a trial step
        upper[14 * j] = 0.5 * np.log(DYNAMICS_MAX)
        lower[14 * j + 1:14 * j + 4] = np.log(THICKNESS_MIN)
        upper[14 * j + 1:14 * j + 4] = np.log(LENGTH_MAX)
        lower[14 * j + 10:14 * j + 13] = 0.0
        upper[14 * j + 13] = 0.0

    def parameters(x):
        pi = np.empty(14 * n)
        for j in range(n):
            pi[14 * j:14 * j + 10] = consistent.body(x[14 * j:14 * j + 10])
            pi[14 * j + 10:14 * j + 14] = x[14 * j + 10:14 * j + 14]
        return pi

    A = R @ combination
    prior_jacobian = PRIOR_WEIGHT * np.eye(len(start))

    def residual(x):
        return np.concatenate([A @ (parameters(x) + pi_payload) - z, [rest],
                               PRIOR_WEIGHT * (x - start)])

    def jacobian(x):
        D = np.eye(14 * n)
        for j in range(n):
            D[14 * j:14 * j + 10, 14 * j:14 * j + 10] = consistent.body_jacobian(
                x[14 * j:14 * j + 10])
        return np.vstack([A @ D, np.zeros((1, len(x))), prior_jacobian])
    solution = least_squares(residual, np.clip(_theta(nearest), lower, upper), jacobian,
                             bounds=(lower, upper), x_scale='jac', method='trf',
                             ftol=FIT_TOLERANCE, max_nfev=MAX_EVALUATIONS)
    return parameters(solution.x)


def _unexcited(chain, expected, base):
    """Return the sentence naming the joints whose parameters the log cannot tell apart."""
    lacking = [column for column in expected.columns if column not in base.columns]
    joints = sorted({column // len(regressor.PARAMETERS) for column in lacking})
    names = [chain.joint_names[j] for j in joints]
    return (f"the log identifies {len(base.columns)} of the model's {len(expected.columns)} "
            f'base parameters; move {", ".join(names)} more (through more of their range, '
            'both ways, faster and slower)')


def identify(chain, logs, holdout=HOLDOUT, cutoff=None):
    """
    Identify ``chain``'s dynamic parameters from joint logs with measured efforts.

    Parameters
    ----------
    chain : Chain
        The model: its kinematics, gravity, gear ratios and payload are taken as they are; its
        dynamic parameters are where the fit starts and what holds what the logs cannot see.
    logs : sequence of JointLog
        In the model's joint order (:func:`logs.for_model`), with efforts.
    holdout : float
        The fraction of each log, last in time, predicted but not fitted (0 <= holdout < 1).
    cutoff : float, optional
        The low-pass filter's cut-off, Hz (default: from the data; :mod:`signals`).

    Returns
    -------
    Identification
        Its ``failure`` says why it must not be used, or is None.

    Raises
    ------
    ValueError
        For a holdout outside [0, 0.9] and for logs that cannot be prepared.

    """
    if not 0.0 <= holdout <= 0.9:
        raise ValueError(f'--holdout: {holdout!r} must be a fraction from 0 to 0.9')
    prepared = [prepare(log, cutoff) for log in logs]
    notes = tuple(f'{log.source}: {note}' for log, p in zip(logs, prepared) for note in p.notes)
    held = np.concatenate([p.time > p.time[0] + (1.0 - holdout) * (p.time[-1] - p.time[0])
                           if holdout else np.zeros(len(p.time), bool) for p in prepared])
    q, qd, qdd, tau, time = (np.concatenate([getattr(p, field) for p in prepared])
                             for field in ('q', 'qd', 'qdd', 'tau', 'time'))
    dyn = chain.dynamic_constants
    names = regressor.names(dyn)
    Y = regressor.regressor(dyn, q, qd, qdd)
    fitted = ~held
    expected = expected_base(chain)
    model = chain.rne(q, qd, qdd)
    samples = int(fitted.sum())
    failure = None
    needed = SAMPLES_PER_PARAMETER * len(expected.columns)
    scale = float(np.linalg.norm(tau[fitted])) / max(
        float(np.linalg.norm(model[fitted])), 1e-300)
    if np.any(model[fitted]) and not 1.0 / UNIT_RATIO < scale < UNIT_RATIO:
        failure = (f"the log's efforts are {scale:.3g} times the model's torques: logged in "
                   'another unit? (N m and N expected: mN m would be 1000 times; or the model '
                   'is of another arm)')
        base = expected
    elif samples < needed:
        p = prepared[0]
        seconds = (needed - samples) * p.step * p.period / max(1.0 - holdout, 0.1)
        failure = (f'{samples} samples to fit, {needed} needed for {len(expected.columns)} '
                   f'base parameters: log about {seconds:.3g} s more of motion')
        base = expected
    else:
        base = regressor.base_parameters(Y[fitted], names)
        if len(base.columns) < len(expected.columns):
            failure = _unexcited(chain, expected, base)
    columns = list(base.columns)
    Yb = Y[:, :, columns]
    if failure is None:
        beta, std, weights = _weighted_least_squares(Yb[fitted], tau[fitted])
        Yw = (Yb[fitted] * weights[None, :, None]).reshape(-1, len(columns))
        Q, R = np.linalg.qr(Yw)
        z = Q.T @ (tau[fitted] * weights).ravel()
        rest = math.sqrt(max(np.sum((tau[fitted] * weights) ** 2) - z @ z, 0.0))
        condition = float(np.linalg.cond(Yw))
        payload = regressor.parameters(dyn) - regressor.parameters(
            chain.replace(payload=None).dynamic_constants)
        pi = _consistent_fit(chain, base.combination, R, z, rest, payload, beta)
        identified = _chain_of(chain, pi)
    else:
        beta = std = np.full(len(columns), np.nan)
        condition, identified = float('nan'), chain
    predicted = identified.rne(q, qd, qdd)
    values = base.combination @ regressor.parameters(identified.dynamic_constants)
    by_ls = Yb @ beta

    def table(rows):
        return {'model': errors(model[rows], tau[rows]),
                'least squares': errors(by_ls[rows], tau[rows]),
                'identified': errors(predicted[rows], tau[rows])}
    fit = table(fitted)
    held_out = table(held) if held.any() else None
    if failure is None:
        if not (np.isfinite(values).all() and np.isfinite(predicted).all()):
            failure = 'the fit gave values that are not finite'
        elif held_out is not None and (held_out['identified'].total
                                       > held_out['model'].total):
            failure = (f'the held-out part is predicted worse by the fit '
                       f'({held_out["identified"].total:.3%}) than by the model given '
                       f'({held_out["model"].total:.3%})')
        elif held_out is not None and (held_out['identified'].total > HELD_OUT_FACTOR
                                       * held_out['least squares'].total):
            failure = (f'the held-out part is predicted to {held_out["identified"].total:.3%} '
                       f"by the fit, more than {HELD_OUT_FACTOR:g} times the least squares' "
                       f'{held_out["least squares"].total:.3%}: no physical model of this '
                       'arm explains the log (another arm, a payload, or a friction the model '
                       'lacks?)')
    return Identification(identified, base, len(expected.columns), beta, std, values,
                          condition, fit, held_out, time, tau, predicted, held, failure,
                          prepared[0].cutoff, len(time), notes)
