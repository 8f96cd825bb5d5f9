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

"""The compiled link poses: what link_poses returns for every joint, from straight-line code."""

import math

from dh_kinematics.core.kinematics.dh_transforms import link_poses
from helpers import assert_same_bits_but_zero_signs, CHAINS, for_each_arm
import numpy as np
import pytest


@for_each_arm(CHAINS)
def test_every_joint_gets_the_poses_of_link_poses(name, chain):
    table = chain.dynamic_constants.table
    every = tuple(range(chain.n))
    rng = np.random.default_rng(31)
    # Beyond +-pi too, where cos(theta/2) < 0 and the quaternion's sign flips.
    for q in rng.uniform(-7.0, 7.0, (20, chain.n)).tolist() + [[0.0] * chain.n]:
        theta, d = table.floats(q)
        expected = link_poses(theta, d, table.twists, table.mdh)
        compiled = table.poses(every, q)
        assert compiled == expected  # folding drops only terms that are exactly zero
        assert_same_bits_but_zero_signs(compiled, expected)
        assert all(w >= 0.0 for w in compiled[6::7])
        subset = table.poses(every[1:], q[1:])  # the general path for a subset
        assert subset == expected[7:]


def test_an_infinite_angle_raises_as_in_link_poses():
    # StreamMath.finite_poses catches it and leaves the joint out.
    table = CHAINS[0][1].dynamic_constants.table
    q = [math.inf] + [0.0] * (len(table.a) - 1)
    with pytest.raises(ValueError):
        link_poses(*table.floats(q), table.twists, table.mdh)
    with pytest.raises(ValueError):
        table.poses(tuple(range(len(table.a))), q)
