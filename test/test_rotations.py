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

"""The rotations module's fast single-matrix helpers agree with its general ones."""

import math

from dh_kinematics.core.rotations import (
    matrix_to_rotvec, rot_x, rot_z, rotvec_to_matrix, rpy_to_matrix, single_matrix_to_rotvec)
import numpy as np


def test_one_matrix_in_floats_gives_the_batched_rotation_vector():
    rng = np.random.default_rng(4)
    axes = rng.normal(size=(300, 3))
    axes /= np.linalg.norm(axes, axis=1)[:, None]
    angles = np.concatenate([rng.uniform(0.0, math.pi, 200), np.full(50, 1e-9),
                             math.pi - rng.uniform(0.0, 1e-7, 50)])
    for axis, angle in zip(axes, angles):
        R = rotvec_to_matrix(axis * angle)
        expected = matrix_to_rotvec(R)
        got = single_matrix_to_rotvec(R)
        if angle > math.pi - 1e-6:  # a half turn: the axis's sign is either
            got = got if got @ expected >= 0.0 else -got
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_rot_x_and_rot_z_are_the_elementary_rotations():
    for angle in np.linspace(-4.0, 4.0, 17):
        np.testing.assert_allclose(rot_x(angle), rpy_to_matrix([angle, 0.0, 0.0]), atol=1e-15)
        np.testing.assert_allclose(rot_z(angle), rpy_to_matrix([0.0, 0.0, angle]), atol=1e-15)
