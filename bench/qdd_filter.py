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
The acceleration filter's lag and noise on sim_arm's sweep (no ROS, no timing).

Feeds :class:`MotionEstimate` the Panda's sweep (sim_arm's, period 10 s) at 100 Hz and
1 kHz, with the velocities given or differenced from positions, exact or (differenced) with
the positions rounded to a 20-bit encoder (2 pi / 2^20 rad) and stamps jittered by up to
+-100 us, as a real driver's are. For each case: the lag of the estimated acceleration behind
the true one (the shift that fits best, to 0.01 ms), and the RMS of what is left once that lag
is taken out, over all joints, in rad/s^2. Prints a Markdown table.

    .venv/bin/python bench/qdd_filter.py
"""

import math
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from dh_kinematics import Chain  # noqa: E402, I100
from dh_kinematics.node_logic.motion import MotionEstimate  # noqa: E402
from dh_kinematics.node_logic.sweep import sweep  # noqa: E402

PANDA = pathlib.Path(__file__).resolve().parents[1] / 'config' / 'panda.yaml'
ENCODER = 2 * math.pi / 2 ** 20
DURATION_S = 20.0


def estimate(chain, rate, cutoff, given, noisy, seed=7):
    """Return (times, estimated qdd, true qdd function) for one case."""
    rng = np.random.default_rng(seed)
    prismatic = [link.isprismatic() for link in chain.links]
    motion = MotionEstimate(chain.n)
    motion.configure(cutoff)
    times = np.arange(0.0, DURATION_S, 1.0 / rate)
    if noisy:
        times = times + rng.uniform(-1e-4, 1e-4, len(times))
    estimates = []
    for t in times:
        q, qd, _ = sweep(t, chain.qlim, prismatic, 10.0)
        if noisy:
            q = np.round(q / ENCODER) * ENCODER
        velocities = dict(enumerate(qd.tolist())) if given else {}
        motion.update(range(chain.n), q.tolist(), int(round(t * 1e9)), velocities)
        estimates.append(list(motion.qdd) if motion.ready() else [math.nan] * chain.n)

    def truth(t):
        return sweep(t[:, None], chain.qlim, prismatic, 10.0)[2]

    return times, np.array(estimates), truth


def lag_and_noise(times, estimates, truth):
    """Return the best-fitting lag (s) and the RMS left after it (rad/s^2)."""
    keep = times > 2.0  # past the start-up
    times, estimates = times[keep], estimates[keep]

    def rms(lag):
        return float(np.sqrt(np.mean((estimates - truth(times - lag)) ** 2)))
    lag = min(np.arange(0.0, 0.06, 1e-3), key=rms)
    lag = min(np.arange(lag - 1e-3, lag + 1e-3, 1e-5), key=rms)
    return lag, rms(lag)


def lag_formula(rate, cutoff, given):
    """Return the lag the docs give (:mod:`node_logic.motion`), s."""
    dt = 1.0 / rate
    return dt / math.expm1(2 * math.pi * cutoff * dt) + (0.5 if given else 1.0) * dt


def main():
    chain = Chain.from_yaml(PANDA)
    print('| rate | cut-off | velocities | positions | lag ms | formula ms | RMS left rad/s^2 |')
    print('|---|---|---|---|---|---|---|')
    for rate in (100.0, 1000.0):
        for cutoff in (5.0, 10.0, 20.0):
            for given, noisy in ((True, False), (False, False), (False, True)):
                times, estimates, truth = estimate(chain, rate, cutoff, given, noisy)
                lag, rms = lag_and_noise(times, estimates, truth)
                print(f'| {rate:g} Hz | {cutoff:g} Hz | {"given" if given else "differenced"} | '
                      f'{"20-bit, jitter" if noisy else "exact"} | {lag * 1e3:.2f} | '
                      f'{lag_formula(rate, cutoff, given) * 1e3:.2f} | {rms:.3g} |',
                      flush=True)
    peak = np.abs(estimate(chain, 1000.0, 10.0, True, False)[2](np.linspace(0, 10, 1001))).max()
    print(f'\nlargest true acceleration of the sweep: {peak:.3g} rad/s^2')
    return 0


if __name__ == '__main__':
    sys.exit(main())
