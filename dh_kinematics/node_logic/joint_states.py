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
What the node does with each joint_states message and each tick, without ROS.

:meth:`JointStatesFlow.handle` takes the serialized bytes of one message, as rclpy hands them
over, and returns what to publish: the TF of the links it moved, the friction of the joints it
gave a velocity, the gravity torques, expected efforts and effort residuals, each only where
wanted (:attr:`JointStatesFlow.wanted`: someone subscribes), and whether the diagnostics are
due. The path, in order:

1. the clock: no /clock yet under sim time drops the message ('no_clock'); a clock that
   jumped back restarts the stamp checks;
2. decoding: :class:`cdr.JointStateReader`, or the middleware's decoder for what is not plain
   CDR; undecodable bytes are dropped ('malformed');
3. :meth:`JointStateCache.update`: every check of names, lengths, stamps and values;
4. :class:`StreamMath`: link poses and friction, if wanted, leaving out what overflowed;
5. the dynamics, only where wanted (:attr:`JointStatesFlow.wanted`) or a monitor needs them
   (:meth:`LimitDiagnostics.needs_rates`): gravity torques once every joint has a position;
   the momentum observer's external torques (:class:`MomentumObserver`) for a message with
   every joint's position, velocity and effort, and the tool wrench that explains them;
   expected efforts once :class:`RateEstimate` also has every velocity and acceleration;
   residuals for the joints whose effort the message carried;
6. :meth:`LimitDiagnostics.after_message`, given the message's :data:`monitors.sample.Sample`:
   each monitor that is on judges it (:class:`EffortMonitor`, :class:`MotionLimits`,
   :class:`ArmLimits`), then the joint levels, and whether to publish them.

A block of messages and ticks (:meth:`JointStatesFlow.handle_block`: a replay's thousands, the
node's ``monitors.block_period``) goes the same way in passes: its plain-CDR messages read, and
the observer's momentum terms of those with every joint in model order computed at once; steps
1 to 5 for each message, the cache's row (:meth:`JointStateCache.row`) and the rates kept after
each, the model's torques left waiting; those torques at once; the arm's state of every message
at once (:meth:`ArmState.columns`), with the figures that cost most
(:meth:`LimitDiagnostics.ahead`: the arm's singular values and the tool's speed,
self-collision's closest pair; every safety figure where ``~/safety`` is wanted); the levels
of the motion limits and, with its figures, of the safety monitor, each a column through the
levels' machine (:meth:`LimitDiagnostics.levels_ahead`, from :data:`LEVELS_FROM` messages);
then step 6 and the ticks in turn, each by its row, those monitors taking the levels found.
Each pass runs on numpy columns of the same compiled code from :data:`COLUMNS_FROM` messages
on, one at a time below. Each event has the result it would have alone, to the rounding of
numpy's sine against math's. A block takes every message the full way.

The usual message (every joint in model order, a newer stamp, finite values, every limit level
unchanged, no dynamics wanted) takes a shorter way to the same result in steps 3 to 6,
:meth:`JointStatesFlow._take_usual`, which returns its TF and friction already serialized
(:data:`Usual`), filled into the messages' templates (:attr:`JointStatesFlow.templates`). It
saves 7 to 9 µs of the 14 to 16 µs per message of the Panda with velocity limits, in process
(``bench/short_ways.py``, 2026-11-28). The flow publishes nothing: the node publishes what it
returns. Warnings go to ``warn``, at most one per kind every ``LOG_EVERY_S`` seconds.
"""

from collections import namedtuple
import gc
import math
from time import monotonic_ns

from dh_kinematics.core.state import PARTS
from dh_kinematics.node_logic import cdr
from dh_kinematics.node_logic.joint_math import StreamMath
from dh_kinematics.node_logic.joint_state_cache import JointStateCache, MAX_UNKNOWN_NAMES
from dh_kinematics.node_logic.limit_diagnostics import LimitDiagnostics
from dh_kinematics.node_logic.momentum_observer import (
    in_frame, MomentumObserver, tool_wrench, wrench_deviation)
from dh_kinematics.node_logic.monitors.sample import Sample
from dh_kinematics.node_logic.rate_estimate import MAX_RATE, RateEstimate
from dh_kinematics.node_logic.tf_rate import TfRate
from dh_kinematics.parameters.rules import per_joint
import numpy as np

LOG_EVERY_S = 5.0
COLUMNS_FROM = 8
"""A block's states are measured as columns from this many messages on: on the Panda with every
monitor, self-collision and output, 1310 µs a message one at a time (:meth:`handle`), 1471 in
blocks of 7 (each state alone), 849 in blocks of 8, 666 in blocks of 1000 (``bench/blocks.py``,
2026-11-29)."""
LEVELS_FROM = 32
"""A block's monitors find their levels as columns from this many messages on
(:meth:`LimitDiagnostics.levels_ahead`): on the Panda with every monitor, self-collision and
output, the levels' part of judging took 238 µs a message in blocks of 10 with the columns, 109
without; 114 and 108 in blocks of 20; 90 and 103 in blocks of 50; 60 and 109 in blocks of 1000
(2026-11-30)."""
LOGGED_NAME = 64
"""A joint name from a message is logged up to this many characters."""
_LOG_EVERY_NS = int(LOG_EVERY_S * 1e9)

Outcome = namedtuple('Outcome', 'tf friction gravity expected residual diagnostics '
                     'manipulability safety external wrench taken',
                     defaults=(None,) * 4 + (True,))
Outcome.__doc__ = """What to publish for one message.

tf : (joints, stamp_ns, poses) or None
    Joint indices, the stamp in ns and 7 floats per joint (:meth:`StreamMath.finite_poses`).
friction : (joints, stamp_ns, torques) or None
    Joint indices, the stamp and the friction torque (N m) or force (N) of each.
gravity, expected : (joints, stamp_ns, efforts) or None
    Every joint, the stamp and its gravity torque or expected effort (N m or N), if wanted.
residual : (joints, stamp_ns, residuals) or None
    The joints whose effort the message carried: measured - expected (N m or N), if wanted.
diagnostics : bool
    Whether the diagnostics are due now.
manipulability : (stamp_ns, values) or None
    :data:`monitors.arm.MEASURES` and the tool's speed (m/s) at the whole configuration, if
    wanted; never for a message dropped.
safety : (stamp_ns, values) or None
    :meth:`LimitDiagnostics.topic_values` (named by its ``labels``), if wanted; never for a
    message dropped.
external : (joints, stamp_ns, torques) or None
    Every joint, the stamp and the observer's external torque (N m or N), if wanted.
wrench : (stamp_ns, values, deviation) or None
    The force (N) and moment (N m) at the tool point that explain the external torques,
    ``[fx, fy, fz, mx, my, mz]`` in the base frame (:func:`tool_wrench`), if wanted, and each
    axis's standard deviation (:func:`wrench_deviation`, from ``effort.velocity_noise`` and
    ``effort.effort_noise``), or None where they are not set.
taken : bool
    Whether the cache took anything of the message (False: dropped whole, and counted).
"""
NOTHING = Outcome(None, None, None, None, None, False, taken=False)
Verdict = namedtuple('Verdict', 'stamp_ns positions velocities accelerations jerks efforts '
                     'residuals external levels safety safety_levels')
Verdict.__doc__ = """One message as the flow took and judged it: :meth:`JointStatesFlow.verdict`.

stamp_ns : int
    The stamp the message was taken at (its own; the node's clock for a zero stamp).
positions, velocities, accelerations, jerks, efforts : list of float
    Every joint's last position (rad or m), estimated rates (per s, per s^2, per s^3) and
    last effort (N m or N); NaN where not known.
residuals, external : list of float
    Every joint's effort residual and the observer's external torque (N m or N) on this
    message; NaN where there is none.
levels : list of int
    Every joint's worst level: its position's, its effort's, its motion's.
safety : list of float or None
    The values of ``~/safety`` (:attr:`LimitDiagnostics.figures`), where it is wanted, a
    monitor of its figures is on and they were measured this message.
safety_levels : list of int or None
    Each of those values' status level.
"""
_Taken = namedtuple('_Taken', 'update joints q notes tf friction gravity expected residual '
                    'efforts external configuration qd wrenched now_ns mono_ns torques')
_Taken.__doc__ = """A message as :meth:`JointStatesFlow._take` took it, for the monitors to judge.

``joints``, ``q`` and ``notes`` are what :meth:`LimitDiagnostics.after_message` takes; the
outputs are :data:`Outcome`'s; ``efforts`` the effort monitor's; ``configuration`` and ``qd``
where the arm's state is measured (every rate 0 while one is unknown), else None; ``wrenched``
whether the tool wrench is wanted of it; ``torques`` a :data:`_Torques` the model's torques wait
on (:meth:`JointStatesFlow._with_torques`), else None.
"""
Usual = namedtuple('Usual', 'tf friction')
Usual.__doc__ = """What to publish for the usual message: nothing else is due.

tf, friction : bytes or None
    The serialized TFMessage of every joint's frame and JointState of every joint's friction,
    where wanted (and, for the TF, due under ``tf.max_rate``).
"""
Wanted = namedtuple('Wanted', 'gravity expected residual tf friction manipulability safety '
                    'external wrench', defaults=(True, True, False, False, False, False))
Wanted.__doc__ = """Which outputs someone subscribes to (bools); TF and friction by default."""
NONE_WANTED = Wanted(False, False, False)
_Templates = namedtuple('_Templates', 'tf friction')
NO_DYNAMICS = (None,) * 3
_Torques = namedtuple('_Torques', 'q qd qdd gravity update judged observable judging')
_Torques.__doc__ = """The model's torques a message waits on: at ``q`` (rad or m), with ``qd`` and
``qdd`` (per s, per s^2; ``qd`` None: gravity alone), the gravity torques if ``gravity``; the
rest is what turns them into its expected efforts and residuals."""


def _shown(name):
    """Return a name from a message as logged: quoted, and cut to LOGGED_NAME characters."""
    if len(name) <= LOGGED_NAME:
        return repr(name)
    return f'{name[:LOGGED_NAME]!r}... ({len(name)} characters)'


class JointStatesFlow:
    """
    The node's joint_states logic for one model: cache, arithmetic and limit monitor.

    Parameters
    ----------
    joint_names : sequence of str
        The model's joints (fixed for the node's life).
    decode : callable
        ``decode(data) -> (stamp_ns, names, positions, velocities)`` for bytes that are not
        plain CDR; raises ValueError when they cannot be decoded.
    warn : callable
        Takes one warning text.
    start_ns : int
        Monotonic time, ns, the message rate is counted from.

    """

    def __init__(self, joint_names, decode, warn, start_ns):
        self.cache = JointStateCache(joint_names)
        self.limits = LimitDiagnostics(self.cache, start_ns)
        self._reader = cdr.JointStateReader()
        self._decode, self._warn = decode, warn
        self._last_now_ns = self._stamp_ns = 0
        self._after = None  # in a block: the event judged, (cache row, rates, stamp)
        self._terms = None  # in a block: the observer's terms ahead for the message taken
        self._last_warned = {}
        self.rates = RateEstimate(len(self.cache.names))
        self.tf_rate = TfRate(len(self.cache.names))
        self.observer = MomentumObserver()
        self._observing = False
        self._motion_fresh = True
        self._wanted = NONE_WANTED
        self._templates = None
        self._math = None
        # The templates and publishers of the usual message, or None while there is no
        # shorter way (:meth:`_bind_usual`).
        self._usual = None

    @property
    def wanted(self):
        """Which outputs someone subscribes to: a :data:`Wanted`."""
        return self._wanted

    @wanted.setter
    def wanted(self, wanted):
        self._wanted = wanted
        self._bind_usual()

    @property
    def templates(self):
        """
        Return the usual message's templates: a callable, or None (no shorter way).

        ``templates(joints)`` returns ``(tf, efforts)``: the
        :class:`message_template.Template` of the TFMessage of those joints' frames and of a
        JointState of their efforts, or None where there is none.
        """
        return self._templates

    @templates.setter
    def templates(self, templates):
        self._templates = templates
        self._bind_usual()

    def configure(self, chain, settings):
        """Take a model (:class:`Chain`) and the node's settings (a dict, SI units)."""
        self._joint_names = chain.joint_names
        self._all_joints = tuple(range(chain.n))
        self._math = StreamMath(chain)
        self.cache.future_tolerance_ns = int(settings['future_stamp_tolerance'] * 1e9)
        self.limits.configure(chain, settings)
        self.rates.configure(settings['effort.acceleration_cutoff'])
        self.tf_rate.configure(settings['tf.max_rate'])
        if self.observer.restart():
            self._observer_restarted('the model or the settings changed', monotonic_ns())
        self.observer.configure(chain, settings['effort.observer_gain'],
                                settings['diagnostics.stale_timeout'])
        self._observing = settings['effort.estimator'] == 'observer'
        self._R_world_base = chain.base[:3, :3].copy()
        noise = [per_joint(settings[name], chain.n)
                 for name in ('effort.velocity_noise', 'effort.effort_noise')]
        self._noise = noise if all(map(math.isfinite, sum(noise, []))) else None
        self._inertia = chain.inertia
        self._bind_usual()

    def _bind_usual(self):
        """
        Bind what the usual message needs for the present model, outputs and templates.

        Once per change of any of them, never per message: the templates for every joint.
        No shorter way while the dynamics, ``~/manipulability``, ``~/safety`` or the external
        torques are wanted, the
        effort monitor, the arm's limits or the safety monitor are on, or accelerations or soft
        limits are watched (they need the full path), without templates, or where a template
        cannot be made. Velocity and effort limits keep it.
        """
        wanted, templates, self._usual = self._wanted, self._templates, None
        if (templates is None or self._math is None or wanted.gravity or wanted.expected
                or wanted.residual or wanted.manipulability or wanted.safety
                or wanted.external or wanted.wrench or not self.limits.takes_usual):
            return
        tf, friction = templates(self._all_joints)
        if (wanted.tf and tf is None) or (wanted.friction and friction is None):
            return
        self._usual = _Templates(tf if wanted.tf else None,
                                 friction if wanted.friction else None)
        self.observer.restart()  # unused on the usual way: start afresh when someone asks

    def warn(self, key, text, mono_ns, counts=True):
        """Warn, at most once per ``key`` every LOG_EVERY_S; with the counts if ``counts``."""
        last = self._last_warned.get(key)
        if last is None or mono_ns - last >= _LOG_EVERY_NS:
            self._last_warned[key] = mono_ns
            self._warn(text + (f' (counts: {dict(self.cache.counts)})' if counts else ''))

    def _clock(self, now_ns, mono_ns):
        """
        Follow the node's clock; return whether it jumped back.

        After a jump back the stamp checks, the rates and the observer restart here; the
        limits' deadlines restart when the event is judged (:meth:`LimitDiagnostics.clock_jumped`).
        """
        jumped = now_ns < self._last_now_ns
        if jumped:
            self.cache.reset_stamps(now_ns)
            self.rates.reset()
            self.tf_rate.reset()
            if self.observer.restart():
                self._observer_restarted('the clock jumped back', mono_ns)
            self.warn('clock_jump', 'the clock jumped back; accepting older stamps from now on',
                      mono_ns)
        self._last_now_ns = now_ns
        return jumped

    def _decode_other(self, data, mono_ns):
        """Return the fields of a message that is not plain CDR, or None if it is malformed."""
        try:
            return self._decode(data)
        except ValueError:
            self.cache.drop('malformed')
            self.warn('malformed', 'dropped a joint_states message: malformed '
                      '(undecodable bytes)', mono_ns)
            return None

    def handle(self, data, now_ns, mono_ns):
        """
        Take one serialized JointState; return what to publish: :data:`Outcome` or :data:`Usual`.

        ``now_ns`` is the node's clock (0 under sim time before /clock starts), ``mono_ns`` a
        monotonic one, both in ns. For the usual message, :data:`Usual`: its TF and friction
        serialized.
        """
        if self._clock(now_ns, mono_ns):
            self.limits.clock_jumped()
        fields = self._fields(data, now_ns, mono_ns)
        if fields is None:
            return NOTHING
        if self._usual is not None:
            usual = self._take_usual(fields, now_ns)
            if usual is not None:
                return usual
        taken, = self._with_torques([self._take(fields, now_ns, mono_ns)])
        return self._judge(taken, self.rates, *self._state(taken))

    def handle_block(self, events, each=None):
        """
        Take a block of events in order, messages and ticks; return each one's result.

        ``events``: ``(data, now_ns, mono_ns)`` each, as :meth:`handle` takes them; ``data``
        None is a tick (:meth:`tick`). A message's result is its :data:`Outcome`, a tick's
        whether the diagnostics are due. ``each(k, result)``, where given, is called once
        event ``k`` is judged, while :meth:`verdict` and :meth:`statuses` show the flow as it
        was after that event.

        Every event has the result it would have alone, in the same order: the cache, the
        rates and the dynamics take the messages first, each message's cache row
        (:meth:`JointStateCache.row`) and rates kept; the arm's state is then measured for
        the whole block at once; the monitors judge each message after, by its row.

        Python's cyclic garbage collector waits until the block is judged: a block keeps each
        message's values until then, and the collector's passes over them took 70 to 100 µs
        a message of about 550 in blocks of 1000 (``bench/blocks.py``'s messages, timed by
        ``gc.callbacks``, 2026-11-30). What the flow frees, it frees at once (no cycles).
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._block(events, each)
        finally:
            if collecting:
                gc.enable()

    def _block(self, events, each):
        """Return :meth:`handle_block`'s results, the collector waiting."""
        kept = []
        try:
            for (data, now_ns, mono_ns), read, terms in zip(events, *self._read(events)):
                jumped, taken = self._clock(now_ns, mono_ns), None
                if data is not None:
                    fields = read or self._fields(data, now_ns, mono_ns)
                    if fields is not None:
                        self._terms = terms
                        taken = self._take(fields, now_ns, mono_ns)
                kept.append((jumped, taken, self.cache.row(), self.rates.rates(),
                             self._stamp_ns))
        finally:
            self._terms = None
        finished = iter(self._with_torques([taken for _, taken, *_ in kept if taken is not None]))
        kept = [(jumped, None if taken is None else next(finished), *rest)
                for jumped, taken, *rest in kept]
        judged = [(taken, rates) for _, taken, _, rates, _ in kept if taken is not None]
        states = iter(self._states([taken for taken, _ in judged],
                                   [rates for _, rates in judged]))
        results, limits = [], self.limits
        try:
            for k, ((jumped, taken, row, rates, stamp_ns), (data, now_ns, mono_ns)) in (
                    enumerate(zip(kept, events))):
                limits.show(row)
                self._after = (row, rates, stamp_ns)
                if jumped:
                    limits.clock_jumped()
                if data is None:
                    result = limits.on_tick(now_ns, mono_ns)
                elif taken is None:
                    result = NOTHING
                else:
                    result = self._judge(taken, rates, *next(states))
                results.append(result)
                if each is not None:
                    each(k, result)
        finally:
            limits.show(None)
            self._after = None
        return results

    def _read(self, events):
        """
        Return the fields of a block's plain-CDR messages, and the observer's terms ahead.

        Each event's fields (None for a tick, a message under sim time before /clock starts,
        or one not plain CDR: :meth:`_fields` takes those), and where the observer is on, its
        terms (:meth:`MomentumObserver.terms_of`) at each message of every joint in model
        order, all finite: ``(q, qd, terms)``, else None. Over columns from
        :data:`COLUMNS_FROM` such messages, else none ahead.
        """
        fields = []
        for data, now_ns, _ in events:
            read = None
            if data is not None and now_ns != 0:
                try:
                    read = self._reader.read(data)
                except ValueError:  # not plain CDR
                    pass
            fields.append(read)
        terms = [None] * len(events)
        if not self._observing:
            return fields, terms
        n, names = len(self._joint_names), tuple(self._joint_names)
        whole = [k for k, each in enumerate(fields) if each is not None and each[1] == names
                 and len(each[2]) == len(each[3]) == len(each[4]) == n]
        if len(whole) >= COLUMNS_FROM:
            Q, QD = (np.array([fields[k][kind] for k in whole]) for kind in (2, 3))
            finite = np.isfinite(Q).all(axis=1) & np.isfinite(QD).all(axis=1)
            whole = [k for k, ok in zip(whole, finite.tolist()) if ok]
            with np.errstate(all='ignore'):  # huge values: the observer restarts on them
                found = self.observer.terms_of(Q[finite], QD[finite]) if whole else ()
            for k, each in zip(whole, found):
                terms[k] = (fields[k][2], fields[k][3], each)
        return fields, terms

    def _fields(self, data, now_ns, mono_ns):
        """Return the fields of a serialized JointState, or None where it is dropped whole."""
        if now_ns == 0:  # sim time, and no /clock yet: nothing to judge stamps by
            if not self.cache.counts['no_clock']:  # said once
                self._warn('joint_states: dropped (no_clock) until /clock starts, as '
                           'use_sim_time is true; they are counted in the diagnostics')
            self.cache.drop('no_clock')
            return None
        try:
            return self._reader.read(data)
        except ValueError:  # not plain CDR: let the middleware decode it
            return self._decode_other(data, mono_ns)

    def _take_usual(self, fields, now_ns):
        """
        Take the usual message as :meth:`_take` would: return its :data:`Usual`, or None.

        The usual message is one the cache takes whole (:meth:`JointStateCache.whole`: the
        last message's names, every joint, a newer stamp within the tolerance, finite values,
        every velocity and effort or none), in model order, and changes no limit level; its
        poses and friction are finite. Then this is all that :meth:`_take` would do: serialize
        the TF and friction, and let the cache take the values. Any other message returns None
        before anything has changed, and :meth:`_take` takes it.
        """
        stamp_ns, names, positions, velocities, efforts = fields
        cache, usual = self.cache, self._usual
        whole = cache.whole(names, positions, velocities, stamp_ns, now_ns, efforts)
        if (whole is None or whole.rows is not None or not self._motion_fresh
                or not self.limits.unchanged_by(positions, now_ns, velocities, efforts)):
            return None
        tf = friction = None
        if usual.tf is not None and self.tf_rate.due(self._all_joints, stamp_ns):
            poses = self._math.every_pose(positions)
            if poses is None:
                return None
            tf = usual.tf.fill(stamp_ns, poses)
            self.tf_rate.published(self._all_joints, stamp_ns)
        if usual.friction is not None and velocities:
            torques = self._math.every_friction(velocities)
            if torques is None:
                return None
            friction = usual.friction.fill(stamp_ns, torques)
        cache.take_all(whole.index, positions, velocities, efforts, stamp_ns, now_ns)
        self._stamp_ns = stamp_ns
        return Usual(tf, friction)

    def _take(self, fields, now_ns, mono_ns):
        """
        Take one message's fields the full way, up to the monitors: a :data:`_Taken`.

        The cache, the TF and friction, the rates and the dynamics; :meth:`_judge` does the
        rest.
        """
        stamp_ns, names, positions, velocities, efforts = fields
        update = self.cache.update(names, positions, velocities, stamp_ns, now_ns, efforts)
        self._stamp_ns = update.stamp_ns
        if update.dropped or update.notes or update.new_unknown:
            self._report(update, names, mono_ns)
        notes, joints, moving = update.notes, update.positions, update.velocities
        tf = friction = None
        q = update.q
        wanted = self._wanted
        if joints and wanted.tf and self.tf_rate.due(joints, update.stamp_ns):
            joints, q, poses = self._math.finite_poses(joints, update.q)
            if len(joints) < len(update.positions):
                notes = self._non_finite_result(update.positions, joints, notes, mono_ns)
            if joints:
                tf = (joints, update.stamp_ns, poses)
                self.tf_rate.published(joints, update.stamp_ns)
        if moving and wanted.friction:
            moving, torques = self._math.finite_friction(moving, update.qd)
            if len(moving) < len(update.velocities):
                notes = self._non_finite_result((), (), notes, mono_ns)
            if moving:
                friction = (moving, update.stamp_ns, torques)
        external, efforts, torques = self._dynamics(update, joints, q, mono_ns)
        wrenched = wanted.wrench and external is not None
        configuration = (self._configuration() if self.limits.needs_configuration
                         or wanted.manipulability or wanted.safety or wrenched else None)
        qd = None
        if configuration is not None:
            qd = self.rates.qd
            qd = [0.0] * len(configuration) if None in qd else list(qd)
        return _Taken(update, joints, q, notes, tf, friction, None, None, None, efforts,
                      external, configuration, qd, wrenched, now_ns, mono_ns, torques)

    def _judge(self, taken, rates, state, jacobian, figures=None):
        """
        Judge a message :meth:`_take` took, at the arm's ``state`` there; return its Outcome.

        ``rates`` are the estimate after it; ``state`` and ``jacobian`` :meth:`_state`'s;
        ``figures`` what :meth:`LimitDiagnostics.ahead` measured of it, in a block.
        """
        update, external, wanted, limits = taken.update, taken.external, self._wanted, self.limits
        wrench = None
        if taken.wrenched:  # the wrench and its deviation in the base frame
            J_base, deviation = in_frame(jacobian, self._R_world_base), None
            if self._noise is not None:
                covariance = self.observer.covariance(self._inertia(taken.configuration),
                                                      *self._noise)
                deviation = wrench_deviation(J_base, covariance).tolist()
            wrench = (update.stamp_ns, tool_wrench(J_base, external[2]).tolist(), deviation)
        diagnostics = limits.after_message(
            taken.joints, taken.q, taken.notes, taken.now_ns, taken.mono_ns, Sample(
                update, rates, taken.configuration, taken.efforts, wanted.manipulability,
                wanted.safety, state, jacobian, figures))
        measures = safety = None
        ok = update.dropped is None  # a dropped message's figures would be the last one's
        if ok and wanted.manipulability and limits.arm.measured:
            arm = limits.arm
            measures = (update.stamp_ns, arm.measures + (arm.speed,))
        if ok and wanted.safety and limits.figures_measured:
            safety = (update.stamp_ns, limits.topic_values())
        return Outcome(taken.tf, taken.friction, taken.gravity, taken.expected, taken.residual,
                       diagnostics, manipulability=measures, safety=safety,
                       external=external if wanted.external else None, wrench=wrench,
                       taken=ok)

    def verdict(self, outcome):
        """
        Return what the flow took and judged of the message whose ``outcome`` it just returned.

        A :data:`Verdict`, for a message it took (:attr:`Outcome.taken`): what a replay's
        report reads of each message, and nothing else of the flow.
        """
        cache, rates, stamp_ns = self._after or (self.cache, self.rates, self._stamp_ns)
        limits, nan = self.limits, math.nan
        residuals, external = [nan] * len(cache.names), [nan] * len(cache.names)
        for estimates, found in ((residuals, outcome.residual), (external, outcome.external)):
            if found is not None:
                for j, value in zip(found[0], found[2]):
                    estimates[j] = value
        values = levels = None
        if limits.watches_figures and outcome.safety is not None:
            values, levels = outcome.safety[1], limits.figure_levels()
        return Verdict(stamp_ns, cache.positions.tolist(), *(
            [nan if value is None else value for value in estimate]
            for estimate in (rates.qd, rates.qdd, rates.qddd)), cache.efforts.tolist(),
            residuals, external, limits.joint_levels(), values, levels)

    def _parts(self, taken):
        """Return the parts of the arm's state read on a message :meth:`_take` took."""
        if taken.configuration is None:
            return ()
        wanted = self._wanted
        return self.limits.state_parts(wanted.manipulability, wanted.safety, taken.wrenched)

    def _state(self, taken):
        """
        Return the arm's state on a message :meth:`_take` took, and the tool's Jacobian there.

        Measured once for every monitor that is on and every output wanted
        (:meth:`LimitDiagnostics.state_parts`), at the message's configuration and estimated
        rates, or 0 for every rate while one is unknown; each None where nothing reads it.
        """
        parts = self._parts(taken)
        if not parts:
            return None, None
        state = self.limits.state
        row = state.one(taken.configuration, taken.qd, parts)
        return row, state.jacobian_of(row) if 'jacobian' in parts else None

    def _states(self, taken, rates):
        """
        Return :meth:`_state` of each of a block's messages, and its figures, at once.

        ``rates``: the estimate after each. Each ``(state, jacobian, figures)``: ``figures``
        what :meth:`LimitDiagnostics.ahead` measured of it and, from :data:`LEVELS_FROM`
        messages, the levels the monitors found of it (:meth:`LimitDiagnostics.levels_ahead`),
        by monitor, or None. Fewer than :data:`COLUMNS_FROM` messages one at a time, more as
        columns of the same source (:meth:`ArmState.columns`), with the parts any of them
        reads.
        """
        if len(taken) < COLUMNS_FROM:
            return [self._state(each) + (None,) for each in taken]
        measured = [each for each in taken if self._parts(each)]
        states = [(None, None, None)] * len(taken)
        if len(measured) >= COLUMNS_FROM:
            states = self._columns(taken, measured)
        elif measured:
            states = [self._state(each) + (None,) for each in taken]
        if len(taken) < LEVELS_FROM:
            return states
        found = self.limits.levels_ahead([
            Sample(each.update, after, each.configuration, None, False, figures=figures)
            for each, after, (_, _, figures) in zip(taken, rates, states)])
        return [(row, jacobian, figures if levels is None else dict(figures or {}, **levels))
                for (row, jacobian, figures), levels in zip(states, found)]

    def _columns(self, taken, measured):
        """Return :meth:`_states` of a block's messages, ``measured`` of them as columns."""
        parts = tuple(part for part in PARTS
                      if any(part in self._parts(each) for each in measured))
        state, wanted = self.limits.state, self._wanted
        Q, QD = [each.configuration for each in measured], [each.qd for each in measured]
        columns = state.columns(Q, QD, parts)
        measured = iter(zip(columns.tolist(), self.limits.ahead(
            Q, QD, columns, wanted.manipulability, wanted.safety)))
        states = []
        for each in taken:
            read = self._parts(each)
            row, figures = next(measured) if read else (None, None)
            states.append((row, state.jacobian_of(row) if 'jacobian' in read else None,
                           figures))
        return states

    def _dynamics(self, update, joints, q, mono_ns):
        """
        Return (external, efforts, torques) for one update.

        ``external`` is the observer's estimate, ``(joints, stamp_ns, torques)``; ``efforts``
        what the effort monitor judges (:data:`monitors.sample.Sample`); ``torques`` the
        :data:`_Torques` the rest waits on (:meth:`_with_torques`); each None where there is
        none.
        ``joints`` and ``q`` are the joints whose finite transform this message set, and their
        values: when that is every joint, in model order, ``q`` is the whole configuration.
        """
        wanted, limits, everyone = self._wanted, self.limits, self._all_joints
        judging = limits.judges_efforts(update)
        # The observer takes a message with every joint's velocity and effort; the residual
        # judges the others.
        observable = (self._observing and update.velocities == everyone
                      and update.efforts == everyone)
        moving = (wanted.expected or wanted.residual or wanted.manipulability or wanted.safety
                  or limits.needs_rates(update))
        if moving:
            self._motion_fresh = False
            implausible = self.rates.update(
                update.positions, update.q, update.stamp_ns,
                update.qd if update.velocities == update.positions
                else dict(zip(update.velocities, update.qd)))
            if implausible:
                self.cache.counts['implausible_rate'] += 1
                names = ', '.join(self._joint_names[j] for j in implausible)
                self.warn('implausible_rate', f'joint_states: {names}: a velocity beyond '
                          f'{MAX_RATE:g} rad/s or m/s, or not finite; the motion estimate of '
                          'these joints restarts', mono_ns)
        elif not self._motion_fresh:  # nobody asks: forget, so as not to use old samples later
            self.rates.reset()
            self._motion_fresh = True
        observing = observable and (judging or wanted.external or wanted.wrench)
        if observable and not observing:  # nobody asks: start afresh when someone does
            self.observer.restart()
        if not (moving or wanted.gravity or observing):
            return NO_DYNAMICS
        if joints != everyone:
            q = self._configuration()
            if q is None:
                return NO_DYNAMICS
        external = judged = None
        if observing:
            external, judged = self._observe(update, q, judging, mono_ns)
        # The model's efforts only where someone takes them, once the estimate is warm.
        expecting = ((wanted.expected or wanted.residual or (judging and not observable))
                     and moving and self.rates.ready())
        if not (expecting or wanted.gravity):
            return external, judged, None
        rates = self.rates
        return external, judged, _Torques(
            q, list(rates.qd) if expecting else None, list(rates.qdd), wanted.gravity, update,
            judged, observable, judging)

    def _with_torques(self, taken):
        """
        Return the messages :meth:`_take` took, each with the model's torques it waits on.

        The gravity torques, expected efforts and residuals (:data:`Outcome`'s) and the
        efforts the effort monitor judges: fewer than :data:`COLUMNS_FROM` messages of a kind
        one at a time, more as columns of the same code (:meth:`StreamMath.torques_of`).
        """
        taken, kinds = list(taken), {}
        for k, each in enumerate(taken):
            if each.torques is not None:
                kinds.setdefault((each.torques.gravity, each.torques.qd is None), []).append(k)
        for (gravity, at_rest), chosen in kinds.items():
            waiting = [taken[k].torques for k in chosen]
            if len(waiting) < COLUMNS_FROM:
                found = [self._math.torques(each.q, each.qd, each.qdd, gravity)
                         for each in waiting]
            else:
                found = self._math.torques_of(*(
                    None if at_rest and kind != 'q' else [getattr(each, kind) for each in waiting]
                    for kind in ('q', 'qd', 'qdd')), gravity)
            for k, wait, (torques, efforts) in zip(chosen, waiting, found):
                taken[k] = taken[k]._replace(torques=None, **self._from_torques(
                    wait, torques, efforts))
        return taken

    def _from_torques(self, wait, torques, efforts):
        """Return the fields of :data:`_Taken` that ``wait`` (:data:`_Torques`) waited on."""
        update, judged, judging, observable = wait.update, wait.judged, wait.judging, (
            wait.observable)
        wanted, everyone, stamp_ns = self._wanted, self._all_joints, update.stamp_ns
        gravity = None if torques is None else (everyone, stamp_ns, torques)
        if efforts is None:
            return {'gravity': gravity, 'expected': None, 'residual': None, 'efforts': judged}
        expected = (everyone, stamp_ns, efforts) if wanted.expected else None
        residual = None
        if update.efforts and (wanted.residual or (judging and not observable)):
            chosen = efforts if update.efforts == everyone else [
                efforts[j] for j in update.efforts]
            residuals = [value - model for value, model in zip(update.effort, chosen)]
            if wanted.residual:
                residual = (update.efforts, stamp_ns, residuals)
            if judging and not observable:
                judged = (update.efforts, update.effort, chosen, stamp_ns, residuals)
        return {'gravity': gravity, 'expected': expected, 'residual': residual,
                'efforts': judged}

    def _observe(self, update, q, judging, mono_ns):
        """
        Run the observer on a message of every joint at configuration ``q``.

        Return ``(external, judged)`` as :meth:`_dynamics` names them (None while the observer
        starts).
        """
        stamp_ns, ahead = update.stamp_ns, self._terms
        if ahead is not None and not (list(ahead[0]) == list(q)
                                      and list(ahead[1]) == list(update.qd)):
            ahead = None  # measured at other values: the cache's, or the message's reordered
        why = self.observer.update(stamp_ns, q, update.qd, update.effort,
                                   None if ahead is None else ahead[2])
        if why is not None:
            self._observer_restarted(why, mono_ns)
        estimate = self.observer.estimate
        if estimate is None:
            return None, None
        judged = ((self._all_joints, update.effort, None, stamp_ns, estimate, True)
                  if judging else None)
        return (self._all_joints, stamp_ns, estimate), judged

    def _observer_restarted(self, why, mono_ns):
        """Count and say a restart of the momentum observer."""
        self.cache.counts['observer_restart'] += 1
        self.warn('observer_restart', f'the momentum observer restarts: {why}; its estimate '
                  'starts again from 0', mono_ns)

    def _configuration(self):
        """Return every joint's last position (a list), or None while one is unknown."""
        cache = self.cache
        if cache.non_finite.any():  # no judgement while a joint's position is unknown
            self.rates.reset(cache.non_finite.nonzero()[0].tolist())
            return None
        q = cache.positions.tolist()
        if any(value != value for value in q):  # a joint without a position yet
            return None
        return q

    def _report(self, update, names, mono_ns):
        """Warn about what the cache dropped or ignored; name each unknown joint once."""
        for name in update.new_unknown:
            self._warn(f'joint_states: unknown joint {_shown(name)} ignored (the model has '
                       f'{", ".join(self._joint_names)})')
        if update.new_unknown and len(self.cache.unknown_names) >= MAX_UNKNOWN_NAMES:
            self._warn(f'joint_states: {MAX_UNKNOWN_NAMES} unknown joint names so far; further '
                       'ones are only counted (unknown_joint)')
        if update.dropped:
            detail = (f'names [{", ".join(_shown(name) for name in list(names)[:10])}] match '
                      f'none of the joints {list(self._joint_names)}'
                      if update.dropped == 'no_known_joint' else update.dropped)
            self.warn(update.dropped, f'dropped a joint_states message: {detail}', mono_ns)
        for note in update.notes:
            if note != 'unknown_joint':
                self.warn(note, f'joint_states: {note.replace("_", " ")}', mono_ns)

    def _non_finite_result(self, moved, kept, notes, mono_ns):
        """Treat joints whose transform or torque overflowed like non-finite positions."""
        for j in set(moved) - set(kept):
            self.cache.non_finite[j] = True
        if 'non_finite_result' not in notes:
            self.cache.counts['non_finite_result'] += 1
            self.warn('non_finite_result', 'joint_states: a value overflowed to inf or NaN; '
                      'left out of /tf and the friction torques', mono_ns)
            notes = notes + ('non_finite_result',)
        return notes

    def tick(self, now_ns, mono_ns):
        """Tell whether the limit diagnostics are due (call every :func:`schedule.tick_s` s)."""
        if self._clock(now_ns, mono_ns):
            self.limits.clock_jumped()
        return self.limits.on_tick(now_ns, mono_ns)

    def statuses(self, now_ns, mono_ns, only=None):
        """Return the limit statuses to publish now (each joint, then the arm), or ``only``'s."""
        return self.limits.statuses(now_ns, mono_ns, only)
