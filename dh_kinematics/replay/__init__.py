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

"""A recorded arm run through the node's own monitors, offline, on its message stamps."""

from dh_kinematics.replay.branches import BranchChanges
from dh_kinematics.replay.maxima import Maxima
from dh_kinematics.replay.series import Series
from dh_kinematics.replay.stream import Replay, Transition
from dh_kinematics.replay.tf_bag import TfBag

__all__ = ['BranchChanges', 'Maxima', 'Replay', 'Series', 'TfBag', 'Transition']
