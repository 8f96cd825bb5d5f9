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

"""The compiled batch kinematics: the numbers of one configuration at a time, for any arm."""

from dh_kinematics.core.kinematics import batch
from helpers import CHAINS, for_each_arm, POSE_TOL
import numpy as np

METHODS = ('fkine_all', 'fkine', 'link_transforms', 'jacob0')


@for_each_arm(CHAINS)
def test_a_batch_gives_each_configuration_its_own_result(name, chain, monkeypatch):
    # Chunks of 16: the batch crosses chunk boundaries, the last one partial.
    monkeypatch.setattr(batch, 'CHUNK', 16)
    rng = np.random.default_rng(21)
    Q = rng.uniform(-2.0, 2.0, (batch.MIN_BATCH + 3, chain.n))
    for method in METHODS:
        together = getattr(chain, method)(Q)
        single = np.array([getattr(chain, method)(q) for q in Q])
        assert together.shape == single.shape and together.flags.c_contiguous, method
        np.testing.assert_allclose(together, single, rtol=0, atol=1e-12, err_msg=method)


@for_each_arm(CHAINS[:4])
def test_the_compiled_and_the_matmul_batch_agree_at_the_switch(name, chain):
    rng = np.random.default_rng(22)
    Q = rng.uniform(-2.0, 2.0, (batch.MIN_BATCH, chain.n))
    for method in METHODS:
        compiled = getattr(chain, method)(Q)
        below = np.concatenate([getattr(chain, method)(Q[:-1]), getattr(chain, method)(Q[-1:])])
        np.testing.assert_allclose(compiled, below, rtol=0, atol=1e-12, err_msg=method)


def test_the_reference_vectors_hold_for_a_compiled_batch(model):
    _, reference, chain = model
    configs = reference['configs']
    repeats = -(-batch.MIN_BATCH // len(configs))
    Q = np.tile([config['q'] for config in configs], (repeats, 1))
    for key, method in (('link_A', 'link_transforms'), ('fkine_all', 'fkine_all'),
                        ('fkine', 'fkine'), ('jacob0', 'jacob0')):
        expected = np.tile([config[key] for config in configs], (repeats,) + (1,) * 3)
        expected = expected.reshape((len(Q),) + np.shape(configs[0][key]))
        np.testing.assert_allclose(getattr(chain, method)(Q), expected, rtol=0, atol=POSE_TOL,
                                   err_msg=method)


def test_results_do_not_share_memory():
    chain = CHAINS[0][1]
    Q = np.zeros((batch.MIN_BATCH, chain.n))
    first = chain.fkine_all(Q)
    second = chain.fkine_all(Q + 0.5)
    assert not np.shares_memory(first, second)
    np.testing.assert_array_equal(first, chain.fkine_all(Q))
