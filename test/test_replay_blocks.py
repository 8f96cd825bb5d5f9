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
A log judged in blocks is judged as one message at a time, whatever the block's size.

The flow takes a block's messages first and judges them after, the arm's state and the costly
figures measured for the whole block at once (:meth:`JointStatesFlow.handle_block`). The same
log replayed in blocks of 1, 10 and 10,000 messages gives the same transitions (stamp, status,
level, message) and the same ``~/safety``, ``~/expected_effort`` and ``~/external_torque``
values to 1e-12, with every monitor on: on the shipped arms, a random modified-DH arm with a
prismatic joint, and a real Panda's log. Each log carries what a block must keep in its place:
a gap the joints go STALE in, a message without a joint, one with a position that is not
finite, a zero stamp and a stamp gone back.
"""

import math

from dh_kinematics import Chain
from dh_kinematics.core.model_file.parameter_file import flatten
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, STALE, WARN
from dh_kinematics.node_logic.sweep import sweep
from dh_kinematics.parameters import validation
from dh_kinematics.parameters.specs import NODE
from dh_kinematics.replay import Replay
from helpers import joint_state_cdr, needs_panda_log, PACKAGE, PANDA_LOG, random_arm
import numpy as np
import pytest

SECOND = 1_000_000_000
BASE = 1_790_000_000 * SECOND
BLOCKS = (1, 10, 10_000)


def _checked(chain):
    """Return the model and the node's settings with every monitor on, limits within reach."""
    given = flatten(chain.to_params())
    for name in chain.joint_names:
        given.update({f'{name}.velocity_limit': 1.0, f'{name}.acceleration_limit': 8.0,
                      f'{name}.jerk_limit': 400.0, f'{name}.deceleration_limit': 4.0})
    given.update({
        'diagnostics.period': 0.1, 'diagnostics.warn_margin': 0.2,
        'singularity.enabled': True, 'tool_speed_limit': 1.0,
        'effort.estimator': 'observer', 'effort.warn': [2.0], 'effort.error': [6.0],
        f'safety.frame_speed_limits.{chain.tool_frame}': 0.8,
        'safety.momentum_limit': 2.0, 'safety.kinetic_energy_limit': 1.0,
        'safety.power_limit': 5.0, 'safety.stopping_time_limit': 0.2,
        'safety.stopping_distance_limit': 0.05, 'safety.planes.floor': [0.0, 0.0, 1.0, -0.2],
        'safety.tool_spheres': [0.0, 0.0, 0.05, 0.05], 'safety.tool_direction.limit': 2.0,
        'safety.contact.body_region': 'hands_fingers', 'safety.self_collision.enabled': True})
    checked = validation.checked(given, NODE)
    return checked.chain, checked.settings


def _random_arm():
    rng = np.random.default_rng(72)
    while True:  # modified DH, a prismatic joint, four joints or more
        chain = random_arm(rng)
        if chain.mdh and chain.n >= 4 and any(link.isprismatic() for link in chain.links):
            return chain


def _swept(chain, seconds=3.0, rate=1000.0):
    """Return (t, q, qd, efforts): a sweep past every limit, its efforts those of the model."""
    prismatic = [link.isprismatic() for link in chain.links]
    t = np.arange(int(seconds * rate)) / rate
    q, qd, qdd = (np.array(values) for values in zip(*(
        sweep(each, chain.qlim, prismatic, 2.0, overshoot=0.1) for each in t)))
    push = np.where(np.arange(len(t))[:, None] % 700 < 200, 4.0, 0.0)  # on and off
    return t, q, qd, chain.rne(q, qd, qdd) + push


def _log(chain, t, q, qd, efforts):
    """Return the serialized messages, with the odd ones a block must keep in their place."""
    names, messages = list(chain.joint_names), []
    for k in range(len(t)):
        stamp = BASE + int(round(t[k] * 1e9))
        if 1000 <= k < 1700:  # a gap of 0.7 s: every joint goes STALE
            continue
        positions = q[k].tolist()
        if k == 400:
            positions[0] = math.nan
        if k == 500:  # a stamp gone back
            stamp -= SECOND // 10
        if k == 600:  # a zero stamp
            stamp = 0
        if k in (300, 301):  # without a joint
            messages.append((stamp, joint_state_cdr(stamp, names[1:], positions[1:],
                                                    qd[k].tolist()[1:])))
            continue
        messages.append((stamp, joint_state_cdr(stamp, names, positions, qd[k].tolist(),
                                                efforts[k].tolist())))
    return messages


def _judged(chain, settings, messages, block):
    """Return the transitions and each message's values of the replay in ``block`` blocks."""
    values = []

    def take(outcome):  # each value's stamp and values
        values.append([None if each is None else (each[-2], list(each[-1])) for each in (
            outcome.safety, outcome.expected, outcome.external)])
    replay = Replay(chain, settings, values=True)
    transitions = list(replay.transitions(messages, outcomes=take, block=block))
    report = (replay.maxima.rows(), replay.series.arrays(), replay.safety.arrays())
    return transitions, values, report


def _same_report(ours, theirs):
    """Assert two replays' maxima and pictures agree (the safety figures' stamps aside)."""
    (rows, series, safety), (their_rows, their_series, their_safety) = ours, theirs
    assert [row[:2] for row in rows] == [row[:2] for row in their_rows]
    for mine, other in zip(rows, their_rows):
        assert mine[2] == pytest.approx(other[2], rel=0.0, abs=1e-12)
        if mine[0] != 'safety':  # a figure over columns may differ in its last bit: a tie
            assert mine[3:] == other[3:] or math.isnan(mine[4]) and mine[3] == other[3]
    for mine, other in zip(series + safety, their_series + their_safety):
        np.testing.assert_allclose(mine, other, rtol=0.0, atol=1e-12)


def _same(ours, theirs):
    """Assert two replays' values agree to 1e-12 (NaN where both are, inf where both)."""
    assert len(ours) == len(theirs)
    for mine, other in zip(ours, theirs):
        for a, b in zip(mine, other):
            assert (a is None) == (b is None)
            if a is not None:
                assert a[0] == b[0]
                np.testing.assert_allclose(a[1], b[1], rtol=0.0, atol=1e-12)


def _judged_alike(chain, settings, messages):
    """Return :func:`_judged` one message at a time, having asserted every block size agrees."""
    alone, values, report = _judged(chain, settings, messages, 1)
    for block in BLOCKS[1:]:
        transitions, theirs, their_report = _judged(chain, settings, messages, block)
        assert transitions == alone
        _same(theirs, values)
        _same_report(their_report, report)
    return alone, values, report


def _arm(name):
    return _random_arm() if name == 'random' else Chain.from_yaml(
        PACKAGE / 'config' / f'{name}.yaml')


@pytest.mark.parametrize('name', ['panda', 'ur5', 'random'])
def test_a_log_judged_in_blocks_of_any_size_is_judged_as_one_message_at_a_time(name):
    chain, settings = _checked(_arm(name))
    messages = _log(chain, *_swept(chain))
    alone, values, report = _judged_alike(chain, settings, messages)
    # Every level each monitor has moved through, and every kind of status.
    statuses = {status.split(': ')[1] for _, status, _, _ in alone}
    assert {'arm', 'tool_speed', 'frame_speed', 'stopping', 'planes', 'contact',
            'self_collision', *chain.joint_names} <= statuses, statuses
    assert {level for *_, level, _ in alone} == {0, 1, 2, 3}
    assert sum(each[0] is not None for each in values) > 2000


@pytest.mark.parametrize('name', ['panda', 'random'])
def test_the_residual_judged_in_blocks_is_judged_as_one_message_at_a_time(name):
    # The effort monitor on measured - expected efforts: a block's model torques as columns.
    # The log's efforts are the model's plus a push of 4 N m or N on and off (_swept): each
    # joint's worst residual shows it, and no observer's estimate is there.
    chain, settings = _checked(_arm(name))
    settings = dict(settings, **{'effort.estimator': 'acceleration'})
    messages = _log(chain, *_swept(chain))
    _, values, report = _judged_alike(chain, settings, messages)
    assert sum(each[1] is not None for each in values) > 2000
    worst = {quantity: [row[2] for row in report[0] if row[1] == quantity]
             for quantity in ('residual', 'external torque')}
    assert len(worst['residual']) == chain.n and min(worst['residual']) > 3.6
    assert worst['external torque'] == []


@pytest.mark.slow
@needs_panda_log
def test_the_real_panda_log_judged_in_blocks_is_judged_as_one_message_at_a_time():
    chain, settings = _checked(Chain.from_yaml(PACKAGE / 'config' / 'panda.yaml'))
    t = np.loadtxt(PANDA_LOG / 'time.txt')[:6000]
    q, qd, efforts = (np.loadtxt(PANDA_LOG / f'{name}.txt').reshape(-1, 7)[:6000]
                      for name in ('positions', 'velocity', 'torques'))
    messages = _log(chain, t, q, qd, efforts)
    alone, _, _ = _judged_alike(chain, settings, messages)
    assert len(alone) > 50


@pytest.mark.parametrize('name', ['panda', 'random'])
def test_each_status_level_is_known_without_building_the_status(name):
    # Replay builds only the statuses whose level changed, found by status_levels.
    chain, settings = _checked(_arm(name))
    replay = Replay(chain, settings)
    seen = set()

    def check(outcome):
        if not outcome.taken:
            return
        stamp, limits = replay.flow.verdict(outcome).stamp_ns, replay.flow.limits
        levels = limits.status_levels(stamp)
        statuses = limits.statuses(stamp, stamp)
        assert list(levels.items()) == [(status.task, status.level) for status in statuses]
        seen.update(levels.items())
        changed = {task for task, level in levels.items() if level != OK}
        assert [status.task for status in limits.statuses(stamp, stamp, changed)] == [
            task for task in levels if task in changed]
        # The arm's summary, built from the statuses that are not OK alone, is the whole one.
        assert limits.statuses(stamp, stamp, {'arm'}) == statuses[-1:]
    list(replay.transitions(_log(chain, *_swept(chain, seconds=2.0)), outcomes=check))
    assert {level for _, level in seen} == {OK, WARN, ERROR, STALE}
    assert {task for task, level in seen if level == ERROR} >= {'arm', 'stopping', 'planes'}
