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
order, a newer stamp, finite values, every joint OK and inside its quiet bounds, and no
dynamics wanted. :func:`steady_path` makes, for the flow's present layout and outputs, one
function that takes such a message from its bytes to its :data:`Outcome` through the same
calls that decide it (the cache's checks, the same poses and friction, the monitor's bounds),
with one Python call where the full path makes about thirty. For any other message it returns
None before it has changed anything, and the full path takes the message. The tests feed both
paths the same streams, usual and not, and compare every outcome and the state they leave.
"""

from math import isfinite

from dh_kinematics.stream.joint_state_cache import STAMP_RANGE_NS

_LATEST_NS = STAMP_RANGE_NS[1]


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
    last = reader.last_layout()
    if (last is None or wanted.gravity or wanted.expected or wanted.residual
            or limits.efforts.active):
        return None
    layout, known, counts = last
    index = cache.in_model_order(layout.names)
    n = len(cache.names)
    given = (layout.velocities[1], layout.efforts[1])
    if index is None or layout.positions[1] != n or not set(given) <= {0, n}:
        return None
    size, known_end, (velocity_at, effort_at) = layout.size, layout.positions[0], layout.counts
    unpack, origin = layout.values.unpack_from, 4  # the values' struct reads from byte 4
    tolerance_ns = cache.future_tolerance_ns
    joints = tuple(range(n))
    velocities_end = 2 + n + given[0]
    tf_wanted, friction_wanted = wanted.tf, wanted.friction

    def take(data, now_ns):
        if (len(data) != size or data[12:known_end] != known
                or (data[velocity_at:velocity_at + 4], data[effort_at:effort_at + 4]) != counts):
            return None
        values = unpack(data, origin)
        stamp_ns = values[0] * 1_000_000_000 + values[1]
        if not (cache.newest_ns < stamp_ns < _LATEST_NS and 0 < stamp_ns <= now_ns + tolerance_ns
                and isfinite(sum(values))):  # finite only if every term is
            return None
        q, qd, effort = values[2:2 + n], values[2 + n:velocities_end], values[velocities_end:]
        if not limits.unchanged_by(q, now_ns):
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
