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
The core: DH links and chains in numpy (PyYAML for model files), no ROS.

May import numpy, PyYAML, the standard library and ``dh_kinematics.core`` only; a test guards
it. The public names are re-exported by :mod:`dh_kinematics`.
"""

from dh_kinematics.core.chain import Chain
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.dynamics.friction import friction_torque
from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.link import Link
from dh_kinematics.core.model_file.parameter_file import node_parameters

__all__ = ['Chain', 'DHTable', 'friction_torque', 'InvalidFieldError', 'Link',
           'node_parameters']
