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
The node judging blocks (``monitors.block_period`` > 0) over DDS.

Every message is still judged and each output keeps its own message's stamp and values: those a
replay of the same messages computes one at a time. The messages go in bursts of 80, longer than a
block's columns start at (:data:`joint_states.COLUMNS_FROM`), each within the node's queue, the
next once every output of the last has come.
"""

from dh_kinematics import Chain
from dh_kinematics.node_logic.sweep import sweep
from dh_kinematics.parameters.files import read
from dh_kinematics.replay import Replay
from helpers import joint_state_cdr, PACKAGE
import numpy as np
import pytest

from ros_fixtures import Running
from ros_probe import stamp_ns

pytestmark = pytest.mark.ros

UR5 = str(PACKAGE / 'config' / 'ur5.yaml')
STEP_NS = 1_000_000  # 1 kHz of stamps
BURST, BURSTS = 80, 3
SETTINGS = {'monitors.block_period': 0.1, 'diagnostics.warn_margin': 0.3,
            'safety.momentum_limit': 8.0, 'safety.kinetic_energy_limit': 5.0,
            'safety.planes.floor': [0.0, 0.0, 1.0, -0.5], 'safety.plane_frames': ['tool0'],
            'safety.self_collision.enabled': True, 'effort.estimator': 'observer',
            'effort.warn': [20.0]}


def test_a_node_judging_blocks_publishes_every_message_with_its_own_stamp_and_values():
    from sensor_msgs.msg import JointState
    from std_msgs.msg import Float64MultiArray

    chain = Chain.from_yaml(UR5)
    prismatic = [link.isprismatic() for link in chain.links]
    run = Running(['--params-file', UR5] + [
        argument for name, value in SETTINGS.items() for argument in ('-p', f'{name}:={value}')])
    sent = []
    try:
        probe = run.probe
        probe.record('safety', Float64MultiArray, '/dh_kinematics/safety', 1000)
        probe.record('expected', JointState, '/dh_kinematics/expected_effort', 1000)
        run.wait_matched(run.node)
        probe.wait_until(lambda: run.node.flow.wanted.safety and run.node.flow.wanted.expected,
                         'no subscriber seen')
        now = probe.node.get_clock().now().nanoseconds
        stamp = now - now % STEP_NS
        for burst in range(BURSTS):
            for k in range(BURST):
                stamp += STEP_NS
                t = (burst * BURST + k) * 0.01  # the sweep ten times as fast as the stamps
                q, qd, _ = sweep(t, chain.qlim, prismatic, 2.0, overshoot=0.1)
                efforts = (np.arange(6) + 1.0) * np.sin(t)
                probe.send(chain.joint_names, q, qd, stamp_ns=stamp, efforts=efforts)
                sent.append((stamp, q.tolist(), qd.tolist(), efforts.tolist()))
            # The last message's outputs: those of the messages before it came before them.
            probe.wait_for('safety', lambda array, stamp=stamp: _stamp_of(array) == stamp)
            probe.wait_for_stamp('expected', stamp)
        with probe.condition:
            safety = [(_stamp_of(m), list(m.data[:-2])) for m in probe.messages['safety']]
            expected = [(stamp_ns(m.header), list(m.effort)) for m in probe.messages['expected']]
    finally:
        run.stop()
    _, checked = read([UR5], overrides=SETTINGS)
    ours_safety, ours_expected = [], []

    def take(outcome):
        if outcome.safety is not None:
            ours_safety.append(outcome.safety)
        if outcome.expected is not None:
            ours_expected.append(outcome.expected[1:])
    messages = [(stamp, joint_state_cdr(stamp, list(chain.joint_names), q, qd, efforts))
                for stamp, q, qd, efforts in sent]
    for _ in Replay(checked.chain, checked.settings, values=True).transitions(
            messages, outcomes=take, block=1):
        pass
    # Each message's own stamp, in the order sent, and the replay's values to 1e-9.
    assert [stamp for stamp, _ in safety] == [stamp for stamp, *_ in sent]
    assert [stamp for stamp, _ in expected] == [stamp for stamp, _ in ours_expected]
    assert len(expected) > BURST * BURSTS - 10  # the first while the rates start
    for (_, live), (_, ours) in zip(safety + expected, ours_safety + ours_expected):
        np.testing.assert_allclose(live, ours, rtol=0.0, atol=1e-9)


def _stamp_of(array):
    """Return the stamp of a ~/safety array: its last two values, seconds and nanoseconds."""
    return int(array.data[-2]) * 10 ** 9 + int(array.data[-1])
