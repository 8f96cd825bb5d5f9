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

"""Show the core on the built-in Puma 560: the DH table, poses, Jacobian, torques and limits."""

import pathlib

from dh_kinematics import Chain
import numpy as np

CONFIG = pathlib.Path(__file__).resolve().parents[1] / 'config' / 'puma560.yaml'


def main():
    np.set_printoptions(precision=4, suppress=True, linewidth=99)
    puma = Chain.from_yaml(CONFIG)
    print(puma, end='\n\n')
    ready = np.array([0.0, np.pi / 2, -np.pi / 2, 0.0, 0.0, 0.0])
    print('q (rad)             ', ready)
    print('tool position (m)   ', puma.fkine(ready)[:3, 3])
    print('frame origins (m)\n', puma.fkine_all(ready)[:, :3, 3])
    print('jacob0 (m/rad, rad/rad)\n', puma.jacob0(ready))
    print('gravity torque (N m)', puma.gravload(ready))
    velocity = np.full(6, 0.5)
    print('friction at 0.5 rad/s (N m)', puma.friction(velocity))
    print('rne, qd = 0.5, qdd = 1 (N m)', puma.rne(ready, velocity, np.ones(6)))
    outside = ready + [0.0, 2.5, 0.0, 0.0, -2.0, 0.0]
    print('limits at', outside, '->', puma.islimit(outside), '(-1 below, +1 above)')
    trajectory = np.linspace(ready, outside, 1000)
    print('batch of', len(trajectory), 'configurations: rne ->', puma.rne(trajectory).shape,
          ', fkine_all ->', puma.fkine_all(trajectory).shape)


if __name__ == '__main__':
    main()
