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
Serialized (CDR) JointStates read without rclpy.

rclpy converts every message between Python objects and C structures, and at 1 kHz that
conversion is a large part of a node's work. This module skips it on the way in:
:class:`JointStateReader` reads sensor_msgs/JointState straight from the bytes of a raw
subscription (plain CDR, little- or big-endian; anything else raises ``ValueError`` so the
caller can fall back to ``rclpy.serialization.deserialize_message``).
:class:`message_template.Template` skips it on the way out; :func:`joint_state` writes the
messages of a joint log that is no bag, for the flow to take.

Pure Python, struct and numpy; no ROS import.
"""

from collections import namedtuple
import struct

PLAIN_CDR = {b'\x00\x00': '>', b'\x00\x01': '<'}
ORIGIN = 4  # alignment is counted from the end of the 4-byte encapsulation header

Layout = namedtuple('Layout', 'size segments counts names order positions velocities efforts '
                    'values')
Layout.__doc__ = """Where the parts of one serialized JointState are.

size : int
    Length of the bytes.
segments : tuple of (int, int)
    (start, end) of each run of bytes from frame_id to the position count, without the
    alignment padding between them (which the middleware may leave uninitialised).
counts : tuple of int
    Where the velocity and the effort count start (4 bytes each).
names : tuple of str
order : str
    '<' or '>'.
positions, velocities, efforts : (int, int)
    Start and count of the float64 values.
values : struct.Struct
    Reads the stamp and all of them at once from byte 4, skipping what lies between.
"""


class _Reader:
    """Read plain-CDR fields in order, checking every length against the bytes left."""

    def __init__(self, data):
        self.data = bytes(data)
        self.order = PLAIN_CDR.get(self.data[:2])
        if self.order is None:
            raise ValueError(f'encapsulation: not plain CDR: {self.data[:2].hex()}')
        self.pos = ORIGIN
        self.padding = []

    def _align(self, alignment):
        padding = -(self.pos - ORIGIN) % alignment
        if padding:
            self.padding.append((self.pos, self.pos + padding))
            self.pos += padding

    def _take(self, size, alignment):
        self._align(alignment)
        start, self.pos = self.pos, self.pos + size
        if self.pos > len(self.data):
            raise ValueError(f'data: {size} bytes needed at {start}, {len(self.data)} in all')
        return start

    def uint32(self, fmt='I'):
        return struct.unpack_from(self.order + fmt, self.data, self._take(4, 4))[0]

    def string(self):
        size = self.uint32()
        start = self._take(size, 1)
        if size and self.data[start + size - 1] != 0:
            raise ValueError(f'string: not NUL-terminated at {start}')
        # As rclpy reads it: a C string, up to its first NUL.
        return self.data[start:start + max(size - 1, 0)].split(b'\0', 1)[0].decode()

    def strings(self):
        count = self.uint32()
        if 4 * count > len(self.data) - self.pos:
            raise ValueError(f'sequence: {count} strings cannot fit')
        return [self.string() for _ in range(count)]

    def doubles(self):
        """Read a float64 sequence; return (where its count starts, its values' start, count)."""
        self._align(4)
        count_at = self.pos
        count = self.uint32()
        return count_at, (self._take(8 * count, 8) if count else self.pos), count


def read_layout(data):
    """
    Read a serialized sensor_msgs/JointState in full and return its :class:`Layout`.

    Raises
    ------
    ValueError
        If the bytes are not a plain-CDR JointState (truncated, bad string, other encoding).

    """
    reader = _Reader(data)
    reader.uint32('i'), reader.uint32()  # stamp
    reader.string()  # frame_id
    names = tuple(reader.strings())
    positions_count_at, positions_at, positions = reader.doubles()
    velocity_count_at, velocities_at, velocities = reader.doubles()
    effort_count_at, efforts_at, efforts = reader.doubles()
    data = reader.data
    segments, start = [], 12
    for pad_start, pad_end in reader.padding:
        if pad_start >= positions_count_at:
            break
        segments.append((start, pad_start))
        start = pad_end
    segments.append((start, positions_count_at + 4))
    segments = tuple(segments)
    arrays = ((positions_at, positions), (velocities_at, velocities), (efforts_at, efforts))
    return Layout(len(data), segments, (velocity_count_at, effort_count_at), names, reader.order,
                  *arrays, _values_struct(reader.order, arrays))


def _values_struct(order, arrays):
    """Return a Struct reading the stamp, then the (start, count) float64 arrays, from 4 on."""
    fmt, end = order + 'iI', ORIGIN + 8
    for start, count in arrays:
        fmt += f'{start - end}x{count}d'
        end = start + 8 * count
    return struct.Struct(fmt)


def _names_at(data):
    """Return where the names start in a plain-CDR JointState (after frame_id), or None."""
    order = PLAIN_CDR.get(bytes(data[:2]))
    if order is None or len(data) < 16:
        return None
    size, = struct.unpack_from(order + 'I', data, 12)
    return 16 + size + (-(12 + size) % 4)


def _unpadded(data, segments):
    """Return the bytes of ``data`` in the (start, end) ``segments``, joined."""
    return b''.join([data[start:end] for start, end in segments])


class JointStateReader:
    """
    Read serialized sensor_msgs/JointState messages, remembering the last one's layout.

    A stream of joint_states repeats its frame_id, names and array lengths. When a message has
    the same length as the last one and the same bytes in all of those, only its stamp,
    positions, velocities and efforts are read, at the offsets already known (one
    ``struct.unpack_from``). A message that differs only in its padding bytes or its frame_id
    (another publisher, or one that changes it on purpose) is read the same way, at the layout
    of the last message whose names start at the same offset (up to ``LAYOUTS_KEPT`` of them),
    comparing the bytes after frame_id without their padding. Otherwise the
    message is read in full. Either way, names equal to the last message's are the same tuple
    as before, which the cache recognises by identity.
    """

    LAYOUTS_KEPT = 256

    def __init__(self):
        self._layout = None
        self._counts = None
        self._known = None  # the last bytes from frame_id to the positions, padding included
        # Where the names start -> (layout, counts, where the bytes from there to the positions
        # lie without their padding, those bytes).
        self._after_frame_id = {}

    layout = property(lambda self: self._layout,
                      doc='The :data:`Layout` of the last message read (None before the first).')

    @staticmethod
    def _same_lengths(layout, counts, data):
        """Tell whether ``data`` has the size and the array counts of a layout's message."""
        velocities, efforts = layout.counts
        return len(data) == layout.size and (
            data[velocities:velocities + 4], data[efforts:efforts + 4]) == counts

    def _layout_of(self, data):
        layout = self._layout
        if layout is not None and self._same_lengths(layout, self._counts, data):
            known = data[12:layout.positions[0]]
            if known == self._known:  # padding bytes and all: the usual case
                return layout
        names_at = _names_at(data)
        seen = None if names_at is None else self._after_frame_id.get(names_at)
        if seen is not None:  # other padding bytes or another frame_id, at offsets seen before
            layout, counts, segments, rest = seen
            if self._same_lengths(layout, counts, data) and _unpadded(data, segments) == rest:
                self._layout, self._counts = layout, counts
                self._known = data[12:layout.positions[0]]
                return layout
        previous, layout = self._layout, read_layout(data)
        if previous is not None and layout.names == previous.names:
            layout = layout._replace(names=previous.names)  # the same tuple, as documented
        self._layout = layout
        self._counts = tuple(data[at:at + 4] for at in layout.counts)
        self._known = data[12:layout.positions[0]]
        if len(self._after_frame_id) >= self.LAYOUTS_KEPT:
            self._after_frame_id.clear()
        segments = [(max(start, names_at), end) for start, end in layout.segments
                    if end > names_at]
        self._after_frame_id[names_at] = (layout, self._counts, segments,
                                          _unpadded(data, segments))
        return layout

    def read(self, data):
        """
        Return the fields of one message.

        Parameters
        ----------
        data : bytes
            The message as a raw subscription delivers it: encapsulation header, then CDR.

        Returns
        -------
        stamp_ns : int
            Header stamp in ns.
        names : tuple of str
            The same tuple as the last message's when the names are the same.
        positions, velocities, efforts : tuple of float
            In rad or m, rad/s or m/s, and N m or N, as sent (the lengths are not checked
            here).

        Raises
        ------
        ValueError
            If the bytes are not a plain-CDR JointState (truncated, bad string, other
            encoding).

        """
        layout = self._layout_of(data)
        values = layout.values.unpack_from(data, ORIGIN)
        positions = 2 + layout.positions[1]
        split = positions + layout.velocities[1]
        return (values[0] * 1_000_000_000 + values[1], layout.names, values[2:positions],
                values[positions:split], values[split:])


def joint_state(stamp_ns, names, positions, velocities=(), efforts=()):
    """
    Return a sensor_msgs/JointState serialized as plain little-endian CDR, frame_id empty.

    What a raw rclpy subscription hands over (the encapsulation header included): for a joint
    log that is no bag (a CSV file) to take the node's way. Stamp in ns; values as given.
    """
    out = bytearray(struct.pack('<iI', *divmod(stamp_ns, 1_000_000_000)))
    out += struct.pack('<I', 1) + b'\0'  # frame_id: ''
    out += bytes(-len(out) % 4) + struct.pack('<I', len(names))
    for name in names:
        data = name.encode() + b'\0'
        out += bytes(-len(out) % 4) + struct.pack('<I', len(data)) + data
    for values in (positions, velocities, efforts):
        out += bytes(-len(out) % 4) + struct.pack('<I', len(values))
        if len(values):
            out += bytes(-len(out) % 8) + struct.pack(f'<{len(values)}d', *values)
    return b'\x00\x01\x00\x00' + bytes(out)
