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

"""Chain: construction errors, input shapes, non-finite input, display and attributes."""

import math

from dh_kinematics import Chain, InvalidFieldError, Link
from helpers import chain_from_reference, load_reference, PACKAGE
import numpy as np
import pytest


@pytest.fixture
def puma():
    return chain_from_reference(load_reference('puma560'))


def test_attributes(puma):
    assert puma.n == 6 and len(puma.links) == 6 and not puma.mdh
    assert puma.name == 'Puma 560'
    assert puma.joint_names == ('q1', 'q2', 'q3', 'q4', 'q5', 'q6')
    assert puma.base_frame == 'base_link' and puma.tool_frame == 'tool0'
    assert puma.world_frame == 'world'
    assert puma.link_frames == tuple(f'link{i}' for i in range(1, 7))
    np.testing.assert_array_equal(puma.gravity, [0.0, 0.0, -9.81])
    with pytest.raises(ValueError):
        puma.base[0, 0] = 2.0


def test_construction_errors():
    with pytest.raises(ValueError, match='links: must be a non-empty sequence of Link'):
        Chain([])
    with pytest.raises(ValueError, match='links: must be a non-empty sequence of Link'):
        Chain([Link(), 'link'])
    with pytest.raises(ValueError, match='links: must all use one DH convention'):
        Chain([Link(), Link(convention='modified')])
    with pytest.raises(ValueError, match='base: must be a homogeneous transform'):
        Chain([Link()], base=np.diag([2.0, 1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match='tool: must be a homogeneous transform'):
        Chain([Link()], tool=np.diag([-1.0, 1.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match=r'base: must be an array of numbers of shape \(4, 4\)'):
        Chain([Link()], base=np.eye(3))
    with pytest.raises(ValueError, match='gravity: must not contain NaN'):
        Chain([Link()], gravity=[0.0, 0.0, math.nan])
    with pytest.raises(ValueError, match=r'link_frames\[1\]: the frame of link 2 is also the '
                       r'frame of link 1; every frame on TF needs a name of its own'):
        Chain([Link(), Link()], link_frames=['a', 'a'])
    with pytest.raises(ValueError, match=r'link_frames: must name 2 frames'):
        Chain([Link(), Link()], link_frames=['a'])
    with pytest.raises(ValueError, match=r'joint_names\[1\]: joint 2 is also joint 1'):
        Chain([Link(name='j'), Link(name='j')])
    with pytest.raises(ValueError, match='name: must be a string'):
        Chain([Link()], name=3)


@pytest.mark.parametrize('method', ['link_transforms', 'fkine_all', 'fkine', 'jacob0',
                                    'jacobe', 'islimit', 'friction', 'rne', 'gravload',
                                    'inertia'])
@pytest.mark.parametrize('bad, message', [
    (np.zeros(5), r'must be numbers of shape \(6,\) or \(m, 6\), got \(5,\)'),
    (np.zeros((2, 7)), r'got \(2, 7\)'),
    (np.zeros((2, 3, 6)), r'got \(2, 3, 6\)'),
    (0.0, r'got \(\)'),
    (['a'] * 6, 'must be numbers of shape'),
    ([True] * 6, 'must be numbers of shape'),
    ([0.0, 0.0, math.nan, 0.0, 0.0, 0.0], 'must be finite'),
    ([[0.0] * 6, [math.inf] + [0.0] * 5], 'must be finite'),
])
def test_bad_joint_input(puma, method, bad, message):
    with pytest.raises(InvalidFieldError, match=message) as info:
        getattr(puma, method)(bad)
    assert info.value.field in ('q', 'qd')


def test_rne_shape_mismatch_and_bad_optional_arguments(puma):
    q = np.zeros(6)
    with pytest.raises(ValueError, match=r'qd: must have the shape of q, \(6,\)'):
        puma.rne(q, np.zeros((1, 6)))
    with pytest.raises(ValueError, match=r'qdd: must have the shape of q, \(2, 6\)'):
        puma.rne(np.zeros((2, 6)), np.zeros((2, 6)), np.zeros((3, 6)))
    with pytest.raises(ValueError, match='qdd: must be finite'):
        puma.rne(q, q, [math.nan] * 6)
    with pytest.raises(ValueError, match=r'gravity: must be an array of numbers of shape \(3,\)'):
        puma.rne(q, gravity=[0.0, -9.81])
    with pytest.raises(ValueError, match=r'fext: must be an array of numbers of shape \(6,\)'):
        puma.rne(q, fext=np.zeros((2, 6)))
    with pytest.raises(ValueError, match='fext: must not contain NaN'):
        puma.rne(q, fext=[math.nan] * 6)


def test_batch_shapes(puma):
    Q = np.zeros((4, 6))
    assert puma.link_transforms(Q).shape == (4, 6, 4, 4)
    assert puma.fkine_all(Q).shape == (4, 7, 4, 4)
    assert puma.fkine(Q).shape == (4, 4, 4)
    assert puma.jacob0(Q).shape == (4, 6, 6) and puma.jacobe(Q).shape == (4, 6, 6)
    assert puma.inertia(Q).shape == (4, 6, 6) and puma.rne(Q).shape == (4, 6)
    assert puma.friction(Q).shape == (4, 6) and puma.islimit(Q).shape == (4, 6)
    assert puma.rne(np.zeros((0, 6))).shape == (0, 6)
    assert puma.rne(Q, Q, Q, fext=np.zeros((4, 6))).shape == (4, 6)


def test_lists_are_accepted(puma):
    np.testing.assert_array_equal(puma.fkine([0, 0, 0, 0, 0, 0]), puma.fkine(np.zeros(6)))


def test_display_is_a_readable_table(puma):
    text = str(puma)
    lines = text.split('\n')
    assert lines[0] == ("Chain 'Puma 560': 6 joints (RRRRRR), standard DH "
                        '(lengths m, angles rad)')
    assert lines[2] == '| joint | θ |       d |      a |       ⍺ |        q⁻ |       q⁺ |'
    assert lines[4] == '|    q1 | q | 0.67183 |      0 |  1.5708 |  -2.79253 |  2.79253 |'
    assert len(lines) == 4 + 6 + 1
    assert repr(puma) == "Chain(name='Puma 560', n=6, mdh=False)"


def test_display_of_prismatic_flipped_and_tool():
    reference = load_reference('stanford')
    stanford = chain_from_reference(reference)
    assert '|    q3 | -1.5708 |     q | 0.0203 |       0 |   0.3048 |    1.27 |' in str(
        stanford)
    panda = chain_from_reference(load_reference('panda'))
    assert str(panda).split('\n')[-1] == 'tool: xyz=[0, 0, 0.103] m, rpy=[0, 0, -0.785398] rad'
    assert str(panda).split('\n')[0].endswith('7 joints (RRRRRRR), modified DH '
                                              '(lengths m, angles rad)')
    flipped = Chain([Link(flip=True, offset=0.5)], name='')
    assert '|    q1 | -q + 0.5 | 0 | 0 | 0 |  - |  - |' in str(flipped)
    assert str(flipped).startswith('Chain: 1 joint (R), standard DH')


def test_replace_changes_only_the_fields_it_is_given_and_names_an_unknown_one():
    chain = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')
    moved = chain.replace(name='left_ur5', tool_frame='gripper')
    assert (moved.name, moved.tool_frame) == ('left_ur5', 'gripper')
    params, expected = moved.to_params(), chain.to_params()
    assert (params.pop('robot_name'), params.pop('tool_frame')) == ('left_ur5', 'gripper')
    expected.pop('robot_name'), expected.pop('tool_frame')
    assert params == expected
    np.testing.assert_array_equal(moved.fkine(np.zeros(6)), chain.fkine(np.zeros(6)))
    with pytest.raises(InvalidFieldError, match='toolframe'):
        chain.replace(toolframe='gripper')
    with pytest.raises(InvalidFieldError, match='tool_frame'):
        chain.replace(tool_frame='bad name')


def test_random_q_draws_within_the_limits_and_a_turn_or_a_metre_without():
    chain = Chain([Link(qlim=(-0.5, 0.25), name='a'), Link(name='b'),
                   Link(joint='prismatic', name='c')])
    q = chain.random_q(1000, np.random.default_rng(0))
    assert q.shape == (1000, 3)
    assert (-0.5 <= q[:, 0]).all() and (q[:, 0] <= 0.25).all()
    assert np.abs(q[:, 1]).max() <= np.pi and np.abs(q[:, 2]).max() <= 1.0
    np.testing.assert_array_equal(q, chain.random_q(1000, np.random.default_rng(0)))


@pytest.mark.parametrize('convention', ['standard', 'modified'])
def test_a_chain_of_hundreds_of_links_has_kinematics_and_dynamics(convention):
    # Seen in issue 58: 250 links nested the compiled sums past Python's 200 brackets
    # (SyntaxError: too many nested parentheses); a long description in view --follow needs it.
    from helpers import plain_arm, plain_tool_poses
    rng = np.random.default_rng(5801)
    n = 250
    chain = Chain([Link(a=rng.uniform(0.0, 0.1), alpha=rng.uniform(-1.0, 1.0),
                        d=rng.uniform(0.0, 0.05), offset=rng.uniform(-1.0, 1.0), m=0.1,
                        r=[0.01, 0.0, 0.0], I=[1e-4] * 3, convention=convention, name=f'j{k}')
                   for k in range(n)])
    q = rng.uniform(-1.0, 1.0, n)
    np.testing.assert_allclose(chain.fkine(q), plain_tool_poses(plain_arm(chain), q)[0],
                               atol=1e-9)
    assert np.isfinite(chain.rne(q, q, q)).all() and np.isfinite(chain.jacob0(q)).all()
