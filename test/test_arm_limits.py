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

"""Tool speed and singularity levels of the whole arm, without ROS."""

import math

from dh_kinematics import Chain, Link
from dh_kinematics.core.kinematics import manipulability
from dh_kinematics.node_logic.monitors.arm import ArmLimits
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, WARN
from dh_kinematics.parameters.specs import NODE
from helpers import CHAINS, for_each_arm
import numpy as np
import pytest

PLANAR = Chain([Link(a=0.5), Link(a=0.5), Link(a=0.1)], tool_frame='tcp')
SETTINGS = {'tool_speed_limit': 0.25, 'singularity.enabled': True, 'singularity.warn': 17.0,
            'singularity.error': 30.0, 'singularity.hysteresis': 0.1,
            'limits.warn_fraction': 0.9, 'limits.hysteresis': 0.05}


def _elbow_for(condition):
    """Return q2 (rad) where the planar arm's scaled condition number is ``condition``."""
    measures = manipulability.Conditioning(PLANAR).measures

    def measured(q2):
        return measures(PLANAR.jacob0([0.3, q2, 0.0]))[-1]
    low, high = 1e-6, math.pi / 2  # stretched (singular) to folded at right angles
    for _ in range(100):
        middle = (low + high) / 2
        low, high = (middle, high) if measured(middle) > condition else (low, middle)
    return (low + high) / 2


def test_nothing_is_watched_unless_switched_on():
    limits = ArmLimits()
    limits.configure(PLANAR, {spec.name: spec.default for spec in NODE})  # the node's defaults
    assert not limits.active and limits.statuses() == []


def test_the_singularity_level_rises_at_each_threshold_and_clears_past_the_hysteresis():
    limits = ArmLimits()
    limits.configure(PLANAR, dict(SETTINGS, tool_speed_limit=math.inf))
    assert limits.active and limits.watch_singularity and not limits.watch_speed
    seen = []
    for condition in (10.0, 18.0, 16.0, 15.0, 31.0, 28.0, 26.0, 20.0, 15.0):
        limits.update([0.3, _elbow_for(condition), 0.0])
        seen.append(limits.levels['singularity'])
    assert seen == [OK, WARN, WARN, OK, ERROR, ERROR, WARN, WARN, OK]
    limits.update([0.3, _elbow_for(31.0), 0.0])
    status, = limits.statuses()
    assert status.task == 'singularity' and status.level == ERROR
    assert status.message == 'near a singularity: condition number 31 above 30'
    values = dict(status.values)
    assert float(values['condition_scaled']) == pytest.approx(31.0, rel=1e-6)
    assert values['warn'] == '17' and values['error'] == '30' and values['kind'] == ''
    limits.update([0.3, 0.01, 0.0])  # nearly stretched: the geometry names the elbow
    status, = limits.statuses()
    assert status.message.startswith('elbow singularity: q2 at 0.01 rad, the arm 0.01 rad from '
                                     'stretched: condition number ')
    assert dict(status.values)['kind'] == 'elbow'
    limits.update([0.3, 0.0, 0.0])  # stretched: singular
    assert limits.measures[-1] > 1e12 and limits.levels['singularity'] == ERROR


def test_the_tool_speed_is_judged_with_the_joints_fraction_and_hysteresis():
    limits = ArmLimits()
    limits.configure(PLANAR, dict(SETTINGS, **{'singularity.enabled': False}))
    q = [0.3, 1.0, 0.0]
    J = PLANAR.jacob0(q)
    unit = np.linalg.norm(J[:3] @ [1.0, 0.0, 0.0])  # m/s per rad/s of joint 1
    levels = []
    for speed in (0.2, 0.23, 0.26, 0.24, 0.235, 0.2):
        limits.update(q, [speed / unit, 0.0, 0.0])
        levels.append(limits.levels['tool_speed'])
    assert levels == [OK, WARN, ERROR, ERROR, WARN, OK]
    limits.update(q, [0.3 / unit, 0.0, 0.0])
    status, = limits.statuses()
    assert status.message == 'tcp at 0.3 m/s (above limit 0.25 by 0.05)'
    assert dict(status.values)['frame'] == 'tcp'


def test_the_measures_are_computed_for_the_topic_even_when_nothing_is_watched():
    limits = ArmLimits()
    limits.configure(PLANAR, {spec.name: spec.default for spec in NODE})
    q, qd = [0.3, 1.0, 0.0], [0.5, 0.0, 0.0]
    limits.update(q, qd)  # nothing watched, nothing asked: no SVD, no speed
    assert all(map(math.isnan, limits.measures)) and math.isnan(limits.speed)
    limits.update(q, qd, measure=True)
    J = PLANAR.jacob0(q)
    assert limits.measures == manipulability.Conditioning(PLANAR).measures(J)
    assert limits.speed == manipulability.tool_speed(J, qd)


@for_each_arm(CHAINS)
def test_the_bounds_of_the_short_way_hold_on_every_arm(name, chain):
    # The scaled Jacobian moves no more than drift() says, and the tool no faster than
    # speed_bound(): checked against the SVD of the difference and |J_v qd|.
    conditioning = manipulability.Conditioning(chain)
    rng = np.random.default_rng(len(name))
    for q in chain.random_q(20, rng):
        step = rng.normal(size=chain.n) * rng.choice([1e-4, 1e-2, 0.3])
        moved = q + step
        difference = conditioning.scaled(chain.jacob0(moved)) - conditioning.scaled(
            chain.jacob0(q))
        assert np.linalg.norm(difference, 2) <= conditioning.drift(moved, q) * (1 + 1e-9)
        qd = rng.normal(size=chain.n)
        assert manipulability.tool_speed(chain.jacob0(q), qd) <= (
            conditioning.speed_bound(qd) * (1 + 1e-9) + 1e-12)


@pytest.mark.parametrize('name', ['puma560', 'ur5', 'panda'])
def test_the_short_way_judges_every_message_as_the_full_way(name):
    # Two monitors on one walk through singular poses, past every threshold: one measures
    # every message (the ~/manipulability way), the other judges the short way where a bound
    # settles the level. Their levels agree on every message, and the short way did skip.
    chain = dict(CHAINS)[name]
    settings = dict(SETTINGS, **{'singularity.warn': 60.0, 'singularity.error': 200.0,
                                 'tool_speed_limit': 0.5})
    full, short = ArmLimits(), ArmLimits()
    full.configure(chain, settings)
    short.configure(chain, settings)
    rng = np.random.default_rng(7)
    # Straight moves of 1500 messages each, to the stretched arm (singular for every shipped
    # arm) and to random configurations, with joint rates from slow to fast.
    ends = [np.zeros(chain.n) if k % 2 else chain.random_q(1, rng)[0] for k in range(7)]
    path = np.concatenate([np.linspace(a, b, 1500) for a, b in zip(ends, ends[1:])])
    skipped, seen = 0, set()
    for k, q in enumerate(path):
        qd = (path[min(k + 1, len(path) - 1)] - q) * rng.choice([10.0, 100.0, 1000.0])
        full.update(q.tolist(), qd.tolist(), measure=True)
        before = short.measures
        short.update(q.tolist(), qd.tolist())
        skipped += short.measures is before
        assert short.levels == full.levels, k
        seen.add(full.levels['singularity'])
    assert skipped > len(path) / 10 and seen == {OK, WARN, ERROR}
