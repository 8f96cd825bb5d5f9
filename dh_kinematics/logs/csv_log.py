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
The joint log as a CSV file, as ``identify`` reads it.

The header is ``time`` (s), then for each joint ``<joint>.position`` (rad or m) and, where
logged, ``<joint>.velocity`` (rad/s or m/s) and ``<joint>.effort`` (N m or N); columns may
come in any order, ``#`` starts a comment, a row per sample.
"""

import itertools
import warnings

from dh_kinematics.core import files
from dh_kinematics.core.names import check_name
from dh_kinematics.logs.joint_log import checked, JointLog
import numpy as np

FIELDS = ('position', 'velocity', 'effort')
MAX_BYTES = 1 << 30
"""The largest log file read, bytes (about an hour of a 7-joint arm at 1 kHz)."""
MAX_LINE = 1 << 20
"""The longest line read, characters: a header of some 50,000 columns; no row needs more."""
BLOCK = 8192
"""Rows parsed at a time: the text of one block at most is held beside the numbers."""


def read(path):
    """
    Return the :class:`JointLog` of a CSV file.

    Read a block of rows at a time (:func:`blocks`): the memory is the log's numbers (8 bytes
    a value) and one block's text, never the whole file's text.

    Raises
    ------
    ValueError
        Naming the file and, where it applies, the line: no such file, no ``time`` column, a
        column that is not ``<joint>.position``, ``.velocity`` or ``.effort`` or is named
        twice, a joint without its position, a field logged for some joints only, a row of
        the wrong length, a line longer than :data:`MAX_LINE`, a value that is not a finite
        number, no rows.

    """
    parts = list(blocks(path))
    if len(parts) == 1:
        return parts[0]

    def joined(field):
        if getattr(parts[0], field) is None:
            return None
        return np.concatenate([getattr(part, field) for part in parts])
    first = parts[0]
    return JointLog(first.names, joined('time'), joined('position'), joined('velocity'),
                    joined('effort'), first.source, joined('rows'))


def blocks(path, rows=BLOCK):
    """
    Yield the CSV file's samples as :class:`JointLog` blocks of at most ``rows`` samples each.

    Each block is checked as :func:`read` checks the whole (every value finite; a row of the
    wrong length refused at its line, before the next is read); at least one block, or a
    ValueError (:func:`read`). A bad row's ValueError comes after the rows before it (a file
    cut short by a recorder killed while writing: what was written is read).
    """
    with files.open_text(path, 'joint log', MAX_BYTES) as stream:
        lines = _lines(stream, path)
        first = next(lines, None)
        if first is None:
            raise ValueError(f'{path}: no header row and no samples')
        names, columns, width = _header(path, *first)
        found = False
        while True:
            block = list(itertools.islice(lines, rows))
            if not block:
                break
            found = True
            try:
                values, error = _numbers(path, block, width), None
            except ValueError as refused:
                good = _good_rows(block, width)
                block, values, error = block[:good], _numbers(path, block[:good], width), refused

            def table(field, values=values):
                picked = columns[field]
                return None if picked is None else values[:, picked]
            if block:
                yield checked(JointLog(names, values[:, columns['time']], table('position'),
                                       table('velocity'), table('effort'), str(path),
                                       np.array([number for number, _ in block])))
            if error is not None:
                raise error
        if not found:
            raise ValueError(f'{path}: a header but no samples')


def _lines(stream, path):
    """Yield ``(number, text)`` of each line that holds more than a comment or blanks."""
    for number in itertools.count(1):
        try:
            line = stream.readline(MAX_LINE + 1)
        except UnicodeDecodeError:
            raise ValueError(f'{path}: line {number}: not UTF-8 text') from None
        if not line:
            return
        if len(line.rstrip('\n')) > MAX_LINE:
            raise ValueError(f'{path}: line {number}: longer than {MAX_LINE} characters, which '
                             'no joint log needs')
        text = line.split('#', 1)[0].strip()
        if text:
            yield number, text


def _header(path, number, line):
    """Return the joints, the columns of each field (or None) and the header's width."""
    header = [cell.strip() for cell in line.split(',')]
    seen, names, joints = set(), [], set()
    for cell in header:
        if cell in seen:
            raise ValueError(f'{path}: line {number}: column {cell!r} is named twice')
        seen.add(cell)
        if cell == 'time':
            continue
        joint, _, field = cell.rpartition('.')
        if not joint or field not in FIELDS:
            raise ValueError(f'{path}: line {number}: column {_shown(cell)} is neither time nor '
                             '<joint>.position, <joint>.velocity or <joint>.effort')
        if joint not in joints:
            joints.add(joint)
            names.append(joint)
    if 'time' not in seen:
        raise ValueError(f'{path}: line {number}: no time column (s)')
    column = {cell: k for k, cell in enumerate(header)}
    columns = {'time': column['time']}
    for field in FIELDS:
        have = [name for name in names if f'{name}.{field}' in column]
        if field == 'position' and len(have) < len(names) or have and len(have) < len(names):
            lacking = [name for name in names if name not in have]
            raise ValueError(f'{path}: line {number}: no {field} of {_listed(lacking)} '
                             f'({field} is logged for {_listed(have) or "no joint"})')
        columns[field] = [column[f'{name}.{field}'] for name in names] if have else None
    return tuple(names), columns, len(header)


def _numbers(path, block, width):
    """
    Return a block's rows as numbers, shape (rows, width); refuse a row at its line.

    numpy's own text parser reads the block at once (2.3 times as fast as a float a cell on a
    10-minute 1 kHz log of 7 joints, the same values to the bit, 2026-11-30); where it stops
    short, each line is read alone, to say which.
    """
    for number, line in block:
        if line.count(',') != width - 1:
            row = line.split(',', width)  # no more cells than one past the header's
            raise ValueError(f'{path}: line {number}: {width} values expected (one per '
                             f'column), got {len(row) if len(row) <= width else "more"}')
    with warnings.catch_warnings():  # numpy before 2 warns where it stops, and stops
        warnings.simplefilter('error', DeprecationWarning)
        try:
            values = np.fromstring(','.join([line for _, line in block]), sep=',')
        except (ValueError, DeprecationWarning):
            values = None
    if values is not None and values.size == len(block) * width:
        return values.reshape(len(block), width)
    cells = [line.split(',') for _, line in block]
    try:
        return np.array(cells, dtype=float)
    except ValueError:
        pass
    for (number, line), row in zip(block, cells):
        try:
            [float(cell) for cell in row]
        except ValueError:
            raise ValueError(f'{path}: line {number}: {_shown(line)} holds something that is '
                             'not a number') from None
    raise ValueError(f'{path}: a value is not a number')  # numpy refused what float takes


def _good_rows(block, width):
    """Return how many of a block's rows come before its first that is not ``width`` numbers."""
    for k, (_, line) in enumerate(block):
        cells = line.split(',')
        if len(cells) != width:
            return k
        try:
            [float(cell) for cell in cells]
        except ValueError:
            return k
    return len(block)


def _shown(text, limit=80):
    """Return ``text`` as repr, cut to ``limit`` characters."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[:limit - 4] + "...'"


def _listed(names, limit=10):
    """Return up to ``limit`` names joined, and how many more."""
    more = len(names) - limit
    return ', '.join(names[:limit]) + (f' and {more} more' if more > 0 else '')


def check_names(names, field='joint name'):
    """
    Refuse a name no column can hold: a joint name is letters, digits, _, - and . alone.

    A ``,``, ``#``, a line break or a space would read back as other columns, a comment or
    another row (:func:`core.names.check_name`; InvalidFieldError naming ``field``).
    """
    for name in names:
        check_name(field, name, 'joint')


def text(log):
    """Return the CSV text of a :class:`JointLog` (every digit kept); see :func:`check_names`."""
    check_names(log.names)
    header, columns = ['time'], [log.time[:, None]]
    for field in FIELDS:
        values = getattr(log, field)
        if values is not None:
            header += [f'{name}.{field}' for name in log.names]
            columns.append(values)
    lines = [','.join(header)] + [','.join(map(repr, row)) for row in
                                  np.hstack(columns).tolist()]
    return '\n'.join(lines) + '\n'


def write(path, log):
    """Write a :class:`JointLog` as the CSV file :func:`read` takes, whole or not at all."""
    files.write_text(path, text(log))
