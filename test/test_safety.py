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

"""What a cobot's safety controller watches, against pinocchio, a simulated stop, the standard."""

import math
import zlib

from dh_kinematics import InvalidFieldError
from dh_kinematics.core.kinematics.batch import MIN_BATCH
from dh_kinematics.core.names import published_frames
from dh_kinematics.core.safety import contact, FramePoints, planes, stopping
from dh_kinematics.core.state import ArmState
from helpers import CHAINS, for_each_arm, needs_pin, pin, pin_configuration, with_random_frames
import numpy as np
import pytest


def _rigid(chain):
    """Return the chain without motor inertia: what its URDF, and so pinocchio, holds of it."""
    return chain.replace(links=[link.replace(Jm=0.0) for link in chain.links])


def _pin_rates(model, chain, qd):
    """Return pinocchio's velocity vector for joint rates ``qd`` by joint name."""
    v = np.zeros(model.nv)
    for j, name in enumerate(chain.joint_names):
        v[model.joints[model.getJointId(name)].idx_v] = qd[j]
    return v


def _states(name, chain, count=4):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return rng.uniform(-2.0, 2.0, (count, 2, chain.n))


@needs_pin
@for_each_arm(CHAINS)
def test_frame_speeds_mass_and_inertia_agree_with_pinocchio(name, chain):
    # Every published frame (extra frames on any of them too), the mass and the inertia
    # matrix, on the URDF the arm writes.
    chain = with_random_frames(chain, np.random.default_rng(zlib.crc32(name.encode())))
    model = pin.buildModelFromXML(chain.to_urdf())
    data = model.createData()
    mass = sum(link.m for link in chain.dynamic_constants.rne_links)
    frames = [frame.name for frame in published_frames(chain)]
    points = FramePoints(chain, frames)
    at = chain.points_function(points.links, points.offsets.tolist())
    motors = np.array([link.G ** 2 * link.Jm for link in chain.links])
    for q, qd in _states(name, chain):
        q_pin = pin_configuration(pin, model, chain.joint_names, q)
        v = _pin_rates(model, chain, qd)
        pin.centerOfMass(model, data, q_pin)
        assert mass == pytest.approx(data.mass[0], rel=1e-12)
        columns = [model.joints[model.getJointId(joint)].idx_v for joint in chain.joint_names]
        M = pin.crba(model, data, q_pin)
        M = np.triu(M) + np.triu(M, 1).T
        np.testing.assert_allclose(chain.inertia(q), M[np.ix_(columns, columns)]
                                   + np.diag(motors), atol=1e-9)
        pin.forwardKinematics(model, data, q_pin, v)
        pin.updateFramePlacements(model, data)
        values = np.reshape(at(q.tolist()), (len(frames), -1))
        p, velocity = values[:, :3], values[:, 12:12 + 3 * chain.n].reshape(-1, 3, chain.n) @ qd
        for frame, position, speed in zip(frames, p, velocity):
            index = model.getFrameId(frame)
            np.testing.assert_allclose(position, data.oMf[index].translation, atol=1e-12)
            np.testing.assert_allclose(speed, pin.getFrameVelocity(
                model, data, index, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED).linear, atol=1e-9)
    # A block at once, as the safety monitor takes one (numpy columns from MIN_BATCH on).
    Q = np.random.default_rng(zlib.crc32(name.encode()) + 1).uniform(
        -2.0, 2.0, (MIN_BATCH + 6, chain.n))
    for q, ours in zip(Q, chain.inertia(Q)):
        M = pin.crba(model, data, pin_configuration(pin, model, chain.joint_names, q))
        M = np.triu(M) + np.triu(M, 1).T
        np.testing.assert_allclose(ours, M[np.ix_(columns, columns)] + np.diag(motors),
                                   atol=1e-9)


@needs_pin
@for_each_arm(CHAINS)
def test_the_arms_state_agrees_with_pinocchio(name, chain):
    # What the monitors read per message, compiled for the arm: momentum (the centre of mass's
    # velocity times the mass), kinetic energy (pinocchio's alone without the motors' G^2 Jm,
    # with them added to it), every published frame's origin and velocity, the tool's pose and
    # its Jacobian; for one message and for columns of them.
    chain = with_random_frames(chain, np.random.default_rng(zlib.crc32(name.encode()) + 3))
    model = pin.buildModelFromXML(chain.to_urdf())
    data = model.createData()
    frames = [frame.name for frame in published_frames(chain)]
    points = FramePoints(chain, frames)
    state = ArmState(chain, points.links, points.offsets)
    rigid = ArmState(_rigid(chain))
    motors = np.array([link.G ** 2 * link.Jm for link in chain.links])
    columns = [model.joints[model.getJointId(joint)].idx_v for joint in chain.joint_names]
    states = _states(name, chain)
    rows = state.columns(states[:, 0], states[:, 1])
    for (q, qd), row in zip(states, rows):
        out = np.array(state.one(q.tolist(), qd.tolist()))
        np.testing.assert_allclose(row, out, rtol=1e-12, atol=1e-12)
        q_pin = pin_configuration(pin, model, chain.joint_names, q)
        v = _pin_rates(model, chain, qd)
        energy = pin.computeKineticEnergy(model, data, q_pin, v)
        assert rigid.one(q.tolist(), qd.tolist())[rigid.energy] == pytest.approx(
            energy, rel=1e-9, abs=1e-9)
        assert out[state.energy] == pytest.approx(energy + 0.5 * motors @ (qd * qd), rel=1e-9,
                                                  abs=1e-9)
        pin.centerOfMass(model, data, q_pin, v)
        momentum = data.mass[0] * data.vcom[0] if data.mass[0] > 0.0 else np.zeros(3)
        np.testing.assert_allclose(out[state.momentum], momentum, atol=1e-9)
        pin.forwardKinematics(model, data, q_pin, v)
        pin.updateFramePlacements(model, data)
        moving = out[state.points].reshape(-1, 6)
        for k, frame in enumerate(frames):
            index = model.getFrameId(frame)
            np.testing.assert_allclose(moving[k, :3], data.oMf[index].translation, atol=1e-12)
            np.testing.assert_allclose(moving[k, 3:], pin.getFrameVelocity(
                model, data, index, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED).linear, atol=1e-9)
        tool = model.getFrameId(chain.tool_frame)
        np.testing.assert_allclose(out[state.tool], data.oMf[tool].homogeneous[:3].ravel(),
                                   atol=1e-12)
        J = np.reshape(pin.computeFrameJacobian(model, data, q_pin, tool,
                                                pin.ReferenceFrame.LOCAL_WORLD_ALIGNED), (6, -1))
        np.testing.assert_allclose(state.jacobian_of(out), J[:, columns], atol=1e-12)


@for_each_arm(CHAINS)
def test_the_planes_and_the_tilt_of_the_state_are_those_of_its_frames(name, chain):
    # A sphere's distance to a plane and the tool's tilt, from the chain's own numpy frames
    # (fkine_all, fkine) by the textbook's n . c - offset - r and the angle between two unit
    # vectors; for one message and for columns.
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 5)
    frames = [frame.name for frame in published_frames(chain)]
    points = FramePoints(chain, frames)
    walls = [planes.check_plane(f'p{k}', rng.normal(size=3), rng.normal()) for k in range(2)]
    radii = rng.uniform(0.0, 0.1, len(frames))
    axis = planes.check_plane('axis', rng.normal(size=3), 0.0).normal
    state = ArmState(chain, points.links, points.offsets, walls,
                     (points.links, points.offsets, radii), axis)
    states = _states(name, chain)
    rows = state.columns(states[:, 0], states[:, 1])
    for (q, qd), row in zip(states, rows):
        out = np.array(state.one(q.tolist(), qd.tolist()))
        np.testing.assert_allclose(row, out, rtol=1e-12, atol=1e-12)
        T = chain.fkine_all(q)[points.links]
        centres = np.einsum('kij,kj->ki', T[:, :3, :3], points.offsets) + T[:, :3, 3]
        distances = [centres @ wall.normal - wall.offset - radii for wall in walls]
        np.testing.assert_allclose(out[state.planes], np.ravel(distances), atol=1e-12)
        z = chain.fkine(q)[:3, 2]
        angle = np.arccos(np.clip(z @ axis, -1.0, 1.0))
        assert out[state.tilt] == pytest.approx(angle, abs=1e-7)  # arccos: ~1e-8 near 0 or pi


@needs_pin
@for_each_arm(CHAINS)
def test_the_reflected_mass_is_pinocchios(name, chain):
    # 1 / (u^T J M^-1 J^T u) from pinocchio's own crba and frame Jacobian (with the motors'
    # G^2 Jm, which the URDF does not hold, added to its diagonal). Each alone, and all of an
    # arm's at once.
    model = pin.buildModelFromXML(chain.to_urdf())
    data = model.createData()
    motors = np.diag([link.G ** 2 * link.Jm for link in chain.links])
    columns = [model.joints[model.getJointId(joint)].idx_v for joint in chain.joint_names]
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    stacked = []
    for q, _ in _states(name, chain, 3):
        q_pin = pin_configuration(pin, model, chain.joint_names, q)
        M = pin.crba(model, data, q_pin)
        M = (np.triu(M) + np.triu(M, 1).T)[np.ix_(columns, columns)] + motors
        J = np.reshape(pin.computeFrameJacobian(
            model, data, q_pin, model.getFrameId(chain.tool_frame),
            pin.ReferenceFrame.LOCAL_WORLD_ALIGNED), (6, -1))[:3, columns]
        ours_M = chain.inertia(q)
        ours_J = chain.jacob0(q)[:3]
        for u in rng.normal(size=(3, 3)):
            u /= np.linalg.norm(u)
            row = u @ J
            if np.linalg.eigvalsh(M)[0] > 1e-9 * np.abs(M).max():
                expected = 1.0 / (row @ np.linalg.solve(M, row))
                stacked.append((ours_M, ours_J, u, expected))
                for definite in (False, True):
                    assert contact.reflected_mass(ours_M, ours_J, u, definite) == pytest.approx(
                        expected, rel=1e-8)
    if stacked:
        M, J, u, expected = (np.array(column) for column in zip(*stacked))
        for definite in (False, True):
            np.testing.assert_allclose(contact.reflected_mass(M, J, u, definite), expected,
                                       rtol=1e-8)


def test_a_joint_that_moves_no_mass_reflects_none_and_a_fixed_direction_all():
    # By hand: joint 1 moves 2 kg m^2 and the point along x at 1 m/s per rad/s; joint 2 moves
    # no mass and the point along y. Along x, 1 / (1 * 1/2) = 2 kg; along y, 0 (nothing moves
    # with it); along z the arm cannot move it: inf. Each alone, and the three at once.
    M = np.diag([2.0, 0.0])
    J_v = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    directions = np.eye(3)
    expected = [2.0, 0.0, math.inf]
    assert [contact.reflected_mass(M, J_v, u) for u in directions] == expected
    stacked = contact.reflected_mass(np.array([M] * 3), np.array([J_v] * 3), directions)
    assert stacked.tolist() == expected
    speeds = contact.permissible_speed(contact.BODY_REGIONS['hands_fingers'], stacked)
    assert speeds[1] == math.inf
    assert speeds[2] == contact.permissible_speed(contact.BODY_REGIONS['hands_fingers'],
                                                  math.inf)


@for_each_arm(CHAINS[:40])
def test_the_stopping_path_is_that_of_a_simulated_ramp(name, chain):
    # The stop: every joint's rate falls linearly to 0 at T; the tool's path length is the sum
    # of the straight steps between its positions (forward kinematics alone) at 100,000
    # instants of that ramp. Over many stops at once, each one's.
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 2)
    for q, qd in _states(name, chain, 2):
        deceleration = rng.uniform(1.0, 20.0, chain.n)
        T, distances = stopping.stop(qd, deceleration)
        slowest = int(np.argmax(np.abs(qd) / deceleration))
        assert T == pytest.approx(abs(qd[slowest]) / deceleration[slowest])
        assert (np.abs(qd) / T <= deceleration * (1.0 + 1e-12)).all()  # no joint past its limit
        t = np.linspace(0.0, T, 100_001)
        Q = q + np.outer(t - t * t / (2.0 * T), qd)
        np.testing.assert_allclose(distances, np.abs(Q[-1] - q), rtol=1e-12, atol=1e-15)
        p = chain.fkine(Q)[:, :3, 3]
        expected = np.linalg.norm(np.diff(p, axis=0), axis=1).sum()
        assert stopping.path_length(chain.jacob0, q, qd, T) == pytest.approx(
            expected, abs=1e-6)
    # Many stops at once, on the arm's state's Jacobians (72 nodes: as columns): each stop's
    # path alone.
    states = _states(name, chain, 6)
    times = np.abs(states[:, 1]).max(axis=1) / rng.uniform(1.0, 20.0, 6)
    times[0], states[0, 1] = 0.0, 0.0  # at rest
    alone = [stopping.path_length(chain.jacob0, q, qd, T) for (q, qd), T in zip(states, times)]
    np.testing.assert_allclose(stopping.path_length(ArmState(chain).jacobians, states[:, 0],
                                                    states[:, 1], times), alone, rtol=1e-12)
    assert stopping.stop(np.zeros(chain.n), np.ones(chain.n))[0] == 0.0
    with pytest.raises(InvalidFieldError, match='deceleration'):
        stopping.check_deceleration([1.0] * (chain.n - 1) + [0.0], chain.n)


def test_planes_spheres_and_the_tool_direction():
    floor = planes.check_plane('floor', [0.0, 0.0, 2.0], 0.1)
    np.testing.assert_allclose(floor.normal, [0.0, 0.0, 1.0])
    points = np.array([[0.3, 0.2, 0.5], [0.0, 0.0, 0.05]])
    np.testing.assert_allclose(planes.signed_distance(floor, points.T), [0.4, -0.05])
    np.testing.assert_allclose(planes.signed_distance(floor, points.T, np.array([0.1, 0.0])),
                               [0.3, -0.05])
    with pytest.raises(InvalidFieldError, match=r'floor\.normal'):
        planes.check_plane('floor', [0.0, 0.0, 0.0], 0.0)
    with pytest.raises(InvalidFieldError, match=r'floor\.offset'):
        planes.check_plane('floor', [0.0, 0.0, 1.0], math.nan)
    tilted = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(0.3), -math.sin(0.3)],
                       [0.0, math.sin(0.3), math.cos(0.3)]])
    assert planes.tilt(tilted[:, 2], np.array([0.0, 0.0, 1.0])) == pytest.approx(0.3)
    assert planes.tilt(np.eye(3)[:, 2], np.array([0.0, 0.0, -1.0])) == pytest.approx(math.pi)


def test_the_permitted_contact_speed_is_the_standards():
    # ISO/TS 15066 Annex A, hands and fingers: 140 N quasi-static, twice that transient,
    # k = 75 N/mm, m_H = 0.6 kg. Against an immovable robot mu is the hand's mass alone.
    hand = contact.check_body_region('hands_fingers')
    assert (hand.force, hand.spring, hand.mass) == (280.0, 75_000.0, 0.6)
    assert contact.permissible_speed(hand, math.inf) == pytest.approx(
        280.0 / math.sqrt(0.6 * 75_000.0))
    assert contact.permissible_speed(hand, math.inf) == pytest.approx(1.3199, abs=1e-4)
    mu = 1.0 / (1.0 / 0.6 + 1.0 / 20.0)  # a robot reflecting 20 kg
    assert contact.permissible_speed(hand, 20.0) == pytest.approx(280.0 / math.sqrt(
        mu * 75_000.0))
    chest = contact.check_body_region('chest')
    assert (chest.force, chest.spring, chest.mass) == (280.0, 25_000.0, 40.0)
    for head in ('skull_forehead', 'face'):
        with pytest.raises(InvalidFieldError, match='no transient contact'):
            contact.check_body_region(head)
    with pytest.raises(InvalidFieldError, match='must be one of'):
        contact.check_body_region('hand')


def test_a_frame_the_arm_does_not_publish_is_refused():
    chain = dict(CHAINS)['ur5']
    with pytest.raises(InvalidFieldError, match="must be a frame of the arm.*got 'wrist_1_link'"):
        FramePoints(chain, ['tool0', 'wrist_1_link'], 'safety.frame_speed_limits')
