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
The dynamics' regressor against rne and against pinocchio's on the arm's URDF (issue 60).

Every shipped and random arm (prismatic, flipped and modified-DH joints, offsets, Hayati's
beta, payloads, motors and friction): ``Y pi`` is :meth:`Chain.rne`, one sample or a batch;
the rigid bodies' part times pinocchio's dynamic parameters is pinocchio's
``computeJointTorqueRegressor`` times its own, and the two regressors have the same rank over
random states (the Panda's 43 base parameters of its links). The base parameters: as many as
the stacked regressor's rank by SVD, the rigid ones as many as pinocchio's rank, and their
combinations give the same torques.
"""

import zlib

from dh_kinematics import InvalidFieldError
from dh_kinematics.core.dynamics import regressor
from helpers import CHAINS, for_each_arm, needs_pin, pin, pin_configuration, pin_model
import numpy as np
import pytest

STATES = 40


def _states(name, chain, count):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return rng.uniform(-2.0, 2.0, (3, count, chain.n))


def _rank(Y):
    values = np.linalg.svd(Y, compute_uv=False)
    return int((values > 1e-9 * values[0]).sum())


@for_each_arm(CHAINS)
def test_the_regressor_times_the_parameters_is_rne(name, chain):
    dyn = chain.dynamic_constants
    Q, QD, QDD = _states(name, chain, 5)
    pi = regressor.parameters(dyn)
    assert len(pi) == len(regressor.names(dyn)) == 14 * chain.n
    np.testing.assert_allclose(regressor.regressor(dyn, Q, QD, QDD) @ pi, chain.rne(Q, QD, QDD),
                               rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(regressor.regressor(dyn, Q[0], QD[0], QDD[0]) @ pi,
                               chain.rne(Q[0], QD[0], QDD[0]), rtol=1e-10, atol=1e-9)


@needs_pin
@for_each_arm(CHAINS)
def test_the_rigid_part_is_pinocchios_with_its_rank(name, chain):
    model, data = pin_model(chain)
    dyn = chain.dynamic_constants
    rigid = [14 * j + k for j in range(chain.n) for k in range(regressor.RIGID)]
    pi = regressor.parameters(dyn)[rigid]
    pi_pin = np.concatenate([model.inertias[i].toDynamicParameters()
                             for i in range(1, model.njoints)])
    ours, theirs = [], []
    for q, qd, qdd in zip(*_states(name, chain, STATES)):
        q_pin = pin_configuration(pin, model, chain.joint_names, q)
        Y_pin = pin.computeJointTorqueRegressor(model, data, q_pin, qd, qdd)
        Y = regressor.regressor(dyn, q, qd, qdd)[:, rigid]
        np.testing.assert_allclose(Y @ pi, Y_pin @ pi_pin, rtol=1e-10, atol=1e-9)
        ours.append(Y)
        theirs.append(Y_pin)
    assert _rank(np.vstack(ours)) == _rank(np.vstack(theirs))
    if name == 'panda':
        assert _rank(np.vstack(ours)) == 43


@needs_pin
@pytest.mark.parametrize('name', ['panda', 'puma560', 'puma560akb', 'stanford', 'ur5'])
def test_the_base_parameters_are_as_many_as_the_rank_and_give_the_same_torques(name):
    chain = dict(CHAINS)[name]
    dyn = chain.dynamic_constants
    Q, QD, QDD = _states(name, chain, STATES)
    Y = regressor.regressor(dyn, Q, QD, QDD).reshape(-1, 14 * chain.n)
    pi = regressor.parameters(dyn)
    base = regressor.base_parameters(Y, regressor.names(dyn))
    assert len(base.columns) == len(base.names) == _rank(Y)
    np.testing.assert_allclose(Y[:, list(base.columns)] @ (base.combination @ pi), Y @ pi,
                               rtol=1e-9, atol=1e-8)
    rigid = [14 * j + k for j in range(chain.n) for k in range(regressor.RIGID)]
    model = pin.buildModelFromXML(chain.to_urdf())
    data = model.createData()
    Y_pin = np.vstack([pin.computeJointTorqueRegressor(
        model, data, pin_configuration(pin, model, chain.joint_names, q), qd, qdd)
        for q, qd, qdd in zip(Q, QD, QDD)])
    rigid_base = regressor.base_parameters(Y[:, rigid], [regressor.names(dyn)[k] for k in rigid])
    assert len(rigid_base.columns) == _rank(Y_pin)
    assert name != 'panda' or len(rigid_base.columns) == 43
    assert base.names[1] == '1.B'  # a parameter alone is written alone


def test_the_rates_must_have_the_shape_of_q():
    dyn = dict(CHAINS)['panda'].dynamic_constants
    with pytest.raises(InvalidFieldError, match=r'^qdd: must have the shape of q, \(2, 7\)'):
        regressor.regressor(dyn, np.zeros((2, 7)), np.zeros((2, 7)), np.zeros((3, 7)))
    with pytest.raises(InvalidFieldError, match=r'^qd: '):
        regressor.regressor(dyn, np.zeros(7), np.zeros(6), np.zeros(7))
    with pytest.raises(InvalidFieldError, match=r'^Y: must have at least as many rows'):
        regressor.base_parameters(np.zeros((3, 14 * 7)), regressor.names(dyn))
