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
The node and sim_arm are required processes: when one ends, the launch ends with its outcome.

The demo under ``ros2 launch``, as a user runs it; one of its processes is ended from outside.
A process that the launch's own Ctrl-C ends while it starts is no failure.
"""

import re
import signal
import subprocess
from types import SimpleNamespace

from helpers import needs
import pytest
from ros_fixtures import handles_sigterm, launch, poll_until

pytestmark = pytest.mark.ros


def _launch_until_both_started(ros2):
    running = launch(ros2, 'dh_kinematics', 'demo.launch.py', 'robot:=panda')
    pids = {}
    while len(pids) < 2:
        started = running.wait_for(r'\[(dh_kinematics_node|sim_arm)-\d+\]: process started with '
                                   r'pid \[(\d+)\]', 'both processes started')
        pids[started.group(1)] = int(started.group(2))
    return running, pids


@pytest.mark.parametrize('sig, code', [(signal.SIGTERM, 0), (signal.SIGKILL, 1)])
@pytest.mark.parametrize('name', ['dh_kinematics_node', 'sim_arm'])
def test_when_a_required_process_ends_the_launch_ends(ros2, name, sig, code):
    running, pids = _launch_until_both_started(ros2)
    try:
        for pid in pids.values():  # past the interpreter's start: the process's handler is in
            poll_until(lambda: handles_sigterm(pid), f'a signal handler in process {pid}')
        subprocess.run(['kill', f'-{sig.value}', str(pids[name])], check=True)
    finally:
        returncode, output = running.stop(sig=None)
    assert returncode == code, output
    if code:
        assert re.search(rf'{name}-\d+ exited with code -9; the launch ends', output), output
    other = ({'dh_kinematics_node', 'sim_arm'} - {name}).pop()
    assert re.search(rf'\[{other}-\d+\]: process has finished cleanly', output), output


@needs('launch.actions', 'a ROS 2 install (apt install ros-$ROS_DISTRO-launch)')
@pytest.mark.parametrize('code, shutting_down, fails', [
    (0, False, False), (1, False, True), (-signal.SIGINT, False, True),
    (-signal.SIGINT, True, False), (-signal.SIGTERM, True, False), (-signal.SIGKILL, True, True),
    (1, True, True)])
def test_a_required_process_fails_the_launch_unless_the_launchs_own_stop_ended_it(
        code, shutting_down, fails):
    from dh_kinematics.ros.launch_actions import end_launch
    event = SimpleNamespace(action=SimpleNamespace(process_details={'name': 'sim_arm-2'}),
                            returncode=code)
    context = SimpleNamespace(is_shutdown=shutting_down)
    if fails:
        with pytest.raises(RuntimeError, match=rf'^sim_arm-2 exited with code {code}; '):
            end_launch(event, context)
    else:
        action, = end_launch(event, context)
        assert type(action).__name__ == 'Shutdown'
