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
The generalised momentum and its rate's terms against pinocchio, on the model's own URDF.

``M(q) qd`` against ``crba`` (the motors' ``G^2 Jm`` as pinocchio's armature) and
``C(q, qd)^T qd - g(q)`` against ``computeCoriolisMatrix`` and ``computeGeneralizedGravity``, at
random states of every shipped arm and the random ones (standard and modified DH, prismatic,
flipped and offset joints, Hayati's beta, payloads).
"""

import zlib

from dh_kinematics.core.dynamics import Momentum
from helpers import CHAINS, for_each_arm, needs_pin, pin, pin_configuration, pin_model
import numpy as np


@needs_pin
@for_each_arm(CHAINS)
def test_momentum_and_its_rate_terms_equal_pinocchios(name, chain):
    model, data = pin_model(chain, motors=True)
    momentum = Momentum(chain.dynamic_constants)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    Q, QD = rng.uniform(-2.0, 2.0, (2, 5, chain.n))
    columns = momentum.columns(Q, QD)  # the five at once
    for k, (q, qd) in enumerate(zip(Q, QD)):
        q_pin = pin_configuration(pin, model, chain.joint_names, q)
        M = pin.crba(model, data, q_pin)
        M = np.triu(M) + np.triu(M, 1).T
        C = pin.computeCoriolisMatrix(model, data, q_pin, qd)
        g = pin.computeGeneralizedGravity(model, data, q_pin)
        scale = max(1.0, np.abs(M).max())
        for p, terms in (momentum(q.tolist(), qd.tolist()), (row[k] for row in columns)):
            np.testing.assert_allclose(p, M @ qd, rtol=0, atol=1e-12 * scale)
            np.testing.assert_allclose(terms, C.T @ qd - g, rtol=0,
                                       atol=1e-11 * max(scale, np.abs(g).max()))


def test_a_resting_arm_has_no_momentum_and_only_gravity():
    chain = CHAINS[0][1]
    p, terms = Momentum(chain.dynamic_constants)([0.3] * chain.n, [0.0] * chain.n)
    assert p == [0.0] * chain.n
    np.testing.assert_allclose(terms, -chain.gravload([0.3] * chain.n), atol=1e-12)
