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
Faults over real DDS: random messages, model changes mid-stream, a source that dies, signals.

Each test keeps DDS on loopback in its own domain (see ros_fixtures) and waits on conditions
with deadlines, never on sleeps. A bound on time is judged by the node's own clock, with its
scheduling allowance stated where it is used.
"""

import re
import signal

from dh_kinematics import Chain
from dh_kinematics.core.rotations import quaternion_to_matrix
from dh_kinematics.node_logic.schedule import TICK_S
from helpers import joint_state_fields, PACKAGE
from hypothesis import given, HealthCheck, settings, strategies as st
import numpy as np
import pytest
from ros_fixtures import (
    DEADLINE_S, interrupt, Probe, RESEND_S, Running, stamp_ns, start_node, Streamer)
from ros_probe import tf_poses

from rclpy.parameter import Parameter  # noqa: I100
from rclpy.qos import DurabilityPolicy, QoSProfile  # noqa: I100
from tf2_msgs.msg import TFMessage  # noqa: I100

pytestmark = pytest.mark.ros

PANDA = str(PACKAGE / 'config' / 'panda.yaml')
CHAIN = Chain.from_yaml(PANDA)
JOINTS = list(CHAIN.joint_names)
HOME = [0.0, 0.0, 0.0, -1.5, 0.0, 1.8, 0.0]
SWEEP = np.random.default_rng(7).uniform(-1.0, 1.0, size=(40, CHAIN.n)).tolist()
# How late the node's diagnostics tick may fire on a loaded 2-core machine: a woken thread
# waits for a core behind the busy processes (a few scheduler slices of up to ~24 ms each) and
# for the GIL behind the probe's threads (5 ms switch interval), or a garbage collection.
# Measured under ../shared/tools/with-load (a busy process per core) with the former
# period-driven check: in 60 cycles STALE never came later than the timeout plus one period.
# 0.25 s leaves room for ten such delays at once.
SCHEDULING_S = 0.25
# SIGINT or SIGTERM to exit code 0: the spin loop wakes every 0.1 s, then DDS is torn down.
# Measured under with-load: at most 0.24 s in 150 runs of the node, 0.27 s in 550 of sim_arm.
EXIT_S = 2.0


@pytest.fixture
def running():
    run = Running(['--params-file', PANDA, '-p', 'diagnostics.period:=0.2'])
    yield run
    run.stop()


STAMPS = st.tuples(st.integers(-2 ** 31, 2 ** 31 - 1), st.integers(0, 2 ** 32 - 1))


def _deliver(run, names, positions, velocities, stamp):
    """Send one message until the node has taken it (joint_states is best effort)."""
    node, probe = run.node, run.probe
    while True:
        received = node.flow.cache.received
        probe.send_fields(names, positions, velocities, *stamp)
        if probe.wait_until(lambda: node.flow.cache.received > received, '', RESEND_S,
                            fail=False):
            return


# One node for every example: the fixture is shared on purpose, and each example checks only
# what it sent.
@settings(max_examples=12, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(stream=st.lists(st.tuples(joint_state_fields(CHAIN), STAMPS), min_size=1, max_size=10))
def test_random_messages_over_dds_never_break_tf_and_are_all_counted(running, stream):
    node, probe = running.node, running.probe
    probe.clear('tf')
    for (names, positions, velocities, _), stamp in stream:
        _deliver(running, names, positions, velocities, stamp)
    counts = node.flow.cache.counts
    assert counts['accepted'] + node.flow.cache.dropped_total() == node.flow.cache.received
    for message in list(probe.messages['tf']):
        poses = tf_poses(message)
        assert np.isfinite(poses).all()
        np.testing.assert_allclose(np.linalg.norm(poses[:, 3:], axis=1), 1.0, atol=1e-12)
        for quaternion in poses[:, 3:]:
            R = quaternion_to_matrix(quaternion)
            np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-12)


def test_each_tf_message_belongs_wholly_to_the_old_or_the_new_model():
    run = Running(['--params-file', PANDA])
    try:
        streamer = Streamer(run.probe, JOINTS, SWEEP)
        run.probe.wait_until(lambda: streamer.count() > 50, 'streaming did not start')
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('frame_prefix', value='new/'), Parameter('panda_joint3.a', value=0.2),
            Parameter('panda_joint5.d', value=0.5)], atomically=True)
        assert result.successful, result.reason
        seen_at_change = streamer.count()
        run.probe.wait_until(lambda: streamer.count() > seen_at_change + 50,
                             'streaming stopped')
        streamer.stop()
        models = {'': CHAIN, 'new/': _changed_chain()}
        seen = set()
        for message in list(run.probe.messages['tf']):
            prefixes = {t.child_frame_id.rpartition('/')[0] + '/' if '/' in t.child_frame_id
                        else '' for t in message.transforms}
            assert len(prefixes) == 1, f'a TF message mixes models: {prefixes}'
            prefix, = prefixes
            seen.add(prefix)
            q = streamer.sent[stamp_ns(message.transforms[0].header)]
            np.testing.assert_allclose(tf_poses(message), models[prefix].link_poses(q),
                                       rtol=0, atol=1e-12)
        assert seen == {'', 'new/'}
    finally:
        run.stop()


def _changed_chain():
    params = CHAIN.to_params()
    params['panda_joint3']['a'], params['panda_joint5']['d'] = 0.2, 0.5
    return Chain.from_params(params)


def test_stale_at_the_deadline_and_ok_again_without_a_restart():
    timeout, period = 0.4, 0.2
    run = Running(['--params-file', PANDA, '-p', f'diagnostics.stale_timeout:={timeout}',
                   '-p', f'diagnostics.period:={period}'])
    try:
        node = run.node
        for _ in range(2):
            run.probe.clear('diagnostics')
            run.probe.send_until_seen(JOINTS, HOME)
            ok = run.probe.wait_for('diagnostics', lambda d: _arm(d).level == b'\x00')
            stale = run.probe.wait_for('diagnostics', lambda d: _arm(d).level == b'\x03',
                                       after=ok)
            # The node's own clock: how long it had gone without joint_states when it said so.
            # It checks every tick (TICK_S), so STALE comes after the timeout by at most a tick
            # and the tick's scheduling delay. The age is shown with 3 significant digits: at
            # the deadline it reads as the timeout itself.
            ages = {_age(s.message) for s in stale.status if not s.name.endswith(': arm')}
            assert len(ages) == 1, ages
            age, = ages
            assert timeout <= age <= timeout + TICK_S + SCHEDULING_S, f'STALE after {age} s'
        assert run.node is node
    finally:
        run.stop()


def _age(message):
    """Return the seconds in 'no joint_states for X s'."""
    return float(re.fullmatch(r'no joint_states for (\S+) s', message).group(1))


def _arm(diagnostics):
    arm, = [s for s in diagnostics.status if s.name.endswith(': arm')]
    return arm


@pytest.mark.parametrize('module', ['dh_kinematics.ros.node', 'dh_kinematics.ros.sim_arm'])
@pytest.mark.parametrize('sig', [signal.SIGINT, signal.SIGTERM])
def test_signals_end_the_process_with_code_0(module, sig):
    process = start_node(module, ['--params-file', PANDA])
    code, err = interrupt(process, sig, timeout=EXIT_S)
    assert code == 0 and 'Traceback' not in err, err


def test_two_nodes_side_by_side_publish_only_their_own_frames():
    left = start_node('dh_kinematics.ros.node', ['--params-file', PANDA, '-r', '__ns:=/left',
                                                 '-p', 'frame_prefix:=l/'])
    right = start_node('dh_kinematics.ros.node', ['--params-file', PANDA, '-r', '__ns:=/right',
                                                  '-p', 'frame_prefix:=r/'])
    probes = {}
    try:
        probes = {side: Probe(f'/{side}', name=f'probe_{side}') for side in ('left', 'right')}
        probe = probes['left']
        probe.record('static', TFMessage, '/tf_static', QoSProfile(
            depth=10, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        for side, prefix in (('left', 'l/'), ('right', 'r/')):
            # The other process's writers match on their own time: send until the frames come.
            stamp = probes[side].send_until_seen(JOINTS, SWEEP[0], seen_by=probe)
            message = probe.wait_for_stamp('tf', stamp)
            assert {t.child_frame_id[:2] for t in message.transforms} == {prefix}
            assert [m for m in probe.messages['tf'] if stamp_ns(m.transforms[0].header) == stamp
                    ] == [message]

        def static():  # other tests' nodes may share the domain: look at l/ and r/ only
            return {t.child_frame_id for m in probe.messages['static'] for t in m.transforms
                    if t.child_frame_id[:2] in ('l/', 'r/')}

        expected = {'l/panda_link0', 'l/panda_hand_tcp', 'r/panda_link0', 'r/panda_hand_tcp'}
        probe.wait_until(lambda: static() == expected, 'no static frames of both nodes')
    finally:
        for each in probes.values():
            each.close()
        for process in (left, right):
            assert interrupt(process, timeout=DEADLINE_S)[0] == 0
