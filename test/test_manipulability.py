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

"""Singularity measures against Jacobians computed without our jacob0: differences, pinocchio."""

import math

from dh_kinematics import Chain, Link
from dh_kinematics.core.kinematics import manipulability
from helpers import CHAINS, for_each_arm, needs_pin, pin, random_arm
import numpy as np
import pytest

SMALL = [(f'small{n}', arm) for n, arm in (
    (len(arm.links), arm) for arm in (random_arm(np.random.default_rng(seed))
                                      for seed in range(60)))
    if 3 <= n <= 5][:9]
ARMS = CHAINS + SMALL


def _rotation_log(R):
    """Return the rotation vector of ``R`` (rad), for a small rotation."""
    return np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]]) / 2.0


def _differenced_jacobian(chain, q, h=1e-6):
    """Return the tool's [v; w] per unit joint rate by central differences of fkine alone."""
    J = np.zeros((6, chain.n))
    for j in range(chain.n):
        step = np.zeros(chain.n)
        step[j] = h
        after, before = chain.fkine(q + step), chain.fkine(q - step)
        J[:3, j] = (after[:3, 3] - before[:3, 3]) / (2 * h)
        J[3:, j] = _rotation_log(after[:3, :3] @ before[:3, :3].T) / (2 * h)
    return J


def _expected(J, ranks):
    """Return the smallest judged singular value and condition number of each, by numpy."""
    out = []
    for rows, rank in ((J[:3], ranks[0]), (J[3:], ranks[1]), (J, ranks[2])):
        values = np.linalg.svd(rows, compute_uv=False)
        out += [values[rank - 1], values[0] / values[rank - 1]] if rank else [math.nan] * 2
    return np.array(out)


@for_each_arm(ARMS)
def test_conditioning_agrees_with_the_svd_of_a_differenced_jacobian(name, chain):
    ranks = manipulability.generic_ranks(chain)
    rng = np.random.default_rng(len(name) * 7 + chain.n)
    for q in rng.uniform(-2.0, 2.0, (5, chain.n)):
        J = _differenced_jacobian(chain, q)
        np.testing.assert_allclose(chain.jacob0(q), J, atol=1e-7)
        ours = np.array(manipulability.conditioning(chain.jacob0(q), ranks))
        np.testing.assert_allclose(ours, _expected(J, ranks), rtol=1e-5, atol=1e-7)


@needs_pin
@for_each_arm(ARMS)
def test_conditioning_agrees_with_pinocchios_jacobian_of_the_urdf(name, chain):
    model = pin.buildModelFromXML(chain.to_urdf())
    data = model.createData()
    tool = model.getFrameId(chain.tool_frame)
    ranks = manipulability.generic_ranks(chain)
    rng = np.random.default_rng(chain.n + 100)
    for q in rng.uniform(-2.0, 2.0, (5, chain.n)):
        q_pin, columns = pin.neutral(model), []
        for j, joint_name in enumerate(chain.joint_names):
            joint = model.joints[model.getJointId(joint_name)]
            if joint.nq == 2:  # continuous: (cos, sin)
                q_pin[joint.idx_q:joint.idx_q + 2] = math.cos(q[j]), math.sin(q[j])
            else:
                q_pin[joint.idx_q] = q[j]
            columns.append(joint.idx_v)
        J = np.reshape(pin.computeFrameJacobian(
            model, data, q_pin, tool, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED), (6, -1))[:, columns]
        np.testing.assert_allclose(chain.jacob0(q), J, atol=1e-12)
        np.testing.assert_allclose(manipulability.conditioning(chain.jacob0(q), ranks),
                                   _expected(J, ranks), rtol=1e-9)


def test_the_ranks_are_what_the_arm_can_reach():
    planar = Chain([Link(a=0.4), Link(a=0.3), Link(a=0.2)])
    assert manipulability.generic_ranks(planar) == (2, 1, 3)
    gantry = Chain([Link(joint='prismatic', alpha=-math.pi / 2),
                    Link(joint='prismatic', alpha=-math.pi / 2, theta=-math.pi / 2),
                    Link(joint='prismatic')])
    assert manipulability.generic_ranks(gantry) == (3, 0, 3)
    values = manipulability.conditioning(gantry.jacob0([0.1, 0.2, 0.3]), (3, 0, 3))
    assert values[:2] == pytest.approx((1.0, 1.0)) and all(map(math.isnan, values[2:4]))
    puma = dict(CHAINS)['puma560']
    wrist = [0.3, 0.5, -0.4, 0.2, 0.0, 0.1]  # q5 = 0: the wrist's axes 4 and 6 line up
    measures = manipulability.conditioning(puma.jacob0(wrist), (3, 3, 6))
    assert measures[4] < 1e-12 and measures[5] > 1e12  # the whole Jacobian is singular
    assert measures[3] < 30.0  # though the rotational block alone is not


def test_tool_speed_is_the_tool_points_speed():
    puma = dict(CHAINS)['puma560']
    q, qd, h = np.array([0.3, 0.5, -0.4, 0.2, 0.6, 0.1]), np.array([0.5, -0.2, 0.3, 1, 0, 2]), 1e-7
    moved = (puma.fkine(q + h * qd)[:3, 3] - puma.fkine(q - h * qd)[:3, 3]) / (2 * h)
    assert manipulability.tool_speed(puma.jacob0(q), qd) == pytest.approx(
        np.linalg.norm(moved), rel=1e-7)
