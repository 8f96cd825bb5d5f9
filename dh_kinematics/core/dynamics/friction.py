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

"""A joint's friction: viscous and Coulomb, motor side, referred to the link (SI units)."""


def friction_torque(qd, G, B, tc_pos, tc_neg):
    """
    Joint friction, opposing motion and referred to the link side.

    ``-|G| * (B * |G| * qd + (Tc+ if qd > 0, Tc- if qd < 0, 0 if qd == 0))``. One expression
    for floats and arrays alike: the node's per-message path calls it with Python floats, the
    batch path with arrays.

    Parameters
    ----------
    qd : float or array
        Joint velocity in rad/s or m/s.
    G, B, tc_pos, tc_neg : float or array
        Gear ratio, viscous friction (N m s/rad, motor side) and Coulomb friction (N m, motor
        side), broadcast against ``qd``.

    Returns
    -------
    tau : float or array
        Friction torque (N m) or force (N); negative for positive velocity.

    """
    gain = abs(G)
    return -gain * (B * gain * qd + tc_pos * (qd > 0) + tc_neg * (qd < 0))
