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

"""Start-up messages and the one list of parameter names, without ROS."""

from dh_kinematics.core.link import _FIELDS
from dh_kinematics.core.model_file.params import (
    JOINT_FIELDS, MODEL_FIELDS, MOVEIT_SETTINGS, SETTINGS)
from dh_kinematics.parameters import specs, startup


def test_parameter_names_have_one_owner():
    # The model file (core.model_file.params) owns every name; the node's specs follow it in its
    # order.
    assert tuple(spec.name for spec in specs.JOINT) == JOINT_FIELDS
    assert tuple(spec.name for spec in specs.MODEL) == MODEL_FIELDS
    names = {spec.name for spec in specs.NODE + specs.SIM_ARM}
    assert names | {'use_sim_time', 'start_type_description_service'} | set(
        MOVEIT_SETTINGS) == SETTINGS  # rclpy's and MoveIt's own, left alone
    # A joint block's fields are Link's arguments ('type' is 'joint').
    assert _FIELDS == ('joint', 'convention') + JOINT_FIELDS[1:] + ('name',)
    assert not set(MODEL_FIELDS) & SETTINGS


def test_params_files_are_the_ros_arguments_only():
    argv = ['node', '--params-file', 'not_ros.yaml', '--ros-args', '--params-file', 'a.yaml',
            '-p', 'x:=1', '--', '--params-file', 'after.yaml', '--ros-args', '--params-file',
            'b.yaml']
    assert startup.params_files(argv) == ['a.yaml', 'b.yaml']


def test_rcl_parse_errors_become_one_line():
    text = ("failed to initialize rcl: Couldn't parse params file: '--params-file mixed.yaml'. "
            "Error: Sequence should be of same type. Value type 'double' do not belong at "
            'line_num 3, at /project/src/parse.c:391, at /project/src/rcl/arguments.c:415')
    assert startup.rcl_error_message(text) == (
        'mixed.yaml: ROS 2 cannot read this parameter file: Sequence should be of same type. '
        "Value type 'double' do not belong at line_num 3")
    assert startup.rcl_error_message('other\nlines') == 'other'


def test_a_file_for_another_node_is_named(tmp_path):
    path = tmp_path / 'ur5.yaml'
    path.write_text('ur5_arm:\n  ros__parameters:\n    convention: standard\n')
    message = startup.no_model_message('/left/dh_kinematics', ['x', '--ros-args',
                                                               '--params-file', str(path)],
                                       'dh_kinematics_node')
    assert message == (f"no model parameters reached node '/left/dh_kinematics': the parameter "
                       f"file has 'ur5_arm' in {path}; key the model with \"/**:\" (every node) "
                       'or "dh_kinematics:"')


def _alive_in_group(pgid):
    """Return the pids of the group that are alive (not zombies)."""
    import pathlib

    alive = []
    for stat in pathlib.Path('/proc').glob('[0-9]*/stat'):
        try:
            fields = stat.read_text().rsplit(')', 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != 'Z':
            alive.append(int(stat.parent.name))
    return alive


def test_no_process_a_test_starts_outlives_it():
    import subprocess
    import threading
    import time

    import processes

    parent = processes.spawn(['sh', '-c', 'sleep 60 & wait'], stdout=subprocess.PIPE)
    assert processes.reap() == 1
    # SIGKILL is delivered asynchronously: wait, on the processes themselves, for the group
    # (the child `sleep` included) to be gone.
    deadline, pause = time.monotonic() + 30.0, threading.Event()
    while _alive_in_group(parent.pid):
        assert time.monotonic() < deadline, _alive_in_group(parent.pid)
        pause.wait(0.01)
