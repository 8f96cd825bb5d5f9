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

"""Run one node until Ctrl-C or SIGTERM; exit 1 with one clear message when its model is bad."""

import rclpy
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException


def run(factory, name, args=None):
    """Build the node with ``factory()`` and spin it; return the process exit code."""
    rclpy.init(args=args)
    try:
        node = factory()
    except (ValueError, ParameterException) as error:
        detail = str(error)
        if 'of type' in detail:
            detail += ' (write double parameters with a decimal point, e.g. 0.0)'
        rclpy.logging.get_logger(name).fatal(f'invalid model: {detail}')
        rclpy.try_shutdown()
        return 1
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    return 0
