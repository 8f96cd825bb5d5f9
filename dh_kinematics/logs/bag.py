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
The joint log of a rosbag2 folder (sqlite3 or MCAP): its ``sensor_msgs/JointState`` messages.

Read with the pure-Python ``rosbags`` library (``pip install rosbags``; the ``logs`` extra),
which needs no ROS install. Each message's stamp is its header's, or, where a publisher left
it zero, the time the bag recorded it. The log's joints are the first message's; a message
without one of them (another publisher's, a gripper's) is left out and counted.
"""

import itertools
import pathlib

from dh_kinematics.logs.joint_log import checked, JointLog
import numpy as np

INSTALL = 'reading a rosbag2 folder needs rosbags: pip install rosbags'
TYPE = 'sensor_msgs/msg/JointState'
STORAGES = ('sqlite3', 'mcap')


def _reader(path):
    """Return an open rosbags reader of ``path``; ValueError where it cannot be one."""
    try:
        from rosbags.highlevel import AnyReader
        from rosbags.typesys import get_typestore, Stores
    except ImportError:
        raise ValueError(f'{path}: {INSTALL}') from None
    metadata = pathlib.Path(path) / 'metadata.yaml'
    if metadata.is_file():
        import yaml
        try:
            storage = yaml.safe_load(metadata.read_text())['rosbag2_bagfile_information'][
                'storage_identifier']
        except Exception:  # noqa: B902 (any fault of the file: rosbags says which below)
            storage = None
        if isinstance(storage, str) and storage not in STORAGES:
            raise ValueError(f'{path}: storage {storage!r}: rosbags reads '
                             f'{" and ".join(STORAGES)} bags')
    try:
        reader = AnyReader([pathlib.Path(path)],
                           default_typestore=get_typestore(Stores.ROS2_JAZZY))
        reader.open()
    except Exception as error:  # noqa: B902 (rosbags raises its own kinds for a bad folder)
        raise ValueError(f'{path}: not a rosbag2 folder rosbags can read: {error}') from None
    return reader


def _connections(reader, path, topic):
    """Return the reader's connections of ``topic``; ValueError unless all are JointState."""
    joint_topics = sorted({c.topic for c in reader.connections if c.msgtype == TYPE})
    connections = [c for c in reader.connections if c.topic == topic]
    if not connections or any(c.msgtype != TYPE for c in connections):
        kinds = ', '.join(sorted({c.msgtype for c in connections}))
        found = f'it is {kinds}' if connections else 'the bag has no such topic'
        raise ValueError(f'{path}: --topic {topic}: {found}; topics of {TYPE}: '
                         f'{", ".join(joint_topics) or "none"}')
    return connections


def _same_definitions(reader, path, topic):
    """Raise ValueError where the bag's JointState is laid out otherwise than ROS 2's."""
    from rosbags.typesys import get_typestore, Stores
    ours = get_typestore(Stores.ROS2_JAZZY).fielddefs  # Kilted's are the same
    for name in (TYPE, 'std_msgs/msg/Header', 'builtin_interfaces/msg/Time'):
        theirs = reader.typestore.fielddefs.get(name)
        if theirs is not None and theirs != ours[name]:
            known, found = dict(ours[name][1]), dict(theirs[1])
            odd = [field for field in {**known, **found} if known.get(field) != found.get(field)]
            fields = (', '.join(odd) or 'its constants') + (
                ' differs' if len(odd) == 1 else ' differ')
            raise ValueError(f'{path}: --topic {topic}: the bag defines {name} otherwise than '
                             f'ROS 2 (Jazzy, Kilted) does ({fields}): a bag of another '
                             'distribution, or of a changed message')


def _walk(reader, connections, path, topic):
    """
    Yield ``(number, connection, bag_time_ns, raw)`` of each message; a fault is one line.

    A record rosbags cannot read (a corrupt MCAP chunk, a truncated database) raises
    ValueError naming the bag and the message, not rosbags' traceback.
    """
    messages = reader.messages(connections=connections)
    for number in itertools.count(1):
        try:
            found = next(messages, None)
        except Exception as error:  # noqa: B902 (rosbags and its storages raise many kinds)
            raise ValueError(f'{path}: message {number} on {topic}: unreadable record '
                             f'({_said(error)})') from None
        if found is None:
            return
        yield (number,) + tuple(found)


def _said(error):
    """Return an exception as one short line: its kind and the start of its text."""
    text = ' '.join(str(error).split())
    return type(error).__name__ + (f': {text[:160]}' if text else '')


def raw_messages(path, topic='/joint_states'):
    """
    Yield ``(bag_time_ns, data)`` for each message on ``topic``, read as the bag is walked.

    ``data`` is the message's serialized CDR bytes, as a raw rclpy subscription hands them
    over: what the node's flow takes. The bag is opened and the topic checked at the first
    ``next`` (ValueError as :func:`read`, and where the bag defines JointState, its header or
    its time otherwise than ROS 2 does: bytes the node would misread); nothing is held but the
    message at hand.
    """
    reader = _reader(path)
    try:
        connections = _connections(reader, path, topic)
        _same_definitions(reader, path, topic)
        for _, _, stamp, raw in _walk(reader, connections, path, topic):
            yield stamp, bytes(raw)
    finally:
        reader.close()


def robot_name(path, topic='/robot_description'):
    """
    Return the robot's name in the bag's first ``topic`` message (a URDF), or None.

    None where the bag has no such topic of std_msgs/String, or its text is no URDF with a
    name: the caller names the arm otherwise.
    """
    import xml.etree.ElementTree as ElementTree

    reader = _reader(path)
    try:
        connections = [c for c in reader.connections
                       if c.topic == topic and c.msgtype == 'std_msgs/msg/String']
        for connection, _, raw in reader.messages(connections=connections):
            text = reader.deserialize(raw, connection.msgtype).data
            try:
                return ElementTree.fromstring(text).get('name') or None
            except ElementTree.ParseError:
                return None
        return None
    finally:
        reader.close()


def read(path, topic='/joint_states'):
    """
    Return ``(log, left_out)``: the :class:`JointLog` of ``topic`` in the folder ``path``.

    ``left_out`` counts the messages without one of the log's joints.

    Raises
    ------
    ValueError
        Naming the folder: rosbags missing, not a bag, ``topic`` absent or not of
        sensor_msgs/JointState (naming the bag's JointState topics), no message, a message
        whose arrays are of other lengths than its names.

    """
    reader = _reader(path)
    try:
        connections = _connections(reader, path, topic)
        names, time, rows, left_out = None, [], [], 0
        for number, connection, stamp, raw in _walk(reader, connections, path, topic):
            try:
                message = reader.deserialize(raw, connection.msgtype)
            except Exception as error:  # noqa: B902 (rosbags' CDR reader: many kinds)
                raise ValueError(f'{path}: message {number} on {topic}: not a JointState '
                                 f'rosbags can read ({_said(error)})') from None
            message_names = list(message.name)
            if names is None:
                names = message_names
            if any(name not in message_names for name in names):
                left_out += 1
                continue
            fields = []
            for field in ('position', 'velocity', 'effort'):
                values = np.asarray(getattr(message, field), dtype=float)
                if len(values) not in (0, len(message_names)):
                    raise ValueError(f'{path}: message {number} on {topic}: {len(values)} '
                                     f'{field} values for {len(message_names)} names')
                fields.append([values[message_names.index(name)] for name in names]
                              if len(values) else None)
            if fields[0] is None:
                raise ValueError(f'{path}: message {number} on {topic}: no positions')
            header = message.header.stamp
            seconds = header.sec + header.nanosec * 1e-9 if header.sec or header.nanosec \
                else stamp * 1e-9
            time.append(seconds)
            rows.append((number, fields))
    finally:
        reader.close()
    if not rows:
        raise ValueError(f'{path}: no message on {topic}')

    def table(k):
        if any(fields[k] is None for _, fields in rows):
            return None
        return np.array([fields[k] for _, fields in rows])
    log = JointLog(tuple(names), np.array(time), table(0), table(1), table(2),
                   f'{path} {topic}', np.array([number for number, _ in rows]), 'message')
    return checked(log), left_out
