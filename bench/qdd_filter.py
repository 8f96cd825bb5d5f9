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
The lag and noise of the estimated accelerations and velocities on sim_arm's sweep (no ROS).

Feeds :class:`RateEstimate` the Panda's sweep (sim_arm's, period 10 s) at 100 Hz and
1 kHz, with the velocities given or differenced from positions, exact or with the positions
rounded to a 20-bit encoder (2 pi / 2^20 rad) and stamped up to +-100 us off the instants
they were sampled at, as a real driver's are. For each case: the lag of the estimated
acceleration behind the true one (the shift that fits best, to 0.01 ms), and the RMS of what
is left once that lag is taken out, over all joints, in rad/s^2. A second table does the same
for the velocities differenced from positions (what the velocity limits judge for a source
that sends none): raw, and smoothed by the same filter (``RateEstimate.qd_smooth``), in
rad/s. Prints Markdown tables.

    .venv/bin/python bench/qdd_filter.py
"""

import math
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from dh_kinematics import Chain  # noqa: E402, I100
from dh_kinematics.node_logic.rate_estimate import RateEstimate  # noqa: E402
from dh_kinematics.node_logic.sweep import sweep  # noqa: E402

PANDA = pathlib.Path(__file__).resolve().parents[1] / 'config' / 'panda.yaml'
ENCODER = 2 * math.pi / 2 ** 20
DURATION_S = 20.0


ESTIMATES = {'qdd': 2, 'qd': 1, 'qd_smooth': 1}
"""What can be estimated: RateEstimate's attribute -> the sweep's output it estimates."""


def estimate(chain, rate, cutoff, given, noisy, seed=7, quantity='qdd'):
    """Return (times, estimates of ``quantity``, its true function) for one case."""
    rng = np.random.default_rng(seed)
    prismatic = [link.isprismatic() for link in chain.links]
    motion = RateEstimate(chain.n)
    motion.configure(cutoff)
    times = np.arange(0.0, DURATION_S, 1.0 / rate)
    # A driver samples on its clock and stamps a little off it: the stamps are jittered
    # against the instants the positions belong to.
    stamps = times + (rng.uniform(-1e-4, 1e-4, len(times)) if noisy else 0.0)
    estimates = []
    for t, stamp in zip(times, stamps):
        q, qd, _ = sweep(t, chain.qlim, prismatic, 10.0)
        if noisy:
            q = np.round(q / ENCODER) * ENCODER
        velocities = dict(enumerate(qd.tolist())) if given else {}
        motion.update(range(chain.n), q.tolist(), int(round(stamp * 1e9)), velocities)
        estimates.append(list(getattr(motion, quantity)) if motion.ready()
                         else [math.nan] * chain.n)

    def truth(t):
        return sweep(t[:, None], chain.qlim, prismatic, 10.0)[ESTIMATES[quantity]]

    return times, np.array(estimates), truth


def lag_and_noise(times, estimates, truth):
    """Return the best-fitting lag (s) and the RMS left after it (the estimate's unit)."""
    keep = times > 2.0  # past the start-up
    times, estimates = times[keep], estimates[keep]

    def rms(lag):
        return float(np.sqrt(np.mean((estimates - truth(times - lag)) ** 2)))
    lag = min(np.arange(0.0, 0.06, 1e-3), key=rms)
    lag = min(np.arange(lag - 1e-3, lag + 1e-3, 1e-5), key=rms)
    return lag, rms(lag)


def lag_formula(rate, cutoff, given):
    """Return the lag the docs give (:mod:`node_logic.rate_estimate`), s."""
    dt = 1.0 / rate
    return dt / math.expm1(2 * math.pi * cutoff * dt) + (0.5 if given else 1.0) * dt


def main():
    chain = Chain.from_yaml(PANDA)
    print('| rate | cut-off | velocities | positions | lag ms | formula ms | RMS left rad/s^2 |')
    print('|---|---|---|---|---|---|---|')
    for rate in (100.0, 1000.0):
        for cutoff in (5.0, 10.0, 20.0):
            for given, noisy in ((True, False), (True, True), (False, False), (False, True)):
                times, estimates, truth = estimate(chain, rate, cutoff, given, noisy)
                lag, rms = lag_and_noise(times, estimates, truth)
                print(f'| {rate:g} Hz | {cutoff:g} Hz | {"given" if given else "differenced"} | '
                      f'{"20-bit, jitter" if noisy else "exact"} | {lag * 1e3:.2f} | '
                      f'{lag_formula(rate, cutoff, given) * 1e3:.2f} | {rms:.3g} |',
                      flush=True)
    peak = np.abs(estimate(chain, 1000.0, 10.0, True, False)[2](np.linspace(0, 10, 1001))).max()
    print(f'\nlargest true acceleration of the sweep: {peak:.3g} rad/s^2\n')
    print('| rate | cut-off | velocity | positions | lag ms | RMS left rad/s |')
    print('|---|---|---|---|---|---|')
    for rate in (100.0, 1000.0):
        for quantity in ('qd', 'qd_smooth'):
            for noisy in (False, True):
                times, estimates, truth = estimate(chain, rate, 10.0, False, noisy,
                                                   quantity=quantity)
                lag, rms = lag_and_noise(times, estimates, truth)
                kind = 'smoothed' if quantity == 'qd_smooth' else 'differenced'
                print(f'| {rate:g} Hz | 10 Hz | {kind} | '
                      f'{"20-bit, jitter" if noisy else "exact"} | {lag * 1e3:.2f} | '
                      f'{rms:.3g} |', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
