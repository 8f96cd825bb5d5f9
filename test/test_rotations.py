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

"""The rotations module's fast single-matrix helpers, against truths they did not compute."""

import math

from dh_kinematics.core.rotations import rot_x, rot_z, single_matrix_to_rotvec
import numpy as np


def _rodrigues(axis, angle):
    """Return the textbook rotation by ``angle`` about unit ``axis``: I + sin K + (1-cos) K^2."""
    K = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]],
                  [-axis[1], axis[0], 0.0]])
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * K @ K


def test_one_matrix_gives_back_the_rotation_vector_it_was_built_from():
    rng = np.random.default_rng(4)
    axes = rng.normal(size=(300, 3))
    axes /= np.linalg.norm(axes, axis=1)[:, None]
    angles = np.concatenate([rng.uniform(0.0, math.pi, 200), np.full(50, 1e-9),
                             math.pi - rng.uniform(0.0, 1e-7, 50)])
    for axis, angle in zip(axes, angles):
        got = single_matrix_to_rotvec(_rodrigues(axis, angle))
        expected = axis * angle
        if angle > math.pi - 1e-6:  # a half turn: the axis's sign is either
            got = got if got @ expected >= 0.0 else -got
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_rot_x_and_rot_z_turn_by_the_right_hand_rule():
    for angle in np.linspace(-4.0, 4.0, 17):
        c, s = math.cos(angle), math.sin(angle)
        np.testing.assert_allclose(rot_x(angle) @ [0.0, 1.0, 0.0], [0.0, c, s], atol=1e-15)
        np.testing.assert_allclose(rot_x(angle) @ [1.0, 0.0, 0.0], [1.0, 0.0, 0.0], atol=0)
        np.testing.assert_allclose(rot_z(angle) @ [1.0, 0.0, 0.0], [c, s, 0.0], atol=1e-15)
        np.testing.assert_allclose(rot_z(angle) @ [0.0, 0.0, 1.0], [0.0, 0.0, 1.0], atol=0)
        for R in (rot_x(angle), rot_z(angle)):
            np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-15)
