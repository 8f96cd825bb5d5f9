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
``dh_kinematics calibrate --report DIR``: the pictures and table a person reads (matplotlib).

``residuals.png``: each measurement's position error before and after the fit (and, with
``--validate``, on the held-out data); ``corrections.png``: each estimated correction with its
standard deviation; ``parameters.csv``: every parameter, nominal, estimate, standard deviation,
status and, for a held one, why and how much holding it changes the fit (m RMS).
"""

import csv
import io
import os

from dh_kinematics.cli import models
from dh_kinematics.cli.plot import pyplot, save_png
from dh_kinematics.core import files
import numpy as np


def write(folder, result, held_out=None):
    """
    Write the report of a :data:`core.calibration.fit.Calibration` into ``folder``.

    ``held_out``: each held-out measurement's position error (m), or None. ``folder`` is new or
    empty and written whole (:func:`core.files.staged_folder`). Returns the paths written;
    raises ValueError when matplotlib is missing or the folder cannot be written.
    """
    plt = pyplot('--report')
    with files.staged_folder(folder, '--report') as staging:
        written = _draw(plt, staging, result, held_out)
    return [os.path.join(folder, os.path.basename(path)) for path in written]


def _draw(plt, folder, result, held_out=None):
    """Write the report's files into ``folder``; return their paths."""
    paths = [os.path.join(folder, name)
             for name in ('residuals.png', 'corrections.png', 'parameters.csv')]
    figure, axes = plt.subplots(figsize=(8, 4))
    index = np.arange(1, len(result.errors_before) + 1)
    axes.plot(index, result.errors_before * 1e3, 'o', label='before (nominal model)')
    axes.plot(index, result.errors_after * 1e3, 'o', label='after (calibrated)')
    if held_out is not None:
        axes.plot(np.arange(1, len(held_out) + 1), held_out * 1e3, 'x',
                  label='held-out data (calibrated)')
    axes.set(xlabel='measurement', ylabel='position error (mm)', yscale='log',
             title='Position error per measurement')
    axes.legend()
    figure.tight_layout()
    save_png(plt, figure, paths[0], 100, 'report')
    estimated = [p for p in result.parameters if p.status == 'estimated']
    figure, axes = plt.subplots(figsize=(8, max(3.0, 0.25 * len(estimated) + 1.0)))
    positions = np.arange(len(estimated))
    axes.errorbar([(p.estimate - p.nominal) * 1e3 for p in estimated], positions,
                  xerr=[p.std * 1e3 for p in estimated], fmt='o', capsize=3)  # mm, mrad
    axes.set_yticks(positions, [p.name for p in estimated])
    axes.axvline(0.0, color='grey', linewidth=0.8)
    axes.set(xlabel='correction (mm or mrad), +- 1 standard deviation',
             title='Estimated corrections')
    figure.tight_layout()
    save_png(plt, figure, paths[1], 100, 'report')
    stream = io.StringIO(newline='')
    table = csv.writer(stream)
    table.writerow(['parameter', 'nominal', 'estimate', 'std', 'status', 'reason',
                    'fit_change'])
    for p in result.parameters:
        table.writerow([p.name, repr(float(p.nominal)), repr(float(p.estimate)),
                        '' if p.std is None else repr(p.std), p.status, p.reason,
                        repr(p.fit_change) if p.status == 'held' else ''])
    models.write(paths[2], stream.getvalue(), 'report')
    return paths
