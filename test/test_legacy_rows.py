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
Legacy DH rows: Corke, Scilab (dh and dyn rows) and MATLAB setFixedTransform.

Besides the reference models, the truths are the toolboxes' own: the Robotics Toolbox for
MATLAB's LinkTest.m (its rows, with a value in the joint variable's place, and the link
transforms it expects of them to 1e-4), the Scilab toolbox's rt_link (its 17-element dyn row
example, its defaults for short dyn rows), and MATLAB's setFixedTransform documentation (theta
of a revolute joint and d of a prismatic one are ignored).
"""

import math
import warnings

from dh_kinematics import Chain, Link
from dh_kinematics.cli import convert
from dh_kinematics.core.legacy_rows import PlaceholderWarning
from helpers import link_from_reference, load_reference, MODELS, PACKAGE, run_cli
import numpy as np
import pytest


def _kinematics(link):
    return (link.joint, link.convention, link.a, link.alpha, link.d, link.theta, link.offset)


@pytest.mark.parametrize('model', MODELS)
def test_rows_of_every_reference_model(model):
    reference = load_reference(model)
    convention = 'modified' if reference['model']['mdh'] else 'standard'
    links = []
    for row in reference['model']['links']:
        expected = link_from_reference(row)
        d = 0.0 if row['sigma'] else row['d']
        theta = row['theta'] if row['sigma'] else 0.0
        corke = Link.from_dh_row([theta, d, row['a'], row['alpha'], row['sigma'],
                                  row['offset']], convention=convention)
        assert _kinematics(corke) == _kinematics(expected)
        I = np.array(row['I'])  # noqa: E741
        scilab = Link.from_scilab_row(
            [row['alpha'], row['a'], theta, d, row['sigma'], row['m'], *row['r'],
             I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[1, 2], I[0, 2], row['Jm'], row['G'],
             row['B'], *row['Tc']], convention=convention)
        assert scilab == expected.replace(qlim=None)
        matlab = Link.from_matlab_row([row['a'], row['alpha'], d, theta],
                                      'mdh' if row['mdh'] else 'dh',
                                      joint='prismatic' if row['sigma'] else 'revolute')
        assert _kinematics(matlab) == _kinematics(expected)
        links.append(scilab.replace(qlim=row['qlim']))
    chain = Chain(links, base=reference['model']['base'], tool=reference['model']['tool'])
    config = reference['configs'][-1]
    np.testing.assert_allclose(chain.fkine(config['q']), config['fkine'], atol=1e-10)
    np.testing.assert_allclose(chain.rne(config['q'], config['rne']['qd'],
                                         config['rne']['qdd']), config['rne']['tau'],
                               atol=1e-9 * max(1.0, np.abs(config['rne']['tau']).max()))


def test_short_rows_default_to_revolute_without_offset():
    assert _kinematics(Link.from_dh_row([0.0, 0.2, 0.3, 0.4])) == (
        'revolute', 'standard', 0.3, 0.4, 0.2, 0.0, 0.0)
    assert Link.from_dh_row([0.5, 0.0, 0.3, 0.4, 1]).isprismatic()
    assert Link.from_scilab_row([0.4, 0.3, 0.0, 0.2], convention='mod').mdh
    assert Link.from_scilab_row([0.4, 0.3, 0.5, 0.0, 1]).theta == 0.5


@pytest.mark.parametrize('reader, row, layout', [
    (Link.from_dh_row, [0.0, 0.1, 0.2], r'\[theta d a alpha \(sigma \(offset\)\)\]'),
    (Link.from_dh_row, [0.0] * 7, r'\[theta d a alpha \(sigma \(offset\)\)\]'),
    (Link.from_scilab_row, [0.0] * 6, r'\[alpha A theta D \(sigma\)\]'),
    (Link.from_scilab_row, [0.0] * 19, r'Ixx Iyy Izz Ixy Iyz Ixz Jm \(G \(B \(Tc\+ Tc-\)\)\)'),
    (Link.from_matlab_row, [0.0] * 5, r'\[a alpha d theta\]'),
    (Link.from_dh_row, [[0.0] * 4], r'\[theta d a alpha'),
    (Link.from_dh_row, ['a', 0.0, 0.0, 0.0], r'\[theta d a alpha'),
])
def test_wrong_length_names_the_expected_layout(reader, row, layout):
    with pytest.raises(ValueError, match=layout):
        reader(row)


def test_wrong_order_names_the_expected_layout():
    # A sigma that is not 0 or 1 means the columns are shifted.
    with pytest.raises(ValueError, match=r'sigma must be 0 .revolute. or 1 .prismatic.'):
        Link.from_dh_row([0.0, 0.1, 0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match=r'Scilab dyn row.*m: must be >= 0'):
        Link.from_scilab_row([0.0, 0.1, 0.0, 0.2, 0, -4.8] + [0.0] * 10 + [1.0, 0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r'Scilab dyn row.*G: must be non-zero'):
        Link.from_scilab_row([0.0, 0.1, 0.0, 0.2, 0, 4.8] + [0.0] * 14)


def test_matlab_convention_names():
    assert not Link.from_matlab_row([0.1, 0.2, 0.3, 0.0], 'dh').mdh
    assert Link.from_matlab_row([0.1, 0.2, 0.3, 0.0], 'mdh').mdh
    with pytest.raises(ValueError, match="convention: must be 'dh' or 'mdh'"):
        Link.from_matlab_row([0.1, 0.2, 0.3, 0.0], 'standardized')
    with pytest.warns(PlaceholderWarning, match='a MATLAB row holds a value in the joint '
                      "variable's place .* which MATLAB's setFixedTransform ignores"):
        link = Link.from_matlab_row([0.1, 0.2, 0.3, 0.4], 'dh', joint='prismatic')
    assert (link.d, link.theta) == (0.0, 0.4)  # setFixedTransform ignores d of a prismatic joint


def test_the_matlab_toolboxs_own_link_tests():
    """LinkTest.m of the Robotics Toolbox for MATLAB: its rows and the transforms it expects."""
    with pytest.warns(PlaceholderWarning):
        prismatic = Link.from_dh_row([1, 1, 1, 1, 1])  # theta 1, d 1 (the variable's place)
    np.testing.assert_allclose(prismatic.A(0.5), [[0.5403, -0.4546, 0.7081, 0.5403],
                                                  [0.8415, 0.2919, -0.4546, 0.8415],
                                                  [0, 0.8415, 0.5403, 0.5000], [0, 0, 0, 1]],
                               atol=1e-4)
    np.testing.assert_allclose(prismatic.A(0), [[0.5403, -0.4546, 0.7081, 0.5403],
                                                [0.8415, 0.2919, -0.4546, 0.8415],
                                                [0, 0.8415, 0.5403, 0], [0, 0, 0, 1]], atol=1e-4)
    revolute = Link.from_dh_row([0, 1, 0, 1, 0])
    np.testing.assert_allclose(revolute.A(0.5), [[0.8776, -0.2590, 0.4034, 0],
                                                 [0.4794, 0.4742, -0.7385, 0],
                                                 [0, 0.8415, 0.5403, 1.0], [0, 0, 0, 1]],
                               atol=1e-4)
    with pytest.warns(PlaceholderWarning, match="a Corke row .* which Corke's Link ignores"):
        link = Link.from_dh_row([1, 2, 3, math.pi / 2])  # A_test: theta 1 is the variable's
    np.testing.assert_allclose(link.A(0), [[1, 0, 0, 3], [0, 0, -1, 0], [0, 1, 0, 2],
                                           [0, 0, 0, 1]], atol=1e-10)
    np.testing.assert_allclose(link.A(math.pi / 2), [[0, 0, 1, 0], [1, 0, 0, 3], [0, 1, 0, 2],
                                                     [0, 0, 0, 1]], atol=1e-10)
    with pytest.warns(PlaceholderWarning):  # 6 elements: the offset; d 2 is the variable's
        assert Link.from_dh_row([1, 2, 3, 4, 1, 5]).offset == 5.0
    with pytest.warns(PlaceholderWarning):  # 20 elements: the dynamics, standard revolute
        dynamic = Link.from_dh_row([1, 2, 3, 4, 0] + list(range(6, 20)) + [-20])
    assert (dynamic.d, dynamic.a, dynamic.alpha, dynamic.offset) == (2, 3, 4, 0)
    assert dynamic.m == 6 and dynamic.r.tolist() == [7, 8, 9]
    assert np.diag(dynamic.I).tolist() == [10, 11, 12]
    assert (dynamic.I[0, 1], dynamic.I[1, 2], dynamic.I[0, 2]) == (13, 14, 15)
    assert (dynamic.Jm, dynamic.G, dynamic.B, dynamic.Tc) == (16, 17, 18, (19, -20))


def test_scilab_dyn_rows_of_16_to_20_elements_take_rt_links_defaults():
    # rt_link's own example: 17 elements, ending at G.
    example = [-math.pi / 2, 0, 0, 0.412, 0, 9.29, 0, 0.0175, -0.1105, 0.276, 0.255, 0.071,
               0, 0, 0, 0.953, 1]
    link = Link.from_scilab_row(example, 'stand')
    assert (link.alpha, link.d, link.m, link.Jm, link.G) == (-math.pi / 2, 0.412, 9.29, 0.953, 1)
    assert link.r.tolist() == [0, 0.0175, -0.1105] and np.diag(link.I).tolist() == [
        0.276, 0.255, 0.071]
    assert (link.B, link.Tc) == (0.0, (0.0, 0.0))
    full = example[:16] + [50.0, 0.002, 0.3, -0.4]
    for size, G, B, Tc in ((16, 1.0, 0.0, (0.0, 0.0)), (17, 50.0, 0.0, (0.0, 0.0)),
                           (18, 50.0, 0.002, (0.0, 0.0)), (20, 50.0, 0.002, (0.3, -0.4))):
        link = Link.from_scilab_row(full[:size])
        assert (link.G, link.B, link.Tc) == (G, B, Tc), size
    for size in (6, 15, 19, 21):  # rt_link refuses these too (19: Tc+ without Tc-)
        with pytest.raises(ValueError, match=r'Scilab dyn row, 16, 17, 18 or 20 elements'):
            Link.from_scilab_row(full[:size] + [0.0] * max(size - 20, 0))


def test_the_joint_variables_place_is_ignored_with_one_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('default')  # as Python shows warnings: once per place
        for _ in range(3):
            link = Link.from_scilab_row([0.4, 0.3, 0.25, 0.2])  # theta 0.25: ignored
    assert len(caught) == 1 and issubclass(caught[0].category, PlaceholderWarning)
    assert link.theta == 0.0 and link.d == 0.2 and link.A(0.0)[0, 0] == 1.0
    assert "a Scilab row holds a value in the joint variable's place" in str(caught[0].message)
    assert 'A constant angle or length belongs in offset' in str(caught[0].message)
    with pytest.warns(PlaceholderWarning):
        assert Link.from_scilab_row([0.4, 0.3, 0.5, 0.7, 1]).d == 0.0  # prismatic: D ignored
    # The model file has no such place: a revolute joint's theta is refused there.
    params = Chain([Link(a=0.3)]).to_params()
    params['q1']['theta'] = 0.25
    with pytest.raises(ValueError, match=r'q1.theta: must be 0 for a revolute joint'):
        Chain.from_params(params)


def test_convert_ignores_the_placeholders_and_warns_once_naming_the_rows(tmp_path):
    table = '[0.3 0.089159 0 pi/2; 0 0 -0.425 0; 0.1 0 -0.39225 0]'
    with pytest.warns(PlaceholderWarning, match=r'^rows 1, 3: a Corke row holds a value'):
        chain = convert.chain_from_table(convert.read_table(table)[1], 'corke')
    np.testing.assert_array_equal(chain.fkine([0.0, 0.0, 0.0])[:3, 3], [-0.81725, 0.0, 0.089159])
    out, _ = run_cli('convert', table, '--order', 'corke', '-o', tmp_path / 'arm.yaml')
    assert out.count('warning: ') == 1 and out.startswith('warning: rows 1, 3: a Corke row')
    run_cli('check', '--strict', tmp_path / 'arm.yaml')
    assert Chain.from_yaml(tmp_path / 'arm.yaml').links[0].theta == 0.0
    assert (PACKAGE / 'config').exists()
