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
Start-up messages of the executables: one line for each operator mistake, no traceback.

Pure Python (no rclpy), so that every message is tested without ROS.
"""

import re

from dh_kinematics.core.model_file import parameter_file

USAGE = ('usage: ros2 run dh_kinematics {executable} --ros-args --params-file <model>.yaml '
         "(a model of config/, or your own: see the README's 'Configuring a new arm')")


def params_files(argv):
    """Return the ``--params-file`` paths of the ROS arguments in ``argv``, in order."""
    files, in_ros_args = [], False
    argv = list(argv)
    for i, argument in enumerate(argv):
        if argument == '--ros-args':
            in_ros_args = True
        elif argument == '--':
            in_ros_args = False
        elif in_ros_args and argument == '--params-file' and i + 1 < len(argv):
            files.append(argv[i + 1])
    return files


def check_params_files(argv):
    """
    Read every parameter file of ``argv`` as rcl will; raise ValueError for the first bad one.

    rcl reports such a file with a 19-line traceback from ``rclpy.init``; this says the file,
    the line and what to write instead (:func:`parameter_file.read`).
    """
    for path in params_files(argv):
        parameter_file.read(path)


def no_model_message(node_name, argv, executable):
    """Say why no model reached ``node_name`` (fully qualified) and how to give one."""
    files = params_files(argv)
    if not files:
        return f'no model: give --params-file <model>.yaml; {USAGE.format(executable=executable)}'
    blocks = []
    for path in files:
        try:
            document = parameter_file.read(path)
        except ValueError:
            continue
        blocks += [f'{str(key)!r} in {path}' for key in document]
    short = node_name.rsplit('/', 1)[-1]
    return (f'no model parameters reached node {node_name!r}: the parameter file has '
            f'{", ".join(blocks) or "no node blocks"}; key the model with "/**:" (every node) '
            f'or "{short}:"')


def rcl_error_message(text):
    """Shorten rcl's "Couldn't parse params file" error to the file, the line and the problem."""
    match = re.search(r"--params-file ([^']*)'\. Error: (.*?)(?:, at /|$)", text)
    if match is None:
        return text.split('\n')[0]
    path, problem = match.groups()
    return f'{path}: ROS 2 cannot read this parameter file: {problem}'
