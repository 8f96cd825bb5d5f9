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

"""JointStateCache: every kind of bad input has one outcome, and every drop is counted."""

import math

from dh_kinematics.node_logic.joint_state_cache import JointStateCache, MAX_UNKNOWN_NAMES, NO_STAMP
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

NAN, INF = math.nan, math.inf


@pytest.fixture
def cache():
    return JointStateCache(['a', 'b', 'c'])


def test_matches_by_name_and_remembers_each_joint(cache):
    update = cache.update(['c', 'a'], [3.0, 1.0], [0.3, 0.1], 10, 100)
    assert update.dropped is None and update.notes == ()
    assert sorted(update.positions) == [0, 2]
    cache.update(['b'], [2.0], [], 11, 101)
    np.testing.assert_array_equal(cache.positions, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(cache.velocities, [0.1, NAN, 0.3])
    np.testing.assert_array_equal(cache.stamps_ns, [10, 11, 10])
    np.testing.assert_array_equal(cache.received_ns, [100, 101, 100])
    assert cache.counts['accepted'] == 2 and cache.dropped_total() == 0


@pytest.mark.parametrize('names, positions, velocities, reason', [
    ([], [], [], 'empty'),
    (['a', 'b'], [1.0], [], 'length_mismatch'),
    (['a'], [1.0, 2.0], [], 'length_mismatch'),
    (['a', 'a'], [1.0, 2.0], [], 'duplicate_name'),
    (['x', 'y'], [1.0, 2.0], [], 'no_known_joint'),
])
def test_dropped_messages(cache, names, positions, velocities, reason):
    update = cache.update(names, positions, velocities, 10, 100)
    assert update.dropped == reason and len(update.positions) == 0
    assert cache.counts[reason] == 1 and cache.dropped_total() == 1
    assert np.isnan(cache.positions).all() and (cache.stamps_ns == NO_STAMP).all()


def test_unknown_names_are_ignored(cache):
    update = cache.update(['a', 'x'], [1.0, 9.0], [], 10, 100)
    assert update.dropped is None and update.notes == ('unknown_joint',)
    assert list(update.positions) == [0] and cache.counts['unknown_joint'] == 1


def test_each_unknown_name_is_new_once(cache):
    assert cache.update(['a', 'finger'], [1.0, 9.0], [], 10, 100).new_unknown == ('finger',)
    assert cache.update(['a', 'finger'], [1.0, 9.0], [], 11, 101).new_unknown == ()
    assert cache.update(['finger', 'a'], [9.0, 1.0], [], 12, 102).new_unknown == ()
    update = cache.update(['x', 'y'], [1.0, 2.0], [], 13, 103)
    assert update.dropped == 'no_known_joint' and update.new_unknown == ('x', 'y')


def test_churning_unknown_names_are_remembered_up_to_a_bound(cache):
    new = []
    for k in range(10 * MAX_UNKNOWN_NAMES):
        new += cache.update(['a', f'churn{k}'], [1.0, 0.0], [], 10 + k, 100 + k).new_unknown
    assert new == [f'churn{k}' for k in range(MAX_UNKNOWN_NAMES)]
    assert len(cache.unknown_names) == MAX_UNKNOWN_NAMES
    assert cache.counts['unknown_joint'] == 10 * MAX_UNKNOWN_NAMES


def test_future_stamps_are_dropped_and_do_not_lock_the_joint_out():
    cache = JointStateCache(['a'], future_tolerance_ns=1_000)
    now = 10 ** 12
    assert cache.update(['a'], [1.0], [], now + 1_000, now).dropped is None
    assert cache.update(['a'], [1.0], [], (2 ** 31 - 1) * 10 ** 9, now).dropped == 'future_stamp'
    assert cache.update(['a'], [2.0], [], now + 2_000, now + 1_500).dropped is None
    assert cache.counts['future_stamp'] == 1 and cache.positions[0] == 2.0


def test_a_first_negative_stamp_is_taken(cache):
    assert cache.update(['a'], [1.0], [], -5, 100).dropped is None
    assert cache.update(['a'], [1.0], [], -6, 101).dropped == 'old_stamp'


def test_non_finite_positions_mark_the_joint_and_keep_the_rest(cache):
    cache.update(['a', 'b'], [1.0, 2.0], [], 10, 100)
    update = cache.update(['a', 'b', 'c'], [NAN, 5.0, INF], [0.0, 0.0, 0.0], 11, 101)
    assert update.notes == ('non_finite_position',)
    assert list(update.positions) == [1] and list(update.velocities) == [1]
    np.testing.assert_array_equal(cache.positions, [1.0, 5.0, NAN])
    np.testing.assert_array_equal(cache.non_finite, [True, False, True])
    cache.update(['a'], [1.5], [], 12, 102)
    assert not cache.non_finite[0]


def test_huge_values_are_finite_and_kept(cache):
    update = cache.update(['a'], [1e308], [-1e308], 10, 100)
    assert list(update.positions) == [0] and cache.positions[0] == 1e308


def test_velocities(cache):
    update = cache.update(['a', 'b'], [1.0, 2.0], [0.5], 10, 100)
    assert update.notes == ('velocity_length',) and len(update.velocities) == 0
    update = cache.update(['a', 'b'], [1.0, 2.0], [NAN, 0.2], 11, 101)
    assert update.notes == ('non_finite_velocity',) and list(update.velocities) == [1]


def test_zero_stamp_is_replaced_by_now(cache):
    update = cache.update(['a'], [1.0], [], 0, 555)
    assert update.stamp_ns == 555 and update.notes == ('zero_stamp',)


def test_old_and_repeated_stamps_are_dropped_per_joint(cache):
    cache.update(['a'], [1.0], [], 20, 100)
    assert cache.update(['a'], [2.0], [], 10, 101).dropped == 'old_stamp'
    assert cache.update(['a', 'b'], [2.0, 3.0], [], 20, 102).dropped == 'repeated_stamp'
    # Another publisher's joints may carry an older stamp than joint a's.
    assert cache.update(['b'], [3.0], [], 15, 103).dropped is None
    assert cache.positions[0] == 1.0 and cache.counts['old_stamp'] == 1


def test_clock_jump_back_resets_the_stamps(cache):
    cache.update(['a'], [1.0], [], 1_000, 1_000)
    cache.reset_stamps(50)
    assert cache.update(['a'], [2.0], [], 10, 60).dropped is None
    assert cache.received_ns[0] == 60 and cache.received_ns[1] == -1


VALUES = st.sampled_from([0.5, -1.25, 3.0, 1e308, NAN, INF])
NAME_SETS = st.sampled_from([('a', 'b', 'c'), ('c', 'a', 'b'), ('a', 'b'), ('a', 'b', 'x')])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(NAME_SETS, st.lists(VALUES, min_size=3, max_size=3),
                          st.integers(0, 3), st.integers(0, 3), st.integers(-2, 3)),
                min_size=1, max_size=12), st.lists(st.booleans(), min_size=12, max_size=12))
def test_the_shortcut_for_whole_messages_changes_nothing(messages, looks):
    # The reader hands the same names tuple over for every message of a stream, which takes
    # the cache's shortcut (and its deferred write); equal lists never do. Both must give the
    # same updates and state.
    fast, slow = JointStateCache(['a', 'b', 'c']), JointStateCache(['a', 'b', 'c'])
    stamp_ns = 100
    for (names, values, velocities, efforts, step), look in zip(messages, looks):
        stamp_ns += step
        count = len(names)
        positions = tuple(values[:count])
        qd, effort = tuple(values[::-1][:velocities]), tuple(values[:efforts])
        args = (positions, qd, stamp_ns, 1000, effort)
        got = fast.update(names, *args)
        expected = slow.update(list(names), *args)
        assert _same(got, expected)
        assert fast.counts == slow.counts
        if look:  # reading an array writes what the shortcut left pending: not every time
            _same_arrays(fast, slow)
    _same_arrays(fast, slow)


def _same_arrays(a, b):
    for field in ('positions', 'velocities', 'efforts', 'stamps_ns', 'received_ns',
                  'non_finite'):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))


def _same(a, b):
    return all(np.array_equal(np.asarray(x, float), np.asarray(y, float), equal_nan=True)
               if i in (5, 6, 9) else x == y for i, (x, y) in enumerate(zip(a, b)))
