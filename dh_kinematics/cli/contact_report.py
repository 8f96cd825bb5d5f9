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

``estimate_<k>.png``: joint k's observer estimate over the logs, its WARN and ERROR thresholds
at each sample (rest or motion) above and below it, the held-out part shaded;
``delays.png``: the longest time from a step added to each joint's effort to its detection,
against the step's size, beside the 50 ms the certificate counts; ``certificate.csv``: each
joint's thresholds, its held-out alarms, the smallest step caught and the delay of each size;
``index.html``: the figures, the pictures and the table on one page.
"""

import html
import math
import os

from dh_kinematics.cli import models
from dh_kinematics.cli.identification_report import csv_text, html_table
from dh_kinematics.cli.plot import pyplot, save_png
from dh_kinematics.core import files
import numpy as np


def write(folder, chain, tuned, certified, summary):
    """
    Write the report of a tuning into ``folder``; return the paths written.

    ``tuned`` and ``certified``: ``(observed, warn, error)`` per log part, the
    :data:`contact.Observed` of the part tuned on and of the part held out, each with its WARN
    and ERROR thresholds at each sample (m, n); ``certified`` also holds each held-out part's
    :data:`contact.Certificate` last: ``(observed, warn, error, certificate)``. ``summary``:
    the lines said first. ``folder`` is new or empty and written whole; a ValueError says why
    not (matplotlib missing, the folder not writable).
    """
    plt = pyplot('--report')
    with files.staged_folder(folder, '--report') as staging:
        written = _draw(plt, staging, chain, tuned, certified, summary)
    return [os.path.join(folder, os.path.basename(path)) for path in written]


def _draw(plt, folder, chain, tuned, certified, summary):
    """Write the report's files into ``folder``; return their paths."""
    paths, pictures = [], []
    for j, name in enumerate(chain.joint_names):
        figure, axes = plt.subplots(figsize=(9, 3.2))
        for part, (observed, warn, error, *_) in enumerate(tuned + certified):
            held = part >= len(tuned)
            time = observed.time
            axes.plot(time, observed.estimates[:, j], '.', markersize=1.0, color='#1f77b4',
                      label='estimate' if part == 0 else None)
            for sign in (1.0, -1.0):
                axes.plot(time, sign * warn[:, j], '-', linewidth=0.8, color='#ff7f0e',
                          label='WARN' if part == 0 and sign > 0 else None)
                axes.plot(time, sign * error[:, j], '-', linewidth=0.8, color='#d62728',
                          label='ERROR' if part == 0 and sign > 0 else None)
            if held:
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
    certificates = [each[-1] for each in certified]
    sizes, within = certificates[0].sizes, certificates[0].within
    delays = np.max([each.delays for each in certificates], axis=0)
    figure, axes = plt.subplots(figsize=(7, 4))
    for j, name in enumerate(chain.joint_names):
        caught = np.isfinite(delays[j])
        axes.plot(sizes[caught], 1e3 * delays[j][caught], 'o-', markersize=3, label=name)
    axes.axhline(1e3 * within, color='grey', linewidth=0.8, linestyle='--')
    axes.set(xscale='log', xlabel='step added to the effort (N m or N)',
             ylabel='longest delay to WARN (ms)', title='detection')
    axes.set_xticks(sizes, [f'{size:g}' for size in sizes])
    axes.minorticks_off()
    axes.legend(fontsize='small')
    figure.tight_layout()
    save_png(plt, figure, os.path.join(folder, 'delays.png'), 100, 'report')
    paths.append(os.path.join(folder, 'delays.png'))
    rows = [('joint', 'warn rest', 'warn motion', 'error rest', 'error motion', 'alarms',
             f'smallest caught within {within * 1e3:g} ms') + tuple(
                 f'delay {size:g} (s)' for size in sizes)]
    alarms = sum(each.alarms for each in certificates)
    warn_parts = [each[1] for each in tuned + certified]
    error_parts = [each[2] for each in tuned + certified]
    for j, name in enumerate(chain.joint_names):
        warn = sorted({float(part[k, j]) for part in warn_parts for k in (0, -1)})
        error = sorted({float(part[k, j]) for part in error_parts for k in (0, -1)})
        smallest = [size for size, delay in zip(sizes, delays[j]) if delay <= within]
        rows.append((name, f'{warn[0]:.4g}', f'{warn[-1]:.4g}', f'{error[0]:.4g}',
                     f'{error[-1]:.4g}', str(int(alarms[j])),
                     f'{smallest[0]:g}' if smallest else 'none') + tuple(
                         'never' if math.isinf(delay) else f'{delay:.4g}' for delay in delays[j]))
    models.write(os.path.join(folder, 'certificate.csv'), csv_text(rows), 'report')
    paths.append(os.path.join(folder, 'certificate.csv'))
    page = ['<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>tune-contact</title>'
            '<style>td, th {padding: 0 0.6em; text-align: right}</style></head><body>',
            f'<h1>Contact thresholds of {html.escape(chain.name or "the model")}</h1>'] + [
            f'<p>{html.escape(line)}</p>' for line in summary] + [
            '<h2>Certificate</h2>', html_table(rows), '<p><img src="delays.png" '
            'alt="delays.png"></p>', '<h2>Estimates</h2>'] + [
            f'<p><img src="{p}" alt="{p}"></p>' for p in pictures] + ['</body></html>\n']
    models.write(os.path.join(folder, 'index.html'), '\n'.join(page), 'report')
    paths.append(os.path.join(folder, 'index.html'))
    return paths
