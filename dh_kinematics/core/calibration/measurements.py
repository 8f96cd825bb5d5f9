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
Measurements of a tool point for calibration: a CSV file, one row per arm configuration.

The header names the model's joints (rad or m), then ``x``, ``y``, ``z``: the position of a
point on the tool measured in some fixed frame (m; a laser tracker's). ``qx``, ``qy``, ``qz``,
``qw``, when present, are the measured orientation of the tool in that frame (a unit
quaternion, ROS order). Columns may come in any order; ``#`` starts a comment.

:func:`check` refuses what a model cannot have measured: a joint value past its limits, a
position beyond the model's bounds (:data:`core.bounds.LENGTH_MAX`), naming the row.
:func:`distinct` groups repeated configurations: a calibration counts each once.
"""

from dataclasses import dataclass
import math

from dh_kinematics.core import files
from dh_kinematics.core.bounds import LENGTH_MAX
import numpy as np


@dataclass(frozen=True)
class Measurements:
    """
    Measurements of the tool for calibration, one row per arm configuration.

    Attributes
    ----------
    q : array, shape (m, n)
        Joint values, rad or m, in the model's joint order.
    position : array, shape (m, 3)
        Measured positions, m.
    quaternion : array, shape (m, 4), or None
        Measured orientations (x, y, z, w), or None.
    lines : sequence of int, optional
        Each row's line in its file (None where they did not come from a file).
    source : str, optional
        The file's name (None where they did not come from a file).

    """

    q: np.ndarray
    position: np.ndarray
    quaternion: object
    lines: object = None
    source: object = None


LIMIT_TOLERANCE = 1e-9
"""A joint value this far past a limit (rad or m) is still taken as at the limit."""
MAX_BYTES = 64 << 20
"""The largest measurements file read, bytes (about 500,000 rows of seven joints)."""
SAME_CONFIGURATION = 1e-3
"""Configurations whose joint values all differ by less than this (rad or m) are one."""

POSITION = ('x', 'y', 'z')
ORIENTATION = ('qx', 'qy', 'qz', 'qw')


def read(path, joint_names):
    """
    Return the :data:`Measurements` of a CSV file for a model with ``joint_names``.

    Raises
    ------
    ValueError
        Naming the file and, where it applies, the line: no such file, a column that is
        missing or unknown or named twice, a row of the wrong length, a value that is not a
        finite number, a quaternion that is not of unit length, or no rows.

    """
    lines = files.read_text(path, 'measurements file', MAX_BYTES).splitlines()
    rows = [(number, line.split('#')[0].strip()) for number, line in enumerate(lines, 1)]
    rows = [(number, line) for number, line in rows if line]
    if not rows:
        raise ValueError(f'{path}: no header row and no measurements')
    header = [cell.strip() for cell in rows[0][1].split(',')]
    known = list(joint_names) + list(POSITION) + list(ORIENTATION)
    for cell in header:
        if cell not in known:
            raise ValueError(f'{path}: line {rows[0][0]}: column {cell!r} is neither a joint '
                             f'({", ".join(joint_names)}) nor one of x, y, z, qx, qy, qz, qw')
        if header.count(cell) > 1:
            raise ValueError(f'{path}: line {rows[0][0]}: column {cell!r} is named twice')
    needed = list(joint_names) + list(POSITION)
    missing = [cell for cell in needed if cell not in header]
    orientation = [cell for cell in ORIENTATION if cell in header]
    if missing or orientation and len(orientation) != 4:
        missing += [cell for cell in ORIENTATION if orientation and cell not in header]
        raise ValueError(f'{path}: line {rows[0][0]}: columns {", ".join(missing)} are '
                         'missing')
    values = []
    for number, line in rows[1:]:
        cells = line.split(',')
        if len(cells) != len(header):
            raise ValueError(f'{path}: line {number}: {len(header)} values expected (one per '
                             f'column), got {len(cells)}')
        try:
            row = [float(cell) for cell in cells]
        except ValueError:
            raise ValueError(f'{path}: line {number}: {line!r} holds something that is not a '
                             'number') from None
        if not all(math.isfinite(value) for value in row):
            raise ValueError(f'{path}: line {number}: every value must be finite')
        values.append(row)
    if not values:
        raise ValueError(f'{path}: a header but no measurements')
    table = np.array(values)
    column = {cell: j for j, cell in enumerate(header)}
    quaternion = None
    if orientation:
        quaternion = table[:, [column[cell] for cell in ORIENTATION]]
        norms = np.linalg.norm(quaternion, axis=1)
        bad = np.flatnonzero(np.abs(norms - 1.0) > 1e-3)
        if len(bad):
            raise ValueError(f'{path}: line {rows[1 + bad[0]][0]}: qx, qy, qz, qw must be a '
                             f'unit quaternion, got length {norms[bad[0]]:.6g}')
        quaternion = quaternion / norms[:, None]
    return Measurements(table[:, [column[name] for name in joint_names]],
                        table[:, [column[cell] for cell in POSITION]], quaternion,
                        [number for number, _ in rows[1:]], str(path))


def row_name(measurements, i):
    """Return how to name row ``i`` (0-based) in a message: its file and line, or its number."""
    if measurements.lines is not None:
        return f'{measurements.source}: line {measurements.lines[i]}'
    return f'measurements: row {i + 1}'


def check(chain, measurements):
    """
    Refuse measurements ``chain`` cannot have made; return their joint values, shape (m, n).

    Raises
    ------
    ValueError
        For another number of joints; naming the first row with a joint value past its limits
        (by more than :data:`LIMIT_TOLERANCE`), or a position beyond +-LENGTH_MAX m.

    """
    q = np.asarray(measurements.q, dtype=float)
    if q.ndim != 2 or q.shape[1] != chain.n:
        raise ValueError(f'measurements: {chain.n} joint values per row expected, got shape '
                         f'{q.shape}')
    position = np.asarray(measurements.position, dtype=float)
    if position.shape != (len(q), 3):
        raise ValueError(f'measurements: positions of shape ({len(q)}, 3) expected, got '
                         f'{position.shape}')
    bad = ~(np.isfinite(q).all(axis=1) & np.isfinite(position).all(axis=1))
    if bad.any():
        raise ValueError(f'{row_name(measurements, int(np.argmax(bad)))}: every value must be '
                         'finite')
    lower, upper = chain.qlim[:, 0] - LIMIT_TOLERANCE, chain.qlim[:, 1] + LIMIT_TOLERANCE
    past = (q < lower) | (q > upper)
    if past.any():
        i, j = np.argwhere(past)[0]
        link = chain.links[j]
        unit = 'rad' if link.isrevolute() else 'm'
        hint = ' (degrees?)' if link.isrevolute() and abs(q[i, j]) > 2.0 * math.pi else ''
        raise ValueError(f'{row_name(measurements, i)}: {chain.joint_names[j]} = '
                         f'{q[i, j]:.6g} {unit} is past its limits [{link.qlim[0]:.6g}, '
                         f'{link.qlim[1]:.6g}]{hint}; the arm cannot have been there')
    far = np.abs(position) > LENGTH_MAX
    if far.any():
        i = int(np.argwhere(far)[0][0])
        raise ValueError(f'{row_name(measurements, i)}: position {position[i].tolist()} is '
                         f'beyond +-{LENGTH_MAX:g} m, which no model has (a glitch, or not '
                         'metres?)')
    return q


def distinct(q, tolerance=SAME_CONFIGURATION):
    """
    Group repeated configurations.

    Parameters
    ----------
    q : array, shape (m, n)
        Joint values, rad or m.
    tolerance : float
        Rows whose every value is within this of a group's first row join that group.

    Returns
    -------
    first : array of int, shape (k,)
        The first row of each of the k distinct configurations.
    group : array of int, shape (m,)
        Each row's group.

    """
    first, group = [], np.empty(len(q), dtype=int)
    for i, row in enumerate(q):
        if first:
            same = np.flatnonzero(np.abs(q[first] - row).max(axis=1) < tolerance)
            if len(same):
                group[i] = same[0]
                continue
        group[i] = len(first)
        first.append(i)
    return np.array(first, dtype=int), group


def write(path, joint_names, measurements):
    """
    Write :data:`Measurements` as the CSV file :func:`read` takes (every digit kept).

    The header is ``joint_names``, then x, y, z and, with orientations, qx, qy, qz, qw.
    """
    header = list(joint_names) + list(POSITION)
    columns = [measurements.q, measurements.position]
    if measurements.quaternion is not None:
        header += list(ORIENTATION)
        columns.append(measurements.quaternion)
    lines = [','.join(header)] + [','.join(repr(float(value)) for value in values)
                                  for values in np.hstack(columns)]
    files.write_text(path, '\n'.join(lines) + '\n')
