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
The node's external torques, tool wrench and contact status over real DDS.

The Panda of ``examples/simulate_contact.py`` (pinocchio's forward dynamics) meets a contact;
its joint_states go to the node one at a time, each waited for on ``~/external_torque``.
"""

import math

from diagnostic_msgs.msg import DiagnosticArray
from geometry_msgs.msg import WrenchStamped
from helpers import CONTACT, contact_arm, contact_run, GAIN, needs_pin
import numpy as np
import pytest
from ros_fixtures import Running
from sensor_msgs.msg import JointState

pytestmark = pytest.mark.ros


def _start(tmp_path, chain, *settings):
    path = tmp_path / 'arm.yaml'
    chain.to_yaml(path)
    args = ['--params-file', str(path), '-p', f'effort.observer_gain:={GAIN}']
    for setting in settings:
        args += ['-p', setting]
    running = Running(args)
    probe = running.probe
    probe.record('external', JointState, '/dh_kinematics/external_torque', 1000)
    probe.record('wrench', WrenchStamped, '/dh_kinematics/external_wrench', 1000)
    probe.record('deviation', WrenchStamped, '/dh_kinematics/external_wrench_deviation', 1000)
    running.wait_matched(running.node)
    probe.wait_until(lambda: running.node.flow.wanted.external and running.node.flow.wanted.wrench,
                     'the node did not see the subscriptions')
    return running


def _stream(running, chain, samples):
    """Send every sample, stamped from now at its time; return the stamps (ns)."""
    t, q, qd, effort, _ = samples
    probe = running.probe
    start = probe.node.get_clock().now().nanoseconds
    stamps = []
    for k in range(len(t)):
        stamp = probe.send(chain.joint_names, q[k], qd[k], start + int(round(t[k] * 1e9)),
                           efforts=effort[k])
        stamps.append(stamp)
        if k:  # the first message starts the observer: no estimate for it
            probe.wait_for_stamp('external', stamp)
    return stamps


@needs_pin
def test_the_node_publishes_the_external_torque_and_the_contact(tmp_path):
    _, chain, _ = contact_arm('panda')
    samples, size, noise = contact_run('panda', 3)
    warn = ', '.join(f'{value:.6g}' for value in 3.0 * noise)
    running = _start(tmp_path, chain, f'effort.warn:=[{warn}]',
                     f'effort.error:=[{0.5 * size}]', 'effort.hold:=0.02')
    try:
        probe = running.probe
        probe.record('diagnostics', DiagnosticArray, '/diagnostics', 100)
        stamps = _stream(running, chain, samples)
        t = samples[0]
        by_stamp = {message.header.stamp.sec * 10 ** 9 + message.header.stamp.nanosec: message
                    for message in probe.messages['external']}
        for time, stamp in zip(t[1:], stamps[1:]):
            message = by_stamp[stamp]
            assert list(message.name) == list(chain.joint_names)
            expected = np.zeros(chain.n)
            if time >= CONTACT:
                expected[3] = -size * math.expm1(-GAIN * (time - CONTACT))
            assert np.abs(np.array(message.effort) - expected).max() <= 0.02 * size
        found = probe.wait_for('diagnostics', lambda array: any(
            status.name == '/dh_kinematics: arm'
            and status.message.startswith('contact at or beyond panda_link4; ERROR: '
                                          'panda_joint4 (external torque +')
            for status in array.status))
        joint4 = next(status for status in found.status if status.name.endswith('panda_joint4'))
        values = {value.key: value.value for value in joint4.values}
        assert float(values['external_torque']) > 0.5 * size
    finally:
        running.stop()


@needs_pin
def test_the_node_publishes_the_tool_wrench_in_the_base_frame(tmp_path):
    _, chain, _ = contact_arm('panda')
    direction = np.array([0.6, -0.64, 0.48])
    samples, size, _ = contact_run('panda', 0, force=tuple(direction))
    running = _start(tmp_path, chain, 'effort.velocity_noise:=[0.0001]',
                     'effort.effort_noise:=[0.05]')
    try:
        stamps = _stream(running, chain, samples)
        probe = running.probe
        last = probe.wait_for_stamp('wrench', stamps[-1])
        assert last.header.frame_id == chain.base_frame
        R_world_base = chain.base[:3, :3]
        force = R_world_base @ [last.wrench.force.x, last.wrench.force.y, last.wrench.force.z]
        assert np.linalg.norm(force - size * direction) <= 0.05 * size, force / size
        # Its deviation, with the same stamp and frame: what a user weighs the force by.
        deviation = probe.wait_for_stamp('deviation', stamps[-1])
        assert deviation.header.frame_id == chain.base_frame
        values = [deviation.wrench.force.x, deviation.wrench.force.y, deviation.wrench.force.z,
                  deviation.wrench.torque.x, deviation.wrench.torque.y, deviation.wrench.torque.z]
        assert all(0.0 < value < 0.01 * size for value in values), values
    finally:
        running.stop()
