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
The arm's branch changes in a log: where its shoulder, elbow or wrist turned over.

An arm that is not redundant has a branch at each configuration: the signs of its shoulder,
elbow and wrist (:meth:`core.kinematics.singularities.Kinds.branches`), in which the closed
forms' solutions of one pose differ. A change is a kind whose sign turns from one side to the
other (a message at the singularity itself, sign 0, changes nothing yet): the arm passed
through the singularity, a flip a straight-line path is meant not to make. The messages come a
block at a time (:class:`replay.stream.Replay`'s ``taken``), each block's signs at once.
"""

from collections import namedtuple

from dh_kinematics.core.kinematics import manipulability, singularities
from dh_kinematics.core.kinematics.singularities import SIGNS
import numpy as np

__all__ = ['BranchChange', 'BranchChanges']

BranchChange = namedtuple('BranchChange', 'stamp_ns kind before after')
BranchChange.__doc__ = """One branch change: the stamp (ns) of the first message on the new
side, the kind ('shoulder', 'elbow', 'wrist') and its sign before and after (+1 or -1)."""


class BranchChanges:
    """
    Each branch change of the messages taken, in stamp order.

    Parameters
    ----------
    chain : Chain
        The model; a redundant arm (or one whose geometry names no kind) has no branches.

    Attributes
    ----------
    kinds : tuple of str
        The kinds signed; empty where the arm has no branches.
    changes : list of BranchChange

    """

    def __init__(self, chain):
        conditioning = manipulability.Conditioning(chain)
        self._kinds = singularities.Kinds(chain, conditioning.ranks[2], conditioning.length)
        self.kinds = self._kinds.branch_kinds
        self.changes = []
        self._last = np.zeros(len(self.kinds), dtype=int)  # the last side of each: 0 unknown

    def take(self, stamps, values, levels=None):
        """Take a block: stamps (ns) and values (m, 7, n), the positions first (rad or m)."""
        if not self.kinds:
            return
        Q = np.asarray(values, dtype=float)[:, 0]
        known = ~np.isnan(Q).any(axis=1)
        if not known.any():
            return
        stamps = np.asarray(stamps)[known]
        for stamp, signs in zip(stamps.tolist(), self._kinds.branches(Q[known]).tolist()):
            for k, sign in enumerate(signs):
                last = self._last[k]
                if sign and last and sign != last:
                    self.changes.append(BranchChange(stamp, self.kinds[k], int(last), sign))
                if sign:
                    self._last[k] = sign

    def rows(self):
        """Return the changes as rows: stamp (s), kind, before and after ('+' or '-')."""
        return [(change.stamp_ns * 1e-9, change.kind, SIGNS[change.before],
                 SIGNS[change.after]) for change in self.changes]

    def summary(self):
        """Return one line: how many changes, and the first (or why there are none)."""
        if not self.kinds:
            return 'branch changes: none (the arm has no branches: redundant, or no kind named)'
        if not self.changes:
            return 'branch changes: none'
        first = self.changes[0]
        return (f'branch changes: {len(self.changes)}, the first at {first.stamp_ns * 1e-9:.6f} '
                f's: {first.kind} {SIGNS[first.before]} -> {SIGNS[first.after]}')
