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

The demo runs in a LaunchService of its own process, as ``ros2 launch`` runs it. Skips where
launch or launch_ros is missing, or dh_kinematics is not installed in an ament prefix.
"""

import re
import signal
import subprocess
import sys

from processes import spawn
import pytest
from ros_fixtures import DEADLINE_S, handles_sigterm, poll_until, read_line

pytest.importorskip('launch')
pytest.importorskip('launch_ros')

from ament_index_python.packages import get_package_share_directory  # noqa: E402,I100

pytestmark = pytest.mark.ros

try:
    SHARE = get_package_share_directory('dh_kinematics')
except (LookupError, OSError, ValueError):
    pytest.skip('dh_kinematics is not installed in an ament prefix (colcon build, then source '
                'the workspace)', allow_module_level=True)

LAUNCH = """
import sys
from launch import LaunchService
from launch.actions import IncludeLaunchDescription
from launch.launch_description_sources import PythonLaunchDescriptionSource
service = LaunchService()
service.include_launch_description(IncludeLaunchDescription(
    PythonLaunchDescriptionSource(sys.argv[1]), launch_arguments={'robot': 'panda'}.items()))
sys.exit(service.run())
"""


def _launch_until_both_started():
    process = spawn(
        [sys.executable, '-c', LAUNCH, f'{SHARE}/launch/demo.launch.py'],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    pids, lines = {}, []
    while len(pids) < 2:
        line = read_line(process, DEADLINE_S, process.stdout)
        assert line, 'the launch ended or said nothing: ' + ''.join(lines)
        lines.append(line)
        started = re.search(r'\[(dh_kinematics_node|sim_arm)-\d+\]: process started with pid '
                            r'\[(\d+)\]', line)
        if started:
            pids[started.group(1)] = int(started.group(2))
    return process, pids


@pytest.mark.parametrize('sig, code', [(signal.SIGTERM, 0), (signal.SIGKILL, 1)])
@pytest.mark.parametrize('name', ['dh_kinematics_node', 'sim_arm'])
def test_when_a_required_process_ends_the_launch_ends(name, sig, code):
    process, pids = _launch_until_both_started()
    try:
        for pid in pids.values():  # past the interpreter's start: the process's handler is in
            poll_until(lambda: handles_sigterm(pid), f'a signal handler in process {pid}')
        subprocess.run(['kill', f'-{sig.value}', str(pids[name])], check=True)
        output, _ = process.communicate(timeout=DEADLINE_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == code, output
    if code:
        assert re.search(rf'{name}-\d+ exited with code -9; the launch ends', output), output
    other = ({'dh_kinematics_node', 'sim_arm'} - {name}).pop()
    assert re.search(rf'\[{other}-\d+\]: process has finished cleanly', output), output
