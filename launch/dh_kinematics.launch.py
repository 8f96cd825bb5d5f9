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
Launch the dh_kinematics node on a built-in model or on a parameter file of your own.

    ros2 launch dh_kinematics dh_kinematics.launch.py robot:=panda
    ros2 launch dh_kinematics dh_kinematics.launch.py params_file:=/path/to/my_arm.yaml \
        namespace:=left frame_prefix:=left/ joint_limits_file:=/path/to/joint_limits.yaml \
        xyz:='0 0.5 0.8' rpy:='0 0 1.5708' tf_max_rate:=100 managed:=true

The model is checked before the node starts, as the node reads it: a bad file (a typo, a list
ROS cannot read, a file keyed for another node) stops the launch with one message naming the
file and the parameter; so is every argument. The node subscribes to ``joint_states`` in its
namespace. It is required: if it exits, the launch ends (with code 1 when the node failed).
With ``managed:=true`` it is the lifecycle node ``dh_kinematics_managed_node``, which publishes
once configured and activated (``ros2 lifecycle set``).
"""

from dh_kinematics.ros import launch_config
from dh_kinematics.ros.launch_actions import end_launch
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch_ros.actions import Node


def _node(context):
    launch_config.check_arguments(context.argv, __file__)
    settings = launch_config.node_settings(context.launch_configurations)
    executable = 'dh_kinematics_managed_node' if settings.managed else 'dh_kinematics_node'
    return [Node(
        package='dh_kinematics', executable=executable, name=launch_config.NODE_NAME,
        namespace=settings.namespace, output='screen', on_exit=end_launch,
        parameters=launch_config.node_parameters(settings))]


def generate_launch_description():
    """Declare the arguments and start the node."""
    return LaunchDescription([
        DeclareLaunchArgument(name, default_value=default, description=description)
        for name, (default, description) in launch_config.launch_arguments(__file__).items()
    ] + [OpaqueFunction(function=_node)])
