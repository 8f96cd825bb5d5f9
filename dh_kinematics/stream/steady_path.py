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
The usual joint_states message in one step: what the full path would do with it, sooner.

:meth:`JointStatesFlow.handle` takes a message through the decoder, the cache, the arithmetic,
the dynamics and the limit monitor, each a module of its own. At 1 kHz nearly every message is
like the last: the same bytes up to its values (frame_id, names, lengths), every joint in model
order, a newer stamp, finite values, every joint's limit level unchanged, and no dynamics
wanted. :func:`steady_path` makes, for the flow's present layout and outputs, one function
that takes such a message from its bytes to its :data:`Outcome` through the checks that decide
it (each component's own: :meth:`JointStateReader.read_same`, :meth:`JointStateCache.newest`,
:meth:`LimitDiagnostics.unchanged_by`) and the same poses and friction, with none of the full
path's work for messages of other shapes. For any other message it returns None before it has
changed anything, and the full path takes the message. The tests feed both paths the same
streams, usual and not, and compare every outcome and the state they leave.
"""

from math import isfinite


def steady_path(reader, cache, math, limits, wanted, outcome):
    """
    Return ``take(data, now_ns)`` for the flow's present state, or None where none can be.

    Parameters
    ----------
    reader : cdr.JointStateReader
        The flow's decoder, which has read the last message.
    cache : JointStateCache
        The flow's cache, which has taken the last message.
    math : StreamMath
        The model's arithmetic.
    limits : LimitDiagnostics
        The flow's limit monitor.
    wanted : Wanted
        The outputs someone subscribes to.
    outcome : type
        :data:`joint_states.Outcome`.

    Returns
    -------
    take : callable or None
        ``take(data, now_ns)`` returns the message's Outcome, having done all that the full
        path would do (with the node's clock ``now_ns``, ns, no earlier than the last
        message's and not 0), or None, having done nothing. None when the last message's
        layout does not qualify (names not every joint in model order, lengths) or the
        outputs need more (the dynamics, the effort monitor).

    """
    layout = reader.layout
    if (layout is None or wanted.gravity or wanted.expected or wanted.residual
            or limits.efforts.active):
        return None
    index = cache.in_model_order(layout.names)
    n = len(cache.names)
    if (index is None or layout.positions[1] != n
            or not {layout.velocities[1], layout.efforts[1]} <= {0, n}):
        return None
    read_same, newest, unchanged_by = reader.read_same, cache.newest, limits.unchanged_by
    joints = tuple(range(n))
    tf_wanted, friction_wanted = wanted.tf, wanted.friction

    def take(data, now_ns):
        fields = read_same(data)
        if fields is None:
            return None
        stamp_ns, _, q, qd, effort = fields
        if not (newest(stamp_ns, now_ns) and isfinite(sum(q) + sum(qd) + sum(effort))
                and unchanged_by(q, now_ns)):  # a sum is finite only if every term is
            return None
        tf = friction = None
        if tf_wanted:
            kept, _, poses = math.finite_poses(joints, q)
            if len(kept) < n:
                return None
            tf = (joints, stamp_ns, poses)
        if qd and friction_wanted:
            kept, torques = math.finite_friction(joints, qd)
            if len(kept) < n:
                return None
            friction = (joints, stamp_ns, torques)
        cache.take_all(index, q, qd, effort, stamp_ns, now_ns)
        return outcome(tf, friction, None, None, None, False)
    return take
