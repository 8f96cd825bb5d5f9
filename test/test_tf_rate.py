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

"""The TF rate cap: /tf at most tf.max_rate per joint, the newest message; limits see all."""

from dh_kinematics import Chain
from dh_kinematics.node_logic.tf_rate import TfRate
from helpers import PACKAGE
import pytest

MS = 1_000_000


def test_each_joint_goes_out_at_most_once_per_interval_by_stamp():
    rate = TfRate(3)
    assert rate.due((0, 1, 2), 0)  # no cap: every message
    rate.configure(10.0)  # 100 ms
    assert rate.capped and rate.due((0, 1, 2), 5 * MS)
    rate.published((0, 1, 2), 5 * MS)
    assert not rate.due((0, 1, 2), 104 * MS) and rate.due((0, 1, 2), 105 * MS)
    # An arm and a gripper in separate messages: each joint keeps its own time.
    rate.published((0, 1), 105 * MS)
    assert rate.due((2,), 106 * MS) and not rate.due((0,), 106 * MS)
    rate.published((2,), 106 * MS)
    assert rate.due((1, 2), 205 * MS) and not rate.due((2,), 205 * MS)  # the oldest decides
    rate.reset()  # the clock jumped back
    assert rate.due((0, 1, 2), 0)


@pytest.mark.ros
def test_a_violation_between_two_published_tf_messages_is_flagged():
    from ros_fixtures import Running

    config = PACKAGE / 'config' / 'puma560.yaml'
    chain = Chain.from_yaml(config)
    names, zero = list(chain.joint_names), [0.0] * chain.n
    beyond = [chain.qlim[0, 1] + 0.2] + zero[1:]
    run = Running(['--params-file', str(config), '-p', 'tf.max_rate:=10.0'])
    try:
        probe = run.probe
        first = probe.send_until_seen(names, zero)
        between = probe.send(names, beyond, stamp_ns=first + MS)
        found = probe.wait_for('diagnostics', lambda m: any(
            s.name.endswith(f': {names[0]}') and s.level[0] == 2 for s in m.status))
        status = next(s for s in found.status if s.name.endswith(f': {names[0]}'))
        assert 'above' in status.message or 'limit' in status.message, status.message
        later = probe.send(names, zero, stamp_ns=first + 100 * MS)  # 100 ms after the first
        probe.wait_for_stamp('tf', later)
        assert between not in probe.by_stamp['tf']  # taken in order, never published on /tf
        assert sorted(probe.by_stamp['tf'])[-2:] == [first, later]
    finally:
        run.stop()
