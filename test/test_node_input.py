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

"""The node over real DDS: each kind of bad input, parameter changes, start-up failures."""

import math

from helpers import PACKAGE
import pytest
from ros_fixtures import interrupt, Running, stamp_ns, start_node

from diagnostic_msgs.msg import DiagnosticStatus  # noqa: I100
from rclpy.parameter import Parameter  # noqa: I100
from rosgraph_msgs.msg import Clock  # noqa: I100

pytestmark = pytest.mark.ros

PANDA = str(PACKAGE / 'config' / 'panda.yaml')
JOINTS = [f'panda_joint{i}' for i in range(1, 8)]
HOME = [0.0, 0.0, 0.0, -1.5, 0.0, 1.8, 0.0]


@pytest.fixture
def running():
    run = Running(['--params-file', PANDA, '-p', 'diagnostics.period:=0.1'])
    yield run
    run.stop()


def _children(message):
    return [t.child_frame_id for t in message.transforms]


def _sentinel(run, stamp=None):
    """Send a good message and wait for its frames; return every TF message so far."""
    stamp = run.probe.send(JOINTS, HOME, stamp_ns=stamp)
    run.probe.wait_for_stamp('tf', stamp)
    return list(run.probe.messages['tf'])


def _arm_values(diagnostics):
    arm, = [s for s in diagnostics.status if s.name.endswith(': arm')]
    return {v.key: v.value for v in arm.values}


def _wait_counts(run, **expected):
    """Wait until the arm's diagnostics show these counter values."""
    run.probe.wait_for('diagnostics', lambda d: all(
        _arm_values(d).get(key.replace('_', ' ', 1) if key.startswith('count_') else key)
        == value for key, value in expected.items()))


@pytest.mark.parametrize('names, positions, reason', [
    ([], [], 'empty'),
    (JOINTS[:2], [0.1], 'length_mismatch'),
    (JOINTS[:1] * 2, [0.1, 0.2], 'duplicate_name'),
    (['elbow', 'wrist'], [0.1, 0.2], 'no_known_joint'),
])
def test_dropped_messages_never_reach_tf_and_are_counted(running, names, positions, reason):
    bad = running.probe.send(names, positions)
    frames = _sentinel(running)
    assert not [m for m in frames if any(stamp_ns(t.header) == bad for t in m.transforms)]
    _wait_counts(running, dropped='1', **{f'count_{reason}': '1'})


def test_unknown_names_are_ignored_and_the_rest_used(running):
    stamp = running.probe.send(['elbow', JOINTS[1]], [9.0, 0.3])
    message = running.probe.wait_for_stamp('tf', stamp)
    assert _children(message) == ['panda_link2']
    _wait_counts(running, count_unknown_joint='1')


def test_non_finite_positions_are_left_out_of_tf(running):
    stamp = running.probe.send(JOINTS[:3], [math.nan, 0.2, math.inf])
    message = running.probe.wait_for_stamp('tf', stamp)
    assert _children(message) == ['panda_link2']
    running.probe.send(JOINTS[:1], [1e308])
    frames = _sentinel(running)
    for message in frames:
        for t in message.transforms:
            values = (t.transform.translation.x, t.transform.translation.y,
                      t.transform.translation.z, t.transform.rotation.x, t.transform.rotation.y,
                      t.transform.rotation.z, t.transform.rotation.w)
            assert all(math.isfinite(v) for v in values)
            assert sum(v * v for v in values[3:]) == pytest.approx(1.0)


def test_zero_stamp_is_replaced_by_the_node_clock(running):
    before = running.probe.node.get_clock().now().nanoseconds
    running.probe.send(JOINTS, HOME, stamp_ns=0)
    message = running.probe.wait_for('tf', lambda m: True)
    assert stamp_ns(message.transforms[0].header) >= before


def test_older_and_repeated_stamps_are_dropped(running):
    first = running.probe.send(JOINTS, HOME)
    running.probe.wait_for_stamp('tf', first)
    running.probe.send(JOINTS, HOME, stamp_ns=first)
    running.probe.send(JOINTS, HOME, stamp_ns=first - 1000)
    frames = _sentinel(running, stamp=first + 1000)
    assert len(frames) == 2
    _wait_counts(running, dropped='2', count_old_stamp='1', count_repeated_stamp='1')


def _sim_clock(run):
    """Return ``set_clock(ns)``: publish /clock, wait until the node's clock shows it."""
    clock = run.probe.node.create_publisher(Clock, '/clock', 10)
    run.wait_matched(run.node)

    def set_clock(ns):
        message = Clock()
        message.clock.sec, message.clock.nanosec = divmod(ns, 10 ** 9)
        clock.publish(message)
        run.probe.wait_until(lambda: run.node.get_clock().now().nanoseconds == ns,
                             'the node did not see /clock')
    return set_clock


def test_clock_jumping_back_is_accepted():
    run = Running(['--params-file', PANDA, '-p', 'use_sim_time:=true'])
    try:
        set_clock = _sim_clock(run)
        set_clock(100 * 10 ** 9)
        _sentinel(run, stamp=100 * 10 ** 9)
        set_clock(50 * 10 ** 9)
        _sentinel(run, stamp=50 * 10 ** 9)
    finally:
        run.stop()


def test_joints_go_stale_after_the_clock_jumps_back_and_joint_states_stop():
    # A bag that loops or a simulator reset: /clock jumps from 600 s to 10 s, then nothing
    # comes. The joints must go STALE stale_timeout after the new time, not after the old.
    run = Running(['--params-file', PANDA, '-p', 'use_sim_time:=true', '-p',
                   'diagnostics.stale_timeout:=5.0'])

    def stale_after_the_jump(diagnostics):
        return 10 <= diagnostics.header.stamp.sec < 600 and {
            s.level for s in diagnostics.status if not s.name.endswith(': arm')} == {
                DiagnosticStatus.STALE}
    try:
        set_clock = _sim_clock(run)
        set_clock(600 * 10 ** 9)
        _sentinel(run, stamp=600 * 10 ** 9)
        now, seen = 10 * 10 ** 9, []
        while not seen and now < 700 * 10 ** 9:  # the node's timer runs on /clock: step it
            set_clock(now)
            with run.probe.condition:
                seen = [d for d in run.probe.messages['diagnostics'] if stale_after_the_jump(d)]
            now += 10 ** 8
        assert seen and seen[0].header.stamp.sec < 300, seen  # STALE from 15 s, not 605 s
    finally:
        run.stop()


def test_a_good_parameter_change_is_applied_atomically(running):
    running.probe.wait_for('tf_static', lambda m: True)
    result, = running.probe.set_parameters('/dh_kinematics', [
        Parameter('tool.xyz', value=[0.0, 0.0, 0.2]), Parameter('frame_prefix', value='p/')],
        atomically=True)
    assert result.successful, result.reason
    static = running.probe.wait_for('tf_static', lambda m: m.transforms[1].child_frame_id ==
                                    'p/panda_hand_tcp')
    assert static.transforms[1].transform.translation.z == pytest.approx(0.2)
    stamp = running.probe.send(JOINTS, HOME)
    message = running.probe.wait_for_stamp('tf', stamp)
    assert _children(message)[0] == 'p/panda_link1'


@pytest.mark.parametrize('name, value, reason', [
    ('panda_joint2.qlim', [1.0, -1.0], 'panda_joint2.qlim: must be (lower, upper)'),
    ('panda_joint3.I', [1.0, 2.0], 'panda_joint3.I: must be an array of numbers of shape'),
    ('panda_joint3.I', [1.0, 0.1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
     'panda_joint3.I: must be a symmetric 3x3 matrix'),
    ('panda_joint1.a', math.nan, 'panda_joint1.a: must be finite'),
    ('panda_joint4.Tc', 'high', 'panda_joint4.Tc: must be'),
    ('panda_joint4.type', 'hinge', 'panda_joint4.type: a joint type is fixed at start-up'),
    ('convention', 'std', 'convention: must be'),
    ('gravity', [0.0, 9.81], 'gravity: must be an array of numbers of shape (3,)'),
    ('panda_joint1.a', 'long', 'panda_joint1.a'),
    ('panda_joint2.qlim', [1.0], 'panda_joint2.qlim: must be'),
    ('panda_joint2.r', [0.0, 0.0], 'panda_joint2.r: must be'),
    ('panda_joint9.a', 0.1, 'panda_joint9.a'),
    ('base.xyz', [0.0, math.inf, 0.0], 'base.xyz: must not contain NaN or inf'),
    ('frame_prefix', '/left/', 'frame_prefix: a frame prefix is parts of letters, digits, _, - '
     'and . joined by / and may end with / (no space, no / at the start); it starts with /'),
    ('frame_prefix', 'l\x01/', 'frame_prefix: a frame prefix is'),
    ('world_frame', 'panda_link0', 'base_frame: the base frame is also the world frame'),
    ('tool_frame', 'panda_link3', 'tool_frame: the tool frame is also the frame of link 3'),
    ('links', ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l 7'], 'links[6]: a frame name is'),
])
def test_a_bad_parameter_change_is_refused_over_the_service(running, name, value, reason):
    before = running.node.config
    result, = running.probe.set_parameters('/dh_kinematics', [Parameter(name, value=value)])
    assert not result.successful and reason in result.reason
    assert 'array(' not in result.reason  # the value as the user wrote it, not rclpy's type
    assert running.node.config is before


def test_the_start_up_log_names_the_frames_the_prefix_and_the_input_topic():
    process = start_node('dh_kinematics.ros.node', [
        '--params-file', PANDA, '-r', '__ns:=/left', '-p', 'frame_prefix:=l/'])
    code, err = interrupt(process)
    assert code == 0, err
    line = process.first_line
    assert "world -> l/panda_link0 .. l/panda_hand_tcp (prefix 'l/')" in line, line
    assert 'joint_states from /left/joint_states' in line, line
