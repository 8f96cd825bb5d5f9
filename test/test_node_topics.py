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

"""The node over real DDS: frames, stamps, static frames, friction, diagnostics, bad input."""

import math

from helpers import load_reference, PACKAGE
import numpy as np
import pytest
from ros_fixtures import Running, stamp_ns

from dh_kinematics import Chain  # noqa: I100
from dh_kinematics.node_logic.joint_states import Outcome  # noqa: I100
from dh_kinematics.core.rotations import rotation_to_quaternion  # noqa: I100
from dh_kinematics.ros.node import TF_QOS, TF_STATIC_QOS  # noqa: I100
from diagnostic_msgs.msg import DiagnosticArray  # noqa: I100
from sensor_msgs.msg import JointState  # noqa: I100
from tf2_msgs.msg import TFMessage  # noqa: I100

pytestmark = pytest.mark.ros

PANDA = str(PACKAGE / 'config' / 'panda.yaml')
JOINTS = [f'panda_joint{i}' for i in range(1, 8)]


@pytest.fixture
def running():
    # The longest period there is: no periodic diagnostics come within a test's deadline.
    run = Running(['--params-file', PANDA, '-p', 'diagnostics.period:=60.0'])
    yield run
    run.stop()


def test_frames_match_the_reference_in_one_message(running):
    reference = load_reference('panda')
    for config in reference['configs']:
        stamp = running.probe.send(JOINTS, config['q'])
        message = running.probe.wait_for_stamp('tf', stamp)
        assert len(message.transforms) == 7
        assert all(stamp_ns(t.header) == stamp for t in message.transforms)
        assert [t.header.frame_id for t in message.transforms] == ['panda_link0'] + [
            f'panda_link{i}' for i in range(1, 7)]
        assert [t.child_frame_id for t in message.transforms] == [
            f'panda_link{i}' for i in range(1, 8)]
        A = np.array(config['link_A'])
        xyz = [[t.transform.translation.x, t.transform.translation.y,
                t.transform.translation.z] for t in message.transforms]
        quat = [[t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z,
                 t.transform.rotation.w] for t in message.transforms]
        np.testing.assert_allclose(xyz, A[:, :3, 3], atol=1e-12)
        np.testing.assert_allclose(quat, rotation_to_quaternion(A[:, :3, :3]), atol=1e-12)


def test_tf_and_friction_only_while_someone_subscribes(running):
    node, probe = running.node, running.probe
    outcomes, handle = [], node.flow.handle
    node.flow.handle = lambda *args: outcomes.append(handle(*args)) or outcomes[-1]
    for key in ('tf', 'friction'):
        probe.forget(key)
    # The subscriber counts first: before the node's first tick, wanted is all False
    # whatever DDS matched, and the message's own check would then still see the probe.
    probe.wait_until(lambda: not (node.count_subscribers('/tf')
                                  or node.count_subscribers('/dh_kinematics/friction_torque')
                                  or node.flow.wanted.tf or node.flow.wanted.friction),
                     'the node still sees subscribers')
    accepted = node.flow.cache.counts['accepted']
    probe.send(JOINTS, [0.1] * 7, [0.2] * 7)
    probe.wait_until(lambda: node.flow.cache.counts['accepted'] > accepted,
                     'the node did not take the message')
    last = outcomes[-1]  # nothing to publish, nothing published (test_joint_states_flow: computed)
    assert last.tf is last.friction is None and isinstance(last, Outcome)
    # Subscribed again: the first message after the match has its frames and friction.
    probe.record('tf', TFMessage, '/tf', 100)
    probe.record('friction', JointState, '/dh_kinematics/friction_torque', 100)
    running.wait_matched(node)
    stamp = probe.send(JOINTS, [0.2] * 7, [0.3] * 7)
    assert len(probe.wait_for_stamp('tf', stamp).transforms) == 7
    assert probe.wait_for_stamp('friction', stamp).name == JOINTS


def test_static_frames_and_the_qos_of_tf2s_broadcasters(running):
    message = running.probe.wait_for('tf_static', lambda m: True)
    pairs = [(t.header.frame_id, t.child_frame_id) for t in message.transforms]
    assert pairs == [('world', 'panda_link0'), ('panda_link7', 'panda_hand_tcp')]
    tool = message.transforms[1].transform
    assert (tool.translation.z, tool.rotation.z) == pytest.approx(
        (0.103, -math.sin(math.pi / 8)))
    profiles = {publisher.topic_name: publisher.qos_profile
                for publisher in running.node.publishers}  # rclpy's Node.publishers
    assert profiles['/tf'] == TF_QOS and profiles['/tf_static'] == TF_STATIC_QOS
    for topic, durability in (('/tf', 'VOLATILE'), ('/tf_static', 'TRANSIENT_LOCAL')):
        info, = _graph(running, 'get_publishers_info_by_topic', topic)
        assert info.qos_profile.reliability.name == 'RELIABLE'
        assert info.qos_profile.durability.name == durability
    assert not [i for i in running.probe.node.get_publishers_info_by_topic('/joint_states')
                if i.node_name == 'dh_kinematics']


def test_subsets_from_reliable_and_best_effort_publishers(running):
    first = running.probe.send(JOINTS[:3], [0.1, 0.2, 0.3])
    second = running.probe.send(JOINTS[3:], [-1.0, 0.0, 1.0, 0.0],
                                publisher=running.probe.best_effort)
    one = running.probe.wait_for_stamp('tf', first)
    two = running.probe.wait_for_stamp('tf', second)
    assert [t.child_frame_id for t in one.transforms] == ['panda_link1', 'panda_link2',
                                                          'panda_link3']
    assert [t.child_frame_id for t in two.transforms] == [f'panda_link{i}' for i in (4, 5, 6, 7)]


def test_friction_is_stamped_like_tf_for_joints_with_velocity():
    config = str(PACKAGE / 'config' / 'puma560.yaml')
    run = Running(['--params-file', config])
    try:
        chain = Chain.from_yaml(config)
        names = list(chain.joint_names)
        qd = [0.5, -0.5, 0.0, 1e-12, 2.0, -2.0]
        stamp = run.probe.send(names, [0.0] * 6, qd)
        message = run.probe.wait_for_stamp('friction', stamp)
        assert list(message.name) == names and not message.position and not message.velocity
        np.testing.assert_allclose(message.effort, chain.friction(qd), rtol=1e-12)
        stamp = run.probe.send(names[:2], [0.0, 0.0], [0.3, math.nan])
        message = run.probe.wait_for_stamp('friction', stamp)
        assert list(message.name) == names[:1]
    finally:
        run.stop()


def _arm(diagnostics):
    status, = [s for s in diagnostics.status if s.name == '/dh_kinematics: arm']
    return status


def _joint(diagnostics, joint):
    status, = [s for s in diagnostics.status if s.name == f'/dh_kinematics: {joint}']
    return status


@pytest.mark.parametrize('value, level, message', [
    (0.0, 0, 'within limits'),
    (2.86, 1, 'within 0.05 of upper limit'),
    (2.9, 2, 'above upper limit by'),
    (-3.0, 2, 'below lower limit by'),
    (math.nan, 2, 'non-finite position'),
])
def test_limit_levels_are_published_at_once(running, value, level, message):
    # The periodic publication is 60 s away: only the publication on change can pass.
    running.probe.send(JOINTS, [value, 0.0, 0.0, -1.5, 0.0, 1.8, 0.0])
    diagnostics = running.probe.wait_for(
        'diagnostics', lambda d: _joint(d, 'panda_joint1').level == bytes([level]))
    status = _joint(diagnostics, 'panda_joint1')
    assert status.message.startswith(message) and status.hardware_id == 'panda'
    keys = [v.key for v in status.values]
    assert keys == ['position', 'lower', 'upper', 'distance_to_limit']
    assert _arm(diagnostics).level == bytes([level])


def test_diagnostics_are_built_only_for_a_subscriber_and_none_is_lost(running):
    node, probe = running.node, running.probe
    probe.forget('diagnostics')
    probe.wait_until(lambda: not node.count_subscribers('/diagnostics'),
                     'the node still sees a /diagnostics subscriber')

    def taken(positions):
        accepted = node.flow.cache.counts['accepted']
        probe.send(JOINTS, positions)
        probe.wait_until(lambda: node.flow.cache.counts['accepted'] > accepted,
                         'the node did not take the message')
    # The executor runs one callback at a time: once it has taken this message, a tick that
    # was publishing to the subscriber just gone (the first periodic publication, late on a
    # busy machine) has finished.
    taken([0.0, 0.0, 0.0, -1.5, 0.0, 1.8, 0.0])
    built = []
    original = node.flow.statuses
    node.flow.statuses = lambda *args: built.append(1) or original(*args)
    taken([2.9, 0.0, 0.0, -1.5, 0.0, 1.8, 0.0])  # above the limit: a change
    assert node.flow.limits.levels[0] == 2 and built == []  # judged, not built
    ticks, tick = [], node.flow.tick
    node.flow.tick = lambda *args: ticks.append(1) or tick(*args)
    probe.wait_until(lambda: len(ticks) >= 2, 'the node did not tick')  # it stays pending
    assert node.flow.limits.pending and built == []
    # A subscriber comes: the change that waited goes out, with nothing more sent.
    probe.record('diagnostics', DiagnosticArray, '/diagnostics', 100)
    diagnostics = probe.wait_for('diagnostics', lambda d: _arm(d).level == bytes([2]))
    assert _joint(diagnostics, 'panda_joint1').message.startswith('above upper limit by')
    assert built


def test_stale_when_joint_states_stop_and_ok_when_they_return():
    run = Running(['--params-file', PANDA, '-p', 'diagnostics.stale_timeout:=0.3',
                   '-p', 'diagnostics.period:=0.1'])
    try:
        run.probe.wait_for('diagnostics', lambda d: _arm(d).level == bytes([3]))
        run.probe.send(JOINTS, [0.0, 0.0, 0.0, -1.5, 0.0, 1.8, 0.0])
        run.probe.wait_for('diagnostics', lambda d: _arm(d).level == bytes([0]))
        run.probe.clear('diagnostics')
        stale = run.probe.wait_for('diagnostics', lambda d: _arm(d).level == bytes([3]))
        assert _joint(stale, 'panda_joint1').message.startswith('no joint_states for')
        run.probe.clear('diagnostics')
        run.probe.send(JOINTS, [0.0, 0.0, 0.0, -1.5, 0.0, 1.8, 0.0])
        run.probe.wait_for('diagnostics', lambda d: _arm(d).level == bytes([0]))
    finally:
        run.stop()


def _graph(run, query, topic):
    """Return the node's endpoints on ``topic`` once the probe's graph names it."""
    found = []

    def named():
        found[:] = [i for i in getattr(run.probe.node, query)(topic)
                    if i.node_name == 'dh_kinematics']
        return found
    # The ROS graph learns node names after DDS has matched: wait for them.
    run.probe.wait_until(named, f'the graph did not name the node on {topic}')
    return found


def _subscription_reliability(run):
    info, = _graph(run, 'get_subscriptions_info_by_topic', '/joint_states')
    return info.qos_profile.reliability.name


def test_joint_states_qos_is_best_effort_and_can_be_overridden():
    # A best-effort publisher would never match the reliable subscription: the probe has none.
    run = Running(['--params-file', PANDA, '-p',
                   'qos_overrides./joint_states.subscription.reliability:=reliable'],
                  best_effort=False)
    try:
        assert _subscription_reliability(run) == 'RELIABLE'
        stamp = run.probe.send(JOINTS, [0.0] * 7, publisher=run.probe.reliable)
        run.probe.wait_for_stamp('tf', stamp)
    finally:
        run.stop()
    # The override was that node's alone: the next node in this process is best effort again.
    run = Running(['--params-file', PANDA])
    try:
        assert _subscription_reliability(run) == 'BEST_EFFORT'
    finally:
        run.stop()
