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
The monitors: each judges a message (:data:`Sample`, the arm's state in it) into levels.

The efforts (:class:`EffortMonitor`), the joints' motion limits (:class:`MotionLimits`), the
tool's speed and the singularity (:class:`ArmLimits`), what a cobot's safety controller
watches (:class:`Safety`) and how near the arm comes to itself (:class:`SelfCollision`); the
levels and their hysteresis are :mod:`levels`, what a status says :mod:`tasks`.
"""

from dh_kinematics.node_logic.monitors.arm import ArmLimits
from dh_kinematics.node_logic.monitors.effort import EffortMonitor
from dh_kinematics.node_logic.monitors.levels import Thresholds
from dh_kinematics.node_logic.monitors.motion import MotionLimits
from dh_kinematics.node_logic.monitors.safety import Safety
from dh_kinematics.node_logic.monitors.sample import Sample
from dh_kinematics.node_logic.monitors.self_collision import SelfCollision

__all__ = ['ArmLimits', 'EffortMonitor', 'MotionLimits', 'Safety', 'Sample', 'SelfCollision',
           'Thresholds']
