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

"""Legacy DH rows: Corke, Scilab (dh and dyn rows) and MATLAB setFixedTransform."""

import math

from conftest import link_from_reference, load_reference, MODELS
from dh_kinematics import Chain, Link
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
    (Link.from_scilab_row, [0.0] * 19, r'Ixx Iyy Izz Ixy Iyz Ixz Jm G B Tc\+ Tc-'),
    (Link.from_matlab_row, [0.0] * 5, r'\[a alpha d theta\]'),
    (Link.from_dh_row, [[0.0] * 4], r'\[theta d a alpha'),
    (Link.from_dh_row, ['a', 0.0, 0.0, 0.0], r'\[theta d a alpha'),
])
def test_wrong_length_names_the_expected_layout(reader, row, layout):
    with pytest.raises(ValueError, match=layout):
        reader(row)


def test_wrong_order_names_the_expected_layout():
    # A MATLAB row [a alpha d theta] read as Corke's [theta d a alpha]: theta = a != 0.
    with pytest.raises(ValueError, match=r'Corke dh row.*theta: must be 0 for a revolute'):
        Link.from_dh_row([0.0203, -math.pi / 2, 0.15005, 0.0])
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
    with pytest.raises(ValueError, match='MATLAB setFixedTransform.*d: must be 0 for a '
                       'prismatic'):
        Link.from_matlab_row([0.1, 0.2, 0.3, 0.0], 'dh', joint='prismatic')
