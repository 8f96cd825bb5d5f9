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
Launch the arm under ros2_control: the controller manager on the node's URDF, and controllers.

    ros2 launch dh_kinematics control.launch.py robot:=ur5
    ros2 launch dh_kinematics control.launch.py params_file:=/path/to/my_arm.yaml \
        plugin:=my_robot_driver/MyRobotHardware controller:=forward_position_controller

The node publishes its URDF with a ``<ros2_control>`` block (``ros2_control.plugin``, mock
hardware by default); the controller manager (``ros2_control_node``) reads it from
``robot_description``, and the ``joint_state_broadcaster`` and ``controller`` are spawned;
the broadcaster's ``joint_states`` feed the node, which publishes TF and its diagnostics.
``ros2 control list_hardware_interfaces`` then shows the arm's interfaces. It takes every
argument of dh_kinematics.launch.py (but ``managed``: the controller manager needs the
description at once), plus plugin, initial_configuration, controller and update_rate; each is
checked, and the ros2_control packages looked for, before any process starts.
"""

import tempfile

from dh_kinematics.ros import launch_config
from dh_kinematics.ros.launch_actions import end_launch
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch_ros.actions import Node


def _arm(context):
    launch_config.check_arguments(context.argv, __file__)
    settings, controllers, controller = launch_config.control_settings(
        context.launch_configurations)
    with tempfile.NamedTemporaryFile('w', prefix='dh_kinematics_controllers_', suffix='.yaml',
                                     delete=False) as stream:
        stream.write(launch_config.yaml_text(controllers))
    namespace = settings.namespace.strip('/')
    manager = f'/{namespace}/controller_manager' if namespace else '/controller_manager'
    description = f'/{namespace}/robot_description' if namespace else '/robot_description'
    return [
        Node(package='dh_kinematics', executable='dh_kinematics_node',
             name=launch_config.NODE_NAME, namespace=settings.namespace, output='screen',
             on_exit=end_launch, parameters=launch_config.node_parameters(settings)),
        Node(package='controller_manager', executable='ros2_control_node',
             namespace=settings.namespace, output='screen', on_exit=end_launch,
             parameters=[stream.name, {'use_sim_time': settings.use_sim_time}],
             remappings=[('~/robot_description', description)]),
    ] + [Node(package='controller_manager', executable='spawner', namespace=settings.namespace,
              output='screen', arguments=[name, '--controller-manager', manager])
         for name in ('joint_state_broadcaster', controller)]


def generate_launch_description():
    """Declare the arguments, then start the node, the controller manager and the spawners."""
    return LaunchDescription([
        DeclareLaunchArgument(name, default_value=default, description=description)
        for name, (default, description) in launch_config.launch_arguments(__file__).items()
    ] + [OpaqueFunction(function=_arm)])
