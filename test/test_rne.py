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

"""The one Newton-Euler code on floats and on batches, and the node's float path."""

import math
import zlib

from dh_kinematics import Chain
from dh_kinematics.core.dynamics import rne
from dh_kinematics.core.dynamics.equations import joint_torques
from helpers import CHAINS, CONFIG_FILES, for_each_arm, PACKAGE
import numpy as np
import pytest


@for_each_arm(CHAINS[::4])
def test_one_configuration_in_floats_equals_the_same_code_on_a_batch(name, chain):
    # One code for floats and batches: each configuration of a batch (arrays, an external
    # wrench included) is what it is alone in floats, and the at-rest shortcut is zero rates.
    dyn, n = chain.dynamic_constants, chain.n
    mdh, links, base = dyn.table.mdh, dyn.rne_links, dyn.base_acceleration
    rng = np.random.default_rng(21)
    Q, QD, QDD = rng.uniform(-2.0, 2.0, (3, 5, n))
    wrenches = rng.uniform(-5.0, 5.0, (5, 6))
    theta, d = dyn.table.values(Q)
    d = np.broadcast_to(d, theta.shape)  # every value a full column, as Chain.rne gives them
    zero = np.zeros((n, 5))
    batch = rne.rigid_body_torques(mdh, links, np.cos(theta.T), np.sin(theta.T), d.T,
                                   QD.T, QDD.T, base, tuple(wrenches.T))
    resting = rne.rigid_body_torques(mdh, links, np.cos(theta.T), np.sin(theta.T), d.T,
                                     zero, zero, base)
    for k in range(5):
        theta_k, d_k = dyn.table.floats(Q[k].tolist())
        ct, st = [math.cos(t) for t in theta_k], [math.sin(t) for t in theta_k]
        one = rne.rigid_body_torques(mdh, links, ct, st, d_k, QD[k].tolist(),
                                     QDD[k].tolist(), base, tuple(wrenches[k].tolist()))
        at_rest = rne.rigid_body_torques(mdh, links, ct, st, d_k, None, None, base)
        np.testing.assert_allclose(one, [tau[k] for tau in batch], rtol=0, atol=1e-10)
        np.testing.assert_allclose(at_rest, [tau[k] for tau in resting], rtol=0, atol=1e-10)


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


@for_each_arm(CHAINS)
def test_the_inertia_matrix_is_the_toolboxs_newton_euler_one(name, chain):
    # The toolbox's way, kept as the truth: column j is rne with a unit acceleration of joint
    # j, at rest, without gravity (motors' G^2 Jm and the payload included).
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    Q = rng.uniform(-2.0, 2.0, (3, chain.n))
    rest, eye = np.zeros(chain.n), np.eye(chain.n)
    M = chain.inertia(Q)
    for q, M_q in zip(Q, M):
        columns = [chain.rne(q, rest, eye[j], gravity=[0.0, 0.0, 0.0]) for j in range(chain.n)]
        np.testing.assert_allclose(M_q, np.array(columns).T, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(chain.inertia(q), M_q, rtol=0, atol=0)
