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

"""Playback: a joint log played as a trajectory, over and over (``sim_arm``'s ``trajectory``)."""

import numpy as np


class Playback:
    """
    Positions, velocities and accelerations of a log at any time, the log repeated.

    The log's own velocities are taken (differenced from its positions where it has none); the
    accelerations are central differences of the velocities. Between samples, each is linear
    in time. After its last sample the log starts again from its first.

    Parameters
    ----------
    log : JointLog
        In the model's joint order (:func:`logs.for_model`), at least two distinct stamps in
        increasing order.

    Raises
    ------
    ValueError
        Naming the log: fewer than two samples, or stamps that do not increase.

    """

    def __init__(self, log):
        time = np.asarray(log.time, dtype=float)
        if len(time) < 2 or not (np.diff(time) > 0.0).all():
            raise ValueError(f'{log.source}: a trajectory needs two or more samples with '
                             'increasing stamps')
        self._time = time - time[0]
        q = np.asarray(log.position, dtype=float)
        qd = np.gradient(q, self._time, axis=0) if log.velocity is None else np.asarray(
            log.velocity, dtype=float)
        self._tables = (q, qd, np.gradient(qd, self._time, axis=0))
        self.duration = float(self._time[-1])

    def at(self, t):
        """Return q, qd, qdd (arrays of shape (n,)) at ``t`` s after the start."""
        t = float(t) % self.duration if self.duration > 0.0 else 0.0
        return tuple(np.array([np.interp(t, self._time, column) for column in table.T])
                     for table in self._tables)
