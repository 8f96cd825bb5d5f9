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
STALE at the same stamp as on the live node. After each message and tick, the monitors' levels
are compared with the last (:meth:`LimitDiagnostics.snapshot`); where one moved, the statuses
are built and each status whose level changed is a :data:`Transition`. Of each message taken,
the flow's :data:`Verdict` is all the report reads: :class:`Maxima` keeps the worst values and
:class:`Series` what the pictures show: the joints' values, and the safety figures where any is
watched.
"""

from collections import namedtuple

from dh_kinematics.node_logic.cdr import JointStateReader
from dh_kinematics.node_logic.joint_states import JointStatesFlow, Wanted
from dh_kinematics.node_logic.schedule import tick_s
from dh_kinematics.replay.maxima import Maxima
from dh_kinematics.replay.series import COLUMNS, Series

__all__ = ['Replay', 'Transition']

Transition = namedtuple('Transition', 'stamp_ns status level message')
Transition.__doc__ = """One level change: the stamp (ns) of the message or tick that caused it,
the status's name as the node names it (``<node>: <task>``), its new level and message."""
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

    def __init__(self, chain, settings, node='/dh_kinematics', tf=False, values=False):
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

    def transitions(self, messages, tf_bag=None, outcomes=None):
        """
        Yield each :data:`Transition` of ``messages``, in stamp order.

        ``messages``: each message's time (ns; the bag's) and serialized sensor_msgs/JointState.
        ``tf_bag`` (a :class:`TfBag`, with ``tf``) takes each message and its TF;
        ``outcomes(outcome)``, where given, each message's :data:`Outcome`.
        """
        flow, tick_ns, maxima = self.flow, self._tick_ns, self.maxima
        reader, levels, last, next_tick = JointStateReader(), {}, None, None
        clock = 1  # the node's clock: the newest stamp so far, never back (0: no /clock yet)
        for bag_ns, data in messages:
            clock = max(clock, reader.read(data)[0])
            if next_tick is None:
                next_tick = clock - clock % tick_ns + tick_ns
            for _ in range(MAX_TICKS_PER_GAP):
                if next_tick > clock:
                    break
                flow.tick(next_tick, next_tick)
                last = yield from self._changes(next_tick, last, levels)
                next_tick += tick_ns
            else:
                next_tick = clock - clock % tick_ns + tick_ns
            # A stamp gone back is dropped by the cache as the node drops it: the clock did not.
            outcome = flow.handle(data, clock, clock)
            if tf_bag is not None:
                tf_bag.joint_state(bag_ns, data)
                if outcome.tf is not None:
                    tf_bag.tf(bag_ns, outcome.tf)
            if outcomes is not None:
                outcomes(outcome)
            if not outcome.taken:  # counted by the arm's status; no values of its own
                last = yield from self._changes(clock, last, levels)
                continue
            verdict = flow.verdict(outcome)
            maxima.take(verdict)
            self._add(verdict)
            last = yield from self._changes(clock, last, levels)

    def _add(self, verdict):
        """Add the message's values and their levels to the series."""
        estimate = [external if external == external else residual
                    for residual, external in zip(verdict.residuals, verdict.external)]
        self.series.add(verdict.stamp_ns, [verdict.positions, verdict.velocities,
                                           verdict.efforts, estimate], verdict.levels)
        if verdict.safety is not None:
            self.safety.add(verdict.stamp_ns, [verdict.safety], verdict.safety_levels)

    def _changes(self, stamp, last, levels):
        """Yield the statuses whose level changed; return the new snapshot."""
        flow = self.flow
        snapshot = flow.limits.snapshot()
        if snapshot != last:
            for status in flow.statuses(stamp, stamp):
                if levels.get(status.task) != status.level:
                    levels[status.task] = status.level
                    yield Transition(stamp, f'{self._node}: {status.task}', status.level,
                                     status.message)
        return snapshot


def _undecodable(data):
    raise ValueError('not plain CDR')
