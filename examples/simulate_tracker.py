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
Simulate a laser tracker measuring an arm that is not quite its model: calibration input.

The "true" arm is the model with every joint's offset (or theta), d, a and alpha off by a
seeded 1 mm or 1 mrad, standing at an unknown pose in the tracker's frame, with the tracker's
target 0.1 m out along the tool's z. Each row is a random configuration within the limits and
the target's measured position (m, with 0.05 mm of noise per axis). ``--truth`` also writes the
true arm as a model file, to compare a calibration against.

    python3 examples/simulate_tracker.py config/ur5.yaml -o tracker.csv --count 60
"""

import argparse
import math

from dh_kinematics import Chain
from dh_kinematics.core.calibration import measurements
from dh_kinematics.core.rotations import rotvec_to_matrix
import numpy as np


def true_arm(nominal, rng):
    """Return ``nominal`` with every kinematic parameter, its base and its tool made 'true'."""
    links = []
    for link in nominal.links:
        fields = ('offset', 'd') if link.isrevolute() else ('theta', 'offset')
        changes = {field: getattr(link, field) + rng.normal(0.0, 1e-3)
                   for field in fields + ('a', 'alpha')}
        links.append(link.replace(**changes))
    axis = rng.normal(size=3)
    angle = rng.uniform(0.0, math.pi)
    T_tracker_world = np.eye(4)
    T_tracker_world[:3, :3] = rotvec_to_matrix(axis / np.linalg.norm(axis) * angle)
    T_tracker_world[:3, 3] = rng.uniform(-2.0, 2.0, 3)
    target = nominal.tool.copy()
    target[:3, 3] += nominal.tool[:3, :3] @ [0.0, 0.0, 0.1]
    return Chain(links, T_tracker_world @ nominal.base, target, nominal.gravity, nominal.name,
                 nominal.base_frame, nominal.link_frames, nominal.tool_frame,
                 nominal.world_frame, nominal.payload, nominal.frames, nominal.meshes)


def simulated(arm, rng, count, noise=5e-5):
    """Return ``count`` random configurations and the target's measured positions."""
    lower = np.where(np.isfinite(arm.qlim[:, 0]), arm.qlim[:, 0], -math.pi)
    upper = np.where(np.isfinite(arm.qlim[:, 1]), arm.qlim[:, 1], math.pi)
    q = rng.uniform(lower, upper, (count, arm.n))
    position = arm.fkine(q).reshape(-1, 4, 4)[:, :3, 3] + rng.normal(0.0, noise, (count, 3))
    return measurements.Measurements(q, position, None)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('model', help='the nominal model file')
    parser.add_argument('-o', '--output', required=True, help='the measurement CSV to write')
    parser.add_argument('--count', type=int, default=60, help='measurements (default: 60)')
    parser.add_argument('--seed', type=int, default=1, help='the arm and the noise (default: 1)')
    parser.add_argument('--held-out', metavar='CSV', help='also write 30 more measurements, '
                        'for --validate')
    parser.add_argument('--truth', metavar='YAML', help='also write the true arm')
    args = parser.parse_args(argv)
    nominal = Chain.from_yaml(args.model)
    rng = np.random.default_rng(args.seed)
    arm = true_arm(nominal, rng)
    measurements.write(args.output, arm.joint_names, simulated(arm, rng, args.count))
    if args.held_out:
        measurements.write(args.held_out, arm.joint_names, simulated(arm, rng, 30))
    if args.truth:
        arm.to_yaml(args.truth)
    print(f'wrote {args.output}: {args.count} measurements of {nominal.name or args.model}')


if __name__ == '__main__':
    main()
