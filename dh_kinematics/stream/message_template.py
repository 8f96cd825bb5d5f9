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
stamps and float64 fields. It finds where each marker landed, and then writes new stamps and
values into a copy of those bytes, so the layout is always the middleware's own. Pure Python,
struct and numpy; no ROS import. (:mod:`cdr` reads JointStates the same way.)
"""

import struct

import numpy as np

# Markers: unlikely bit patterns, each unique within one message (checked).
STAMP_MARKER_SEC = 0x5A5A0000
STAMP_MARKER_NANOSEC = 0x2A5A0000
VALUE_MARKER = -1.2345678901234567e-123
# More runs of fields than this: fill through numpy (see Template). One struct call is faster
# up to the TF of a 30-joint arm with axis frames (120 runs): 4.9 against 6.5 µs.
MAX_RUNS = 256


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
        self._stamp = struct.Struct(self.order + 'iI')
        self._value_dtype = np.dtype(self.order + 'f8')
        self._fill = self._contiguous_runs(index[:stamps], index[stamps:])

    def _contiguous_runs(self, stamp_at, value_at):
        """
        Split the message into literal bytes and runs of fields, if there are few runs.

        A message with few runs (a JointState's stamp and its efforts, the TF of a few links)
        is filled fastest by one ``struct`` call (:meth:`pack_source`); one with many through
        numpy.
        Returns the fill function, or None for the latter.
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
            self._runs = None
            return None
        self._runs = runs
        namespace = {}
        source = self.pack_source([f'values[{i}]' for i in range(self._values)], namespace)
        source = f'def fill(sec, nanosec, values):\n    return {source}\n'
        exec(compile(source, '<message template>', 'exec'), namespace)  # names and indices only
        return namespace['fill']

    def pack_source(self, values, namespace, prefix='template'):
        """
        Return the code of one ``struct`` call that writes the whole message.

        The call passes the literal bytes between the runs of fields (``Ns``), the stamp (the
        names ``sec`` and ``nanosec``) and the values, in message order, without a loop.

        Parameters
        ----------
        values : sequence of str
            Code of each float64 field, in the order the serializer was given them.
        namespace : dict
            Takes the names the code uses: the literal bytes and the packing function, each
            starting with ``prefix``.
        prefix : str
            Starts every name the code uses (several templates can share one namespace).

        Raises
        ------
        ValueError
            If the message has too many runs for one call (more than MAX_RUNS).

        """
        if self._runs is None:
            raise ValueError(f'template: more than {MAX_RUNS} runs of fields')
        data, end, formats, arguments = self._data, 0, [self.order], []

        def literal(start, stop):
            if stop > start:
                name = f'{prefix}_literal{len(arguments)}'
                namespace[name] = data[start:stop]
                formats.append(f'{stop - start}s')
                arguments.append(name)

        for start, first, count in self._runs:
            literal(end, start)
            if first is None:
                formats.append('iI')
                arguments.extend(('sec', 'nanosec'))
            else:
                formats.append(f'{count}d')
                arguments.extend(values[first:first + count])
            end = start + 8 * max(count, 1)
        literal(end, len(data))
        packer = struct.Struct(''.join(formats))
        assert packer.size == len(data)
        namespace[f'{prefix}_pack'] = packer.pack
        return f'{prefix}_pack({", ".join(arguments)})'

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
        sec, nanosec = divmod(int(stamp_ns), 1_000_000_000)
        if self._fill is not None:
            return self._fill(sec, nanosec, values)
        stamp = self._stamp.pack(sec, nanosec)
        values = np.asarray(values, dtype=self._value_dtype).ravel()
        patch = np.frombuffer(stamp * self._stamps + values.tobytes(), np.uint8)
        data = np.frombuffer(self._data, np.uint8).copy()
        data[self._index] = patch
        return data.tobytes()
