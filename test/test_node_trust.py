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

"""The node over real DDS on hardware's bad days: flapping, unknown joints, clocks, overflow."""

import math
import os
import time

from helpers import PACKAGE
import numpy as np
import pytest
from ros_fixtures import (
    DEADLINE_S, interrupt, Probe, read_line, RESEND_S, Running, stamp_ns, start_node)

from rclpy.parameter import Parameter  # noqa: I100
from rosgraph_msgs.msg import Clock  # noqa: I100

pytestmark = pytest.mark.ros

PANDA = str(PACKAGE / 'config' / 'panda.yaml')
JOINTS = [f'panda_joint{i}' for i in range(1, 8)]
HOME = [0.0, 0.0, 0.0, -1.5, 0.0, 1.8, 0.0]
UPPER1 = 2.8973  # panda_joint1's upper limit, rad


def _arm(diagnostics):
    arm, = [s for s in diagnostics.status if s.name.endswith(': arm')]
    return arm


def _counts(diagnostics):
    return {v.key: v.value for v in _arm(diagnostics).values}


def _send_and_see(run, names, positions, **kwargs):
    stamp = run.probe.send(names, positions, **kwargs)
    return run.probe.wait_for_stamp('tf', stamp)


def test_a_joint_dithering_at_a_threshold_does_not_flood_diagnostics():
    # No periodic publication and no STALE (however slow the machine) during the test.
    run = Running(['--params-file', PANDA, '-p', 'diagnostics.period:=60.0', '-p',
                   'diagnostics.stale_timeout:=60.0'])
    try:
        _send_and_see(run, JOINTS, HOME)
        first = run.probe.wait_for('diagnostics', lambda d: _arm(d).level == b'\x00')
        run.probe.clear('diagnostics')
        rng = np.random.default_rng(11)
        for value in UPPER1 - 0.05 + rng.uniform(-1e-3, 1e-3, 200):
            _send_and_see(run, JOINTS, [value] + HOME[1:])
        warn = run.probe.wait_for('diagnostics', lambda d: _arm(d).level == b'\x01')
        # A sentinel change: once it is published, every earlier publication has arrived.
        _send_and_see(run, JOINTS, [UPPER1 + 0.1] + HOME[1:])
        run.probe.wait_for('diagnostics', lambda d: _arm(d).level == b'\x02', after=warn)
        # 200 messages, two level changes: two DiagnosticArrays (160 before hysteresis).
        assert len(run.probe.messages['diagnostics']) == 2
        assert first is not None
    finally:
        run.stop()


def test_each_unknown_joint_is_named_once(capfd):
    run = Running(['--params-file', PANDA])
    try:
        for k in range(3):
            _send_and_see(run, JOINTS + ['gripper_finger_joint'], HOME + [0.01])
        stamp = run.probe.send(['elbow', 'wrist'], [0.1, 0.2])
        _send_and_see(run, JOINTS, HOME)
        run.probe.wait_for('diagnostics', lambda d: _counts(d).get('count no_known_joint') == '1')
    finally:
        run.stop()
    err = capfd.readouterr().err
    assert err.count("unknown joint 'gripper_finger_joint' ignored (the model has "
                     'panda_joint1, ') == 1, err
    assert "dropped a joint_states message: names ['elbow', 'wrist'] match none of the joints " \
        "['panda_joint1'," in err, err
    assert stamp


def test_a_future_stamp_is_dropped_and_does_not_lock_the_arm_out():
    run = Running(['--params-file', PANDA])
    try:
        run.probe.send_fields(JOINTS, HOME, [], 2 ** 31 - 1, 0)
        _send_and_see(run, JOINTS, HOME)
        run.probe.wait_for('diagnostics', lambda d: _counts(d).get('count future_stamp') == '1')
    finally:
        run.stop()


def test_without_a_clock_sim_time_messages_are_dropped_and_counted(capfd):
    run = Running(['--params-file', PANDA, '-p', 'use_sim_time:=true'])
    try:
        clock = run.probe.node.create_publisher(Clock, '/clock', 10)
        run.wait_matched(run.node)
        for _ in range(3):
            run.probe.send(JOINTS, HOME, stamp_ns=0)
        # Nothing can be judged without a clock: wait until the node has taken all three.
        run.probe.wait_until(lambda: run.node.flow.cache.counts['no_clock'] == 3,
                             'the node did not drop the messages as no_clock')
        assert not run.probe.messages['tf']
        message = Clock()
        message.clock.sec = 100
        clock.publish(message)
        run.probe.wait_until(lambda: run.node.get_clock().now().nanoseconds == 100 * 10 ** 9,
                             'the node did not see /clock')
        tf = _send_and_see(run, JOINTS, HOME, stamp_ns=100 * 10 ** 9 + 1)
        assert stamp_ns(tf.transforms[0].header) == 100 * 10 ** 9 + 1
    finally:
        run.stop()
    assert capfd.readouterr().err.count('dropped (no_clock) until /clock starts') == 1


def test_refused_changes_are_logged_at_most_every_5_s(capfd):
    run = Running(['--params-file', PANDA])
    start = time.monotonic()
    try:
        for k in range(20):
            result, = run.probe.set_parameters('/dh_kinematics', [
                Parameter('panda_joint1.alpha', value=90.0 + k)])
            assert not result.successful and 'radians are expected' in result.reason
        elapsed = time.monotonic() - start
    finally:
        run.stop()
    # One line, and one more for each 5 s the 20 refusals took (well under 5 s in practice).
    assert capfd.readouterr().err.count('parameter change refused') <= 1 + int(elapsed / 5.0)


def test_statuses_are_named_by_the_fully_qualified_node_name():
    run = Running(['--params-file', PANDA], namespace='/left')
    try:
        message = run.probe.wait_for('diagnostics', lambda d: True)
        names = {status.name for status in message.status}
        assert names == {f'/left/dh_kinematics: {joint}' for joint in JOINTS} | {
            '/left/dh_kinematics: arm'}
    finally:
        run.stop()


def test_an_overflowing_friction_torque_is_left_out():
    run = Running(['--params-file', PANDA, '-p', 'panda_joint1.G:=1.0e6', '-p',
                   'panda_joint1.B:=1.0e6'])
    try:
        stamp = run.probe.send(JOINTS[:2], HOME[:2], [1e308, 0.5])
        friction = run.probe.wait_for_stamp('friction', stamp)
        assert list(friction.name) == JOINTS[1:2]
        assert all(math.isfinite(value) for value in friction.effort)
        run.probe.wait_for('diagnostics',
                           lambda d: _counts(d).get('count non_finite_result') == '1')
    finally:
        run.stop()


def test_period_changes_do_not_create_timers():
    run = Running(['--params-file', PANDA])
    try:
        timers = len(list(run.node.timers))
        for k in range(50):
            result, = run.probe.set_parameters('/dh_kinematics', [
                Parameter('diagnostics.period', value=0.5 + 0.01 * k)])
            assert result.successful, result.reason
        assert len(list(run.node.timers)) == timers
    finally:
        run.stop()


@pytest.mark.parametrize('stale_timeout', [0.3])
def test_stale_comes_at_the_joint_deadline_not_the_period(stale_timeout):
    run = Running(['--params-file', PANDA, '-p', f'diagnostics.stale_timeout:={stale_timeout}',
                   '-p', 'diagnostics.period:=60.0'])
    try:
        _send_and_see(run, JOINTS, HOME)
        ok = run.probe.wait_for('diagnostics', lambda d: _arm(d).level == b'\x00')
        stale = run.probe.wait_for('diagnostics', lambda d: _arm(d).level == b'\x03', after=ok)
        assert stale is not None  # with a 60 s period: only the deadline can have published it
    finally:
        run.stop()


@pytest.mark.parametrize('module', ['dh_kinematics.ros.node', 'dh_kinematics.ros.sim_arm'])
def test_a_negative_clock_is_ignored(module):
    process = start_node(module, ['--params-file', PANDA, '-p', 'use_sim_time:=true'])
    probe = Probe()
    try:
        clock = probe.node.create_publisher(Clock, '/clock', 10)
        probe.wait_until(lambda: clock.get_subscription_count() > 0, 'no /clock subscriber')
        message = Clock()
        message.clock.sec = -5
        # rclpy's /clock subscription is best effort, and may not have matched us yet: send
        # again until the node says it ignored one (it says so once).
        deadline, line = time.monotonic() + DEADLINE_S, ''
        while not line and time.monotonic() < deadline:
            clock.publish(message)
            line = read_line(process, RESEND_S)
        if line and not line.endswith('\n'):  # cut at the resend time: read the rest
            line += read_line(process)
    finally:
        probe.close()
    code, err = interrupt(process)
    assert '/clock: ignored a negative time (-5 s)' in line, line + err
    assert code == 0 and 'Traceback' not in err, err


def _rss_bytes():
    with open('/proc/self/statm', encoding='ascii') as statm:
        return int(statm.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')


@pytest.mark.slow
def test_a_hundred_thousand_churning_names_leave_memory_and_log_bounded():
    from rclpy.serialization import serialize_message
    from sensor_msgs.msg import JointState

    from dh_kinematics.core.model_file import parameter_file
    from dh_kinematics.ros.messages import read_joint_state
    from dh_kinematics.parameters import validation
    from dh_kinematics.node_logic.joint_states import JointStatesFlow, Wanted
    from dh_kinematics.parameters.specs import NODE

    # The node's flow, fed directly (100,000 messages in seconds), with TF and friction on.
    config = validation.checked(parameter_file.node_parameters(PANDA, 'dh_kinematics'), NODE)
    warnings = []
    flow = JointStatesFlow(config.chain.joint_names, read_joint_state, warnings.append, 0)
    flow.configure(config.chain, config.settings)
    flow.wanted = Wanted(False, False, False)
    template = bytearray(serialize_message(JointState(
        name=JOINTS + ['churn_000000'], position=HOME + [0.0])))
    at = template.index(b'churn_000000') + len('churn_')
    sizes = []
    for k in range(100_000):
        template[4:8] = (1_000 + k).to_bytes(4, 'little')  # header.stamp.sec, increasing
        template[at:at + 6] = b'%06d' % k
        now_ns = (1_001 + k) * 1_000_000_000
        flow.handle(bytes(template), now_ns, now_ns)
        if k in (9_999, 99_999):
            sizes.append(_rss_bytes())
    counts = flow.cache.counts
    assert counts['accepted'] == counts['unknown_joint'] == 100_000
    assert len(flow.cache.unknown_names) == 100
    growth = sizes[1] - sizes[0]
    assert growth < 4 * 2 ** 20, f'memory grew by {growth / 2 ** 20:.1f} MB over 90,000 messages'
    lines = [line for line in warnings if 'unknown joint' in line]
    assert len(lines) == 101, lines[-3:]  # each of the first 100 names once, then one notice


def test_a_rate_cap_that_would_overflow_is_refused_and_the_node_runs_on():
    # Issue 41 (1): tf.max_rate 1e-300 passed the declared range and 1e9 / 1e-300 overflowed:
    # the node exited with a traceback.
    run = Running(['--params-file', PANDA])
    try:
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('tf.max_rate', value=1e-300)])
        assert not result.successful
        assert 'tf.max_rate: must be 0 (every message) or within [0.001, 1e+06]' in result.reason
        _send_and_see(run, JOINTS, HOME)  # still running, every message on /tf
        _send_and_see(run, JOINTS, HOME)
    finally:
        run.stop()
