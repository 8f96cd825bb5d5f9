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
The joint-limit monitor: every joint's level, kept current, and when to publish it.

Pure Python and numpy. The node calls :meth:`LimitDiagnostics.after_message` for each accepted
message and :meth:`LimitDiagnostics.on_tick` every :func:`schedule.tick_s` seconds, and publishes
:meth:`LimitDiagnostics.statuses` when either says so. The levels are those of
:mod:`monitors.levels`; what a status says is :mod:`monitors.tasks`; when to publish is
:mod:`schedule`, plus one rule of the monitor's own: a joint that goes STALE is published at its
own deadline (within one tick), not at the next period.

The effort, motion, arm, safety and self-collision monitors are configured and driven from here,
each through the one protocol of :mod:`monitors.sample`: ``configure(chain, settings)``, then
``judge(sample)`` per message while it is on; in a block, the figures that cost most are measured
for every message at once first (:meth:`LimitDiagnostics.ahead`), and the motion limits' and the
safety monitor's levels found for every message at once after
(:meth:`LimitDiagnostics.levels_ahead`), each handed to ``judge`` in the sample. The arm's state
they read (:class:`core.state.ArmState`) is made here, once per configuration, of what each
reads: the safety monitor's points, planes and axis, and the capsules' ends; ``~/safety`` is the
safety monitor's figures, then self-collision's (:attr:`LimitDiagnostics.figures`).

Times: ``now_ns`` is the node's clock (stamps, STALE ages); ``mono_ns`` is a monotonic clock
(the publication schedule).
"""

from dh_kinematics.core.state import PARTS
from dh_kinematics.node_logic.monitors import tasks
from dh_kinematics.node_logic.monitors.arm import ArmLimits
from dh_kinematics.node_logic.monitors.effort import EffortMonitor
from dh_kinematics.node_logic.monitors.levels import joint_levels, OK, STALE, Thresholds
from dh_kinematics.node_logic.monitors.motion import MotionLimits
from dh_kinematics.node_logic.monitors.safety import Safety
from dh_kinematics.node_logic.monitors.self_collision import SelfCollision
from dh_kinematics.node_logic.schedule import Schedule
import numpy as np


class LimitDiagnostics:
    """
    The levels of every joint, and the schedule of their publication.

    Parameters
    ----------
    cache : JointStateCache
        The last joint values; its ``received`` count feeds the arm's status.
    start_ns : int
        Monotonic time the joint_states rate is counted from, ns.

    Attributes
    ----------
    efforts : EffortMonitor
        The effort levels, which the statuses combine with the limit levels.
    motion : MotionLimits
        The velocity, acceleration, effort-limit and soft-limit levels, likewise.
    arm : ArmLimits
        The tool-speed and singularity levels, each a status of its own.
    safety : Safety
        What a cobot's safety controller watches, each a status of its own.
    self_collision : SelfCollision
        How near the arm comes to itself, a status of its own.
    state : ArmState
        What every monitor reads of a message, made of what each reads.

    """

    def __init__(self, cache, start_ns=0):
        self._cache = self._live = cache
        self.efforts = EffortMonitor(len(cache.names))
        self.motion = MotionLimits(len(cache.names))
        self.arm = ArmLimits()
        self.safety = Safety()
        self.self_collision = SelfCollision()
        self.levels = None  # list of int, per joint
        self._any_stale = True
        self._check_all_ns = 0
        self._schedule = Schedule()
        self._rate = tasks.MessageRate(start_ns)
        self._judging = ()  # the monitors that are on

    def configure(self, chain, settings):
        """
        Take the model (:class:`Chain`) and the node's settings (SI units), checked already.

        The joint levels and every monitor take them the same way: ``configure(chain,
        settings)``.
        """
        margin, band = settings['diagnostics.warn_margin'], settings['diagnostics.hysteresis']
        timeout, period = settings['diagnostics.stale_timeout'], settings['diagnostics.period']
        safety, near = self.safety, self.self_collision
        monitors = (self.efforts, self.motion, self.arm, safety, near)
        for monitor in monitors:
            monitor.configure(chain, settings)
        self._judging = tuple(monitor for monitor in monitors if monitor.active)
        self.state = safety.state_with(near.points)
        safety.use(self.state)
        self.arm.use(self.state)
        near.use(self.state, len(safety.points.links))
        self._parts = {}
        self._lower, self._upper = np.asarray(chain.qlim).T
        self._thresholds = Thresholds(self._lower, self._upper, margin, band)
        self._every = tuple(range(len(self._lower)))  # every joint, in model order
        self._all_ok = [OK] * len(self._lower)
        self._margin, self._band = margin, band
        self._timeout, self._timeout_ns = timeout, int(timeout * 1e9)
        self._schedule.period_ns = int(period * 1e9)
        self._check_all_ns = 0  # limits, margin or timeout may have changed

    def show(self, row=None):
        """
        Judge and describe what follows by a cache ``row`` (:meth:`JointStateCache.row`).

        A block's message is judged by the row the cache showed after it; None: the cache as it
        is now (one message at a time, the ticks).
        """
        self._cache = self._live if row is None else row

    def _set_all(self, now_ns):
        """Recompute every joint's level; return whether one changed."""
        levels = joint_levels(self._cache, self._lower, self._upper, self._margin,
                              self._timeout, now_ns, self.levels, self._band)
        previous, self.levels = self.levels, levels.tolist()
        changed = self.levels != previous
        self._any_stale = STALE in self.levels
        # No joint that is fresh now can go stale before this.
        fresh = self._cache.received_ns[levels != STALE]
        self._check_all_ns = fresh.min() + self._timeout_ns if len(fresh) else float('inf')
        return changed

    @property
    def takes_usual(self):
        """
        Whether the usual message may skip the monitors (:meth:`unchanged_by` judges it).

        Not while the effort monitor, the arm's limits or the safety monitor are on, or
        accelerations, jerks or soft limits are watched: they need every message's full values.
        """
        motion = self.motion
        return not (self.efforts.active or self.arm.active or self.watches_figures
                    or (motion.active and not motion.shortcut))

    def judges_efforts(self, update):
        """Tell whether the effort monitor judges this update (it is on, the update has some)."""
        return self.efforts.active and bool(update.efforts)

    @property
    def watches_figures(self):
        """Whether a monitor of ``~/safety``'s figures is on (safety, self-collision)."""
        return self.safety.active or self.self_collision.active

    @property
    def figures(self):
        """Return a :data:`monitors.sample.Figure` per value of :meth:`topic_values`."""
        return self.safety.figures + self.self_collision.figures

    @property
    def labels(self):
        """Return the names of :meth:`topic_values`, in order."""
        return tuple(figure.label for figure in self.figures)

    @property
    def figures_measured(self):
        """Whether the last message's figures are its own (every position and rate known)."""
        return self.safety.measured

    def topic_values(self):
        """Return the last message's figures, flat, for ``~/safety`` (SI units)."""
        return self.safety.topic_values() + self.self_collision.topic_values()

    def figure_levels(self):
        """Return the level of the status that judges each of :attr:`figures` (OK: none)."""
        levels = {**self.safety.levels, **self.self_collision.levels}
        return [levels.get(figure.task, OK) for figure in self.figures]

    def state_parts(self, measure=False, safety=False, jacobian=False):
        """
        Return the parts of :attr:`state` the monitors that are on read (a tuple, maybe empty).

        ``measure`` and ``safety``: ``~/manipulability`` and ``~/safety`` are wanted;
        ``jacobian``: the tool's Jacobian is wanted besides (the tool wrench).
        """
        key = (measure, safety, jacobian)
        parts = self._parts.get(key)
        if parts is None:
            wanted = set(self.safety.parts) if self.safety.active or safety else set()
            wanted.update(self.self_collision.parts)
            if self.arm.active or measure or jacobian:
                wanted.add('jacobian')
            parts = self._parts[key] = tuple(part for part in PARTS if part in wanted)
        return parts

    def ahead(self, Q, QD, rows, measure=False, safety=False):
        """
        Return the figures that cost most at each of a block's configurations, at once.

        ``Q`` and ``QD`` (m, n): the configurations (rad or m) and rates (per s); ``rows`` (m,
        :attr:`ArmState.size`): the arm's state there (:attr:`state`, at least
        :meth:`state_parts`). A dict per configuration, by monitor, for the monitors to judge
        (:data:`monitors.sample.Sample`'s ``figures``): the arm's judged measures and the tool's
        speed where it is on, every measure where ``~/manipulability`` wants them
        (``measure``, :meth:`ArmLimits.ahead`); self-collision's while
        it is on; the safety monitor's costly ones where ``~/safety`` wants them (``safety``),
        as its judging half measures them only where a level needs them.
        """
        figures = [{} for _ in rows]
        if self.arm.active or measure:
            state = self.state
            J = np.asarray(rows)[:, state.jacobian].reshape(len(rows), 6, -1)
            for each, value in zip(figures, self.arm.ahead(J, QD, measure)):
                each['arm'] = value
        if self.self_collision.active:
            for each, value in zip(figures, self.self_collision.ahead(rows)):
                each['self_collision'] = value
        if safety and self.safety.active:
            for each, value in zip(figures, self.safety.ahead(Q, QD, rows)):
                each['safety'] = value
        return figures

    def levels_ahead(self, samples):
        """
        Return the levels the monitors find of a block's samples, judged at once.

        The samples in order, each with :meth:`ahead`'s figures where measured. A dict per
        sample, by monitor (``'motion'``, ``'safety_levels'``), of what each monitor that
        judges a block at once (:meth:`MotionLimits.levels_ahead`,
        :meth:`Safety.levels_ahead`) takes back when it judges the sample; None where none
        does.
        """
        found = {}
        for name, monitor in (('motion', self.motion), ('safety_levels', self.safety)):
            each = monitor.levels_ahead(samples) if monitor in self._judging else None
            if each is not None:
                found[name] = each
        return [dict(zip(found, values)) for values in zip(*found.values())] if found else (
            [None] * len(samples))

    @property
    def needs_configuration(self):
        """Whether a monitor judges the whole configuration (the arm's limits, the figures)."""
        return self.arm.active or self.watches_figures

    def needs_rates(self, update):
        """Tell whether a monitor judges the joint rates estimated from this update."""
        motion = self.motion
        return (self.judges_efforts(update) or self.arm.watch_speed or self.watches_figures
                or (motion.active and (not motion.shortcut or (
                    update.velocities != update.positions and motion.watches('velocity')))))

    def after_message(self, joints, q, notes, now_ns, mono_ns, sample=None):
        """
        Take the joints an accepted message set (indices, positions); tell whether to publish.

        Only those joints are checked, unless one was STALE, a value was non-finite, or some
        joint may have gone stale since the last full check. The monitors that are on judge
        ``sample`` (a :data:`monitors.sample.Sample` of the whole message), and the arm finds its
        measures when the sample asks for them (:attr:`ArmLimits.measured`).
        """
        monitors_changed = False
        if sample is not None:
            for monitor in self._judging:
                monitors_changed = monitor.judge(sample) or monitors_changed
            if sample.measure and not self.arm.active:
                self.arm.judge(sample)
            if sample.safety and not self.safety.active:
                self.safety.judge(sample)
        levels = self.levels
        if (levels is None or now_ns >= self._check_all_ns
                or (self._any_stale and any(levels[j] == STALE for j in joints))
                or (notes and any(note.startswith('non_finite') for note in notes))):
            changed = self._set_all(now_ns)
        else:
            new = self._thresholds.levels(joints, q, levels)
            changed = (new != levels if joints == self._every
                       else any(levels[j] != level for j, level in zip(joints, new)))
            if changed:
                levels = list(levels)
                for j, level in zip(joints, new):
                    levels[j] = level
                self.levels = levels
        return (changed or monitors_changed) and self._schedule.force(mono_ns)

    def unchanged_by(self, q, now_ns, velocities=(), efforts=()):
        """
        Tell whether a message setting every joint to finite ``q`` changes no level.

        ``velocities`` and ``efforts`` are the message's (every joint, or empty). When it tells
        so, :meth:`after_message` would return False and change nothing: no full check is due,
        no joint is STALE, every level stays, and the velocity and effort limits are quiet
        (their values stored, :meth:`MotionLimits.quiet`).
        """
        levels = self.levels
        if levels is None or now_ns >= self._check_all_ns or self._any_stale:
            return False
        if not ((levels == self._all_ok and self._thresholds.quiet(q))  # the usual case
                or self._thresholds.levels(self._every, q, levels) == levels):
            return False
        motion = self.motion
        return not motion.active or bool(velocities) and motion.quiet(velocities, efforts)

    def joint_levels(self):
        """Return every joint's worst level: its position's, its effort's and its motion's."""
        return np.maximum.reduce([np.asarray(self.levels or 0), self.efforts.levels,
                                  np.asarray(self.motion.levels)]).tolist()

    def status_levels(self, now_ns):
        """
        Return the level of each status :meth:`statuses` would return, by task, in its order.

        Without their messages: what a change of level is found by, cheaply.
        """
        if self.levels is None:
            self._set_all(now_ns)
        efforts, motion, arm = self.efforts, self.motion, self.arm
        levels = {name: tasks.joint_level(j, level, efforts, motion)
                  for j, (name, level) in enumerate(zip(self._cache.names, self.levels))}
        for task, watched in (('tool_speed', arm.watch_speed),
                              ('singularity', arm.watch_singularity)):
            if watched:
                levels[task] = arm.levels[task]
        levels.update(self.safety.levels)
        levels.update(self.self_collision.levels)
        levels['arm'] = tasks.arm_level(levels.values())
        return levels

    def snapshot(self):
        """Return every level the monitors keep, cheaply: what a change of status shows in."""
        return (tuple(self.levels or ()), tuple(self.efforts.levels.tolist()),
                tuple(self.motion.levels), tuple(self.arm.levels.items()),
                tuple(self.safety.levels.items()), tuple(self.self_collision.levels.items()))

    def clock_jumped(self):
        """
        Restart every deadline after the node's clock jumped back (a bag loop, a sim reset).

        The cache has restarted each joint's stale timer at the new time; the next message or
        tick then checks every joint against it (else the old deadline, later by the jump,
        would keep a joint that stopped OK that much longer). The effort holds restart too.
        """
        self._check_all_ns = 0
        self.efforts.restart_holds()

    def on_tick(self, now_ns, mono_ns):
        """Tell whether to publish now: a pending change, a joint gone stale, or the period."""
        if self.levels is None or now_ns >= self._check_all_ns:
            if self._set_all(now_ns) and self._schedule.force(mono_ns):
                return True
        return self._schedule.due(mono_ns)

    def hold(self):
        """Keep a due publication pending: nobody subscribes yet (the next tick retries)."""
        self._schedule.hold()

    pending = property(lambda self: self._schedule.pending,
                       doc='Whether a change waits to be published.')

    def statuses(self, now_ns, mono_ns, only=None):
        """
        Return the statuses to publish now (each joint, then the arm); note the publication.

        ``only``: the tasks wanted (a set; :meth:`status_levels` names them), or all; the arm's
        summary reads every status that is not OK (an OK one adds nothing to it), so only those
        and the wanted are built.
        """
        if self.levels is None:
            self._set_all(now_ns)
        self._schedule.published(mono_ns)
        cache, efforts, motion = self._cache, self.efforts, self.motion
        every = only is None or 'arm' in only
        built = only
        if only is not None and every:
            built = set(only) | {task for task, level in self.status_levels(now_ns).items()
                                 if level != OK}
        statuses = [tasks.joint_status(cache, j, level, self._lower, self._upper,
                                       self._margin, now_ns, efforts, motion, self._band)
                    for j, level in enumerate(self.levels)
                    if built is None or cache.names[j] in built]
        statuses += (self.arm.statuses(built) + self.safety.statuses(built)
                     + self.self_collision.statuses())
        if every:
            rate = self._rate.rate(cache.received, mono_ns, self._schedule.period_ns // 2)
            statuses.append(tasks.arm_status(statuses, cache.received, rate,
                                             cache.dropped_total(), cache.counts,
                                             efforts.contact() if efforts.active else None))
        return statuses if only is None else [status for status in statuses
                                              if status.task in only]
