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
``dh_kinematics replay --report DIR``'s pictures and page (matplotlib).

``joint_<n>.png`` per joint: its position between its limits with the WARN bands, under it a
band coloured by its level; its velocity and its limits; its measured effort (and its limits,
where the efforts come within half of them) and the effort estimate.
``safety.png``, where any safety figure is watched: each figure of ``~/safety`` with its limit.
Each curve is the range of its values in each bin of time (:class:`replay.Series`), so a spike
shows. ``index.html``: the summary, the pictures, the maxima and the first level changes.
"""

import html
import math

from dh_kinematics.cli.plot import pyplot, save_png
from dh_kinematics.node_logic.monitors.levels import LEVEL_NAMES
from dh_kinematics.replay.series import COLUMNS
import numpy as np

LEVEL_COLOURS = ('#2ca02c', '#ff7f0e', '#d62728', '#7f7f7f')
"""OK, WARN, ERROR, STALE."""
SHOWN = 200
"""Level changes listed on the page; transitions.csv has them all."""


def _band(axes, t, low, high, label=None):
    """Draw a binned range of values: its top, its bottom and the area between."""
    line, = axes.step(t, high, where='post', label=label, linewidth=1)
    axes.step(t, low, where='post', color=line.get_color(), linewidth=1)
    axes.fill_between(t, low, high, step='post', color=line.get_color(), alpha=0.3)


def _safety(plt, folder, series, figures):
    """Draw ``safety.png``: each safety figure, its limit a red line; return its name."""
    t, low, high, _ = series.arrays()
    rows = (len(figures) + 1) // 2
    figure, axes = plt.subplots(rows, 2, sharex=True, figsize=(11, 1.6 * rows + 0.8),
                                squeeze=False)
    for k, (shown, axis) in enumerate(zip(figures, axes.flat)):
        _band(axis, t, low[:, 0, k], high[:, 0, k])
        if shown.limit is not None:
            axis.axhline(shown.limit, color='#d62728', linewidth=0.8)
        axis.set_title(shown.label, fontsize=9, y=1.0)  # placed, not fitted: 0.3 s
    for axis in list(axes.flat)[len(figures):]:
        axis.set_visible(False)
    for axis in axes[-1]:
        axis.set_xlabel('s after the first message')
    figure.suptitle('safety figures (SI units)')
    height = 1.6 * rows + 0.8  # inches; the margins fixed in inches (no tight_layout: 1 s)
    figure.subplots_adjust(left=0.08, right=0.98, bottom=0.55 / height, top=1.0 - 0.7 / height,
                           hspace=0.45, wspace=0.2)
    save_png(plt, figure, folder / 'safety.png', 80, 'a picture')
    return 'safety.png'


def draw(folder, chain, settings, replay, summary, transitions, maxima):
    """Write the pictures of a finished :class:`replay.Replay` and ``index.html``."""
    plt = pyplot('replay --report')
    t, low, high, level = replay.series.arrays()
    margin = settings['diagnostics.warn_margin']
    names = []
    # One figure for every joint, emptied between them: its axes and ticks are built once.
    figure, axes = plt.subplots(4, 1, sharex=True, figsize=(9, 7),
                                gridspec_kw={'height_ratios': [3, 0.4, 2, 2]})
    for j, (name, (lower, upper)) in enumerate(zip(chain.joint_names, chain.qlim.tolist())):
        for axis in axes:
            for artist in axis.lines + axis.collections + axis.patches:
                artist.remove()
            axis.relim()
            axis.set_prop_cycle(None)  # each joint's colours from the first
        for row, column in ((0, 'position'), (2, 'velocity'), (3, 'effort'), (3, 'estimate')):
            k = COLUMNS.index(column)
            _band(axes[row], t, low[:, k, j], high[:, k, j], column)
        for limit in (lower, upper):
            axes[0].axhline(limit, color='#d62728', linewidth=0.8)
        link = chain.links[j]
        for row, limit, k in ((2, link.velocity_limit, 1), (3, link.effort_limit, 2)):
            # A limit the values come within half of (a velocity limit always), as red lines.
            reach = np.nanmax(np.abs([low[:, k, j], high[:, k, j]]), initial=0.0)
            if limit is not None and math.isfinite(limit) and (row == 2 or reach >= 0.5 * limit):
                for value in (-limit, limit):
                    axes[row].axhline(value, color='#d62728', linewidth=0.8)
        axes[0].axhspan(upper - margin, upper, color='#ff7f0e', alpha=0.15)
        axes[0].axhspan(lower, lower + margin, color='#ff7f0e', alpha=0.15)
        ends = list(t[1:]) + [t[-1] + (t[1] - t[0] if len(t) > 1 else 0.0)]
        changes = [0] + [k for k in range(1, len(t)) if level[k, j] != level[k - 1, j]]
        runs = list(zip(changes, changes[1:] + [len(t)]))  # a bar per level's run, one artist
        axes[1].broken_barh([(t[first], ends[after - 1] - t[first]) for first, after in runs],
                            (0.0, 1.0), linewidth=0,
                            facecolors=[LEVEL_COLOURS[level[first, j]] for first, _ in runs])
        axes[1].set_ylim(0.0, 1.0)
        axes[1].set_yticks([])
        length, force = ('m', 'N') if chain.links[j].isprismatic() else ('rad', 'N m')
        axes[0].set_ylabel(f'position ({length})')
        axes[2].set_ylabel(f'velocity ({length}/s)')
        axes[3].set_ylabel(f'effort ({force})')
        axes[3].legend(loc='upper right')
        axes[3].set_xlabel('s after the first message')
        figure.suptitle(name)
        names.append(f'joint_{j + 1}.png')
        save_png(plt, figure, folder / names[-1], 80, 'a picture', close=False)
    plt.close(figure)
    if replay.safety is not None:
        names.append(_safety(plt, folder, replay.safety, replay.flow.limits.figures))
    rows = ''.join(f'<tr><td>{t.stamp_ns * 1e-9:.6f}</td><td>{html.escape(t.status)}</td>'
                   f'<td>{LEVEL_NAMES[t.level]}</td><td>{html.escape(t.message)}</td></tr>'
                   for t in transitions[:SHOWN])
    worst = ''.join(f'<tr><td>{html.escape(subject)}</td><td>{quantity}</td><td>{value:.6g}</td>'
                    f'<td>{stamp:.6f}</td><td>{"" if math.isnan(limit) else f"{limit:.6g}"}'
                    '</td></tr>'
                    for subject, quantity, value, stamp, limit in maxima)
    pictures = ''.join(f'<p><img src="{name}" alt="{name}"></p>' for name in names)
    (folder / 'index.html').write_text(
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>replay</title></head><body>'
        f'<h1>Replay</h1><pre>{html.escape(summary)}</pre>{pictures}'
        f'<h2>Worst values</h2><table><tr><th>subject</th><th>quantity</th><th>worst</th>'
        f'<th>stamp (s)</th><th>limit</th></tr>{worst}</table>'
        f'<h2>Level changes (the first {SHOWN}; all in transitions.csv)</h2><table><tr>'
        f'<th>stamp (s)</th><th>status</th><th>level</th><th>message</th></tr>{rows}</table>'
        f'</body></html>\n')
