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
Processes that tests start: each in a session of its own, and none outlives its test.

A node left running by a failed test would publish into the next run that picks the same
ROS_DOMAIN_ID; so every process started through :func:`spawn` is killed, with everything it
started (a launch's nodes), when the test ends (conftest calls :func:`reap`).
"""

import os
import select
import signal
import subprocess
import sys
import time

_SPAWNED = []


def spawn(command, **kwargs):
    """
    Start ``command`` like ``subprocess.Popen``, in a new session; remember it.

    It takes SIGINT as a terminal's Ctrl-C (then ``preexec_fn``, if given, runs): a test run
    started in the background from a script (CI's) ignores SIGINT, and its children would
    inherit that.
    """
    then = kwargs.pop('preexec_fn', None)

    def prepare():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if then is not None:
            then()
    process = subprocess.Popen(command, start_new_session=True, preexec_fn=prepare, **kwargs)
    _SPAWNED.append(process)
    return process


def run_module(module, args, timeout=60):
    """Run ``python -m module args`` to its end; return (exit code, stdout + stderr, stripped)."""
    result = subprocess.run([sys.executable, '-m', module] + [str(arg) for arg in args],
                            capture_output=True, text=True, timeout=timeout)
    return result.returncode, (result.stdout + result.stderr).strip()


def read_line(process, timeout=30.0, stream=None):
    """Read stderr (or ``stream``) up to a newline, a byte at a time: nothing is buffered."""
    deadline, line = time.monotonic() + timeout, b''
    fd = (stream or process.stderr).fileno()
    while not line.endswith(b'\n'):
        if not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
            break
        byte = os.read(fd, 1)
        if not byte:
            break
        line += byte
    return line.decode()


def reap():
    """Kill every spawned process group that is still there; return how many were."""
    killed = 0
    while _SPAWNED:
        process = _SPAWNED.pop()
        killed += process.poll() is None
        try:
            os.killpg(process.pid, signal.SIGKILL)  # the group outlives a reaped leader
        except ProcessLookupError:
            pass
        process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    return killed
