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
The last known state of every joint, fed by joint_states messages of any shape and quality.

Pure Python and numpy: the node passes in the message fields and gets back what to publish.
Each kind of bad input has one defined outcome (see :class:`JointStateCache.update`), and every
dropped message and every ignored entry is counted.
"""

from collections import Counter, namedtuple

import numpy as np

Update = namedtuple('Update', 'dropped notes stamp_ns positions velocities')
Update.__doc__ = """What one message changed.

dropped : str or None
    Why the whole message was dropped, or None.
notes : tuple of str
    Entries ignored in an accepted message ('unknown_joint', 'non_finite_position',
    'non_finite_velocity', 'velocity_length') and 'zero_stamp' when the stamp was replaced.
stamp_ns : int
    The stamp to publish with, in ns.
positions : array of int
    Indices (model order) of the joints whose position this message set.
velocities : array of int
    Indices of the joints whose velocity this message set.
"""

DROP_REASONS = ('empty', 'length_mismatch', 'duplicate_name', 'no_known_joint', 'old_stamp',
                'repeated_stamp')


class JointStateCache:
    """
    Remember the last position and velocity of each joint, matched by name.

    Parameters
    ----------
    joint_names : sequence of str
        The model's joints, in model order.

    """

    def __init__(self, joint_names):
        self.names = tuple(joint_names)
        self._index = {name: i for i, name in enumerate(self.names)}
        n = len(self.names)
        self.positions = np.full(n, np.nan)
        self.velocities = np.full(n, np.nan)
        self.stamps_ns = np.full(n, -1, dtype=np.int64)
        self.received_ns = np.full(n, -1, dtype=np.int64)
        self.non_finite = np.zeros(n, dtype=bool)
        self.counts = Counter()

    def update(self, names, positions, velocities, stamp_ns, now_ns):
        """
        Take one joint_states message.

        Outcomes, in order of precedence:

        - no names: dropped ('empty');
        - as many positions as names: otherwise dropped ('length_mismatch');
        - a name twice: dropped ('duplicate_name');
        - names the model does not have are ignored ('unknown_joint'); none known: dropped
          ('no_known_joint');
        - stamp 0: replaced by ``now_ns`` ('zero_stamp');
        - a stamp older than, or equal to, the last one of any joint in the message: dropped
          ('old_stamp', 'repeated_stamp'), as TF would refuse it;
        - a NaN or inf position: that joint is marked non-finite and gets no new position
          ('non_finite_position'); the other joints are used;
        - velocities of the wrong length are ignored ('velocity_length'); non-finite ones too
          ('non_finite_velocity').

        Parameters
        ----------
        names : sequence of str
            Joint names of the message.
        positions, velocities : sequence of float
            Position in rad or m; velocity in rad/s or m/s (may be empty).
        stamp_ns : int
            Header stamp in ns.
        now_ns : int
            The receiving node's clock in ns.

        Returns
        -------
        update : Update

        """
        count = len(names)
        dropped = None
        if count == 0:
            dropped = 'empty'
        elif len(positions) != count:
            dropped = 'length_mismatch'
        elif len(set(names)) != count:
            dropped = 'duplicate_name'
        notes = []
        known = [(k, self._index[name]) for k, name in enumerate(names) if name in self._index]
        if dropped is None and len(known) < count:
            notes.append('unknown_joint')
        if dropped is None and not known:
            dropped = 'no_known_joint'
        if dropped is None:
            message_rows = [k for k, _ in known]
            joints = np.array([j for _, j in known])
            if stamp_ns == 0:
                stamp_ns = now_ns
                notes.append('zero_stamp')
            last = self.stamps_ns[joints].max()
            if stamp_ns <= last:
                dropped = 'old_stamp' if stamp_ns < last else 'repeated_stamp'
        if dropped is not None:
            self.counts[dropped] += 1
            empty = np.zeros(0, dtype=int)
            return Update(dropped, tuple(notes), stamp_ns, empty, empty)

        values = np.asarray(positions, dtype=float)[message_rows]
        finite = np.isfinite(values)
        if not finite.all():
            notes.append('non_finite_position')
        self.positions[joints[finite]] = values[finite]
        self.non_finite[joints] = ~finite
        with_velocity = joints[:0]
        if len(velocities) == count:
            rates = np.asarray(velocities, dtype=float)[message_rows]
            rate_finite = np.isfinite(rates)
            if not rate_finite.all():
                notes.append('non_finite_velocity')
            with_velocity = joints[rate_finite & finite]
            self.velocities[with_velocity] = rates[rate_finite & finite]
        elif len(velocities):
            notes.append('velocity_length')
        self.stamps_ns[joints] = stamp_ns
        self.received_ns[joints] = now_ns
        self.counts['accepted'] += 1
        self.counts.update(notes)
        return Update(None, tuple(notes), stamp_ns, joints[finite], with_velocity)

    def reset_stamps(self, now_ns):
        """Forget the last stamps after the clock jumped back; restart the stale timers."""
        self.stamps_ns[:] = -1
        self.received_ns[self.received_ns >= 0] = now_ns

    def dropped_total(self):
        """Return the number of messages dropped whole."""
        return sum(self.counts[reason] for reason in DROP_REASONS)
