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
A log's joint_states as the node would have received them: a bag's, or a CSV joint log's.

:func:`messages` opens either, checks its first message against the model and yields every
message as ``(stamp_ns, serialized sensor_msgs/JointState)``, a block at a time from the file:
memory bounded by the block, not the log. Every refusal is one ValueError naming the log.
"""

import itertools
import os

from dh_kinematics.logs import bag, csv_log
from dh_kinematics.node_logic import cdr

__all__ = ['messages', 'STAMP_MAX_S']

STAMP_MAX_S = 2.0 ** 31
"""The first time (s) past what builtin_interfaces/Time's int32 seconds hold."""


def _csv_messages(path):
    """
    Yield a CSV joint log's samples as the messages a publisher would have sent.

    A block of rows at a time (:func:`logs.csv_log.blocks`). A time no ROS stamp holds (0 to
    2^31 s) is refused naming its line.
    """
    for log in csv_log.blocks(path):
        bad = ~((log.time >= 0.0) & (log.time < STAMP_MAX_S))
        if bad.any():
            k = int(bad.argmax())
            raise ValueError(f'{path}: line {log.rows[k]}: time {float(log.time[k])!r} s is no '
                             f'ROS stamp (0 to {STAMP_MAX_S:.0f} s)')
        for k, time in enumerate(log.time.tolist()):
            stamp = int(round(time * 1e9))
            yield stamp, cdr.joint_state(stamp, log.names, *(
                () if column is None else column[k].tolist()
                for column in (log.position, log.velocity, log.effort)))


def messages(path, topic, models):
    """
    Return ``(model, first_ns, messages)``: the log's model, first stamp, and all its messages.

    ``path``: a rosbag2 folder (``topic``'s messages) or a CSV joint log. ``models``: each
    model's joint names; the log's is the one that shares the most joints with its first
    message (the first of a tie). The first message is read here: ValueError where the log
    cannot be read, has no message, its first is no JointState the node reads, or it names none
    of the models' joints (another arm's log). A fault later raises ValueError when the
    iterator reaches it.
    """
    if os.path.isdir(path):
        found = bag.raw_messages(path, topic)
    elif str(path).endswith(('.db3', '.mcap')):
        raise ValueError(f"{path}: give the bag's folder (rosbag2), not its storage file")
    elif str(path).endswith('.bag'):
        raise ValueError(f'{path}: a ROS 1 bag: convert it to a rosbag2 folder first '
                         f'(rosbags-convert --src {path} --dst FOLDER)')
    else:
        found = _csv_messages(path)
    first = next(found, None)  # the bag and the topic are checked here
    if first is None:
        raise ValueError(f'{path}: no message on {topic}')
    try:
        names = cdr.JointStateReader().read(first[1])[1]
    except ValueError as error:  # a later one is dropped and counted, as the node drops it
        raise ValueError(f'{path}: message 1 on {topic}: not a JointState the node reads '
                         f'({error})') from None
    shared = [len(set(names) & set(joint_names)) for joint_names in models]
    if not max(shared):
        model = '; '.join(', '.join(joint_names) for joint_names in models)
        whose = "the model's" if len(models) == 1 else "the models'"
        raise ValueError(f'{path}: the joints of {topic} ({", ".join(names)}) are none of '
                         f'{whose} ({model}): a bag of another arm, or its model?')
    return shared.index(max(shared)), first[0], itertools.chain([first], found)
