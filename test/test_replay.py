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

"""Replay: a stream's level changes at the messages the documented thresholds say."""

import csv

from dh_kinematics import Chain, Link
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, STALE, WARN
from dh_kinematics.parameters.files import read
from dh_kinematics.parameters.specs import NODE
from dh_kinematics.parameters.validation import robot_description
from dh_kinematics.replay import Replay
from helpers import (joint_state_cdr, needs, needs_matplotlib, needs_pin, PACKAGE, pin,
                     pin_configuration, pose_transform, run_cli, run_cli_without, world_poses)
import numpy as np
import pytest

SECOND = 1_000_000_000
BASE = 1_790_000_000 * SECOND
DEFAULTS = {spec.name: spec.default for spec in NODE}


def test_a_joint_through_its_warn_band_past_its_limit_and_back_changes_where_it_should():
    chain = Chain([Link(a=0.3, qlim=(-1.0, 1.0), name='a')])
    # 0.9005 .. 1.1005 rad and back, 1 mrad a message, 1 ms apart: half a step off every
    # threshold, so that no tie decides.
    path = [(k + 0.5) / 1000 for k in range(900, 1101)] + [
        (k + 0.5) / 1000 for k in range(1099, 899, -1)]
    stream = [(BASE + k * SECOND // 1000, joint_state_cdr(BASE + k * SECOND // 1000, ['a'],
                                                          [q])) for k, q in enumerate(path)]
    found = [(t.status, (t.stamp_ns - BASE) * 1000 // SECOND, t.level)
             for t in Replay(chain, DEFAULTS).transitions(stream) if t.status.endswith(': a')]
    margin, band = DEFAULTS['diagnostics.warn_margin'], DEFAULTS['diagnostics.hysteresis']

    def index(predicate, start=0):
        return next(k for k in range(start, len(path)) if predicate(path[k]))

    warn_in = index(lambda q: q > 1.0 - margin)
    error_in = index(lambda q: q > 1.0)
    error_out = index(lambda q: q < 1.0 - band, error_in)
    warn_out = index(lambda q: q < 1.0 - margin - band, error_out)
    assert found == [('/dh_kinematics: a', 0, OK), ('/dh_kinematics: a', warn_in, WARN),
                     ('/dh_kinematics: a', error_in, ERROR),
                     ('/dh_kinematics: a', error_out, WARN),
                     ('/dh_kinematics: a', warn_out, OK)]
    assert STALE not in {level for _, _, level in found}


def test_a_gap_longer_than_the_stale_timeout_goes_stale_at_its_tick_and_back():
    chain = Chain([Link(a=0.3, qlim=(-1.0, 1.0), name='a')])
    stamps = [BASE + k * SECOND // 100 for k in range(10)]  # 10 ms apart, then 2.5 s of nothing
    stamps += [stamps[-1] + 5 * SECOND // 2 + k * SECOND // 100 for k in range(3)]
    stream = [(stamp, joint_state_cdr(stamp, ['a'], [0.25])) for stamp in stamps]
    found = [(t.stamp_ns, t.level) for t in Replay(chain, DEFAULTS).transitions(stream)
             if t.status.endswith(': a')]
    timeout = int(DEFAULTS['diagnostics.stale_timeout'] * SECOND)
    tick = SECOND // 10
    stale_at = -(-(stamps[9] + timeout) // tick) * tick  # the first tick past the deadline
    assert found == [(stamps[0], OK), (stale_at, STALE), (stamps[10], OK)]


def test_the_maxima_hold_the_worst_margin_and_speed_with_their_stamps():
    chain = Chain([Link(a=0.3, qlim=(-1.0, 1.0), velocity_limit=2.0, name='a')])
    path = [(k + 0.5) / 1000 for k in range(900, 1101)] + [
        (k + 0.5) / 1000 for k in range(1099, 899, -1)]
    stamps = [BASE + k * SECOND // 1000 for k in range(len(path))]
    replay = Replay(chain, DEFAULTS)
    for _ in replay.transitions((stamp, joint_state_cdr(stamp, ['a'], [q]))
                                for stamp, q in zip(stamps, path)):
        pass
    rows = {(subject, quantity): (value, stamp, limit)
            for subject, quantity, value, stamp, limit in replay.maxima.rows()}
    value, stamp, limit = rows['a', 'position margin']
    top = path.index(max(path))
    assert value == 1.0 - path[top] and stamp == stamps[top] * 1e-9 and limit == 0.0
    speed, _, limit = rows['a', 'velocity']
    assert abs(speed - 1.0) < 1e-6 and limit == 2.0  # 1 mrad a ms, differenced


def test_a_zero_stamp_or_one_gone_back_is_dropped_as_the_node_drops_it():
    # Issue 71 (9): a zero header stamp ended the replay in an IndexError; a stamp gone back was
    # taken as a clock jump (rates, holds and the observer restarted) where the node drops it.
    chain = Chain([Link(a=0.3, qlim=(-1.0, 1.0), velocity_limit=2.0, name='a')])
    path = [(k + 0.5) / 1000 for k in range(900, 1101)] + [
        (k + 0.5) / 1000 for k in range(1099, 899, -1)]
    stamps = [BASE + k * SECOND // 1000 for k in range(len(path))]
    clean = [(stamp, joint_state_cdr(stamp, ['a'], [q])) for stamp, q in zip(stamps, path)]
    bad = list(clean)
    bad.insert(150, (stamps[149], joint_state_cdr(0, ['a'], [0.0])))
    bad.insert(300, (stamps[298], joint_state_cdr(stamps[100], ['a'], [-0.9])))
    results = []
    for stream in (clean, bad):
        replay = Replay(chain, DEFAULTS)
        found = [(t.stamp_ns, t.status, t.level) for t in replay.transitions(stream)
                 if not t.status.endswith(': arm')]
        results.append((found, replay.maxima.rows(), replay.series.arrays()))
    assert results[1][:2] == results[0][:2]
    for ours, theirs in zip(results[1][2], results[0][2]):
        np.testing.assert_array_equal(ours, theirs)
    counts = replay.flow.cache.counts
    assert (counts['repeated_stamp'], counts['old_stamp']) == (1, 1)


def _bag(path, stamps, path_q, storage='SQLITE3', names=('a',), compression=None):
    """Write a one-joint bag of JointState messages as rosbags writes one; return the path."""
    from rosbags.rosbag2 import CompressionFormat, CompressionMode, StoragePlugin, Writer
    from rosbags.typesys import get_typestore, Stores

    store = get_typestore(Stores.ROS2_JAZZY)
    JointState = store.types['sensor_msgs/msg/JointState']
    Header, Time = store.types['std_msgs/msg/Header'], store.types['builtin_interfaces/msg/Time']
    writer = Writer(path, version=9, storage_plugin=getattr(StoragePlugin, storage))
    if compression:
        writer.set_compression(getattr(CompressionMode, compression), CompressionFormat.ZSTD)
    with writer:
        connection = writer.add_connection('/joint_states', JointState.__msgtype__,
                                           typestore=store)
        for stamp, q in zip(stamps, path_q):
            message = JointState(Header(Time(*divmod(stamp, SECOND)), ''), list(names),
                                 np.array([q]), np.array([], dtype=float),
                                 np.array([], dtype=float))
            writer.write(connection, stamp, store.serialize_cdr(message, JointState.__msgtype__))
    return path


@needs('rosbags', 'pip install rosbags')
@needs_matplotlib
@pytest.mark.parametrize('storage, compression', [('SQLITE3', None), ('MCAP', None),
                                                  ('SQLITE3', 'FILE'), ('MCAP', 'MESSAGE')])
def test_the_command_writes_the_changes_and_the_maxima_of_a_bag(tmp_path, storage, compression):
    model = tmp_path / 'arm.yaml'
    Chain([Link(a=0.3, qlim=(-1.0, 1.0), name='a')]).to_yaml(model)
    path = [(k + 0.5) / 1000 for k in range(900, 1101)] + [
        (k + 0.5) / 1000 for k in range(1099, 899, -1)]
    stamps = [BASE + k * SECOND // 1000 for k in range(len(path))]
    bag = _bag(tmp_path / 'bag', stamps, path, storage, compression=compression)
    out, _ = run_cli('replay', model, bag, '--report', tmp_path / 'report')
    assert '/dh_kinematics: a: worst ERROR' in out and 'first ERROR: ' in out
    with open(tmp_path / 'report' / 'transitions.csv') as stream:
        rows = list(csv.reader(stream))
    assert rows[0] == ['stamp', 'status', 'level', 'message']
    assert [row[2] for row in rows[1:] if row[1] == '/dh_kinematics: a'] == [
        'OK', 'WARN', 'ERROR', 'WARN', 'OK']
    with open(tmp_path / 'report' / 'maxima.csv') as stream:
        maxima = {(row[0], row[1]): row for row in csv.reader(stream)}
    assert float(maxima['a', 'position margin'][2]) == 1.0 - max(path)
    assert sorted(p.name for p in (tmp_path / 'report').iterdir()) == [
        'branches.csv', 'index.html', 'joint_1.png', 'maxima.csv', 'transitions.csv']
    page = (tmp_path / 'report' / 'index.html').read_text()
    assert '<img src="joint_1.png"' in page and 'nan' not in page  # issue 71 (17): no limit
    # The description the node would publish: with the ros2_control block it is given.
    control = tmp_path / 'control.yaml'
    control.write_text('/**:\n  ros__parameters:\n    ros2_control.plugin: mock\n')
    run_cli('replay', model, control, bag, '--report', tmp_path / 'again', '--write-tf',
            tmp_path / 'tf')
    from rosbags.highlevel import AnyReader
    with AnyReader([tmp_path / 'tf']) as written:
        counts = {c.topic: c.msgcount for c in written.connections}
        description, = [written.deserialize(raw, connection.msgtype).data
                        for connection, _, raw in written.messages()
                        if connection.topic == '/robot_description']
    assert counts == {'/joint_states': len(path), '/tf': len(path), '/tf_static': 1,
                      '/robot_description': 1}
    _, checked = read([model, control])
    assert description == robot_description(checked) and '<ros2_control' in description


def _odd_bag(path, definition=None):
    """Write a bag of std_msgs/String on /joint_states, or of JointState as ``definition``."""
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import get_types_from_msg, get_typestore, Stores

    ros2, store = get_typestore(Stores.ROS2_JAZZY), get_typestore(Stores.EMPTY)
    types = {name: ros2.fielddefs[name] for name in ('std_msgs/msg/Header', 'std_msgs/msg/String',
                                                     'builtin_interfaces/msg/Time')}
    if definition:
        types.update(get_types_from_msg(definition, 'sensor_msgs/msg/JointState'))
    store.register(types)
    with Writer(path, version=9) as writer:
        if definition:
            JointState = store.types['sensor_msgs/msg/JointState']
            Header = store.types['std_msgs/msg/Header']
            Time = store.types['builtin_interfaces/msg/Time']
            message = JointState(Header(Time(*divmod(BASE, SECOND)), ''), ['a'],
                                 np.array([0.1], dtype=np.float32))
        else:
            message = store.types['std_msgs/msg/String']('a')
        connection = writer.add_connection('/joint_states', message.__msgtype__, typestore=store)
        writer.write(connection, BASE, store.serialize_cdr(message, message.__msgtype__))
    return path


@needs('rosbags', 'pip install rosbags')
def test_a_bad_replay_is_one_line_and_writes_nothing(tmp_path):
    model = tmp_path / 'arm.yaml'
    Chain([Link(a=0.3, qlim=(-1.0, 1.0), name='a')]).to_yaml(model)
    bag = _bag(tmp_path / 'bag', [BASE], [0.1])
    (tmp_path / 'empty').mkdir()
    foo = _bag(tmp_path / 'foo', [BASE], [0.1])
    metadata = foo / 'metadata.yaml'
    metadata.write_text(metadata.read_text().replace('storage_identifier: sqlite3',
                                                     'storage_identifier: foo'))
    (tmp_path / 'old.bag').write_bytes(b'#ROSBAG V2.0\n')
    for args, words in (((tmp_path / 'empty',), 'not a rosbag2 folder'),
                        ((foo,), "storage 'foo': rosbags reads sqlite3 and mcap bags"),
                        ((_odd_bag(tmp_path / 'string'),),
                         '--topic /joint_states: it is std_msgs/msg/String'),
                        ((_odd_bag(tmp_path / 'float32', 'std_msgs/Header header\n'
                                   'string[] name\nfloat32[] position\n'),),
                         'the bag defines sensor_msgs/msg/JointState otherwise than ROS 2 '
                         '(Jazzy, Kilted) does (position, velocity, effort differ)'),
                        ((bag / 'bag.db3',), "give the bag's folder (rosbag2), not its storage"),
                        ((tmp_path / 'old.bag',), 'a ROS 1 bag: convert it'),
                        ((tmp_path / 'nothing',), 'No such file or directory'),
                        ((bag, '--topic', '/other'), '--topic /other: the bag has no such topic'),
                        ((bag, '--from', '2', '--to', '1'), 'need 0 <= from < to'),
                        ((_bag(tmp_path / 'other', [BASE], [0.1], names=['b']),),
                         "the joints of /joint_states (b) are none of the model's (a)")):
        _, err = run_cli('replay', model, *args, '--report', tmp_path / 'report', code=1)
        assert words in err and len(err.strip().splitlines()) == 1, err
        assert not (tmp_path / 'report').exists()
    (tmp_path / 'full').mkdir()
    (tmp_path / 'full' / 'notes.txt').write_text('mine')
    (tmp_path / 'full' / 'dangling').symlink_to(tmp_path / 'nowhere')  # issue 71 (16)
    for args, words in ((('--report', tmp_path / 'full'), 'full exists and is not an empty'),
                        (('--report', tmp_path / 'r', '--write-tf', tmp_path / 'full'),
                         '--write-tf: ' + str(tmp_path / 'full') + ' exists'),
                        (('--report', tmp_path / 'r', '--write-tf',
                          tmp_path / 'full' / 'dangling'), '/dangling exists')):
        _, err = run_cli('replay', model, bag, *args, code=1)
        assert words in err and len(err.strip().splitlines()) == 1, err
        assert sorted(p.name for p in (tmp_path / 'full').iterdir()) == ['dangling', 'notes.txt']
        assert not (tmp_path / 'r').exists()


def test_a_replay_without_matplotlib_is_refused_before_the_log_is_read(tmp_path):
    model = tmp_path / 'arm.yaml'
    Chain([Link(a=0.3, qlim=(-1.0, 1.0), name='a')]).to_yaml(model)
    # A log that is not there: the missing matplotlib is said first, not after a long replay.
    _, err = run_cli_without('matplotlib', 'replay', model, tmp_path / 'no.csv', '--report',
                             tmp_path / 'report', code=1)
    assert err == ('dh_kinematics replay: error: replay --report needs matplotlib, which is not '
                   'installed: pip install matplotlib (or apt install python3-matplotlib)\n')
    assert not (tmp_path / 'report').exists()


@pytest.mark.ros
def test_a_joint_state_written_for_the_flow_is_what_rclpy_reads():
    from dh_kinematics.node_logic.cdr import joint_state
    from rclpy.serialization import deserialize_message
    from sensor_msgs.msg import JointState
    names = ['a', 'shoulder_lift_joint', 'j3']
    data = joint_state(BASE + 123, names, [0.1, -2.5, 3.0], [], [1e-300, 7.0, -0.0])
    message = deserialize_message(data, JointState)
    assert (message.header.stamp.sec, message.header.stamp.nanosec) == divmod(BASE + 123, SECOND)
    assert message.header.frame_id == '' and list(message.name) == names
    assert list(message.position) == [0.1, -2.5, 3.0] and list(message.velocity) == []
    assert list(message.effort) == [1e-300, 7.0, -0.0]
    assert data == joint_state_cdr(BASE + 123, names, [0.1, -2.5, 3.0], [], [1e-300, 7.0, -0.0])


@needs_matplotlib
def test_a_csv_log_replays_as_its_bag_would(tmp_path):
    model = tmp_path / 'arm.yaml'
    Chain([Link(a=0.3, qlim=(-1.0, 1.0), name='a')]).to_yaml(model)
    path = [(k + 0.5) / 1000 for k in range(900, 1101)] + [
        (k + 0.5) / 1000 for k in range(1099, 899, -1)]
    lines = ['time,a.position'] + [f'{k / 1000!r},{q!r}' for k, q in enumerate(path)]
    (tmp_path / 'log.csv').write_text('\n'.join(lines) + '\n')
    out, _ = run_cli('replay', model, tmp_path / 'log.csv', '--report', tmp_path / 'report')
    with open(tmp_path / 'report' / 'transitions.csv') as stream:
        rows = [row for row in csv.reader(stream) if row[1] == '/dh_kinematics: a']
    assert [row[2] for row in rows] == ['OK', 'WARN', 'ERROR', 'WARN', 'OK']
    # Issue 71 (16): a time past what a ROS stamp holds ended in a struct.error traceback.
    lines[150] = f'3e9,{path[149]!r}'
    (tmp_path / 'late.csv').write_text('\n'.join(lines) + '\n')
    _, err = run_cli('replay', model, tmp_path / 'late.csv', '--report', tmp_path / 'late',
                     code=1)
    assert err == (f'dh_kinematics replay: error: {tmp_path / "late.csv"}: line 151: time '
                   '3000000000.0 s is no ROS stamp (0 to 2147483648 s)\n'), err
    assert not (tmp_path / 'late').exists()


@needs_pin
def test_the_maxima_take_the_safety_figures_where_they_are_watched():
    from dh_kinematics.node_logic.sweep import sweep
    from helpers import pin_model
    chain = Chain.from_yaml(PACKAGE / 'config' / 'panda.yaml')
    settings = dict(DEFAULTS, **{'safety.momentum_limit': 100.0,
                                 'safety.planes.floor': [0.0, 0.0, 1.0, -0.3],
                                 'safety.plane_frames': ['panda_hand_tcp']})
    prismatic = [link.isprismatic() for link in chain.links]
    model, data = pin_model(chain)
    hand = model.getFrameId('panda_hand_tcp')
    stream, heights = [], []
    for k in range(50):
        q, qd, _ = sweep(k * 0.01, chain.qlim, prismatic, 10.0)
        stamp = BASE + k * SECOND // 100
        stream.append((stamp, joint_state_cdr(stamp, list(chain.joint_names), q.tolist(),
                                              qd.tolist())))
        pin.framesForwardKinematics(model, data, pin_configuration(pin, model,
                                                                   chain.joint_names, q))
        heights.append(data.oMf[hand].translation[2])  # pinocchio's, on the model's URDF
    replay = Replay(chain, settings)
    for _ in replay.transitions(stream):
        pass
    rows = {(subject, quantity): (value, stamp, limit)
            for subject, quantity, value, stamp, limit in replay.maxima.rows()}
    assert rows['safety', 'momentum'][0] > 0.0 and rows['safety', 'momentum'][2] == 100.0
    # A plane's distance: the smallest is the worst, against 0 m.
    lowest = int(np.argmin(heights))
    assert rows['safety', 'plane.floor.panda_hand_tcp'] == pytest.approx(
        (heights[lowest] + 0.3, (stream[lowest][0]) * 1e-9, 0.0), abs=1e-12)
    t, low, high, level = replay.safety.arrays()
    labels = [figure.label for figure in replay.flow.limits.figures]
    assert low[:, 0, labels.index('plane.floor.panda_hand_tcp')].min() == pytest.approx(
        heights[lowest] + 0.3, abs=1e-12)


@needs_pin
def test_an_arm_held_against_a_push_shows_it_as_residual_and_external_torque():
    from dh_kinematics.replay.maxima import QUANTITIES
    from helpers import pin_model
    chain = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')
    model, data = pin_model(chain)
    q = np.array([0.3, -1.1, 1.2, -0.4, 0.9, 0.2])
    # At rest, the motors hold gravity (pinocchio's) and a push of 7.25 N m on the elbow.
    push = np.array([0.0, 0.0, 7.25, 0.0, 0.0, 0.0])
    efforts = pin.computeGeneralizedGravity(
        model, data, pin_configuration(pin, model, chain.joint_names, q)) + push
    stream = [(BASE + k * SECOND // 1000, joint_state_cdr(
        BASE + k * SECOND // 1000, list(chain.joint_names), q.tolist(), [0.0] * 6,
        efforts.tolist())) for k in range(1000)]
    replay = Replay(chain, DEFAULTS)
    for _ in replay.transitions(stream):
        pass
    rows = replay.maxima.rows()
    worst = {(subject, quantity): value for subject, quantity, value, _, _ in rows}
    for j, name in enumerate(chain.joint_names):
        assert worst[name, 'residual'] == pytest.approx(push[j], abs=1e-9)
        # The observer's first-order response, 1 - exp(-K t): 1 s is 50 time constants.
        assert worst[name, 'external torque'] == pytest.approx(push[j], abs=1e-9)
    assert [(subject, quantity) for subject, quantity, *_ in rows] == [
        (name, quantity) for name in chain.joint_names for quantity in QUANTITIES]


def test_the_series_keeps_every_spike_in_bounded_memory():
    from dh_kinematics.replay.series import Series
    stamps = [BASE + k * SECOND // 1000 for k in range(1000)]
    values = [5.0 if k == 777 else float(k % 3) for k in range(1000)]
    rows = [[[value, -value]] * 4 for value in values]
    levels = [[2 if k == 777 else 0, 0] for k in range(1000)]
    found = []
    for block in (1000, 7, 1):  # 1000 messages into 8 bins: the bins merge, the extremes stay
        series = Series(4, 2, bins=8)
        for k in range(0, 1000, block):
            series.add(stamps[k:k + block], rows[k:k + block], levels[k:k + block])
        found.append(series.arrays())
    for other in found[1:]:
        for mine, theirs in zip(found[0], other):
            np.testing.assert_array_equal(mine, theirs)
    t, low, high, level = found[0]
    assert len(t) <= 8 and t[1] - t[0] == pytest.approx(0.128)  # 1 ms, doubled seven times
    assert high[:, 0, 0].max() == 5.0 and low[:, 0, 1].min() == -5.0
    assert level[:, 0].max() == 2 and level[:, 1].max() == 0
    spike = int(0.777 // (t[1] - t[0]))
    assert high[spike, 0, 0] == 5.0 and level[spike, 0] == 2


@needs('rosbags', 'pip install rosbags')
@needs_pin
def test_the_written_tf_places_every_frame_where_pinocchio_places_it(tmp_path):
    from dh_kinematics.core.names import frame_names
    from dh_kinematics.node_logic import frames
    from dh_kinematics.core.names import axis_frame_names
    from dh_kinematics.replay import TfBag
    from rosbags.highlevel import AnyReader
    from rosbags.interfaces import QosDurability
    from rosbags.typesys import get_typestore, Stores
    chain = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')
    rng = np.random.default_rng(62)
    qs = rng.uniform(-2.0, 2.0, (20, chain.n))
    stamps = [BASE + k * SECOND // 100 for k in range(len(qs))]
    names = frame_names(chain)
    children = frames.joint_children(names, axis_frame_names(chain))
    tf_bag = TfBag(tmp_path / 'out', names, children, frames.static_frames(chain),
                   chain.to_urdf(), '/joint_states', stamps[0])
    stream = [(stamp, joint_state_cdr(stamp, list(chain.joint_names), q.tolist()))
              for stamp, q in zip(stamps, qs)]
    for _ in Replay(chain, DEFAULTS, tf=True).transitions(stream, tf_bag):
        pass
    tf_bag.close()
    edges, latest = {}, {}
    with AnyReader([tmp_path / 'out'], default_typestore=get_typestore(Stores.ROS2_JAZZY)) as bag:
        topics = {c.topic: c for c in bag.connections}
        assert topics['/tf_static'].ext.offered_qos_profiles[0].durability == (
            QosDurability.TRANSIENT_LOCAL)
        for connection, stamp, raw in bag.messages():
            message = bag.deserialize(raw, connection.msgtype)
            if connection.topic in ('/tf', '/tf_static'):
                for t in message.transforms:
                    r, p = t.transform.rotation, t.transform.translation
                    edges[t.child_frame_id] = (t.header.frame_id, pose_transform(
                        [p.x, p.y, p.z], [r.x, r.y, r.z, r.w]))
                if connection.topic == '/tf':
                    latest = dict(edges)
                    assert stamp in stamps  # at its message's bag time
            elif connection.topic == '/robot_description':
                urdf = message.data
    model = pin.buildModelFromXML(urdf)
    data = model.createData()
    pin.framesForwardKinematics(model, data, pin_configuration(pin, model, chain.joint_names,
                                                               qs[-1]))
    tree = {(parent, child): (T,) for child, (parent, T) in latest.items()}
    for frame, T in world_poses(tree, names[0]).items():
        np.testing.assert_allclose(data.oMf[model.getFrameId(frame)].homogeneous, T,
                                   atol=1e-12, err_msg=frame)


@needs_matplotlib
def test_the_documents_show_pictures_that_replay_draws(tmp_path):
    # Issue 71 (17): this read the committed pictures alone and could not fail. Now replay
    # draws a joint's picture and the safety figures' here, and the documents' are of the
    # same make: a joint's its size, the safety figures' its width.
    import struct

    def size(path):
        data = path.read_bytes()
        assert data[:8] == b'\x89PNG\r\n\x1a\n' and data[12:16] == b'IHDR'
        return struct.unpack('>II', data[16:24])
    readme = (PACKAGE / 'README.md').read_text()
    guide = (PACKAGE / 'doc' / 'replay.md').read_text()
    assert '](doc/images/replay.png)' in readme and '](images/replay.png)' in guide
    assert '](images/replay_safety.png)' in guide
    chain = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')
    t = np.arange(300) * 0.01
    q = 0.5 * np.sin(t[:, None] + np.arange(chain.n))
    lines = ['time,' + ','.join(f'{name}.position' for name in chain.joint_names)] + [
        ','.join(map(repr, [time] + row)) for time, row in zip(t.tolist(), q.tolist())]
    (tmp_path / 'log.csv').write_text('\n'.join(lines) + '\n')
    (tmp_path / 'safety.yaml').write_text(
        '/**:\n  ros__parameters:\n    safety.kinetic_energy_limit: 5.0\n')
    run_cli('replay', PACKAGE / 'config' / 'ur5.yaml', tmp_path / 'safety.yaml',
            tmp_path / 'log.csv', '--report', tmp_path / 'report')
    images = PACKAGE / 'doc' / 'images'
    assert size(images / 'replay.png') == size(tmp_path / 'report' / 'joint_1.png')
    assert size(images / 'replay_safety.png')[0] == size(tmp_path / 'report' / 'safety.png')[0]
