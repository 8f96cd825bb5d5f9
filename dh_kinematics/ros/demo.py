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
make demo: run the node and sim_arm on a built-in model and print a live summary.

Every second it prints a few frame positions composed from /tf, the friction torques, the
external torques (the effort monitor's observer), the safety figures (``~/safety``) and the
diagnostics level of each joint and of each of the arm's checks, whose safety limits the sweep
passes (:func:`safety_arguments`). sim_arm sweeps a little past the limits (ERROR on the limit
monitor) and, from 5 s on (``--collision-start``), hits the second joint with a collision
torque for 2 s of every 10 s, which the effort monitor flags. It runs for ``--duration``
seconds (0: until Ctrl-C). DDS traffic stays on this machine unless
ROS_AUTOMATIC_DISCOVERY_RANGE says otherwise.
"""

import argparse
import os
import signal
import subprocess
import sys
import time

from dh_kinematics.node_logic.monitors.levels import LEVEL_NAMES
from dh_kinematics.parameters import files
from dh_kinematics.parameters.specs import SIM_ARM
from dh_kinematics.ros import launch_config


class Summary:
    """
    Collect /tf, /tf_static, friction and diagnostics; print one block per call.

    A problem is shown at the worst level it reached since the last block: a singularity the
    sweep passes in a few milliseconds is seen though it has cleared by the time of printing.
    """

    def __init__(self, node, chain):
        from diagnostic_msgs.msg import DiagnosticArray
        from rclpy.qos import DurabilityPolicy, QoSProfile
        from sensor_msgs.msg import JointState
        from std_msgs.msg import Float64MultiArray
        from tf2_msgs.msg import TFMessage

        self.chain, self.transforms, self.friction, self.levels = chain, {}, None, {}
        self.external, self.worst, self.safety = None, {}, None
        self.count = 0
        node.create_subscription(TFMessage, '/tf', self._on_tf, 100)
        node.create_subscription(TFMessage, '/tf_static', self._on_tf, QoSProfile(
            depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        node.create_subscription(JointState, '/dh_kinematics/friction_torque',
                                 self._on_friction, 10)
        node.create_subscription(JointState, '/dh_kinematics/external_torque',
                                 self._on_external, 10)
        node.create_subscription(DiagnosticArray, '/diagnostics', self._on_diagnostics, 10)
        node.create_subscription(Float64MultiArray, '/dh_kinematics/safety', self._on_safety, 10)

    def _on_tf(self, message):
        import numpy as np
        from dh_kinematics.core.rotations import quaternion_to_matrix

        for t in message.transforms:
            T = np.eye(4)
            r, p = t.transform.rotation, t.transform.translation
            T[:3, :3] = quaternion_to_matrix([r.x, r.y, r.z, r.w])
            T[:3, 3] = (p.x, p.y, p.z)
            self.transforms[t.child_frame_id] = (t.header.frame_id, T)
        self.count += 1

    def _on_friction(self, message):
        self.friction = dict(zip(message.name, message.effort))

    def _on_external(self, message):
        self.external = dict(zip(message.name, message.effort))

    def _on_safety(self, message):
        self.safety = dict(zip(message.layout.dim[0].label.split(), message.data))

    def _on_diagnostics(self, message):
        for status in message.status:
            task, now = status.name.split(': ', 1)[1], (status.level[0], status.message)
            self.levels[task] = now
            if now[0] >= self.worst.get(task, (0, ''))[0]:  # the worst since the last print
                self.worst[task] = now

    def position(self, frame, root):
        """Compose /tf from ``root`` to ``frame``; return xyz in m, or None."""
        import numpy as np
        T = np.eye(4)
        while frame != root:
            if frame not in self.transforms:
                return None
            frame, A = self.transforms[frame]
            T = A @ T
        return T[:3, 3]

    def text(self, elapsed):
        chain = self.chain
        lines = [f'--- {elapsed:5.1f} s: {self.count} TF messages; the values as they are now, '
                 'the problems since the last print ---']
        shown = [chain.link_frames[1], chain.link_frames[len(chain.link_frames) // 2],
                 chain.tool_frame]
        cells = []
        for frame in shown:
            xyz = self.position(frame, chain.base_frame)
            cells.append(f'{frame} ' + ('-' if xyz is None else
                                        '[' + ' '.join(f'{v:+.3f}' for v in xyz) + ']'))
        lines.append(f'frames in {chain.base_frame} (m): ' + '  '.join(cells))
        if self.friction:
            lines.append('friction (N m or N): ' + '  '.join(
                f'{name} {value:+.3f}' for name, value in self.friction.items()))
        if self.external:
            lines.append('external torque (N m or N): ' + '  '.join(
                f'{name} {value:+.3f}' for name, value in self.external.items()))
        if self.safety:
            shown = (('momentum', 'momentum', 'kg m/s'), ('kinetic_energy', 'energy', 'J'),
                     ('power', 'power', 'W'), ('stopping_time', 'stop', 's'),
                     ('stopping_distance', 'tool stops within', 'm'),
                     ('tool_speed', 'tool', 'm/s'), ('contact_speed', 'contact limit', 'm/s'))
            lines.append('safety: ' + '  '.join(
                f'{label} {self.safety[name]:.3g} {unit}' for name, label, unit in shown
                if name in self.safety))
        if self.levels:
            lines.append('diagnostics now: ' + '  '.join(
                f'{task} {LEVEL_NAMES[level]}' for task, (level, _) in self.levels.items()))
            problems = [f'{task}: {text}' for task, (level, text) in self.worst.items()
                        if level and task != 'arm']
            if problems:  # the worst of each, not only what is now
                lines += ['not OK since the last print:'] + [f'  {line}' for line in problems]
            self.worst = dict(self.levels)
        return '\n'.join(lines)


def _interrupt(*_):
    raise KeyboardInterrupt


# Longer than a child's own teardown watchdog (ros.main.TEARDOWN_S, 10 s), which ends a child
# whose rclpy teardown hangs (rare, under load): the demo must not give up first.
CHILD_EXIT_S = 20.0


def stop_children(children, timeout=CHILD_EXIT_S):
    """SIGINT the children still running and wait for them; kill any that outlive ``timeout``."""
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGINT)
    deadline = time.monotonic() + timeout
    for child in children:
        try:
            child.wait(timeout=max(deadline - time.monotonic(), 0.0))
        except subprocess.TimeoutExpired:
            command = ' '.join(map(str, child.args[1:3]))
            print(f'killed {command} after {timeout} s', file=sys.stderr)
            child.kill()
            child.wait()


def _velocity_limit(chain, overshoot, fraction=0.9):
    """
    Return the node arguments that give the first joint a velocity limit sim_arm passes.

    Where the model has none: ``fraction`` of the joint's peak speed in sim_arm's sweep, so
    that the demo shows velocity WARN and ERROR (the model's own limit is kept otherwise).
    """
    from dh_kinematics.node_logic.sweep import sweep_speeds

    if chain.links[0].velocity_limit is not None:
        return []
    period = next(spec.default for spec in SIM_ARM if spec.name == 'period')
    prismatic = [link.isprismatic() for link in chain.links]
    peak = float(sweep_speeds(chain.qlim, prismatic, period, overshoot)[0])
    return ['-p', f'{chain.joint_names[0]}.velocity_limit:={fraction * peak!r}']


SAFETY_FRACTION = 0.8
"""The demo's safety limits: this fraction of each quantity's peak over sim_arm's sweep."""


def safety_arguments(chain, period, overshoot, fraction=SAFETY_FRACTION):
    """
    Return the node arguments that set every safety limit so that sim_arm's sweep passes it.

    Over one period of the sweep (:func:`node_logic.sweep.sweep`, the model's efforts for its
    power), each quantity's peak; each limit at ``fraction`` of it: the tool's and the middle
    link's speeds, the momentum, the kinetic energy, the power, the stopping time and distance
    (with each joint's deceleration limit set, where the model has none, to its peak
    acceleration in the sweep, twice that but the first joint's); a floor the tool dips below
    for part of the sweep, and the tool's direction; and, for the transient contact, the hand
    where the tool passes its permitted speed, else the body region whose permitted speed it
    passes by most.
    """
    import numpy as np
    from dh_kinematics.core.safety import contact
    from dh_kinematics.node_logic.monitors.safety import Safety
    from dh_kinematics.node_logic.sweep import sweep
    from dh_kinematics.parameters.specs import NODE

    prismatic = [link.isprismatic() for link in chain.links]
    states = [sweep(t, chain.qlim, prismatic, period, overshoot)
              for t in np.linspace(0.0, period, 400, endpoint=False)]
    arguments = []
    # Braking at its peak acceleration in the sweep, every joint would stop in the same time
    # whenever it moves; the first joint brakes at that, the others at twice: the stop's time
    # follows the first joint, and rises and falls with it.
    decelerations = np.max([np.abs(qdd) for _, _, qdd in states], axis=0)
    decelerations[1:] *= 2.0
    for name, link, peak in zip(chain.joint_names, chain.links, decelerations):
        if link.deceleration_limit is None and link.acceleration_limit is None:
            arguments += ['-p', f'{name}.deceleration_limit:={max(float(peak), 1e-3)!r}']
            chain = chain.replace(links=[
                other.replace(deceleration_limit=max(float(peak), 1e-3)) if other is link
                else other for other in chain.links])
    frames = [chain.tool_frame, chain.link_frames[len(chain.link_frames) // 2]]
    settings = {spec.name: spec.default for spec in NODE}
    settings.update({f'safety.frame_speed_limits.{frame}': 1.0 for frame in frames})
    settings.update({'safety.stopping_time_limit': 1.0, 'safety.stopping_distance_limit': 1.0,
                     'safety.tool_direction.limit': 1.0,
                     'safety.tool_direction.axis': chain.fkine(states[0][0])[:3, 2].tolist(),
                     'safety.contact.body_region': 'hands_fingers'})
    safety = Safety()
    safety.configure(chain, settings)
    measured = [safety.measure(q, qd, chain.rne(q, qd, qdd)) for q, qd, qdd in states]
    peaks = {f'safety.frame_speed_limits.{frame}': max(v['frame_speed'][k] for v in measured)
             for k, frame in enumerate(frames)}
    peaks.update({
        'safety.momentum_limit': max(np.linalg.norm(v['momentum']) for v in measured),
        'safety.kinetic_energy_limit': max(v['kinetic_energy'] for v in measured),
        'safety.power_limit': max(abs(v['power']) for v in measured),
        'safety.stopping_time_limit': max(v['stopping_time'] for v in measured),
        'safety.stopping_distance_limit': max(v['stopping_distance'] for v in measured),
        'safety.tool_direction.limit': max(v['tool_direction'] for v in measured)})
    for name, peak in peaks.items():
        if peak > 0.0:
            arguments += ['-p', f'{name}:={fraction * float(peak)!r}']
    arguments += ['-p', 'safety.tool_direction.axis:=' + str(
        settings['safety.tool_direction.axis'])]
    heights = sorted(float(chain.fkine(q)[2, 3]) for q, _, _ in states)
    arguments += ['-p', f'safety.planes.floor:=[0.0, 0.0, 1.0, {heights[len(heights) // 4]!r}]',
                  '-p', f'safety.plane_frames:=[{chain.tool_frame}]']
    masses = [(v['tool_speed'], v['reflected_mass']) for v in measured
              if v['reflected_mass'] == v['reflected_mass']]

    def passed(region):  # how far past the permitted speed the tool goes, at its worst
        return max(speed / contact.permissible_speed(region, mass) for speed, mass in masses)
    regions = contact.BODY_REGIONS
    region = 'hands_fingers' if passed(regions['hands_fingers']) > 1.0 else max(
        regions, key=lambda name: passed(regions[name]))
    return arguments + ['-p', f'safety.contact.body_region:={region}']


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.strip().split('\n')[0])
    parser.add_argument('--robot', default='puma560', help='a built-in model: ' +
                        ', '.join(launch_config.builtin_models()))
    parser.add_argument('--params-file', default='',
                        help='a parameter file of your own; replaces --robot')
    parser.add_argument('--duration', type=float, default=15.0,
                        help='seconds to run; 0 runs until Ctrl-C')
    parser.add_argument('--overshoot', type=float, default=0.05,
                        help='how far sim_arm sweeps past the limits, rad or m')
    parser.add_argument('--collision', type=float, default=25.0,
                        help='the collision on the second joint, N m or N (0: none); the '
                        'effort monitor warns at 5 and errs at 15')
    parser.add_argument('--collision-start', type=float, default=5.0,
                        help='s after the start of sim_arm; then every 10 s for 2 s')
    parser.add_argument('--tool-speed-limit', type=float, default=1.0,
                        help='the tool speed limit the node watches, m/s')
    args = parser.parse_args(argv)
    os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
    import rclpy
    from rclpy.executors import ExternalShutdownException

    try:
        params = str(launch_config.model_file(args.robot, args.params_file))
        chain = files.read(params)[1].chain
    except ValueError as error:
        parser.error(str(error))
    joint = chain.joint_names[min(1, chain.n - 1)]
    period = next(spec.default for spec in SIM_ARM if spec.name == 'period')
    children = [
        subprocess.Popen([sys.executable, '-m', 'dh_kinematics.ros.node', '--ros-args',
                          '--params-file', params, '-p', 'effort.warn:=[5.0]',
                          '-p', 'effort.error:=[15.0]', '-p', 'singularity.enabled:=true',
                          '-p', f'tool_speed_limit:={args.tool_speed_limit}']
                         + _velocity_limit(chain, args.overshoot)
                         + safety_arguments(chain, period, args.overshoot)),
        subprocess.Popen([sys.executable, '-m', 'dh_kinematics.ros.sim_arm', '--ros-args',
                          '--params-file', params, '-p', f'overshoot:={args.overshoot}',
                          '-p', f'collision.joint:={joint}',
                          '-p', f'collision.effort:={args.collision}',
                          '-p', f'collision.start:={args.collision_start}',
                          '-p', 'collision.duration:=2.0', '-p', 'collision.every:=10.0'])]
    signal.signal(signal.SIGTERM, _interrupt)
    rclpy.init()
    node = rclpy.create_node('dh_kinematics_demo')
    summary = Summary(node, chain)
    start = next_print = time.monotonic()
    try:
        while args.duration <= 0 or time.monotonic() - start < args.duration:
            rclpy.spin_once(node, timeout_sec=0.05)
            if time.monotonic() >= next_print:
                print(summary.text(time.monotonic() - start), flush=True)
                next_print += 1.0
            if any(child.poll() is not None for child in children):
                print('a child process ended early', file=sys.stderr)
                return 1
    except KeyboardInterrupt:
        pass
    except (ExternalShutdownException, RuntimeError):  # a signal shut rclpy down mid-call
        if rclpy.ok():
            raise
    finally:
        stop_children(children)
        node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
