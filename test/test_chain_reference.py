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

"""Chain against the reference vectors of all four models, single and batched."""

from dh_kinematics import Chain
from helpers import assert_torques, POSE_TOL
import numpy as np
import pytest

KINEMATICS = (('link_A', 'link_transforms'), ('fkine_all', 'fkine_all'), ('fkine', 'fkine'),
              ('jacob0', 'jacob0'), ('jacobe', 'jacobe'))


@pytest.mark.parametrize('key, method', KINEMATICS)
def test_kinematics_single_and_batch(model, key, method):
    _, reference, chain = model
    configs = reference['configs']
    for config in configs:
        result = getattr(chain, method)(config['q'])
        np.testing.assert_allclose(result, config[key], rtol=0, atol=POSE_TOL)
    batch = getattr(chain, method)(np.array([config['q'] for config in configs]))
    expected = np.array([config[key] for config in configs])
    assert batch.shape == expected.shape
    np.testing.assert_allclose(batch, expected, rtol=0, atol=POSE_TOL)


def test_fkine_all_is_base_then_cumulative_products(model):
    _, reference, chain = model
    q = reference['configs'][-1]['q']
    T = chain.fkine_all(q)
    assert T.shape == (chain.n + 1, 4, 4)
    np.testing.assert_array_equal(T[0], chain.base)
    A = chain.link_transforms(q)
    for i in range(chain.n):
        np.testing.assert_allclose(T[i + 1], T[i] @ A[i], rtol=0, atol=1e-14)
    np.testing.assert_allclose(chain.fkine(q), T[-1] @ chain.tool, rtol=0, atol=1e-14)


@pytest.mark.parametrize('key, method', (('gravload', 'gravload'), ('inertia', 'inertia')))
def test_gravload_and_inertia(model, key, method):
    _, reference, chain = model
    configs = reference['configs']
    for config in configs:
        assert_torques(getattr(chain, method)(config['q']), config[key])
    batch = getattr(chain, method)(np.array([config['q'] for config in configs]))
    assert_torques(batch, [config[key] for config in configs])


def test_rne_single_and_batch(model):
    _, reference, chain = model
    configs = reference['configs']
    for config in configs:
        rne = config['rne']
        assert_torques(chain.rne(config['q'], rne['qd'], rne['qdd']), rne['tau'])
    q, qd, qdd = (np.array([c[k] if k == 'q' else c['rne'][k] for c in configs])
                  for k in ('q', 'qd', 'qdd'))
    tau = chain.rne(q, qd, qdd)
    assert tau.shape == (len(configs), chain.n)
    assert_torques(tau, [config['rne']['tau'] for config in configs])


def test_rne_includes_motor_inertia_and_friction(model):
    _, reference, chain = model
    rigid = Chain([link.replace(Jm=0.0, B=0.0, Tc=0.0) for link in chain.links],
                  base=chain.base, tool=chain.tool, gravity=chain.gravity)
    motor_inertia = np.array([link.Jm * link.G ** 2 for link in chain.links])
    for config in reference['configs']:
        q, qd, qdd = config['q'], config['rne']['qd'], config['rne']['qdd']
        extra = chain.rne(q, qd, qdd) - rigid.rne(q, qd, qdd)
        expected = motor_inertia * qdd - np.array(config['rne']['friction_at_qd'])
        np.testing.assert_allclose(extra, expected, rtol=0, atol=1e-9)
        np.testing.assert_allclose(chain.friction(qd), config['rne']['friction_at_qd'],
                                   rtol=0, atol=1e-12)


def test_rne_with_external_wrench(model):
    _, reference, chain = model
    example = reference['fext_example']
    args = (example['q'], example['qd'], example['qdd'])
    assert_torques(chain.rne(*args, fext=example['fext']), example['tau'])
    difference = chain.rne(*args, fext=example['fext']) - chain.rne(*args)
    assert_torques(difference, example['tau_minus_tau0_equals_Jn_T_fext'])
    batch = chain.rne(*(np.array([a, a]) for a in args), fext=[example['fext']] * 2)
    assert_torques(batch, [example['tau']] * 2)


def test_rne_gravity_override(model):
    _, reference, chain = model
    q = reference['configs'][-1]['q']
    assert_torques(chain.rne(q, gravity=[0.0, 0.0, 0.0]), np.zeros(chain.n))
    assert_torques(chain.gravload(q, gravity=2.0 * chain.gravity), 2.0 * chain.gravload(q))


def test_friction_table(model):
    _, reference, chain = model
    for case in reference['friction']:
        np.testing.assert_allclose(chain.friction(case['qd']), case['tau'], rtol=0, atol=1e-12)
        np.testing.assert_allclose(chain.nofriction().friction(case['qd']),
                                   case['tau_viscous_only'], rtol=0, atol=1e-12)
    batch = chain.friction([case['qd'] for case in reference['friction']])
    np.testing.assert_allclose(batch, [case['tau'] for case in reference['friction']], atol=1e-12)


def test_nofriction_variants(model):
    _, reference, chain = model
    case = reference['nofriction']
    args = (case['q'], case['qd'], case['qdd'])
    assert_torques(chain.rne(*args), case['tau_full'])
    assert_torques(chain.nofriction().rne(*args), case['tau_nofriction_default'])
    assert_torques(chain.nofriction(coulomb=True, viscous=True).rne(*args),
                   case['tau_nofriction_coulomb_and_viscous'])
    assert_torques(chain.nofriction(coulomb=False, viscous=True).rne(*args),
                   case['tau_nofriction_viscous_only'])


def test_islimit_cases(model):
    _, reference, chain = model
    for case in reference['islimit_cases']:
        expected = [0 if s is None else s for s in case['islimit_signed_matlab']]
        np.testing.assert_array_equal(chain.islimit(case['q']), expected, err_msg=case['label'])
        np.testing.assert_array_equal(chain.islimit(case['q']) != 0, case['islimit'])
    batch = chain.islimit([case['q'] for case in reference['islimit_cases']])
    assert batch.dtype.kind == 'i' and batch.shape == (len(reference['islimit_cases']), chain.n)


def test_islimit_per_config(model):
    _, reference, chain = model
    for config in reference['configs']:
        np.testing.assert_array_equal(chain.islimit(config['q']) != 0, config['islimit'])


def test_batch_of_many_matches_single(model):
    _, reference, chain = model
    rng = np.random.default_rng(20261122)
    q, qd, qdd = rng.uniform(-2.0, 2.0, size=(3, 50, chain.n))
    for method, args in (('fkine_all', (q,)), ('jacob0', (q,)), ('rne', (q, qd, qdd)),
                         ('inertia', (q,)), ('friction', (qd,)), ('islimit', (q,))):
        batch = getattr(chain, method)(*args)
        singles = np.array([getattr(chain, method)(*(a[i] for a in args)) for i in range(50)])
        np.testing.assert_allclose(batch, singles, rtol=1e-12, atol=1e-12, err_msg=method)
