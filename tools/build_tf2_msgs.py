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
Build the tf2_msgs interface package into a virtual environment made of ROS 2 PyPI wheels.

PyPI carries rclpy and the common message packages but not tf2_msgs. Its only message used here
is ``TFMessage`` (``geometry_msgs/TransformStamped[] transforms``), so this script writes that
interface package into a temporary folder and builds it with CMake against the venv, which is a
complete ament prefix. It does nothing when ``tf2_msgs.msg`` already imports (for example on a
ROS install). Usage: ``python tools/build_tf2_msgs.py`` with the venv's interpreter.
"""

import glob
import os
import pathlib
import subprocess
import sys
import sysconfig
import tempfile

PACKAGE_XML = """<?xml version="1.0"?>
<package format="3">
  <name>tf2_msgs</name>
  <version>0.0.0</version>
  <description>TFMessage only, built for a venv of ROS 2 wheels by dh_kinematics.</description>
  <maintainer email="maintainers@dh-kinematics.org">dh_kinematics maintainers</maintainer>
  <license>Apache-2.0</license>
  <buildtool_depend>ament_cmake</buildtool_depend>
  <buildtool_depend>rosidl_default_generators</buildtool_depend>
  <depend>geometry_msgs</depend>
  <exec_depend>rosidl_default_runtime</exec_depend>
  <member_of_group>rosidl_interface_packages</member_of_group>
  <export><build_type>ament_cmake</build_type></export>
</package>
"""

CMAKE_LISTS = """cmake_minimum_required(VERSION 3.16)
project(tf2_msgs)
find_package(ament_cmake REQUIRED)
find_package(geometry_msgs REQUIRED)
find_package(rosidl_default_generators REQUIRED)
rosidl_generate_interfaces(${PROJECT_NAME} "msg/TFMessage.msg" DEPENDENCIES geometry_msgs)
ament_export_dependencies(rosidl_default_runtime)
ament_package()
"""

# Include folders that the wheels' exported CMake targets name from the machine they were
# built on; CMake refuses targets whose include folders do not exist.
BUILD_MACHINE_PATHS = {
    '/opt/python/cp311-cp311/include/python3.11': lambda: sysconfig.get_paths()['include'],
    '/opt/python/cp311-cp311/lib/python3.11/site-packages/numpy/_core/include':
        lambda: __import__('numpy').get_include(),
}


def already_built():
    result = subprocess.run([sys.executable, '-c', 'import tf2_msgs.msg'], capture_output=True)
    return result.returncode == 0


def fix_exported_paths(prefix):
    for path in glob.glob(os.path.join(prefix, 'share', '*', 'cmake', '*.cmake')):
        text = pathlib.Path(path).read_text()
        fixed = text
        for old, new in BUILD_MACHINE_PATHS.items():
            if old in fixed:
                fixed = fixed.replace(old, new())
        if fixed != text:
            pathlib.Path(path).write_text(fixed)


def build(prefix):
    jobs = str(os.cpu_count() or 2)
    env = dict(os.environ, AMENT_PREFIX_PATH=prefix, CMAKE_PREFIX_PATH=prefix)
    with tempfile.TemporaryDirectory(prefix='tf2_msgs-') as work:
        source = pathlib.Path(work, 'tf2_msgs')
        (source / 'msg').mkdir(parents=True)
        (source / 'package.xml').write_text(PACKAGE_XML)
        (source / 'CMakeLists.txt').write_text(CMAKE_LISTS)
        (source / 'msg' / 'TFMessage.msg').write_text(
            'geometry_msgs/TransformStamped[] transforms\n')
        build_dir = pathlib.Path(work, 'build')
        subprocess.run(['cmake', '-S', str(source), '-B', str(build_dir),
                        f'-DCMAKE_INSTALL_PREFIX={prefix}', f'-DCMAKE_PREFIX_PATH={prefix}',
                        f'-DPython3_EXECUTABLE={sys.executable}', '-DBUILD_TESTING=OFF'],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        subprocess.run(['cmake', '--build', str(build_dir), '--target', 'install', '--',
                        f'-j{jobs}'], check=True, env=env, stdout=subprocess.DEVNULL)


def main():
    if already_built():
        print('tf2_msgs is already importable; nothing to build')
        return 0
    prefix = sys.prefix
    fix_exported_paths(prefix)
    build(prefix)
    if not already_built():
        print('tf2_msgs was built but does not import', file=sys.stderr)
        return 1
    print(f'built tf2_msgs into {prefix}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
