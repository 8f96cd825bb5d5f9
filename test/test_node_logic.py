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

"""Limit levels, statuses, TF frames, sweeps and parameter specs: the node's pure parts."""

import math

from dh_kinematics import Chain, Link
from dh_kinematics.core.model_file.params import model_values
from dh_kinematics.core.names import axis_frame_names, frame_names
from dh_kinematics.core.rotations import rotation_to_quaternion, rpy_to_matrix
from dh_kinematics.node_logic.frames import joint_children, joint_frames, static_frames
from dh_kinematics.node_logic.joint_state_cache import JointStateCache
from dh_kinematics.node_logic.monitors import levels as lm, tasks
from dh_kinematics.node_logic.sweep import sweep
from dh_kinematics.parameters.specs import JOINT, joint_specs, MODEL, NODE
from helpers import CONFIG_FILES, load_reference, PACKAGE
import numpy as np
import pytest

LOWER, UPPER = np.array([-1.0, 0.0, -np.inf]), np.array([1.0, 2.0, np.inf])
SECOND = 1_000_000_000


def _levels(positions, now_ns=SECOND, received=0, margin=0.1, timeout=1.0):
    cache = JointStateCache(['a', 'b', 'c'])
    cache.update(['a', 'b', 'c'], positions, [], 1, received)
    return cache, lm.joint_levels(cache, LOWER, UPPER, margin, timeout, now_ns)


@pytest.mark.parametrize('positions, expected', [
    ([0.0, 1.0, 5.0], [lm.OK, lm.OK, lm.OK]),
    ([-1.0, 2.0, -1e9], [lm.WARN, lm.WARN, lm.OK]),
    ([0.95, 0.05, 0.0], [lm.WARN, lm.WARN, lm.OK]),
    ([-1.0001, 2.5, 0.0], [lm.ERROR, lm.ERROR, lm.OK]),
    ([math.nan, 1.0, math.inf], [lm.ERROR, lm.OK, lm.ERROR]),
])
def test_levels(positions, expected):
    _, levels = _levels(positions)
    assert levels.tolist() == expected


def test_stale_after_timeout_and_before_any_value():
    cache, levels = _levels([0.0, 1.0, 0.0], now_ns=2 * SECOND)
    assert levels.tolist() == [lm.STALE] * 3
    empty = JointStateCache(['a', 'b', 'c'])
    assert lm.joint_levels(empty, LOWER, UPPER, 0.1, 1.0, 0).tolist() == [lm.STALE] * 3
    status = tasks.joint_status(empty, 0, lm.STALE, LOWER, UPPER, 0.1, 0)
    assert status.message == 'no joint_states value yet'
    assert tasks.joint_status(cache, 0, lm.STALE, LOWER, UPPER, 0.1, 2 * SECOND).message == (
        'no joint_states for 2 s')


def test_statuses_name_the_problem_and_carry_the_values():
    cache, levels = _levels([-1.5, 1.95, math.nan])
    statuses = [tasks.joint_status(cache, j, level, LOWER, UPPER, 0.1, SECOND)
                for j, level in enumerate(levels)]
    assert [s.message for s in statuses] == ['below lower limit by 0.5',
                                             'within 0.1 of upper limit', 'non-finite position']
    assert dict(statuses[0].values) == {'position': '-1.5', 'lower': '-1', 'upper': '1',
                                        'distance_to_limit': '-0.5'}
    arm = tasks.arm_status(statuses, 1, 0.0, cache.dropped_total(), cache.counts)
    assert arm.level == lm.ERROR and arm.task == 'arm'
    assert arm.message == ('ERROR: a (below lower limit by 0.5), c (non-finite position); '
                           'WARN: b (within 0.1 of upper limit)')
    assert ('dropped', '0') in arm.values and ('count accepted', '1') in arm.values


def test_the_arm_names_every_joint_not_ok_and_never_hides_an_error_behind_stale():
    cache = JointStateCache(['a', 'b', 'c'])
    cache.update(['a', 'b'], [0.5, 3.0], [], 1, SECOND)
    levels = lm.joint_levels(cache, LOWER, UPPER, 0.1, 1.0, SECOND)
    assert levels.tolist() == [lm.OK, lm.ERROR, lm.STALE]
    statuses = [tasks.joint_status(cache, j, level, LOWER, UPPER, 0.1, SECOND)
                for j, level in enumerate(levels)]
    arm = tasks.arm_status(statuses, 1, 0.0, 0, {})
    assert arm.level == lm.ERROR
    assert arm.message == ('ERROR: b (above upper limit by 1); '
                           'STALE: c (no joint_states value yet)')
    assert tasks.arm_level([lm.OK, lm.STALE, lm.WARN]) == lm.STALE


@pytest.mark.parametrize('seed', range(5))
def test_a_column_of_figures_gets_each_ones_level_given_the_one_before(seed):
    # Over a column, the level machine gives what it gives a figure at a time: values that
    # dither about every threshold, sit on them, jump, and are NaN; any band, any start.
    rng = np.random.default_rng(seed)
    for _ in range(40):
        warn, error = np.sort(rng.uniform(-1.0, 1.0, 2))
        warn_clear, error_clear = warn - rng.uniform(0.0, 0.5), error - rng.uniform(0.0, 0.5)
        edges = [warn, error, warn_clear, error_clear]
        values = np.where(rng.random(300) < 0.3, rng.choice(edges, 300),
                          np.cumsum(rng.normal(0.0, 0.1, 300)) % 2.0 - 1.0)
        values[rng.random(300) < 0.03] = math.nan
        for previous in (lm.OK, lm.WARN, lm.ERROR, lm.STALE):
            column = lm.threshold_levels(values, previous, warn, error, warn_clear,
                                         error_clear)
            level, expected = previous, []
            for value in values:
                level = lm.threshold_level(value, level, warn, error, warn_clear, error_clear)
                expected.append(level)
            assert column.tolist() == expected
            ratios = np.abs(values) + 0.4
            level, expected = previous, []
            for ratio in ratios:
                level = lm.ratio_level(ratio, level, 0.9, 0.05)
                expected.append(level)
            assert lm.ratio_levels(ratios, previous, 0.9, 0.05).tolist() == expected


@pytest.mark.parametrize('seed', range(3))
def test_columns_side_by_side_each_get_their_own_levels_and_a_row_judging_nothing_holds(seed):
    # A block's joints or tasks at once, each from its own level (STALE: judged anew, from
    # OK); a row that judges nothing of a column (no such value in the message) keeps its level.
    rng = np.random.default_rng(seed)
    values = np.cumsum(rng.normal(0.0, 0.1, (300, 6)), axis=0) % 2.0 - 1.0
    skipped = rng.random((300, 6)) < 0.2
    previous = rng.integers(lm.OK, lm.STALE + 1, 6)
    columns = lm.latched_levels(*lm.held(lm.threshold_events(values, 0.2, 0.6, 0.1, 0.5),
                                         skipped), previous)
    for k in range(6):
        level, expected = lm.OK if previous[k] == lm.STALE else int(previous[k]), []
        for value, skip in zip(values[:, k], skipped[:, k]):
            if not skip:
                level = lm.threshold_level(value, level, 0.2, 0.6, 0.1, 0.5)
            expected.append(level)
        assert columns[:, k].tolist() == expected


def test_quaternions_rebuild_the_rotation():
    rng = np.random.default_rng(3)
    R = np.array([rpy_to_matrix(rpy) for rpy in rng.uniform(-3.2, 3.2, size=(200, 3))])
    R = np.concatenate([R, [np.diag([1.0, -1.0, -1.0]), np.diag([-1.0, 1.0, -1.0]),
                            np.diag([-1.0, -1.0, 1.0]), np.eye(3)]])
    x, y, z, w = np.moveaxis(rotation_to_quaternion(R), -1, 0)
    rebuilt = np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], -2)
    np.testing.assert_allclose(rebuilt, R, atol=1e-14)
    assert (w >= 0).all()


def test_frames_reproduce_the_reference():
    reference = load_reference('panda')
    chain = Chain.from_yaml(PACKAGE / 'config' / CONFIG_FILES['panda'])
    names = frame_names(chain, 'left/')
    assert names[:3] == ('world', 'left/panda_link0', 'left/panda_link1')
    assert names[-1] == 'left/panda_hand_tcp'
    config = reference['configs'][-1]
    q = np.array(config['q'])
    children = joint_children(names, axis_frame_names(chain, 'left/'))  # modified DH: links
    assert children == names[2:-1]
    frames = joint_frames(names, children, range(chain.n), chain.link_poses(q))
    assert frames.parents[0] == 'left/panda_link0' and frames.children[-1] == 'left/panda_link7'
    A = np.array(config['link_A'])
    np.testing.assert_allclose(frames.translations, A[:, :3, 3], atol=1e-12)
    np.testing.assert_allclose(frames.rotations, rotation_to_quaternion(A[:, :3, :3]),
                               atol=1e-12)
    partial = joint_frames(names, children, [3], chain.link_poses(q)[[3]])
    assert partial.children == ['left/panda_link4']
    static = static_frames(chain, 'left/')
    assert list(zip(static.parents, static.children)) == [
        ('world', 'left/panda_link0'), ('left/panda_link7', 'left/panda_hand_tcp')]
    np.testing.assert_allclose(static.translations[1], [0.0, 0.0, 0.103], atol=1e-15)


def test_sweep_covers_the_range_and_overshoots_on_request():
    qlim = np.array([[-1.0, 1.0], [0.2, 0.5], [-np.inf, np.inf]])
    prismatic = np.array([False, True, True])
    t = np.linspace(0.0, 10.0, 2001)
    q, qd, qdd = np.array([sweep(ti, qlim, prismatic, 10.0) for ti in t]).transpose(1, 0, 2)
    assert (q[:, :2] >= qlim[:2, 0] - 1e-12).all() and (q[:, :2] <= qlim[:2, 1] + 1e-12).all()
    np.testing.assert_allclose(q.min(axis=0), [-1.0, 0.2, -0.1], atol=1e-4)
    np.testing.assert_allclose(np.gradient(q, t, axis=0)[1:-1], qd[1:-1], atol=1e-3)
    np.testing.assert_allclose(np.gradient(qd, t, axis=0)[1:-1], qdd[1:-1], atol=1e-3)
    beyond, *_ = np.array([sweep(ti, qlim, prismatic, 10.0, 0.05) for ti in t]).transpose(1, 0, 2)
    np.testing.assert_allclose(beyond.max(axis=0)[:2], [1.05, 0.55], atol=1e-4)


def test_parameter_specs():
    for spec in NODE + MODEL + JOINT:
        assert spec.description and spec.kind in ('string', 'string_array', 'double',
                                                  'double_array', 'bool', 'dynamic')
    assert {s.name for s in joint_specs('j1')} == {f'j1.{s.name}' for s in JOINT}
    values = {'convention': 'standard', 'joints': ['j1'], 'j1.a': 0.1, 'j1.qlim': None,
              'frame_prefix': 'x/', 'diagnostics.warn_margin': 0.1,
              'qos_overrides./joint_states.subscription.depth': 5}
    assert model_values(values) == {'convention': 'standard', 'joints': ['j1'], 'j1.a': 0.1}


def test_overflowing_transforms_and_torques_are_left_out(monkeypatch):
    from dh_kinematics.node_logic.joint_math import StreamMath

    chain = Chain([Link(a=0.3, name='a', G=1e6, B=1e6, convention='modified'),
                   Link(a=0.2, name='b', convention='modified')])  # no axis frames
    math = StreamMath(chain)
    table = chain.dynamic_constants.table  # the table StreamMath computes with
    poses = table.joint_poses((0, 1), (0.1, 0.2))
    assert math.finite_poses((0, 1), (0.1, 0.2)) == ((0, 1), (0.1, 0.2), poses)
    good = table.joint_poses([1], [0.2])
    real = table.joint_poses

    math_inf = float('inf')  # joint 0's transform overflows
    monkeypatch.setattr(table, 'joint_poses', lambda joints, q: [
        v for j, value in zip(joints, q) for v in (
            [math_inf] * 7 if j == 0 else real([j], [value]))])
    assert math.finite_poses((0, 1), (0.1, 0.2)) == ((1,), (0.2,), good)
    moving, torques = math.finite_friction((0, 1), (1e308, 0.5))
    assert moving == (1,) and torques == math.friction([1], [0.5])
