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
Launch the node with sim_arm sweeping the joints, and RViz showing the frames if asked.

    ros2 launch dh_kinematics demo.launch.py rviz:=true
    ros2 launch dh_kinematics demo.launch.py robot:=panda overshoot:=0.1

It takes every argument of dh_kinematics.launch.py, plus rviz, rate and overshoot. All of them
are checked before any process starts (rate and overshoot against sim_arm's ranges). The node
and sim_arm are required: if either exits, the launch ends. sim_arm reads the same parameter
file as the node and publishes ``joint_states`` in its namespace; RViz fixes the model's base
frame (with frame_prefix).
"""

import pathlib

from dh_kinematics.ros import launch_config
from dh_kinematics.ros.launch_actions import end_launch
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch_ros.actions import Node


def _check(context):
    launch_config.check_arguments(context.argv, __file__)
    launch_config.demo_settings(context.launch_configurations)


def _sim_arm_and_rviz(context):
    settings, sim_arm, rviz = launch_config.demo_settings(context.launch_configurations)
    clock = {'use_sim_time': settings.use_sim_time}
    actions = [Node(
        package='dh_kinematics', executable='sim_arm', name='sim_arm',
        namespace=settings.namespace, output='screen', on_exit=end_launch,
        parameters=[*map(str, settings.params_files), dict(sim_arm, **clock)])]
    if rviz is not None:
        namespace = settings.namespace.strip('/')
        description = [('/robot_description', f'/{namespace}/robot_description')]
        actions.append(Node(package='rviz2', executable='rviz2', name='rviz2', output='screen',
                            arguments=rviz, parameters=[clock],
                            remappings=description if namespace else []))
    return actions


def generate_launch_description():
    """Declare the demo arguments, include the node's launch file, start sim_arm and RViz."""
    node_launch = pathlib.Path(__file__).resolve().parent / 'dh_kinematics.launch.py'
    return LaunchDescription([
        DeclareLaunchArgument(name, default_value=default, description=description)
        for name, (default, description) in launch_config.launch_arguments(__file__).items()
    ] + [
        OpaqueFunction(function=_check),
        IncludeLaunchDescription(PythonLaunchDescriptionSource(str(node_launch))),
        OpaqueFunction(function=_sim_arm_and_rviz),
    ])
