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
The usual joint_states message in one generated function: from its bytes to the bytes sent.

:meth:`JointStatesFlow.handle` takes a message through the decoder, the cache, the arithmetic,
the dynamics and the limit monitor, each a module of its own, and the node then serializes
what it returns. At 1 kHz nearly every message is like the last: the same bytes up to its
values (frame_id, names, lengths), every joint in model order, a newer stamp, finite values,
every joint's limit level unchanged, and no dynamics wanted. :func:`steady_path` writes, for
the flow's present layout and outputs, one function that takes such a message from its bytes
to the serialized TF and friction it sends. Each component writes its own part as code: the
reader its byte check and unpacking (:meth:`JointStateReader.same_source`), the cache its
stamp check and update (:meth:`WholeMessages.whole_source`), the limit monitor its check for
unchanged levels (:meth:`LimitDiagnostics.unchanged_source`), the arithmetic the poses and
friction the full path computes, as the same straight-line code
(:meth:`StreamMath.steady_values`), and the messages' templates their packing
(:meth:`Template.pack_source`).
At 1 kHz in a busy process most of a message's cost is reaching cold code and objects; one
function with its constants in place reaches the fewest. For any other message it returns
False before it has changed anything, and the full path takes the message. The tests feed both
paths the same streams, usual and not, and compare every byte sent and the state they leave.
"""

from collections import namedtuple
from math import cos, isfinite, sin

from dh_kinematics.core.symbolic import Code, statements, Symbol

Senders = namedtuple('Senders', 'templates tf friction')
Senders.__doc__ = """Where the steady path sends its messages.

templates : callable
    ``templates(joints)`` returns ``(tf, efforts)``: the :class:`message_template.Template` of
    the TFMessage of those joints' frames and of a JointState of their efforts, or None where
    there is none.
tf, friction : callable
    Each takes the serialized bytes of one message to publish.
"""


def steady_path(reader, cache, math, limits, wanted, senders):
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
    senders : Senders or None
        Where the TF and the friction go; None: no steady path.

    Returns
    -------
    take : callable or None
        ``take(data, now_ns)`` returns True having done all that the full path and the node
        would do with the message (with the node's clock ``now_ns``, ns, no earlier than the
        last message's and not 0), its TF and friction sent, or False, having done nothing.
        None when the last message's layout does not qualify (names not every joint in model
        order, lengths), the outputs need more (the dynamics, the effort monitor), or a
        template cannot be made.

    """
    namespace = {}
    same = reader.same_source(namespace)
    if (same is None or senders is None or wanted.gravity or wanted.expected or wanted.residual
            or limits.efforts.active):
        return None
    layout, n = reader.layout, len(cache.names)
    index = cache.in_model_order(layout.names)
    if (index is None or layout.positions[1] != n
            or not {layout.velocities[1], layout.efforts[1]} <= {0, n}):
        return None
    friction = wanted.friction and layout.velocities[1] == n
    tf_template, friction_template = senders.templates(tuple(range(n)))
    if ((wanted.tf and tf_template is None) or (friction and friction_template is None)):
        return None
    lines, computed, pose_texts, torque_texts = _arithmetic(math, wanted.tf, friction)
    sends = []
    try:
        if wanted.tf:
            sends.append(f'send_tf({tf_template.pack_source(pose_texts, namespace, "tf")})')
        if friction:
            packed = friction_template.pack_source(torque_texts, namespace, 'friction')
            sends.append(f'send_friction({packed})')
    except ValueError:  # too many runs for one call
        return None
    positions, velocities = 2 + n, 2 + n + layout.velocities[1]
    newest, take_all = cache.whole_source(namespace)
    source = [
        'def take(data, now_ns):',
        f'    if not ({same[0]}):',
        '        return False',
        f'    values = {same[1]}',
        '    stamp_ns = values[0] * 1000000000 + values[1]',
        f'    if not ({newest} and isfinite(sum(values))):',
        '        return False  # a sum is finite only if every term is (the stamp: ints)',
        f'    q, qd = values[2:{positions}], values[{positions}:{velocities}]',
        f'    effort = values[{velocities}:]',
        f'    if not ({limits.unchanged_source(namespace)}):',
        '        return False']
    if lines:  # finite floats make no exception
        source += [f'    {line}' for line in lines] + [
            f'    if not isfinite(sum(({"".join(f"{name}, " for name in computed)}))):',
            '        return False']
    source += ['    sec, nanosec = divmod(stamp_ns, 1000000000)'] + [
        f'    {line}' for line in sends + take_all] + ['    return True']
    namespace.update(isfinite=isfinite, index=index, axis_poses=math.axis_poses,
                     send_tf=senders.tf, send_friction=senders.friction, cos=cos, sin=sin)
    exec(compile('\n'.join(source), f'<steady path of {n} joints>', 'exec'), namespace)
    return namespace['take']


def _arithmetic(math, tf, friction):
    """
    Return the code of the poses and friction: ``(lines, computed, poses, torques)``.

    ``lines`` compute every value that is not a constant, each into a name of ``computed``;
    ``poses`` and ``torques`` hold the code of each value to send (a name or a constant), the
    poses only if ``tf``, the torques only if ``friction``.
    """
    code = Code()
    poses, axis_joints, torques = math.steady_values(code)
    poses, torques = poses if tf else [], torques if friction else []
    lines, texts = statements(code, poses + torques)
    computed = []
    for k, value in enumerate(poses + torques):  # each computed value named: checked, sent
        if isinstance(value, Symbol):
            lines.append(f'value{k} = {texts[k]}')
            texts[k] = f'value{k}'
            computed.append(texts[k])
    pose_texts, torque_texts = texts[:len(poses)], texts[len(poses):]
    if tf and axis_joints:  # as StreamMath.finite_poses adds them
        q_axes = ''.join(f'q[{j}], ' for j in axis_joints)
        lines.append(f'axes = axis_poses({axis_joints!r}, ({q_axes}))')
        pose_texts += [f'axes[{k}]' for k in range(7 * len(axis_joints))]
        computed.append('sum(axes)')
    return lines, computed, pose_texts, torque_texts
