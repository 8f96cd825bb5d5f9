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
JointLog: a recorded stream of joint states, as numbers in SI units and seconds.

A log comes from a CSV file (:mod:`logs.csv_log`) or a rosbag2 folder (:mod:`logs.bag`);
:func:`for_model` puts its columns in a model's joint order and refuses what that model cannot
have logged, naming the joint and the row.
"""

from dataclasses import dataclass
import math

import numpy as np


@dataclass(frozen=True)
class JointLog:
    """
    Joint states over time, one row per sample.

    Attributes
    ----------
    names : tuple of str
        The joints, in the columns' order.
    time : array, shape (m,)
        Each sample's stamp, s.
    position : array, shape (m, n)
        Joint positions, rad or m.
    velocity : array, shape (m, n), or None
        Joint velocities, rad/s or m/s; None where the log has none.
    effort : array, shape (m, n), or None
        Measured joint torques or forces, N m or N; None where the log has none.
    source : str
        Where the log came from (a file or folder), for messages.
    rows : array of int, shape (m,), or None
        Each sample's line in its file (CSV) or message number (bag), for messages.
    row_label : str
        What ``rows`` count: ``'line'`` or ``'message'``.

    """

    names: tuple
    time: np.ndarray
    position: np.ndarray
    velocity: object
    effort: object
    source: str = 'log'
    rows: object = None
    row_label: str = 'line'

    def row_name(self, i):
        """Return how to name sample ``i`` (0-based) in a message."""
        where = f'{self.row_label} {self.rows[i]}' if self.rows is not None else f'sample {i + 1}'
        return f'{self.source}: {where} (time {self.time[i]:.6g} s)'

    def select(self, rows):
        """Return the log of the samples ``rows`` (an index array or a boolean mask)."""
        def pick(values):
            return None if values is None else values[rows]
        return JointLog(self.names, self.time[rows], self.position[rows], pick(self.velocity),
                        pick(self.effort), self.source, pick(self.rows), self.row_label)


PHYSICAL_MAX = 1e6
"""A logged velocity (rad/s or m/s) or effort (N m or N) beyond this size is no arm's."""


def checked(log):
    """
    Return ``log`` with its arrays as floats of consistent shapes, every value finite.

    Raises
    ------
    ValueError
        Naming the field, or the first sample and joint with a value that is not finite, or
        a velocity or effort beyond :data:`PHYSICAL_MAX`.

    """
    n = len(log.names)
    time = np.asarray(log.time, dtype=float)
    arrays = {}
    for field in ('position', 'velocity', 'effort'):
        values = getattr(log, field)
        if values is None:
            arrays[field] = None
            continue
        values = np.asarray(values, dtype=float)
        if values.shape != (len(time), n):
            raise ValueError(f'{log.source}: {field}: shape ({len(time)}, {n}) expected (a '
                             f'row per stamp, a column per joint), got {values.shape}')
        arrays[field] = values
    if arrays['position'] is None:
        raise ValueError(f'{log.source}: the log has no positions')
    log = JointLog(tuple(log.names), time, arrays['position'], arrays['velocity'],
                   arrays['effort'], log.source, log.rows, log.row_label)
    bad = ~np.isfinite(time)
    if bad.any():
        i = int(np.argmax(bad))
        where = log.row_name(i).rpartition(' (time')[0]
        raise ValueError(f'{where}: time is {time[i]}, not a finite number of seconds')
    for field, values in arrays.items():
        if values is None:
            continue
        bad = ~np.isfinite(values)
        if bad.any():
            i, j = (int(k) for k in np.argwhere(bad)[0])
            raise ValueError(f'{log.row_name(i)}: {log.names[j]}.{field} is '
                             f'{values[i, j]}; every value must be finite')
        bad = np.abs(values) > PHYSICAL_MAX
        if field != 'position' and bad.any():
            i, j = (int(k) for k in np.argwhere(bad)[0])
            raise ValueError(f'{log.row_name(i)}: {log.names[j]}.{field} is '
                             f"{values[i, j]:g}, beyond any arm's ({PHYSICAL_MAX:g} rad/s or "
                             'm/s, N m or N)')
    return log


DEGREES_HINT = 2.0 * math.pi
"""A revolute joint logged beyond +-this (rad) and its limits is taken as logged in degrees."""
LIMIT_MARGIN = 0.05
"""How far past a limit (rad or m) a logged position may be: encoders overshoot, limits round."""


def for_model(log, chain):
    """
    Return ``log`` with one column per joint of ``chain``, in its order, checked.

    Raises
    ------
    ValueError
        A joint the model has not (naming it and the model's), a joint of the model missing
        from the log, a position past its limits by more than :data:`LIMIT_MARGIN` (with a
        hint where the values look like degrees), non-finite values.

    """
    log = checked(log)
    names = list(chain.joint_names)
    unknown = [name for name in log.names if name not in names]
    if unknown:
        raise ValueError(f'{log.source}: joint {unknown[0]!r} is not in the model (its joints: '
                         f'{", ".join(names)})')
    missing = [name for name in names if name not in log.names]
    if missing:
        raise ValueError(f'{log.source}: the log has no values of {", ".join(missing)}')
    order = [log.names.index(name) for name in names]

    def columns(values):
        return None if values is None else values[:, order]
    log = JointLog(tuple(names), log.time, columns(log.position), columns(log.velocity),
                   columns(log.effort), log.source, log.rows, log.row_label)
    lower = chain.qlim[:, 0] - LIMIT_MARGIN
    upper = chain.qlim[:, 1] + LIMIT_MARGIN
    past = (log.position < lower) | (log.position > upper)
    if past.any():
        i, j = (int(k) for k in np.argwhere(past)[0])
        revolute = chain.links[j].isrevolute()
        value = log.position[i, j]
        hint = '; radians expected (degrees?)' if revolute and abs(value) > DEGREES_HINT else ''
        raise ValueError(f'{log.row_name(i)}: {names[j]}.position = {value:.6g} '
                         f'{"rad" if revolute else "m"} is past its limits '
                         f'[{chain.qlim[j, 0]:.6g}, {chain.qlim[j, 1]:.6g}]{hint}')
    return log
