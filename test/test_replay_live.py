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
joint_states give each joint's level changes in the order the live node published them, and
the values the node published.
"""

from dh_kinematics.node_logic.monitors.levels import STALE
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
# A wide WARN band and a slow sweep: most levels last longer than the node's 0.1 s between
# two publications of a change (any change of any status), so few are merged away on the wire.
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


def _changes(rows):
    """Return each status's level changes in order: {status: [(stamp_ns, level), ...]}."""
    found = {}
    for stamp, status, level in rows:
        changes = found.setdefault(status, [])
        if not changes or changes[-1][1] != level:
            changes.append((stamp, level))
    return found


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
        def cycled(array):  # joint1 has been to ERROR and back to OK, over 2 s of values
            with probe.condition:
                seen = [s.level[0] for a in probe.messages['diagnostics'] for s in a.status
                        if s.name.endswith(': joint1')]
                published = min(len(probe.messages[key]) for key in ('expected', 'safety'))
            return (2 in seen and seen[-1] == 0 and seen.index(2) < len(seen) - 1
                    and published >= 400)
        probe.wait_for('diagnostics', cycled)
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
    start, end = _stamp(states[0].header), _stamp(states[-1].header)
    live = _changes((_stamp(a.header), s.name, s.level[0]) for a in arrays for s in a.status
                    if start < _stamp(a.header) <= end and ': joint' in s.name)
    ours = _changes((t.stamp_ns, t.status, t.level) for t in replayed if ': joint' in t.status)
    for status, changes in live.items():
        while changes and changes[0][1] == STALE:  # the node had no joint_states yet
            changes = changes[1:]
        # The first live level is the window's edge: the level the node had. Each later change
        # the live node published is one of the replay's, in order, published after the
        # message that caused it and within a loaded machine's latency of it.
        replayed_changes = ours[status]
        k = max(index for index, (caused, level) in enumerate(replayed_changes)
                if level == changes[0][1] and caused <= max(changes[0][0], start))
        matched = [k]
        for published, level in changes[1:]:
            k += 1
            while k < len(replayed_changes) and (replayed_changes[k][1] != level or not (
                    0 <= published - replayed_changes[k][0] <= SECOND)):
                k += 1
            assert k < len(replayed_changes), (status, changes, replayed_changes)
            matched.append(k)
        # A level the live node never published lasted less than its publication's rate limit
        # allows (a change 0.1 s after the last one waits for the tick after that), plus a
        # loaded machine's latency: 0.5 s.
        for before, after in zip(matched, matched[1:]):
            for skipped in range(before + 1, after):
                lasted = replayed_changes[skipped + 1][0] - replayed_changes[skipped][0]
                assert lasted < SECOND // 2, (status, replayed_changes[skipped], lasted)
