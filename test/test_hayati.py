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
Hayati's beta: a rotation about the link's y axis after alpha, in every use of a link.

The 30 ``hayati`` arms of conftest's CHAINS carry it through the suite's checks against
pinocchio (forward kinematics, Jacobians, inverse dynamics, the URDF, TF); here it is checked
against the elementary transforms it is defined by, in the model file, the table, the bounds
and the node.
"""

import math

from dh_kinematics import Chain, Link
from helpers import CHAINS, PACKAGE, run_cli, world_poses
import numpy as np
import pytest
import yaml


def _rot(axis, angle):
    c, s = math.cos(angle), math.sin(angle)
    T = np.eye(4)
    i, j = {'x': (1, 2), 'y': (2, 0), 'z': (0, 1)}[axis]
    T[i, i], T[i, j], T[j, i], T[j, j] = c, -s, s, c
    return T


def _move(axis, length):
    T = np.eye(4)
    T['xyz'.index(axis), 3] = length
    return T


@pytest.mark.parametrize('convention', ['standard', 'modified'])
@pytest.mark.parametrize('joint', ['revolute', 'prismatic'])
def test_a_link_is_its_elementary_transforms_with_ry_beta_after_rx_alpha(convention, joint):
    rng = np.random.default_rng(1)
    for _ in range(20):
        a, alpha, beta, d, theta, offset, q = rng.uniform(-1.0, 1.0, 7)
        fields = {'d': d} if joint == 'revolute' else {'theta': theta}
        link = Link(joint=joint, convention=convention, a=a, alpha=alpha, beta=beta,
                    offset=offset, **fields)
        t, dz = (q + offset, d) if joint == 'revolute' else (theta, q + offset)
        fixed = _move('x', a) @ _rot('x', alpha) @ _rot('y', beta)
        moving = _rot('z', t) @ _move('z', dz)
        expected = fixed @ moving if convention == 'modified' else moving @ fixed
        np.testing.assert_allclose(link.A(q), expected, atol=1e-15)


def test_beta_goes_through_the_model_file_the_table_and_check(tmp_path):
    params = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml').to_params()
    params['elbow_joint']['beta'] = 0.002
    chain = Chain.from_params(params)
    assert chain.links[2].beta == 0.002
    assert Chain.from_params(chain.to_params()).links[2].beta == 0.002
    assert 'beta' not in chain.to_params()['wrist_1_joint']  # plain DH files stay as they were
    header = str(chain).splitlines()[2]
    assert header.split('|')[6].strip() == 'β'  # after ⍺
    path = tmp_path / 'ur5_beta.yaml'
    chain.to_yaml(path)
    out, _ = run_cli('check', path)
    assert 'OK' in out
    params['elbow_joint']['beta'] = 90.0  # degrees
    path.write_text(yaml.safe_dump({'/**': {'ros__parameters': params}}))
    _, err = run_cli('check', path, code=1)
    assert 'elbow_joint.beta: must be within +-2 pi' in err


@pytest.mark.ros
def test_the_node_publishes_a_hayati_arms_tf(tmp_path):
    import ros_fixtures
    chain = dict(CHAINS)['hayati3']
    path = tmp_path / 'arm.yaml'
    chain.to_yaml(path)
    q = np.linspace(-0.4, 0.6, chain.n)
    run = ros_fixtures.Running(['--params-file', str(path)])
    try:
        stamp = run.probe.send_until_seen(chain.joint_names, q.tolist())
        edges = ros_fixtures.published_tree(run.probe, stamp)
    finally:
        run.stop()
    poses = world_poses(edges, chain.world_frame)
    np.testing.assert_allclose(poses[chain.tool_frame], chain.fkine(q), atol=1e-9)
    for frame, T in zip(chain.link_frames, chain.fkine_all(q)[1:]):
        np.testing.assert_allclose(poses[frame], T, atol=1e-9)
