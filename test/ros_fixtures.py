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
Run the node under test over real DDS with real rclpy, confined to loopback.

The node runs exactly as its console script runs it: :func:`ros_main.run`, with the production
executor, in a thread and an rclpy context of its own. The probe (:mod:`ros_probe`) that talks
to it has its own context and thread. Before a test sends anything, every topic between the two
has matched both ways.
"""

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

from helpers import pose_transform
from processes import read_line, spawn  # noqa: F401 (read_line for the tests)
import pytest
from ros_probe import DEADLINE_S, Probe, RESEND_S, stamp_ns  # noqa: F401 (for the tests)

from dh_kinematics.ros.main import run  # noqa: E402,I100
from dh_kinematics.ros.node import DhKinematicsNode  # noqa: E402
from dh_kinematics.ros.sim_arm import SimArm  # noqa: E402,F401 (for the tests)
import rclpy  # noqa: E402,I100


def published_tree(probe, stamp):
    """
    Return the TF tree published for ``stamp``: /tf at it and /tf_static, as edges.

    ``{(parent, child): (T_parent_child, 'published')}``, as conftest.world_poses composes.
    """
    edges = {}
    for message in (probe.wait_for_stamp('tf', stamp),
                    probe.wait_for('tf_static', lambda m: True)):
        for t in message.transforms:
            translation, rotation = t.transform.translation, t.transform.rotation
            edges[t.header.frame_id, t.child_frame_id] = (pose_transform(
                [translation.x, translation.y, translation.z],
                [rotation.x, rotation.y, rotation.z, rotation.w]), 'published')
    return edges


def matched_both_ways(first, second):
    """Tell whether every topic between two nodes has matched, from both ends."""
    for writers, readers in ((list(first.publishers), list(second.subscriptions)),
                             (list(second.publishers), list(first.subscriptions))):
        for topic in {w.topic_name for w in writers} & {r.topic_name for r in readers}:
            on_topic = [r for r in readers if r.topic_name == topic]
            from_topic = [w for w in writers if w.topic_name == topic]
            if (min(w.get_subscription_count() for w in from_topic) < len(on_topic)
                    or min(r.get_publisher_count() for r in on_topic) < len(from_topic)):
                return False
    return True


class NodeThread:
    """A node run by :func:`ros_main.run`, as its console script runs it, in a thread."""

    def __init__(self, node_class, name, ros_args):
        self.context = rclpy.Context()
        self.node = self.exit_code = None
        self._started = threading.Event()

        def factory(**kwargs):
            self.node = node_class(**kwargs)
            self._started.set()
            return self.node

        def target():
            try:
                self.exit_code = run(factory, name, [name, '--ros-args'] + ros_args,
                                     self.context)
            finally:
                self._started.set()
        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()
        assert self._started.wait(DEADLINE_S), f'{name} did not start within {DEADLINE_S} s'
        assert self.node is not None, f'{name} ended with exit code {self.exit_code}'

    def stop(self):
        """Shut the node's context down, as SIGINT would; return ``run``'s exit code."""
        rclpy.try_shutdown(context=self.context)
        self.thread.join(DEADLINE_S)
        assert not self.thread.is_alive(), f'the node did not stop within {DEADLINE_S} s'
        return self.exit_code


class Running:
    """The node under test and a probe, matched both ways on every topic they share."""

    def __init__(self, cli_args, namespace='', best_effort=True):
        args = cli_args + (['-r', f'__ns:={namespace}'] if namespace else [])
        self.node_thread = NodeThread(DhKinematicsNode, 'dh_kinematics', args)
        self.node = self.node_thread.node
        self.probe = None
        started = False
        try:
            self.probe = Probe(namespace, best_effort=best_effort)
            self.wait_matched(self.node)
            started = True
        finally:
            if not started:  # leave nothing behind on DDS for the next test
                self.stop()

    def wait_matched(self, node):
        """Wait until ``node`` and the probe have matched both ways on every shared topic."""
        self.probe.wait_until(lambda: matched_both_ways(node, self.probe.node),
                              f'{node.get_name()} and the probe did not match')

    def stop(self):
        """Close the probe, then stop the node; it must end as it does on Ctrl-C (code 0)."""
        if self.probe is not None:
            self.probe.close()
        assert self.node_thread.stop() == 0


class Streamer:
    """
    Send joint_states from a thread, each once the frames of the one before are on /tf.

    Lock-step keeps the stream as fast as the node and the probe can go on a busy machine,
    and no faster: nothing queues up, and a lost message is sent again after ``RESEND_S``.
    """

    def __init__(self, probe, names, configurations):
        self.probe, self.names = probe, list(names)
        self.configurations = configurations
        self.sent, self.seen = {}, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            q = self.configurations[len(self.seen) % len(self.configurations)]
            stamp = self.probe.send(self.names, q)
            self.sent[stamp] = q
            if self.probe.wait_for_stamp('tf', stamp, RESEND_S, fail=False) is not None:
                self.seen.append(stamp)

    def count(self):
        """Return how many messages reached /tf so far."""
        return len(self.seen)

    def stop(self):
        """Stop sending, and wait for the thread to end."""
        self._stop.set()
        self._thread.join(DEADLINE_S)


def refused_start(node_class, name, args, capfd, executable=None):
    """
    Start a node in this process as its executable does, with ``args``; return (code, output).

    For a start-up that is refused: :func:`ros_main.run` with a context of its own, and what it
    wrote to stdout and stderr (rclpy's logger writes to the file descriptors: ``capfd``). A
    node that does start is shut down at once, so that run returns 0 and the test fails on it.
    """
    context = rclpy.Context()

    def factory(**kwargs):
        node = node_class(**kwargs)
        rclpy.try_shutdown(context=context)
        return node

    capfd.readouterr()
    code = run(factory, name, [executable or name] + [str(arg) for arg in args], context,
               executable)
    out, err = capfd.readouterr()
    return code, (out + err).strip()


def start_node(module, ros_args):
    """
    Start ``python -m module --ros-args ...`` in a process; wait for its first log line.

    Return the process; that line is its ``first_line``.
    """
    process = spawn([sys.executable, '-m', module, '--ros-args'] + ros_args,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.first_line = read_line(process)
    if '[INFO]' not in line:
        process.kill()
        raise AssertionError(f'{module} did not start: {line}{process.communicate()[1]}')
    return process


def poll_until(predicate, what, timeout=DEADLINE_S, every=0.001):
    """Re-check ``predicate`` every ``every`` s until it holds; fail at the deadline."""
    deadline, pause = time.monotonic() + timeout, threading.Event()
    while not predicate():
        assert time.monotonic() < deadline, f'{what} within {timeout} s'
        pause.wait(every)


def handles_sigterm(pid):
    """Tell whether a process catches SIGTERM (its own handler is in place), or has ended."""
    try:
        with open(f'/proc/{pid}/status', encoding='ascii') as status:
            for line in status:
                if line.startswith('SigCgt:'):
                    return bool(int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1)))
    except OSError:
        return True
    return False


def interrupt(process, sig=signal.SIGINT, timeout=DEADLINE_S):
    """Send ``sig``; return (exit code, stderr), killing the process after ``timeout``."""
    process.send_signal(sig)
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        return None, err
    return process.returncode, err


def ros2_command():
    """
    Return the ``ros2`` command of a ROS 2 install on which dh_kinematics is built and sourced.

    Skips where there is no ``ros2`` with its launch verb. Where dh_kinematics is not in the
    ament index, skips, but fails when colcon runs the tests (colcon sets ``COLCON=1`` for
    what it runs): ``colcon test`` on a package that ``ros2 launch`` cannot find must not pass.
    """
    command = shutil.which('ros2')
    if command is None or importlib.util.find_spec('ros2launch') is None:
        pytest.skip('needs a sourced ROS 2 install with ros2 launch (apt install '
                    'ros-$ROS_DISTRO-ros2launch)')
    try:
        from ament_index_python.packages import get_package_share_directory
        get_package_share_directory('dh_kinematics')
    except (LookupError, OSError, ValueError):
        message = ('dh_kinematics is not in the ament index: colcon build, then source '
                   'install/setup.bash')
        if os.environ.get('COLCON') == '1':
            pytest.fail(f'{message}. colcon test runs the tests of a package that ros2 launch '
                        'and ros2 run cannot find (a package.xml that catkin_pkg cannot read '
                        'makes colcon build a plain Python package)', pytrace=False)
        pytest.skip(message)
    return command


class Foreground:
    """
    A command as a terminal's foreground job runs it: its output read as it comes.

    ``stop`` is Ctrl-C: SIGINT to its whole process group (``ros2 launch`` and its nodes, ``ros2
    run`` and its node), as a terminal sends it.
    """

    def __init__(self, command, cwd=None):
        self.process = spawn([str(word) for word in command], cwd=cwd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        self.output = ''

    def wait_for(self, pattern, what):
        """Read the output until a line matches ``pattern``; return the match."""
        while True:
            line = read_line(self.process, DEADLINE_S, self.process.stdout)
            self.output += line
            found = re.search(pattern, line)
            if found:
                return found
            assert line.endswith('\n'), (f'{what}: it ended, or said nothing for {DEADLINE_S} '
                                         f's:\n{self.output}')

    def stop(self, sig=signal.SIGINT):
        """
        End it with ``sig`` (Ctrl-C's) unless it ended; return (exit code, all it said).

        With ``sig`` None, wait for it to end by itself (``--show-args``, a refused argument).
        """
        if sig is not None and self.process.poll() is None:
            os.killpg(self.process.pid, sig)
        try:
            rest, _ = self.process.communicate(timeout=DEADLINE_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            rest, _ = self.process.communicate()
            self.output += rest.decode(errors='replace')
            return None, self.output
        self.output += rest.decode(errors='replace')
        return self.process.returncode, self.output


def launch(ros2, *arguments):
    """Start ``ros2 launch`` with ``arguments`` (:class:`Foreground`)."""
    return Foreground([ros2, 'launch', *arguments])
