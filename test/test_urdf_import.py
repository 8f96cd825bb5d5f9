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
A URDF chain imported as a DH model, checked against pinocchio on the URDF itself.

The URDFs are not this package's: 300 random serial chains (seeded; 1 to 7 revolute, continuous
and prismatic joints about random or axis-aligned axes, random origins, fixed joints and
branches between them, inertials, limits, friction), and hand-written ones shaped like the
vendors' (ur_description's UR5, a Panda with its mimic fingers, a SCARA, a chain of fixed
joints). For each, in both conventions, pinocchio on the URDF (the joints off the chain locked
at 0) and the imported model agree, at random configurations, on the tip pose, every kept
frame, and the inverse dynamics and gravity torques, to 1e-9; so does pinocchio on the model's
own URDF. The shipped arms go DH -> URDF -> DH and back to the same kinematics and rigid-body
dynamics.
"""

import functools
import math
import xml.etree.ElementTree as ET
import zlib

from dh_kinematics import Chain
from dh_kinematics.core import fixed_frames
from dh_kinematics.core import urdf_import as importer
from dh_kinematics.core.rotations import rpy_to_matrix
from dh_kinematics.core.urdf import reader
from helpers import (
    CHAINS, expected_world_poses, for_each_arm, needs_pin, PACKAGE, pin, pin_configuration,
    run_cli, ur_description_urdf)
import numpy as np
import pytest


RANDOM_URDFS = 300
TOL = 1e-9


def _xyz(rng):
    xyz = rng.uniform(-0.4, 0.4, 3)
    return xyz * (rng.random(3) < 0.6) if rng.random() < 0.5 else xyz  # axes that meet


def _rpy(rng):
    if rng.random() < 0.5:  # axis-aligned turns: parallel and square axes
        return rng.integers(-2, 3, 3) * math.pi / 2
    return rng.uniform(-math.pi, math.pi, 3)


def _axis(rng):
    if rng.random() < 0.5:
        axis = np.zeros(3)
        axis[rng.integers(3)] = rng.choice([-1.0, 1.0])
        return axis
    return rng.normal(size=3)


def _numbers(values):
    return ' '.join(repr(float(value)) for value in values)


def _inertial(rng):
    if rng.random() < 0.15:
        return ''
    m = rng.uniform(0.1, 5.0)
    x, y, z = rng.uniform(0.02, 0.4, 3)  # a box's inertia: a body's
    moments = [float(value) for value in m / 12 * np.array(
        [y * y + z * z, x * x + z * z, x * x + y * y])]
    return (f'<inertial><origin xyz="{_numbers(rng.uniform(-0.2, 0.2, 3))}" '
            f'rpy="{_numbers(_rpy(rng))}"/><mass value="{m!r}"/><inertia '
            f'ixx="{moments[0]!r}" iyy="{moments[1]!r}" izz="{moments[2]!r}" ixy="0" '
            'ixz="0" iyz="0"/></inertial>')


class _Urdf:
    """A URDF written link by link."""

    def __init__(self, name='random'):
        self.name, self.parts, self.count = name, [], 0

    def link(self, name, inertial=''):
        self.parts.append(f'<link name="{name}">{inertial}</link>')
        return name

    def joint(self, kind, parent, child, xyz, rpy, axis=(1.0, 0.0, 0.0), extra=''):
        self.count += 1
        name = f'j{self.count}'
        self.parts.append(
            f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child '
            f'link="{child}"/><origin xyz="{_numbers(xyz)}" rpy="{_numbers(rpy)}"/>'
            f'<axis xyz="{_numbers(axis)}"/>{extra}</joint>')
        return name

    def text(self):
        return f'<robot name="{self.name}">' + ''.join(self.parts) + '</robot>'


def _moving_extra(rng, kind):
    lower = rng.uniform(-3.0, 0.0) if kind == 'revolute' else rng.uniform(-0.5, 0.0)
    upper = lower + rng.uniform(0.2, 3.0 if kind == 'revolute' else 0.5)
    limit = (f'<limit lower="{lower!r}" upper="{upper!r}" effort="{rng.uniform(1, 200)!r}" '
             f'velocity="{rng.uniform(0.5, 4)!r}"/>')
    if kind == 'continuous':
        limit = f'<limit effort="{rng.uniform(1, 200)!r}" velocity="{rng.uniform(0.5, 4)!r}"/>'
    dynamics = (f'<dynamics damping="{rng.uniform(0, 2)!r}" friction="{rng.uniform(0, 3)!r}"/>'
                if rng.random() < 0.7 else '')
    safety = ''
    if kind != 'continuous' and rng.random() < 0.3:
        safety = (f'<safety_controller soft_lower_limit="{lower + 0.05!r}" '
                  f'soft_upper_limit="{upper - 0.05!r}" k_position="10" k_velocity="2"/>')
    return limit + dynamics + safety


def random_urdf(rng):
    """
    Return a random URDF and the import's arguments: (text, base, tip, off-chain joints).

    A chain of 1 to 7 moving joints from ``base`` to ``tip``, with 0 to 2 fixed joints before
    each and after the last, branches hanging from it (fixed, or moving and held at 0), and,
    sometimes, a root above the base.
    """
    urdf, held = _Urdf(), []
    base = urdf.link('base', _inertial(rng))
    if rng.random() < 0.3:  # the base is not the root: gravity is the root's
        urdf.joint('fixed', urdf.link('root'), base, _xyz(rng), _rpy(rng))
    current, k = base, 0
    for j in range(int(rng.integers(1, 8))):
        for _ in range(int(rng.integers(0, 3))):
            k += 1
            child = urdf.link(f'l{k}', _inertial(rng))
            urdf.joint('fixed', current, child, _xyz(rng), _rpy(rng))
            current = child
        k += 1
        kind = str(rng.choice(['revolute', 'continuous', 'prismatic'], p=[0.5, 0.2, 0.3]))
        child = urdf.link(f'l{k}', _inertial(rng))
        urdf.joint(kind, current, child, _xyz(rng), _rpy(rng), _axis(rng),
                   _moving_extra(rng, kind))
        current = child
        if rng.random() < 0.3:  # a branch: rigid with this body, or moving and held at 0
            k += 1
            kind = 'fixed' if rng.random() < 0.6 else 'revolute'
            name = urdf.joint(kind, current, urdf.link(f'l{k}', _inertial(rng)), _xyz(rng),
                              _rpy(rng), _axis(rng), _moving_extra(rng, 'revolute'))
            if kind != 'fixed':
                held.append(name)
    for _ in range(int(rng.integers(0, 3))):
        k += 1
        child = urdf.link(f'l{k}', _inertial(rng))
        urdf.joint('fixed', current, child, _xyz(rng), _rpy(rng))
        current = child
    return urdf.text(), base, current, held


def _pin_model(text, held):
    """Return pinocchio's model of a URDF with the joints ``held`` locked at 0, and its data."""
    model = pin.buildModelFromXML(text)
    if held:
        model = pin.buildReducedModel(model, [model.getJointId(name) for name in held],
                                      pin.neutral(model))
    return model, model.createData()


def _pin_torques(model, data, joint_names, q, qd, qdd):
    """Return pinocchio's rnea and gravity torques for our joints, in our order."""
    q_pin = pin_configuration(pin, model, joint_names, q)
    v, a = np.zeros(model.nv), np.zeros(model.nv)
    index = [model.joints[model.getJointId(name)].idx_v for name in joint_names]
    v[index], a[index] = qd, qdd
    return (pin.rnea(model, data, q_pin, v, a)[index],
            pin.computeGeneralizedGravity(model, data, q_pin)[index])


def _pin_poses(model, data, joint_names, q, frames, base):
    """Return each of ``frames`` posed in ``base`` by pinocchio."""
    pin.framesForwardKinematics(model, data, pin_configuration(pin, model, joint_names, q))

    def pose(frame):
        return data.oMf[model.getFrameId(frame)].homogeneous
    T_base_root = np.linalg.inv(pose(base))
    return {frame: T_base_root @ pose(frame) for frame in frames}


def _assert_agrees(text, base, tip, held, result, rng, count=4):
    """Pinocchio on ``text`` and on the model's URDF agree with the model ``result``."""
    chain = result.chain
    model, data = _pin_model(text, held)
    ours_model = pin.buildModelFromXML(chain.to_urdf())
    ours_model.gravity.linear = chain.gravity
    ours_data = ours_model.createData()
    rigid = chain.nofriction(coulomb=True, viscous=True)
    kept = [frame.name for frame in chain.frames]
    for q in chain.random_q(count, rng):
        qd, qdd = rng.uniform(-1.0, 1.0, (2, chain.n))
        expected = _pin_poses(model, data, chain.joint_names, q, [tip] + kept, base)
        poses = expected_world_poses(chain, q, '')
        ours = _pin_poses(ours_model, ours_data, chain.joint_names, q, [tip] + kept,
                          chain.world_frame)
        for frame, T in expected.items():
            np.testing.assert_allclose(poses[frame], T, atol=TOL, rtol=0, err_msg=frame)
            np.testing.assert_allclose(ours[frame], T, atol=TOL, rtol=0, err_msg=frame)
        np.testing.assert_allclose(chain.fkine(q), expected[tip], atol=TOL, rtol=0)
        for pin_model, pin_data in ((model, data), (ours_model, ours_data)):
            tau, gravity = _pin_torques(pin_model, pin_data, chain.joint_names, q, qd, qdd)
            scale = max(1.0, np.abs(tau).max())
            np.testing.assert_allclose(rigid.rne(q, qd, qdd), tau, atol=TOL * scale, rtol=0)
            np.testing.assert_allclose(rigid.gravload(q), gravity, atol=TOL * scale, rtol=0)
    assert result.position_error < TOL and result.orientation_error < TOL


def _urdf_friction(text, chain, qd):
    """Return -(damping qd + friction sign(qd)) per joint, from the URDF's <dynamics>."""
    joints = {joint.get('name'): joint for joint in ET.fromstring(text).iter('joint')}
    tau = []
    for name, rate in zip(chain.joint_names, qd):
        dynamics = joints[name].find('dynamics')
        damping = 0.0 if dynamics is None else float(dynamics.get('damping', 0.0))
        friction = 0.0 if dynamics is None else float(dynamics.get('friction', 0.0))
        tau.append(-(damping * rate + friction * np.sign(rate)))
    return np.array(tau)


RANDOM = [random_urdf(np.random.default_rng(1000 + k)) for k in range(RANDOM_URDFS)]


@functools.lru_cache(maxsize=None)
def _imported(k, convention):
    """Return random URDF ``k`` imported with every frame kept, once per convention."""
    text, base, tip, _ = RANDOM[k]
    return importer.from_urdf(text, base, tip, convention, keep_frames=['all'])


@needs_pin
@pytest.mark.parametrize('k', range(RANDOM_URDFS))
def test_a_random_urdf_chain_agrees_with_pinocchio_in_both_conventions(k):
    text, base, tip, held = RANDOM[k]
    rng = np.random.default_rng(k)
    for convention in ('standard', 'modified'):
        result = _imported(k, convention)
        assert result.chain.mdh == (convention == 'modified')
        _assert_agrees(text, base, tip, held, result, rng)
        qd = rng.uniform(-1.0, 1.0, result.chain.n)
        np.testing.assert_allclose(result.chain.friction(qd),
                                   _urdf_friction(text, result.chain, qd), atol=1e-12)
        assert len([note for note in result.notes if 'off the chain' in note]) == len(held)


def test_every_imported_parameter_is_within_the_models_bounds():
    # Link and Chain refuse what is beyond the bounds: every random chain imports, and its
    # model file reads back to the same chain.
    for k in range(RANDOM_URDFS):
        chain = _imported(k, 'standard').chain
        again = Chain.from_params(chain.to_params())
        q = np.linspace(-0.5, 0.5, chain.n)
        np.testing.assert_allclose(again.fkine(q), chain.fkine(q), atol=1e-12)


def test_limits_and_the_safety_controller_are_carried_over():
    urdf = _Urdf()
    urdf.joint('revolute', urdf.link('a'), urdf.link('b'), (0, 0, 0.1), (0, 0, 0), (0, 0, 1),
               '<limit lower="-1.5" upper="2.0" effort="87" velocity="2.175"/><dynamics '
               'damping="0.5" friction="1.25"/><safety_controller soft_lower_limit="-1.4" '
               'soft_upper_limit="2.5" k_position="100" k_velocity="40"/>')
    urdf.joint('continuous', 'b', urdf.link('c'), (0.3, 0, 0), (0, 0, 0), (0, 0, 1),
               '<limit effort="0" velocity="1.0"/>')
    result = importer.from_urdf(urdf.text(), 'a', 'c')
    first, second = result.chain.links
    assert first.qlim == (-1.5, 2.0) and first.effort_limit == 87.0
    assert first.velocity_limit == 2.175 and first.B == 0.5 and first.Tc == (1.25, -1.25)
    assert first.soft_limits == (-1.4, 2.0)  # narrowed to the joint limits, and said so
    assert (first.k_position, first.k_velocity) == (100.0, 40.0)
    assert second.qlim is None and second.effort_limit is None
    assert any('soft limits [-1.4, 2.5] narrowed' in note for note in result.notes)
    assert any('j2: no effort limit' in note for note in result.notes)


@needs_pin
def test_ur_descriptions_ur5_imports_as_universal_robots_dh_table():
    text = ur_description_urdf(inertials=True)
    shipped = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')  # UR's published DH table
    rng = np.random.default_rng(3)
    for convention in ('standard', 'modified'):
        result = importer.from_urdf(text, 'base_link', 'tool0', convention,
                                    keep_frames=['base', 'flange'])
        chain = result.chain
        _assert_agrees(text, 'base_link', 'tool0', [], result, rng, count=10)
        assert chain.joint_names == shipped.joint_names
        if convention == 'standard':  # UR's table, up to the signs of a and alpha
            np.testing.assert_allclose([abs(link.a) for link in chain.links],
                                       [abs(link.a) for link in shipped.links], atol=1e-9)
            np.testing.assert_allclose([link.d for link in chain.links],
                                       [link.d for link in shipped.links], atol=1e-9)
            assert not any(link.flip for link in chain.links)
        assert sum('axes parallel' in note for note in result.notes) == 2  # shoulder, elbow
        for q in chain.random_q(10, rng):
            poses = expected_world_poses(chain, q, '')
            # tool0 in base, as the pendant shows it: UR's DH table's forward kinematics.
            np.testing.assert_allclose(np.linalg.inv(poses['base']) @ poses['tool0'],
                                       shipped.fkine(q), atol=1e-9)
            # The centres of mass of ur_description and of UR's DH table coincide.
            ours, theirs = chain.fkine_all(q), shipped.fkine_all(q)
            for j in range(6):
                np.testing.assert_allclose(
                    (np.linalg.inv(poses['base']) @ ours[j + 1])[:3] @ [
                        *chain.links[j].r, 1.0],
                    theirs[j + 1][:3] @ [*shipped.links[j].r, 1.0], atol=1e-9)
        np.testing.assert_allclose([link.m for link in chain.links],
                                   [link.m for link in shipped.links])


PANDA_JOINTS = (  # franka_description's panda_arm (origins xyz, rpy; limits)
    ('0 0 0.333', '0 0 0', -2.8973, 2.8973), ('0 0 0', '-1.5707963267948966 0 0', -1.7628, 1.7628),
    ('0 -0.316 0', '1.5707963267948966 0 0', -2.8973, 2.8973),
    ('0.0825 0 0', '1.5707963267948966 0 0', -3.0718, -0.0698),
    ('-0.0825 0.384 0', '-1.5707963267948966 0 0', -2.8973, 2.8973),
    ('0 0 0', '1.5707963267948966 0 0', -0.0175, 3.7525),
    ('0.088 0 0', '1.5707963267948966 0 0', -2.8973, 2.8973))


def panda_urdf(rng):
    """Return a Panda laid out as franka_description has it, fingers (one a mimic) included."""
    urdf = _Urdf('panda')
    parent = urdf.link('panda_link0', _inertial(rng))
    for j, (xyz, rpy, lower, upper) in enumerate(PANDA_JOINTS):
        child = urdf.link(f'panda_link{j + 1}', _inertial(rng))
        urdf.parts.append(
            f'<joint name="panda_joint{j + 1}" type="revolute"><parent link="{parent}"/><child '
            f'link="{child}"/><origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="0 0 1"/><limit '
            f'lower="{lower}" upper="{upper}" effort="87" velocity="2.175"/></joint>')
        parent = child
    urdf.joint('fixed', parent, urdf.link('panda_link8'), (0, 0, 0.107), (0, 0, 0))
    urdf.joint('fixed', 'panda_link8', urdf.link('panda_hand', _inertial(rng)), (0, 0, 0),
               (0, 0, -math.pi / 4))
    # The Robotics Toolbox's TCP, as config/panda.yaml has it (franka_description: 0.1034 m).
    urdf.joint('fixed', 'panda_hand', urdf.link('panda_hand_tcp'), (0, 0, 0.103), (0, 0, 0))
    for side, axis, mimic in (('left', (0, 1, 0), ''),
                              ('right', (0, -1, 0), '<mimic joint="finger1"/>')):
        name = 'finger1' if side == 'left' else 'finger2'
        urdf.parts.append(
            f'<joint name="{name}" type="prismatic"><parent link="panda_hand"/><child '
            f'link="panda_{side}finger"/><origin xyz="0 0 0.0584" rpy="0 0 0"/><axis '
            f'xyz="{_numbers(axis)}"/><limit lower="0" upper="0.04" effort="20" '
            f'velocity="0.2"/>{mimic}</joint>')
        urdf.link(f'panda_{side}finger', _inertial(rng))
    return urdf.text()


@needs_pin
def test_a_panda_imports_with_its_link_frames_and_the_fingers_held():
    rng = np.random.default_rng(4)
    text = panda_urdf(rng)
    for convention in ('modified', 'standard'):
        result = importer.from_urdf(text, 'panda_link0', 'panda_hand_tcp', convention,
                                    keep_frames=['panda_link8', 'panda_hand'])
        _assert_agrees(text, 'panda_link0', 'panda_hand_tcp', ['finger1', 'finger2'], result,
                       rng, count=10)
        notes = ' '.join(result.notes)
        assert 'finger1: off the chain (prismatic)' in notes
        assert 'finger2: off the chain (mimics finger1)' in notes
    chain = importer.from_urdf(text, 'panda_link0', 'panda_hand_tcp', 'modified').chain
    # The URDF's link frames are modified DH frames: the import finds them and names them so.
    assert chain.link_frames == tuple(f'panda_link{j}' for j in range(1, 8))
    shipped = Chain.from_yaml(PACKAGE / 'config' / 'panda.yaml')
    for q in chain.random_q(10, rng):
        np.testing.assert_allclose(chain.fkine(q), shipped.fkine(q), atol=1e-9)


@needs_pin
def test_a_scara_has_parallel_and_coincident_axes_and_a_flipped_prismatic_joint():
    urdf = _Urdf('scara')
    urdf.link('base', _inertial(np.random.default_rng(0)))
    revolute = '<limit lower="-2.5" upper="2.5" effort="50" velocity="3"/>'
    urdf.joint('revolute', 'base', urdf.link('arm1', _inertial(np.random.default_rng(1))),
               (0, 0, 0.4), (0, 0, 0), (0, 0, 1), revolute)
    urdf.joint('revolute', 'arm1', urdf.link('arm2', _inertial(np.random.default_rng(2))),
               (0.35, 0, 0), (0, 0, 0), (0, 0, 1), revolute)
    urdf.joint('prismatic', 'arm2', urdf.link('quill', _inertial(np.random.default_rng(3))),
               (0.3, 0, 0), (0, 0, 0), (0, 0, -1),
               '<limit lower="0" upper="0.2" effort="200" velocity="1"/>')
    urdf.joint('revolute', 'quill', urdf.link('spindle', _inertial(np.random.default_rng(4))),
               (0, 0, 0), (0, 0, 0), (0, 0, 1), revolute)
    urdf.joint('fixed', 'spindle', urdf.link('tcp'), (0, 0, -0.05), (0, 0, 0))
    for convention in ('standard', 'modified'):
        result = importer.from_urdf(urdf.text(), 'base', 'tcp', convention)
        _assert_agrees(urdf.text(), 'base', 'tcp', [], result, np.random.default_rng(5), 10)
        chain = result.chain
        assert [link.flip for link in chain.links] == [False, False, True, False]
        assert all(link.alpha == 0.0 for link in chain.links)
        np.testing.assert_allclose(sorted(abs(link.a) for link in chain.links),
                                   [0.0, 0.0, 0.3, 0.35], atol=1e-15)
        notes = ' '.join(result.notes)
        assert 'j1, j2: axes parallel, 0.35 m apart' in notes
        assert 'j3, j4: axes coincide' in notes


@needs_pin
def test_fixed_joints_between_moving_ones_go_into_the_dh_parameters():
    rng = np.random.default_rng(6)
    urdf = _Urdf()
    parent = urdf.link('base', _inertial(rng))
    for j in range(5):
        for k in range(2):
            child = urdf.link(f'fixed{j}_{k}', _inertial(rng))
            urdf.joint('fixed', parent, child, rng.uniform(-0.2, 0.2, 3),
                       rng.uniform(-3, 3, 3))
            parent = child
        child = urdf.link(f'moving{j}', _inertial(rng))
        urdf.joint('revolute', parent, child, (0, 0, 0), (0, 0, 0), rng.normal(size=3),
                   _moving_extra(rng, 'revolute'))
        parent = child
    result = importer.from_urdf(urdf.text(), 'base', parent, keep_frames=['all'])
    assert result.chain.n == 5 and len(result.chain.frames) == 14
    _assert_agrees(urdf.text(), 'base', parent, [], result, rng, count=10)


def _nearly_parallel(angle):
    urdf = _Urdf()
    limit = '<limit lower="-2" upper="2" effort="10" velocity="1"/>'
    urdf.joint('revolute', urdf.link('a'), urdf.link('b'), (0, 0, 0), (0, 0, 0), (0, 0, 1),
               limit)
    urdf.joint('revolute', 'b', urdf.link('c'), (0.4, 0, 0), (0, angle, 0), (0, 0, 1), limit)
    urdf.joint('fixed', 'c', urdf.link('tip'), (0.3, 0, 0), (0, 0, 0))
    return urdf.text()


@needs_pin
def test_nearly_parallel_axes_are_held_exactly_by_hayatis_beta():
    for angle in (1e-3, 1e-6, 2e-10):
        text = _nearly_parallel(angle)
        for convention in ('standard', 'modified'):
            result = importer.from_urdf(text, 'a', 'tip', convention)
            _assert_agrees(text, 'a', 'tip', [], result, np.random.default_rng(9), 10)
            assert max(abs(link.d) for link in result.chain.links) < 1.0  # not 400 m
            beta = [link.beta for link in result.chain.links]
            assert max(map(abs, beta)) == pytest.approx(angle, rel=1e-6)
        assert any(f'axes {angle:.2g} rad from parallel, 0.4 m apart: held by beta' in note
                   for note in result.notes)


def test_plain_dh_refuses_nearly_parallel_axes_unless_taken_as_parallel_and_says_so():
    with pytest.raises(ValueError, match=r"joints 'j1' and 'j2': their axes are 1e-06 rad from "
                       r'parallel, .* raise the parallel tolerance \(1e-09 rad\) above 1e-06'):
        importer.from_urdf(_nearly_parallel(1e-6), 'a', 'tip', hayati=False)
    result = importer.from_urdf(_nearly_parallel(1e-6), 'a', 'tip', parallel_tolerance=1e-5,
                                hayati=False)
    assert any('within 1e-06 rad, taken as parallel' in note for note in result.notes)
    assert 5e-7 < result.orientation_error < 2e-6  # the model is off by about the angle
    assert all(link.beta == 0.0 for link in result.chain.links)
    # Within the default tolerance, the model is within 1e-9 of the URDF.
    result = importer.from_urdf(_nearly_parallel(2e-10), 'a', 'tip', hayati=False)
    assert result.orientation_error < TOL and result.position_error < TOL


def test_the_shipped_arms_go_through_their_urdf_and_back():
    rng = np.random.default_rng(7)
    for name, chain in CHAINS[:6] + CHAINS[6::20]:
        for convention in ('standard', 'modified'):
            back = importer.from_urdf(chain.to_urdf(), chain.world_frame, chain.tool_frame,
                                      convention).chain
            # What a URDF holds: no motor inertia, symmetric Coulomb friction.
            rigid = Chain([link.replace(Jm=0.0, B=0.0, Tc=0.0) for link in chain.links],
                          chain.base, chain.tool, chain.gravity, payload=chain.payload)
            back = back.nofriction(coulomb=True, viscous=True)
            for q in chain.random_q(5, rng):
                qd, qdd = rng.uniform(-1.0, 1.0, (2, chain.n))
                np.testing.assert_allclose(back.fkine(q), chain.fkine(q), atol=1e-12,
                                           err_msg=name)
                tau = rigid.rne(q, qd, qdd, gravity=[0.0, 0.0, -9.81])
                np.testing.assert_allclose(back.rne(q, qd, qdd), tau,
                                           atol=1e-9 * max(1.0, np.abs(tau).max()),
                                           err_msg=name)


URDF_OK = ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
           '<parent link="a"/><child link="b"/><axis xyz="0 0 1"/>'
           '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')


@pytest.mark.parametrize('text, base, tip, message', [
    ('<robot', 'a', 'b', r'not a valid XML document'),
    ('<model/>', 'a', 'b', r'not a URDF: the root element is <model>'),
    ('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="x" value="1"/>'
     '</robot>', 'a', 'b', r'a xacro file, not a URDF: expand it first'),
    (URDF_OK, 'x', 'b', r"base: must name a link of the URDF \(links: a, b\), got 'x'"),
    (URDF_OK, 'b', 'a', r"tip: must be a link below base 'b'"),
    (URDF_OK.replace('revolute', 'floating'), 'a', 'b', r"joint 'j': must be revolute, "
     r'continuous, prismatic or fixed on the chain'),
    (URDF_OK.replace('revolute', 'fixed'), 'a', 'b', r"tip: must be reached from 'a' through "
     r'at least one moving joint'),
    (URDF_OK.replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0 x"/>'), 'a', 'b',
     r"joint 'j' axis: xyz='0 0 x' must be 3 finite numbers"),
    (URDF_OK.replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0 0"/>'), 'a', 'b',
     r"joint 'j': axis xyz=\[0.0, 0.0, 0.0\] has no direction"),
    (URDF_OK.replace('lower="-1"', 'lower="2"'), 'a', 'b', r"joint 'j' limit: must have "
     r'lower <= upper'),
    (URDF_OK.replace('<limit lower="-1" upper="1" effort="1" velocity="1"/>', ''), 'a', 'b',
     r"joint 'j': a revolute joint needs <limit>"),
    (URDF_OK.replace('<link name="b"/>', '<link name="a"/>'), 'a', 'b',
     r"link 'a': named twice"),
    (URDF_OK.replace('</robot>', '<joint name="k" type="fixed"><parent link="a"/><child '
                     'link="b"/></joint></robot>'), 'a', 'b', r"link 'b' is the child of two "
     r"joints, 'j' and 'k'"),
    (URDF_OK.replace('<link name="b"/>', '<link name="b"><inertial><mass value="-1"/><inertia '
                     'ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>'),
     'a', 'b', r"link 'b' inertial: mass -1 kg is negative"),
    (URDF_OK.replace('</joint>', '<mimic joint="j"/></joint>'), 'a', 'b', r"joint 'j': cannot "
     r'be on the chain: the joints of a DH chain move independently'),
    # A loop beside the tree (each of c, d, e one parent: c -> d -> e -> c): no URDF.
    (URDF_OK.replace('</robot>', '<link name="c"/><link name="d"/><link name="e"/>' + ''.join(
        f'<joint name="{parent}{child}" type="fixed"><parent link="{parent}"/><child '
        f'link="{child}"/></joint>' for parent, child in ('cd', 'de', 'ec')) + '</robot>'),
     'a', 'b', r"the joints \['cd', 'de', 'ec'\] form a loop; a URDF is a tree"),
])
def test_a_urdf_a_dh_chain_cannot_hold_is_refused_naming_what(text, base, tip, message):
    with pytest.raises(ValueError, match=message):
        importer.from_urdf(text, base, tip)


def test_a_frame_to_keep_must_be_below_the_base():
    with pytest.raises(ValueError, match=r"keep_frames: must name links below base 'a' "
                       r"\(links there: a, b\), got 'c'"):
        importer.from_urdf(URDF_OK, 'a', 'b', keep_frames=['c'])


def test_the_command_writes_a_model_that_check_accepts_and_says_what_it_chose(tmp_path):
    urdf = tmp_path / 'ur5.urdf'
    urdf.write_text(ur_description_urdf(inertials=True))
    model = tmp_path / 'ur5.yaml'
    out, _ = run_cli('from-urdf', urdf, '--base', 'base_link', '--tip', 'tool0',
                     '--keep-frames', 'base', 'flange', '-o', model)
    assert out.startswith(f'wrote {model}: 6 joints (standard DH) from base_link to tool0, '
                          'frames base, flange\n')
    assert 'note: shoulder_lift_joint, elbow_joint: axes parallel, 0.425 m apart' in out
    assert 'largest difference from the URDF over 100 configurations' in out
    assert model.read_text().startswith(f'# Imported by `dh_kinematics from-urdf` from {urdf}')
    run_cli('check', '--strict', model)
    chain = Chain.from_yaml(model)
    assert chain.world_frame == 'base_link' and chain.tool_frame == 'tool0'


def test_the_command_warns_when_the_model_is_off_the_urdf(tmp_path):
    urdf = tmp_path / 'arm.urdf'
    urdf.write_text(_nearly_parallel(1e-6))
    out, _ = run_cli('from-urdf', urdf, '--base', 'a', '--tip', 'tip', '--plain-dh',
                     '--parallel-tolerance', '1e-5', '-o', tmp_path / 'arm.yaml')
    assert 'warning: largest difference from the URDF' in out
    run_cli('from-urdf', urdf, '--base', 'a', '--tip', 'tip', '--plain-dh', '-o',
            tmp_path / 'no.yaml', code=1)
    assert not (tmp_path / 'no.yaml').exists()


def test_the_command_refuses_bad_input_in_one_line_and_writes_nothing(tmp_path):
    model = tmp_path / 'out.yaml'
    for arguments, message in (
            (['missing.urdf'], 'missing.urdf: cannot read the URDF: No such file'),
            ([PACKAGE / 'config' / 'ur5.yaml'], 'not a valid XML document'),
            ([], 'give a URDF file or --topic, not both and not neither')):
        _, err = run_cli('from-urdf', *arguments, '--base', 'a', '--tip', 'b', '-o', model,
                         code=1)
        assert message in err
        assert not model.exists()


def test_convert_to_the_other_convention_keeps_the_settings_andconfigurations(tmp_path):
    out = tmp_path / 'ur5_mdh.yaml'
    run_cli('convert', PACKAGE / 'config' / 'ur5.yaml', '--to', 'modified', '-o', out)
    original = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')
    converted = Chain.from_yaml(out)
    assert converted.mdh and converted.frames[0].name == 'base_link'
    text = out.read_text()
    assert 'home: [0.0, -1.5707963267948966, 0.0, -1.5707963267948966, 0.0, 0.0]' in text
    q = np.linspace(-1.0, 1.0, 6)
    np.testing.assert_allclose(converted.fkine(q), original.fkine(q), atol=1e-12)
    run_cli('convert', PACKAGE / 'config' / 'ur5.yaml', '--to', 'modified', '--order', 'corke',
            '-o', out, code=1)


def _joint_lines(chain, q):
    """Return each joint's line in the world: (point, unit direction of positive motion)."""
    T = chain.fkine_all(q)
    frames = T[1:] if chain.mdh else T[:-1]
    return [(F[:3, 3], F[:3, 2] * (-1.0 if link.flip else 1.0))
            for F, link in zip(frames, chain.links)]


@for_each_arm(CHAINS)
def test_to_modified_and_to_standard_are_the_same_arm(name, chain):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    other = chain.to_standard() if chain.mdh else chain.to_modified()
    back = other.to_modified() if chain.mdh else other.to_standard()
    assert other.mdh != chain.mdh and back.mdh == chain.mdh
    assert (chain.to_modified() if chain.mdh else chain.to_standard()) is chain
    for converted in (other, back):
        assert converted.joint_names == chain.joint_names
        np.testing.assert_array_equal(converted.qlim, chain.qlim)
        for q in chain.random_q(4, rng):
            qd, qdd = rng.uniform(-1.0, 1.0, (2, chain.n))
            np.testing.assert_allclose(converted.fkine(q), chain.fkine(q), atol=1e-12)
            for (point, axis), (other_point, other_axis) in zip(_joint_lines(converted, q),
                                                                _joint_lines(chain, q)):
                np.testing.assert_allclose(axis, other_axis, atol=1e-12)  # the same joints
                gap = np.cross(point - other_point, axis)
                np.testing.assert_allclose(gap, 0.0, atol=1e-12)
            tau = chain.rne(q, qd, qdd)
            np.testing.assert_allclose(converted.rne(q, qd, qdd), tau,
                                       atol=1e-9 * max(1.0, np.abs(tau).max()))


@needs_pin
@for_each_arm(CHAINS[:6] + CHAINS[6::10])
def test_a_converted_chain_agrees_with_pinocchio_on_the_original(name, chain):
    # Pinocchio on the original's URDF: what URDF holds, rigid bodies without motor inertia.
    rigid = Chain([link.replace(Jm=0.0, B=0.0, Tc=0.0) for link in chain.links], chain.base,
                  chain.tool, chain.gravity, payload=chain.payload)
    model = pin.buildModelFromXML(rigid.to_urdf())
    model.gravity.linear = chain.gravity
    data = model.createData()
    converted = (rigid.to_standard() if chain.mdh else rigid.to_modified())
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for q in chain.random_q(4, rng):
        qd, qdd = rng.uniform(-1.0, 1.0, (2, chain.n))
        tip = _pin_poses(model, data, rigid.joint_names, q, [rigid.tool_frame],
                         rigid.world_frame)[rigid.tool_frame]
        np.testing.assert_allclose(converted.fkine(q), tip, atol=TOL)
        tau, gravity = _pin_torques(model, data, rigid.joint_names, q, qd, qdd)
        scale = max(1.0, np.abs(tau).max())
        np.testing.assert_allclose(converted.rne(q, qd, qdd), tau, atol=TOL * scale, rtol=0)
        np.testing.assert_allclose(converted.gravload(q), gravity, atol=TOL * scale, rtol=0)


def test_extra_frames_and_meshes_stay_where_they_were_in_the_other_convention():
    params = Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml').to_params()
    params['frames'] = {'cam': {'parent': 'link3_axis', 'xyz': [0.1, 0.0, 0.05]},
                        'tcp': {'parent': 'link6', 'xyz': [0.0, 0.0, 0.2],
                                'rpy': [0.0, 0.3, 0.0]}}
    params['meshes'] = {'link2': {'visual': 'file:///arm/link2.stl', 'rpy': [0.1, 0.2, 0.3]}}
    chain = Chain.from_params(params)
    converted = chain.to_modified()
    assert [frame.parent for frame in converted.frames] == ['link3', 'link6']
    q = np.array([0.3, -0.2, 0.5, 0.1, 0.7, -0.4])
    before, after = expected_world_poses(chain, q, ''), expected_world_poses(converted, q, '')
    for frame in ('cam', 'tcp', 'tool0'):
        np.testing.assert_allclose(after[frame], before[frame], atol=1e-12)
    mesh_before = before['link2'] @ chain.meshes['link2'].T_frame_mesh
    mesh_after = after['link2'] @ converted.meshes['link2'].T_frame_mesh
    np.testing.assert_allclose(mesh_after, mesh_before, atol=1e-12)


def test_gravity_is_the_roots_in_the_base_link():
    urdf = _Urdf()
    urdf.joint('fixed', urdf.link('root'), urdf.link('a'), (0, 0, 1), (math.pi / 2, 0, 0))
    urdf.joint('revolute', 'a', urdf.link('b'), (0, 0, 0), (0, 0, 0), (0, 0, 1),
               '<limit lower="-1" upper="1" effort="1" velocity="1"/>')
    chain = importer.from_urdf(urdf.text(), 'a', 'b').chain
    np.testing.assert_allclose(chain.gravity, rpy_to_matrix([math.pi / 2, 0, 0]).T @ [
        0.0, 0.0, -9.81], atol=1e-15)


def test_a_batch_of_configurations_gives_each_its_own_poses_and_joint_motions():
    # The import's check runs every sample at once: the same poses as one at a time.
    for name, chain in CHAINS[:5] + [arm for arm in CHAINS if arm[0].startswith('hayati')][:3]:
        q = chain.random_q(4, np.random.default_rng(3))
        batch = fixed_frames.world_poses(chain, q)
        for k in range(len(q)):
            for frame, T in fixed_frames.world_poses(chain, q[k]).items():
                np.testing.assert_allclose(batch[frame][k], T, atol=1e-12, err_msg=frame)
    tree = reader.parse(CHAINS[0][1].to_urdf())
    for joint in tree.joints.values():
        values = np.linspace(-2.0, 2.0, 5)
        np.testing.assert_allclose(reader.joint_motion(joint, values), [
            reader.joint_motion(joint, value) for value in values], atol=1e-15)
