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

"""The per-joint monitor of velocity, acceleration, effort and soft limits, without ROS."""

from dh_kinematics import Chain, Link
from dh_kinematics.node_logic.joint_states import JointStatesFlow, NONE_WANTED
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, ratio_level, WARN
from dh_kinematics.node_logic.monitors.motion import MotionLimits
from dh_kinematics.parameters.specs import NODE
from helpers import joint_state_cdr
import numpy as np

DEFAULTS = {spec.name: spec.default for spec in NODE}


def _monitor(**fields):
    links = [Link(qlim=(-2.0, 2.0), name='a', **fields),
             Link(joint='prismatic', qlim=(0.0, 1.0), name='b')]
    monitor = MotionLimits(2)
    monitor.configure(Chain(links), dict(DEFAULTS, **{'limits.warn_fraction': 0.9,
                                                      'limits.hysteresis': 0.05}))
    return monitor


def test_a_ratio_rises_at_once_and_clears_past_the_hysteresis():
    levels, level = [], OK
    for ratio in (0.5, 0.91, 0.88, 0.84, 1.01, 0.97, 0.94, 0.5):
        level = ratio_level(ratio, level, 0.9, 0.05)
        levels.append(level)
    assert levels == [OK, WARN, WARN, OK, ERROR, ERROR, WARN, OK]


def test_nothing_is_watched_without_a_limit():
    monitor = _monitor()
    assert not monitor.active
    assert not monitor.update([0, 1], velocities=[100.0, 100.0])
    assert monitor.levels == [OK, OK] and monitor.describe(0) == ''


def test_velocity_crosses_its_limit_both_ways_and_dither_does_not_flap():
    monitor = _monitor(velocity_limit=2.5)
    assert monitor.active and monitor.watches('velocity') and not monitor.watches('effort')
    seen = []
    for velocity in (1.0, 2.3, -2.61, 2.49, 2.51, 2.49, 2.51, 2.3, 2.2, 0.5):
        changed = monitor.update([0], velocities=[velocity])
        seen.append((monitor.levels[0], changed))
    assert seen == [(OK, False), (WARN, True), (ERROR, True), (ERROR, False), (ERROR, False),
                    (ERROR, False), (ERROR, False), (WARN, True), (WARN, False), (OK, True)]
    monitor.update([0], velocities=[-2.61])
    assert monitor.describe(0) == 'velocity -2.61 rad/s above limit 2.5 by 0.11'
    assert dict(monitor.values(0)) == {'velocity': '-2.61', 'velocity_limit': '2.5'}
    monitor.update([0], velocities=[2.4])
    assert monitor.describe(0) == 'velocity 2.4 rad/s at 96% of limit 2.5'


def test_acceleration_is_judged_against_deceleration_while_slowing_down():
    monitor = _monitor(acceleration_limit=5.0, deceleration_limit=10.0)
    monitor.update([0], velocities=[1.0], accelerations=[6.0])  # speeding up: 6 > 5
    assert monitor.levels[0] == ERROR
    monitor.update([0], velocities=[1.0], accelerations=[-6.0])  # slowing down: 6 < 10
    assert monitor.levels[0] == OK
    monitor.update([0], velocities=[1.0], accelerations=[None])  # not known yet: kept
    assert monitor.levels[0] == OK
    monitor.update([0], velocities=[1.0], accelerations=[-9.5])  # slowing down, at 95 %
    assert monitor.levels[0] == WARN
    assert monitor.describe(0) == 'acceleration -9.5 rad/s^2 at 95% of limit 10'


def test_a_deceleration_limit_alone_is_watched_while_slowing_down():
    # Without an acceleration limit, the short way for quiet values took any acceleration as
    # within reach: a joint braking past its deceleration limit read OK.
    monitor = _monitor(deceleration_limit=4.0)
    assert monitor.active and monitor.watches('acceleration')
    monitor.update([0], velocities=[1.0], accelerations=[6.0])  # speeding up: no limit
    assert monitor.levels[0] == OK
    assert monitor.update([0], velocities=[1.0], accelerations=[-5.0])  # braking: 5 > 4
    assert monitor.levels[0] == ERROR
    assert monitor.describe(0) == 'acceleration -5 rad/s^2 above limit 4 by 1'


def test_effort_is_the_messages_against_its_limit_in_the_joints_unit():
    links = [Link(name='a'), Link(joint='prismatic', effort_limit=100.0, name='b')]
    monitor = MotionLimits(2)
    monitor.configure(Chain(links), DEFAULTS)
    monitor.update([0, 1], efforts=[1e6, -120.0])
    assert monitor.levels == [OK, ERROR]
    assert monitor.describe(1) == 'effort -120 N above limit 100 by 20'
    levels = []
    for effort in (96.0, -99.0, 92.0, 89.0, 86.0, 84.0, 91.0):  # back down, and up again
        monitor.update([1], efforts=[effort])
        levels.append(monitor.levels[1])
    assert levels == [ERROR, ERROR, WARN, WARN, WARN, OK, WARN]


def test_soft_limits_warn_outside_the_band_and_err_beyond_the_limiters_velocity():
    monitor = _monitor(soft_limits=(-1.5, 1.5), k_position=10.0, velocity_limit=3.0)
    monitor.update([0], positions=[1.0], velocities=[2.0])
    assert monitor.levels[0] == OK and monitor.soft_velocity_bounds(0) == (-3.0, 3.0)
    monitor.update([0], positions=[1.4], velocities=[1.5])  # faster than 10 * 0.1 rad/s
    assert monitor.levels[0] == ERROR
    assert monitor.describe(0) == 'velocity 1.5 rad/s beyond the soft limiter bounds [-3, 1]'
    monitor.update([0], positions=[1.6], velocities=[-0.5])  # outside, on its way back
    assert monitor.levels[0] == WARN
    assert monitor.describe(0) == 'position 1.6 rad above soft upper limit 1.5'
    monitor.update([0], positions=[1.65], velocities=[0.2])  # outside and going further
    assert monitor.levels[0] == ERROR
    assert monitor.describe(0) == 'position 1.65 rad above soft upper limit 1.5, moving away'
    only_band = _monitor(soft_limits=(-1.5, 1.5))  # k_position 0: the band alone
    only_band.update([0], positions=[-1.4], velocities=[-1.0])
    assert only_band.levels[0] == OK
    only_band.update([0], positions=[-1.6], velocities=[0.5])
    assert only_band.levels[0] == WARN


def test_a_velocity_dithering_at_its_threshold_publishes_one_change_not_one_per_message():
    chain = Chain([Link(qlim=(-2.0, 2.0), velocity_limit=2.5, name='a')])
    settings = dict({spec.name: spec.default for spec in NODE}, **{
        'diagnostics.period': 60.0})
    flow = JointStatesFlow(chain.joint_names, None, print, 0)
    flow.configure(chain, settings)
    flow.wanted = NONE_WANTED
    second = 1_000_000_000
    stamp, mono, published, levels = 10 * second, 0, 0, []
    for k in range(200):  # 1 kHz; the velocity dithers about the ERROR threshold, +-1 mrad/s
        stamp += second // 1000
        mono += second // 1000
        data = joint_state_cdr(stamp, ['a'], [0.0], [2.5 + (0.001 if k % 2 else -0.001)])
        outcome = flow.handle(data, stamp + 1000, mono)
        if outcome.diagnostics:
            published += 1
            levels.append([status.level for status in flow.statuses(stamp, mono)][0])
        if flow.tick(stamp, mono):  # every 0.1 s the tick may publish what waits
            published += 1
            levels.append([status.level for status in flow.statuses(stamp, mono)][0])
    # The first message (2.499 rad/s) is a WARN, the second an ERROR; then the dither changes
    # nothing: 2 publications for 200 messages, where a level without hysteresis would flap.
    assert levels == [WARN, ERROR] and published == 2


def test_noise_at_a_soft_limit_does_not_flap():
    # Issue 41 (7): +-1e-6 rad of noise at the soft limit changed the level 21 times in 4 s.
    monitor = _monitor(soft_limits=(-1.5, 1.5), k_position=10.0, velocity_limit=3.0)
    rng = np.random.default_rng(7)
    levels, q = [], 1.5 + rng.uniform(-1e-6, 1e-6, 400)  # 4 s at 100 Hz, positions only
    velocities = np.diff(q, prepend=q[0]) / 0.01
    for position, velocity in zip(q, velocities):
        monitor.update([0], positions=[position], velocities=[velocity])
        levels.append(monitor.levels[0])
    changes = int(np.count_nonzero(np.diff(levels)))
    assert changes <= 1 and set(levels) <= {OK, WARN}, levels
    monitor.update([0], positions=[1.5 - 0.005], velocities=[0.0])  # not back in by 0.01 rad
    assert monitor.levels[0] == WARN
    monitor.update([0], positions=[1.5 - 0.011], velocities=[0.0])
    assert monitor.levels[0] == OK
    monitor.update([0], positions=[1.6], velocities=[0.005])  # outward within the dead band
    assert monitor.levels[0] == WARN
    monitor.update([0], positions=[1.6], velocities=[0.02])
    assert monitor.levels[0] == ERROR


def test_a_level_held_past_a_gap_is_described_with_its_value_unknown():
    # The estimate restarts after a gap in the stamps; the level it had is held until it is
    # judged again, and the status says so rather than failing on the unknown value.
    chain = Chain([Link(qlim=(-2.0, 2.0), acceleration_limit=5.0, name='a')])
    flow = JointStatesFlow(chain.joint_names, None, print, 0)
    flow.configure(chain, DEFAULTS)
    flow.wanted = NONE_WANTED
    millisecond = 1_000_000
    stamp = 10_000 * millisecond
    for k in range(100):  # 10 rad/s^2 from rest
        t = k / 1000.0
        flow.handle(joint_state_cdr(stamp, ['a'], [5.0 * t * t], [10.0 * t]), stamp, stamp)
        stamp += millisecond
    assert [status.level for status in flow.statuses(stamp, stamp)][0] == ERROR
    stamp += 3000 * millisecond  # a gap past the stale timeout
    flow.handle(joint_state_cdr(stamp, ['a'], [0.05], [1.0]), stamp, stamp)
    status = flow.statuses(stamp, stamp)[0]
    assert status.level == ERROR
    assert status.message == 'acceleration unknown; limit 5 rad/s^2'
