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
``dh_kinematics tune-contact --report DIR``: what a person reads of the tuning (matplotlib).

``estimate_<k>.png``: joint k's observer estimate over the logs, its held size (the least size
over the hold, what the thresholds judge), its WARN and ERROR thresholds at each sample (rest
or motion) above and below it, the held-out part shaded;
``delays.png``: the longest time from a step added to each joint's effort (and from a force
pressed on the tool along each base axis) to its detection, against the size, beside the 50 ms
the certificate counts; ``wrench.png``: the tool wrench read at rest with nothing pressing, each
axis's mean and spread at each stay (the pose's offset and the noise) beside the deviation
``~/external_wrench_deviation`` states; ``certificate.csv``: each joint's thresholds, its
held-out alarms, the smallest step caught and the delay of each size, then each force axis's;
``index.html``: the figures, the pictures and the table on one page.
"""

import html
import math
import os

from dh_kinematics.cli import models
from dh_kinematics.cli.identification_report import csv_text, html_table
from dh_kinematics.cli.plot import pyplot, save_png
from dh_kinematics.core import files
from dh_kinematics.identification.contact import held_sizes, thresholds_at
import numpy as np


def write(folder, chain, warn, error, tuned, held_out, certificate, wrench, summary):
    """
    Write the report of a tuning into ``folder``; return the paths written.

    ``warn`` and ``error``: the :data:`contact.Tuning` of each level; ``tuned`` and
    ``held_out``: the :data:`contact.Observed` parts tuned on and held out; ``certificate``:
    the held-out parts' :data:`contact.Certificate` (:func:`contact.combined`); ``wrench``:
    the :data:`contact.WrenchErrors` of the logs; ``summary``: the lines said first.
    ``folder`` is new or empty and written whole; a ValueError says why not (matplotlib
    missing, the folder not writable).
    """
    plt = pyplot('--report')
    with files.staged_folder(folder, '--report') as staging:
        written = _draw(plt, staging, chain, warn, error, tuned, held_out, certificate, wrench,
                        summary)
    return [os.path.join(folder, os.path.basename(path)) for path in written]


def _draw(plt, folder, chain, warn, error, tuned, held_out, certificate, wrench, summary):
    """Write the report's files into ``folder``; return their paths."""
    paths, pictures = [], []
    for j, name in enumerate(chain.joint_names):
        figure, axes = plt.subplots(figsize=(9, 3.2))
        for part, observed in enumerate(tuned + held_out):
            time, first = observed.time, part == 0
            axes.plot(time, observed.estimates[:, j], '.', markersize=1.0, color='#c6dbef',
                      label='estimate' if first else None)
            axes.plot(time, held_sizes(time, observed.estimates[:, j], warn.hold), '.',
                      markersize=1.0, color='#1f77b4',
                      label='held size (judged)' if first else None)
            for tuning, label, color in ((warn, 'WARN', '#ff7f0e'), (error, 'ERROR', '#d62728')):
                threshold = thresholds_at(tuning, observed.speed)[:, j]
                for sign in (1.0, -1.0):
                    axes.plot(time, sign * threshold, '-', linewidth=0.8, color=color,
                              label=label if first and sign > 0 else None)
            if part >= len(tuned):
                axes.axvspan(time[0], time[-1], color='grey', alpha=0.15,
                             label='held out' if part == len(tuned) else None)
        unit = 'N m' if chain.links[j].isrevolute() else 'N'
        axes.set(xlabel='time (s)', ylabel=f'external torque ({unit})', title=name)
        axes.legend(loc='upper right', markerscale=6, fontsize='small')
        figure.tight_layout()
        picture = f'estimate_{j + 1}.png'
        save_png(plt, figure, os.path.join(folder, picture), 100, 'report')
        paths.append(os.path.join(folder, picture))
        pictures.append(picture)
    sizes, within, delays = certificate.sizes, certificate.within, certificate.delays
    figure, (steps, forces) = plt.subplots(1, 2, figsize=(11, 4))
    for values, axes, names, what in (
            (sizes, steps, chain.joint_names, 'step added to the effort (N m or N)'),
            (certificate.forces, forces, ('force x', 'force y', 'force z'),
             'force on the tool along a base axis (N)')):
        found = delays if axes is steps else certificate.force_delays
        for name, row in zip(names, found):
            caught = np.isfinite(row)
            axes.plot(values[caught], 1e3 * row[caught], 'o-', markersize=3, label=name)
        axes.axhline(1e3 * within, color='grey', linewidth=0.8, linestyle='--')
        axes.set(xscale='log', xlabel=what, ylabel='longest delay to WARN (ms)',
                 title='detection')
        axes.set_xticks(values, [f'{value:g}' for value in values])
        axes.minorticks_off()
        axes.legend(fontsize='small')
    figure.tight_layout()
    save_png(plt, figure, os.path.join(folder, 'delays.png'), 100, 'report')
    paths.append(os.path.join(folder, 'delays.png'))
    if len(wrench.time):
        paths.append(_wrench_picture(plt, folder, wrench))
    rows = [('joint', 'warn rest', 'warn motion', 'error rest', 'error motion', 'alarms',
             f'smallest caught within {within * 1e3:g} ms') + tuple(
                 f'delay {size:g} (s)' for size in sizes)]
    for j, name in enumerate(chain.joint_names):
        smallest = certificate.smallest[j]
        rows.append((name, f'{warn.rest[j]:.4g}', f'{warn.motion[j]:.4g}',
                     f'{error.rest[j]:.4g}', f'{error.motion[j]:.4g}',
                     str(int(certificate.alarms[j])),
                     'none' if math.isinf(smallest) else f'{smallest:g}') + tuple(
                         'never' if math.isinf(delay) else f'{delay:.4g}' for delay in delays[j]))
    rows.append(('force (N)', '', '', '', '', '', '') + tuple(
        f'delay {force:g} (s)' for force in certificate.forces))
    for axis, row in enumerate(certificate.force_delays):
        smallest = certificate.smallest_force[axis]
        rows.append((f'tool {"xyz"[axis]}', '', '', '', '', '',
                     'none' if math.isinf(smallest) else f'{smallest:g}') + tuple(
                         'never' if math.isinf(delay) else f'{delay:.4g}' for delay in row))
    models.write(os.path.join(folder, 'certificate.csv'), csv_text(rows), 'report')
    paths.append(os.path.join(folder, 'certificate.csv'))
    page = ['<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>tune-contact</title>'
            '<style>td, th {padding: 0 0.6em; text-align: right}</style></head><body>',
            f'<h1>Contact thresholds of {html.escape(chain.name or "the model")}</h1>'] + [
            f'<p>{html.escape(line)}</p>' for line in summary] + [
            '<h2>Certificate</h2>', html_table(rows), '<p><img src="delays.png" '
            'alt="delays.png"></p>'] + [
            '<h2>Tool wrench at rest</h2><p><img src="wrench.png" alt="wrench.png"></p>'
            for _ in range(bool(len(wrench.time)))] + ['<h2>Estimates</h2>'] + [
            f'<p><img src="{p}" alt="{p}"></p>' for p in pictures] + ['</body></html>\n']
    models.write(os.path.join(folder, 'index.html'), '\n'.join(page), 'report')
    paths.append(os.path.join(folder, 'index.html'))
    return paths


def _wrench_picture(plt, folder, wrench):
    """Draw ``wrench.png``: each axis's mean and spread at rest, stay by stay; its path."""
    figure, grid = plt.subplots(2, 3, figsize=(11, 5), sharex=True)
    width = 0.6 * (float(np.median(np.diff(wrench.time))) if len(wrench.time) > 1 else 1.0)
    for axis, axes in enumerate(grid.ravel()):
        axes.bar(wrench.time, 2.0 * wrench.stated[:, axis], width, -wrench.stated[:, axis],
                 color='grey', alpha=0.3, label='stated deviation')
        axes.errorbar(wrench.time, wrench.mean[:, axis], yerr=wrench.spread[:, axis], fmt='o',
                      markersize=3, linewidth=0.8, label='read: mean, spread')
        unit = 'N' if axis < 3 else 'N m'
        axes.set(title=f'{"fm"[axis // 3]}{"xyz"[axis % 3]} ({unit})')
        if axis >= 3:
            axes.set(xlabel='time (s)')
    grid[0, 0].legend(fontsize='small')
    figure.tight_layout()
    path = os.path.join(folder, 'wrench.png')
    save_png(plt, figure, path, 100, 'report')
    return path
