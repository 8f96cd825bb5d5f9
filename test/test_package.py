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
The package as a ROS install reads it: package.xml through catkin_pkg, as colcon and rosdep do.

Issue 57: a ``--`` inside an XML comment made package.xml ill-formed; colcon then built a plain
Python package (no ament index entry: ``ros2 launch`` and ``ros2 run`` could not find it) and
said nothing. Here catkin_pkg's own parser reads it, colcon identifies it where colcon is
installed, and setup.py describes the same package.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from helpers import needs, PACKAGE
import pytest

SETUP = (PACKAGE / 'setup.py').read_text()


@needs('catkin_pkg', 'pip install catkin_pkg, or apt install python3-catkin-pkg')
def test_catkin_pkg_reads_an_ament_python_package_with_no_warning():
    from catkin_pkg.package import parse_package
    package = parse_package(str(PACKAGE))
    warnings = []
    package.validate(warnings=warnings)
    assert warnings == []
    assert package.name == 'dh_kinematics' and package.get_build_type() == 'ament_python'
    assert package.version == re.search(r"version='([^']*)'", SETUP).group(1)
    assert [person.email for person in package.maintainers] == [
        re.search(r"maintainer_email='([^']*)'", SETUP).group(1)]
    assert package.licenses == [re.search(r"license='([^']*)'", SETUP).group(1)]
    described = re.search(r"description=((?:'[^']*'\s*)+),", SETUP).group(1)
    assert ' '.join(package.description.split()) == ' '.join(
        ''.join(re.findall(r"'([^']*)'", described)).split())
    assert {'rclpy', 'launch_ros', 'tf2_msgs'} <= {str(key) for key in package.exec_depends}


COLCON = shutil.which('colcon')


@pytest.mark.skipif(COLCON is None, reason='colcon is not installed: apt install '
                    'python3-colcon-common-extensions')
def test_colcon_finds_a_ros_package(tmp_path):
    listed = subprocess.run([COLCON, '--log-base', str(tmp_path / 'log'), 'list',
                             '--base-paths', str(PACKAGE)], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.split() == ['dh_kinematics', str(PACKAGE), '(ros.ament_python)'], (
        listed.stdout + listed.stderr)


def test_a_run_takes_a_domain_of_its_own_never_the_users_nor_another_runs():
    # Issue 71 (15): the tests took the user's ROS_DOMAIN_ID, and a user's own running node
    # answered a README test. A second run, given this run's domain as the user's, takes
    # another: not the user's, and not one this run holds.
    ours = os.environ['ROS_DOMAIN_ID']
    code = ('import os, sys; sys.path.insert(0, sys.argv[1]); import conftest; '
            "print(os.environ['ROS_DOMAIN_ID'])")
    found = subprocess.run([sys.executable, '-c', code, str(pathlib.Path(__file__).parent)],
                           env=dict(os.environ, ROS_DOMAIN_ID=ours), capture_output=True,
                           text=True, timeout=120, check=True).stdout.strip()
    assert found != ours and 150 <= int(found) < 230, found
