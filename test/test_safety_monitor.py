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

"""The safety monitor's levels and texts, without ROS: each limit crossed both ways, dithered."""

import math
import re

from dh_kinematics import Chain, InvalidFieldError, Link
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, WARN
from dh_kinematics.node_logic.monitors.safety import Safety, TASKS
from dh_kinematics.parameters.specs import NODE
from helpers import PACKAGE
import numpy as np
import pytest

ARM = Chain([Link(a=0.5, alpha=math.pi / 2, d=0.3, m=4.0, r=[-0.25, 0.0, 0.0], I=[0.02] * 3,
                  acceleration_limit=4.0, name='j1'),
             Link(a=0.4, m=3.0, r=[-0.2, 0.0, 0.0], I=[0.01] * 3, Jm=1e-4, G=50.0,
                  acceleration_limit=6.0, name='j2'),
             Link(a=0.2, m=1.0, r=[-0.1, 0.0, 0.0], I=[0.005] * 3, acceleration_limit=8.0,
                  deceleration_limit=10.0, name='j3')], tool_frame='tcp')
Q, QD, EFFORTS = [0.3, 0.6, -0.8], np.array([0.4, -0.5, 0.7]), [5.0, -3.0, 1.0]
DEFAULTS = {spec.name: spec.default for spec in NODE}
# A dithered stream of ratios to the limit, warn 0.9, hysteresis 0.05: the levels it gives.
RATIOS = (0.5, 0.95, 0.88, 0.84, 1.05, 0.96, 0.94, 0.9, 0.84, 0.95, 1.01, 0.5)
LEVELS = [OK, WARN, WARN, OK, ERROR, ERROR, WARN, WARN, OK, WARN, ERROR, OK]


def _monitor(**settings):
    safety = Safety()
    safety.configure(ARM, dict(DEFAULTS, **settings))
    return safety


def _value(task, values):
    """Return the value a task's level is a ratio of (the nearest plane's: its distance)."""
    return {'frame_speed': lambda: values['frame_speed'][0],
            'momentum': lambda: np.linalg.norm(values['momentum']),
            'kinetic_energy': lambda: values['kinetic_energy'],
            'power': lambda: abs(values['power']),
            'stopping': lambda: values['stopping_time'],
            'contact': lambda: values['tool_speed'] / values['contact_speed']}[task]()


# Each task alone, its limit the value at QD (the contact's is a ratio: 1); then QD scaled so
# that the value is each ratio of the limit: every value is linear in QD but the energy.
CASES = {'frame_speed': ('safety.frame_speed_limits.link2', 1),
         'momentum': ('safety.momentum_limit', 1),
         'kinetic_energy': ('safety.kinetic_energy_limit', 2),
         'power': ('safety.power_limit', 1),
         'stopping': ('safety.stopping_time_limit', 1),
         'contact': ('safety.contact.body_region', 1)}


def _at_the_limit(task):
    """Return the task's monitor alone and the joint rates at which its value is the limit."""
    name, _ = CASES[task]
    if task == 'contact':
        safety = _monitor(**{name: 'hands_fingers'})
        reference = _value(task, safety.measure(Q, QD, EFFORTS))
        return safety, QD / reference  # the tool at the permitted speed
    reference = _value(task, _monitor(**{name: 1.0}).measure(Q, QD, EFFORTS))
    return _monitor(**{name: reference}), QD


@pytest.mark.parametrize('task', list(CASES))
def test_each_level_rises_past_its_limit_and_clears_past_the_hysteresis(task):
    safety, base = _at_the_limit(task)
    assert safety.active and list(safety.levels) == [task]
    seen = []
    for ratio in RATIOS:
        safety.update(Q, base * ratio ** (1.0 / CASES[task][1]), EFFORTS)
        seen.append(safety.levels[task])
    assert seen == LEVELS
    status, = safety.statuses()
    assert status.task == task and status.level == OK


@pytest.mark.parametrize('task', list(CASES))
def test_a_value_just_past_its_limit_reads_above_it_and_just_short_99_percent(task):
    safety, base = _at_the_limit(task)
    for ratio, level, words in ((1.002, ERROR, 'above limit '), (0.998, ERROR, '99% of limit ')):
        safety.update(Q, base * ratio ** (1.0 / CASES[task][1]), EFFORTS)
        status, = safety.statuses()
        assert status.level == level and words in status.message, status.message
        assert '100%' not in status.message


@pytest.mark.parametrize('task', list(CASES))
def test_an_arm_that_stops_past_a_limit_is_judged_again_at_rest(task):
    safety, base = _at_the_limit(task)
    safety.update(Q, base * 1.5, EFFORTS)
    assert safety.levels[task] == ERROR
    safety.update(Q, np.zeros(3), EFFORTS)  # at rest nothing moves: every figure is 0
    status, = safety.statuses()
    assert status.level == OK, status.message


def test_the_planes_level_rises_near_and_past_a_plane_and_clears_back_by_the_hysteresis():
    # A lift (a prismatic joint along z) carries the tool at height q1 above the floor z = 0:
    # WARN within 0.05 m, ERROR below it; ERROR clears 0.01 m back above, WARN 0.06 m above.
    lift = Chain([Link(joint='prismatic', qlim=(-1.0, 1.0), m=5.0, name='lift'),
                  Link(a=0.3, m=1.0, name='j2')], tool_frame='tcp')
    safety = Safety()
    safety.configure(lift, dict(DEFAULTS, **{'safety.planes.floor': [0.0, 0.0, 1.0, 0.0],
                                             'safety.plane_frames': ['tcp']}))
    heights = (0.2, 0.04, 0.045, 0.035, -0.01, 0.005, 0.015, 0.045, 0.055, 0.07)
    seen = []
    for height in heights:
        safety.update([height, 0.4], [0.0, 0.0])
        seen.append(safety.levels['planes'])
    assert seen == [OK, WARN, WARN, WARN, ERROR, ERROR, WARN, WARN, WARN, OK]
    status, = safety.statuses()
    assert status.message == 'tcp 0.07 m from plane floor'
    # A sphere on the tool 0.03 m in radius comes 0.03 m nearer.
    safety.configure(lift, dict(DEFAULTS, **{'safety.planes.floor': [0.0, 0.0, 1.0, 0.0],
                                             'safety.tool_spheres': [0.0, 0.0, 0.0, 0.03]}))
    safety.update([0.07, 0.4], [0.0, 0.0])
    assert safety.levels['planes'] == WARN
    assert safety.statuses()[0].message == 'tool_sphere0 0.04 m from plane floor'


def test_the_tool_direction_is_judged_with_the_planes():
    R = ARM.fkine(Q)[:3, :3]
    safety = _monitor(**{'safety.tool_direction.axis': R[:, 2].tolist(),
                         'safety.tool_direction.limit': 0.5})
    safety.update(Q, QD)
    assert safety.levels == {'planes': OK}
    safety = _monitor(**{'safety.tool_direction.axis': (-R[:, 2]).tolist(),
                         'safety.tool_direction.limit': 0.5})
    safety.update(Q, QD)
    assert safety.levels == {'planes': ERROR}
    assert safety.statuses()[0].message == ('tool 3.14 rad from its direction (above limit 0.5 '
                                            'by 2.64)')


def test_plane_distances_and_the_tool_direction_are_the_tool_poses():
    # Spheres off a turned tool, two tilted planes, a frame judged too: each distance is the
    # sphere's centre placed by fkine's tool pose, against the plane; the direction the angle
    # of fkine's z axis to the axis. Random configurations, every parameter moved.
    rng = np.random.default_rng(59)
    T_last_tool = np.eye(4)
    T_last_tool[:3, :3] = np.array([[0.0, -1.0, 0.0], [0.0, 0.0, -1.0], [1.0, 0.0, 0.0]])
    T_last_tool[:3, 3] = [0.05, -0.02, 0.12]
    arm = Chain(ARM.links, tool=T_last_tool, tool_frame='tcp')
    spheres = [[0.1, -0.03, 0.02, 0.04], [-0.02, 0.05, 0.2, 0.01]]
    planes = {'safety.planes.floor': [0.1, -0.2, 1.0, -0.4],
              'safety.planes.wall': [-1.0, 0.3, 0.1, -0.9]}
    axis = np.array([0.2, -0.5, 0.8])
    safety = Safety()
    safety.configure(arm, dict(DEFAULTS, **planes, **{
        'safety.plane_frames': ['link1'], 'safety.tool_spheres': sum(spheres, []),
        'safety.tool_direction.axis': axis.tolist(), 'safety.tool_direction.limit': 2.0}))
    for q in rng.uniform(-2.0, 2.0, (20, 3)):
        values = safety.measure(q.tolist(), [0.0] * 3)
        T_world_tool, T_world_link = arm.fkine(q), arm.fkine_all(q)[1]
        points = [T_world_link[:3, 3]] + [T_world_tool[:3, :3] @ s[:3] + T_world_tool[:3, 3]
                                          for s in spheres]
        radii = [0.0] + [s[3] for s in spheres]
        for row, plane in zip(values['plane_distances'], planes.values()):
            normal = np.array(plane[:3]) / np.linalg.norm(plane[:3])
            expected = [normal @ p - plane[3] - r
                        for p, r in zip(points, radii)]
            np.testing.assert_allclose(row, expected, atol=1e-12)
        z = T_world_tool[:3, 2]
        angle = math.acos(np.clip(z @ axis / np.linalg.norm(axis), -1.0, 1.0))
        assert values['tool_direction'] == pytest.approx(angle, abs=1e-9)


def test_power_is_the_size_of_what_the_joints_give_or_take_back():
    # Braking (the efforts against the rates) gives power back: the same size, watched alike.
    safety = _monitor(**{'safety.power_limit': 10.0})
    for qd in (QD, -QD):
        safety.update(Q, qd, EFFORTS)
        by_hand = abs(sum(effort * rate for effort, rate in zip(EFFORTS, qd)))
        assert safety.topic_values()[safety.labels.index('power')] == pytest.approx(by_hand)
        status, = safety.statuses()
        assert status.message == f'{by_hand:.3g} W ({round(10.0 * by_hand)}% of limit 10)'


def test_power_without_efforts_is_said_not_judged():
    safety = _monitor(**{'safety.power_limit': 1.0})
    safety.update(Q, QD * 100.0)
    status, = safety.statuses()
    assert status.level == OK
    assert status.message.startswith('not judged: joint_states carries no efforts')


@pytest.mark.parametrize('time_limit', [math.inf, 0.15])
def test_the_stopping_level_is_the_same_the_short_way(time_limit):
    # Where a bound on the tool's path settles the level, the path is not integrated; over a
    # random stream the levels are those the integral on every message gives, hysteresis and
    # all, with the stopping distance alone and beside a stopping time.
    from dh_kinematics.node_logic.monitors.levels import ratio_level

    limit = 0.02
    quick = _monitor(**{'safety.stopping_distance_limit': limit,
                        'safety.stopping_time_limit': time_limit})
    rng = np.random.default_rng(4)
    expected = OK
    for _ in range(300):
        q, qd = rng.uniform(-2.0, 2.0, 3), rng.uniform(-1.0, 1.0, 3) * rng.uniform(0.0, 1.5)
        quick.update(q, qd)
        exact = quick.measure(q, qd)
        ratio = max(exact['stopping_distance'] / limit, exact['stopping_time'] / time_limit)
        expected = ratio_level(ratio, expected, 0.9, 0.05)
        assert quick.levels['stopping'] == expected
        assert quick.topic_values()[quick.labels.index('stopping_distance')] == pytest.approx(
            exact['stopping_distance'], rel=1e-12)


def test_nothing_is_watched_by_default_and_the_topic_names_every_value():
    safety = _monitor()
    assert not safety.active and safety.statuses() == [] and safety.levels == {}
    assert safety.labels == ('momentum', 'momentum.x', 'momentum.y', 'momentum.z',
                             'kinetic_energy', 'power', 'tool_speed')
    safety = _monitor(**{'safety.frame_speed_limits.tcp': 1.0,
                         'safety.stopping_time_limit': 1.0, 'safety.planes.floor': [
                             0.0, 0.0, 1.0, 0.0], 'safety.plane_frames': ['link2', 'tcp'],
                         'safety.tool_spheres': [0.0, 0.0, 0.0, 0.05],
                         'safety.tool_direction.limit': 1.0,
                         'safety.contact.body_region': 'chest'})
    assert list(safety.levels) == [task for task in TASKS if task not in (
        'momentum', 'kinetic_energy', 'power', 'self_collision')]
    assert safety.labels == (
        'frame_speed.tcp', 'momentum', 'momentum.x', 'momentum.y', 'momentum.z',
        'kinetic_energy', 'power', 'stopping_time', 'stopping_distance', 'plane.floor.link2',
        'plane.floor.tcp', 'plane.floor.tool_sphere0', 'tool_direction', 'tool_speed',
        'reflected_mass', 'contact_speed')
    safety.update(Q, QD, EFFORTS)
    assert len(safety.topic_values()) == len(safety.labels)


@pytest.mark.parametrize('settings, match', [
    ({'safety.frame_speed_limits.gripper': 1.0}, r'safety\.frame_speed_limits\.gripper: must '
     r'be a frame of the arm'),
    ({'safety.planes.floor': [0.0, 0.0, 1.0]}, r'safety\.planes\.floor: must be \[nx, ny, nz, '
     r'offset\]'),
    ({'safety.planes.floor': [0.0, 0.0, 0.0, 1.0]}, r'safety\.planes\.floor\.normal: must be '
     r'a non-zero vector'),
    ({'safety.planes.floor': [0.0, 0.0, 1.0, 0.0], 'safety.plane_frames': ['nowhere']},
     r'safety\.plane_frames: must be a frame of the arm'),
    ({'safety.tool_spheres': [0.0, 0.0, 0.1]}, r'safety\.tool_spheres: must be x, y, z, radius'),
    ({'safety.tool_spheres': [0.0, 0.0, 0.1, -0.1]}, r'safety\.tool_spheres: must be finite, '
     r'each radius >= 0'),
    ({'safety.tool_direction.limit': 1.0, 'safety.tool_direction.axis': [0.0, 0.0, 0.0]},
     r'safety\.tool_direction\.normal: must be a non-zero vector'),
    ({'safety.contact.body_region': 'face'}, r'safety\.contact\.body_region: ISO/TS 15066 '
     r'permits no transient contact'),
    ({'safety.contact.body_region': 'knee'}, r'safety\.contact\.body_region: must be one of'),
])
def test_bad_settings_are_refused_naming_the_field(settings, match):
    # Where every door checks them (parameters.validation): the monitor takes what passed.
    with pytest.raises(InvalidFieldError, match=match):
        _checked(ARM, **settings)


def _checked(chain, **settings):
    from dh_kinematics.core.model_file.parameter_file import flatten
    from dh_kinematics.parameters import validation
    return validation.checked(dict(flatten(chain.to_params()), **settings), NODE)


@pytest.mark.parametrize('value', [math.nan, -math.inf, 0.0, -1.0])
def test_no_value_but_inf_switches_a_limit_off(value):
    # Issue 58 (1): NaN and -inf passed every check and the status was simply gone.
    limits = [spec.name for spec in NODE if spec.limit] + ['safety.frame_speed_limits.tcp']
    assert len(limits) == 14  # the effort noises among them: a deviation is > 0
    for name in limits:
        given = [value] if name.startswith('effort.') else value
        with pytest.raises(InvalidFieldError, match=rf'^{re.escape(name)}: must be'):
            _checked(ARM, **{name: given})
    watched = _checked(ARM, **{'safety.momentum_limit': 1.0})
    off = _checked(ARM, **{'safety.momentum_limit': math.inf})
    assert [list(_configured(p.settings).levels) for p in (watched, off)] == [['momentum'], []]


def _configured(settings):
    safety = Safety()
    safety.configure(ARM, settings)
    return safety


def test_a_stop_needs_every_joints_deceleration_and_energy_needs_masses():
    bare = Chain([Link(a=0.5, name='j1'), Link(a=0.4, name='j2')])
    with pytest.raises(InvalidFieldError, match=r'j1\.deceleration_limit: is needed for the '
                       r'stopping time'):
        _checked(bare, **{'safety.stopping_distance_limit': 1.0})
    with pytest.raises(InvalidFieldError, match="needs the links' masses"):
        _checked(bare, **{'safety.kinetic_energy_limit': 1.0})


def test_the_ur5_preset_is_what_a_ur_user_sets():
    # config/ur5_safety.yaml beside the model, read as the node reads its --params-file's.
    from dh_kinematics.cli.models import load
    from dh_kinematics.parameters import validation

    config = PACKAGE / 'config'
    chain, _, given = load([config / 'ur5.yaml', config / 'ur5_safety.yaml'])
    settings = validation.checked(given, NODE).settings
    assert settings['safety.momentum_limit'] == 25.0 and settings['safety.power_limit'] == 300.0
    assert (settings['safety.stopping_time_limit'], settings['safety.stopping_distance_limit'],
            settings['safety.frame_speed_limits.tool0'],
            settings['safety.frame_speed_limits.link2']) == (0.4, 0.5, 1.5, 1.5)
    assert all(link.deceleration_limit == 8.0 for link in chain.links)
    safety = Safety()
    safety.configure(chain, settings)
    assert list(safety.levels) == ['frame_speed', 'momentum', 'power', 'stopping', 'planes',
                                   'contact']
    home = chain.fkine(np.zeros(6))  # the UR5 stretched out flat at the base's height...
    safety.update([0.0, -1.5707963267948966, 0.0, -1.5707963267948966, 0.0, 0.0], [0.0] * 6)
    assert home[2, 3] < 0.1 and safety.levels['planes'] == OK  # ...but at home, well above


def test_a_flapping_safety_level_is_published_at_most_every_interval_and_none_is_lost():
    # The momentum crossing its limit both ways every 10 ms, through the node's message path:
    # the diagnostics go out at most once per CHANGE_INTERVAL_S, the last level with them.
    from dh_kinematics.node_logic.joint_states import JointStatesFlow
    from dh_kinematics.node_logic.schedule import CHANGE_INTERVAL_S, TICK_S
    from helpers import joint_state_cdr

    limit = float(np.linalg.norm(_monitor().measure(Q, QD)['momentum']))
    flow = JointStatesFlow(ARM.joint_names, None, lambda text: None, 0)
    flow.configure(ARM, dict(DEFAULTS, **{'safety.momentum_limit': limit}))
    ms, published, levels = 1_000_000, [], []
    now = 1_000 * ms

    def publish():
        published.append(now)
        status = next(s for s in flow.statuses(now, now) if s.task == 'momentum')
        levels.append(status.level)
    for k in range(41):  # 0.5 and 1.5 of the limit in turn, ending past it
        now += 10 * ms
        scale = 1.5 if k % 2 == 0 else 0.5
        data = joint_state_cdr(now, ARM.joint_names, Q, (QD * scale).tolist())
        if flow.handle(data, now, now).diagnostics:
            publish()
        if flow.tick(now, now):
            publish()
    for _ in range(int(CHANGE_INTERVAL_S / TICK_S) + 1):  # the node's timer goes on ticking
        now += int(TICK_S * 1e9)
        if flow.tick(now, now):
            publish()
    gaps = np.diff(published)
    assert len(published) >= 4 and (gaps >= CHANGE_INTERVAL_S * 1e9 - 1).all(), gaps
    assert levels[-1] == ERROR  # the last change went out


def test_the_contact_level_is_the_same_the_short_way():
    # Below the speed the region's own mass permits (its WARN fraction), the reflected mass is
    # not computed; over a random stream the levels are those computing it on every message.
    from dh_kinematics.node_logic.monitors.levels import ratio_level

    quick = _monitor(**{'safety.contact.body_region': 'hands_fingers'})
    rng = np.random.default_rng(5)
    expected, seen = OK, set()
    for _ in range(300):
        q, qd = rng.uniform(-2.0, 2.0, 3), rng.uniform(-1.0, 1.0, 3) * rng.uniform(0.0, 6.0)
        quick.update(q, qd)
        exact = quick.measure(q, qd)
        expected = ratio_level(exact['tool_speed'] / exact['contact_speed'], expected, 0.9, 0.05)
        assert quick.levels['contact'] == expected
        seen.add(expected)
        values = dict(zip(quick.labels, quick.topic_values()))
        assert values['contact_speed'] == pytest.approx(exact['contact_speed'], rel=1e-12)
    assert seen == {OK, WARN, ERROR}
