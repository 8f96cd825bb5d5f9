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
The node's logic without ROS: joint_states bytes, the cache, frames, monitors and diagnostics.

A message's way is :class:`joint_states.JointStatesFlow`: decoded (:mod:`cdr`), checked into
the cache (:mod:`joint_state_cache`), its rates estimated (:mod:`rate_estimate`), the observer
run (:mod:`momentum_observer`), the arm's state measured once (:class:`core.state.ArmState`)
and judged by the monitors (:mod:`monitors`, driven by :mod:`limit_diagnostics`). May import the
core, the parameters, numpy and the standard library, never rclpy or a message package; a test
guards it, so that everything here is tested without a ROS graph.
"""

__all__ = []
