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
The arm in a web browser: ``dh_kinematics view`` (an optional extra, ``pip install .[view]``).

The page is served by viser (a 3-D viewer whose client ships in its wheel: no build step, no
network, any browser that reaches the port). :mod:`readout` says what the page shows of a
configuration, from the node's own judging code, and needs neither viser nor ROS;
:mod:`scene` draws a URDF; :mod:`teach` is the page that moves a model by hand and
:mod:`follow` the one that follows a running system (rclpy). Nothing else in the package
imports this one.
"""

from dh_kinematics.viewer.history import History
from dh_kinematics.viewer.readout import Readout

__all__ = ['History', 'Readout']
