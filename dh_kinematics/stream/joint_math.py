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
The node's per-message arithmetic for one model, in Python floats.

For one configuration of a 7-joint arm, numpy's per-call overhead costs more than the
arithmetic, so the node's hot path uses these float versions. Friction and limit levels give
the same numbers as their numpy counterparts (:meth:`Chain.friction`,
:func:`limit_monitor.joint_levels`), which the tests check; link poses come from
:meth:`Chain.chosen_link_poses`, the float form of :meth:`Chain.link_poses`.
"""

from math import isfinite

from dh_kinematics.core.link import friction_torque
from dh_kinematics.stream.limits import ERROR, OK, WARN


class StreamMath:
    """
    Link poses, friction and limit levels of chosen joints, one configuration at a time.

    Parameters
    ----------
    chain : Chain
        The model.
    margin : float
        WARN distance from a limit, rad or m.
    band : float
        Hysteresis band of the levels, rad or m (see :mod:`limit_monitor`).

    """

    def __init__(self, chain, margin, band=0.0):
        links = chain.links
        self._chain = chain
        self._friction = [(link.G, link.B, link.Tc[0], link.Tc[1]) for link in links]
        lower, upper = chain.qlim.T
        self._limits = list(zip(lower.tolist(), upper.tolist(), (lower + margin).tolist(),
                                (upper - margin).tolist()))
        self._strict = list(zip((lower + band).tolist(), (upper - band).tolist(),
                                (lower + margin + band).tolist(),
                                (upper - margin - band).tolist()))

    def link_poses(self, joints, q):
        """
        Return the transform of each chosen link from its joint value.

        Parameters
        ----------
        joints : sequence of int
            Joint indices (model order).
        q : sequence of float
            Their values, rad or m.

        Returns
        -------
        flat : list of float
            Per joint [x, y, z, qx, qy, qz, qw] (m; unit quaternion in ROS order, qw >= 0).

        """
        return self._chain.chosen_link_poses(joints, q)

    def finite_poses(self, joints, q):
        """
        Return ``(joints, q, flat)`` for the chosen joints whose transform is finite.

        A huge but finite joint value can overflow a transform to inf or NaN; such a joint is
        left out, as a non-finite position is. Each link's transform depends on its own joint
        value only, so the others are unaffected.
        """
        try:
            flat = self.link_poses(joints, q)
            if all(map(isfinite, flat)):
                return joints, q, flat
        except (ValueError, OverflowError):  # math.sin(inf), say
            pass
        kept, values, flat = [], [], []
        for j, value in zip(joints, q):
            try:
                pose = self.link_poses([j], [value])
            except (ValueError, OverflowError):
                continue
            if all(map(isfinite, pose)):
                kept.append(j)
                values.append(value)
                flat += pose
        return tuple(kept), tuple(values), flat

    def finite_friction(self, joints, qd):
        """Return ``(joints, torques)`` for the chosen joints whose friction is finite."""
        torques = self.friction(joints, qd)
        if all(map(isfinite, torques)):
            return joints, torques
        kept = [(j, tau) for j, tau in zip(joints, torques) if isfinite(tau)]
        return tuple(j for j, _ in kept), [tau for _, tau in kept]

    def friction(self, joints, qd):
        """Return the friction torque (N m) or force (N) of each chosen joint at ``qd``."""
        friction = self._friction
        return [friction_torque(v, *friction[j]) for j, v in zip(joints, qd)]

    def levels(self, joints, q, previous):
        """
        Return the limit level (OK, WARN or ERROR) of each chosen joint at finite ``q``.

        ``previous`` holds every joint's level so far: a lower level than before needs the
        joint back inside by the hysteresis band.
        """
        levels = []
        for j, value in zip(joints, q):
            level = _level(value, *self._limits[j])
            before = previous[j]
            if level < before <= ERROR:
                level = min(before, _level(value, *self._strict[j]))
            levels.append(level)
        return levels


def _level(value, lower, upper, warn_lower, warn_upper):
    if value < lower or value > upper:
        return ERROR
    if value < warn_lower or value > warn_upper:
        return WARN
    return OK
