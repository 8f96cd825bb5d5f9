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
A fleet's tables: ``logs.csv`` (a row a log) and ``joints.csv`` (a row a log and joint).

The rows are in the order the logs were given (:func:`fleet.find`), whatever order they were
judged in; numbers are written as Python's ``repr`` writes them (empty where there is none), so
that two runs of the same logs write the same bytes. The columns are in doc/health.md.
"""

import csv
import io
import math

from dh_kinematics.health.drift import QUANTITIES as DRIFTING
from dh_kinematics.health.judge import LIMITED
from dh_kinematics.node_logic.monitors.levels import LEVEL_NAMES
from dh_kinematics.replay.maxima import QUANTITIES

__all__ = ['joints_csv', 'logs_csv']

WITH_LIMIT = ('velocity', 'acceleration', 'jerk', 'effort')
"""The quantities whose worst, in ``logs.csv``, is a fraction of the joint's limit."""


def _number(value):
    return '' if value is None or math.isnan(value) else repr(float(value))


def _text(rows):
    stream = io.StringIO()
    csv.writer(stream, lineterminator='\n').writerows(rows)
    return stream.getvalue()


def _worst_joint(maxima):
    """Return a log's worst of each joint quantity over its joints (its maxima.csv's rows)."""
    worst = {}
    for subject, quantity, value, _, limit in maxima:
        if subject == 'safety':  # a safety figure: in the log's own maxima.csv
            continue
        if quantity in WITH_LIMIT:
            if not 0.0 < limit < math.inf:
                continue
            value = value / limit
        larger = quantity != QUANTITIES[0]
        kept = worst.get(quantity)
        if kept is None or (value > kept if larger else value < kept):
            worst[quantity] = value
    return worst


def logs_csv(logs, results):
    """
    Return ``logs.csv``'s text: ``logs`` (:func:`fleet.find`'s), ``results`` ``{k: LogHealth}``.

    Only the logs with a result have a row (a run stopped by Ctrl-C has some).
    """
    done = [results[k] for k in range(len(logs)) if k in results]
    statuses = sorted({status for result in done for status in result.worst})
    found = {key for result in done for key in _worst_joint(result.maxima)}
    worst_keys = [quantity for quantity in QUANTITIES if quantity in found]
    columns = ['path', 'report', 'arm', 'first stamp (s)', 'duration (s)', 'messages',
               'problem', 'first ERROR stamp (s)', 'first ERROR status', 'first ERROR message']
    columns += [f'worst: {status}' for status in statuses]
    columns += [f'alarms per hour: {status}' for status in statuses]
    columns += [_heading(key) for key in worst_keys]
    rows = [columns]
    for result in done:
        error = result.first_error
        hours = result.duration_s / 3600.0
        worst = _worst_joint(result.maxima)
        rows.append([result.path, f'logs/{result.name}/index.html' if result.report else '',
                     result.arm, _number(result.first_s), _number(result.duration_s),
                     result.messages, result.problem,
                     '' if error is None else f'{error.stamp_ns * 1e-9:.9f}',
                     '' if error is None else error.status,
                     '' if error is None else error.message]
                    + [LEVEL_NAMES[result.worst[s]] if s in result.worst else ''
                       for s in statuses]
                    + [_number(result.alarms[s] / hours) if s in result.alarms and hours > 0.0
                       else '' for s in statuses]
                    + [_number(worst.get(key)) for key in worst_keys])
    return _text(rows)


def _heading(quantity):
    if quantity == QUANTITIES[0]:
        return 'least position margin (rad or m)'
    if quantity in WITH_LIMIT:
        return f'most {quantity} (of its limit)'
    return f'most {quantity} (N m or N)'


def joints_csv(logs, results, z):
    """Return ``joints.csv``'s text; ``z`` the drift's distances (:func:`drift.distances`)."""
    columns = ['path', 'arm', 'joint', 'viscous (N m s/rad)', 'viscous std', 'Coulomb + (N m)',
               'Coulomb + std', 'Coulomb - (N m)', 'Coulomb - std', 'friction note',
               'residual RMS at rest', 'residual RMS in motion', 'residual RMS in motion std',
               'observer RMS at rest', 'observer RMS in motion']
    columns += [q if q.endswith('margin') else f'{q} margin' for q in LIMITED]
    columns += [f'{quantity} drift (sigmas)' for quantity in DRIFTING]
    rows = [columns]
    for k in range(len(logs)):
        result = results.get(k)
        for joint in () if result is None else result.joints:
            friction = joint.friction
            pairs = [_number(v) for pair in zip(friction.values, friction.std) for v in pair]
            distance = z.get((k, joint.name))
            rows.append([result.path, result.arm, joint.name] + pairs + [friction.note]
                        + [_number(v) for v in (*joint.residual, joint.residual_std,
                                                *joint.observer)]
                        + [_number(joint.margins[q]) for q in LIMITED]
                        + [_number(v) for v in (distance if distance is not None else
                                                [math.nan] * len(DRIFTING))])
    return _text(rows)
