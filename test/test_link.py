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

"""Link: construction, validation, transforms, friction, limits, copies and display."""

import math
import re

from dh_kinematics import InvalidFieldError, Link
from helpers import link_from_reference, load_reference, MODELS
import numpy as np
import pytest


@pytest.mark.parametrize('spelling, expected', [
    ('standard', 'standard'), ('stand', 'standard'), ('STANDARD', 'standard'),
    ('sta', 'standard'), ('modified', 'modified'), ('mod', 'modified'), ('Modif', 'modified')])
def test_convention_names_and_prefixes(spelling, expected):
    assert Link(convention=spelling).convention == expected


@pytest.mark.parametrize('spelling', ['std', 's', 'st', 'mdh', '', 'standardx', None, 1])
def test_convention_rejects_non_prefixes(spelling):
    with pytest.raises(ValueError, match='convention'):
        Link(convention=spelling)


@pytest.mark.parametrize('spelling, expected', [
    ('revolute', 'revolute'), ('rev', 'revolute'), ('prismatic', 'prismatic'),
    ('pri', 'prismatic'), ('Prism', 'prismatic')])
def test_joint_names_and_prefixes(spelling, expected):
    link = Link(joint=spelling)
    assert link.joint == expected
    assert link.isrevolute() == (expected == 'revolute')
    assert link.isprismatic() == (expected == 'prismatic')
    assert link.RP == ('R' if expected == 'revolute' else 'P')


@pytest.mark.parametrize('spelling', ['r', 'p', 'R', 'rotary', 'continuous', 'fixed'])
def test_joint_rejects_other_names(spelling):
    with pytest.raises(ValueError, match='joint'):
        Link(joint=spelling)


@pytest.mark.parametrize('field, value, message', [
    ('a', math.nan, 'a: must be finite'),
    ('alpha', math.inf, 'alpha: must be finite'),
    ('d', '0.1', 'd: must be a real number'),
    ('offset', True, 'offset: must be a real number'),
    ('flip', 1, 'flip: must be true or false'),
    ('qlim', [1.0, -1.0], 'qlim: must be .lower, upper. with lower <= upper'),
    ('qlim', [0.0, math.nan], 'qlim: must not contain NaN'),
    ('qlim', [0.0], r'qlim: must be an array of numbers of shape \(2,\)'),
    ('m', -1.0, 'm: must be >= 0'),
    ('r', [0.0, 0.0], r'r: must be an array of numbers of shape \(3,\)'),
    ('r', [0.0, math.nan, 0.0], 'r: must not contain NaN or inf'),
    ('I', [[1.0, 0.1, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], 'I: must be a symmetric'),
    ('I', [1.0, 2.0], 'I: must be an array of numbers of shape'),
    ('I', np.eye(3) * math.nan, 'I: must not contain NaN'),
    ('Jm', -1e-4, 'Jm: must be >= 0'),
    ('G', 0.0, 'G: must be non-zero'),
    ('B', -0.1, 'B: must be >= 0'),
    ('Tc', -0.1, 'Tc: must be >= 0'),
    ('Tc', [-0.1, 0.1], 'Tc: must be .Tc., Tc-. with Tc. >= 0 and Tc- <= 0'),
    ('Tc', [0.1, 0.2, 0.3], r'Tc: must be an array of numbers of shape \(2,\)'),
    ('name', '', 'name: must be a non-empty string'),
    ('theta', 0.5, 'theta: must be 0 for a revolute joint.*put a constant into offset'),
])
def test_bad_fields_raise_value_error_naming_field_and_value(field, value, message):
    with pytest.raises(InvalidFieldError, match=message) as info:
        Link(**{field: value})
    assert isinstance(info.value, ValueError)
    assert info.value.field == field
    assert 'got' in str(info.value)


def test_prismatic_d_must_be_zero():
    with pytest.raises(ValueError, match='d: must be 0 for a prismatic joint'):
        Link(joint='prismatic', d=0.2)


def test_unknown_keyword_is_refused():
    with pytest.raises(TypeError):
        Link(alpah=0.1)


@pytest.mark.parametrize('inertia', [
    [1.0, 2.0, 3.0],
    [1.0, 2.0, 3.0, 0.1, 0.2, 0.3],
    [[1.0, 0.1, 0.3], [0.1, 2.0, 0.2], [0.3, 0.2, 3.0]]])
def test_inertia_forms(inertia):
    I = Link(I=inertia).I  # noqa: E741
    assert I.shape == (3, 3)
    np.testing.assert_array_equal(np.diag(I), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(I, I.T)
    if len(inertia) == 6:
        assert (I[0, 1], I[1, 2], I[0, 2]) == (0.1, 0.2, 0.3)


def test_coulomb_scalar_is_symmetric():
    assert Link(Tc=0.4).Tc == (0.4, -0.4)
    assert Link(Tc=[0.4, -0.2]).Tc == (0.4, -0.2)


@pytest.mark.parametrize('model', MODELS)
def test_transform_friction_and_display_per_reference_link(model):
    reference = load_reference(model)
    config = reference['configs'][-1]
    for i, row in enumerate(reference['model']['links']):
        link = link_from_reference(row)
        np.testing.assert_allclose(link.A(config['q'][i]), config['link_A'][i], atol=1e-12)
        assert link.mdh == row['mdh']
        dyn = [line.rstrip() for line in link.dyn().split('\n')]
        expected = [line.rstrip() for line in row['dyn'].split('\n')]
        if row['qlim'] is None:
            # The toolbox prints '0 to 0' when there are no limits; we say so plainly.
            assert dyn[-1] == 'qlim  =      none'
            dyn, expected = dyn[:-1], expected[:-1]
        assert dyn == expected
    for case in reference['friction']:
        for i, row in enumerate(reference['model']['links']):
            link = link_from_reference(row)
            assert link.friction(case['qd'][i]) == pytest.approx(case['tau'][i], abs=1e-12)


def test_joint_value_replaces_theta_or_d_with_flip_and_offset():
    revolute = Link(a=0.5, d=0.2, alpha=0.3, offset=0.1, flip=True)
    np.testing.assert_allclose(revolute.A(0.4), Link(a=0.5, d=0.2, alpha=0.3).A(-0.3),
                               atol=1e-15)
    prismatic = Link(joint='prismatic', theta=0.7, a=0.1, offset=0.05)
    T = prismatic.A(0.3)
    np.testing.assert_allclose(T[2, 3], 0.35)
    np.testing.assert_allclose(T[0, 0], math.cos(0.7))


def test_standard_and_modified_transforms():
    a, alpha, d, q = 0.3, 0.4, 0.2, 0.5
    ca, sa, cq, sq = math.cos(alpha), math.sin(alpha), math.cos(q), math.sin(q)
    standard = np.array([[cq, -sq * ca, sq * sa, a * cq], [sq, cq * ca, -cq * sa, a * sq],
                         [0, sa, ca, d], [0, 0, 0, 1]])
    modified = np.array([[cq, -sq, 0, a], [sq * ca, cq * ca, -sa, -sa * d],
                         [sq * sa, cq * sa, ca, ca * d], [0, 0, 0, 1]])
    np.testing.assert_allclose(Link(a=a, alpha=alpha, d=d).A(q), standard, atol=1e-15)
    np.testing.assert_allclose(Link(a=a, alpha=alpha, d=d, convention='mod').A(q), modified,
                               atol=1e-15)


def test_friction_handles_negative_gear_ratio_and_zero_velocity():
    link = Link(G=-50.0, B=0.001, Tc=[0.3, -0.2])
    assert link.friction(0.0) == 0.0
    assert link.friction(1.0) == pytest.approx(-50.0 * (0.001 * 50.0 + 0.3))
    assert link.friction(-1.0) == pytest.approx(-50.0 * (-0.001 * 50.0 - 0.2))
    assert link.friction(1e-12) == pytest.approx(-50.0 * 0.3, rel=1e-9)
    with pytest.raises(ValueError, match='qd: must be finite'):
        link.friction(math.nan)


def test_islimit_edges_count_as_inside():
    link = Link(qlim=[-1.0, 2.0])
    assert [link.islimit(q) for q in (-1.5, -1.0, 0.0, 2.0, 2.5)] == [-1, 0, 0, 0, 1]
    assert Link().islimit(1e9) == 0
    assert Link(qlim=[-math.inf, 0.0]).islimit(-1e300) == 0
    with pytest.raises(ValueError, match='q: must be finite'):
        link.islimit(math.nan)


def test_nofriction_copy_replace_and_immutability():
    link = Link(B=0.1, Tc=0.2, m=1.0, name='elbow')
    assert link.nofriction().Tc == (0.0, -0.0) and link.nofriction().B == 0.1
    assert link.nofriction(coulomb=False, viscous=True).B == 0.0
    assert link.nofriction(coulomb=False, viscous=True).Tc == (0.2, -0.2)
    assert link.copy() == link and link.copy() is not link
    assert link.replace(m=2.0).m == 2.0 and link.m == 1.0
    with pytest.raises(AttributeError, match='immutable'):
        link.m = 3.0
    with pytest.raises(ValueError):
        link.r[0] = 1.0
    with pytest.raises(ValueError, match='mass: is not a Link field'):
        link.replace(mass=2.0)
    with pytest.raises(ValueError, match='m: must be >= 0'):
        link.replace(m=-2.0)


def test_arrays_are_copied_on_construction():
    r = np.array([0.1, 0.2, 0.3])
    link = Link(r=r)
    r[0] = 9.0
    assert link.r[0] == 0.1


def test_one_line_summary():
    assert str(Link(d=0.5, alpha=math.pi / 2)) == 'RevoluteDH: θ=q, d=0.5, a=0, ⍺=1.5708'
    assert str(Link(joint='prismatic', theta=-math.pi / 2, a=0.0203, convention='mod',
                    name='slide', flip=True, offset=0.1)) == (
        'PrismaticMDH slide: θ=-1.5708, d=-q + 0.1, a=0.0203, ⍺=0')
    assert str(Link(offset=-0.25)).startswith('RevoluteDH: θ=q - 0.25,')
    assert '\n' not in str(Link()) and repr(Link()).startswith('Link(')


def _display_values(text):
    """Return {symbol: value} from a one-line summary, numbers rounded to 5 significant digits."""
    values = {}
    for key, value in re.findall(r'([θda⍺])=([^,\s]+)', text):
        try:
            values[key] = float(f'{float(value):.5g}')
        except ValueError:
            values[key] = value
    return values


@pytest.mark.parametrize('model', MODELS)
def test_one_line_summary_says_what_the_toolbox_says(model):
    for row in load_reference(model)['model']['links']:
        ours = str(link_from_reference(row))
        assert ours.split(':')[0] == row['str'].split(':')[0]
        assert _display_values(ours) == _display_values(row['str']), (ours, row['str'])
