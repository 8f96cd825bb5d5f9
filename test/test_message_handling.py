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
The node's message handling outside ROS, over arbitrary JointState content (hypothesis).

What the node does with one joint_states message, without rclpy: the cache takes the fields,
StreamMath turns the accepted ones into link transforms and friction. Whatever comes in, it
never raises, never yields a non-finite or non-orthonormal transform, and counts every message
once: accepted or dropped for a reason.
"""

from dh_kinematics import Chain, Link
from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.names import axis_frame_names
from dh_kinematics.core.rotations import quaternion_to_matrix
from dh_kinematics.node_logic.joint_math import StreamMath
from dh_kinematics.node_logic.joint_state_cache import DROP_REASONS, JointStateCache
from dh_kinematics.node_logic.monitors.levels import joint_levels, Thresholds
from helpers import CONFIG_FILES, joint_state_fields, PACKAGE
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

CHAINS = {name: Chain.from_yaml(PACKAGE / 'config' / CONFIG_FILES[name])
          for name in ('panda', 'stanford')}


def _check_transforms(poses):
    poses = np.reshape(poses, (-1, 7))
    assert np.isfinite(poses).all()
    np.testing.assert_allclose(np.linalg.norm(poses[:, 3:], axis=1), 1.0, rtol=0, atol=1e-12)
    R = np.array([quaternion_to_matrix(q) for q in poses[:, 3:]])
    np.testing.assert_allclose(R @ np.swapaxes(R, -1, -2), np.broadcast_to(np.eye(3), R.shape),
                               atol=1e-12)
    np.testing.assert_allclose(np.linalg.det(R), 1.0, atol=1e-12)
    assert (poses[:, 6] >= 0.0).all()


@pytest.mark.parametrize('model', sorted(CHAINS))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_message_stream_is_handled_and_every_message_counted(model, data):
    chain = CHAINS[model]
    math, table = StreamMath(chain), DHTable(chain.links)
    cache = JointStateCache(chain.joint_names)
    stream = data.draw(st.lists(joint_state_fields(chain), min_size=1, max_size=12))
    lower, upper = chain.qlim.T
    thresholds = Thresholds(lower, upper, 0.1)
    for now_ns, (names, positions, velocities, stamp_ns) in enumerate(stream, start=1):
        update = cache.update(names, positions, velocities, stamp_ns, now_ns * 10 ** 9)
        if update.dropped:
            assert update.dropped in DROP_REASONS and not update.positions
        assert len(update.q) == len(update.positions)
        assert len(update.qd) == len(update.velocities)
        assert set(update.velocities) <= set(update.positions)
        poses = table.poses(update.positions, update.q)
        assert len(poses) == 7 * len(update.positions)
        if poses:
            _check_transforms(poses)
        efforts = math.friction(update.velocities, update.qd)
        assert np.isfinite(efforts).all() or not efforts
        levels = thresholds.levels(update.positions, update.q, [0] * chain.n)
        reference = joint_levels(cache, lower, upper, 0.1, 10.0, now_ns * 10 ** 9)
        assert levels == [reference[j] for j in update.positions]
        stamp = update.stamp_ns
        assert -2 ** 31 * 10 ** 9 <= stamp < 2 ** 31 * 10 ** 9 or update.dropped
    assert cache.counts['accepted'] + cache.dropped_total() == len(stream)


@pytest.mark.parametrize('model', sorted(CONFIG_FILES))
def test_the_float_path_equals_the_numpy_path(model):
    chain = Chain.from_yaml(PACKAGE / 'config' / CONFIG_FILES[model])
    math = StreamMath(chain)
    rng = np.random.default_rng(4)
    joints = tuple(range(chain.n))
    for q in rng.uniform(-4.0, 4.0, size=(50, chain.n)):
        kept, _, flat = math.finite_poses(joints, q.tolist())
        assert kept == joints
        assert len(flat) == 7 * chain.n
        A = chain.link_transforms(q)
        # A joint with an axis frame moves that frame: the link's transform without its
        # Tx(a) Rx(alpha); any other moves its link's frame.
        axes = axis_frame_names(chain)
        for j, pose in enumerate(np.reshape(flat, (chain.n, 7))):
            link = chain.links[j]
            T = A[j]
            if axes[j]:
                T = T @ np.linalg.inv(Chain([Link(a=link.a, alpha=link.alpha)]).link_transforms(
                    [0.0])[0])
            else:
                np.testing.assert_allclose(pose, chain.link_poses(q)[j], rtol=0, atol=1e-15)
            np.testing.assert_allclose(pose[:3], T[:3, 3], rtol=0, atol=1e-12)
            np.testing.assert_allclose(quaternion_to_matrix(pose[3:]), T[:3, :3], atol=1e-12)
            assert pose[6] >= 0.0
        qd = rng.normal(size=chain.n) * (rng.uniform(size=chain.n) > 0.2)
        assert math.friction(joints, qd.tolist()) == chain.friction(qd).tolist()
