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
A payload at the tool: checked like every model field, and folded into the dynamics exactly.

pinocchio checks the fold on random arms through the URDF (test_urdf.py); here a point mass is
checked against the Jacobian (the extra gravity torque is ``-J_v^T m g``), and the parameters
against every kind of bad input.
"""

from dh_kinematics import Chain
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.dynamics.payload import check_payload, fold, is_empty
from dh_kinematics.core.model_file.params import flatten
from helpers import CONFIG_FILES, PACKAGE
import numpy as np
import pytest

PUMA = Chain.from_yaml(PACKAGE / 'config' / CONFIG_FILES['puma560'])


def _params(**payload):
    params = flatten(PUMA.to_params())
    params.update({f'payload.{key}': value for key, value in payload.items()})
    return params


@pytest.mark.parametrize('model', sorted(CONFIG_FILES))
def test_a_point_mass_at_the_tool_adds_the_jacobian_transpose_of_its_weight(model):
    chain = Chain.from_yaml(PACKAGE / 'config' / CONFIG_FILES[model])
    rng = np.random.default_rng(5)
    loaded = chain.with_payload(3.5)
    for _ in range(10):
        q = rng.uniform(-1.5, 1.5, chain.n)
        extra = -chain.jacob0(q)[:3].T @ (3.5 * chain.gravity)
        np.testing.assert_allclose(loaded.gravload(q) - chain.gravload(q), extra, atol=1e-9)


def test_a_payload_changes_the_dynamics_only():
    loaded = PUMA.with_payload(2.0, [0.0, 0.05, 0.1], [0.01, 0.02, 0.03])
    q = np.linspace(-1.0, 1.0, PUMA.n)
    np.testing.assert_array_equal(loaded.fkine(q), PUMA.fkine(q))
    np.testing.assert_array_equal(loaded.friction(q), PUMA.friction(q))
    assert loaded.links == PUMA.links
    assert not np.allclose(loaded.inertia(q), PUMA.inertia(q))
    assert is_empty(PUMA.payload) and 'payload' not in PUMA.to_params()


def test_the_model_file_round_trips_a_payload_and_takes_every_inertia_form():
    six = [0.01, 0.02, 0.03, 0.001, 0.002, 0.003]
    full = [[0.01, 0.001, 0.003], [0.001, 0.02, 0.002], [0.003, 0.002, 0.03]]
    chains = [Chain.from_params(_params(mass=2, com=[0, 0.05, 0.1], inertia=form))
              for form in (six, full, sum(full, []))]
    q = np.linspace(-1.0, 1.0, PUMA.n)
    for chain in chains:
        np.testing.assert_array_equal(chain.payload.inertia, full)
        again = Chain.from_params(chain.to_params())
        np.testing.assert_array_equal(again.rne(q, q, q), chains[0].rne(q, q, q))
    assert chains[0].to_params()['payload'] == {'mass': 2.0, 'com': [0.0, 0.05, 0.1],
                                                'inertia': six}


@pytest.mark.parametrize('payload, message', [
    ({'mass': -1.0}, 'payload.mass'),
    ({'mass': float('nan')}, 'payload.mass'),
    ({'mass': 1e9}, 'payload.mass'),
    ({'mass': 'heavy'}, 'payload.mass'),
    ({'com': [0.0, 0.1]}, 'payload.com'),
    ({'com': [0.0, 0.1, 2000.0]}, 'payload.com'),
    ({'inertia': [0.1, 0.2]}, 'payload.inertia'),
    ({'inertia': [[0.1, 0.2, 0.0], [0.0, 0.1, 0.0], [0.0, 0.0, 0.1]]}, 'payload.inertia'),
])
def test_bad_payloads_are_refused_naming_the_field(payload, message):
    with pytest.raises(InvalidFieldError, match=message.replace('.', r'\.')):
        Chain.from_params(_params(**payload))


def test_a_payload_typo_is_refused_with_a_suggestion():
    params = _params()
    params['payload.mas'] = 2.0
    with pytest.raises(InvalidFieldError, match=r'did you mean payload\.mass\?'):
        Chain.from_params(params)
    with pytest.raises(InvalidFieldError, match='must be a Payload'):
        Chain(PUMA.links, payload=(1.0, [0, 0, 0], [0, 0, 0]))


def test_fold_keeps_the_total_mass_and_first_moment():
    rng = np.random.default_rng(8)
    T = np.eye(4)
    T[:3, :3] = np.linalg.qr(rng.normal(size=(3, 3)))[0] * [1, 1, 1]
    T[:3, 3] = rng.uniform(-0.2, 0.2, 3)
    payload = check_payload(1.5, rng.uniform(-0.1, 0.1, 3), [0.01, 0.02, 0.03])
    m, r, inertia = fold(2.0, np.array([0.1, 0.0, 0.0]), np.diag([0.1, 0.1, 0.1]), payload, T)
    assert m == 3.5
    np.testing.assert_allclose(m * r, 2.0 * np.array([0.1, 0, 0]) + 1.5 * (
        T[:3, :3] @ payload.com + T[:3, 3]))
    np.testing.assert_allclose(inertia, inertia.T)
    assert np.all(np.linalg.eigvalsh(inertia) > 0)
    assert fold(0.0, np.zeros(3), np.zeros((3, 3)), check_payload(inertia=[1, 1, 1]),
                T)[0] == 0.0


def test_the_printed_table_names_a_payload():
    assert 'payload' not in str(PUMA)
    assert str(PUMA.with_payload(2.0, [0.0, 0.0, 0.1])).endswith(
        'payload: 2 kg at [0, 0, 0.1] m in the tool frame')
