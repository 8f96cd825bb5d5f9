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

from glob import glob
import os

from setuptools import find_packages, setup

package_name = 'dh_kinematics'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        ('bin', ['scripts/dh_kinematics']),  # on PATH in a sourced workspace (see the file)
        (os.path.join('share', package_name, 'config'),
         glob('config/*.yaml') + glob('config/*.rviz')),
        (os.path.join('share', package_name, 'launch'), glob('launch/*.launch.py')),
    ],
    install_requires=['setuptools', 'numpy'],
    extras_require={'yaml': ['PyYAML'], 'plot': ['matplotlib'], 'view': ['viser', 'yourdfpy'],
                    'symbolic': ['sympy'], 'identify': ['scipy'], 'logs': ['rosbags'],
                    'fleet': ['dask[distributed]', 'scipy', 'matplotlib'],
                    'test': ['pytest', 'hypothesis']},
    zip_safe=True,
    maintainer='dh_kinematics maintainers',
    maintainer_email='maintainers@dh-kinematics.org',
    description='Denavit-Hartenberg arms on ROS 2, with no URDF to write: TF, robot_description '
                'and limit diagnostics from a DH table; kinematics, inverse kinematics, '
                'dynamics, URDF and MoveIt files, URDF import and calibration.',
    license='Apache-2.0',
    entry_points={
        'console_scripts': [
            'dh_kinematics_node = dh_kinematics.ros.entry:node',
            'dh_kinematics_managed_node = dh_kinematics.ros.entry:managed_node',
            'sim_arm = dh_kinematics.ros.entry:sim_arm',
            'dh_kinematics = dh_kinematics.cli.entry:run',
        ],
    },
)
