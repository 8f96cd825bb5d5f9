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
Payloads on joint_states that are no JointState at all, over real DDS.

The node takes joint_states raw, so bytes that neither its reader nor rclpy can decode reach its
callback. Each must be dropped and counted as ``malformed``, and the node must go on publishing
exact TF. The payloads are seeded; which of them count as malformed is decided by rclpy's own
deserializer (and the package's reader), not by the node.
"""

from dh_kinematics import Chain
from dh_kinematics.node_logic import cdr
from helpers import PACKAGE
import numpy as np
import pytest
from ros_fixtures import Running, stamp_ns
from ros_probe import tf_poses

from rclpy.serialization import deserialize_message, serialize_message  # noqa: I100
from sensor_msgs.msg import JointState  # noqa: I100

pytestmark = pytest.mark.ros

PANDA = str(PACKAGE / 'config' / 'panda.yaml')
CHAIN = Chain.from_yaml(PANDA)
JOINTS = list(CHAIN.joint_names)
HOME = [0.0, 0.0, 0.0, -1.5, 0.0, 1.8, 0.0]
BATCH = 50  # payloads between two sentinels: below the depth (100) of writer and reader


def _undecodable(data):
    """Tell whether neither the package's reader nor rclpy can read ``data``."""
    try:
        cdr.JointStateReader().read(data)
        return False
    except ValueError:
        pass
    try:
        deserialize_message(data, JointState)
        return False
    except (RuntimeError, ValueError):
        return True


def _payloads(count, seed=11):
    """Return ``count`` seeded payloads that are no JointState, of every kind of damage."""
    rng = np.random.default_rng(seed)
    message = JointState(name=JOINTS, position=HOME, velocity=[0.1] * 7, effort=[0.0] * 7)
    message.header.stamp.sec, message.header.frame_id = 7, 'base'
    good = serialize_message(message)
    candidates = [bytes.fromhex('0001000064000000'), b'', b'\x00', b'\x00\x01\x00\x00']
    candidates += [good[:size] for size in range(len(good))]  # truncated
    candidates += [b'\x00' + bytes([kind]) + good[2:] for kind in range(2, 256)]  # encoding
    nul = [i for i, byte in enumerate(good) if byte == 0 and i > 20]
    candidates += [good[:i] + b'x' + good[i + 1:] for i in nul]  # a string without its NUL
    payloads = [data for data in candidates if _undecodable(data)]
    while len(payloads) < count:
        if rng.random() < 0.5:  # a count or a length past the end
            at = 4 + 4 * int(rng.integers(0, (len(good) - 4) // 4))
            value = int(rng.integers(len(good), 2 ** 32))
            data = good[:at] + value.to_bytes(4, 'little') + good[at + 4:]
        else:  # random bytes
            data = rng.bytes(int(rng.integers(0, 400)))
        if _undecodable(data):
            payloads.append(data)
    return payloads[:count]


@pytest.fixture
def running():
    # Reliable joint_states (the node's QoS override) so that every payload of a batch arrives:
    # this test counts them. The node's default, best effort, is tested elsewhere.
    run = Running(['--params-file', PANDA, '-p',
                   'qos_overrides./joint_states.subscription.reliability:=reliable'],
                  best_effort=False)
    yield run
    run.stop()


def test_payloads_that_are_no_joint_state_are_counted_and_tf_stays_exact(running):
    node, probe = running.node, running.probe
    payloads = _payloads(1000)
    assert len(payloads) == 1000
    expected = CHAIN.link_poses(HOME)
    for start in range(0, len(payloads), BATCH):
        received = node.flow.cache.received
        batch = payloads[start:start + BATCH]
        for data in batch:
            probe.reliable.publish(data)
        stamp = probe.send(JOINTS, HOME)  # the sentinel: it comes after the batch
        message = probe.wait_for_stamp('tf', stamp)
        assert node.flow.cache.received == received + len(batch) + 1
        assert stamp_ns(message.transforms[0].header) == stamp
        np.testing.assert_allclose(tf_poses(message), expected, rtol=0, atol=1e-12)
    counts = node.flow.cache.counts
    assert counts['malformed'] == len(payloads)
    assert counts['accepted'] == len(payloads) // BATCH
    assert node.flow.cache.dropped_total() == len(payloads)
