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
``dh_kinematics identify --report DIR``: what a person reads of a fit (matplotlib).

``torque_<joint>.png``: the measured (filtered) and the identified model's torque over time,
and below them the residual (measured - identified), the held-out part shaded;
``base_parameters.csv``: each base parameter's combination, its least-squares value with its
standard deviation and the identified model's value;
``changes.csv``: each dynamic field of each joint, given and identified; ``index.html``: the
figures, the pictures and the tables on one page.
"""

import csv
import html
import io
import os

from dh_kinematics.cli import models
from dh_kinematics.cli.plot import pyplot, save_png
from dh_kinematics.core import files
import numpy as np

FIELDS = ('m', 'r', 'I', 'Jm', 'B', 'Tc')
"""The fields of a joint that identification changes."""


def _text(value):
    return ' '.join(f'{v:.6g}' for v in np.ravel(value))


def changes(before, after):
    """Return the rows ``(joint, field, given, identified)`` of two chains' dynamic fields."""
    rows = []
    for name, old, new in zip(before.joint_names, before.links, after.links):
        for field in FIELDS:
            given, found = getattr(old, field), getattr(new, field)
            if field == 'I':
                given, found = np.asarray(given), np.asarray(found)
            rows.append((name, field, _text(given), _text(found)))
    return rows


def csv_text(rows):
    """Return ``rows`` (sequences of cells) as CSV text."""
    stream = io.StringIO(newline='')
    csv.writer(stream).writerows(rows)
    return stream.getvalue()


def html_table(rows):
    """Return ``rows`` as an HTML table, the first the header, every cell escaped."""
    head, *body = rows
    cells = ''.join(f'<th>{html.escape(str(c))}</th>' for c in head)
    lines = [f'<tr>{cells}</tr>'] + [
        '<tr>' + ''.join(f'<td>{html.escape(str(c))}</td>' for c in row) + '</tr>'
        for row in body]
    return '<table>\n' + '\n'.join(lines) + '\n</table>\n'


def write(folder, result, given):
    """
    Write the report of an :class:`identification.Identification` into ``folder``.

    ``given`` is the model the fit started from. ``folder`` is new or empty and written whole
    (:func:`core.files.staged_folder`). Returns the paths written; raises ValueError when
    matplotlib is missing or the folder cannot be written.
    """
    plt = pyplot('--report')
    with files.staged_folder(folder, '--report') as staging:
        written = _draw(plt, staging, result, given)
    return [os.path.join(folder, os.path.basename(path)) for path in written]


def _draw(plt, folder, result, given):
    """Write the report's files into ``folder``; return their paths."""
    paths, pictures = [], []
    for j, name in enumerate(given.joint_names):
        # The torques above (the measured one drawn over the identified, not hidden under
        # it), and below their difference: the residual, which shows what the fit misses.
        figure, (axes, below) = plt.subplots(2, 1, figsize=(9, 4.5), sharex=True,
                                             gridspec_kw={'height_ratios': (2, 1)})
        axes.plot(result.time, result.predicted[:, j], '-', linewidth=1.0, label='identified')
        axes.plot(result.time, result.measured[:, j], '.', markersize=1.5, label='measured')
        below.plot(result.time, result.measured[:, j] - result.predicted[:, j], '.',
                   markersize=1.5, color='#d62728')
        below.axhline(0.0, color='grey', linewidth=0.8)
        for shaded in (axes, below):
            if result.held.any():
                shaded.axvspan(result.time[result.held].min(), result.time[result.held].max(),
                               color='grey', alpha=0.15, label='held out')
        unit = 'N m' if given.links[j].isrevolute() else 'N'
        axes.set(ylabel=f'torque ({unit})', title=name)
        below.set(xlabel='time (s)', ylabel=f'residual ({unit})')
        axes.legend(loc='upper right', markerscale=4)
        figure.tight_layout()
        picture = f'torque_{j + 1}.png'
        save_png(plt, figure, os.path.join(folder, picture), 100, 'report')
        paths.append(os.path.join(folder, picture))
        pictures.append(picture)
    base = [('base parameter', 'least squares', 'std', 'identified')] + [
        (text, repr(float(ls)), repr(float(std)), repr(float(value)))
        for text, ls, std, value in zip(result.base.names, result.least_squares, result.std,
                                        result.values)]
    changed = [('joint', 'field', 'given', 'identified')] + changes(given, result.chain)
    for name, rows in (('base_parameters.csv', base), ('changes.csv', changed)):
        models.write(os.path.join(folder, name), csv_text(rows), 'report')
        paths.append(os.path.join(folder, name))
    errors = [('part', 'prediction') + tuple(given.joint_names) + ('all',)]
    for part, table in (('fitted', result.fit), ('held out', result.held_out)):
        for kind, value in (table or {}).items():
            errors.append((part, kind) + tuple(f'{rms:.4g}' for rms in value.rms)
                          + (f'{value.total:.3%}',))
    page = ['<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>identify</title>'
            '<style>td, th {padding: 0 0.6em; text-align: right}</style></head><body>',
            f'<h1>Identified {html.escape(given.name or "model")}</h1>',
            f"<p>{len(result.base.columns)} base parameters of the model's {result.expected}; "
            f'condition number {result.condition:.4g}; {result.samples} samples; cut-off '
            f'{result.cutoff:.3g} Hz.</p>',
            '<h2>RMS torque error (N m or N)</h2>', html_table(errors),
            '<h2>Torques</h2>'] + [f'<p><img src="{p}" alt="{p}"></p>' for p in pictures] + [
            '<h2>Changes</h2>', html_table(changed), '<h2>Base parameters</h2>', html_table(base),
            '</body></html>\n']
    models.write(os.path.join(folder, 'index.html'), '\n'.join(page), 'report')
    paths.append(os.path.join(folder, 'index.html'))
    return paths
