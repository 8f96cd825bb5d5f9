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

"""The compiled RNE: the float RNE's own numbers, from straight-line code."""

import math

from dh_kinematics import Chain
from dh_kinematics.core.dynamics import rne, rne_unrolled
from dh_kinematics.core.dynamics.equations import joint_torques
from helpers import assert_same_bits_but_zero_signs, CHAINS, CONFIG_FILES, for_each_arm, PACKAGE
import numpy as np
import pytest


@for_each_arm(CHAINS)
def test_it_returns_exactly_what_the_float_rne_returns(name, chain):
    # Folding only drops terms that are exactly zero: equal to the last bit, not close.
    dyn = chain.dynamic_constants
    both = rne_unrolled.compile_torques(dyn)
    efforts = rne_unrolled.compile_torques(dyn, gravity=False, motors=True)
    gravity = rne_unrolled.compile_torques(dyn, motion=False)
    rng = np.random.default_rng(8)
    for _ in range(5):
        q, qd, qdd = (values.tolist() for values in rng.uniform(-2.0, 2.0, (3, chain.n)))
        theta, d = dyn.table.floats(q)
        ct, st = [math.cos(t) for t in theta], [math.sin(t) for t in theta]
        at_rest = rne.rigid_body_torques(dyn.table.mdh, dyn.rne_links, ct, st, d, None,
                                         None, dyn.base_acceleration)
        moving = rne.rigid_body_torques(dyn.table.mdh, dyn.rne_links, ct, st, d, qd, qdd,
                                        dyn.base_acceleration)
        assert both(q, qd, qdd) == (at_rest, moving)
        assert gravity(q, None, None) == (at_rest,)
        assert efforts(q, qd, qdd) == (joint_torques(dyn, q, qd, qdd),)
        assert_same_bits_but_zero_signs(both(q, qd, qdd), (at_rest, moving))


@pytest.mark.parametrize('model', sorted(CONFIG_FILES))
def test_with_squared_twists_it_is_rne_and_gravload(model):
    chain = Chain.from_yaml(PACKAGE / 'config' / CONFIG_FILES[model]).with_payload(
        1.25, [0.01, -0.02, 0.05], [0.002, 0.003, 0.004])
    torques = rne_unrolled.compile_torques(
        rne_unrolled.snap_twists(chain.dynamic_constants), motors=True)
    rng = np.random.default_rng(55)
    for _ in range(20):
        q, qd, qdd = rng.uniform(-2.0, 2.0, (3, chain.n))
        gravity, efforts = torques(q.tolist(), qd.tolist(), qdd.tolist())
        np.testing.assert_allclose(efforts, chain.rne(q, qd, qdd), rtol=1e-13, atol=1e-12)
        np.testing.assert_allclose(gravity, chain.gravload(q), rtol=1e-13, atol=1e-12)


@for_each_arm(CHAINS)
def test_over_columns_each_row_is_rne_and_gravload(name, chain):
    # Many configurations at once, the same code on numpy columns: each row is the toolbox's
    # rne (motors and friction included) and gravload there; gravity alone and motion alone.
    dyn = rne_unrolled.snap_twists(chain.dynamic_constants)
    rng = np.random.default_rng(56)
    Q, QD, QDD = rng.uniform(-2.0, 2.0, (3, 12, chain.n))
    gravity, efforts = rne_unrolled.compile_torques(dyn, motors=True, columns=True)(Q, QD, QDD)
    alone, = rne_unrolled.compile_torques(dyn, motion=False, columns=True)(Q)
    moving, = rne_unrolled.compile_torques(dyn, gravity=False, motors=True, columns=True)(
        Q, QD, QDD)
    assert gravity.shape == efforts.shape == (12, chain.n)
    for q, qd, qdd, *rows in zip(Q, QD, QDD, gravity, efforts, alone, moving):
        for row, expected in zip(rows, [chain.gravload(q), chain.rne(q, qd, qdd)] * 2):
            np.testing.assert_allclose(row, expected, rtol=1e-12, atol=1e-11)


def test_squaring_moves_only_values_within_1e_15():
    chain = Chain.from_yaml(PACKAGE / 'config' / 'panda.yaml')
    links = rne_unrolled.snap_twists(chain.dynamic_constants).rne_links
    before = chain.dynamic_constants.rne_links
    assert [link.ca for link in links] == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert [link.sa for link in links] == [0.0, -1.0, 1.0, 1.0, -1.0, 1.0, 1.0]
    assert max(abs(a.ca - b.ca) + abs(a.sa - b.sa) for a, b in zip(links, before)) < 1e-15
    assert abs(before[1].ca) > 0.0  # the float nearest pi/2 has a cosine: 6e-17
    twisted = Chain.from_yaml(PACKAGE / 'config' / 'stanford.yaml')
    kept = rne_unrolled.snap_twists(twisted.dynamic_constants).rne_links
    assert all(link.ca in (0.0, 1.0, -1.0) or link.ca == original.ca
               for link, original in zip(kept, twisted.dynamic_constants.rne_links))


def test_the_generated_code_is_straight_and_short():
    chain = Chain.from_yaml(PACKAGE / 'config' / 'panda.yaml')
    squared = rne_unrolled.snap_twists(chain.dynamic_constants)
    plain = rne_unrolled.compile_torques(chain.dynamic_constants)
    short = rne_unrolled.compile_torques(squared)
    # Squaring leaves out the terms cos(pi/2) multiplied: fewer names to hold.
    assert short.__code__.co_nlocals < plain.__code__.co_nlocals
    assert not any(name not in ('cos', 'sin') for name in short.__code__.co_names)


@for_each_arm(CHAINS[::3])
def test_the_compiled_friction_is_the_friction(name, chain):
    friction = rne_unrolled.compile_friction(chain.dynamic_constants)
    rng = np.random.default_rng(9)
    for qd in [*rng.uniform(-2.0, 2.0, (5, chain.n)), np.zeros(chain.n)]:
        assert friction(qd.tolist()) == chain.friction(qd).tolist()
