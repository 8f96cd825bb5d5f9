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
Helpers for the node benchmarks: processes, their CPU and memory, and a /tf receiver.

Every process gets ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST and the benchmark's own
ROS_DOMAIN_ID, so DDS traffic stays on this machine.
"""

import functools
import os
import pathlib
import struct
import subprocess
import sys
import threading
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
PANDA = ROOT / 'config' / 'panda.yaml'
GENERATED_JOINTS = 30
CLOCK_TICK_S = 1.0 / os.sysconf('SC_CLK_TCK')


def ros_environment(domain_id=None):
    """Set (and return) the environment that keeps DDS on loopback in a domain of our own."""
    os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    os.environ['ROS_DOMAIN_ID'] = str(domain_id if domain_id is not None
                                      else 150 + os.getpid() % 50)
    os.environ['PYTHONUNBUFFERED'] = '1'
    return dict(os.environ)


def start(command):
    """Start a Python process of this benchmark (``command`` after the interpreter)."""
    return subprocess.Popen([sys.executable] + [str(part) for part in command],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@functools.lru_cache
def model_file(target):
    """
    Return the model file a target runs on.

    The Panda, or for ``dh_kinematics_30`` a generated arm of GENERATED_JOINTS joints, written
    into bench/results.
    """
    if target != 'dh_kinematics_30':
        return PANDA
    from dh_kinematics import Chain, Link
    path = ROOT / 'bench' / 'results' / f'arm{GENERATED_JOINTS}.yaml'
    path.parent.mkdir(parents=True, exist_ok=True)
    # Standard DH with a != 0: each joint also publishes its axis frame (two transforms).
    Chain([Link(a=0.1, alpha=0.3, d=0.05, qlim=(-2.0, 2.0), m=1.0, B=0.001, Tc=0.1,
                name=f'j{i}') for i in range(GENERATED_JOINTS)], name='arm30').to_yaml(path)
    return path


def target_command(target):
    """
    Return the command of a node: ``baseline``, ``baseline_raw`` or ``dh_kinematics``.

    ``dh_kinematics_dynamics`` is the node with the effort monitor on (thresholds no residual
    reaches, so that only the cost shows); ``dh_kinematics_30`` the node on a generated arm of
    GENERATED_JOINTS joints; ``dh_kinematics_velocity`` the node watching each joint's velocity
    (the usual message's short way); ``dh_kinematics_limits`` the node watching velocity,
    acceleration, jerk and effort limits, the tool's speed and the singularity (the full way);
    ``dh_kinematics_safety`` the node watching every safety figure (:data:`PANDA_SAFETY`);
    ``dh_kinematics_every`` every monitor on: the limits, the effort monitor and the safety
    with self-collision; ``dh_kinematics_every_blocks`` the same, judging the messages of
    10 ms as one block (``monitors.block_period``); ``dh_kinematics_self_collision`` the node
    watching self-collision alone (the Panda's capsules, its file's ignored pairs).
    """
    blocks = target == 'dh_kinematics_every_blocks'
    target = 'dh_kinematics_every' if blocks else target
    if target.startswith('baseline'):
        return [ROOT / 'bench' / 'baseline_node.py', '--transforms', '7'] + (
            ['--raw'] if target == 'baseline_raw' else [])
    command = ['-m', 'dh_kinematics.ros.node', '--ros-args', '--params-file',
               model_file(target)]
    if target == 'dh_kinematics_dynamics':
        command += ['-p', 'effort.warn:=[500.0]', '-p', 'effort.error:=[1000.0]']
    if target == 'dh_kinematics_velocity':  # the datasheet's speeds, which the sweep keeps
        command += [arg for j, limit in enumerate(PANDA_VELOCITY_LIMITS, start=1)
                    for arg in ('-p', f'panda_joint{j}.velocity_limit:={limit}')]
    if target in ('dh_kinematics_limits', 'dh_kinematics_every'):  # joint_limits.yaml, the arm
        command += ['--params-file', ROOT / 'config' / 'panda_joint_limits.yaml', '-p',
                    'singularity.enabled:=true', '-p', 'tool_speed_limit:=10.0']
    if target == 'dh_kinematics_every':  # and the effort monitor, past what a residual reaches
        command += ['-p', 'effort.warn:=[500.0]', '-p', 'effort.error:=[1000.0]']
    if target in ('dh_kinematics_safety', 'dh_kinematics_every'):  # what a cobot watches, all
        command += [argument for name, value in PANDA_SAFETY.items()
                    for argument in ('-p', f'{name}:={value}')]
    if target in ('dh_kinematics_every', 'dh_kinematics_self_collision'):
        command += ['-p', 'safety.self_collision.enabled:=true']
    if blocks:
        command += ['-p', 'monitors.block_period:=0.01']
    return command


PANDA_SAFETY = {
    'safety.frame_speed_limits.panda_hand_tcp': 1.5, 'safety.frame_speed_limits.panda_link4': 1.5,
    'safety.momentum_limit': 25.0, 'safety.kinetic_energy_limit': 10.0,
    'safety.power_limit': 300.0, 'safety.stopping_time_limit': 0.4,
    'safety.stopping_distance_limit': 0.5, 'safety.planes.floor': '[0.0, 0.0, 1.0, -0.3]',
    'safety.plane_frames': '[panda_hand_tcp, panda_link4]',
    'safety.tool_spheres': '[0.0, 0.0, 0.0, 0.05]', 'safety.tool_direction.limit': 2.5,
    'safety.contact.body_region': 'hands_fingers'}
PANDA_SAFETY.update({f'panda_joint{j}.deceleration_limit': value for j, value in enumerate(
    (3.75, 1.875, 2.5, 3.125, 3.75, 5.0, 5.0), start=1)})
"""The Panda's safety settings in dh_kinematics_safety: UR's default preset's figures, a floor
under the base, a hand: every safety status on, and no other limit (the stop's decelerations
are config/panda_joint_limits.yaml's accelerations, set alone)."""


PANDA_VELOCITY_LIMITS = (2.175, 2.175, 2.175, 2.175, 2.61, 2.61, 2.61)
"""The Panda's joint speeds, rad/s (config/panda_joint_limits.yaml)."""


def stop(process, timeout=5.0):
    """SIGINT a process, wait for it, kill it if it hangs; return its stdout and stderr."""
    if process.poll() is None:
        process.send_signal(2)
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()


def cpu_seconds(pid):
    """Return the user + system CPU time of a process, in s (10 ms resolution)."""
    fields = pathlib.Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * CLOCK_TICK_S


def rss_bytes(pid):
    """Return the resident memory of a process, in bytes."""
    for line in pathlib.Path(f'/proc/{pid}/status').read_text().splitlines():
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) * 1024
    raise ValueError(f'pid: no VmRSS for process {pid}')


class TfReceiver:
    """
    Record the arrival time and stamp of every /tf message, without deserialising it.

    A raw subscription reads the first transform's stamp straight from the CDR bytes
    (encapsulation 4 bytes, sequence length 4, then sec int32 and nanosec uint32), so the
    receiver stays far faster than the nodes it measures. Spun in a thread by the executor the
    nodes use.
    """

    def __init__(self):
        import rclpy
        from diagnostic_msgs.msg import DiagnosticArray
        from sensor_msgs.msg import JointState
        from tf2_msgs.msg import TFMessage
        from dh_kinematics.ros.node import TF_QOS
        from dh_kinematics.ros.main import make_executor, spin

        self._rclpy = rclpy
        self.context = rclpy.Context()
        rclpy.init(context=self.context)
        self.node = rclpy.create_node('bench_receiver', context=self.context)
        self.arrivals, self.stamps = [], []
        self.subscription = self.node.create_subscription(
            TFMessage, '/tf', self._on_tf, TF_QOS, raw=True)
        # A subscriber on the friction torques too, so that the node really publishes them.
        self.friction = self.dynamics = 0
        self._dynamics = []
        self.node.create_subscription(JointState, '/dh_kinematics/friction_torque',
                                      self._on_friction, 100, raw=True)
        # And on the diagnostics, which the node builds only for a subscriber.
        self.diagnostics = 0
        self.node.create_subscription(DiagnosticArray, '/diagnostics', self._on_diagnostics,
                                      10, raw=True)
        self.executor = make_executor(self.context)
        self.executor.add_node(self.node)
        self.thread = threading.Thread(target=spin, args=(self.executor, self.context),
                                       daemon=True)
        self.thread.start()

    def _on_diagnostics(self, data):
        self.diagnostics += 1

    def _on_friction(self, data):
        self.friction += 1

    def _on_dynamics(self, data):
        self.dynamics += 1

    def subscribe_dynamics(self, on):
        """Subscribe to the node's gravity, expected effort and residual topics, or stop."""
        from sensor_msgs.msg import JointState
        for subscription in self._dynamics:
            self.node.destroy_subscription(subscription)
        self._dynamics = [self.node.create_subscription(
            JointState, f'/dh_kinematics/{topic}', self._on_dynamics, 100, raw=True)
            for topic in ('gravity_torque', 'expected_effort', 'effort_residual')] if on else []

    def _on_tf(self, data):
        self.arrivals.append(time.time_ns())
        sec, nanosec = struct.unpack_from('<iI', data, 8)
        self.stamps.append(sec * 1_000_000_000 + nanosec)

    def wait_for_publisher(self, count=1, timeout=20.0):
        """Wait until ``count`` nodes publish on /tf; raise RuntimeError at the deadline."""
        deadline = time.monotonic() + timeout
        while self.subscription.get_publisher_count() != count:
            if time.monotonic() > deadline:
                raise RuntimeError(f'not {count} /tf publishers within {timeout} s')
            time.sleep(0.01)

    def clear(self):
        """Forget what was received."""
        self.arrivals, self.stamps, self.friction, self.dynamics = [], [], 0, 0

    def between(self, first_ns, last_ns):
        """Return the latencies in s of the messages stamped in [first_ns, last_ns], unique."""
        arrivals, stamps = np.array(self.arrivals), np.array(self.stamps)
        inside = (stamps >= first_ns) & (stamps <= last_ns)
        _, unique = np.unique(stamps[inside], return_index=True)
        return (arrivals[inside][unique] - stamps[inside][unique]) * 1e-9

    def close(self):
        """Stop spinning and shut the context down."""
        self._rclpy.try_shutdown(context=self.context)
        self.thread.join(timeout=5.0)
        self.executor.shutdown()
        self.node.destroy_node()
