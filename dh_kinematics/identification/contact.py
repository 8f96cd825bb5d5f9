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
Contact thresholds from the arm's own log: what the observer reads while nothing presses.

The node's momentum observer (:class:`node_logic.momentum_observer.MomentumObserver`) runs over
a log of the arm moving freely; its estimate there is the noise a threshold must stand above.
The effort monitor raises a level once an estimate's size has stayed above the threshold for
``effort.hold`` seconds (:class:`node_logic.monitors.EffortMonitor`), so what a threshold is
judged against is each sample's *held size*: the least size over the hold before it
(:func:`held_sizes`); an alarm starts where the held size crosses the threshold upward.

Each joint's held sizes are split into two phases, as Franka splits its collision thresholds:
at rest (every joint slower than a speed, rad/s or m/s) and in motion; each phase gets its own
threshold. The tail model (:class:`ExponentialTail`) is the peaks-over-threshold model with an
exponential tail (the generalised Pareto of shape 0, which the Gaussian-like and Laplace-like
tails of filtered sensor noise fall in): over a level ``u`` that the held sizes cross upward
``N`` times in ``H`` hours, the peaks of those excursions above ``u`` are exponential of mean
``sigma``, so a threshold ``T`` above ``u`` is crossed ``(N / H) exp(-(T - u) / sigma)`` times
an hour. ``sigma`` is known to a relative standard error of ``1 / sqrt(N)``, and a threshold
is the ``T`` at which the rate is the wanted one with ``sigma`` two standard errors above its
estimate: the fewer the excursions, the further the threshold stands above them.

The certificate (:func:`certify`) counts the alarms the thresholds raise on a held-out part of
the log, and finds by superposition when a step added to a joint's measured effort is
detected: the observer is linear in the efforts, so its estimate with the step is the estimate
read plus the step's own response (:func:`step_response`), judged as the monitor judges it.
Sizes in N m (N for a prismatic joint), times in s.
"""

from collections import namedtuple
import math

from dh_kinematics.node_logic.momentum_observer import (
    estimate_covariance, in_frame, MomentumObserver, tool_wrench, wrench_deviation)
import numpy as np

__all__ = ['Certificate', 'certify', 'chosen', 'combined', 'detection_delays', 'ExponentialTail',
           'force_delays', 'held_sizes', 'observe', 'Observed', 'step_response',
           'sensor_noise', 'thresholds_at', 'tune', 'Tuning', 'wrench_errors',
           'WrenchErrors']

CHUNK = 20_000
"""Samples whose observer terms are computed as one block of numpy columns."""
EXCURSIONS = 50
"""The tail model's level ``u`` is the one the held sizes cross upward this often (or as often
as they do, fewer)."""
CONFIDENCE = 2.0
"""A threshold takes the tail's ``sigma`` this many standard errors above its estimate."""
GAINS = (10.0, 25.0, 50.0, 100.0)
"""The observer's gains ``tune-contact`` tries, 1/s (:func:`chosen`)."""
HOLDS = (0.0, 0.002, 0.005, 0.01, 0.02, 0.03)
"""The holds :func:`chosen` tries, s."""
PHASE_S = 10.0
"""The least time at rest or in motion tuned on, s: a shorter phase takes the other's
thresholds."""

Observed = namedtuple('Observed', 'time estimates speed position')
Observed.__doc__ = """The observer's estimate over a log.

time : array (m,)
    The samples' times, s.
estimates : array (m, n)
    Each joint's estimate of external torque, N m or N; NaN where the observer has none (its
    first sample, and after a restart).
speed : array (m,)
    The fastest joint's speed, rad/s or m/s (the largest ``|qd|``).
position : array (m, n)
    The joints' positions, rad or m."""

Tuning = namedtuple('Tuning', 'rest motion rest_speed hold hours')
Tuning.__doc__ = """Thresholds tuned on a log.

rest, motion : array (n,)
    Each joint's threshold at rest and in motion, N m or N.
rest_speed : float
    The phase's speed, rad/s or m/s: at rest while every joint is slower.
hold : float
    The hold the thresholds were tuned for, s.
hours : tuple of 2 float
    The hours of the log at rest and in motion."""


def observe(chain, log, gains, gap_s):
    """
    Return the :data:`Observed` estimates of ``log`` (a :class:`JointLog` for ``chain``).

    The node's observer of each of ``gains`` (1/s), restarting after a gap over ``gap_s`` (s),
    one :data:`Observed` each, fed the log's samples as the node takes its messages: every
    joint's position, velocity and effort, stamped in ns. The momentum and its rate's model
    terms, which no gain changes, are computed once, as numpy columns.
    """
    observers = []
    for gain in gains:
        observers.append(MomentumObserver())
        observers[-1].configure(chain, gain, gap_s)
    stamps = np.round(np.asarray(log.time, dtype=float) * 1e9).astype(np.int64).tolist()
    Q, QD, TAU = (np.asarray(values, dtype=float) for values in (
        log.position, log.velocity, log.effort))
    estimates, none = [[] for _ in observers], [math.nan] * Q.shape[1]
    for start in range(0, len(Q), CHUNK):
        rows = slice(start, start + CHUNK)
        finite = (np.isfinite(Q[rows]) & np.isfinite(QD[rows])).all(axis=1)
        found = observers[0].terms_of(Q[rows][finite], QD[rows][finite]) if (
            finite.any() and observers) else []
        terms, found = [None] * len(finite), iter(found)
        for k in np.flatnonzero(finite).tolist():
            terms[k] = next(found)
        samples = list(zip(stamps[rows], Q[rows].tolist(), QD[rows].tolist(),
                           TAU[rows].tolist(), terms))
        for observer, estimate in zip(observers, estimates):
            update, kept = observer.update, estimate.append
            for stamp, q, qd, tau, each in samples:
                update(stamp, q, qd, tau, each)
                kept(observer.estimate or none)
    time, speed = np.asarray(log.time, dtype=float), np.abs(QD).max(axis=1)
    return [Observed(time, np.array(estimate, dtype=float).reshape(Q.shape), speed, Q)
            for estimate in estimates]


def held_sizes(time, sizes, hold):
    """
    Return each sample's held size: the least of ``sizes`` over the ``hold`` (s) before it.

    ``sizes`` (m,) or (m, n) at ``time`` (m,), s. The monitor raises a level at a sample once
    every size since a sample at least ``hold`` earlier is above the threshold: the held size
    is the least size from the last sample at or before ``time - hold`` on (0 where there is
    none yet). NaN, a sample without an estimate, counts as 0: it breaks a run.
    """
    # On the stamps in ns, as the node compares them: no tie rounds two ways.
    stamps = np.round(np.asarray(time, dtype=float) * 1e9).astype(np.int64)
    sizes = np.nan_to_num(np.abs(np.asarray(sizes, dtype=float)), nan=0.0)
    first = np.searchsorted(stamps, stamps - int(hold * 1e9), side='right') - 1  # t - hold
    started = first >= 0
    first = np.maximum(first, 0)
    # A sparse table of minima over 2^l samples: the least over [first, k] from two of them.
    length = np.arange(len(stamps)) - first + 1
    level = np.floor(np.log2(np.maximum(length, 1))).astype(int)
    tables = [sizes]
    while (1 << len(tables)) <= length.max(initial=1):
        span = 1 << (len(tables) - 1)
        last = tables[-1]
        tables.append(np.minimum(last[:-span], last[span:]))
    held = np.empty_like(sizes)
    for l, table in enumerate(tables):  # noqa: E741
        at = level == l
        if at.any():
            k = np.flatnonzero(at)
            held[at] = np.minimum(table[first[at]], table[k - (1 << l) + 1])
    held[~started] = 0.0
    return held


def _upcrossings(values, level):
    """Return the indices where ``values`` pass above ``level`` (from at or below it)."""
    above = values > level
    return np.flatnonzero(above & ~np.concatenate(([False], above[:-1])))


class ExponentialTail:
    """
    The rate at which held sizes cross a level upward, beyond the data (module docstring).

    Parameters
    ----------
    held : array (m,)
        Held sizes, N m or N, in time order (:func:`held_sizes`), of one phase.
    hours : float
        The time they cover, h.

    Attributes
    ----------
    level : float
        ``u``: the level the model starts from.
    crossings : int
        ``N``: how often ``held`` crosses ``u`` upward.
    scale : float
        ``sigma``: the mean peak above ``u`` of those excursions, N m or N.
    largest : float
        The largest held size: no threshold is put below it, which the data itself never
        crossed.

    """

    def __init__(self, held, hours):
        held = np.asarray(held, dtype=float)
        if not hours > 0.0 or len(held) < 2:
            raise ValueError(f'hours: {hours!r}, samples: {len(held)}: a tail needs some time '
                             'and two samples at least')
        self.hours, self.largest = hours, float(held.max())
        # u: of the held sizes' upper quantiles, the highest crossed EXCURSIONS times (found
        # by bisection, crossings growing as the level falls), else the median.
        levels = np.unique(np.quantile(held, 1.0 - np.geomspace(1e-6, 0.5, 80)))[::-1]
        low, high = 0, len(levels) - 1
        while low < high:
            middle = (low + high) // 2
            if len(_upcrossings(held, levels[middle])) >= EXCURSIONS:
                high = middle
            else:
                low = middle + 1
        self.level = float(levels[low])
        above = _peaks(held, self.level)
        self.crossings = len(above)
        self.scale = float(np.mean(above - self.level)) if len(above) else 0.0

    def rate(self, threshold, errors=0.0):
        """
        Return the upward crossings an hour of ``threshold`` (N m or N) the model expects.

        With ``sigma`` ``errors`` standard errors above its estimate (below, negative).
        """
        scale = self._scale(errors)
        if threshold <= self.level or scale <= 0.0:
            return self.crossings / self.hours if threshold <= self.level else 0.0
        return self.crossings / self.hours * math.exp(-(threshold - self.level) / scale)

    def threshold(self, per_hour):
        """
        Return the threshold crossed ``per_hour`` times an hour, ``sigma`` two errors up.

        Where the data would see less than one such crossing, at least its largest held size,
        which it never crossed.
        """
        base, scale = self.crossings / self.hours, self._scale(CONFIDENCE)
        floor = self.largest if per_hour * self.hours < 1.0 else -math.inf
        if base <= per_hour or scale <= 0.0:
            return max(self.level, floor)
        return max(self.level + scale * math.log(base / per_hour), floor)

    def _scale(self, errors):
        """Return ``sigma`` ``errors`` standard errors (``sigma / sqrt(N)``) from its estimate."""
        if not self.crossings:
            return self.scale
        return max(self.scale * (1.0 + errors / math.sqrt(self.crossings)), 0.0)


def _peaks(held, level):
    """Return the peak of each excursion of ``held`` above ``level``."""
    starts = _upcrossings(held, level)
    # From one start to the next, only the excursion itself is above the level.
    return np.maximum.reduceat(held, starts) if len(starts) else np.zeros(0)


def _phases(observed, rest_speed):
    """
    Return ``(rest, hours)``: whether each sample of the logs is at rest, and each phase's hours.

    ``rest`` (m,) over the logs one after the other; ``hours``: at rest and in motion, each
    sample counting the interval before it.
    """
    rest = np.concatenate([each.speed < rest_speed for each in observed])
    spans = np.concatenate([np.diff(np.asarray(each.time, dtype=float), prepend=each.time[0])
                            for each in observed])
    return rest, (float(spans[rest].sum()) / 3600.0, float(spans[~rest].sum()) / 3600.0)


def tune(observed, per_hour, hold, rest_speed):
    """
    Return the :data:`Tuning` of ``observed`` for ``per_hour`` false alarms an hour of the log.

    ``observed``: a sequence of :data:`Observed`, one a log. Each joint and phase (at rest:
    every joint slower than ``rest_speed``, rad/s or m/s; in motion) gets ``per_hour / n``
    alarms an hour of that phase from its :class:`ExponentialTail` of the held sizes
    (:func:`held_sizes` over ``hold``, s), so that all joints together expect ``per_hour`` an
    hour of the logs. A phase the logs hold too little of (less than :data:`PHASE_S` or a
    joint's held size never above 0) takes the other's thresholds.
    """
    if not per_hour > 0.0:
        raise ValueError(f'alarms per hour: {per_hour!r}: must be > 0')
    held = np.concatenate([held_sizes(each.time, each.estimates, hold) for each in observed])
    rest, hours_of = _phases(observed, rest_speed)
    n = held.shape[1]
    found = {}
    for name, phase, hours in (('rest', rest, hours_of[0]), ('motion', ~rest, hours_of[1])):
        thresholds = None
        if hours * 3600.0 >= PHASE_S:
            thresholds = np.array([ExponentialTail(np.where(phase, held[:, j], 0.0), hours)
                                   .threshold(per_hour / n) for j in range(n)])
        found[name] = (thresholds if thresholds is not None and (thresholds > 0.0).all()
                       else None), hours
    (at_rest, rest_hours), (moving, motion_hours) = found['rest'], found['motion']
    found_hours = rest_hours, motion_hours
    if at_rest is None and moving is None:
        raise ValueError(f'the logs: {len(held)} samples over {sum(found_hours) * 3600:.3g} s: '
                         f'too little to tune on (at least {PHASE_S:g} s at rest or in motion '
                         'with an estimate away from 0 on every joint)')
    at_rest = moving if at_rest is None else at_rest
    moving = at_rest if moving is None else moving
    return Tuning(at_rest, moving, rest_speed, hold, (rest_hours, motion_hours))


def sensor_noise(chain, logs, rest_speed):
    """
    Return ``(velocity, effort)``: each joint's sensors' noise, measured at rest; or None.

    What ``effort.velocity_noise`` (rad/s or m/s) and ``effort.effort_noise`` (N m or N) take:
    over each stay of the :class:`JointLog` ``logs`` at rest (every joint slower than
    ``rest_speed``, at least :data:`REST_STAY_S`), half the variance of the sample-to-sample
    change of the velocity and of the effort with the model's friction (what the observer
    takes of it): white noise's variance, the slow change of the stay left out. None where the
    logs hold no such stay.
    """
    found = []
    for log in logs:
        for first, end in _stays(log.time, np.abs(log.velocity).max(axis=1) < rest_speed):
            qd = log.velocity[first:end]
            taken = log.effort[first:end] + chain.friction(qd)
            found.append(np.concatenate([np.diff(qd, axis=0), np.diff(taken, axis=0)], axis=1))
    if not found:
        return None
    changes = np.concatenate(found)
    deviation = np.sqrt(0.5 * np.nanmean(changes ** 2, axis=0))
    return deviation[:chain.n], deviation[chain.n:]


def _stays(time, rest):
    """Return ``(first, end)`` of each run of ``rest`` (m,) lasting :data:`REST_STAY_S`."""
    edges = np.flatnonzero(np.diff(np.concatenate(([False], rest, [False])).astype(int)))
    return [(first, end) for first, end in zip(edges[::2].tolist(), edges[1::2].tolist())
            if time[end - 1] - time[first] >= REST_STAY_S]


WrenchErrors = namedtuple('WrenchErrors', 'time mean spread stated')
WrenchErrors.__doc__ = """The tool wrench read at rest with nothing pressing, pose by pose.

Each row is one stay at rest (at least :data:`REST_STAY_S`) of a log, its axes
``[fx, fy, fz, mx, my, mz]`` (N, N m about the tool point) in the base frame, as
``~/external_wrench`` says them.

time : array (p,)
    The stay's middle, s.
mean : array (p, 6)
    The wrench's mean over the stay: the pose's offset (the model's error there).
spread : array (p, 6)
    Its standard deviation over the stay: the noise.
stated : array (p, 6)
    The standard deviation ``~/external_wrench_deviation`` states there
    (:func:`wrench_deviation` of the sensors' noise at the stay's middle pose; NaN: not
    known)."""
REST_STAY_S = 1.0
"""The least stay at rest :func:`wrench_errors` measures, s."""
WRENCH_SAMPLES = 200
"""The samples of a stay :func:`wrench_errors` reads the wrench at, evenly spread."""


def wrench_errors(chain, observed, rest_speed, gain, noise):
    """
    Return the :data:`WrenchErrors` of ``observed`` (a sequence of :data:`Observed`).

    ``rest_speed`` as in :func:`tune`; ``gain`` the observer's (1/s); ``noise`` the sensors'
    (:func:`sensor_noise`; None: nothing stated). A stay's start holds the estimate settling
    from the motion, read as the node reads it.
    """
    R = np.asarray(chain.base, dtype=float)[:3, :3]
    rows = []
    for each in observed:
        dt = float(np.median(np.diff(each.time))) if len(each.time) > 1 else math.nan
        for first, end in _stays(each.time, each.speed < rest_speed):
            k = np.unique(np.linspace(first, end - 1, WRENCH_SAMPLES).astype(int))
            k = k[np.isfinite(each.estimates[k]).all(axis=1)]
            if len(k) < 2:
                continue
            J_base = in_frame(chain.jacob0(each.position[k]), R)
            wrench = tool_wrench(J_base, each.estimates[k])
            middle = k[len(k) // 2]
            stated = np.full(6, math.nan) if noise is None else wrench_deviation(
                J_base[len(k) // 2], estimate_covariance(
                    chain.inertia(each.position[middle]), *noise, gain, dt))
            rows.append((0.5 * (each.time[first] + each.time[end - 1]), wrench.mean(axis=0),
                         wrench.std(axis=0, ddof=1), stated))
    if not rows:
        return WrenchErrors(np.zeros(0), *(np.zeros((0, 6)) for _ in range(3)))
    return WrenchErrors(*(np.array(column) for column in zip(*rows)))


def chosen(observed, per_hour, rest_speed, within, holds=HOLDS):
    """
    Return ``(gain, hold, tuning)``: the gain and the hold that catch the smallest steps.

    ``observed``: the :data:`Observed` logs by gain (1/s); ``holds`` (s). Each pair is tuned
    (:func:`tune`); a step ``A`` on a joint is expected to pass its larger threshold ``T``
    for the hold within ``within`` s where ``A (1 - exp(-K (within - hold))) >= T``, the
    observer following it as ``1 - exp(-K t)``: the pair whose smallest such steps sum least
    over the joints (N m or N) is chosen, the noise's share in the detection left to the
    certificate.
    """
    best = None
    for gain, logs in observed.items():
        for hold in holds:
            if not hold < within:
                continue
            tuning = tune(logs, per_hour, hold, rest_speed)
            steps = np.maximum(tuning.rest, tuning.motion) / -math.expm1(
                -gain * (within - hold))
            if best is None or steps.sum() < best[0]:
                best = steps.sum(), gain, hold, tuning
    if best is None:
        raise ValueError(f'holds {holds!r}: none shorter than {within!r} s')
    return best[1:]


def step_response(time, start, gain, added=None):
    """
    Return the observer's estimate per N m (or N) added to a joint's effort from ``start``.

    ``time`` (s) from the sample ``start`` on: :class:`MomentumObserver`'s recursion on the
    step alone, the interval's mean effort (half the step at its first sample), on the stamps
    in ns as the node takes them. Negative: an effort the motor adds reads as a torque against
    it. ``added`` (m - start, k): each column an effort added from ``start`` that changes from
    sample to sample (a force at the tool through a Jacobian that moves), the estimate of
    each returned as a column; None: the step of 1.
    """
    stamps = np.round(np.asarray(time[start:], dtype=float) * 1e9).astype(np.int64)
    kept = np.exp(-gain * np.diff(stamps) * 1e-9).tolist()
    step = added is None
    added = np.ones((len(stamps), 1)) if step else np.asarray(added, dtype=float)
    response = np.zeros_like(added)
    if start > 0:
        a = math.exp(-gain * (int(stamps[0]) - round(float(time[start - 1]) * 1e9)) * 1e-9)
        response[0] = -(1.0 - a) * 0.5 * added[0]
    mean = 0.5 * (added[1:] + added[:-1])
    for k, a in enumerate(kept):
        response[k + 1] = a * response[k] - (1.0 - a) * mean[k]
    return response[:, 0] if step else response


def detection_delays(observed, thresholds, hold, gain, joint, start, sizes, window=0.3):
    """
    Return the time from steps added to a joint's effort to their detection (s; inf: none).

    Steps of ``sizes`` (N m or N, signed) added to joint ``joint``'s measured effort from the
    sample ``start`` of ``observed``, each judged as the monitor judges it, by superposition:
    the estimate read plus :func:`step_response` times the size, its held sizes over ``hold``
    (s) against the joint's ``thresholds`` (m, n), within ``window`` (s) of the start.
    """
    return _delays(observed, thresholds, hold, start,
                   _step_unit(observed, gain, joint, start, window), sizes, [joint])


def _step_unit(observed, gain, joint, start, window, responses=None):
    """
    Return the estimate's response (w, n) to 1 added to ``joint``'s effort from ``start``.

    Over the ``window`` (s); ``responses``: a dict keeping :func:`step_response` by start.
    """
    responses = {} if responses is None else responses
    if start not in responses:
        high = int(np.searchsorted(observed.time, observed.time[start] + window, side='right'))
        responses[start] = step_response(observed.time[:high], start, gain)
    unit = np.zeros((len(responses[start]), observed.estimates.shape[1]))
    unit[:, joint] = responses[start]
    return unit


def force_delays(observed, chain, thresholds, hold, gain, axis, start, sizes, window=0.3):
    """
    Return the time from forces at the tool to their detection (s; inf: none).

    Forces of ``sizes`` (N, signed) along the base frame's axis ``axis`` (0, 1, 2: x, y, z)
    pressing on the tool point from the sample ``start`` of ``observed``: the joints' torques
    ``J^T f`` through the Jacobian of the pose at each sample, added to the measured efforts
    and judged as :func:`detection_delays` judges a step, detected where any joint's held size
    passes its threshold.
    """
    return _delays(observed, thresholds, hold, start,
                   _force_units(observed, chain, gain, start, window)[axis], sizes, slice(None))


def _force_units(observed, chain, gain, start, window):
    """
    Return the estimate's response (3, w, n) to 1 N along each base axis from ``start``.

    Over the ``window`` (s): the torques ``J^T f`` of the pose at each sample, the Jacobians
    and the observer's recursion once for the three axes.
    """
    high = int(np.searchsorted(observed.time, observed.time[start] + window, side='right'))
    J = chain.jacob0(observed.position[start:high])  # (w, 6, n), the world's axes
    R = np.asarray(chain.base, dtype=float)[:3, :3]  # the base's axes in the world
    torques = np.einsum('ia,kin->kan', R, J[:, :3])  # (w, 3, n)
    n = torques.shape[2]
    response = step_response(observed.time[:high], start, gain, torques.reshape(-1, 3 * n))
    return response.reshape(len(response), 3, n).transpose(1, 0, 2)


def _delays(observed, thresholds, hold, start, unit, sizes, joints):
    """
    Return the delays of :func:`detection_delays` and :func:`force_delays` (s; inf: none).

    ``unit`` (w, n): the estimate's response to a size of 1 from ``start`` over the window's
    ``w`` samples; ``joints`` those judged.
    """
    time, high = observed.time, start + len(unit)
    low = max(int(np.searchsorted(time, time[start] - hold, side='right')) - 1, 0)
    sizes = np.asarray(sizes, dtype=float)
    # Every size at once: (samples, joints judged, sizes), the held sizes over its columns.
    r = np.repeat(np.nan_to_num(observed.estimates[low:high], nan=0.0)[:, joints][:, :, None],
                  len(sizes), axis=2)
    r[start - low:] += np.asarray(unit)[:, joints][:, :, None] * sizes
    held = held_sizes(time[low:high], r.reshape(len(r), -1), hold).reshape(r.shape)
    limits = np.asarray(thresholds, dtype=float)[start:high][:, joints]
    found = (held[start - low:] > limits[:, :, None]).any(axis=1)
    hit = found.argmax(axis=0)
    return np.where(found.any(axis=0), time[start + hit] - time[start], math.inf)


Certificate = namedtuple('Certificate', 'alarms hours per_hour sizes delays smallest within '
                         'forces force_delays smallest_force')
Certificate.__doc__ = """What thresholds do on a log they were not tuned on.

alarms : array of int (n,)
    Each joint's alarms (its held size crossing its threshold upward).
hours : float
    The log's length, h.
per_hour : float
    All the joints' alarms an hour.
sizes : array (s,)
    The steps added to each joint's effort, N m or N.
delays : array (n, s)
    The longest time from a step of each size to its detection over the starts tried, s
    (inf: not within the window).
smallest : array (n,)
    The smallest of ``sizes`` detected within ``within`` s from every start (inf: none).
within : float
    That time, s.
forces : array (f,)
    The forces pressed on the tool point along each axis of the base frame, N.
force_delays : array (3, f)
    As ``delays``, for the forces along x, y and z.
smallest_force : array (3,)
    As ``smallest``, for the forces along x, y and z."""


def thresholds_at(tuning, speed):
    """
    Return the threshold of each joint at each sample (m, n), N m or N.

    ``speed`` (m,): the fastest joint's at each sample (:data:`Observed`): the rest and motion
    thresholds by phase, as the node judges them (``effort.rest_speed``).
    """
    speed = np.asarray(speed, dtype=float)[:, None]
    return np.where(speed < tuning.rest_speed, tuning.rest, tuning.motion)


def certify(observed, thresholds, hold, gain, sizes, starts=100, within=0.05, window=0.3,
            chain=None, forces=()):
    """
    Return the :data:`Certificate` of ``thresholds`` (m, n) on ``observed`` (its own log).

    The alarms: each joint's held sizes (:func:`held_sizes` over ``hold``, s) crossing its
    threshold upward. The detection: a step of each of ``sizes`` (N m or N, both signs) added
    to each joint's effort at ``starts`` samples spread over the log, away from any alarm,
    each judged by superposition (:func:`step_response`, the observer's ``gain`` 1/s) over the
    ``window`` (s) after it; detected where its held size passes the threshold. With
    ``chain``, each of ``forces`` (N, both signs) along each axis of the base frame pressed on
    the tool point at the same starts, away from any joint's alarm (:func:`force_delays`).
    """
    time, estimates = observed.time, np.nan_to_num(observed.estimates, nan=0.0)
    thresholds = np.asarray(thresholds, dtype=float)
    sizes, forces = np.asarray(sizes, dtype=float), np.asarray(forces, dtype=float)
    n = estimates.shape[1]
    held = held_sizes(time, estimates, hold)
    over = held > thresholds
    alarms = np.array([len(_upcrossings(over[:, j].astype(float), 0.5)) for j in range(n)])
    hours = (time[-1] - time[0]) / 3600.0
    # Starts a hold and a window inside the log, no alarm at them.
    first = int(np.searchsorted(time, time[0] + hold + 1.0 / max(gain, 1e-9)))
    last = int(np.searchsorted(time, time[-1] - window)) - 1
    candidates = np.unique(np.linspace(first, last, 4 * starts).astype(int)) if (
        last > first) else np.zeros(0, dtype=int)

    def tried(joints):
        quiet = [k for k in candidates.tolist() if not over[max(k - 1, 0):k + 1, joints].any()]
        return quiet[::max(1, len(quiet) // starts)][:starts]

    delays, responses = np.zeros((n, len(sizes))), {}
    for j in range(n):
        delays[j] = _longest(tried([j]), sizes, lambda k, signed: _delays(
            observed, thresholds, hold, k, _step_unit(observed, gain, j, k, window, responses),
            signed, [j]))
    force_delays_found = np.zeros((3 if chain is not None else 0, len(forces)))
    if chain is not None:
        force_delays_found[:] = _longest(tried(slice(None)), forces, lambda k, signed: [
            _delays(observed, thresholds, hold, k, unit, signed, slice(None))
            for unit in _force_units(observed, chain, gain, k, window)])
    return _certificate(alarms, hours, sizes, delays, within, forces, force_delays_found)


def _longest(starts, sizes, delays_at):
    """
    Return the longest of ``delays_at(start, signed sizes)`` over ``starts`` and signs.

    ``delays_at`` returns (..., 2 s): a row (or rows, one an axis) of both signs' delays.
    """
    if not starts:
        return math.inf
    both = np.concatenate([sizes, -sizes])  # both signs in one call
    found = [np.asarray(delays_at(k, both)) for k in starts]
    return np.max([each.reshape(each.shape[:-1] + (2, -1)).max(axis=-2) for each in found],
                  axis=0)


def combined(certificates):
    """Return one :data:`Certificate` of several logs' (the same sizes and ``within``)."""
    first = certificates[0]
    return _certificate(sum(each.alarms for each in certificates),
                        sum(each.hours for each in certificates), first.sizes,
                        np.max([each.delays for each in certificates], axis=0), first.within,
                        first.forces,
                        np.max([each.force_delays for each in certificates], axis=0))


def _certificate(alarms, hours, sizes, delays, within, forces, force_delays_found):
    """Return the :data:`Certificate` of these alarms and delays: its rate, the smallest."""
    def smallest(values, delays):
        return np.array([values[row].min() if row.any() else math.inf
                         for row in delays <= within])

    return Certificate(alarms, hours, alarms.sum() / hours if hours > 0 else math.nan, sizes,
                       delays, smallest(sizes, delays), within, forces, force_delays_found,
                       smallest(forces, force_delays_found))
