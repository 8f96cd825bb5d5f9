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
sim_arm: publish joint_states that sweep a model's joints, for demos and tests.

Positions, velocities and the efforts the model predicts for the sweep
(:func:`core.dynamics.equations.joint_torques` at the exact accelerations), optionally with a
payload the model does not know (``extra_payload.*``) and a collision: a constant torque or
force on one joint for a while, once or repeated (``collision.*``), so that the effort monitor
can be shown. The collision's effort is the motor's against the obstacle, the motion unchanged:
the node's ``~/external_torque`` reads it with the opposite sign. With ``trajectory`` (a CSV
joint log, as ``dh_kinematics excite`` writes), it plays that log over and over instead of the
sweep; ``sim_arm --trajectory FILE`` sets it.

What each of the node's limits takes to be exceeded: velocities grow as ``1 / period`` and
accelerations as ``1 / period^2`` (a shorter ``period`` passes a velocity, an acceleration or
the tool speed limit); ``collision.effort`` passes an effort limit; ``overshoot`` passes the
position and soft limits. The sweep swings every joint through the middle of its range, so it
passes the singularities there (the Puma's stretched elbow, and its wrist at q5 = 0).
"""

import sys

from dh_kinematics import logs
from dh_kinematics.core.dynamics.equations import joint_torques
from dh_kinematics.core.dynamics.payload import check_payload, fold
from dh_kinematics.logs.playback import Playback
from dh_kinematics.node_logic.sweep import sweep
from dh_kinematics.parameters.specs import SIM_ARM
from dh_kinematics.ros import entry
from dh_kinematics.ros.main import guard_clock, quiet_at_shutdown, run
from dh_kinematics.ros.parameters import declare
from rclpy.node import Node
from sensor_msgs.msg import JointState


def simulated(chain, mass, com):
    """Return ``chain`` with its own payload folded in and an extra one (kg, m) at the tool."""
    links = list(chain.links)
    last = links[-1]
    m, r, inertia = fold(last.m, last.r, last.I, chain.payload, chain.tool)
    links[-1] = last.replace(m=m, r=r, I=inertia)
    return type(chain)(links, chain.base, chain.tool, chain.gravity, chain.name,
                       payload=check_payload(mass, com, field='extra_payload'))


def collision_active(t, start, duration, every):
    """Tell whether the collision acts at ``t`` s after the start (``every`` 0: once)."""
    if t < start:
        return False
    return ((t - start) % every if every > 0.0 else t - start) < duration


class SimArm(Node):
    """Sweep every joint of the model smoothly through its range, optionally past a limit."""

    def __init__(self, **kwargs):
        super().__init__('sim_arm', **kwargs)
        guard_clock(self)
        config = declare(self, SIM_ARM)
        self._chain, settings = config.chain, config.settings
        self._settings = settings
        rate, self._period = settings['rate'], settings['period']
        self._overshoot = settings['overshoot']
        self._prismatic = [link.isprismatic() for link in self._chain.links]
        self._dynamics = simulated(self._chain, settings['extra_payload.mass'],
                                   settings['extra_payload.com']).dynamic_constants
        joint = settings['collision.joint']
        if joint and joint not in self._chain.joint_names:
            raise ValueError(f'collision.joint: {joint!r} is not a joint of the model '
                             f'({", ".join(self._chain.joint_names)})')
        self._collision = self._chain.joint_names.index(joint) if joint else None
        self._playback = None
        if settings['trajectory']:
            log, _ = logs.read(settings['trajectory'])
            self._playback = Playback(logs.for_model(log, self._chain))
        self._publisher = self.create_publisher(JointState, 'joint_states', 10)
        self._start = self.get_clock().now()
        self.create_timer(1.0 / rate, self._publish)
        what = (f'playing {settings["trajectory"]} over and over' if self._playback else
                f'sweeping, overshoot {self._overshoot:g}')
        self.get_logger().info(f'{self._chain.name or "arm"} ({self._chain.n} joints) at '
                               f'{rate:g} Hz: {what}')

    @property
    def start_time(self):
        """Return the node's clock when it started: the time its sweep is counted from."""
        return self._start

    @quiet_at_shutdown
    def _publish(self):
        now = self.get_clock().now()
        t = (now - self._start).nanoseconds * 1e-9
        if self._playback is not None:
            q, qd, qdd = self._playback.at(t)
        else:
            q, qd, qdd = sweep(t, self._chain.qlim, self._prismatic, self._period,
                               self._overshoot)
        effort = joint_torques(self._dynamics, q.tolist(), qd.tolist(), qdd.tolist())
        settings = self._settings
        if self._collision is not None and collision_active(
                t, settings['collision.start'], settings['collision.duration'],
                settings['collision.every']):
            effort[self._collision] += settings['collision.effort']
        message = JointState(name=list(self._chain.joint_names), position=q.tolist(),
                             velocity=qd.tolist(), effort=effort)
        message.header.stamp = now.to_msg()
        self._publisher.publish(message)


def ros_arguments(argv):
    """Return ``argv`` with ``--trajectory FILE`` as the ``trajectory`` parameter's override."""
    argv = list(argv)
    if '--trajectory' not in argv:
        return argv
    at = argv.index('--trajectory')
    if at + 1 >= len(argv):
        raise SystemExit('sim_arm: error: --trajectory needs a file (a CSV joint log)')
    path = argv[at + 1]
    rest = argv[:at] + argv[at + 2:]
    extra = ['-p', f'trajectory:={path}']
    if '--ros-args' in rest:
        at = rest.index('--ros-args') + 1
        return rest[:at] + extra + rest[at:]
    return rest + ['--ros-args'] + extra


def main(args=None):
    """Run sim_arm; exit 1 with one clear message when the model is invalid."""
    argv = ros_arguments(sys.argv if args is None else args)
    return entry.guarded(run, SimArm, 'sim_arm', argv)


if __name__ == '__main__':
    sys.exit(main())
