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
Serialized joint_states through the node's flow, on their own stamps: every level change.

The node's clock is the stamps: each message is taken at its stamp, and the node's ticks
(:func:`node_logic.schedule.tick_s`) fall on the stamps' grid between messages, so a joint goes
STALE at the same stamp as on the live node. The flow takes them :data:`BLOCK` messages at a time,
with the ticks between (:meth:`JointStatesFlow.handle_block`), and judges each in turn as it would
alone. After each message and tick, the monitors' levels are compared with the last
(:meth:`LimitDiagnostics.snapshot`); where one moved, the statuses are built and each status whose
level changed is a :data:`Transition`. Of each message taken, the flow's :data:`Verdict` is all the
report reads: :class:`Maxima` keeps the worst values and :class:`Series` what the pictures show:
the joints' values, and the safety figures where any is watched.
"""

from collections import namedtuple
from itertools import islice

from dh_kinematics.node_logic.cdr import JointStateReader
from dh_kinematics.node_logic.joint_states import JointStatesFlow, Wanted
from dh_kinematics.node_logic.schedule import tick_s
from dh_kinematics.replay.maxima import Maxima
from dh_kinematics.replay.series import COLUMNS, Series
import numpy as np

__all__ = ['Replay', 'Transition']

Transition = namedtuple('Transition', 'stamp_ns status level message')
Transition.__doc__ = """One level change: the stamp (ns) of the message or tick that caused it,
the status's name as the node names it (``<node>: <task>``), its new level and message."""
BLOCK = 1000
"""Messages the flow takes at a time."""
MAX_TICKS_PER_GAP = 1000
"""Ticks replayed in one gap between messages; past them the clock jumps to the next message."""


class Replay:
    """
    One model's flow over recorded messages: its level changes, and the worst values.

    Parameters
    ----------
    chain : Chain
        The model.
    settings : dict
        The node's settings, checked (:func:`parameters.validation.checked`).
    node : str
        The node's full name, which the statuses' names start with.
    tf, values : bool
        Whether the flow computes the TF (for a :class:`TfBag`), and the expected efforts and
        the safety values (what ``~/expected_effort`` and ``~/safety`` publish).
    taken : callable, optional
        ``taken(stamps, values, levels)`` after each block: the messages' stamps (ns), their
        values (m, 7, n; :class:`Maxima`'s order of quantities, the position in place of its
        margin) and every joint's level (m, n).

    Attributes
    ----------
    flow : JointStatesFlow
        The node's flow, configured as the node configures it.
    maxima : Maxima
        The worst values so far.
    series : Series
        What the joints' pictures show, binned (rows :data:`series.COLUMNS`).
    safety : Series or None
        The safety figures (one row; :attr:`LimitDiagnostics.figures`), where any is watched.

    """

    def __init__(self, chain, settings, node='/dh_kinematics', tf=False, values=False,
                 taken=None):
        self.flow = JointStatesFlow(chain.joint_names, _undecodable, lambda text: None, 0)
        self.flow.configure(chain, settings)
        # The rates, residuals and external torques every message (for the maxima), as their
        # subscribers ask; the TF where it is written; the expected efforts where asked for;
        # the safety values where asked for or watched.
        limits = self.flow.limits
        watched = limits.watches_figures
        self.flow.wanted = Wanted(False, values, True, tf, False, safety=values or watched,
                                  external=True)
        self._figures = limits.figures if watched else ()
        self.maxima = Maxima(chain, self._figures)
        self.series = Series(len(COLUMNS), chain.n)
        self.safety = Series(1, len(self._figures)) if watched else None
        self._tick_ns = int(tick_s(settings['diagnostics.period']) * 1e9)
        self._node = node
        self._reader, self._levels, self._last = JointStateReader(), {}, None
        self._clock, self._next_tick = 1, None
        self._taken = taken

    def transitions(self, messages, tf_bag=None, outcomes=None, block=BLOCK):
        """
        Yield each :data:`Transition` of ``messages``, in stamp order.

        ``messages``: each message's time (ns; the bag's) and serialized sensor_msgs/JointState.
        ``tf_bag`` (a :class:`TfBag`, with ``tf``) takes each message and its TF;
        ``outcomes(outcome)``, where given, each message's :data:`Outcome`. The flow takes
        ``block`` messages at a time (:meth:`JointStatesFlow.handle_block`), with the ticks
        between them: a block's transitions are yielded once it is judged. A ValueError or
        OSError of ``messages`` (a log cut short) is raised after the messages before it are
        judged.
        """
        messages = iter(messages)
        while True:
            chunk, error = [], None
            try:
                for message in islice(messages, block):
                    chunk.append(message)
            except (ValueError, OSError) as stopped:  # a log cut short: judge what came first
                error = stopped
            if chunk:
                yield from self._block(chunk, tf_bag, outcomes)
            if error is not None:
                raise error
            if not chunk:
                return

    def _block(self, chunk, tf_bag, outcomes):
        """Return the transitions of a block of messages, and of the ticks between them."""
        tick_ns, reader, events, sources, found = self._tick_ns, self._reader, [], [], []
        for bag_ns, data in chunk:
            # The node's clock: the newest stamp so far, never back (0: no /clock yet).
            self._clock = clock = max(self._clock, reader.read(data)[0])
            if self._next_tick is None:
                self._next_tick = clock - clock % tick_ns + tick_ns
            for _ in range(MAX_TICKS_PER_GAP):
                if self._next_tick > clock:
                    break
                events.append((None, self._next_tick, self._next_tick))
                sources.append(None)
                self._next_tick += tick_ns
            else:
                self._next_tick = clock - clock % tick_ns + tick_ns
            # A stamp gone back is dropped by the cache as the node drops it: the clock did not.
            events.append((data, clock, clock))
            sources.append((bag_ns, data))

        def each(k, outcome):
            stamp, source = events[k][1], sources[k]
            if source is not None:
                if tf_bag is not None:
                    tf_bag.joint_state(*source)
                    if outcome.tf is not None:
                        tf_bag.tf(source[0], outcome.tf)
                if outcomes is not None:
                    outcomes(outcome)
                if outcome.taken:  # a message dropped is counted by the arm's status
                    verdicts.append(self.flow.verdict(outcome))
            self._changes(stamp, found)

        verdicts = []
        self.flow.handle_block(events, each)
        if verdicts:
            self._take(verdicts)
        return found

    def _take(self, verdicts):
        """Add a block's values and their levels to the maxima and the series."""
        stamps = [verdict.stamp_ns for verdict in verdicts]
        values = np.array([(  # (m, 7, n), in the maxima's order of quantities
            verdict.positions, verdict.velocities, verdict.accelerations, verdict.jerks,
            verdict.efforts, verdict.residuals, verdict.external) for verdict in verdicts],
            dtype=float)
        judged = [verdict for verdict in verdicts if verdict.safety is not None]
        safety_stamps = [verdict.stamp_ns for verdict in judged]
        safety = np.array([verdict.safety for verdict in judged], dtype=float)
        self.maxima.take(stamps, values, safety_stamps, safety)
        # The pictures: position, velocity, effort, and the estimate: the observer's where it
        # has one, else the residual.
        shown = values[:, [0, 1, 4, 5]]
        external = values[:, 6]
        shown[:, 3] = np.where(np.isnan(external), shown[:, 3], external)
        levels = [verdict.levels for verdict in verdicts]
        self.series.add(stamps, shown, levels)
        if self._taken is not None:
            self._taken(stamps, values, levels)
        if judged:
            self.safety.add(safety_stamps, safety[:, None],
                            [verdict.safety_levels for verdict in judged])

    def _changes(self, stamp, found):
        """Add each status whose level changed to ``found``."""
        flow, levels = self.flow, self._levels
        snapshot = flow.limits.snapshot()
        if snapshot != self._last:
            self._last = snapshot
            changed = {task for task, level in flow.limits.status_levels(stamp).items()
                       if levels.get(task) != level}
            for status in flow.statuses(stamp, stamp, changed) if changed else ():
                levels[status.task] = status.level
                found.append(Transition(stamp, f'{self._node}: {status.task}', status.level,
                                        status.message))


def _undecodable(data):
    raise ValueError('not plain CDR')
