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

The usual message names every joint, is newer than all and has finite values. The cache takes
it in fewer steps (:meth:`JointStateCache.whole`, then :meth:`JointStateCache.take_all`), and
keeps its values as they came, Python floats, until one
of the per-joint arrays is next read or a message of another shape comes: at 1 kHz, most of
those writes would be overwritten unread by the next message. Reading any array gives the same
values as if every write had been done at once.
"""

from collections import Counter, namedtuple
from math import isfinite

import numpy as np

Update = namedtuple(
    'Update', 'dropped notes stamp_ns positions velocities q qd new_unknown efforts effort')
Update.__doc__ = """What one message changed.

dropped : str or None
    Why the whole message was dropped, or None.
notes : tuple of str
    Entries ignored in an accepted message ('unknown_joint', 'non_finite_position',
    'non_finite_velocity', 'velocity_length', 'non_finite_effort', 'effort_length') and
    'zero_stamp' when the stamp was replaced.
new_unknown : tuple of str
    Unknown names seen for the first time (at most MAX_UNKNOWN_NAMES are ever remembered).
stamp_ns : int
    The stamp to publish with, in ns.
positions : tuple of int
    Indices (model order) of the joints whose position this message set.
velocities : tuple of int
    Indices of the joints whose velocity this message set.
q, qd : tuple of float
    Those positions (rad or m) and velocities (rad/s or m/s).
efforts : tuple of int
    Indices of the joints whose measured effort this message set.
effort : tuple of float
    Those efforts (N m or N).
"""

Whole = namedtuple('Whole', 'rows joints index')
Whole.__doc__ = """How a message naming every joint is taken whole (:meth:`JointStateCache.whole`).

rows : tuple of int or None
    The message row of each of ``joints``; None when the names are in model order.
joints : tuple of int
    Every joint, in the message's order.
index : slice or array of int
    Where :meth:`JointStateCache.take_all` writes values given in the order of ``joints``.
"""


class Row(namedtuple('Row', 'names positions efforts received_ns non_finite received counts')):
    """
    What the cache shows after one message (:meth:`JointStateCache.row`), kept.

    The attributes of the same names as :class:`JointStateCache`'s, copies (the counts a plain
    dict). A block's message is judged and described by its row after the cache has taken the
    block's later messages.
    """

    __slots__ = ()

    def dropped_total(self):
        """Return the number of messages dropped whole."""
        return _dropped(self.counts)


DROP_REASONS = ('malformed', 'no_clock', 'empty', 'length_mismatch', 'duplicate_name',
                'no_known_joint', 'bad_stamp', 'future_stamp', 'old_stamp', 'repeated_stamp')
# Unknown joint names remembered (to name each once); past this, they are only counted.
MAX_UNKNOWN_NAMES = 100
NO_STAMP = np.iinfo(np.int64).min
# A stamp must fit builtin_interfaces/Time once normalised: int32 seconds.
STAMP_RANGE_NS = (-2 ** 31 * 1_000_000_000, 2 ** 31 * 1_000_000_000)


class JointStateCache:
    """
    Remember the last position and velocity of each joint, matched by name.

    Parameters
    ----------
    joint_names : sequence of str
        The model's joints, in model order.
    future_tolerance_ns : int
        Stamps more than this far ahead of the node's clock are dropped ('future_stamp').

    Attributes
    ----------
    received : int
        Messages taken, dropped ones included.
    counts : Counter
        Dropped messages and ignored entries, by reason.

    """

    def __init__(self, joint_names, future_tolerance_ns=1_000_000_000):
        self.names = tuple(joint_names)
        self._index = {name: i for i, name in enumerate(self.names)}
        n = len(self.names)
        self._positions, self._velocities, self._efforts = np.full((3, n), np.nan)
        self._stamps_ns = np.full(n, NO_STAMP, dtype=np.int64)
        self._received_ns = np.full(n, -1, dtype=np.int64)
        self._non_finite = np.zeros(n, dtype=bool)
        self._pending = None  # a whole-arm update not yet written into the arrays
        self.future_tolerance_ns = future_tolerance_ns
        self.counts = Counter()
        self.received = 0
        self._last_names, self._last_match = None, None
        self.unknown_names = set()
        self._fresh = True
        self._newest_ns = NO_STAMP  # the newest stamp of any joint
        # The names (a tuple) of the last message that named every joint and nothing else,
        # and where its values go: (message rows or None in model order, joints, numpy index).
        self._full_names, self._full = None, None

    def update(self, names, positions, velocities, stamp_ns, now_ns, efforts=()):
        """
        Take one joint_states message.

        Outcomes, in order of precedence:

        - no names: dropped ('empty');
        - as many positions as names: otherwise dropped ('length_mismatch');
        - a name twice: dropped ('duplicate_name');
        - names the model does not have are ignored ('unknown_joint'); none known: dropped
          ('no_known_joint');
        - a stamp whose seconds do not fit int32 once nanoseconds over 1e9 are carried: dropped
          ('bad_stamp');
        - stamp 0: replaced by ``now_ns`` ('zero_stamp');
        - a stamp more than ``future_tolerance_ns`` ahead of ``now_ns``: dropped
          ('future_stamp'), so that one bad clock cannot lock every later message out;
        - a stamp older than, or equal to, the last one of any joint in the message: dropped
          ('old_stamp', 'repeated_stamp'), as TF would refuse it;
        - a NaN or inf position: that joint is marked non-finite and gets no new position
          ('non_finite_position'); the other joints are used;
        - velocities of the wrong length are ignored ('velocity_length'); non-finite ones too
          ('non_finite_velocity'); efforts likewise ('effort_length', 'non_finite_effort').

        Parameters
        ----------
        names : sequence of str
            Joint names of the message.
        positions, velocities : sequence of float
            Position in rad or m; velocity in rad/s or m/s (may be empty).
        efforts : sequence of float
            Measured effort, N m or N (may be empty).
        stamp_ns : int
            Header stamp in ns.
        now_ns : int
            The receiving node's clock in ns.

        Returns
        -------
        update : Update

        """
        whole = self.whole(names, positions, velocities, stamp_ns, now_ns, efforts)
        if whole is not None:  # counted in received by take_all
            return self._update_all(whole, positions, velocities, efforts, stamp_ns, now_ns)
        self.received += 1
        count = len(names)
        dropped, notes, message_rows, joints = self._match(names)
        notes = list(notes)
        if count and len(positions) != count:
            dropped, notes = 'length_mismatch', []
        if dropped is None and not STAMP_RANGE_NS[0] <= stamp_ns < STAMP_RANGE_NS[1]:
            dropped = 'bad_stamp'
        if dropped is None:
            if stamp_ns == 0:
                stamp_ns = now_ns
                notes.append('zero_stamp')
            last = max(self.stamps_ns[j] for j in joints)
            if stamp_ns > now_ns + self.future_tolerance_ns:
                dropped = 'future_stamp'
            elif stamp_ns <= last:
                dropped = 'old_stamp' if stamp_ns < last else 'repeated_stamp'
        new_unknown = self._remember_unknown(names) if self._fresh and (
            'unknown_joint' in notes or dropped == 'no_known_joint') else ()
        if dropped is not None:
            self.counts[dropped] += 1
            return Update(dropped, tuple(notes), stamp_ns, (), (), (), (), new_unknown, (), ())
        # Python floats: for a handful of joints, numpy's per-call overhead costs more.
        values = np.asarray(positions, dtype=float).tolist()
        moved, q, finite = [], [], []
        for k, j in zip(message_rows, joints):
            value = values[k]
            finite.append(isfinite(value))
            self.non_finite[j] = not finite[-1]
            if finite[-1]:
                self.positions[j] = value
                moved.append(j)
                q.append(value)
        if len(moved) < len(joints):
            notes.append('non_finite_position')
        with_velocity, qd = self._rates(velocities, 'velocity', count, message_rows, joints,
                                        finite, self.velocities, notes)
        with_effort, effort = self._rates(efforts, 'effort', count, message_rows, joints,
                                          finite, self.efforts, notes)
        self.stamps_ns[joints] = stamp_ns
        self._newest_ns = max(self._newest_ns, stamp_ns)
        self.received_ns[joints] = now_ns
        self.counts['accepted'] += 1
        self.counts.update(notes)
        return Update(None, tuple(notes), stamp_ns, tuple(moved), tuple(with_velocity),
                      tuple(q), tuple(qd), new_unknown, tuple(with_effort), tuple(effort))

    def _update_all(self, whole, positions, velocities, efforts, stamp_ns, now_ns):
        """Take a message :meth:`whole` accepted, as :meth:`update` would, in fewer steps."""
        rows, joints, index = whole
        q, qd, effort = (values if rows is None or not values
                         else tuple([values[k] for k in rows])
                         for values in (positions, velocities, efforts))
        self.take_all(index, q, qd, effort, stamp_ns, now_ns)
        return Update(None, (), stamp_ns, joints, joints if qd else (), q, qd, (),
                      joints if effort else (), effort)

    def whole(self, names, positions, velocities, stamp_ns, now_ns, efforts=()):
        """
        Return a :data:`Whole` if :meth:`update` would take this message whole, else None.

        Whole: the same names tuple as the last message, naming every joint and nothing else;
        a stamp :meth:`newest`; tuples of finite values, a position for every joint, and a
        velocity and an effort for every joint or for none (the arguments are
        :meth:`update`'s). Changes nothing; :meth:`take_all` then takes such a message with
        ``index``, its values in the order of ``joints``.
        """
        full = self._full
        if full is None or names is not self._full_names or not self.newest(stamp_ns, now_ns):
            return None
        n = len(full.joints)
        for values, least in ((positions, n), (velocities, 0), (efforts, 0)):
            if type(values) is not tuple or len(values) not in (least, n) or (
                    values and not isfinite(sum(values))):  # finite only if every term is
                return None
        return full

    def newest(self, stamp_ns, now_ns):
        """Tell whether a stamp is newer than all, in range, at most the tolerance ahead."""
        return (self._newest_ns < stamp_ns < STAMP_RANGE_NS[1]
                and 0 < stamp_ns <= now_ns + self.future_tolerance_ns)

    def take_all(self, index, q, qd, effort, stamp_ns, now_ns):
        """
        Take a message that :meth:`update` would take whole, as it would, once checked as it.

        That is: ``index`` from :meth:`whole`, the stamp :meth:`newest`, finite
        ``q`` (a tuple), and ``qd`` and ``effort`` finite for every joint or empty tuples.
        """
        self.received += 1
        self._set_later(index, q, qd, effort, stamp_ns, now_ns)
        self._newest_ns = stamp_ns
        self.counts['accepted'] += 1

    def _set_later(self, index, q, qd, effort, stamp_ns, now_ns):
        """Set every joint (``index``: all of them, in the order of the values) when next read."""
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

    newest_ns = property(lambda self: self._newest_ns,
                         doc='The newest stamp of any joint, ns (NO_STAMP: none yet).')

    @staticmethod
    def _rates(values, kind, count, message_rows, joints, finite, store, notes):
        """Take a message's velocities or efforts; return the joints they set, and values."""
        chosen, taken = [], []
        if len(values) == count:
            values = np.asarray(values, dtype=float).tolist()
            all_finite = True
            for k, j, position_finite in zip(message_rows, joints, finite):
                value = values[k]
                if not isfinite(value):
                    all_finite = False
                elif position_finite:
                    store[j] = value
                    chosen.append(j)
                    taken.append(value)
            if not all_finite:
                notes.append(f'non_finite_{kind}')
        elif len(values):
            notes.append(f'{kind}_length')
        return chosen, taken

    def _remember_unknown(self, names):
        """Return the unknown names not seen before; remember at most MAX_UNKNOWN_NAMES."""
        remembered = self.unknown_names
        if len(remembered) >= MAX_UNKNOWN_NAMES:
            return ()
        new = [name for name in names if name not in self._index and name not in remembered]
        new = new[:MAX_UNKNOWN_NAMES - len(remembered)]
        remembered.update(new)
        return tuple(new)

    def _match(self, names):
        """Return (dropped, notes, message rows, joints) for a list of names, remembered."""
        self._fresh = names != self._last_names
        if not self._fresh:
            if self._full is not None:
                self._full_names = names if type(names) is tuple else None
            return self._last_match
        count = len(names)
        dropped = None
        if count == 0:
            dropped = 'empty'
        elif len(set(names)) != count:
            dropped = 'duplicate_name'
        known = [(k, self._index[name]) for k, name in enumerate(names) if name in self._index]
        notes = ('unknown_joint',) if dropped is None and len(known) < count else ()
        if dropped is None and not known:
            dropped = 'no_known_joint'
        match = (dropped, notes, [k for k, _ in known], [j for _, j in known])
        self._last_names = names if type(names) is tuple else list(names)
        self._last_match = match
        self._remember_full(names, match)
        return match

    def _remember_full(self, names, match):
        """Note ``names`` for :meth:`whole` if it names every joint and nothing else."""
        dropped, notes, rows, joints = match
        self._full_names = self._full = None
        if dropped is None and not notes and len(joints) == len(self.names):
            in_order = joints == list(range(len(joints)))
            self._full_names = names if type(names) is tuple else None  # immutable only
            self._full = Whole(None if in_order else tuple(rows), tuple(joints),
                               slice(None) if in_order else np.array(joints))

    def drop(self, reason):
        """Count a message dropped before it could be read (``reason`` from DROP_REASONS)."""
        self.received += 1
        self.counts[reason] += 1

    def reset_stamps(self, now_ns):
        """Forget the last stamps after the clock jumped back; restart the stale timers."""
        self.stamps_ns[:] = NO_STAMP
        self._newest_ns = NO_STAMP
        self.received_ns[self.received_ns >= 0] = now_ns

    def dropped_total(self):
        """Return the number of messages dropped whole."""
        return _dropped(self.counts)

    def row(self):
        """Return what the cache shows now, kept: a :data:`Row`."""
        return Row(self.names, self.positions.copy(), self.efforts.copy(),
                   self.received_ns.copy(), self.non_finite.copy(), self.received,
                   dict(self.counts))


def _dropped(counts):
    """Return the number of messages dropped whole, of ``counts`` (reason -> number)."""
    return sum(counts.get(reason, 0) for reason in DROP_REASONS)
