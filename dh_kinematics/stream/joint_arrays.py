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
The per-joint arrays of :class:`JointStateCache`, and the cache's one deferred write.

A message that sets every joint (the usual case) is kept as it came, Python floats, and
written into the numpy arrays only when one of them is next read, or when a message of
another shape comes: at 1 kHz, most of those writes would be overwritten unread by the next
message. Reading any array gives the same values as if every write had been done at once.
"""

import numpy as np


class JointArrays:
    """
    Per-joint values in model order; a whole-arm update may wait until an array is read.

    Parameters
    ----------
    n : int
        Number of joints.
    no_stamp : int
        The stamp of a joint that has none yet, ns.

    """

    def __init__(self, n, no_stamp):
        self._positions, self._velocities, self._efforts = np.full((3, n), np.nan)
        self._stamps_ns = np.full(n, no_stamp, dtype=np.int64)
        self._received_ns = np.full(n, -1, dtype=np.int64)
        self._non_finite = np.zeros(n, dtype=bool)
        self._pending = None

    def _set_later(self, index, q, qd, effort, stamp_ns, now_ns):
        """
        Set every joint (``index``: all of them, in the order of the values) when next read.

        ``q``: finite positions; ``qd`` and ``effort``: finite values, or empty for none.
        """
        pending = self._pending
        if pending is not None and pending[0] is not index:
            self._flush()
        elif pending is not None:  # replaced, except for what this message does not carry
            qd, effort = qd or pending[2], effort or pending[3]
        self._pending = (index, q, qd, effort, stamp_ns, now_ns)

    def _flush(self):
        """Write the pending whole-arm update into the arrays."""
        index, q, qd, effort, stamp_ns, now_ns = self._pending
        self._pending = None
        self._positions[index] = q
        if qd:
            self._velocities[index] = qd
        if effort:
            self._efforts[index] = effort
        self._non_finite[index] = False
        self._stamps_ns[index] = stamp_ns
        self._received_ns[index] = now_ns

    def _array(name, doc):  # noqa: N805 (a property factory for the class body)
        def read(self):
            if self._pending is not None:
                self._flush()
            return getattr(self, name)
        return property(read, doc=doc)

    positions = _array('_positions', 'Last finite position per joint, rad or m (NaN: none).')
    velocities = _array('_velocities', 'Last velocity per joint, rad/s or m/s (NaN: none).')
    efforts = _array('_efforts', 'Last measured effort per joint, N m or N (NaN: none).')
    stamps_ns = _array('_stamps_ns', "Stamp of each joint's last value, ns (NO_STAMP: none).")
    received_ns = _array('_received_ns', 'Node clock when each joint was last set, ns (-1).')
    non_finite = _array('_non_finite', "Whether each joint's last position was not finite.")
    del _array
