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

"""Inverse kinematics: closed forms, a numerical search for the rest, and straight lines."""

from dh_kinematics.core.ik.ikine import InverseKinematics, pose_errors
from dh_kinematics.core.ik.path import CartesianPath
from dh_kinematics.core.ik.result import IKResult
from dh_kinematics.core.ik.timing import Trajectory

__all__ = ['CartesianPath', 'IKResult', 'InverseKinematics', 'pose_errors', 'Trajectory']
