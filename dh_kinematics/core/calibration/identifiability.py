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
Which parameters measurements identify: the numerical rank of the identification Jacobian.

1. **Scaling.** A length's column is in m per m, an angle's in m per rad. Each angle's column
   is divided by the characteristic length ``L``, the RMS distance of the measured point from
   the base's origin, so that a correction of ``L`` x 1 mrad weighs as 1 mm does: every
   parameter is then in metres, "how far it moves the arm's far end".
2. **Rank.** The singular values ``s`` of the scaled Jacobian (the configurations' distinct
   rows). A direction ``v`` of parameter space is estimated to a standard deviation of
   ``noise / s`` (m); it is identifiable when that is below :data:`MAX_CORRECTION`, the
   largest correction a calibration makes: ``s > noise / MAX_CORRECTION``. Holding a direction
   below that threshold changes the best fit by less than the noise (``s`` times an error of
   at most :data:`MAX_CORRECTION`). Directions below ``STRUCTURAL`` times the largest singular
   value are lost whatever the noise: the parameterization has them twice. The rank is the
   number of directions above both thresholds.
3. **Which to hold.** The data cannot see the null space, the directions below the threshold;
   the parameters to hold are those with the most weight in it, chosen one at a time by
   column-pivoted QR of the null space's basis (Golub, Klema and Stewart's subset selection),
   where a link's parameter goes before the tool's and the tool's before the base's among
   those within half of the largest weight. What is left has full rank.
4. **Observability** of the data, on the estimated columns: ``O1 = (s_1 ... s_r)^(1/r) /
   sqrt(m)`` (Borm and Menq, the larger the better), ``O4 = s_r^2 / s_1`` (Nahvi and
   Hollerbach's noise amplification index) and the condition number ``s_1 / s_r``.
"""

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

MAX_CORRECTION = 0.05
"""The largest correction of a link's parameter a calibration makes, m (or rad times L)."""
STRUCTURAL = 1e-9
"""Singular values below this fraction of the largest are the parameterization's own."""
PREFERENCE_SLACK = 0.5
"""Among parameters within this fraction of the largest weight, the preferred one is held."""
ANGLES = ('offset', 'theta', 'alpha', 'beta', 'rx', 'ry', 'rz')
"""Fields that are angles (a prismatic joint's offset is a length: see :func:`is_angle`)."""

Analysis = namedtuple('Analysis', 'rank estimated held singular_values threshold length '
                      'observability blind')
Analysis.__doc__ = """The rank of the scaled identification Jacobian; the indices of the columns
to estimate and of those to hold (each a :data:`Held`); the singular values of the scaled
Jacobian (all columns); the rank threshold; the characteristic length L (m); the
:data:`Observability` of the estimated columns; and an orthonormal basis of the directions the
data do not see (rows, in scaled units)."""

Held = namedtuple('Held', 'index reason partners fit_change')
Held.__doc__ = """A held column: its index; why: 'redundant' (the arm's parameters hold it twice,
whatever the data), 'unseen' (these data do not move it: configurations too alike),
'below noise' (the data hold too little of it) or 'no effect' (it moves nothing measured); the
names of the parameters it goes with in the unseen direction (largest share first); and how
much holding it changes the best fit, linearly: the RMS over the rows of the change in the
fitted residuals, m."""


@dataclass(frozen=True)
class Observability:
    """
    How well the data observe the estimated parameters (dimensionless).

    Attributes
    ----------
    O1 : float
        Borm and Menq's O1 of the scaled Jacobian's estimated columns.
    O4 : float
        Nahvi and Hollerbach's O4 of the same.
    condition : float
        Their condition number.

    """

    O1: float
    O4: float
    condition: float


def is_angle(name, prismatic=()):
    """Tell whether parameter ``name`` is an angle (rad); ``prismatic``: prismatic joints."""
    owner, field = name.rsplit('.', 1)
    if field == 'offset':
        return owner not in prismatic
    return field in ANGLES


def scales(names, length, prismatic=()):
    """Return each column's scale: 1 for a length, 1 / ``length`` for an angle (1/m)."""
    return np.array([1.0 / length if is_angle(name, prismatic) else 1.0 for name in names])


def hold_order(names):
    """Return the preference of each column for being held: links 0, tool 1, base 2."""
    return np.array([2 if name.startswith('base.') else 1 if name.startswith('tool.') else 0
                     for name in names])


def analyse(J, names, length, noise, configurations, prismatic=(), redundant=None):
    """
    Return the :data:`Analysis` of an identification Jacobian; see the module docstring.

    Parameters
    ----------
    J : array, shape (rows, p)
        The identification Jacobian, the rows of each distinct configuration once, unscaled.
    names : sequence of str
        The p parameters.
    length : float
        The characteristic length L, m.
    noise : float
        The measurement noise, m per row (a standard deviation); 0 for exact data.
    configurations : int
        The number of distinct configurations the rows come from (O1's m).
    prismatic : collection of str
        The prismatic joints' names (their offset is a length).
    redundant : array, shape (k, p), optional
        The directions the arm itself cannot tell apart (the ``blind`` rows of an analysis of
        exact data at spread configurations); without it every exactly unseen direction is
        taken as redundant.

    """
    scaled = J * scales(names, length, prismatic)
    _, s, Vt = np.linalg.svd(scaled, full_matrices=True)
    singular = np.zeros(len(names))
    singular[:min(len(s), len(names))] = s[:len(names)]
    largest = singular[0] if len(singular) else 0.0
    threshold = max(STRUCTURAL * largest, noise / MAX_CORRECTION)
    rank = int((singular > threshold).sum())
    structural = int((singular > STRUCTURAL * largest).sum())
    held = _subset(Vt[rank:], hold_order(names))
    estimated = [k for k in range(len(names)) if k not in held]
    parts = _blind_parts(Vt, rank, structural, redundant)
    reasons = sorted(_why(scaled, k, parts, names) for k in held)
    return Analysis(rank, estimated, reasons, singular, threshold, length,
                    observability(scaled[:, estimated], configurations), Vt[rank:])


def _blind_parts(Vt, rank, structural, redundant):
    """Split the blind space into (redundant, unseen, below noise) orthonormal row bases."""
    exact, faint = Vt[structural:], Vt[rank:structural]
    if redundant is None or not len(redundant) or not len(exact):
        return exact, exact[:0], faint
    # The arm's redundant directions lie in the data's exact blind space: turn that space's
    # basis so that its first rows span them, the others what only these data miss.
    _, values, Vt_turn = np.linalg.svd(redundant @ exact.T, full_matrices=True)
    count = int((values > 0.5).sum())
    rows = Vt_turn @ exact
    return rows[:count], rows[count:], faint


def _subset(null, order):
    """
    Return the columns to hold: as many as ``null`` has rows, by pivoted QR of its columns.

    Among the columns whose weight is within PREFERENCE_SLACK of the largest, the one with the
    lowest ``order`` (then the first) is taken.
    """
    basis = null.copy()
    held = []
    for _ in range(null.shape[0]):
        weights = np.linalg.norm(basis, axis=0)
        weights[held] = -1.0
        close = np.flatnonzero(weights >= PREFERENCE_SLACK * weights.max())
        k = int(close[np.lexsort((close, order[close]))[0]])
        held.append(k)
        pivot = basis[:, k] / np.linalg.norm(basis[:, k])
        basis -= np.outer(pivot, pivot @ basis)
    return held


def _why(scaled, k, parts, names):
    """Return the :data:`Held` of column ``k`` (its fit change still 0)."""
    if np.linalg.norm(scaled[:, k]) <= STRUCTURAL * np.linalg.norm(scaled):
        return Held(k, 'no effect', (), 0.0)
    weights = [np.linalg.norm(part[:, k]) for part in parts]
    which = int(np.argmax(weights))
    reason = ('redundant', 'unseen', 'below noise')[which]
    blind = parts[which]
    direction = blind.T @ blind[:, k]
    order = np.argsort(-np.abs(direction), kind='stable')
    partners = tuple(names[j] for j in order
                     if j != k and abs(direction[j]) > 0.1 * abs(direction[k]))
    return Held(k, reason, partners[:4], 0.0)


def holding_changes(J, names, length, analysis, residual, prismatic=()):
    """
    Return ``analysis.held`` with how much holding each changes the best fit.

    Linearly, at the fit: estimating column k as well would lower the residuals along the part
    of it outside the estimated columns' span; that change's RMS over the rows, m.

    Parameters
    ----------
    J : array, shape (rows, p)
        The identification Jacobian at the fit, every row.
    names : sequence of str
        The p parameters.
    length : float
        The characteristic length L, m.
    analysis : Analysis
        Which columns are estimated and held (:func:`analyse`).
    residual : array, shape (rows,)
        The fit's residuals, m.
    prismatic : collection of str
        The prismatic joints' names.

    """
    scaled = J * scales(names, length, prismatic)
    basis, _ = np.linalg.qr(scaled[:, analysis.estimated])
    held = []
    for item in analysis.held:
        column = scaled[:, item.index]
        rest = column - basis @ (basis.T @ column)
        size = np.linalg.norm(rest)
        change = 0.0
        if size > STRUCTURAL * max(np.linalg.norm(column), 1e-300):
            change = abs(rest @ residual) / size / np.sqrt(len(residual))
        held.append(item._replace(fit_change=float(change)))
    return held


def observability(scaled, configurations):
    """Return the :data:`Observability` of scaled columns over ``configurations`` poses."""
    if scaled.shape[1] == 0:
        return Observability(0.0, 0.0, 1.0)
    s = np.linalg.svd(scaled, compute_uv=False)[:scaled.shape[1]]
    if len(s) < scaled.shape[1] or s[-1] <= 0.0:
        return Observability(0.0, 0.0, float('inf'))
    o1 = float(np.exp(np.mean(np.log(s)))) / np.sqrt(configurations)
    return Observability(o1, float(s[-1] ** 2 / s[0]), float(s[0] / s[-1]))
