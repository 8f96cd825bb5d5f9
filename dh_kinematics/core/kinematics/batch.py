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
Forward kinematics and Jacobians for large batches, as compiled straight-line numpy.

The arm's straight-line kinematics (:mod:`core.kinematics.unrolled`) become a function that
computes every entry of the result for a whole batch, one numpy operation per line: no 4x4
products, no terms that a link's constants make zero (its a, d, and twists of 0 or 90 degrees), no
temporaries of shape (m, 4, 4). On the Puma 560 it beats batched ``matmul`` from about 40
configurations; :class:`Chain` uses it for poses from :data:`MIN_BATCH`, and for every batch of
Jacobians (:func:`unrolled.point_jacobian` is their one source). Batches are done in chunks of
:data:`CHUNK` configurations, so the working set stays in the CPU cache and the memory is that of
the result. Units are SI: rad, m.
"""

from dh_kinematics.core.symbolic import store_function
import numpy as np

MIN_BATCH = 64
CHUNK = 4096


class BatchKinematics:
    """
    A chain's batch kinematics, each compiled on first use.

    Parameters
    ----------
    arm : unrolled.Unrolled
        The arm's one-configuration kinematics, whose cache keeps these functions too.

    """

    def __init__(self, arm):
        self._arm = arm
        self._table = arm.table

    def frame_poses(self, Q):
        """Return the poses of frames 0 to n in the world: shape (m, n+1, 4, 4)."""
        return self._run('frames', Q, (len(self._table.a) + 1, 4, 4))

    def tool_poses(self, Q):
        """Return the poses of the tool in the world: shape (m, 4, 4)."""
        return self._run('tool', Q, (4, 4))

    def transforms(self, Q):
        """Return each link's transform A_i (previous link frame to its own): (m, n, 4, 4)."""
        return self._run('transforms', Q, (len(self._table.a), 4, 4))

    def jacobians(self, Q):
        """Return the geometric Jacobians [v; w] of the tool point in the world: (m, 6, n)."""
        return self._run('jacobians', Q, (6, len(self._table.a)))

    def points(self, links, offsets, Q):
        """
        Return :meth:`Unrolled.points_function`'s values at each of ``Q``: (m, k, 12 + 6 n).

        Per point (``links``, ``offsets`` as there), its position, its link frame's rotation
        and its Jacobian [v; w], row-major.
        """
        kind = ('points', tuple(int(k) for k in links),
                tuple(tuple(float(value) for value in offset) for offset in offsets))
        return self._run(kind, Q, (len(kind[1]), 12 + 6 * len(self._table.a)))

    def _run(self, kind, Q, shape):
        """Return ``kind`` for joint values ``Q`` (rad or m, shape (m, n)) in shape (m, *shape)."""
        name = kind if isinstance(kind, str) else kind[0]
        function, constants = self._arm.compiled((kind, 'batch'), lambda code, values: (
            store_function(code, values, 'q', f'<batch {name} of {len(self._table.a)} links>')))
        m = Q.shape[0]
        out = np.empty((m, constants.size))
        out[:] = constants
        columns = np.ascontiguousarray(Q.T)
        for start in range(0, m, CHUNK):
            function(columns[:, start:start + CHUNK], out[start:start + CHUNK])
        return out.reshape((m,) + shape)
