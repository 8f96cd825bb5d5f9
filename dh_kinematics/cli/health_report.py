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
``dh_kinematics health --report DIR``'s pictures and page (matplotlib).

``joints/<arm>--<joint>.png`` per arm and joint, against the days since the arm's first log:
its viscous and Coulomb friction with their standard deviations as error bars, its residual's
RMS in motion with its own, and its status's alarms per hour; the first log where it drifts is
a red line. ``index.html``: the joints flagged first with their pictures, the logs (each linked
to its replay report), then every other joint's picture, arm by arm. A file page: no server.
"""

import html
import math

from dh_kinematics.cli.plot import pyplot, save_png
from dh_kinematics.node_logic.monitors.levels import LEVEL_NAMES
from dh_kinematics.replay.report import SEVERITY
import numpy as np

__all__ = ['draw']

DAY_S = 86400.0


def draw(folder, logs, results, z, flagged, sigma):
    """Write the pictures and ``index.html`` of a finished run into ``folder``."""
    plt = pyplot('health --report')
    (folder / 'joints').mkdir(exist_ok=True)
    arms = {}
    for k in sorted(results, key=lambda k: (results[k].first_s, k)):
        if results[k].joints:
            arms.setdefault(results[k].arm, []).append(k)
    flags = {(flag.arm, flag.joint): flag for flag in flagged}
    pictures = {}
    for arm, order in arms.items():
        start = results[order[0]].first_s
        for joint in results[order[0]].joints:
            points, at = [], None
            for k in order:
                found = next((j for j in results[k].joints if j.name == joint.name), None)
                if found is None:
                    continue
                alarms = sum(count for status, count in results[k].alarms.items()
                             if status.endswith(f': {joint.name}'))
                hours = results[k].duration_s / 3600.0
                flag = flags.get((arm, joint.name))
                if flag is not None and flag.log == k:
                    at = len(points)
                points.append(((results[k].first_s - start) / DAY_S, found,
                               alarms / hours if hours > 0.0 else math.nan))
            name = f'{arm}--{joint.name}.png'.replace('/', '_')
            _joint_picture(plt, folder / 'joints' / name, arm, joint.name, points,
                           flags.get((arm, joint.name)), at)
            pictures[arm, joint.name] = f'joints/{name}'
    _page(folder, logs, results, flagged, pictures, sigma)


def _joint_picture(plt, path, arm, name, points, flag, at):
    """Draw one joint's picture (the module's docstring); ``at``: the flagged point's index."""
    days = [day for day, _, _ in points]
    figure, axes = plt.subplots(1, 3, figsize=(12, 3.0))
    for q, label in enumerate(('viscous (N m s/rad)', 'Coulomb + (N m)', 'Coulomb - (N m)')):
        axis = axes[0] if q == 0 else axes[1]
        axis.errorbar(days, [joint.friction.values[q] for _, joint, _ in points],
                      yerr=[joint.friction.std[q] for _, joint, _ in points], fmt='o-',
                      markersize=3, capsize=2, label=label)
    residual = [joint.residual[1] for _, joint, _ in points]
    axes[2].errorbar(days, residual, yerr=[joint.residual_std for _, joint, _ in points],
                     fmt='o-', markersize=3, capsize=2, label='residual RMS in motion (N m or N)')
    if np.isfinite(residual).any():  # a log with a contact's error bar does not hide the rest
        axes[2].set_ylim(0.0, 1.5 * np.nanmax(residual))
    twin = axes[2].twinx()
    twin.plot(days, [alarms for _, _, alarms in points], 's', color='#d62728', markersize=3,
              label='alarms per hour')
    twin.set_ylabel('alarms per hour', fontsize=8)
    for axis in axes:
        axis.set_xlabel(f"days since {arm}'s first log", fontsize=8)
        axis.legend(fontsize=7, loc='upper left')
        if at is not None:
            axis.axvline(days[at], color='#d62728', linewidth=0.8)
    figure.suptitle(f'{arm}: {name}' + ('' if flag is None else
                                        f': drifts ({flag.quantity}, {flag.sigmas:+.1f} sigma)'))
    figure.subplots_adjust(left=0.06, right=0.95, bottom=0.17, top=0.85, wspace=0.3)
    save_png(plt, figure, path, 70, 'a picture')


def _page(folder, logs, results, flagged, pictures, sigma):
    """Write ``index.html``."""
    def image(key):
        return f'<p><img src="{pictures[key]}" alt="{html.escape(key[1])}"></p>' \
            if key in pictures else ''

    flagged_rows = ''.join(
        f'<tr><td>{html.escape(f.arm)}</td><td>{html.escape(f.joint)}</td>'
        f'<td>{f.quantity}</td><td>{html.escape(results[f.log].path)}</td>'
        f'<td>{f.value:.4g}</td><td>{f.mean:.4g}</td><td>{f.sigmas:+.1f}</td></tr>'
        for f in flagged)
    flagged_pictures = ''.join(image((f.arm, f.joint)) for f in flagged)
    log_rows = []
    for k in range(len(logs)):
        if k not in results:
            continue
        r = results[k]
        worst = max(r.worst.values(), key=SEVERITY.index, default=None)
        error = r.first_error
        error = '' if error is None else html.escape(
            f'{error.stamp_ns * 1e-9:.3f} s {error.status}: {error.message}')
        link = (f'<a href="logs/{html.escape(r.name)}/index.html">report</a>'
                if r.report else '')
        log_rows.append(
            f'<tr><td>{html.escape(r.path)}</td><td>{html.escape(r.arm)}</td>'
            f'<td>{r.duration_s:.1f}</td><td>{"" if worst is None else LEVEL_NAMES[worst]}</td>'
            f'<td>{error}</td><td>{html.escape(r.problem)}</td><td>{link}</td></tr>')
    others = ''.join(image(key) for key in pictures
                     if key not in {(f.arm, f.joint) for f in flagged})
    (folder / 'index.html').write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>fleet health</title></head>'
        f'<body><h1>Fleet health: {len(results)} of {len(logs)} logs</h1>'
        f'<h2>Joints that drift (past {sigma:g} standard deviations of their baseline)</h2>'
        '<table><tr><th>arm</th><th>joint</th><th>quantity</th><th>first log</th>'
        f'<th>value</th><th>baseline</th><th>sigmas</th></tr>{flagged_rows}</table>'
        f'{flagged_pictures or "<p>none</p>"}'
        '<h2>Logs</h2><table><tr><th>log</th><th>arm</th><th>s</th><th>worst level</th>'
        '<th>first ERROR</th><th>problem</th><th>replay report</th></tr>'
        f'{"".join(log_rows)}</table><h2>Every other joint</h2>{others}</body></html>\n')
