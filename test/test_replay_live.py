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
Replay against the live node: sim_arm's sweep past the limits, recorded, then replayed.

The node and sim_arm run over DDS; the probe records every joint_states message and every
/diagnostics array, ``~/expected_effort`` and ``~/safety``. Replayed on their stamps, the
joint_states give the levels each array showed, after the message it showed, and the values the
node published.
"""

import bisect

from dh_kinematics.core.display import format_number
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, STALE, WARN
from dh_kinematics.parameters.files import read
from dh_kinematics.replay import Replay
from helpers import PACKAGE
import pytest
from rclpy.serialization import serialize_message
from ros_fixtures import NodeThread, Running, SimArm
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64MultiArray

pytestmark = pytest.mark.ros

PUMA = str(PACKAGE / 'config' / 'puma560.yaml')
SECOND = 1_000_000_000
# A wide WARN band and a slow sweep: every joint goes through WARN and ERROR every 2 s, each
# level long enough for some of the node's arrays (every 0.1 s) to show it.
# Safety figures of each kind that joint_states alone give: the values of ~/safety, with
# self-collision's; the effort monitor judging the momentum observer's external torques.
SETTINGS = {'diagnostics.period': 0.1, 'diagnostics.warn_margin': 0.3,
            'safety.momentum_limit': 100.0, 'safety.kinetic_energy_limit': 100.0,
            'safety.power_limit': 1000.0, 'safety.planes.floor': [0.0, 0.0, 1.0, -1.0],
            'safety.tool_spheres': [0.0, 0.0, 0.1, 0.05],
            'safety.self_collision.enabled': True, 'effort.estimator': 'observer',
            'effort.warn': [20.0] * 6, 'effort.error': [40.0] * 6}


def _same(live, ours):
    """Tell whether two lists of values agree to 1e-9 (NaN where both are; inf where both)."""
    return len(live) == len(ours) and all(
        a == b or abs(a - b) <= 1e-9 or (a != a and b != b) for a, b in zip(live, ours))


def _stamp(header):
    return header.stamp.sec * 10 ** 9 + header.stamp.nanosec


def test_a_replayed_recording_changes_levels_as_the_live_node_did():
    run = Running(['--params-file', PUMA] + [
        argument for name, value in SETTINGS.items() for argument in ('-p', f'{name}:={value}')])
    probe = run.probe
    probe.record('joint_states', JointState, '/joint_states', 1000)
    probe.record('expected', JointState, '/dh_kinematics/expected_effort', 1000)
    probe.record('safety', Float64MultiArray, '/dh_kinematics/safety', 1000)
    run.wait_matched(run.node)
    sim = NodeThread(SimArm, 'sim_arm', ['--params-file', PUMA, '-p', 'overshoot:=0.1',
                                         '-p', 'period:=4.0', '-p', 'rate:=200.0'])
    try:
        def enough(array):  # 4 s of stamps at least, at 200 Hz at most, at the node and probe
            with probe.condition:
                return min(len(probe.messages[key])
                           for key in ('joint_states', 'expected', 'safety')) >= 800
        probe.wait_for('diagnostics', enough)
    finally:
        assert sim.stop() == 0
    with probe.condition:
        states = list(probe.messages['joint_states'])
        arrays = list(probe.messages['diagnostics'])
        expected = {_stamp(m.header): list(m.effort) for m in probe.messages['expected']}
        safety = [(tuple(m.layout.dim[0].label.split()[:-2]), list(m.data[:-2]))
                  for m in probe.messages['safety']]  # less the stamp: the replay's has none
    run.stop()
    _, checked = read([PUMA], overrides=SETTINGS)
    messages = [(0, bytes(serialize_message(m))) for m in states]
    ours_expected, ours_safety = {}, []

    def take(outcome):
        if outcome.expected is not None:
            ours_expected[outcome.expected[1]] = outcome.expected[2]
        if outcome.safety is not None:
            ours_safety.append(list(outcome.safety[1]))
    replay = Replay(checked.chain, checked.settings, values=True)
    replayed = list(replay.transitions(messages, outcomes=take))
    # ~/safety has no stamp: from the first array the probe's recording also holds, the live
    # arrays are the replay's in order, but for the messages the node lost under load (its
    # queue): it published nothing for those.
    labels = replay.flow.limits.labels
    assert {names for names, _ in safety} == {labels} and len(labels) >= 11
    assert labels[-3:] == ('self_collision.distance', 'self_collision.closing_speed',
                           'self_collision.time_to_collision')
    first = next(k for k, (_, values) in enumerate(safety)
                 if any(_same(values, ours) for ours in ours_safety))
    k = 0
    for values in [values for _, values in safety[first:]]:
        while k < len(ours_safety) and not _same(values, ours_safety[k]):
            k += 1
        assert k < len(ours_safety), values
    assert len(safety) - first > 100
    # What the live node published, the replay computed, to 1e-9: 0.5 s past the first of
    # either's messages (the node and the probe match sim_arm each in its own time: seconds
    # apart under load), and 0.5 s past a message the node lost (the acceleration filter's
    # memory of a message is 1e-13 after 0.5 s).
    recorded = [_stamp(m.header) for m in states]
    lost = [stamp for stamp in recorded if stamp not in expected and stamp > min(expected)]
    settled = {stamp: efforts for stamp, efforts in expected.items()
               if stamp >= max(recorded[0], min(expected)) + SECOND // 2
               and not any(0 <= stamp - gone < SECOND // 2 for gone in lost)}
    assert len(settled) > 100, (len(expected), len(lost))
    for stamp, efforts in settled.items():
        assert max(abs(a - b) for a, b in zip(efforts, ours_expected[stamp])) <= 1e-9, stamp
    # Each /diagnostics array is the node's levels after one message: the one whose positions
    # its joints' statuses carry (6 digits). There, each status's level is the replay's after
    # that message, whatever the node's latency. The two memories (holds, bands, the observer)
    # meet once a status is OK 0.5 s past the last message one of them saw alone: the node's
    # first, a message it lost, or one of a gap the replay took as STALE (the node's STALE is
    # its own clock's, not compared).
    timeout = int(checked.settings['diagnostics.stale_timeout'] * SECOND)
    alone = [max(recorded[0], min(expected))] + lost + [
        later for earlier, later in zip(recorded, recorded[1:]) if later - earlier > timeout]
    message_at = {}
    for index, message in enumerate(states):
        key = tuple(format_number(q) for q in message.position)
        message_at[key] = None if key in message_at else index  # None: two messages alike
    ours = {}
    for t in replayed:
        ours.setdefault(t.status, ([], []))
        ours[t.status][0].append(t.stamp_ns)
        ours[t.status][1].append(t.level)
    compared, met = {}, {}
    for array in arrays:
        shown = tuple(next(v.value for v in status.values if v.key == 'position')
                      for status in array.status if ': joint' in status.name)
        index = message_at.get(shown)
        if index is None:  # before sim_arm's first message, or one the probe did not record
            continue
        stamp = recorded[index]
        since = max(gone for gone in alone if gone <= stamp) if stamp >= alone[0] else None
        for status in array.status:
            if status.name not in ours or status.level[0] == STALE or since is None:
                continue
            stamps, levels = ours[status.name]
            level = levels[bisect.bisect_right(stamps, stamp) - 1]
            if met.get(status.name, -1) < since:
                if level != OK or stamp < since + SECOND // 2:
                    continue
                met[status.name] = since
            assert status.level[0] == level, (status.name, stamp, status.message, level)
            compared.setdefault(status.name, set()).add(level)
    joints = [levels for name, levels in compared.items() if ': joint' in name]
    assert len(joints) == 6 and set.union(*joints) == {OK, WARN, ERROR}, compared
    assert compared['/dh_kinematics: self_collision'], compared
