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
Each joint's friction from a log, the rigid model held: fitted block by block, in bounded memory.

The samples come in blocks (:meth:`FrictionFit.add`); every :data:`BLOCK_S` s of them are
prepared as ``identify`` prepares a log (:func:`signals.prepare`: resampled, filtered forwards
and backwards, differentiated), the blocks overlapping by the filter's start-up so that no
sample is lost or taken twice. The model's torques without its friction (:meth:`Chain.rne`
less :meth:`Chain.friction`) are taken from the measured ones; what is left, on each joint, is
its friction: ``B G^2 qd + Tc+ |G|`` while ``qd >`` :data:`MOVING` and ``B G^2 qd + Tc- |G|``
while ``qd < -MOVING`` (the regressor's columns, :mod:`core.dynamics.regressor`; slower
samples, where the sign of a noisy velocity is a guess, are left out, and so are those within
:data:`GUARD_PERIODS` of the cut-off of a turn or a slow sample, where the filter spreads the
Coulomb step). Only the sums of the
normal equations are kept, 3 x 3 a joint.

The standard deviations are robust to the filtered noise's correlation: the samples are taken in
clusters of :data:`CLUSTER_S`, longer than that correlation, and the covariance is the sandwich
``N^-1 (sum_b g_b g_b^T) N^-1 G / (G - 1)`` over the G clusters, ``g_b = c_b - N_b x`` each
one's share of the normal equations ``N x = c`` at the fit (Liang and Zeger's cluster-robust
covariance). Its middle is kept as sums of products of each cluster's ``c_b`` and ``N_b``, so
memory stays bounded however long the log.
"""

from dataclasses import dataclass
import math

from dh_kinematics.identification import signals
from dh_kinematics.logs import JointLog
import numpy as np

__all__ = ['FrictionFit', 'JointFriction', 'MOVING']

BLOCK_S = 60.0
"""The span of samples prepared at a time, s: the memory the fit holds."""
MOVING = 0.02
"""The least |velocity| a sample must have to tell the Coulomb friction's sign, rad/s or m/s."""
GUARD_PERIODS = 2.0
"""The samples within this many periods of the cut-off of a joint's turn, or of its being slower
than :data:`MOVING`, are left out: the filter spreads the Coulomb friction's step over them."""
CLUSTER_S = 0.5
"""The span of the samples' clusters for the standard deviations, s: many times the filtered
noise's correlation (about half a period of the cut-off, at least 2 Hz)."""
MIN_SAMPLES = 200
"""The fewest prepared samples each way a joint must have moved for its friction."""
MAX_CONDITION = 1e8
"""The largest condition number of a joint's normal equations that still tells its three
values apart."""


@dataclass(frozen=True)
class JointFriction:
    """
    One joint's friction found in a log.

    Attributes
    ----------
    values, std : array, shape (3,)
        Viscous ``B`` (N m s/rad, motor side), Coulomb ``Tc+`` and ``Tc-`` (N m, motor side; as
        the model file gives them) and their standard deviations; NaN where not found.
    samples : tuple of int
        The prepared samples moving forwards and backwards.
    note : str
        Why there are no values (the joint did not move enough), or ''.

    """

    values: np.ndarray
    std: np.ndarray
    samples: tuple
    note: str


class FrictionFit:
    """
    Each joint's friction, fitted to samples taken a block at a time (the module's docstring).

    Parameters
    ----------
    chain : Chain
        The model: its rigid bodies and motors are held, its friction is what is fitted.
    cutoff : float, optional
        The low-pass cut-off, Hz; by default :func:`signals.prepare`'s choice on the first
        :data:`BLOCK_S` s, then kept.

    """

    def __init__(self, chain, cutoff=None):
        self._chain, self.cutoff = chain, cutoff
        gains = np.abs(np.asarray(chain.dynamic_constants.G, dtype=float))
        self._gains = gains
        self._pending = []  # raw blocks not yet prepared: (time, q, qd, tau)
        self._pending_s = 0.0
        self._taken_until = -math.inf
        n = chain.n
        self._normal = np.zeros((n, 3, 3))
        self._right = np.zeros((n, 3))
        self._counts = np.zeros((n, 2), dtype=int)
        # The clusters' products, for the sandwich's middle (the module's docstring).
        self._cc = np.zeros((n, 3, 3))
        self._cn = np.zeros((n, 3, 3, 3))
        self._nn = np.zeros((n, 3, 3, 3, 3))
        self._clusters = np.zeros(n, dtype=int)

    def add(self, time, q, qd, tau, keep=None):
        """
        Take samples in stamp order: ``time`` (s, shape (m,)), ``q``, ``qd``, ``tau`` (m, n).

        ``keep`` (m,) bool, where given, marks the samples that may enter the fit (the others
        still run through the filter: a contact, say).
        """
        if not len(time):
            return
        keep = np.ones(len(time), bool) if keep is None else np.asarray(keep, bool)
        self._pending.append((np.asarray(time, float), q, qd, tau, keep))
        self._pending_s = self._pending[-1][0][-1] - self._pending[0][0][0]
        if self._pending_s >= BLOCK_S:
            self._prepare(last=False)

    def result(self):
        """Return each joint's :class:`JointFriction`, after the samples not yet prepared."""
        if self._pending:
            self._prepare(last=True)
        found = []
        for j in range(self._chain.n):
            counts = tuple(int(c) for c in self._counts[j])
            normal = self._normal[j]
            if min(counts) < MIN_SAMPLES:
                found.append(_none(counts, f'moved {counts[0]} and {counts[1]} samples forwards '
                                   f'and backwards faster than {MOVING:g}; the fit needs '
                                   f'{MIN_SAMPLES} each way'))
                continue
            if np.linalg.cond(normal) > MAX_CONDITION:
                found.append(_none(counts, 'its velocities do not tell viscous from Coulomb '
                                   'friction (one speed each way)'))
                continue
            values = np.linalg.solve(normal, self._right[j])
            cross = np.einsum('ijk,k->ij', self._cn[j], values)
            middle = (self._cc[j] - cross - cross.T
                      + np.einsum('ikjl,k,l->ij', self._nn[j], values, values))
            inverse = np.linalg.inv(normal)
            clusters = self._clusters[j]
            covariance = inverse @ middle @ inverse * clusters / max(clusters - 1, 1)
            std = np.sqrt(np.maximum(np.diag(covariance), 0.0))
            found.append(JointFriction(values, std, counts, ''))
        return found

    def _prepare(self, last):
        """Fit the pending samples; keep the filter's start-up's worth for the next block."""
        time, q, qd, tau, keep = (np.concatenate(parts) for parts in zip(*self._pending))
        chain = self._chain
        log = JointLog(chain.joint_names, time, q, qd, tau, 'block')
        try:
            prepared = signals.prepare(log, self.cutoff)
        except ValueError:  # a block of gaps and too short stretches: nothing to fit in it
            prepared = None
        if prepared is not None:
            self.cutoff = prepared.cutoff
            self._fit(prepared, time, keep, last)
            trim_s = 4.0 * signals.TRIM_PERIODS / prepared.cutoff
        else:
            trim_s = 0.0
        if last:
            self._pending, self._pending_s = [], 0.0
            return
        tail = time >= time[-1] - trim_s
        self._pending = [(time[tail], q[tail], qd[tail], tau[tail], keep[tail])]
        self._pending_s = time[-1] - time[tail][0]

    def _fit(self, prepared, time, keep, last):
        """Add the prepared samples not taken before (nor past the block's end) to the sums."""
        rows = prepared.time > self._taken_until
        if not last:  # the samples near the block's end are taken from the next block
            rows &= prepared.time < time[-1] - 2.0 * signals.TRIM_PERIODS / prepared.cutoff
        index = np.clip(np.searchsorted(time, prepared.time[rows]), 0, len(time) - 1)
        chosen = np.flatnonzero(rows)[keep[index]]
        if rows.any():
            self._taken_until = prepared.time[rows][-1]
        if not len(chosen):
            return
        chain = self._chain
        q, qd, qdd, tau = (values[chosen] for values in (
            prepared.q, prepared.qd, prepared.qdd, prepared.tau))
        left = tau - chain.rne(q, qd, qdd) - chain.friction(qd)  # the friction's torque
        clear = _clear_of_turns(prepared.time, prepared.qd, GUARD_PERIODS / prepared.cutoff)
        clear = clear[chosen]
        cluster = np.floor(prepared.time[chosen] / CLUSTER_S)
        gains = self._gains
        for j in range(chain.n):
            forwards = (qd[:, j] > MOVING) & clear[:, j]
            backwards = (qd[:, j] < -MOVING) & clear[:, j]
            moving = forwards | backwards
            columns = np.stack([gains[j] ** 2 * qd[moving, j],
                                gains[j] * forwards[moving], gains[j] * backwards[moving]],
                               axis=1)
            r = left[moving, j]
            self._normal[j] += columns.T @ columns
            self._right[j] += columns.T @ r
            self._counts[j] += (int(forwards.sum()), int(backwards.sum()))
            _, members = np.unique(cluster[moving], return_inverse=True)
            count = members.max() + 1 if len(members) else 0
            shares = np.zeros((count, 3, 3))
            np.add.at(shares, members, columns[:, :, None] * columns[:, None, :])
            rights = np.zeros((count, 3))
            np.add.at(rights, members, columns * r[:, None])
            self._cc[j] += np.einsum('bi,bj->ij', rights, rights)
            self._cn[j] += np.einsum('bi,bjk->ijk', rights, shares)
            self._nn[j] += np.einsum('bij,bkl->ijkl', shares, shares)
            self._clusters[j] += count


def _clear_of_turns(time, qd, guard_s):
    """Return (k, n) bool: each sample more than ``guard_s`` from its joint's turns or rests."""
    clear = np.ones(qd.shape, bool)
    for j in range(qd.shape[1]):
        slow = np.abs(qd[:, j]) < MOVING
        slow[1:] |= np.sign(qd[1:, j]) != np.sign(qd[:-1, j])
        at = time[slow]
        if not len(at):
            continue
        k = np.searchsorted(at, time)
        before = np.abs(time - at[np.maximum(k - 1, 0)])
        after = np.abs(at[np.minimum(k, len(at) - 1)] - time)
        clear[:, j] = np.minimum(before, after) > guard_s
    return clear


def _none(counts, note):
    return JointFriction(np.full(3, math.nan), np.full(3, math.nan), counts, note)
