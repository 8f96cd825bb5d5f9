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
Simulate a joint log of an arm moving with nothing touching it, and resting: tune-contact input.

The arm is its model: five harmonics of 0.1 Hz per joint within 80 % of each range, the
motion's clock running for 6 s and stopping for 4 (smooth ramps of 1 s), the efforts the
model's inverse dynamics, with seeded noise on the velocities (2 mrad/s) and the efforts
(0.05 N m). The observer's estimate on it is noise alone: what ``tune-contact`` tunes on.

    python3 examples/simulate_free_motion.py config/panda.yaml -o free.csv --duration 600
"""

import argparse
import math

from dh_kinematics import Chain
from dh_kinematics.logs import JointLog
from dh_kinematics.logs.csv_log import write
import numpy as np


def free_motion(chain, seconds, seed, rate=200.0, velocity_noise=2e-3, effort_noise=0.05,
                move=6.0, rest=4.0, dynamics=None, motion=None):
    """
    Return a :class:`JointLog` of ``chain`` moving with nothing touching it, and resting.

    Five harmonics a joint within 80 % of its range, the motion's clock running for ``move``
    s then stopping for ``rest`` s (smooth ramps of 1 s), over ``seconds`` at ``rate`` Hz;
    efforts ``dynamics(q, qd, qdd)`` ((m, n) each; the model's inverse dynamics where None);
    seeded Gaussian noise on the velocities (rad/s or m/s) and efforts (N m or N). The
    harmonics are ``motion``'s (a seed; ``seed``'s where None): two logs of one motion and
    two seeds are the same task with noise of its own. Its stamps start at 100 s.
    """
    rng = np.random.default_rng(seed)
    t = np.arange(0.0, seconds, 1.0 / rate)
    # The motion's clock: its rate e (0 at rest, 1 moving), ramps a half cosine of 1 s.
    cycle = np.mod(t, move + rest)
    ramp = np.clip(np.minimum(cycle, move - cycle), 0.0, 1.0)
    e = np.where(cycle < move, 0.5 - 0.5 * np.cos(math.pi * ramp), 0.0)
    e_rate = np.where((cycle < move) & (ramp < 1.0), 0.5 * math.pi * np.sin(math.pi * ramp)
                      * np.where(cycle < 0.5 * move, 1.0, -1.0), 0.0)
    tau = np.concatenate(([0.0], np.cumsum(0.5 * (e[1:] + e[:-1]) * np.diff(t))))
    w = 2.0 * math.pi * 0.1 * np.arange(1, 6)
    lower, upper = (np.array(limits, dtype=float) for limits in zip(*chain.qlim))
    centre, half = 0.5 * (lower + upper), 0.4 * np.minimum(upper - lower, 2.0 * math.pi)
    a, b = (rng if motion is None else np.random.default_rng(motion)).normal(
        size=(2, chain.n, 5))
    scale = half / (np.abs(a / w).sum(axis=1) + np.abs(b / w).sum(axis=1))
    phase = np.outer(tau, w)
    q = centre + (np.sin(phase) @ (a / w).T - np.cos(phase) @ (b / w).T) * scale
    rate_h = (np.cos(phase) @ a.T + np.sin(phase) @ b.T) * scale
    accel_h = (-np.sin(phase) @ (a * w).T + np.cos(phase) @ (b * w).T) * scale
    qd = rate_h * e[:, None]
    qdd = accel_h * (e ** 2)[:, None] + rate_h * e_rate[:, None]
    effort = np.asarray((chain.rne if dynamics is None else dynamics)(q, qd, qdd))
    qd = qd + rng.normal(0.0, velocity_noise, qd.shape)
    effort = effort + rng.normal(0.0, effort_noise, effort.shape)
    return JointLog(chain.joint_names, t + 100.0, q, qd, effort, f'free motion {seed}')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('model', help='the model file')
    parser.add_argument('-o', '--output', required=True, help='the log (CSV) to write')
    parser.add_argument('--duration', type=float, default=600.0, help='s (default: 600)')
    parser.add_argument('--rate', type=float, default=1000.0, help='Hz (default: 1000)')
    parser.add_argument('--seed', type=int, default=1, help='the motion and the noise '
                        '(default: 1)')
    args = parser.parse_args(argv)
    chain = Chain.from_yaml(args.model)
    log = free_motion(chain, args.duration, args.seed, rate=args.rate)
    write(args.output, log)
    print(f'wrote {args.output}: {len(log.time)} samples of {chain.name or args.model}')


if __name__ == '__main__':
    main()
