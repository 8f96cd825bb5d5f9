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
Simulate a joint log of an arm that is not quite its model: identification input.

The "true" arm is the model with each link's mass, centre of mass and principal inertias off by
a seeded 10-30 %, motor inertia and friction added. It follows five harmonics of 0.1 Hz per
joint within 80 % of each range for ``--duration`` seconds at 1 kHz; the log holds its
positions (rad or m), velocities and torques (the core's rne of the true arm, with 0.1 N m of
noise). ``--truth`` also writes the true arm as a model file, to compare an identification
against.

    python3 examples/simulate_joint_log.py config/ur5.yaml -o ur5_log.csv --duration 30
"""

import argparse
import math

from dh_kinematics import Chain
from dh_kinematics.core.configurations import ranges
from dh_kinematics.logs import JointLog
from dh_kinematics.logs.csv_log import write
import numpy as np


def true_arm(nominal, rng):
    """Return ``nominal`` with its dynamics 10-30 % off, and with motors and friction."""
    def off(value):
        return value * (1.0 + rng.choice([-1.0, 1.0]) * rng.uniform(0.1, 0.3))
    links = []
    for link in nominal.links:
        values, axes = np.linalg.eigh(np.asarray(link.I) if np.any(link.I) else np.eye(3) * 0.01)
        values = np.array([off(value) for value in np.maximum(values, 1e-3)])
        values[2] = min(values[2], 0.95 * (values[0] + values[1]))  # a real body's
        r = np.asarray(link.r) + rng.uniform(0.1, 0.3) * max(np.linalg.norm(link.r), 0.05) * (
            rng.normal(size=3) / math.sqrt(3.0))
        G = link.G
        links.append(link.replace(
            m=off(max(link.m, 0.5)), r=r.tolist(), I=((axes * values) @ axes.T).tolist(),
            Jm=rng.uniform(0.02, 0.2) / G ** 2, B=rng.uniform(0.05, 0.3) / G ** 2,
            Tc=[rng.uniform(0.2, 1.0) / abs(G), -rng.uniform(0.2, 1.0) / abs(G)]))
    return nominal.replace(links=links)


def trajectory(arm, rng, duration, rate=1000.0):
    """Return t, q, qd, qdd: five harmonics of 0.1 Hz per joint, within 80 % of its range."""
    t = np.arange(0.0, duration, 1.0 / rate)
    w = 2.0 * math.pi * 0.1 * np.arange(1, 6)
    lower, upper = ranges(arm)
    centre, half = 0.5 * (lower + upper), 0.4 * np.minimum(upper - lower, 2.0 * math.pi)
    a, b = rng.normal(size=(2, arm.n, 5))
    phase = np.outer(t, w)
    q = np.sin(phase) @ (a / w).T - np.cos(phase) @ (b / w).T
    scale = half / np.abs(q).max(axis=0)
    qd = (np.cos(phase) @ a.T + np.sin(phase) @ b.T) * scale
    qdd = (-np.sin(phase) @ (a * w).T + np.cos(phase) @ (b * w).T) * scale
    return t, centre + q * scale, qd, qdd


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('model', help='the nominal model file')
    parser.add_argument('-o', '--output', required=True, help='the log (CSV) to write')
    parser.add_argument('--duration', type=float, default=30.0, help='s (default: 30)')
    parser.add_argument('--seed', type=int, default=1, help='the arm and the noise (default: 1)')
    parser.add_argument('--truth', metavar='YAML', help='also write the true arm')
    args = parser.parse_args(argv)
    nominal = Chain.from_yaml(args.model)
    rng = np.random.default_rng(args.seed)
    arm = true_arm(nominal, rng)
    t, q, qd, qdd = trajectory(arm, rng, args.duration)
    effort = arm.rne(q, qd, qdd) + rng.normal(0.0, 0.1, q.shape)
    write(args.output, JointLog(arm.joint_names, t, q, qd, effort))
    if args.truth:
        arm.to_yaml(args.truth)
    print(f'wrote {args.output}: {len(t)} samples of {nominal.name or args.model}')


if __name__ == '__main__':
    main()
