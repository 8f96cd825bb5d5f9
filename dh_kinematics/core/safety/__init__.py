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
What a cobot's safety controller watches: speeds, momentum, energy, stops, planes, contact.

And the arm's distance to itself: capsules on its links, the pairs judged, those to ignore.
"""

from dh_kinematics.core.safety.capsules import closest_points
from dh_kinematics.core.safety.link_capsules import LinkCapsules
from dh_kinematics.core.safety.near_pairs import near_pairs
from dh_kinematics.core.safety.points import FramePoints

__all__ = ['closest_points', 'FramePoints', 'LinkCapsules', 'near_pairs']
