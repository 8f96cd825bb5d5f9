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
Gravity torques, expected efforts and the effort monitor, without ROS: the flow the node runs.

The motions are exact in binary (stamps 1/64 s apart, dyadic accelerations), so that the
estimated velocities and accelerations are exact too, and the efforts must equal
:meth:`Chain.rne` and :meth:`Chain.gravload` of the numpy path to 1e-9.
"""

import math

from dh_kinematics import Chain, Link
from dh_kinematics.node_logic.joint_states import JointStatesFlow, Wanted
from dh_kinematics.node_logic.monitors.effort import EffortMonitor
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, STALE, WARN
from dh_kinematics.node_logic.monitors.sample import Sample
from dh_kinematics.node_logic.rate_estimate import RateEstimate
from dh_kinematics.node_logic.sweep import sweep
from dh_kinematics.parameters import validation
from dh_kinematics.parameters.specs import NODE
from helpers import CONFIG_FILES, joint_state_cdr, PACKAGE
import numpy as np
import pytest

SECOND = 1_000_000_000
STEP_NS = SECOND // 64
BASE = 1_790_000_000 * SECOND  # a stamp of today: far from 0, where float seconds lose bits
PUMA = Chain.from_yaml(PACKAGE / 'config' / CONFIG_FILES['puma560'])
# The residual of the expected efforts: the observer has tests of its own.
DEFAULTS = dict({spec.name: spec.default for spec in NODE}, **{'effort.estimator': 'acceleration'})
Q0 = np.array([0.5, -0.25, 0.25, 0.125, -0.5, 0.25])
V0 = np.array([0.25, -0.5, 0.125, 0.5, 0.25, -0.125])
A = np.array([0.75, 0.5, -0.25, 1.5, -1.0, 0.5])


def _flow(chain=PUMA, wanted=Wanted(True, True, True), **settings):
    flow = JointStatesFlow(chain.joint_names, None, print, 0)
    flow.configure(chain, dict(DEFAULTS, **settings))
    flow.wanted = wanted
    return flow


def _state(k):
    t = k / 64
    return Q0 + V0 * t + A * t * t / 2, V0 + A * t


def _send(flow, k, velocities=True, efforts=(), chain=PUMA):
    q, qd = _state(k)
    stamp = BASE + k * STEP_NS
    data = joint_state_cdr(stamp, list(chain.joint_names), q.tolist(),
                           qd.tolist() if velocities else [], list(efforts))
    return flow.handle(data, stamp, stamp)


def test_gravity_and_expected_efforts_equal_the_core_with_given_velocities():
    flow = _flow(PUMA.with_payload(1.5, [0.0, 0.0, 0.05], [0.01, 0.01, 0.01]))
    loaded = PUMA.with_payload(1.5, [0.0, 0.0, 0.05], [0.01, 0.01, 0.01])
    flow.configure(loaded, DEFAULTS)
    first = _send(flow, 0, chain=loaded)
    assert first.expected is None  # no acceleration yet
    np.testing.assert_allclose(first.gravity[2], loaded.gravload(_state(0)[0]), atol=1e-9)
    for k in range(1, 6):
        outcome = _send(flow, k, chain=loaded)
        q, qd = _state(k)
        assert outcome.expected[:2] == (tuple(range(6)), BASE + k * STEP_NS)
        np.testing.assert_allclose(outcome.expected[2], loaded.rne(q, qd, A), atol=1e-9)
        np.testing.assert_allclose(outcome.gravity[2], loaded.gravload(q), atol=1e-9)
        assert outcome.residual is None  # no efforts in the message


def test_without_velocities_they_are_differenced_half_a_sample_late():
    flow = _flow()
    assert _send(flow, 0, velocities=False).expected is None
    assert _send(flow, 1, velocities=False).expected is None  # a velocity, no acceleration
    for k in range(2, 6):
        outcome = _send(flow, k, velocities=False)
        q, _ = _state(k)
        midpoint = V0 + A * (k - 0.5) / 64
        np.testing.assert_allclose(outcome.expected[2], PUMA.rne(q, midpoint, A), atol=1e-9)


def test_residuals_are_measured_minus_expected_for_the_joints_with_an_effort():
    flow = _flow()
    for k in range(4):
        q, qd = _state(k)
        measured = PUMA.rne(q, qd, A) + [0.0, 5.0, 0.0, 0.0, -2.0, 0.0]
        outcome = _send(flow, k, efforts=measured)
    assert outcome.residual[0] == tuple(range(6))
    np.testing.assert_allclose(outcome.residual[2], [0.0, 5.0, 0.0, 0.0, -2.0, 0.0],
                               atol=1e-9)


def test_nothing_is_computed_while_nobody_subscribes_and_the_monitor_is_off():
    flow = _flow(wanted=Wanted(False, False, False))
    for k in range(4):
        outcome = _send(flow, k, efforts=[1.0] * 6)
        assert outcome.gravity is outcome.expected is outcome.residual is None
    assert flow.rates.qd == [None] * 6  # not even the estimate runs
    flow.wanted = Wanted(True, False, False)
    outcome = _send(flow, 4)
    assert outcome.gravity is not None and outcome.expected is None
    assert flow.rates.qd == [None] * 6


def test_no_tf_or_friction_is_computed_while_nobody_subscribes(monkeypatch):
    flow = _flow(wanted=Wanted(False, False, False, tf=False, friction=False))
    monkeypatch.setattr(PUMA.dynamic_constants.table, 'poses', None)  # a call would raise
    q, _ = _state(0)
    q[1] = PUMA.qlim[1, 1] + 0.1  # beyond the upper limit: the monitor still judges it
    qd = [1e308] + [0.5] * 5  # its friction, computed, would overflow and be counted
    outcome = flow.handle(joint_state_cdr(BASE, list(PUMA.joint_names), q.tolist(), qd),
                          BASE, BASE)
    assert outcome.tf is outcome.friction is None
    assert not flow.cache.counts['non_finite_result']
    assert outcome.diagnostics and flow.limits.statuses(BASE, BASE)[1].level == ERROR
    monkeypatch.undo()
    flow.wanted = Wanted(False, False, False, tf=True, friction=False)
    outcome = _send(flow, 1)
    assert outcome.tf is not None and outcome.friction is None


def test_a_joint_without_a_position_yet_or_a_non_finite_one_gives_no_efforts():
    flow = _flow()
    data = joint_state_cdr(SECOND, list(PUMA.joint_names[:3]), [0.1, 0.2, 0.3], [0.0] * 3)
    assert flow.handle(data, SECOND, SECOND).gravity is None
    for k in range(3):
        _send(flow, k + 1)
    q, qd = _state(4)
    q[2] = math.nan
    stamp = BASE + 4 * STEP_NS
    data = joint_state_cdr(stamp, list(PUMA.joint_names), q.tolist(), qd.tolist())
    outcome = flow.handle(data, stamp, stamp)
    assert outcome.gravity is None and outcome.expected is None


def _monitor(warn=(10.0,), error=(20.0,), hold=0.1, hysteresis=0.2, n=2):
    monitor = EffortMonitor(n)
    chain = Chain([Link(name='a'), Link(joint='prismatic', name='b')][:n])
    monitor.configure(chain, dict(DEFAULTS, **{
        'effort.warn': list(warn), 'effort.error': list(error), 'effort.hold': hold,
        'effort.hysteresis': hysteresis}))
    return monitor


def _levels(monitor, residuals, joint=0, step_ns=SECOND // 100):
    """Feed residuals to one joint 10 ms apart; return the level after each."""
    levels = []
    for k, residual in enumerate(residuals):
        monitor.update([joint], [residual], [0.0], k * step_ns)
        levels.append(int(monitor.levels[joint]))
    return levels


def test_a_level_rises_only_after_the_hold_and_clears_below_the_hysteresis_band():
    # 10 ms apart, hold 0.1 s: the level rises on the 11th sample past a threshold.
    assert _levels(_monitor(), [25.0] * 12) == [OK] * 10 + [ERROR] * 2
    assert _levels(_monitor(), [15.0] * 11) == [OK] * 10 + [WARN]
    spike = [25.0] * 5 + [0.0] + [25.0] * 5
    assert _levels(_monitor(), spike) == [OK] * 11  # a spike, or a broken run, does not alarm
    # Held ERROR; it stays while above 0.8 * 20 = 16, drops to WARN above 0.8 * 10 = 8.
    levels = _levels(_monitor(), [25.0] * 11 + [17.0, 15.0, 9.0, 7.9, 25.0])
    assert levels[10:] == [ERROR, ERROR, WARN, WARN, OK, OK]
    assert _levels(_monitor(hold=0.0), [-12.0, -21.0, 5.0]) == [WARN, ERROR, OK]


def test_the_hold_restarts_when_the_stamps_clock_jumps_back():
    monitor = _monitor()
    monitor.update([0], [25.0], [0.0], 600 * SECOND)  # past ERROR since 600 s
    monitor.restart_holds()  # the clock went back to 0
    assert _levels(monitor, [25.0] * 12) == [OK] * 10 + [ERROR] * 2  # held from the jump on


def test_thresholds_are_per_joint_and_inf_is_off():
    monitor = _monitor(warn=(math.inf, 1.0), error=(math.inf, 2.0), hold=0.0)
    monitor.update([0, 1], [1e6, 1.5], [0.0, 0.0], 0)
    assert monitor.levels.tolist() == [OK, WARN] and monitor.active
    assert monitor.describe(1) == 'effort residual +1.5 N'  # prismatic: a force
    assert dict(monitor.values(1))['effort_residual'] == '1.5'
    assert not _monitor(warn=(math.inf,), error=(math.inf,)).active


@pytest.mark.parametrize('settings, message', [
    ({'effort.warn': [1.0, 2.0, 3.0]}, 'effort.warn: must hold 1 value'),
    ({'effort.warn': [0.0]}, r'effort.warn: must be > 0'),
    ({'effort.error': [-1.0, 5.0]}, r'effort.error: must be > 0'),
    ({'effort.warn': [math.nan]}, r'effort.warn: must be > 0, or .inf for off'),
    ({'effort.error': [-math.inf]}, r'effort.error: must be > 0, or .inf for off'),
    ({'effort.warn': [10.0], 'effort.error': [5.0] + [20.0] * 5}, 'below its effort.warn'),
    ({'effort.rest_warn': [1.0, 2.0]}, 'effort.rest_warn: must hold 1 value'),
    ({'effort.rest_warn': [3.0], 'effort.rest_error': [2.0]}, 'below its effort.rest_warn'),
    ({'effort.rest_speed': -0.1}, 'effort.rest_speed'),
    ({'effort.warn': [5.0], 'effort.rest_speed': 0.05}, 'effort.rest_warn: .* watched at rest'),
    ({'effort.warn': [5.0], 'effort.rest_speed': 0.05, 'effort.rest_warn': [math.inf] + [1.0] * 5},
     'effort.rest_warn: for joint 1: .* got inf'),
    ({'effort.velocity_noise': [0.001] * 2, 'effort.effort_noise': [0.05]},
     'effort.velocity_noise: must hold 1 value'),
    ({'effort.velocity_noise': [0.0], 'effort.effort_noise': [0.05]},
     'effort.velocity_noise: must be > 0'),
    ({'effort.velocity_noise': [0.001]}, 'effort.effort_noise: .*needed with '
     "effort.velocity_noise: the tool wrench's deviation takes both"),
    ({'effort.effort_noise': [0.05]}, 'effort.velocity_noise: .*needed with effort.effort_noise'),
    ({'effort.velocity_noise': [0.001], 'effort.effort_noise': [math.inf] + [0.05] * 5},
     'effort.effort_noise: must be known for every joint, or for none'),
])
def test_bad_thresholds_are_refused_naming_the_parameter(settings, message):
    with pytest.raises(ValueError, match=message):
        validation.checked(dict(PUMA.to_params(), **settings), NODE)


def test_at_rest_the_rest_thresholds_judge_and_an_unknown_rate_is_motion():
    # Franka's two phases: below effort.rest_speed on every joint, the rest thresholds.
    monitor = EffortMonitor(2)
    chain = Chain([Link(name='a'), Link(name='b')])
    monitor.configure(chain, dict(DEFAULTS, **{
        'effort.warn': [10.0], 'effort.error': [20.0], 'effort.rest_warn': [2.0],
        'effort.rest_error': [4.0], 'effort.rest_speed': 0.05, 'effort.hold': 0.0}))

    def judged(qd, residual):
        monitor.forget()
        rates = RateEstimate(2)
        rates.qd = list(qd)
        sample = Sample(None, rates, None, ([0, 1], [residual, 0.0], None, 0, [residual, 0.0],
                                            True), False)
        monitor.judge(sample)
        return int(monitor.levels[0]), dict(monitor.values(0))['effort_warn']
    assert judged([0.01, -0.04], 3.0) == (WARN, '2')
    assert judged([0.01, -0.04], 5.0) == (ERROR, '2')
    assert judged([0.01, 0.06], 5.0) == (OK, '10')  # one joint moving: the arm moves
    assert judged([0.01, None], 5.0) == (OK, '10')
    assert judged([0.01, 0.06], 12.0) == (WARN, '10')


def test_the_node_parameters_check_the_thresholds_against_the_model():
    given = dict(PUMA.to_params(), **{'effort.warn': [1.0, 2.0]})
    with pytest.raises(ValueError, match='or 6 \\(one per joint\\), got 2'):
        validation.checked(given, NODE)
    parameters = validation.checked(dict(PUMA.to_params()), NODE)
    assert parameters.values['effort.warn'] == [math.inf]
    with pytest.raises(ValueError, match='effort.hold'):
        validation.changed(parameters, {'effort.hold': -1.0})
    changed, new = validation.changed(parameters, {'payload.mass': 2.0,
                                                   'payload.com': [0.0, 0.0, 0.1]})
    assert set(new) == {'payload.mass', 'payload.com'} and changed.chain.payload.mass == 2.0
    with pytest.raises(ValueError, match='payload.mass'):
        validation.changed(parameters, {'payload.mass': -2.0})


def test_the_statuses_say_which_joint_and_by_how_much():
    flow = _flow(**{'effort.warn': [5.0], 'effort.error': [30.0], 'effort.hold': 0.0})
    for k in range(4):
        q, qd = _state(k)
        measured = PUMA.rne(q, qd, A) + [0.0, 12.5, 0.0, 0.0, 0.0, 0.0]
        outcome = _send(flow, k, efforts=measured)
    statuses = flow.statuses(BASE + 3 * STEP_NS, SECOND)
    joint2, arm = statuses[1], statuses[-1]
    assert joint2.level == WARN and joint2.message == 'effort residual +12.5 N m'
    values = dict(joint2.values)
    assert values['effort_residual'] == '12.5' and values['effort_warn'] == '5'
    assert float(values['expected_effort']) == pytest.approx(outcome.expected[2][1], abs=1e-4)
    assert arm.level == WARN and arm.message == 'WARN: joint2 (effort residual +12.5 N m)'
    assert statuses[0].level == OK and 'effort_residual' in dict(statuses[0].values)


def test_stale_stays_stale_and_limits_and_efforts_combine():
    flow = _flow(**{'effort.warn': [5.0], 'effort.hold': 0.0})
    flow.limits.efforts.update([0], [100.0], [0.0], SECOND)
    statuses = flow.statuses(SECOND, SECOND)
    assert statuses[0].level == STALE  # no joint_states yet


def test_the_filter_lag_on_the_sweep_is_the_first_order_lag_plus_half_a_sample():
    """sim_arm's sweep at 1 kHz: the estimate lags the true acceleration as documented."""
    period, rate, cutoff = 10.0, 1000.0, 10.0
    qlim = PUMA.qlim
    prismatic = [link.isprismatic() for link in PUMA.links]
    motion = RateEstimate(PUMA.n)
    motion.configure(cutoff)
    times = np.arange(0, 4 * rate) / rate
    estimates, truth = [], []
    for t in times:
        q, qd, qdd = sweep(t, qlim, prismatic, period)
        motion.update(range(PUMA.n), q.tolist(), int(round(t * 1e9)), dict(enumerate(qd)))
        estimates.append(motion.qdd[0] if motion.ready() else math.nan)
        truth.append(qdd[0])
    estimates, truth = np.array(estimates[1000:]), np.array(truth[1000:])
    lags = np.arange(0, 60)  # samples of 1 ms
    errors = [np.abs(estimates[60:] - np.roll(truth, lag)[60:]).max() for lag in lags]
    dt = 1.0 / rate
    expected = (dt / math.expm1(2 * math.pi * cutoff * dt) + dt / 2) * rate  # in samples
    assert abs(lags[int(np.argmin(errors))] - expected) <= 0.5
