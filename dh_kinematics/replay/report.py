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
A replay's report folder: ``transitions.csv``, ``maxima.csv`` and a summary, written whole.

The files are written into a new folder beside the report's and moved into place at the end, so
a replay that fails leaves nothing half-written; the pictures and ``index.html`` are drawn into
the same staging folder (:mod:`cli.replay_report`).
"""

import csv
import math

from dh_kinematics.core import files
from dh_kinematics.node_logic.monitors.levels import ERROR, LEVEL_NAMES, OK, STALE, WARN

__all__ = ['summary', 'worst', 'write']

SEVERITY = (OK, WARN, STALE, ERROR)
"""The levels from the least to the most severe."""


def write(folder, transitions, maxima, more=None):
    """
    Write the report into ``folder`` (new, or empty): the transitions and maxima as CSV.

    ``transitions``: :data:`Transition` rows; ``maxima``: :meth:`Maxima.rows`. Stamps in s.
    ``more(staging)``, where given, writes the rest (the pictures) into the staged folder
    (:func:`core.files.staged_folder`).
    """
    with files.staged_folder(folder, '--report') as staging:
        with open(staging / 'transitions.csv', 'w', newline='') as stream:
            rows = csv.writer(stream)
            rows.writerow(('stamp', 'status', 'level', 'message'))
            for t in transitions:
                rows.writerow((f'{t.stamp_ns * 1e-9:.9f}', t.status, LEVEL_NAMES[t.level],
                               t.message))
        with open(staging / 'maxima.csv', 'w', newline='') as stream:
            rows = csv.writer(stream)
            rows.writerow(('subject', 'quantity', 'worst', 'stamp', 'limit'))
            for subject, quantity, value, stamp, limit in maxima:
                rows.writerow((subject, quantity, repr(value), f'{stamp:.9f}',
                               '' if math.isnan(limit) else repr(limit)))
        if more is not None:
            more(staging)


def worst(transitions):
    """Return each status's worst level (ERROR the worst, above STALE) and the first ERROR."""
    found, first_error = {}, None
    for t in transitions:  # ERROR is the worst, as in the arm's level: never hidden by STALE
        found[t.status] = max(found.get(t.status, t.level), t.level, key=SEVERITY.index)
        if t.level == ERROR and first_error is None:
            first_error = t
    return found, first_error


def summary(transitions):
    """Return one screen: each status's worst level, and the first ERROR with its stamp."""
    levels, first_error = worst(transitions)
    lines = [f'{status}: worst {LEVEL_NAMES[level]}' for status, level in levels.items()]
    lines.append('first ERROR: none' if first_error is None else
                 f'first ERROR: {first_error.stamp_ns * 1e-9:.6f} s {first_error.status}: '
                 f'{first_error.message}')
    return '\n'.join(lines)
