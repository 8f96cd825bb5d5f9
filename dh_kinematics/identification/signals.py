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
A joint log made fit for identification: uniform stamps, filtered, differentiated, decimated.

What a user does not have to know, in order:

1. Samples are put in stamp order; samples with one stamp (within :data:`SAME_STAMP`) are
   averaged into one.
2. The period is the median step. A step longer than :data:`GAP_STEPS` periods is a gap: the
   log is cut into segments there, and each is handled alone (nothing is interpolated across).
3. Each segment is resampled onto a uniform grid of that period (linear interpolation).
4. Velocities missing from the log are central differences of the positions.
5. Positions, velocities and efforts are low-pass filtered forwards and backwards (a
   Butterworth of order :data:`ORDER`, zero phase: no lag between motion and torque); the
   accelerations are central differences of the filtered velocities.
6. The cut-off, unless given, comes from the data: :data:`CUTOFF_FACTOR` times the frequency
   below which 99 % of the velocities' power above the noise's lies (the motion's bandwidth;
   an excitation's highest harmonic), within [:data:`CUTOFF_MIN`, 0.4 x the Nyquist frequency].
7. Each segment loses :data:`TRIM_PERIODS` periods of the cut-off at either end (the filter's
   start-up), and is decimated to about :data:`SAMPLES_PER_CUTOFF` samples per cut-off period:
   the torques hold nothing faster, and the fit's rows stay few.
"""

from dataclasses import dataclass

import numpy as np

SAME_STAMP = 1e-9
"""Stamps closer than this (s) are one sample."""
GAP_STEPS = 20.0
"""A step longer than this many periods cuts the log into segments."""
ORDER = 4
"""The low-pass filter's order (applied twice: forwards and backwards)."""
CUTOFF_FACTOR = 10.0
"""The cut-off is this many times the motion's bandwidth."""
CUTOFF_MIN = 2.0
"""The lowest cut-off chosen from data, Hz."""
TRIM_PERIODS = 2.0
"""Each segment's ends dropped, in periods of the cut-off."""
SAMPLES_PER_CUTOFF = 20.0
"""Samples kept per period of the cut-off after decimation."""


@dataclass(frozen=True)
class Prepared:
    """
    Samples ready for a regressor, uniform within each segment.

    Attributes
    ----------
    time : array, shape (k,)
        Stamps, s.
    q, qd, qdd, tau : array, shape (k, n)
        Positions (rad or m), velocities, accelerations, measured efforts (N m or N).
    segment : array of int, shape (k,)
        Each sample's segment (0, 1, ...: a new one after each gap).
    period : float
        The log's median step, s.
    cutoff : float
        The low-pass filter's cut-off, Hz.
    step : int
        The decimation: one sample kept in ``step``.
    notes : tuple of str
        What was merged, cut or dropped, for the report.

    """

    time: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    segment: np.ndarray
    period: float
    cutoff: float
    step: int
    notes: tuple


def _merged(time, tables):
    """Put the samples in stamp order and average those of one stamp."""
    order = np.argsort(time, kind='stable')
    time = time[order]
    tables = [None if t is None else t[order] for t in tables]
    new = np.concatenate([[True], np.diff(time) > SAME_STAMP])
    if new.all():
        return time, tables, 0
    group = np.cumsum(new) - 1
    counts = np.bincount(group)

    def mean(values):
        sums = np.zeros((group[-1] + 1,) + values.shape[1:])
        np.add.at(sums, group, values)
        return sums / counts.reshape((-1,) + (1,) * (values.ndim - 1))
    return mean(time), [None if t is None else mean(t) for t in tables], int((~new).sum())


def bandwidth(qd, period):
    """
    Return the frequency (Hz) below which 99 % of the velocities' power lies (all joints).

    The noise's power, taken as flat at the median over the upper half of the spectrum, is
    taken away first: velocities differenced from positions are mostly noise up there.
    """
    window = np.hanning(len(qd))[:, None]  # a stretch that is not whole periods: no leakage
    spectrum = (np.abs(np.fft.rfft((qd - qd.mean(axis=0)) * window, axis=0)) ** 2).sum(axis=1)
    floor = np.median(spectrum[len(spectrum) // 2:])
    power = np.cumsum(np.maximum(spectrum - floor, 0.0))
    frequencies = np.fft.rfftfreq(len(qd), period)
    return float(frequencies[np.searchsorted(power, 0.99 * power[-1])])


def prepare(log, cutoff=None):
    """
    Return the :class:`Prepared` samples of a :class:`JointLog` with efforts.

    Parameters
    ----------
    log : JointLog
        In the model's joint order (:func:`logs.for_model`).
    cutoff : float, optional
        The low-pass cut-off, Hz; by default chosen from the data (the module's docstring).

    Raises
    ------
    ValueError
        No efforts, fewer than two distinct stamps, or no segment long enough to filter.

    """
    from scipy import signal

    if log.effort is None:
        raise ValueError(f'{log.source}: the log has no efforts; identification needs the '
                         'measured joint torques (<joint>.effort)')
    time, (q, qd, tau), merged = _merged(log.time, [log.position, log.velocity, log.effort])
    notes = [f'{merged} samples shared a stamp with another and were averaged'] if merged else []
    steps = np.diff(time)
    if not len(steps):
        raise ValueError(f'{log.source}: one distinct stamp; a log of motion has many')
    period = float(np.median(steps))
    cuts = np.flatnonzero(steps > GAP_STEPS * period) + 1
    if len(cuts):
        notes.append(f'{len(cuts)} gaps longer than {GAP_STEPS:g} periods '
                     f'({GAP_STEPS * period * 1e3:.3g} ms) cut the log into {len(cuts) + 1} '
                     'segments')
    bounds = list(zip(np.concatenate([[0], cuts]), np.concatenate([cuts, [len(time)]])))
    segments = []
    for first, end in bounds:
        grid = np.arange(time[first], time[end - 1] + 0.5 * period, period)
        grid = grid[grid <= time[end - 1]]

        def resampled(values):
            return None if values is None else np.stack(
                [np.interp(grid, time[first:end], column) for column in values[first:end].T],
                axis=1)
        q_s, qd_s, tau_s = resampled(q), resampled(qd), resampled(tau)
        if qd_s is None and len(grid) > 2:
            qd_s = np.gradient(q_s, period, axis=0)
        segments.append((grid, q_s, qd_s, tau_s))
    nyquist = 0.5 / period
    if cutoff is None:
        longest = max(segments, key=lambda s: len(s[0]))
        if len(longest[0]) < 3:
            raise ValueError(f'{log.source}: no segment has three samples in a row')
        cutoff = min(max(CUTOFF_FACTOR * bandwidth(longest[2], period), CUTOFF_MIN),
                     0.4 * nyquist)
    elif not 0.0 < cutoff < nyquist:
        raise ValueError(f'--cutoff: {cutoff:g} Hz must be above 0 and below the Nyquist '
                         f'frequency of the log, {nyquist:.6g} Hz')
    sos = signal.butter(ORDER, cutoff / nyquist, output='sos')
    trim = int(np.ceil(TRIM_PERIODS / (cutoff * period)))
    step = max(1, int(1.0 / (SAMPLES_PER_CUTOFF * cutoff * period)))
    kept, short = [], 0
    for k, (grid, q_s, qd_s, tau_s) in enumerate(segments):
        if len(grid) <= 2 * trim + 3 * (ORDER + 1):
            short += 1
            continue
        q_f, qd_f, tau_f = (signal.sosfiltfilt(sos, values, axis=0)
                            for values in (q_s, qd_s, tau_s))
        qdd_f = np.gradient(qd_f, period, axis=0)
        rows = slice(trim, len(grid) - trim, step)
        kept.append((grid[rows], q_f[rows], qd_f[rows], qdd_f[rows], tau_f[rows],
                     np.full(len(grid[rows]), k)))
    if short:
        notes.append(f"{short} segments shorter than {2 * trim * period:.3g} s (the filter's "
                     'start-up at both ends) were left out')
    if not kept:
        raise ValueError(f'{log.source}: no segment is longer than {2 * trim * period:.3g} s '
                         'without a gap; identification needs longer stretches of motion')
    time, q, qd, qdd, tau, segment = (np.concatenate(arrays) for arrays in zip(*kept))
    return Prepared(time, q, qd, qdd, tau, segment, period, float(cutoff), step, tuple(notes))
