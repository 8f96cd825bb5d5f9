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

"""Smooth joint sweeps for the simulated arm (pure numpy)."""

import numpy as np

UNLIMITED_REVOLUTE = np.pi / 2
UNLIMITED_PRISMATIC = 0.1


def sweep(t, qlim, prismatic, period, overshoot=0.0):
    """
    Return positions, velocities and accelerations of a sweep through every joint's range.

    Each joint follows a sine about the middle of its range, reaching ``overshoot`` beyond
    both limits (rad or m; 0 stays inside, touching them), with its phase shifted so that the
    joints do not move in step. Joints without limits swing +-pi/2 rad or +-0.1 m about 0.

    Parameters
    ----------
    t : float
        Time in s.
    qlim : array, shape (n, 2)
        Lower and upper limits, +-inf where none.
    prismatic : array of bool, shape (n,)
        Which joints are prismatic.
    period : float
        Seconds per full sweep.
    overshoot : float
        How far past the limits to go.

    Returns
    -------
    q, qd, qdd : array, shape (n,)
        Positions (rad or m), velocities (rad/s or m/s) and accelerations (rad/s^2 or m/s^2)
        at ``t``.

    """
    limited = np.isfinite(qlim).all(axis=1)
    lower, upper = np.where(limited[:, None], qlim, 0.0).T
    middle = (lower + upper) / 2.0
    amplitude = amplitudes(qlim, prismatic, overshoot)
    omega = 2.0 * np.pi / period
    phase = np.arange(len(lower)) * (2.0 * np.pi / max(len(lower), 1))
    q = middle + amplitude * np.sin(omega * t + phase)
    qd = amplitude * omega * np.cos(omega * t + phase)
    qdd = -amplitude * omega ** 2 * np.sin(omega * t + phase)
    return q, qd, qdd


def amplitudes(qlim, prismatic, overshoot=0.0):
    """
    Return each joint's amplitude in :func:`sweep`, rad or m (arguments as there).

    Half its range plus ``overshoot``, or +-pi/2 rad or +-0.1 m for a joint without limits.
    """
    qlim = np.asarray(qlim, dtype=float)
    limited = np.isfinite(qlim).all(axis=1)
    fallback = np.where(prismatic, UNLIMITED_PRISMATIC, UNLIMITED_REVOLUTE)
    return np.where(limited, (qlim[:, 1] - qlim[:, 0]) / 2.0 + overshoot, fallback)


def sweep_speeds(qlim, prismatic, period, overshoot=0.0):
    """Return each joint's peak speed in :func:`sweep`, rad/s or m/s: amplitude x omega."""
    return amplitudes(qlim, prismatic, overshoot) * (2.0 * np.pi / period)
