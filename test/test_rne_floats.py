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

"""The written-out float RNE, and the node's float path, against the general code."""

import math

from dh_kinematics import Chain
from dh_kinematics.core.dynamics import rne, rne_floats
from dh_kinematics.core.dynamics.equations import joint_torques
from helpers import arm_ids, CHAINS, CONFIG_FILES, PACKAGE
import numpy as np
import pytest


@pytest.mark.parametrize('name, chain', CHAINS[::4], ids=arm_ids(CHAINS[::4]))
def test_the_float_rne_equals_the_general_one(name, chain):
    dyn = chain.dynamic_constants
    rng = np.random.default_rng(21)
    for _ in range(5):
        q, qd, qdd = (values.tolist() for values in rng.uniform(-2.0, 2.0, (3, chain.n)))
        theta, d = dyn.table.floats(q)
        ct, st = [math.cos(t) for t in theta], [math.sin(t) for t in theta]
        zero, wrench = [0.0] * chain.n, (0.0,) * 6
        for rates in ((qd, qdd), (zero, zero)):
            general = rne.rigid_body_torques(dyn.table.mdh, dyn.rne_links, ct, st, d, *rates,
                                             dyn.base_acceleration, wrench)
            written_out = rne_floats.rigid_body_torques(
                dyn.table.mdh, dyn.rne_links, ct, st, d,
                *(rates if rates[0] is qd else (None, None)), dyn.base_acceleration)
            np.testing.assert_allclose(written_out, general, rtol=0, atol=1e-10)


@pytest.mark.parametrize('model', sorted(CONFIG_FILES))
def test_the_nodes_float_path_equals_rne_and_gravload(model):
    chain = Chain.from_yaml(PACKAGE / 'config' / CONFIG_FILES[model]).with_payload(
        1.25, [0.01, -0.02, 0.05], [0.002, 0.003, 0.004])
    rng = np.random.default_rng(34)
    for _ in range(20):
        q, qd, qdd = rng.uniform(-2.0, 2.0, (3, chain.n))
        dyn = chain.dynamic_constants
        np.testing.assert_allclose(joint_torques(dyn, q.tolist(), qd.tolist(), qdd.tolist()),
                                   chain.rne(q, qd, qdd), rtol=0, atol=1e-9)
        np.testing.assert_allclose(joint_torques(dyn, q.tolist()), chain.gravload(q), rtol=0,
                                   atol=1e-9)
