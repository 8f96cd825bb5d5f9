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
Dynamics where the reference has no vectors: flipped joints, prismatic first joints.

The toolbox's own C rne is wrong for flipped joints and for a modified-DH arm whose first joint
is prismatic, so these cases are checked against Lagrange's equations (test/lagrange.py), which
share no code with the recursive Newton-Euler implementation.
"""

from dh_kinematics import Chain, Link
from dh_kinematics.core.rotations import xyz_rpy_to_transform
from helpers import chain_from_reference, load_reference
from lagrange import lagrange_torques, numeric_jacob0
import numpy as np
import pytest

INERTIA = [0.02, 0.03, 0.025, 0.002, -0.001, 0.003]


def _arm(convention, flips):
    """Build a four-joint arm: prismatic, revolute, revolute, prismatic, with full dynamics."""
    common = {'convention': convention, 'Jm': 2e-4, 'G': -40.0, 'B': 1e-3, 'Tc': [0.02, -0.03]}
    links = [
        Link(joint='prismatic', a=0.1, alpha=-np.pi / 2, theta=0.3, offset=0.2, m=3.0,
             r=[0.01, 0.02, -0.05], I=INERTIA, qlim=[0.0, 1.0], **common),
        Link(joint='revolute', a=0.3, alpha=np.pi / 2, d=0.1, offset=0.4, m=2.0,
             r=[-0.1, 0.01, 0.02], I=INERTIA, **common),
        Link(joint='revolute', a=0.25, alpha=-0.7, d=0.05, m=1.5, r=[0.05, -0.02, 0.01],
             I=INERTIA, **common),
        Link(joint='prismatic', a=0.05, alpha=np.pi / 2, theta=-0.4, m=0.8,
             r=[0.0, 0.03, 0.1], I=INERTIA, **common),
    ]
    links = [link.replace(flip=flip) for link, flip in zip(links, flips)]
    base = xyz_rpy_to_transform([0.1, -0.2, 0.3], [0.3, -0.2, 0.5])
    return Chain(links, base=base, gravity=[0.5, -0.3, -9.81])


def _flipped_reference(model, joints):
    chain = chain_from_reference(load_reference(model))
    links = [link.replace(flip=i in joints) for i, link in enumerate(chain.links)]
    return Chain(links, base=chain.base, tool=chain.tool, gravity=chain.gravity)


ARMS = {
    'mdh_prismatic_first': lambda: _arm('modified', [False] * 4),
    'mdh_prismatic_first_flipped': lambda: _arm('modified', [True, False, True, True]),
    'sdh_prismatic_first': lambda: _arm('standard', [False] * 4),
    'sdh_prismatic_first_flipped': lambda: _arm('standard', [True, True, False, True]),
    'puma560_flipped': lambda: _flipped_reference('puma560', {1, 3}),
    'panda_flipped': lambda: _flipped_reference('panda', {0, 5}),
    'stanford_flipped': lambda: _flipped_reference('stanford', {2, 4}),
    'puma560': lambda: chain_from_reference(load_reference('puma560')),
}


@pytest.mark.parametrize('arm', sorted(ARMS))
def test_rne_matches_lagrange(arm):
    chain = ARMS[arm]()
    rng = np.random.default_rng(7)
    for _ in range(3):
        q, qd, qdd = rng.uniform(-1.0, 1.0, size=(3, chain.n))
        expected = lagrange_torques(chain, q, qd, qdd)
        np.testing.assert_allclose(chain.rne(q, qd, qdd), expected, rtol=1e-6,
                                   atol=1e-6 * max(1.0, np.abs(expected).max()))


@pytest.mark.parametrize('arm', sorted(ARMS))
def test_jacob0_matches_finite_differences(arm):
    chain = ARMS[arm]()
    q = np.random.default_rng(11).uniform(-1.0, 1.0, size=chain.n)
    np.testing.assert_allclose(chain.jacob0(q), numeric_jacob0(chain, q), atol=1e-8)


@pytest.mark.parametrize('arm', sorted(ARMS))
def test_external_wrench_maps_through_the_last_frame_jacobian(arm):
    chain = ARMS[arm]()
    no_tool = Chain(chain.links, base=chain.base, gravity=chain.gravity)
    rng = np.random.default_rng(5)
    q, qd, qdd = rng.uniform(-1.0, 1.0, size=(3, chain.n))
    fext = rng.uniform(-2.0, 2.0, size=6)
    difference = chain.rne(q, qd, qdd, fext=fext) - chain.rne(q, qd, qdd)
    np.testing.assert_allclose(difference, no_tool.jacobe(q).T @ fext, atol=1e-10)


def test_flip_mirrors_the_joint():
    plain = _arm('modified', [False] * 4)
    flipped = _arm('modified', [True, False, True, False])
    q = np.array([0.3, -0.4, 0.5, 0.2])
    mirrored = q * [-1, 1, -1, 1]
    np.testing.assert_allclose(flipped.fkine_all(q), plain.fkine_all(mirrored), atol=1e-15)
    np.testing.assert_allclose(flipped.jacob0(q), plain.jacob0(mirrored) * [-1, 1, -1, 1],
                               atol=1e-15)
    rigid_plain = plain.nofriction(True, True)
    rigid_flipped = flipped.nofriction(True, True)
    qd, qdd = np.array([0.2, 0.1, -0.3, 0.4]), np.array([-0.5, 0.3, 0.2, 0.1])
    np.testing.assert_allclose(
        rigid_flipped.rne(q, qd, qdd),
        rigid_plain.rne(mirrored, qd * [-1, 1, -1, 1], qdd * [-1, 1, -1, 1]) * [-1, 1, -1, 1],
        atol=1e-12)
