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
Serialized messages refilled without rclpy: :class:`Template`.

A Template holds a message serialized once by the middleware itself, with marker values in its
stamps and float64 fields. It finds where each marker landed and keeps a packing plan: one
``struct`` format for the whole message (literal bytes, stamps and runs of values, in message
order) and the order in which to pass its arguments. Filling is then one ``pack`` of the new
stamp and values with the literal bytes, so the layout is always the middleware's own. Pure
Python and struct; no ROS import. (:mod:`cdr` reads JointStates the same way.)
"""

from operator import itemgetter
import struct

# Markers: unlikely bit patterns, each unique within one message (checked).
STAMP_MARKER_SEC = 0x5A5A0000
STAMP_MARKER_NANOSEC = 0x2A5A0000
VALUE_MARKER = -1.2345678901234567e-123


def _marker_stamp(i):
    return STAMP_MARKER_SEC + i, STAMP_MARKER_NANOSEC + i


def _marker_value(i):
    return VALUE_MARKER * (1.0 + i / 1024.0)


class Template:
    """
    A serialized message whose stamps and float64 fields are rewritten for each message.

    Parameters
    ----------
    serialize : callable
        ``serialize(stamps, values)`` returns the serialized message (bytes, as
        ``rclpy.serialization.serialize_message`` gives) for the given stamps, a list of
        ``(sec, nanosec)``, and values, a list of float.
    stamps : int
        How many stamps the message has.
    values : int
        How many float64 fields are rewritten.

    Raises
    ------
    ValueError
        If a marker cannot be found exactly once (the caller then builds messages instead).

    """

    def __init__(self, serialize, stamps, values):
        marker_stamps = [_marker_stamp(i) for i in range(stamps)]
        marker_values = [_marker_value(i) for i in range(values)]
        data = bytes(serialize(marker_stamps, marker_values))
        order = '<' if data[1] & 1 else '>'
        stamp_at = [self._locate(data, struct.pack(order + 'iI', *stamp))
                    for stamp in marker_stamps]
        value_at = [self._locate(data, struct.pack(order + 'd', value))
                    for value in marker_values]
        self._values = values
        self._pack, self._arguments, self._literals = _plan(data, order, stamp_at, value_at)

    @staticmethod
    def _locate(data, pattern):
        found = data.find(pattern)
        if found < 0 or data.find(pattern, found + 1) >= 0:
            raise ValueError(f'template: marker {pattern.hex()} found '
                             f'{data.count(pattern)} times, not once')
        return found

    def fill(self, stamp_ns, values):
        """
        Return the serialized message with every stamp set to ``stamp_ns`` and the values.

        Parameters
        ----------
        stamp_ns : int
            Time in ns (seconds must fit in int32).
        values : sequence of float, length values
            The float64 fields, in the order the serializer was given them.

        Returns
        -------
        data : bytes

        """
        if len(values) != self._values:
            raise ValueError(f'values: {len(values)} given, the template has {self._values}')
        sec, nanosec = divmod(int(stamp_ns), 1_000_000_000)
        return self._pack(*self._arguments((sec, nanosec, *values) + self._literals))


def _plan(data, order, stamp_at, value_at):
    """
    Return the packing plan of a message: ``(pack, arguments, literals)``.

    ``pack`` is one ``struct`` call writing the whole message: the literal bytes between the
    fields (``Ns``), each stamp (``iI``) and each run of consecutive values (``kd``), in message
    order. ``arguments`` picks its arguments, in that order, from the tuple ``(sec, nanosec,
    *values, *literals)``.
    """
    slots = sorted([(at, None) for at in stamp_at] + [(at, i) for i, at in enumerate(value_at)])
    formats, picks, literals, end = [order], [], [], 0
    first_literal = 2 + len(value_at)
    for at, i in slots:
        if at > end:
            formats.append(f'{at - end}s')
            picks.append(first_literal + len(literals))
            literals.append(data[end:at])
        if i is None:
            formats.append('iI')
            picks += [0, 1]
        else:
            formats.append('d')
            picks.append(2 + i)
        end = at + 8
    if end < len(data):
        formats.append(f'{len(data) - end}s')
        picks.append(first_literal + len(literals))
        literals.append(data[end:])
    packer = struct.Struct(''.join(formats))
    assert packer.size == len(data)
    return packer.pack, itemgetter(*picks), tuple(literals)
