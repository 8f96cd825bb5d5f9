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
arithmetic, so the node's hot path uses these float versions: the joint poses of
:meth:`DHTable.joint_poses` (what /tf carries, the moving joints of the URDF) and the friction of
:func:`friction_torque` (one expression for floats and arrays, as :meth:`Chain.friction`).
The expected efforts and gravity torques are the float form of :meth:`Chain.rne`, compiled
for the model (:mod:`core.dynamics.rne_unrolled`, twists snapped) the first time each is wanted:
once per model and combination, 10 ms for the Panda, 53 ms for 30 joints. The tests check all of
them against the numpy path. A joint whose result overflows is left out.
"""

from math import isfinite

from dh_kinematics.core.dynamics import rne_unrolled
from dh_kinematics.core.dynamics.friction import friction_torque


class StreamMath:
    """
    Joint poses and friction of chosen joints, one configuration at a time.

    Parameters
    ----------
    chain : Chain
        The model.

    """

    def __init__(self, chain):
        self._dynamics = dynamics = chain.dynamic_constants
        self._table = dynamics.table  # the chain's own DHTable
        _, G, B, tc_pos, tc_neg = dynamics.floats
        self._friction = list(zip(G, B, tc_pos, tc_neg))
        self._all = tuple(range(chain.n))
        self._friction_of_all = rne_unrolled.compile_friction(dynamics)
        self._torques = {}

    def torques(self, q, qd=None, qdd=None, gravity=True):
        """
        Return ``(gravity, expected)`` at all joint positions ``q``: each a list or None.

        The gravity torques if ``gravity``; the efforts of :meth:`Chain.rne` (N m or N) if
        ``qd`` and ``qdd`` are given. None also for a result that is not finite.
        """
        motion = qd is not None
        if not (gravity or motion):
            return None, None
        torques = self._compiled(gravity, motion)(q, qd, qdd)
        return (_finite(torques[0]) if gravity else None,
                _finite(torques[-1]) if motion else None)

    def torques_of(self, Q, QD=None, QDD=None, gravity=True):
        """
        Return :meth:`torques` at each of many configurations: a list of pairs.

        ``Q``, ``QD`` and ``QDD`` have shape (m, n); the same code runs on their columns.
        """
        motion = QD is not None
        if not (gravity or motion):
            return [(None, None)] * len(Q)
        torques = self._compiled(gravity, motion, columns=True)(Q, QD, QDD)
        nothing = [None] * len(Q)
        return [(_finite(at_rest) if gravity else None, _finite(moving) if motion else None)
                for at_rest, moving in zip(torques[0].tolist() if gravity else nothing,
                                           torques[-1].tolist() if motion else nothing)]

    def _compiled(self, gravity, motion, columns=False):
        """Return the arm's compiled torques (:func:`rne_unrolled.compile_torques`), made once."""
        key = (gravity, motion, columns)
        compiled = self._torques.get(key)
        if compiled is None:
            compiled = self._torques[key] = rne_unrolled.compile_torques(
                rne_unrolled.snap_twists(self._dynamics), gravity, motion, motors=True,
                columns=columns)
        return compiled

    def every_pose(self, q):
        """
        Return :meth:`finite_poses` of every joint at ``q`` if all are finite, else None.

        The flat list of 7 floats per joint; the usual message's way.
        """
        return self._all_finite(self._all, q)

    def every_friction(self, qd):
        """Return :meth:`friction` of every joint at finite ``qd`` if all are finite, else None."""
        torques = self._friction_of_all(qd)
        return torques if isfinite(sum(torques)) else None

    def finite_poses(self, joints, q):
        """
        Return ``(joints, q, flat)`` for the chosen joints whose transform is finite.

        ``flat`` holds 7 floats per kept joint, [x, y, z, qx, qy, qz, qw] (m; unit quaternion
        in ROS order): the pose of the joint's child frame in its parent, as /tf carries it
        (:meth:`DHTable.joint_poses`). A huge but finite joint value can overflow a
        transform to inf or NaN; such a joint is left out, as a non-finite position is. Each
        link's transform depends on its own joint value only, so the others are unaffected.
        """
        flat = self._all_finite(joints, q)
        if flat is not None:
            return joints, q, flat
        poses, kept, values, flat = self._table.joint_poses, [], [], []
        for j, value in zip(joints, q):
            try:
                pose = poses([j], [value])
            except (ValueError, OverflowError):
                continue
            if all(map(isfinite, pose)):
                kept.append(j)
                values.append(value)
                flat += pose
        return tuple(kept), tuple(values), flat

    def _all_finite(self, joints, q):
        """Return the chosen joints' flat poses, or None if one is not finite."""
        try:
            flat = self._table.joint_poses(joints, q)
        except (ValueError, OverflowError):  # math.sin(inf), say
            return None
        if not isfinite(sum(flat)):  # finite only if every term is
            return None
        return flat

    def finite_friction(self, joints, qd):
        """Return ``(joints, torques)`` for the chosen joints whose friction is finite."""
        torques = self.friction(joints, qd)
        if all(map(isfinite, torques)):
            return joints, torques
        kept = [(j, tau) for j, tau in zip(joints, torques) if isfinite(tau)]
        return tuple(j for j, _ in kept), [tau for _, tau in kept]

    def friction(self, joints, qd):
        """Return the friction torque (N m) or force (N) of each chosen joint at ``qd``."""
        if joints == self._all:
            return self._friction_of_all(qd)
        friction = self._friction
        return [friction_torque(v, *friction[j]) for j, v in zip(joints, qd)]


def _finite(values):
    """Return ``values`` if all are finite, else None."""
    return values if all(map(isfinite, values)) else None
