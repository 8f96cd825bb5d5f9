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


"""Serialized messages: the reader and the templates against rclpy's own serializer."""


from dh_kinematics.node_logic import cdr
from dh_kinematics.node_logic.frames import Frames
from dh_kinematics.node_logic.message_template import Template
from dh_kinematics.ros import messages as ros_messages
from helpers import joint_state_cdr
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest
from rclpy import serialization
from sensor_msgs.msg import JointState
from tf2_msgs.msg import TFMessage

pytestmark = pytest.mark.ros

CHARACTERS = st.characters(blacklist_categories=('Cs',), blacklist_characters='\x00')
NAMES = st.lists(st.text(CHARACTERS, max_size=12), max_size=9)
FLOATS = st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=9)
STAMPS = st.tuples(st.integers(-2 ** 31, 2 ** 31 - 1), st.integers(0, 2 ** 32 - 1))


def _joint_state(names, positions, velocities, efforts, stamp, frame_id=''):
    message = JointState(name=names, position=positions, velocity=velocities, effort=efforts)
    message.header.stamp.sec, message.header.stamp.nanosec = stamp
    message.header.frame_id = frame_id
    return message


def _same_floats(a, b):
    return np.array_equal(np.asarray(a, float), np.asarray(b, float), equal_nan=True)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(NAMES, FLOATS, FLOATS, FLOATS, STAMPS, st.sampled_from(['', 'base'])),
                min_size=1, max_size=6))
def test_the_reader_reads_what_rclpy_wrote(messages):
    reader = cdr.JointStateReader()  # one reader for the whole stream: layouts change
    for names, positions, velocities, efforts, stamp, frame_id in messages:
        data = serialization.serialize_message(
            _joint_state(names, positions, velocities, efforts, stamp, frame_id))
        for got in (reader.read(data), reader.read(data), cdr.JointStateReader().read(data)):
            stamp_ns, got_names, got_positions, got_velocities, got_efforts = got
            assert stamp_ns == stamp[0] * 10 ** 9 + stamp[1]
            assert list(got_names) == names
            assert _same_floats(got_positions, positions)
            assert _same_floats(got_velocities, velocities)
            assert _same_floats(got_efforts, efforts)


def test_a_stream_reuses_the_layout_and_notices_when_it_changes():
    reader = cdr.JointStateReader()
    first = reader.read(serialization.serialize_message(
        _joint_state(['a', 'b'], [1.0, 2.0], [3.0, 4.0], [], (1, 2))))
    second = reader.read(serialization.serialize_message(
        _joint_state(['a', 'b'], [5.0, 6.0], [7.0, 8.0], [], (3, 4))))
    assert second[1] is first[1] and second[0] == 3_000_000_004
    assert second[2] == (5.0, 6.0) and second[3] == (7.0, 8.0)
    # Same length, other names; then fewer velocities and more efforts.
    third = reader.read(serialization.serialize_message(
        _joint_state(['a', 'c'], [5.0, 6.0], [7.0, 8.0], [], (3, 5))))
    assert third[1] == ('a', 'c')
    fourth = reader.read(serialization.serialize_message(
        _joint_state(['a', 'c'], [5.0, 6.0], [7.0], [9.0], (3, 6))))
    assert fourth[3] == (7.0,) and fourth[4] == (9.0,)
    fifth = reader.read(serialization.serialize_message(
        _joint_state(['a', 'c'], [5.0, 6.0], [7.0], [10.0], (3, 7))))
    assert fifth[4] == (10.0,) and fifth[1] is fourth[1]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=120), st.integers(0, 200), st.binary(max_size=8))
def test_bad_bytes_raise_value_error_only(noise, cut, tail):
    reader = cdr.JointStateReader()
    good = serialization.serialize_message(
        _joint_state(['a', 'b'], [1.0, 2.0], [3.0, 4.0], [], (1, 2)))
    reader.read(good)
    for data in (noise, good[:cut], good[:cut] + tail, b'\x00\x01\x00\x00' + noise,
                 b'\x00\x07\x00\x00' + good[4:]):
        try:
            reader.read(data)
        except ValueError:
            pass


FRAME = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FFF,
                              blacklist_categories=('Cs',)), min_size=1, max_size=20)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(FRAME, FRAME), min_size=1, max_size=8), STAMPS,
       st.integers(0, 2 ** 32 - 1))
def test_tf_bytes_equal_the_message_rclpy_would_send(frames, stamp, seed):
    stamp_ns = stamp[0] * 10 ** 9 + min(stamp[1], 999_999_999)
    k = len(frames)
    names = ('world',) + tuple(name for pair in frames for name in pair)
    # Joint j's frames are names[1 + j] -> names[2 + j]; use every other joint.
    joints = tuple(range(0, 2 * k, 2))
    poses = np.random.default_rng(seed).normal(size=(k, 7)).ravel().tolist()
    values = np.reshape(poses, (k, 7))
    expected = ros_messages.tf_message(Frames(
        [names[1 + j] for j in joints], [names[2 + j] for j in joints], values[:, :3],
        values[:, 3:]), ros_messages.stamp(stamp_ns))
    data = ros_messages.SerializedMessages(names, (), names[2:]).tf(joints, stamp_ns, poses)
    assert isinstance(data, bytes)
    assert serialization.deserialize_message(data, TFMessage) == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(FRAME, min_size=1, max_size=12, unique=True), STAMPS,
       st.integers(0, 2 ** 32 - 1))
def test_effort_bytes_equal_the_message_rclpy_would_send(names, stamp, seed):
    stamp_ns = stamp[0] * 10 ** 9 + min(stamp[1], 999_999_999)
    efforts = np.random.default_rng(seed).normal(size=len(names)) * 100.0
    joints = tuple(range(len(names)))
    messages = ros_messages.SerializedMessages(('w', 'b') + tuple(names) + ('t',), names, names)
    for values in (efforts.tolist(), efforts, tuple(efforts)):  # list, array or tuple
        data = messages.efforts(joints, stamp_ns, values)
        expected = ros_messages.joint_efforts(names, efforts, ros_messages.stamp(stamp_ns))
        if isinstance(data, bytes):  # else a template could not be made: the message itself
            data = serialization.deserialize_message(data, JointState)
        assert data == expected


def test_effort_bytes_and_the_message_fallback():
    messages = ros_messages.SerializedMessages(('w', 'b', 'l1', 'l2', 't'), ('j1', 'j2'),
                                               ('l1', 'l2'))
    data = messages.efforts((1,), 5_000_000_007, [-2.5])
    decoded = serialization.deserialize_message(data, JointState)
    assert decoded.name == ['j2'] and list(decoded.effort) == [-2.5]
    assert (decoded.header.stamp.sec, decoded.header.stamp.nanosec) == (5, 7)
    for i in range(ros_messages.TEMPLATES_PER_MODEL):  # fill the cache with other sets
        messages.tf((0, 1) * (i + 1), 1, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0] * 2 * (i + 1))
    data = messages.tf((1, 0), 9, [1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 1.0] * 2)
    assert messages.templates((1, 0)) == (None, None)  # none made: built, not filled
    message = serialization.deserialize_message(data, TFMessage)
    assert message.transforms[0].child_frame_id == 'l2'
    assert message.transforms[0].header.stamp.nanosec == 9


def test_a_template_refuses_markers_it_cannot_find_once():
    with pytest.raises(ValueError, match='template: marker'):
        Template(lambda stamps, values: b'\x00\x01\x00\x00' + b'\x00' * 40, 1, 0)
    template = Template(
        lambda stamps, values: b'\x00\x01\x00\x00' + np.array(values, '<f8').tobytes(), 0, 2)
    assert template.fill(0, [1.0, 2.0])[4:] == np.array([1.0, 2.0], '<f8').tobytes()
    with pytest.raises(ValueError, match='values: 1 given'):
        template.fill(0, [1.0])


def test_a_name_with_an_embedded_nul_reads_as_rclpy_reads_it():
    # Hand-made bytes: rclpy never writes a NUL inside a string, but a raw publisher can.
    data = bytearray(serialization.serialize_message(_joint_state(
        ['abc', 'e'], [1.0, 2.0], [], [], (1, 2))))
    at = bytes(data).index(b'abc\x00')
    data[at + 1] = 0  # 'a\0c'
    expected = serialization.deserialize_message(bytes(data), JointState).name
    assert cdr.JointStateReader().read(bytes(data))[1] == tuple(expected) == ('a', 'e')


def test_padding_bytes_do_not_defeat_the_layout_cache():
    # Fast DDS leaves alignment padding uninitialised: equal messages differ there.
    rng = np.random.default_rng(5)
    names = ['joint_a', 'b', 'elbow_joint', 'wrist']  # string lengths that need padding
    message = _joint_state(names, [0.1, 0.2, 0.3, 0.4], [1.0] * 4, [], (1, 2), 'base')
    data = bytearray(serialization.serialize_message(message))
    parser = cdr._Reader(data)
    parser.uint32(), parser.uint32(), parser.string(), parser.strings()
    parser.doubles(), parser.doubles(), parser.doubles()
    padding = [i for start, end in parser.padding for i in range(start, end)]
    assert len(padding) >= 4  # this message has padding to fill
    reader = cdr.JointStateReader()
    first = reader.read(bytes(data))
    layout = reader.layout
    for stamp in range(100):
        for i in padding:
            data[i] = int(rng.integers(256))
        data[4:8] = stamp.to_bytes(4, 'little')
        got = reader.read(bytes(data))
        assert reader.layout is layout and got[1] is first[1]  # the fast path, every time
        expected = serialization.deserialize_message(bytes(data), JointState)
        assert got[0] == expected.header.stamp.sec * 10 ** 9 + expected.header.stamp.nanosec
        assert got[1] == tuple(expected.name) and list(got[2]) == list(expected.position)


def test_a_frame_id_that_changes_reads_at_a_kept_layout_whatever_the_padding():
    rng = np.random.default_rng(17)
    names, kept = ['a', 'b', 'c'], {}
    reader = cdr.JointStateReader()
    for k in range(300):
        frame_id = 'x' * int(rng.integers(1, 40))
        data = joint_state_cdr(k + 1, names, [0.1 * k, 0.2, 0.3], [0.5] * 3, [], frame_id,
                               padding=rng)
        got = reader.read(data)
        expected = serialization.deserialize_message(data, JointState)
        assert got[0] == expected.header.stamp.nanosec and list(got[2]) == list(expected.position)
        assert list(got[3]) == list(expected.velocity) and got[1] == tuple(expected.name)
        names_at = -(-(12 + len(frame_id) + 1) // 4)  # the names start 4-aligned after it
        layout = kept.setdefault(names_at, reader.layout)
        assert reader.layout is layout  # read at the layout kept for where names start
    assert len(kept) == 10  # one per 4 bytes of frame_id
