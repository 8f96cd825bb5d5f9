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

"""The safety monitor over DDS: ~/safety while someone subscribes, each status on /diagnostics."""

import math

from dh_kinematics import Chain
from dh_kinematics.core.safety import stopping
from helpers import capsules_closing, PACKAGE
import numpy as np
import pytest

from ros_fixtures import Running

pytestmark = pytest.mark.ros

STEP_NS = 10_000_000  # 100 Hz of stamps
SETTINGS = {'safety.frame_speed_limits.tool0': 1.0, 'safety.momentum_limit': 8.0,
            'safety.kinetic_energy_limit': 5.0, 'safety.power_limit': 50.0,
            'safety.stopping_time_limit': 0.5, 'safety.stopping_distance_limit': 0.3,
            'safety.planes.floor': '[0.0, 0.0, 1.0, -0.5]', 'safety.plane_frames': '[tool0]',
            'safety.contact.body_region': 'hands_fingers'}


@pytest.fixture(scope='module')
def ur5(tmp_path_factory):
    """Return the UR5 with a deceleration limit on every joint (4 rad/s^2), and its file."""
    chain = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')
    chain = chain.replace(links=[link.replace(acceleration_limit=4.0) for link in chain.links])
    path = tmp_path_factory.mktemp('safety') / 'ur5.yaml'
    chain.to_yaml(path)
    return chain, str(path)


def _mass_moment(chain, q):
    """Return sum_k m_k c_k (kg m): each link's mass at its centre of mass, forward kinematics."""
    T = chain.fkine_all(q)
    return sum(link.m * (T[k][:3, :3] @ link.r + T[k][:3, 3])
               for k, link in enumerate(chain.links, start=1))


def _first_values(run, chain, q, qd, efforts=()):
    """
    Send three messages of one state once ``~/safety`` has a subscriber; return its first.

    Returns the labels, the values and the stamp of the last message sent (ns).
    """
    from std_msgs.msg import Float64MultiArray

    probe = run.probe
    probe.record('safety', Float64MultiArray, '/dh_kinematics/safety', 100)
    run.wait_matched(run.node)
    probe.wait_until(lambda: run.node.flow.wanted.safety, 'no subscriber seen')
    now = probe.node.get_clock().now().nanoseconds
    stamp = now - now % STEP_NS
    for _ in range(3):
        stamp += STEP_NS
        probe.send(chain.joint_names, q, qd, stamp_ns=stamp, efforts=efforts)
    message = probe.wait_for('safety', lambda m: len(m.data) > 0)
    return message.layout.dim[0].label.split(), message.data, stamp


def _status(message, name):
    return next((status for status in message.status if status.name.endswith(f': {name}')),
                None)


def test_every_quantity_reaches_its_topic_and_its_status(ur5):
    chain, path = ur5
    args = ['--params-file', path, '-p', 'diagnostics.period:=60.0']
    for name, value in SETTINGS.items():
        args += ['-p', f'{name}:={value}']
    run = Running(args)
    try:
        probe = run.probe
        q = np.array([0.3, -1.2, 1.4, -0.7, 1.1, 0.2])
        qd = np.array([0.4, -0.3, 0.2, 0.1, -0.2, 0.3])
        efforts = np.array([10.0, -20.0, 5.0, 1.0, 0.5, 0.2])
        labels, data, stamp = _first_values(run, chain, q, qd, efforts)
        assert labels == ['frame_speed.tool0', 'momentum', 'momentum.x', 'momentum.y',
                          'momentum.z', 'kinetic_energy', 'power', 'stopping_time',
                          'stopping_distance', 'plane.floor.tool0', 'tool_speed',
                          'reflected_mass', 'contact_speed', 'stamp.sec', 'stamp.nanosec']
        values = dict(zip(labels, data))
        sent = [stamp - k * STEP_NS for k in range(3)]
        assert int(values['stamp.sec']) * 10**9 + int(values['stamp.nanosec']) in sent  # exact
        tool_speed = np.linalg.norm(chain.jacob0(q)[:3] @ qd)
        assert values['frame_speed.tool0'] == pytest.approx(tool_speed, rel=1e-12)
        assert values['tool_speed'] == pytest.approx(tool_speed, rel=1e-12)
        # The mass times the centre of mass's velocity, by central differences of its position.
        h = 1e-6
        momentum = (_mass_moment(chain, q + h * qd) - _mass_moment(chain, q - h * qd)) / (2 * h)
        np.testing.assert_allclose([values[f'momentum.{axis}'] for axis in 'xyz'], momentum,
                                   rtol=1e-6, atol=1e-9)
        assert values['kinetic_energy'] == pytest.approx(0.5 * qd @ chain.inertia(q) @ qd,
                                                         rel=1e-12)
        assert values['power'] == pytest.approx(efforts @ qd, rel=1e-12)
        time = float(np.max(np.abs(qd) / 4.0))
        assert values['stopping_time'] == pytest.approx(time, rel=1e-12)
        assert values['stopping_distance'] == pytest.approx(stopping.path_length(
            chain.jacob0, q, qd, time), rel=1e-12)
        assert values['plane.floor.tool0'] == pytest.approx(chain.fkine(q)[2, 3] + 0.5,
                                                            rel=1e-12)
        assert values['contact_speed'] > values['tool_speed']
        # Every status, each named by its task; then the tool past every speed limit.
        found = probe.wait_for('diagnostics', lambda m: _status(m, 'contact') is not None)
        for task in ('frame_speed', 'momentum', 'kinetic_energy', 'power', 'stopping',
                     'planes', 'contact'):
            assert _status(found, task) is not None, task
        for _ in range(3):
            stamp += STEP_NS
            probe.send(chain.joint_names, q, qd * 10.0, stamp_ns=stamp, efforts=efforts)
        found = probe.wait_for('diagnostics', lambda m: _status(m, 'frame_speed').level[0] == 2,
                               after=found)
        for task in ('frame_speed', 'momentum', 'kinetic_energy', 'stopping', 'contact'):
            assert _status(found, task).level[0] == 2, (task, _status(found, task).message)
        assert _status(found, 'frame_speed').message.startswith('tool0 at ')
        assert 'frame_speed (' in _status(found, 'arm').message
        values = {kv.key: kv.value for kv in _status(found, 'contact').values}
        assert math.isfinite(float(values['reflected mass (kg)']))
    finally:
        run.stop()


def test_a_bad_safety_setting_is_refused_at_start(ur5, capfd):
    from dh_kinematics.ros.node import DhKinematicsNode
    from ros_fixtures import refused_start

    _, path = ur5
    code, output = refused_start(DhKinematicsNode, 'dh_kinematics', [
        '--ros-args', '--params-file', path, '-p', 'safety.frame_speed_limits.gripper:=1.0'],
        capfd, 'dh_kinematics_node')
    assert code == 1 and 'safety.frame_speed_limits.gripper: must be a frame of the arm' in output
    assert len(output.splitlines()) == 1 and 'Traceback' not in output, output


def test_safety_settings_change_at_run_time_wholly_or_not_at_all(ur5):
    # ros2 param set: a limit switched on, a bad frame limit refused naming it, nothing else
    # changed; a frame of the user's naming can be changed, not added (it was not declared).
    from rclpy.parameter import Parameter

    _, path = ur5
    run = Running(['--params-file', path, '-p', 'safety.frame_speed_limits.tool0:=1.0'])
    try:
        safety = run.node.flow.limits.safety
        assert list(safety.levels) == ['frame_speed']
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('safety.momentum_limit', value=10.0)])
        assert result.successful, result
        assert list(run.node.flow.limits.safety.levels) == ['frame_speed', 'momentum']
        before = run.node.config
        results = run.probe.set_parameters('/dh_kinematics', [
            Parameter('safety.kinetic_energy_limit', value=5.0),
            Parameter('safety.frame_speed_limits.tool0', value=-1.0)])
        assert [r.successful for r in results] == [False, False]
        assert 'safety.frame_speed_limits.tool0: must be within [0' in results[0].reason
        assert run.node.config is before
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('safety.frame_speed_limits.link2', value=1.0)])
        assert not result.successful
        assert 'safety.frame_speed_limits.link2: no such parameter' in result.reason
        for name, value in (('safety.momentum_limit', math.nan),
                            ('safety.momentum_limit', -math.inf),
                            ('safety.tool_direction.limit', -math.inf)):  # issue 58 (1)
            result, = run.probe.set_parameters('/dh_kinematics', [Parameter(name, value=value)])
            assert not result.successful and f'{name}: must be > 0, or .inf for off' in (
                result.reason)
        assert list(run.node.flow.limits.safety.levels) == ['frame_speed', 'momentum']
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('safety.contact.body_region', value='face')])
        assert not result.successful and 'permits no transient contact' in result.reason
    finally:
        run.stop()


def test_safety_values_are_only_for_messages_taken_and_carry_their_stamp(ur5):
    # Issue 71 (3): a message dropped as future_stamp still got a ~/safety array, holding the
    # last message's values, and the array had no stamp to tell.
    chain, path = ur5
    run = Running(['--params-file', path, '-p', 'safety.momentum_limit:=8.0'])
    try:
        probe = run.probe
        q, qd = [0.3, -1.2, 1.4, -0.7, 1.1, 0.2], [0.4, -0.3, 0.2, 0.1, -0.2, 0.3]
        _, _, stamp = _first_values(run, chain, q, qd)
        future = probe.node.get_clock().now().nanoseconds + 5 * 10**9
        probe.send(chain.joint_names, q, qd, stamp_ns=future)
        probe.send(chain.joint_names, q, qd, stamp_ns=stamp + STEP_NS)

        def stamp_of(message):
            return int(message.data[-2]) * 10**9 + int(message.data[-1])
        probe.wait_for('safety', lambda m: stamp_of(m) == stamp + STEP_NS)
        with probe.condition:
            stamps = [stamp_of(m) for m in probe.messages['safety']]
        assert future not in stamps
        assert stamps == sorted(set(stamps)) and stamps[-1] == stamp + STEP_NS, stamps
    finally:
        run.stop()


def test_a_plane_keeps_a_point_to_judge_at_run_time(ur5):
    # Issue 71 (1): ros2 param set safety.plane_frames "['']" left the plane no point, and the
    # node died on the next message.
    from rclpy.parameter import Parameter

    chain, path = ur5
    run = Running(['--params-file', path, '-p', 'safety.planes.table:=[0.0, 0.0, 1.0, -0.5]',
                   '-p', 'safety.plane_frames:=[tool0]'])
    try:
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('safety.plane_frames', value=[''])])
        assert not result.successful
        assert result.reason.startswith('safety.plane_frames: must name a frame (or '
                                        'safety.tool_spheres a sphere)'), result.reason
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('safety.tool_spheres', value=[0.0, 0.0, 0.1, 0.05])])
        assert result.successful, result
        labels, values, _ = _first_values(run, chain, [0.0] * chain.n, [0.0] * chain.n)
        assert sum(label.startswith('plane.') for label in labels) == 2  # the frame, the sphere
    finally:
        run.stop()


def test_self_collision_reaches_its_topic_values_and_its_status(ur5):
    # The UR5's capsules (the default body's) with the pairs its file ignores: the closest
    # pair's distance and closing speed are the core's, at the message's state.
    from dh_kinematics.core.safety.link_capsules import LinkCapsules
    from rclpy.parameter import Parameter

    chain, path = ur5
    ignore = ['link3 link5', 'link4 link6']
    run = Running(['--params-file', path, '-p', 'diagnostics.period:=60.0',
                   '-p', 'safety.self_collision.enabled:=true',
                   '-p', f'safety.self_collision.ignore:={ignore}'.replace("'", '"')])
    try:
        probe = run.probe
        q = np.array([0.3, -1.2, 2.6, -0.7, 1.1, 0.2])
        qd = np.array([0.4, -0.3, 0.2, 0.1, -0.2, 0.3])
        values = dict(zip(*_first_values(run, chain, q, qd)[:2]))
        closest, closing = capsules_closing(LinkCapsules(chain, ignore), q, qd)
        k = int(np.argmin(closest.distance))
        assert values['self_collision.distance'] == pytest.approx(closest.distance[k],
                                                                  abs=1e-12)
        assert values['self_collision.closing_speed'] == pytest.approx(closing[k], abs=1e-12)
        found = probe.wait_for('diagnostics', lambda m: _status(m, 'self_collision') is not None
                               and _status(m, 'self_collision').level[0] != 3)  # judged
        status = _status(found, 'self_collision')
        pair = LinkCapsules(chain, ignore).pair_name(k).replace(' ', ' and ')
        assert status.message.startswith(f'{pair} ') and ' m apart' in status.message
        result, = probe.set_parameters('/dh_kinematics', [
            Parameter('safety.self_collision.ignore', value=['link1 gripper'])])
        assert not result.successful and result.reason.startswith(
            "safety.self_collision.ignore: must be 'linkA linkB'"), result.reason
    finally:
        run.stop()
