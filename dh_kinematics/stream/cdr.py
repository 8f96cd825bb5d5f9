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
Serialized (CDR) messages without rclpy: read a JointState, refill a prepared message.

rclpy converts every message between Python objects and C structures, and at 1 kHz that
conversion is a large part of a node's work. This module skips it on both ends:

- :class:`JointStateReader` reads sensor_msgs/JointState straight from the bytes of a raw
  subscription (plain CDR, little- or big-endian; anything else raises ``ValueError`` so the
  caller can fall back to ``rclpy.serialization.deserialize_message``);
- :class:`Template` holds a message serialized once by the middleware itself, with marker values
  in its stamps and float64 fields. It finds where each marker landed, and then writes new
  stamps and values into a copy of those bytes, so the layout is always the middleware's own.

Pure Python, struct and numpy; no ROS import.
"""

from collections import namedtuple
import struct

import numpy as np

PLAIN_CDR = {b'\x00\x00': '>', b'\x00\x01': '<'}
ORIGIN = 4  # alignment is counted from the end of the 4-byte encapsulation header
# Markers: unlikely bit patterns, each unique within one message (checked).
STAMP_MARKER_SEC = 0x5A5A0000
STAMP_MARKER_NANOSEC = 0x2A5A0000
VALUE_MARKER = -1.2345678901234567e-123
MAX_RUNS = 4  # more runs of fields than this: fill through numpy (see Template)

Layout = namedtuple('Layout',
                    'size fixed segments counts names order positions velocities efforts')
Layout.__doc__ = """Where the parts of one serialized JointState are.

size : int
    Length of the bytes.
fixed : bytes
    The encapsulation header, then everything from frame_id to the position count except the
    alignment padding (which the middleware may leave uninitialised).
segments : tuple of (int, int)
    Where the parts of that second part are: (start, end) of each run without padding.
counts : tuple of int
    Where the velocity and the effort count start (4 bytes each).
names : list of str
order : str
    '<' or '>'.
positions, velocities, efforts : (int, int)
    Start and count of the float64 values.
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
    names = reader.strings()
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
    return Layout(len(data), _fixed(data, segments), segments,
                  (velocity_count_at, effort_count_at), names, reader.order,
                  (positions_at, positions), (velocities_at, velocities),
                  (efforts_at, efforts))


def _fixed(data, segments):
    return data[:4] + b''.join([data[start:end] for start, end in segments])


class JointStateReader:
    """
    Read serialized sensor_msgs/JointState messages, remembering the last one's layout.

    A stream of joint_states repeats its frame_id, names and array lengths. When a message has
    the same length as the last one and the same bytes in all of those, only its stamp,
    positions and velocities are read, at the offsets already known, and the names list is the
    same object as before. Otherwise the message is read in full.
    """

    def __init__(self):
        self._layout = None
        self._counts = None

    def _layout_of(self, data):
        layout = self._layout
        if (layout is not None and len(data) == layout.size
                and _fixed(data, layout.segments) == layout.fixed
                and self._counts == tuple(data[at:at + 4] for at in layout.counts)):
            return layout
        layout = self._layout = read_layout(data)
        self._counts = tuple(data[at:at + 4] for at in layout.counts)
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
        names : list of str
        positions, velocities, efforts : array, shape (k,)
            In rad or m, rad/s or m/s, and N m or N, as sent (the lengths are not checked
            here).

        Raises
        ------
        ValueError
            If the bytes are not a plain-CDR JointState (truncated, bad string, other
            encoding).

        """
        layout = self._layout_of(data)
        sec, nanosec = struct.unpack_from(layout.order + 'iI', data, ORIGIN)
        dtype = layout.order + 'f8'
        return (sec * 1_000_000_000 + nanosec, layout.names,
                np.frombuffer(data, dtype, layout.positions[1], layout.positions[0]),
                np.frombuffer(data, dtype, layout.velocities[1], layout.velocities[0]),
                np.frombuffer(data, dtype, layout.efforts[1], layout.efforts[0]))


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
        self._data = bytes(serialize(marker_stamps, marker_values))
        self.order = '<' if self._data[1] & 1 else '>'
        patterns = [struct.pack(self.order + 'iI', *stamp) for stamp in marker_stamps]
        patterns += [struct.pack(self.order + 'd', value) for value in marker_values]
        index = [self._locate(pattern) for pattern in patterns]
        self._index = (np.asarray(index, dtype=np.intp).reshape(-1, 1)
                       + np.arange(8)).ravel()
        self._stamps, self._values = stamps, values
        self._value_dtype = np.dtype(self.order + 'f8')
        self._runs = self._contiguous_runs(index[:stamps], index[stamps:])

    def _contiguous_runs(self, stamp_at, value_at):
        """
        Split the message into literal bytes and runs of fields, if there are few runs.

        A message with few runs (a JointState's stamp and its efforts) is filled fastest by
        joining bytes; one with many (a TFMessage) through numpy. Returns None for the latter.
        """
        slots = sorted([(at, None, 0) for at in stamp_at]
                       + [(at, i, 1) for i, at in enumerate(value_at)])
        runs = []  # [start, first value index or None for a stamp, count]
        for at, i, count in slots:
            last = runs[-1] if runs else None
            if (i is not None and last is not None and last[1] is not None
                    and last[0] + 8 * last[2] == at and last[1] + last[2] == i):
                last[2] += 1
            else:
                runs.append([at, i, count])
        if len(runs) > MAX_RUNS:
            return None
        data, end, pieces = self._data, 0, []
        for start, first, count in runs:
            pieces.append((data[end:start], first, count,
                           None if first is None else struct.Struct(f'{self.order}{count}d')))
            end = start + 8 * max(count, 1)
        return pieces, data[end:]

    def _locate(self, pattern):
        found = self._data.find(pattern)
        if found < 0 or self._data.find(pattern, found + 1) >= 0:
            raise ValueError(f'template: marker {pattern.hex()} found '
                             f'{self._data.count(pattern)} times, not once')
        return found

    def fill(self, stamp_ns, values):
        """
        Return the serialized message with every stamp set to ``stamp_ns`` and the values.

        Parameters
        ----------
        stamp_ns : int
            Time in ns (seconds must fit in int32).
        values : array, shape (values,)
            The float64 fields, in the order the serializer was given them.

        Returns
        -------
        data : bytes

        """
        if not isinstance(values, (list, tuple)):
            values = np.asarray(values, dtype=self._value_dtype).ravel()
        if len(values) != self._values:
            raise ValueError(f'values: {len(values)} given, the template has {self._values}')
        stamp = struct.pack(self.order + 'iI', *divmod(int(stamp_ns), 1_000_000_000))
        if self._runs is not None:
            pieces, tail = self._runs
            parts = []
            for literal, first, count, packer in pieces:
                parts.append(literal)
                parts.append(stamp if packer is None else
                             packer.pack(*values[first:first + count]))
            parts.append(tail)
            return b''.join(parts)
        values = np.asarray(values, dtype=self._value_dtype).ravel()
        patch = np.frombuffer(stamp * self._stamps + values.tobytes(), np.uint8)
        data = np.frombuffer(self._data, np.uint8).copy()
        data[self._index] = patch
        return data.tobytes()
