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

"""The node's logic without ROS: a message's path (JointStatesFlow) and parameter checks."""

import math

from dh_kinematics import Chain, Link
from dh_kinematics.core.model_file.parameter_file import flatten
from dh_kinematics.node_logic.joint_states import (
    JointStatesFlow, LOG_EVERY_S, NONE_WANTED, NOTHING, Outcome, Wanted)
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, STALE
from dh_kinematics.node_logic.monitors.tasks import MessageRate
from dh_kinematics.parameters import validation
from dh_kinematics.parameters.specs import NODE
from helpers import joint_state_cdr
import numpy as np
import pytest

SECOND = 1_000_000_000
CHAIN = Chain([Link(a=0.3, qlim=(-1.0, 1.0), G=100.0, B=0.01, Tc=0.1, name='a'),
               Link(joint='prismatic', alpha=0.5, qlim=(0.0, 0.5), name='b')])
SETTINGS = {spec.name: spec.default for spec in NODE}


class Flow:
    """A flow on CHAIN whose warnings are kept; other encodings decode from a dict."""

    def __init__(self):
        self.warnings, self.other = [], {}
        self.flow = JointStatesFlow(CHAIN.joint_names, self._decode, self.warnings.append, 0)
        self.flow.configure(CHAIN, SETTINGS)

    def _decode(self, data):
        if data not in self.other:
            raise ValueError('undecodable')
        return self.other[data]


def test_a_message_becomes_its_frames_friction_and_levels():
    flow = Flow()
    q, qd = [0.2, 0.1], [0.5, -0.3]
    outcome = flow.flow.handle(joint_state_cdr(5 * SECOND, ['a', 'b'], q, qd), 6 * SECOND, 1)
    tf, friction, due = outcome.tf, outcome.friction, outcome.diagnostics
    joints, stamp_ns, poses = tf
    assert joints == (0, 1) and stamp_ns == 5 * SECOND
    assert len(poses) == 2 * 7  # each joint moves its axis frame (a or alpha not 0)
    axis_poses = [Chain([link.replace(a=0.0, alpha=0.0)]).link_poses([value])[0]
                  for link, value in zip(CHAIN.links, q)]
    np.testing.assert_allclose(np.reshape(poses, (2, 7)), axis_poses, atol=1e-15)
    assert friction[0] == (0, 1) and friction[2] == CHAIN.friction(qd).tolist()
    assert due  # the first levels are published at once
    assert flow.flow.cache.received == 1 and not flow.warnings


def test_what_cannot_be_used_is_dropped_counted_and_warned_about_once():
    flow = Flow()
    assert flow.flow.handle(b'junk', 0, 1) == NOTHING  # sim time, no /clock
    assert flow.flow.handle(b'junk', 0, 2) == NOTHING
    for k in range(3):
        assert flow.flow.handle(b'junk', SECOND, 3 + k) == NOTHING
    counts = flow.flow.cache.counts
    assert counts['no_clock'] == 2 and counts['malformed'] == 3
    assert flow.flow.cache.received == 5
    assert len(flow.warnings) == 2, flow.warnings  # no_clock once; malformed once per 5 s
    assert 'malformed (undecodable bytes)' in flow.warnings[1]
    flow.flow.handle(b'junk', SECOND, int(LOG_EVERY_S * SECOND) + 3)
    assert len(flow.warnings) == 3


def test_other_encodings_use_the_decoder_and_a_clock_jump_restarts_the_stamps():
    flow = Flow()
    flow.other[b'xcdr2'] = (2 * SECOND, ['b'], [0.4], [], [])
    tf, friction, *_ = flow.flow.handle(b'xcdr2', 3 * SECOND, 1)
    assert tf[0] == (1,) and friction is None
    old = joint_state_cdr(SECOND, ['b'], [0.3])
    assert flow.flow.handle(old, 3 * SECOND, 2)[0] is None  # older than the last stamp
    assert flow.flow.handle(old, 2 * SECOND, 3)[0][0] == (1,)  # the clock went back
    assert 'the clock jumped back' in flow.warnings[-1]


def test_joints_go_stale_on_time_after_the_clock_jumps_back_and_messages_stop():
    # A bag that loops, a simulator reset: /clock goes from 600 s back to 10 s, then silence.
    flow = Flow().flow  # diagnostics.stale_timeout 1 s; the monotonic clock runs on, in s
    late = 600 * SECOND
    flow.handle(joint_state_cdr(late, ['a', 'b'], [0.1, 0.2]), late, SECOND)
    assert [s.level for s in flow.statuses(late, SECOND)] == [OK, OK, OK]
    back = 10 * SECOND
    flow.tick(back, 2 * SECOND)  # the node sees the jump; the stale timers restart from here
    flow.tick(back + SECOND // 2, 3 * SECOND)
    assert [s.level for s in flow.statuses(back + SECOND // 2, 3 * SECOND)] == [OK, OK, OK]
    assert flow.tick(back + SECOND + 1, 4 * SECOND)  # due at once: both went stale
    statuses = flow.statuses(back + SECOND + 1, 4 * SECOND)
    assert [s.level for s in statuses] == [STALE, STALE, STALE], statuses


def test_a_name_from_a_message_is_logged_cut_short():
    flow = Flow()
    name = 'x' * 65536
    flow.flow.handle(joint_state_cdr(SECOND, ['a', name], [0.1, 0.2]), SECOND, SECOND)
    flow.flow.handle(joint_state_cdr(2 * SECOND, [name + 'y'], [0.1]), 2 * SECOND, 2 * SECOND)
    assert flow.flow.cache.counts['no_known_joint'] == 1 and len(flow.warnings) == 3
    assert all(len(warning) < 1000 for warning in flow.warnings), [len(w) for w in flow.warnings]
    assert f"unknown joint '{'x' * 64}'... (65536 characters) ignored" in flow.warnings[0]
    assert f"names ['{'x' * 64}'... (65537 characters)] match none" in flow.warnings[2]


def test_a_torque_that_overflows_is_left_out_and_counted():
    flow = Flow()
    # The friction: 100 * 0.01 * 100 * 1e308.
    data = joint_state_cdr(SECOND, ['a', 'b'], [0.1, 0.2], [1e308, 0.5])
    tf, friction, *_ = flow.flow.handle(data, SECOND, 1)
    assert tf[0] == (0, 1) and friction[0] == (1,)
    assert flow.flow.cache.counts['non_finite_result'] == 1
    assert 'overflowed' in flow.warnings[-1]


def test_nothing_is_computed_for_outputs_nobody_wants():
    flow = Flow()
    flow.flow.wanted = NONE_WANTED._replace(tf=False, friction=False)
    # This friction would overflow (see above): computed, it would be counted.
    outcome = flow.flow.handle(joint_state_cdr(SECOND, ['a', 'b'], [0.1, 0.2], [1e308, 0.5]),
                               SECOND, 1)
    assert outcome.tf is outcome.friction is None and isinstance(outcome, Outcome)
    assert flow.flow.cache.counts['accepted'] == 1
    assert flow.flow.cache.counts['non_finite_result'] == 0


def test_the_message_rate_is_measured_over_the_window():
    rate = MessageRate(start_ns=0)
    assert rate.rate(100, SECOND // 4, SECOND // 2) == 0.0  # the window has not passed
    assert rate.rate(500, SECOND, SECOND // 2) == 500.0
    assert rate.rate(600, SECOND + 1, SECOND // 2) == 500.0  # kept until the next window


GIVEN = {'convention': 'standard', 'joints': ['a', 'b'], 'a.type': 'revolute', 'a.a': 1,
         'a.alpha': 0.0, 'a.d': 0.0, 'b.type': 'prismatic', 'b.a': 0.0, 'b.alpha': 0.0,
         'b.theta': 0.0, 'b.qlim': [0, 1], 'diagnostics.period': 2}


def test_start_up_gives_every_parameter_a_value_of_its_declared_type():
    parameters = validation.checked(GIVEN, NODE)
    values = parameters.values
    assert values['a.a'] == 1.0 and isinstance(values['a.a'], float)  # integers taken as reals
    assert values['b.qlim'] == [0.0, 1.0] and values['a.qlim'] == [-math.inf, math.inf]
    assert values['a.G'] == 1.0 and values['frame_prefix'] == ''  # the core's and node's defaults
    assert parameters.settings['diagnostics.period'] == 2.0
    assert set(values) == set(parameters.specs)
    with pytest.raises(validation.NoModelError):
        validation.checked({'frame_prefix': 'x/'}, NODE, '/arm')


@pytest.mark.parametrize('changes, reason', [
    ({'a.typo': 1.0}, 'a.typo: no such parameter'),
    ({'a.a': None}, 'a.a: cannot be unset; give a value'),
    ({'a.a': 'long'}, "a.a: must be a real number, got 'long'"),
    ({'diagnostics.period': 0.001}, 'diagnostics.period: must be within [0.02, 60], got 0.001'),
    ({'joints': ['a']}, 'joints: the joint set is fixed at start-up'),
    ({'b.type': 'revolute'}, 'b.type: a joint type is fixed at start-up'),
    ({'a.alpha': 90.0}, 'a.alpha: must be within +-2 pi'),
    ({'a.a': 0.5, 'b.qlim': [1.0, 0.0]}, 'b.qlim'),
    # Issue 41 (1): 1e9 / 1e-300 overflowed when the rate cap was configured.
    ({'tf.max_rate': 1e-300}, 'tf.max_rate: must be 0 (every message) or within [0.001, '
     '1e+06] Hz, got 1e-300'),
    ({'tf.max_rate': 1e300}, 'tf.max_rate: must be within [0, 1e+06], got 1e+300'),
])
def test_a_change_is_refused_as_a_whole_naming_the_parameter(changes, reason):
    parameters = validation.checked(GIVEN, NODE)
    with pytest.raises(ValueError) as error:
        validation.changed(parameters, changes)
    assert str(error.value).startswith(reason), error.value


def test_a_change_returns_the_new_parameters_and_what_changed():
    parameters = validation.checked(GIVEN, NODE)
    same, new = validation.changed(parameters, {'a.a': 1, 'joints': ['a', 'b']})
    assert same is parameters and new == {}  # a reload is no change
    changed, new = validation.changed(parameters, {'a.a': 2, 'diagnostics.period': 3.0})
    assert new == {'a.a': 2.0, 'diagnostics.period': 3.0}
    assert changed.chain.links[0].a == 2.0 and changed.settings['diagnostics.period'] == 3.0
    assert parameters.chain.links[0].a == 1.0  # the old record is untouched


def test_one_absurd_velocity_restarts_the_estimate_and_blinds_no_monitor():
    # Issue 41 (2): one finite velocity of 1e306 rad/s left the acceleration estimate NaN for
    # good: the effort monitor never judged again and the acceleration limit sat at NaN ERROR.
    chain = Chain([Link(a=0.3, m=2.0, r=(-0.15, 0.0, 0.0), I=(0.01, 0.01, 0.01), qlim=(-3, 3),
                        acceleration_limit=50.0, effort_limit=100.0, name='a')])
    settings = dict(SETTINGS, **{'effort.warn': [5.0], 'effort.error': [10.0],
                                 'effort.hold': 0.0, 'diagnostics.stale_timeout': 3600.0})
    warnings = []
    flow = JointStatesFlow(chain.joint_names, None, warnings.append, 0)
    flow.configure(chain, settings)
    step = SECOND // 100

    def send(k, velocity, effort):
        stamp = SECOND + k * step
        flow.handle(joint_state_cdr(stamp, ['a'], [0.1 * math.sin(k / 50)], [velocity],
                                    [effort]), stamp, stamp)
        return {s.task: s for s in flow.statuses(stamp, stamp)}['a']

    for k in range(50):  # at rest, the efforts the model expects: OK
        status = send(k, 0.0, chain.gravload([0.1 * math.sin(k / 50)])[0])
    assert status.level == OK, status
    send(50, 1e306, 0.0)
    assert flow.cache.counts['implausible_rate'] == 1
    assert any('a velocity beyond 10000 rad/s or m/s, or not finite' in line  # and the
               for line in warnings[-2:])  # observer restarts (issue 71 (6))
    for k in range(51, 80):  # 50 N m more than the model expects: the effort monitor sees it
        status = send(k, 0.0, chain.gravload([0.1 * math.sin(k / 50)])[0] + 50.0)
    assert status.level == 2 and 'nan' not in status.message.lower(), status
    values = dict(status.values)
    assert values['acceleration'] != 'nan' and float(values['acceleration']) < 50.0, values


@pytest.mark.parametrize('jerk_limit, level', [(100.0, 2), (1000.0, OK)])
def test_the_jerk_limit_is_judged_from_the_estimate(jerk_limit, level):
    # Issue 41 (5): jerk_limit was read, counted by check and never judged. A velocity
    # 10 sin(2 pi t) rad/s has a jerk of up to 10 (2 pi)^2 = 395 rad/s^3.
    chain = Chain([Link(a=0.3, qlim=(-30, 30), jerk_limit=jerk_limit, name='a')])
    flow = JointStatesFlow(chain.joint_names, None, lambda text: None, 0)
    flow.configure(chain, dict(SETTINGS, **{'diagnostics.stale_timeout': 3600.0}))
    worst = OK
    for k in range(1500):  # 1.5 s at 1 kHz
        t, stamp = k / 1000, SECOND + k * SECOND // 1000
        flow.handle(joint_state_cdr(stamp, ['a'], [-10 * math.cos(2 * math.pi * t) / (
            2 * math.pi)], [10 * math.sin(2 * math.pi * t)]), stamp, stamp)
        status, = [s for s in flow.statuses(stamp, stamp) if s.task == 'a']
        if status.level > worst:
            worst, seen = status.level, status
    assert worst == level
    if level:
        assert seen.message.startswith('jerk ') and 'rad/s^3 above limit 100' in seen.message


def test_implausible_rates_make_what_needs_rates_stale_and_planes_are_judged_on():
    # Issue 58 (2): with velocities of 1e150 every safety status stayed OK "no configuration
    # and joint rates yet", the planes too, though they need only positions.
    chain = Chain([Link(a=0.5, m=2.0, r=(-0.25, 0.0, 0.0), I=(0.01, 0.01, 0.01), name='a'),
                   Link(a=0.4, m=1.0, r=(-0.2, 0.0, 0.0), I=(0.01, 0.01, 0.01), name='b')])
    settings = dict(SETTINGS, **{'safety.momentum_limit': 5.0, 'tool_speed_limit': 2.0,
                                 'safety.planes.wall': [-1.0, 0.0, 0.0, -0.8],
                                 'safety.plane_frames': ['tool0'],
                                 'diagnostics.stale_timeout': 3600.0})
    flow = JointStatesFlow(chain.joint_names, None, lambda text: None, 0)
    flow.configure(chain, validation.checked(dict(flatten(chain.to_params()), **settings),
                                             NODE).settings)

    def send(k, q, qd):
        stamp = SECOND + k * SECOND // 100
        flow.handle(joint_state_cdr(stamp, ['a', 'b'], q, qd), stamp, stamp)
        return {s.task: s for s in flow.statuses(stamp, stamp)}

    watched = ('momentum', 'planes', 'tool_speed')
    first = send(0, [1.0, 0.0], [])  # no velocities: differenced from the second message on
    assert [first[task].level for task in watched] == [STALE, OK, STALE], first
    assert 'no velocity of a, b yet' in first['momentum'].message
    judged = send(1, [1.0, 0.0], [0.0, 0.0])
    assert [judged[task].level for task in watched] == [OK, OK, OK], judged
    # The tool 0.9 m out along x, past the wall at x = 0.8, velocities of 1e150 rad/s.
    blind = send(2, [0.0, 0.0], [1e150, 0.0])
    assert blind['planes'].level == ERROR and 'tool0 -0.1 m from plane wall' in (
        blind['planes'].message), blind['planes']
    for task in ('momentum', 'tool_speed'):
        assert blind[task].level == STALE and 'no velocity of a yet' in blind[task].message
    assert blind['arm'].level == ERROR
    again = send(3, [0.0, 0.0], [0.1, 0.0])
    assert [again[task].level for task in watched] == [OK, ERROR, OK], again


def test_the_verdict_says_at_which_stamp_a_message_was_taken_and_what_was_judged():
    # What a replay reads of each message, and nothing else of the flow: a zero stamp is taken
    # at the node's clock, the values are the message's, the levels the joints'.
    flow = Flow()
    settings = dict(SETTINGS, **{'effort.estimator': 'observer'})
    flow.flow.configure(CHAIN, settings)
    flow.flow.wanted = Wanted(False, False, True, False, False, external=True)  # as replay's
    outcome = flow.flow.handle(joint_state_cdr(0, ['a', 'b'], [0.97, 0.1], [0.5, -0.3],
                                               [1.0, 2.0]), 7 * SECOND, 1)
    assert outcome.taken
    verdict = flow.flow.verdict(outcome)
    assert verdict.stamp_ns == 7 * SECOND
    assert verdict.positions == [0.97, 0.1] and verdict.efforts == [1.0, 2.0]
    assert verdict.velocities == [0.5, -0.3]
    assert all(math.isnan(value) for value in verdict.accelerations + verdict.jerks)
    assert verdict.levels == [1, 0]  # joint a in its warn margin
    assert verdict.safety is None and verdict.safety_levels is None  # no safety watched
    outcome = flow.flow.handle(joint_state_cdr(7 * SECOND + 1_000_000, ['a', 'b'], [0.5, 0.1],
                                               [0.5, -0.3], [1.0, 2.0]), 8 * SECOND, 2)
    verdict = flow.flow.verdict(outcome)
    assert verdict.stamp_ns == 7 * SECOND + 1_000_000 and verdict.levels == [0, 0]
    assert verdict.external == outcome.external[2] and len(verdict.external) == 2
