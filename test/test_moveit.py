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
The MoveIt files: SRDF, joint_limits.yaml and kinematics.yaml, checked against pinocchio.

For the shipped arms and 100 random ones (seeded), the SRDF loads in pinocchio's SRDF reader.

Checked against pinocchio on the URDF: every pair of links a URDF joint connects (through links
without geometry) is disabled as adjacent; of the others, exactly those that never (always)
collide over the sampled configurations are disabled as such; every named configuration is a
group state; and each derived acceleration limit is ``min (effort - |g_j|) / M_jj`` with
pinocchio's gravity and mass matrix (motor inertia as armature) over the same configurations.
"""

import itertools
import os
import xml.etree.ElementTree as ET
import zlib

from dh_kinematics import Chain
from dh_kinematics.cli import moveit_files
from dh_kinematics.core.urdf import moveit
from dh_kinematics.core.urdf_import import from_urdf
from helpers import (
    CHAINS, for_each_arm, needs, needs_pin, PACKAGE, pin, pin_configuration, run_cli,
    urdf_joints, vendor_arm, VENDOR_URDF)
import numpy as np
import pytest
import yaml


SAMPLES = 300
CASES = CHAINS[:5] + CHAINS[5:105]


def _with_efforts(chain, rng):
    """Return the chain with an effort limit on most joints (random arms have none)."""
    params = chain.to_params()
    for joint in chain.joint_names:
        if rng.random() < 0.8:
            params[joint].setdefault('effort_limit', float(rng.uniform(50.0, 500.0)))
    return Chain.from_params(params)


def _geometry_links(text):
    return {link.get('name') for link in ET.fromstring(text).iter('link')
            if link.find('collision') is not None}


def _adjacent(text):
    """Return the pairs of links with geometry the URDF's tree connects directly (by hand)."""
    parent = {child: up for up, child in urdf_joints(text)}
    geometry, pairs = _geometry_links(text), set()
    for link in geometry:
        up = parent.get(link)
        while up is not None and up not in geometry:
            up = parent[up] if up in parent else None
        if up is not None:
            pairs.add(frozenset((link, up)))
    return pairs


def _collisions(model, geometry, chain, configurations):
    """Return, per configuration, the link pairs pinocchio finds in collision there."""
    names = [model.frames[item.parentFrame].name for item in geometry.geometryObjects]
    geometry.removeAllCollisionPairs()
    for i, j in itertools.combinations(range(len(names)), 2):
        if names[i] != names[j]:
            geometry.addCollisionPair(pin.CollisionPair(i, j))
    data, geometry_data = model.createData(), pin.GeometryData(geometry)
    found = []
    for q in configurations:
        pin.computeCollisions(model, data, geometry, geometry_data,
                              pin_configuration(pin, model, chain.joint_names, q), False)
        found.append({frozenset((names[pair.first], names[pair.second])) for pair, result in
                      zip(geometry.collisionPairs, geometry_data.collisionResults)
                      if result.isCollision()})
    return found


@needs_pin
@for_each_arm(CASES)
def test_the_srdf_and_the_limits_against_pinocchio(name, chain, tmp_path):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    chain = _with_efforts(chain, rng)
    text = chain.to_urdf()
    configurations = chain.random_q(SAMPLES, rng)
    disabled, _ = moveit_files.disabled_pairs(chain, text, configurations)
    states = {'zero': np.zeros(chain.n), 'some': configurations[0]}
    srdf = tmp_path / 'arm.srdf'
    srdf.write_text(moveit.srdf(chain, states, disabled))
    model = pin.buildModelFromXML(text)
    geometry = pin.buildGeomFromUrdfString(model, text, pin.GeometryType.COLLISION)
    geometry.addAllCollisionPairs()
    pin.removeCollisionPairs(model, geometry, str(srdf))  # pinocchio's SRDF reader
    pin.loadReferenceConfigurations(model, str(srdf), False)
    for state, q in states.items():  # MoveIt's one angle of a continuous joint is beyond
        loaded, expected = model.referenceConfigurations[state], pin_configuration(  # its reader
            pin, model, chain.joint_names, q)
        for joint in chain.joint_names:
            joint = model.joints[model.getJointId(joint)]
            if joint.nq == 1:
                assert loaded[joint.idx_q] == expected[joint.idx_q]
    reasons = {frozenset(row[:2]): row[2] for row in disabled}
    assert {pair for pair, reason in reasons.items() if reason == 'Adjacent'} == _adjacent(text)
    # Over the same configurations, by the test's own loop: a pair is disabled as never (or
    # always) colliding exactly when it never (or always) collides.
    found = _collisions(model, geometry, chain, configurations)
    ever, always = set.union(*found), set.intersection(*found)
    geometry_links = sorted(_geometry_links(text))
    for pair in map(frozenset, itertools.combinations(geometry_links, 2)):
        reason = reasons.get(pair)
        if reason != 'Adjacent':
            assert reason == ('Never' if pair not in ever else 'Always' if pair in always
                              else None), (pair, reason)
    # The acceleration limits, by pinocchio's dynamics with the motors' inertia as armature.
    model.armature = np.array([link.G ** 2 * link.Jm for link in chain.links])
    model.gravity.linear = chain.gravity
    data = model.createData()
    derived = moveit.acceleration_limits(chain, configurations)
    for j, link in enumerate(chain.links):
        if link.effort_limit is None:
            assert derived[j] is None
            continue
        reach = []
        for q in configurations:
            q_pin = pin_configuration(pin, model, chain.joint_names, q)
            M = pin.crba(model, data, q_pin)
            g = pin.computeGeneralizedGravity(model, data, q_pin)
            reach.append(max(link.effort_limit - abs(g[j]), 0.0) / M[j, j]
                         if M[j, j] > 0.0 else np.inf)
        assert derived[j].value == pytest.approx(min(reach), rel=1e-9, abs=1e-9)


def test_the_command_writes_what_a_moveit_config_package_takes(tmp_path):
    ur5 = PACKAGE / 'config' / 'ur5.yaml'
    out, _ = run_cli('moveit', ur5, '-o', tmp_path, '--samples', 0 if pin is None else 500)
    assert 'group arm: base -> tool0, 6 joints; states: qz, home' in out
    chain = Chain.from_yaml(ur5)
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        'joint_limits.yaml', 'kinematics.yaml', 'pilz_cartesian_limits.yaml', 'ur5.srdf',
        'ur5.urdf']
    assert (tmp_path / 'ur5.urdf').read_text() == chain.to_urdf()
    assert yaml.safe_load((tmp_path / 'kinematics.yaml').read_text()) == {'arm': {
        'kinematics_solver': 'kdl_kinematics_plugin/KDLKinematicsPlugin',
        'kinematics_solver_search_resolution': 0.005, 'kinematics_solver_timeout': 0.005}}
    limits = yaml.safe_load((tmp_path / 'joint_limits.yaml').read_text())
    assert set(limits['joint_limits']) == set(chain.joint_names)
    # The model reads MoveIt's block back: it agrees with the model's own limits.
    merged = Chain.from_params(dict(chain.to_params(), joint_limits=limits['joint_limits']))
    assert [link.acceleration_limit for link in merged.links] == [5.0] * 6
    assert yaml.safe_load((tmp_path / 'pilz_cartesian_limits.yaml').read_text()) == {
        'cartesian_limits': {'max_trans_vel': 0.25, 'max_trans_acc': 1.0,
                             'max_trans_dec': -1.0, 'max_rot_vel': 0.5}}
    assert 'acceleration limits: 0 from the model, 0 derived from the effort limits over ' in out
    root = ET.parse(tmp_path / 'ur5.srdf').getroot()
    assert root.find('group/chain').attrib == {'base_link': 'base', 'tip_link': 'tool0'}
    assert [state.get('name') for state in root.iter('group_state')] == ['qz', 'home']


VENDOR_ARMS = ('ur_ur5e.urdf', 'kuka_iiwa14.urdf', 'abb_irb2400.urdf')


def _moveit_files(chain, folder, samples=0):
    """Write the MoveIt files of ``chain`` into ``folder`` as the command does; return its text."""
    import argparse
    import io

    model = folder / 'model.yaml'
    chain.to_yaml(model)
    out = io.StringIO()
    moveit_files.run(argparse.Namespace(file=[str(model)], output=str(folder),
                                        samples=samples, seed=0, prefix='',
                                        group='arm'), out)
    return out.getvalue()


def _planning_chains():
    chains = [(name, chain) for name, chain in CHAINS[:5]]
    if (VENDOR_URDF / 'arms.json').exists():
        for file in VENDOR_ARMS:
            text, entry = vendor_arm(file)
            chains.append((file, from_urdf(text, entry['base'], entry['tip']).chain))
    return chains


@pytest.mark.parametrize('name, chain', _planning_chains(),
                         ids=[name for name, _ in _planning_chains()])
def test_every_joint_has_the_velocity_and_acceleration_limits_moveit_plans_with(name, chain,
                                                                                tmp_path):
    _moveit_files(chain, tmp_path)
    text = (tmp_path / 'joint_limits.yaml').read_text()
    limits = yaml.safe_load(text)['joint_limits']
    assert list(limits) == list(chain.joint_names)
    lines, joint = {}, None
    for row in text.splitlines():  # each joint's max_acceleration line
        joint = row[2:-1] if row.startswith('  ') and not row.startswith('   ') else joint
        if row.startswith('    max_acceleration:'):
            lines[joint] = row
    for joint, link in zip(chain.joint_names, chain.links):
        entry = limits[joint]
        assert entry['has_velocity_limits'] is True and entry['max_velocity'] > 0.0
        assert entry['has_acceleration_limits'] is True
        ceiling = moveit.ACCELERATION_CEILING[link.joint]
        assert 0.0 < entry['max_acceleration'] <= ceiling, (joint, entry)
        if link.jerk_limit is not None:
            assert entry['has_jerk_limits'] is True and entry['max_jerk'] == link.jerk_limit
        else:
            assert 'has_jerk_limits' not in entry
        # A value the model does not hold says where it comes from.
        assert (link.acceleration_limit is not None) == ('#' not in lines[joint]), lines[joint]


def test_a_derived_acceleration_comes_from_the_motors_and_is_clipped():
    puma = dict(CHAINS)['puma560']  # motor inertia and gear ratios on every joint
    params = puma.to_params()
    for joint, effort in zip(puma.joint_names, (97.6, 186.4, 89.4, 24.2, 20.1, 21.3)):
        params[joint]['effort_limit'] = effort  # the Puma 560's peak torques, N m
    chain = Chain.from_params(params)
    configurations = chain.random_q(500, np.random.default_rng(1))
    derived = moveit.acceleration_limits(chain, configurations)
    for link, value in zip(chain.links, derived):
        velocity, acceleration = moveit.planning_limits(link, value)
        assert velocity == (1.0, 'default', "not in the model: the URDF's placeholder; set "
                            'velocity_limit from the datasheet')
        ceiling = moveit.ACCELERATION_CEILING['revolute']
        if value.value > ceiling:
            assert acceleration.value == ceiling and 'clipped' in acceleration.note
        else:
            assert acceleration == (value.value, 'derived',
                                    'derived from effort, gravity and inertia')
    rigid = moveit.acceleration_limits(chain.nofriction(), configurations)  # same: no friction
    assert [a.value for a in rigid] == [a.value for a in derived]
    # Without the motors, the rigid links alone give extremes: the default instead.
    bare = Chain([link.replace(Jm=0.0) for link in chain.links])
    limits = [moveit.planning_limits(link, value)[1] for link, value in zip(
        bare.links, moveit.acceleration_limits(bare, configurations))]
    assert {limit.value for limit in limits} == {moveit.ACCELERATION_DEFAULT['revolute']}
    assert all(limit.note.startswith('default: no motor inertia') for limit in limits)


def _config_package(tmp_path, chain):
    """Write a MoveIt config package of ``chain`` under an ament prefix; return its name."""
    package = f'{chain.name or "arm"}_moveit_config'
    share = tmp_path / 'prefix' / 'share'
    (share / 'ament_index' / 'resource_index' / 'packages').mkdir(parents=True)
    (share / 'ament_index' / 'resource_index' / 'packages' / package).write_text('')
    config = share / package / 'config'
    config.mkdir(parents=True)
    _moveit_files(chain, config)
    return package


@needs('moveit_configs_utils', 'apt install ros-$ROS_DISTRO-moveit-configs-utils')
@pytest.mark.parametrize('name, chain', _planning_chains(),
                         ids=[name for name, _ in _planning_chains()])
def test_moveit_configs_builder_loads_the_generated_files(name, chain, tmp_path, monkeypatch):
    import moveit_configs_utils as builder
    package = _config_package(tmp_path, chain)
    monkeypatch.setenv('AMENT_PREFIX_PATH', os.pathsep.join(
        [str(tmp_path / 'prefix'), os.environ.get('AMENT_PREFIX_PATH', '')]))
    robot = chain.name or 'arm'
    configs = (builder.MoveItConfigsBuilder(robot, package_name=package)
               .robot_description(file_path=f'config/{robot}.urdf')
               .robot_description_semantic(file_path=f'config/{robot}.srdf')
               .joint_limits(file_path='config/joint_limits.yaml')
               .robot_description_kinematics(file_path='config/kinematics.yaml')
               .to_moveit_configs())
    parameters = configs.to_dict()
    planning = parameters['robot_description_planning']
    assert set(planning['joint_limits']) == set(chain.joint_names)
    assert all(entry['has_acceleration_limits'] and entry['has_velocity_limits']
               for entry in planning['joint_limits'].values())
    assert planning['cartesian_limits']['max_trans_vel'] == 0.25
    assert urdf_joints(parameters['robot_description']) == urdf_joints(chain.to_urdf())
    assert '<chain base_link=' in parameters['robot_description_semantic']
    assert parameters['robot_description_kinematics']['arm']['kinematics_solver'] == moveit.KDL
    assert 'pilz_industrial_motion_planner' in parameters['planning_pipelines']
