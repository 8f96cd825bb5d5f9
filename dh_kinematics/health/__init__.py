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

"""A fleet's logs judged, each by replay's code with its joints' friction: what drifts."""

from dh_kinematics.health.fleet import check, find, judged
from dh_kinematics.health.judge import JointHealth, judge, LogHealth, Model

__all__ = ['check', 'find', 'judge', 'judged', 'JointHealth', 'LogHealth', 'Model']
