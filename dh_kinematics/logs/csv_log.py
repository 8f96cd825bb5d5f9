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

from dh_kinematics.core import files
from dh_kinematics.core.names import check_name
from dh_kinematics.logs.joint_log import checked, JointLog
import numpy as np

FIELDS = ('position', 'velocity', 'effort')
MAX_BYTES = 1 << 30
"""The largest log file read, bytes (about an hour of a 7-joint arm at 1 kHz)."""


def read(path):
    """
    Return the :class:`JointLog` of a CSV file.

    Raises
    ------
    ValueError
        Naming the file and, where it applies, the line: no such file, no ``time`` column, a
        column that is not ``<joint>.position``, ``.velocity`` or ``.effort`` or is named
        twice, a joint without its position, a field logged for some joints only, a row of
        the wrong length, a value that is not a finite number, no rows.

    """
    lines = files.read_text(path, 'joint log', MAX_BYTES).splitlines()
    rows = [(number, line.split('#')[0].strip()) for number, line in enumerate(lines, 1)]
    rows = [(number, line) for number, line in rows if line]
    if not rows:
        raise ValueError(f'{path}: no header row and no samples')
    number, line = rows[0]
    header = [cell.strip() for cell in line.split(',')]
    names = []
    for cell in header:
        if header.count(cell) > 1:
            raise ValueError(f'{path}: line {number}: column {cell!r} is named twice')
        if cell == 'time':
            continue
        joint, _, field = cell.rpartition('.')
        if not joint or field not in FIELDS:
            raise ValueError(f'{path}: line {number}: column {cell!r} is neither time nor '
                             '<joint>.position, <joint>.velocity or <joint>.effort')
        if joint not in names:
            names.append(joint)
    if 'time' not in header:
        raise ValueError(f'{path}: line {number}: no time column (s)')
    column = {cell: k for k, cell in enumerate(header)}
    for field in FIELDS:
        have = [name for name in names if f'{name}.{field}' in column]
        if field == 'position' and len(have) < len(names) or have and len(have) < len(names):
            lacking = [name for name in names if name not in have]
            raise ValueError(f'{path}: line {number}: no {field} of {", ".join(lacking)} '
                             f'({field} is logged for {", ".join(have) or "no joint"})')
    values = np.empty((len(rows) - 1, len(header)))
    for k, (number, line) in enumerate(rows[1:]):
        cells = line.split(',')
        if len(cells) != len(header):
            raise ValueError(f'{path}: line {number}: {len(header)} values expected (one per '
                             f'column), got {len(cells)}')
        try:
            values[k] = [float(cell) for cell in cells]
        except ValueError:
            raise ValueError(f'{path}: line {number}: {line!r} holds something that is not a '
                             'number') from None
    if not len(values):
        raise ValueError(f'{path}: a header but no samples')

    def table(field):
        if f'{names[0]}.{field}' not in column:
            return None
        return values[:, [column[f'{name}.{field}'] for name in names]]
    return checked(JointLog(tuple(names), values[:, column['time']], table('position'),
                            table('velocity'), table('effort'), str(path),
                            np.array([number for number, _ in rows[1:]])))


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
