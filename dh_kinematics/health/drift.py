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
A joint's drift over its arm's logs: how far each log's figures are from its first logs'.

Per arm (the logs' :attr:`LogHealth.arm`), its logs in the order of their first stamps, and per
joint, each of :data:`QUANTITIES` with its standard deviation in each log (the friction's from
its fit, the residual RMS's from the spread of its blocks). The baseline is the first
``baseline`` logs with a value: their mean weighted by ``1 / std^2``, and the spread between
logs beyond their own deviations (DerSimonian and Laird's ``tau^2``: arms that do different
tasks on different days). A later log's distance, in standard deviations, is

    z = (value - mean) / sqrt(std^2 + std_mean^2 + tau^2)

and a joint is flagged at the first log where any friction's ``|z|`` passes ``sigma``, or the
residual's RMS's ``z`` does (a residual smaller than the baseline's is no harm).
"""

from collections import namedtuple
import math

import numpy as np

__all__ = ['distances', 'Flag', 'flags', 'QUANTITIES']

QUANTITIES = ('viscous', 'Coulomb +', 'Coulomb -', 'residual RMS')
"""What drifts: the friction's three values (motor side) and the residual's RMS in motion."""

Flag = namedtuple('Flag', 'arm joint quantity log value mean sigmas')
Flag.__doc__ = """A joint flagged: its arm and name, the quantity that crossed, the first log
(its index in the run) where it did, its value there, the baseline's mean and ``z``."""


def _values(joint):
    """Return a :class:`JointHealth`'s quantities and their standard deviations."""
    friction = joint.friction
    return (np.append(friction.values, joint.residual[1]),
            np.append(friction.std, joint.residual_std))


def distances(results, baseline=5):
    """
    Return ``(z, means)``: the distances and the baselines' means.

    ``z``: ``{(k, joint): array of len(QUANTITIES)}`` of every log and joint, NaN where a log
    has no value, or is in the baseline, or the baseline has no value; ``means``:
    ``{(arm, joint): array}``. ``results``: ``{k: LogHealth}``; each arm's logs in stamp order
    (then ``k``'s).
    """
    arms = {}
    for k, result in results.items():
        if result.joints:
            arms.setdefault(result.arm, []).append((result.first_s, k))
    found, means = {}, {}
    for arm, logs in arms.items():
        order = [k for _, k in sorted(logs)]
        joints = [joint.name for joint in results[order[0]].joints]
        for name in joints:
            series = []
            for k in order:
                joint = next((j for j in results[k].joints if j.name == name), None)
                series.append(_values(joint) if joint is not None else
                              (np.full(len(QUANTITIES), math.nan),) * 2)
            z, means[arm, name] = _distances(series, baseline)
            for k, row in zip(order, z):
                found[k, name] = row
    return found, means


def _distances(series, baseline):
    """Return ``z`` of each log of one joint, (values, stds) in order, and the means."""
    values = np.array([v for v, _ in series])
    stds = np.array([s for _, s in series])
    z = np.full(values.shape, math.nan)
    means = np.full(values.shape[1], math.nan)
    for q in range(values.shape[1]):
        known = np.flatnonzero(np.isfinite(values[:, q]) & (stds[:, q] > 0.0))
        if len(known) <= baseline:
            continue
        first, later = known[:baseline], known[baseline:]
        w = 1.0 / stds[first, q] ** 2
        means[q] = mean = float(np.sum(w * values[first, q]) / w.sum())
        spread = _between(values[first, q], w, mean)
        z[later, q] = (values[later, q] - mean) / np.sqrt(
            stds[later, q] ** 2 + 1.0 / w.sum() + spread)
    return z, means


def _between(values, w, mean):
    """Return DerSimonian and Laird's between-log variance of weighted ``values``."""
    if len(values) < 2:
        return 0.0
    q = float(np.sum(w * (values - mean) ** 2))
    scale = float(w.sum() - np.sum(w ** 2) / w.sum())
    return max(0.0, (q - (len(values) - 1)) / scale) if scale > 0.0 else 0.0


def flags(results, z, means, sigma=4.0):
    """
    Return each joint flagged: a :class:`Flag` at the first log past ``sigma``.

    ``results`` as :func:`distances`, ``z`` and ``means`` its answer. In arm, then joint order
    of first appearance; of the quantities crossing first, the farthest.
    """
    firsts = {}
    for (k, name), values in sorted(z.items(), key=lambda item: (
            results[item[0][0]].first_s, item[0][0])):
        arm = results[k].arm
        past = np.abs(values) > sigma
        past[-1] = values[-1] > sigma  # the residual's RMS: only up
        if (arm, name) in firsts or not past.any():
            continue
        q = int(np.nanargmax(np.where(past, np.abs(values), -1.0)))
        joint = next(j for j in results[k].joints if j.name == name)
        firsts[arm, name] = Flag(arm, name, QUANTITIES[q], k, float(_values(joint)[0][q]),
                                 float(means[arm, name][q]), float(values[q]))
    order = {}
    for k in sorted(results):
        for joint in results[k].joints:
            order.setdefault((results[k].arm, joint.name), len(order))
    return [firsts[key] for key in sorted(firsts, key=order.get)]
