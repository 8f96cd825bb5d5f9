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
What a cobot's safety controller watches, judged on every message from joint_states alone.

Each is optional (off while its setting is unset or .inf) and a status of its own on
/diagnostics, counted in the arm's summary like a joint (:mod:`core.safety` computes them):

- ``frame_speed``: the linear speed of each frame of ``safety.frame_speed_limits.<frame>``
  (m/s), against its limit;
- ``momentum``: the arm's linear momentum, kg m/s, against ``safety.momentum_limit``;
- ``kinetic_energy``: ``1/2 qd^T M(q) qd``, J, against ``safety.kinetic_energy_limit``;
- ``power``: ``sum tau qd`` with the message's efforts, W, its size against
  ``safety.power_limit`` (not judged while the messages carry no efforts, and the status says
  so);
- ``stopping``: the time (s) and the tool's path (m) of a category-1 stop on the path from the
  present state, each joint braking at most at its deceleration limit (``deceleration_limit``,
  else ``acceleration_limit``), against ``safety.stopping_time_limit`` and
  ``safety.stopping_distance_limit``;
- ``planes``: the signed distance (m) of each frame of ``safety.plane_frames`` and each tool
  sphere of ``safety.tool_spheres`` to each plane ``safety.planes.<name>: [nx, ny, nz,
  offset]`` (allowed side ``n . x > offset``): WARN within ``safety.plane_margin``, ERROR past
  the plane; and the angle of the tool's z axis to ``safety.tool_direction.axis`` against
  ``safety.tool_direction.limit`` (rad);
- ``contact``: the tool's speed against the largest speed at which it may meet the body region
  ``safety.contact.body_region`` in a transient contact (ISO/TS 15066 Annex A), with the mass
  the arm reflects along the tool's present motion.

Self-collision is a monitor of its own (:mod:`monitors.self_collision`), its figures after
these on ``~/safety``.

A ratio to a limit is WARN above ``limits.warn_fraction`` and ERROR above 1, with the joints'
``limits.hysteresis``; a plane's level clears once ``diagnostics.hysteresis`` (m) back. The
joint rates are the message's velocities, or the differenced positions
(:class:`RateEstimate`). Nothing here runs while all of it is off.

What cannot be judged is STALE and says why, never OK: every status before the first
configuration and while a joint's position is unknown; every one but ``planes`` (positions
alone) while a joint's rate is unknown (a first message, a gap, an implausible velocity).
"""

from collections import namedtuple
import math

from dh_kinematics.core import configurations
from dh_kinematics.core.display import format_number
from dh_kinematics.core.kinematics.manipulability import Conditioning
from dh_kinematics.core.safety import contact, stopping
from dh_kinematics.core.safety.planes import check_plane
from dh_kinematics.core.safety.points import FramePoints, LinkPoints
from dh_kinematics.core.state import ArmState, PARTS
from dh_kinematics.node_logic.monitors.levels import (
    held, latched_levels, OK, ratio_level, STALE, threshold_events, threshold_level)
from dh_kinematics.node_logic.monitors.sample import (
    Figure, NOTHING_YET, unknown_positions, unknown_rates)
from dh_kinematics.node_logic.monitors.tasks import against_limit, Status
from dh_kinematics.parameters import rules
import numpy as np

_Judged = namedtuple('_Judged', 'tasks levels power')
_Judged.__doc__ = """A block's levels as :meth:`Safety.levels_ahead` found them: the tasks, each
sample's levels in their order (a list of lists) and each sample's power (W; NaN: none)."""
TASKS = ('frame_speed', 'momentum', 'kinetic_energy', 'power', 'stopping', 'planes',
         'contact')
"""The statuses, in the order they are published."""


def _finite(settings, name):
    value = settings[name]
    return value if math.isfinite(value) else None


class Safety:
    """
    The safety levels of the arm.

    Attributes
    ----------
    active : bool
        Whether anything is watched.
    levels : dict
        Task name (:data:`TASKS`, those watched) -> OK, WARN or ERROR.
    measured : bool
        Whether the last :meth:`judge` or :meth:`update` found the values (every joint's
        position and rate known).
    state : ArmState
        Where the arm's state holds what is judged here: the frames whose speed is watched and
        the tool (its first :attr:`points`), the planes' distances and the tilt.
    points : LinkPoints
        The frames whose speed is watched, then the tool.
    parts : tuple of str
        The parts of :attr:`state` read here (:data:`core.state.PARTS`).

    """

    def __init__(self):
        self.active = self.measured = False
        self.levels = {}
        self._values, self._unjudged = {}, {}
        self._registered = self._figures = ()

    def configure(self, chain, settings):
        """Take the model and the node's settings (SI units, checked: :mod:`parameters.rules`)."""
        self._chain = chain
        self._warn, self._band = settings['limits.warn_fraction'], settings['limits.hysteresis']
        self._plane_band = settings['diagnostics.hysteresis']
        speeds = rules.named(settings, rules.FRAME_SPEEDS)
        self._speed_limits = list(speeds.values())
        self._speed_points = (FramePoints(chain, list(speeds), 'safety.frame_speed_limits')
                              if speeds else None)
        limits = {name: _finite(settings, f'safety.{name}_limit') for name in (
            'momentum', 'kinetic_energy', 'power', 'stopping_time', 'stopping_distance')}
        self._limits = limits
        stopping_on = rules.stopping_on(settings)
        self._deceleration = rules.decelerations(chain) if stopping_on else None
        self._tool = FramePoints(chain, [chain.tool_frame])
        self._planes = [check_plane(name, value[:3], value[3], 'safety.planes')
                        for name, value in rules.named(settings, rules.PLANES).items()]
        frames = [frame for frame in settings['safety.plane_frames'] if frame]  # ['']: none
        self._plane_points = FramePoints(chain, frames, 'safety.plane_frames') if (
            self._planes and frames) else None
        self._spheres = np.array(rules.tool_spheres(settings['safety.tool_spheres']),
                                 dtype=float).reshape(-1, 4)
        self._margin = settings['safety.plane_margin']
        axis, self._tilt_limit = (settings['safety.tool_direction.axis'],
                                  _finite(settings, 'safety.tool_direction.limit'))
        self._axis = check_plane('tool_direction', axis, 0.0, 'safety').normal if (
            self._tilt_limit is not None) else None
        region = settings['safety.contact.body_region']
        self._region = contact.check_body_region(region) if region else None
        # The arm's state holds each point (the frames whose speed is watched, the tool), the
        # distances of the frames judged against the planes and of the tool's spheres to each
        # plane, the tool's direction.
        speed_points = self._speed_points or LinkPoints([], [])
        self.points = LinkPoints(np.concatenate([speed_points.links, self._tool.links]),
                                 np.concatenate([speed_points.offsets, self._tool.offsets]))
        self._speeds = len(speed_points.links)
        self._speed_bound = Conditioning(chain).speed_bound if stopping_on else None
        self._definite = self._region is not None and contact.always_definite(
            chain.inertia(configurations.spread(chain, 16)))
        self._slowest = (contact.permissible_speed(self._region, math.inf)
                         if self._region is not None else math.inf)
        watched = {
            'frame_speed': bool(speeds), 'momentum': limits['momentum'] is not None,
            'kinetic_energy': limits['kinetic_energy'] is not None,
            'power': limits['power'] is not None, 'stopping': stopping_on,
            'planes': bool(self._planes) or self._tilt_limit is not None,
            'contact': self._region is not None}
        self.levels = {task: STALE for task in TASKS if watched[task]}
        self.active = bool(self.levels)
        self._values, self._unjudged = {}, dict.fromkeys(self.levels, NOTHING_YET)
        self.measured = False
        self.parts = self._parts()
        self._arm_state = None
        self._plane_point_names = (
            list(self._plane_points.frames) if self._plane_points is not None else []) + [
            f'tool_sphere{k}' for k in range(len(self._spheres))]
        self._registered = self._register()
        self._figures = tuple(figure for figure, _ in self._registered)

    def _register(self):
        """
        Return each value of ``~/safety`` as (:data:`Figure`, how it is read from the values).

        One registration per figure, in the topic's order; the labels, the figures the replay
        plots and the topic's values all come from it.
        """
        registered, limits = [], self._limits

        def figure(label, task, limit, smaller, read):
            registered.append((Figure(label, task, limit, smaller), read))

        if self._speed_points is not None:
            for k, (frame, limit) in enumerate(zip(self._speed_points.frames,
                                                   self._speed_limits)):
                figure(f'frame_speed.{frame}', 'frame_speed', limit, False,
                       lambda values, k=k: values['frame_speed'][k])
        figure('momentum', 'momentum', limits['momentum'], False,
               lambda values: math.hypot(*values['momentum']))
        for i, axis in enumerate('xyz'):
            figure(f'momentum.{axis}', 'momentum', None, False,
                   lambda values, i=i: values['momentum'][i])
        for name in ('kinetic_energy', 'power'):
            figure(name, name, limits[name], False, lambda values, name=name: values[name])
        if self._deceleration is not None:
            for name in ('stopping_time', 'stopping_distance'):
                figure(name, 'stopping', limits[name], False,
                       lambda values, name=name: values[name])
        if self._planes:
            for p, plane in enumerate(self._planes):
                for k, point in enumerate(self._plane_point_names):
                    figure(f'plane.{plane.name}.{point}', 'planes', 0.0, True,
                           lambda values, p=p, k=k: values['plane_distances'][p, k])
        if self._tilt_limit is not None:
            figure('tool_direction', 'planes', self._tilt_limit, False,
                   lambda values: values['tool_direction'])
        figure('tool_speed', 'contact', None, False, lambda values: values['tool_speed'])
        if self._region is not None:
            for name in ('reflected_mass', 'contact_speed'):
                figure(name, 'contact', None, name == 'contact_speed',
                       lambda values, name=name: values[name])
        return tuple(registered)

    @property
    def labels(self):
        """Return the names of :meth:`topic_values`, in order."""
        return tuple(figure.label for figure in self._figures)

    @property
    def figures(self):
        """Return a :data:`Figure` per label of :meth:`topic_values`, in order."""
        return self._figures

    def judge(self, sample):
        """
        Judge a :data:`Sample`'s whole configuration and rates; tell whether a level moved.

        What cannot be judged on this message is STALE and says why (never OK): everything
        while a joint's position is unknown, everything but the planes (positions alone) while
        a joint's rate is.
        """
        q, qd = sample.configuration, sample.rates.qd
        self.measured = q is not None and None not in qd
        found = None if sample.figures is None else sample.figures.get('safety_levels')
        if found is not None:  # judged with its block (levels_ahead): take what was found
            return self._take(sample, *found)
        if self.measured:
            return self.update(q, qd, _efforts(sample.update, len(q)), sample.state,
                               self._ahead(sample))
        before = dict(self.levels)
        if q is None:
            self._unjudged = dict.fromkeys(self.levels, unknown_positions())
        else:
            self._unjudged = dict.fromkeys(self.levels, unknown_rates(sample, self._chain))
            if 'planes' in self.levels:
                del self._unjudged['planes']
                # The rates: no part of it (the state's are 0 while one is unknown).
                self._values = self.measure(q, [0.0] * len(q), row=sample.state,
                                            figures=self._ahead(sample))
                self._judge_planes(self._values, self.levels)
        self.levels.update(dict.fromkeys(self._unjudged, STALE))
        return self.levels != before

    def _take(self, sample, block, k):
        """Take the levels :meth:`levels_ahead` found of ``sample``, the ``k``-th of ``block``."""
        before, q = self.levels, sample.configuration
        self.levels = dict(zip(block.tasks, block.levels[k]))
        if self.measured:
            self._unjudged = {}
        elif q is None:
            self._unjudged = dict.fromkeys(self.levels, unknown_positions())
        else:
            self._unjudged = dict.fromkeys(self.levels, unknown_rates(sample, self._chain))
            self._unjudged.pop('planes', None)
        if q is not None:
            self._values = dict(sample.figures['safety'], power=block.power[k])
        return self.levels != before

    def levels_ahead(self, samples):
        """
        Judge a block's samples at once, each after the one before, from the levels now.

        Each sample's figures are :meth:`ahead`'s (``sample.figures['safety']``) where it has a
        configuration. Return what :meth:`judge` takes back of each, in
        ``sample.figures['safety_levels']``: the levels it finds one sample at a time, each
        task's events a column through :func:`levels.latched_levels`. None where a
        configuration's figures were not measured ahead.
        """
        placed = [sample.configuration is not None for sample in samples]
        figures = [sample.figures.get('safety') if sample.figures else None
                   for sample in samples]
        if not self.active or any(each is None for each, whole in zip(figures, placed) if whole):
            return None
        measured = np.array([whole and None not in sample.rates.qd
                             for sample, whole in zip(samples, placed)])
        power, n = [math.nan] * len(samples), len(self._chain.links)
        for k, sample in enumerate(samples):  # on ~/safety, watched or not
            if measured[k]:
                power[k] = _power(_efforts(sample.update, n), sample.rates.qd)
        chosen = [each for each in figures if each is not None]
        placed = np.array(placed)
        shape = (len(samples), len(self.levels))
        raised, kept, stale = np.full(shape, -1), np.full(shape, -1), np.empty(shape, bool)
        for t, task in enumerate(self.levels):  # STALE where not judged: every level cleared
            stale[:, t] = ~(placed if task == 'planes' else measured)
            raised[placed, t], kept[placed, t] = self._events(
                task, chosen, [power[k] for k in np.flatnonzero(placed)])
        raised[stale], kept[stale] = -1, -1
        levels = latched_levels(raised, kept, list(self.levels.values()))
        levels[stale] = STALE
        block = _Judged(tuple(self.levels), levels.tolist(), power)
        return [(block, k) for k in range(len(samples))]

    def _events(self, task, figures, power):
        """
        Return ``(raised, kept)`` of ``task`` at each of ``figures`` (:func:`latched_levels`).

        ``figures``: :meth:`ahead`'s, with ``power`` the power (W) of each; a figure not judged
        (no power, a contact at rest) neither raises nor clears.
        """
        warn, band = self._warn, self._band

        def ratios(values):
            return threshold_events(values, warn, 1.0, warn - band, 1.0 - band)

        if task == 'frame_speed':
            speeds = np.array([values['frame_speed'] for values in figures])
            return ratios((speeds / self._speed_limits).max(axis=1))
        if task in ('momentum', 'kinetic_energy'):
            limit = self._limits[task]
            return ratios([(math.hypot(*values['momentum']) if task == 'momentum'
                            else values[task]) / limit for values in figures])
        if task == 'power':
            events = ratios(np.array(power) / self._limits['power'])
            return held(events, np.isnan(power))
        if task == 'stopping':  # every figure measured ahead
            return ratios(np.maximum.reduce([
                np.array([values[name] for values in figures]) / self._limits[name]
                for name in ('stopping_time', 'stopping_distance')
                if self._limits[name] is not None]))
        if task == 'planes':
            return self._plane_events(figures)
        allowed = np.array([values['contact_speed'] for values in figures], dtype=float)
        speed = np.array([values['tool_speed'] for values in figures])
        with np.errstate(invalid='ignore', divide='ignore'):
            ratio = np.where(speed > 0.0, speed / allowed, 0.0)
        return held(ratios(ratio), np.isnan(ratio))

    def _plane_events(self, figures):
        """Return the planes' and the tool direction's events at each of ``figures``."""
        raised = kept = np.full(len(figures), OK)
        if self._planes:
            nearest = -np.array([values['plane_distances'] for values in figures]).reshape(
                len(figures), -1).min(axis=1)
            raised, kept = threshold_events(nearest, -self._margin, 0.0,
                                            -self._margin - self._plane_band, -self._plane_band)
        if self._tilt_limit is not None:
            tilt = threshold_events([values['tool_direction'] / self._tilt_limit
                                     for values in figures], self._warn, 1.0,
                                    self._warn - self._band, 1.0 - self._band)
            raised, kept = np.maximum(raised, tilt[0]), np.maximum(kept, tilt[1])
        return raised, kept

    def update(self, q, qd, efforts=None, row=None, figures=None):
        """
        Take every joint's position (rad or m), rate (per s) and effort (N m or N, or None).

        ``row`` is the arm's state there and ``figures`` what :meth:`ahead` measured of it
        (:meth:`measure`). Returns whether a level moved.
        """
        self.measured = True
        before, levels = dict(self.levels), self.levels
        for task in self._unjudged:  # judged anew: no level to clear
            levels[task] = OK
        self._unjudged = {}
        values = self._values = self.measure(q, qd, efforts, row, complete=False,
                                             figures=figures)
        self._settle(values, levels)
        warn, band = self._warn, self._band
        if 'frame_speed' in levels:
            ratio = max(speed / limit
                        for speed, limit in zip(values['frame_speed'], self._speed_limits))
            levels['frame_speed'] = ratio_level(ratio, levels['frame_speed'], warn, band)
        for task, value in (('momentum', math.hypot(*values['momentum'])),
                            ('kinetic_energy', values['kinetic_energy'])):
            if task in levels:
                levels[task] = ratio_level(value / self._limits[task], levels[task], warn,
                                           band)
        if 'power' in levels and values['power'] == values['power']:
            levels['power'] = ratio_level(values['power'] / self._limits['power'],
                                          levels['power'], warn, band)
        if 'stopping' in levels:
            ratios = [values[name] / self._limits[name] for name in (
                'stopping_time', 'stopping_distance')
                if self._limits[name] is not None and values[name] is not None]
            # The tool's path not measured: no path up to its bound would move the level.
            levels['stopping'] = ratio_level(max(ratios, default=0.0), levels['stopping'], warn,
                                             band)
        if 'planes' in levels:
            self._judge_planes(values, levels)
        allowed, speed = values.get('contact_speed'), values['tool_speed']
        if 'contact' in levels and allowed is not None:
            # At rest the reflected mass has no direction (NaN), and no contact is too fast.
            ratio = speed / allowed if speed > 0.0 else 0.0
            if ratio == ratio:
                levels['contact'] = ratio_level(ratio, levels['contact'], warn, band)
        return levels != before

    def _judge_planes(self, values, levels):
        """Judge the planes and the tool's direction: from the positions alone."""
        level, previous = OK, levels['planes'] if levels['planes'] != STALE else OK
        if self._planes:
            nearest = -float(values['plane_distances'].min())
            level = threshold_level(nearest, previous, -self._margin, 0.0,
                                    -self._margin - self._plane_band, -self._plane_band)
        if self._tilt_limit is not None:
            level = max(level, ratio_level(values['tool_direction'] / self._tilt_limit,
                                           previous, self._warn, self._band))
        levels['planes'] = level

    def _stop_settled(self, time, qd):
        """
        Tell whether the stop's level is the same for any path of the tool up to its bound.

        The path is at most the ramp's mean of a bound on the tool's speed,
        ``T / 2 * Conditioning.speed_bound(qd)``: its integral (12 poses) is needed only where
        the level at that bound differs from the level at no path (the time's alone). It saves
        83 to 100 µs of about 210 per message on the Panda with every monitor on
        (``bench/short_ways.py``, 2026-11-28).
        """
        time_limit, limit = self._limits['stopping_time'], self._limits['stopping_distance']
        ratio = 0.0 if time_limit is None else time / time_limit
        if limit is None:
            return True
        bound = 0.5 * time * self._speed_bound(qd) / limit
        previous, warn, band = self.levels['stopping'], self._warn, self._band
        return (ratio_level(ratio, previous, warn, band)
                == ratio_level(max(ratio, bound), previous, warn, band))

    def _settle(self, values, levels):
        """
        Compute the figures :meth:`measure` left open where a bound does not settle the level.

        The judging half's short ways, each resting on the level the figure had: the tool's
        stopping distance (:meth:`_stop_settled`), and the contact's reflected mass and
        permitted speed. No arm lets the tool meet the region faster than the region's own mass
        alone permits: below that (its WARN fraction, the level OK) no inertia matrix is
        needed, 120 µs of about 240 per message saved on the Panda (``bench/short_ways.py``,
        2026-11-28). What stays open, :meth:`topic_values` and :meth:`statuses` compute when
        asked.
        """
        if 'stopping' in levels and values['stopping_distance'] is None:
            q, qd, _ = self._state
            if not self._stop_settled(values['stopping_time'], qd):
                values['stopping_distance'] = self._stop_path(q, qd, values['stopping_time'])
        if 'contact' in levels and values['contact_speed'] is None and not (
                levels['contact'] == OK and values['tool_speed'] <= self._warn * self._slowest):
            self._measure_contact(values, self._contact)

    def measure(self, q, qd, efforts=None, row=None, complete=True, figures=None):
        """
        Return every watched value at ``q``, ``qd`` (and ``efforts``), by name (SI units).

        The figures: a function of the arm's state there, ``row`` (:attr:`state`, at least
        :attr:`parts`; computed here where not given), and of the efforts. Without
        ``complete``, the two that cost most are left None, for the judging half to compute
        where their level needs them (:meth:`_settle`): the tool's stopping distance, and the
        contact's reflected mass and permitted speed. ``figures``, :meth:`ahead`'s of this
        configuration where given, are all of them but the power.
        """
        if figures is None:
            q, qd = [float(value) for value in q], [float(value) for value in qd]
            if not complete:  # for what the judging half leaves to _complete
                self._state = (q, qd, efforts)
            if row is None:
                row = self.state.one(q, qd, self.parts)
            figures, = self._measured([q], [qd], [row], complete)
        values = dict(figures)
        values['power'] = _power(efforts, qd)
        return values

    def ahead(self, Q, QD, rows):
        """
        Return :meth:`measure`'s figures at each of a block's configurations, at once.

        ``Q`` and ``QD`` (m, n): the joint values (rad or m) and rates (per s); ``rows`` (m,
        :attr:`ArmState.size`): the arm's state there (:attr:`state`). A dict per
        configuration of every figure but the power (which takes the message's efforts).
        """
        return self._measured(Q, QD, rows)

    def _measured(self, Q, QD, rows, complete=True):
        """
        Return every figure but the power at each configuration: a dict each, from columns.

        The one source of the figures, for one message and for a block: the stops' paths at
        once (:func:`stopping.path_length`), the inertia matrices and reflected masses likewise.
        Without ``complete`` (one configuration), the stopping distance and the contact's two
        are None, the contact's inputs kept for :meth:`_measure_contact`.
        """
        Q, QD, rows = (np.asarray(each, dtype=float) for each in (Q, QD, rows))
        state, m, speeds = self.state, len(rows), self._speeds
        moving = rows[:, state.points].reshape(m, -1, 6)[:, :speeds + 1, 3:]  # velocities
        velocity = moving[:, speeds]
        speed = np.linalg.norm(velocity, axis=1)
        columns = {'momentum': rows[:, state.momentum].tolist(),
                   'kinetic_energy': rows[:, state.energy].tolist(),
                   'tool_speed': speed.tolist()}
        if speeds:
            columns['frame_speed'] = np.linalg.norm(moving[:, :speeds], axis=2).tolist()
        if self._deceleration is not None:
            T = (np.abs(QD) / self._deceleration).max(axis=1)
            columns['stopping_time'] = T.tolist()
            columns['stopping_distance'] = stopping.path_length(
                self.state.jacobians, Q, QD, T).tolist() if complete else [None]
        if self._planes:
            columns['plane_distances'] = list(rows[:, state.planes].reshape(
                m, len(self._planes), -1))
        if self._tilt_limit is not None:
            columns['tool_direction'] = rows[:, state.tilt].tolist()
        if self._region is not None and not complete:
            n = Q.shape[1]
            self._contact = (Q[0].tolist(), velocity[0].tolist(), float(speed[0]),
                             rows[0, state.jacobian][:3 * n])
            columns['reflected_mass'] = columns['contact_speed'] = [None]
        elif self._region is not None:
            mass, going = np.full(m, math.nan), speed > 0.0
            if going.any():
                n = Q.shape[1]
                J_v = rows[going][:, state.jacobian][:, :3 * n].reshape(-1, 3, n)
                mass[going] = contact.reflected_mass(
                    self._chain.inertia(Q[going]), J_v, velocity[going] / speed[going, None],
                    self._definite)
            columns['reflected_mass'] = mass.tolist()
            columns['contact_speed'] = contact.permissible_speed(self._region, mass).tolist()
        names = list(columns)
        return [dict(zip(names, values)) for values in zip(*columns.values())]

    def _ahead(self, sample):
        """Return what :meth:`ahead` measured of ``sample``'s configuration, or None."""
        return None if sample.figures is None else sample.figures.get('safety')

    @property
    def state(self):
        """Return the arm's state read here: the one :meth:`use` gave, else this monitor's."""
        if self._arm_state is None:  # made once, where no state was given
            self._arm_state = self.state_with()
        return self._arm_state

    def use(self, state):
        """Read what is judged here from ``state``: :meth:`state_with` of more points, or none."""
        self._arm_state = state

    def state_with(self, points=None):
        """
        Return the arm's :class:`ArmState` for what is judged here, and ``points`` besides.

        ``points`` (a :class:`LinkPoints`, e.g. another monitor's) follow :attr:`points` in the
        state's points.
        """
        chain, plane_points, spheres = self._chain, self._plane_points, self._spheres
        links = [] if plane_points is None else plane_points.links.tolist()
        offsets = [] if plane_points is None else plane_points.offsets.tolist()
        radii = [0.0] * len(links) + spheres[:, 3].tolist()
        T_last_tool = chain.tool  # the spheres' centres, in the last link's frame
        links += [chain.n] * len(spheres)
        offsets += (spheres[:, :3] @ T_last_tool[:3, :3].T + T_last_tool[:3, 3]).tolist()
        points = (self.points,) if points is None else (self.points, points)
        return ArmState(chain, np.concatenate([part.links for part in points]),
                        np.concatenate([part.offsets for part in points]), self._planes,
                        (links, offsets, radii), self._axis)

    def _parts(self):
        """Return the parts of the arm's state read here (:data:`core.state.PARTS`)."""
        wanted = {'momentum', 'points', 'tool'}
        wanted.update(name for name, used in (
            ('jacobian', self._region is not None), ('planes', bool(self._planes)),
            ('tilt', self._axis is not None)) if used)
        return tuple(part for part in PARTS if part in wanted)

    def _stop_path(self, q, qd, time):
        """Return the tool's path along the stop from ``q`` at ``qd`` lasting ``time``, m."""
        return stopping.path_length(self.state.jacobians, q, qd, time)

    def _measure_contact(self, values, state):
        """
        Put the reflected mass and the permitted contact speed into ``values``.

        ``state``: ``(q, velocity, speed, J_v)`` of the tool.
        """
        q, velocity, speed, J_v = state
        mass = math.nan
        if speed > 0.0:
            J_v = np.array(J_v).reshape(3, -1)
            mass = contact.reflected_mass(self._chain.inertia(q), J_v, np.array(velocity) / speed,
                                          self._definite)
        values['reflected_mass'] = mass
        values['contact_speed'] = contact.permissible_speed(self._region, mass)

    def _complete(self):
        """Return the last message's values, any that a bound settled computed now."""
        values = self._values
        if values.get('contact_speed', 0.0) is None:
            self._measure_contact(values, self._contact)
        if values.get('stopping_distance', 0.0) is None:
            q, qd, _ = self._state
            values['stopping_distance'] = self._stop_path(q, qd, values['stopping_time'])
        return values

    def topic_values(self):
        """Return the last message's values, flat, for ``~/safety`` (SI units)."""
        values = self._complete()
        return [float(read(values)) for _, read in self._registered]

    def statuses(self, only=None):
        """
        Return the statuses of what is watched, in :data:`TASKS` order (SI units).

        ``only``: the tasks wanted (a set), or all.
        """
        shown = [task for task in TASKS if task in self.levels and (only is None or task in only)]
        values = self._complete() if shown else None
        return [self._status(task, values) for task in shown]

    def _status(self, task, values):
        level = self.levels[task]
        if task in self._unjudged:
            return Status(task, level, self._unjudged[task], ())
        shown = _shown
        if task == 'frame_speed':
            pairs = list(zip(self._speed_points.frames, values['frame_speed'],
                             self._speed_limits))
            frame, speed, limit = max(pairs, key=lambda pair: pair[1] / pair[2])
            return Status(task, level, f'{frame} at {shown(speed)} m/s '
                          f'({against_limit(speed, limit)})', tuple(
                              (f'{name} (m/s)', format_number(value)) for name, value, _ in pairs))
        if task in ('momentum', 'kinetic_energy'):
            unit = {'momentum': 'kg m/s', 'kinetic_energy': 'J'}[task]
            value = float(np.linalg.norm(values[task])) if task == 'momentum' else values[task]
            limit = self._limits[task]
            return Status(task, level, f'{shown(value)} {unit} ({against_limit(value, limit)})',
                          ((f'value ({unit})', format_number(value)),
                           (f'limit ({unit})', format_number(limit))))
        if task == 'power':
            value, limit = values['power'], self._limits['power']
            if value != value:
                return Status(task, level, 'not judged: joint_states carries no efforts (power '
                              "needs every joint's effort)", (('limit (W)',
                                                              format_number(limit)),))
            return Status(task, level, f'{shown(value)} W ({against_limit(value, limit)})',
                          (('value (W)', format_number(value)),
                           ('limit (W)', format_number(limit))))
        if task == 'stopping':
            time, distance = values['stopping_time'], values['stopping_distance']
            parts = [(time, self._limits['stopping_time'], 's', 'stop in'),
                     (distance, self._limits['stopping_distance'], 'm', 'tool travels')]
            message = ', '.join(
                f'{words} {shown(value)} {unit}' + (
                    '' if limit is None else f' ({against_limit(value, limit)})')
                for value, limit, unit, words in parts)
            return Status(task, level, message, (
                ('stopping time (s)', format_number(time)),
                ('stopping distance (m)', format_number(distance))))
        if task == 'planes':
            return self._planes_status(level, values)
        speed, allowed = values['tool_speed'], values['contact_speed']
        region = self._region.name
        message = (f'{self._chain.tool_frame} at rest' if allowed != allowed else
                   f'{self._chain.tool_frame} at {shown(speed)} m/s against {region}: '
                   f'{against_limit(speed, allowed)} m/s (reflected mass '
                   f'{shown(values["reflected_mass"])} kg)')
        return Status(task, level, message, (
            ('body region', region), ('tool speed (m/s)', format_number(speed)),
            ('permitted speed (m/s)', format_number(allowed)),
            ('reflected mass (kg)', format_number(values['reflected_mass']))))

    def _planes_status(self, level, values):
        parts, pairs = [], []
        if 'plane_distances' in values:
            points = self._plane_point_names
            distances = values['plane_distances']
            p, k = np.unravel_index(int(np.argmin(distances)), distances.shape)
            parts.append(f'{points[k]} {_shown(distances[p, k])} m from plane '
                         f'{self._planes[p].name}')
            pairs += [(f'{plane.name} {point} (m)', format_number(value))
                      for plane, row in zip(self._planes, distances)
                      for point, value in zip(points, row)]
        if 'tool_direction' in values:
            angle = values['tool_direction']
            limit = self._tilt_limit
            parts.append(f'tool {_shown(angle)} rad from its direction '
                         f'({against_limit(angle, limit)})')
            pairs.append(('tool direction (rad)', format_number(angle)))
        return Status('planes', level, '; '.join(parts), tuple(pairs))


def _shown(value):
    return format_number(float(value), 3)


def _efforts(update, n):
    """Return every joint's effort of a cache ``update`` in model order, or None without all."""
    if len(update.efforts) != n:
        return None
    efforts = [0.0] * n
    for j, value in zip(update.efforts, update.effort):
        efforts[j] = value
    return efforts


def _power(efforts, qd):
    """Return the size of the power ``sum tau qd``, W; NaN without ``efforts``."""
    return math.nan if efforts is None else abs(math.fsum(
        effort * rate for effort, rate in zip(efforts, qd)))
