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
Joint limits beyond positions, per joint: velocity, acceleration, jerk, effort, soft limits.

Each quantity a joint has a limit for gets a level (diagnostic_msgs' OK, WARN, ERROR), from
the ratio of its magnitude to the limit:

- ERROR above the limit (a ratio above 1), WARN above ``warn_fraction`` of it;
- a level clears only once the ratio is ``hysteresis`` below the threshold that raised it, so
  that a value dithering at a threshold does not flap.

What is judged, per joint with the limit set (a limit of None is not watched and costs
nothing):

- velocity (rad/s or m/s): the message's, or the smoothed estimate from positions and stamps
  (:attr:`RateEstimate.qd_smooth`) where the message has none;
- acceleration (rad/s^2 or m/s^2), estimated from the message's velocities (not from
  positions alone, whose double difference is noise at hardware rates), against
  ``acceleration_limit``; while the joint slows down (acceleration against velocity), against
  ``deceleration_limit`` where one is set;
- jerk (rad/s^3 or m/s^3), the rate of the filtered acceleration estimate, filtered again
  (:class:`RateEstimate`: it lags the acceleration by as much again), against
  ``jerk_limit``; from the message's velocities, as the acceleration;
- effort (N m or N), the message's, against ``effort_limit``;
- soft limits, as ros2_control's soft limiter bounds velocity: inside ``soft_limits``, with
  ``k_position`` > 0, the velocity must lie within ``-k_position (q - soft_lower)`` and
  ``-k_position (q - soft_upper)`` (each within the velocity limit), else ERROR: the joint
  approaches a soft limit faster than the limiter allows. Outside the band is WARN, and ERROR
  while the joint moves further out. A velocity counts as beyond a bound, or as moving out,
  only past a dead band of ``position_hysteresis`` per second; a soft level clears only once
  the joint is back inside the band by ``position_hysteresis`` (``diagnostics.hysteresis``)
  and within the bounds, so that encoder noise at a soft limit does not flap.

A joint's level is the highest of its quantities', and its description names the worst:
``velocity 2.61 rad/s above limit 2.5 by 0.11``.

The two halves: :meth:`MotionLimits.judge` measures and judges one message;
:meth:`MotionLimits.levels_ahead` judges a block's messages at once, each quantity of each joint a
column of ratios through the levels' machine (:func:`levels.latched_levels`), and ``judge`` then
takes each message's levels and values as they were found.
"""

from collections import namedtuple
import math
from operator import le

from dh_kinematics.core.display import format_number
from dh_kinematics.node_logic.monitors.levels import (
    ERROR, held, latched_levels, OK, ratio_level, threshold_events, WARN)
from dh_kinematics.node_logic.monitors.tasks import against_limit
import numpy as np

QUANTITIES = ('velocity', 'acceleration', 'jerk', 'effort')
_Block = namedtuple('_Block', 'levels quantity_levels latest')
_Block.__doc__ = """A block's levels and values, as :meth:`MotionLimits.levels_ahead` found them:
per sample, every joint's level (a list of lists), each quantity's levels and each quantity's
latest values (arrays (m, n), by name)."""


class MotionLimits:
    """
    The velocity, acceleration, effort and soft-limit levels of every joint.

    Parameters
    ----------
    n : int
        Number of joints.

    Attributes
    ----------
    levels : list of int
        Per joint, the highest level of its quantities.
    latest : dict
        Per quantity (and 'position'), each joint's last value; NaN until known.
    active : bool
        Whether any joint has a limit watched here.
    shortcut : bool
        Whether the usual message may be judged by :meth:`quiet` (no acceleration or soft
        limits watched).

    """

    def __init__(self, n):
        self._n = n
        self.active = False
        self._limits = {name: [None] * n for name in QUANTITIES}
        self._deceleration = [None] * n
        self._soft = [None] * n
        self._warn, self._hysteresis = 0.9, 0.05
        self._position_hysteresis = 0.01
        self._quiet = {name: [math.inf] * n for name in QUANTITIES}
        self.shortcut = True
        self.forget()

    def forget(self):
        """Clear every value and level."""
        n = self._n
        self._latest = {name: [math.nan] * n for name in QUANTITIES + ('position',)}
        self._quantity_levels = {name: [OK] * n for name in QUANTITIES + ('soft',)}
        self.levels = [OK] * n
        self._found = None  # (block, k): what levels_ahead found, where judged with a block

    @property
    def latest(self):
        """Per quantity (and 'position'), each joint's last value: a dict of lists."""
        if self._found is not None:
            self._settle()
        return self._latest

    @property
    def _levels(self):
        """Per quantity (and 'soft'), each joint's level: a dict of lists."""
        if self._found is not None:
            self._settle()
        return self._quantity_levels

    def _settle(self):
        """Take the values and levels :meth:`levels_ahead` found for the sample last judged."""
        (block, k), self._found = self._found, None
        self._latest = {name: rows[k].tolist() for name, rows in block.latest.items()}
        self._quantity_levels = {name: rows[k].tolist()
                                 for name, rows in block.quantity_levels.items()}

    def configure(self, chain, settings):
        """
        Take the links' limits (:class:`Link` fields) and the node's settings, checked.

        ``limits.warn_fraction`` and ``limits.hysteresis`` set the levels; the position
        hysteresis, ``diagnostics.hysteresis`` (rad or m), is how far back inside its soft
        limits a joint must be for a soft level to clear; per second, it is the dead band of
        the velocities judged against the soft limiter.
        """
        links = chain.links
        self._warn = settings['limits.warn_fraction']
        self._hysteresis = settings['limits.hysteresis']
        self._position_hysteresis = settings['diagnostics.hysteresis']
        self._units = [('rad', 'N m') if link.isrevolute() else ('m', 'N') for link in links]
        self._limits = {'velocity': [link.velocity_limit for link in links],
                        'acceleration': [link.acceleration_limit for link in links],
                        'jerk': [link.jerk_limit for link in links],
                        'effort': [link.effort_limit for link in links]}
        self._deceleration = [link.deceleration_limit for link in links]
        self._soft = [(link.soft_limits, link.k_position) if link.soft_limits else None
                      for link in links]
        active = any(value is not None for values in self._limits.values() for value in values)
        self.active = active or any(self._soft) or self.watches('acceleration')
        # Below these a joint's OK level stays OK (inf: not watched); an acceleration is
        # judged against the deceleration limit too when slowing down.
        self._quiet = {name: [math.inf if limit is None else self._warn * limit
                              for limit in self._limits[name]] for name in QUANTITIES}
        self._quiet['acceleration'] = [
            self._warn * min(math.inf if limit is None else limit,
                             math.inf if deceleration is None else deceleration)
            for limit, deceleration in zip(self._limits['acceleration'], self._deceleration)]
        # The usual message may take the short way (quiet) unless accelerations or jerks
        # (which need the estimate on every message) or soft limits (positions) are watched.
        self.shortcut = not any(map(self.watches, ('acceleration', 'jerk', 'soft')))
        self.forget()

    def quiet(self, velocities, efforts):
        """
        Tell whether every joint's values (all joints, in order) keep every level OK; store them.

        For the usual message (:meth:`JointStatesFlow._take_usual`): only when :attr:`shortcut`
        holds, every level is OK, and each velocity and effort is within ``warn_fraction`` of
        its limit (efforts may be empty: none in the message). When it tells False, nothing
        was stored and :meth:`update` must judge the message.
        """
        if any(self.levels):
            return False
        for values, bounds in ((velocities, self._quiet['velocity']),
                               (efforts, self._quiet['effort'])):
            if values and not all(map(le, map(abs, values), bounds)):
                return False
        self.latest['velocity'] = list(velocities)
        if efforts:
            self.latest['effort'] = list(efforts)
        return True

    def watches(self, quantity):
        """Tell whether any joint has a limit on ``quantity`` ('velocity', ...) or soft limits."""
        if quantity == 'soft':
            return any(self._soft)
        if quantity == 'acceleration' and any(limit is not None for limit in self._deceleration):
            return True
        return any(limit is not None for limit in self._limits[quantity])

    def update(self, joints, positions=None, velocities=None, accelerations=None, efforts=None,
               jerks=None):
        """
        Take the latest values of ``joints`` (each a sequence in their order, or None).

        Positions in rad or m, velocities per s, accelerations per s^2 and jerks per s^3 (None
        where not known), efforts in N m or N. Return whether a joint's level changed.
        """
        stored = self.latest
        touched = False
        for name, given in (('position', positions), ('velocity', velocities),
                            ('acceleration', accelerations), ('jerk', jerks),
                            ('effort', efforts)):
            if given is not None:
                store = stored[name]
                for j, value in zip(joints, given):
                    store[j] = math.nan if value is None else value
                if name != 'position':
                    touched = self._judge(name, joints) or touched
        if positions is not None or velocities is not None:
            for j in joints:
                if self._soft[j] is not None:
                    level = self._soft_level(j)
                    touched = touched or level != self._levels['soft'][j]
                    self._levels['soft'][j] = level
        if not touched:  # no quantity's level moved: neither did a joint's
            return False
        changed = False
        for j in joints:
            level = max(levels[j] for levels in self._levels.values())
            if level != self.levels[j]:
                self.levels[j] = level
                changed = True
        return changed

    def _judge(self, name, joints):
        """Judge one quantity of ``joints`` against its limits; tell whether a level moved."""
        levels, values, quiet = self._levels[name], self.latest[name], self._quiet[name]
        # The short way: every level OK and every value within warn_fraction of its limit
        # (the deceleration limit too, for accelerations) keeps every level OK. NaN: not known.
        # It saves 7 to 8 µs per message with every monitor on (bench/short_ways.py, 2026-11-28).
        for j in joints:
            if levels[j] != OK or abs(values[j]) > quiet[j]:
                break
        else:
            return False
        moved = False
        for j in joints:
            limit = self._limit(j, name)
            value = values[j]
            if limit is None or value != value:
                continue
            level = ratio_level(abs(value) / limit, levels[j], self._warn, self._hysteresis)
            moved = moved or level != levels[j]
            levels[j] = level
        return moved

    def judge(self, sample):
        """
        Judge the :data:`Sample`'s joints against their limits; tell whether a level changed.

        Velocities as the message gave them, else the smoothed estimate; accelerations and
        jerks only where the velocity came in: differenced twice from positions, stamp jitter
        leaves noise no limit survives (bench/qdd_filter.py).
        """
        found = None if sample.figures is None else sample.figures.get('motion')
        if found is not None:  # judged with its block (levels_ahead): take what was found
            block, k = self._found = found
            levels = block.levels[k]
            changed = levels != self.levels
            self.levels = levels
            return changed
        update, rates = sample.update, sample.rates
        qd, qdd, qddd = rates.qd_smooth, rates.qdd, rates.qddd
        joints = update.positions
        given = dict(zip(update.velocities, update.qd))
        changed = self.update(joints, update.q, [given.get(j, qd[j]) for j in joints],
                              [qdd[j] if j in given else None for j in joints],
                              jerks=[qddd[j] if j in given else None for j in joints])
        if update.efforts:
            changed = self.update(update.efforts, efforts=update.effort) or changed
        return changed

    def levels_ahead(self, samples):
        """
        Judge a block's samples at once, each after the one before, from the levels now.

        Return what :meth:`judge` takes back of each, in ``sample.figures['motion']``: the
        levels and values it finds one sample at a time, each quantity of each joint a column
        of ratios to its limit through :func:`levels.latched_levels`. None while soft limits are
        watched (their bands are judged one message at a time) or nothing is.
        """
        if not samples or not self.active or any(self._soft):
            return None
        n, m = self._n, len(samples)
        every = tuple(range(n))
        updates = [sample.update for sample in samples]
        if all(update.positions == every and update.velocities == every for update in updates):
            rates = [sample.rates for sample in samples]
            rows = {'position': [update.q for update in updates],
                    'velocity': [update.qd for update in updates],
                    'acceleration': [each.qdd for each in rates],
                    'jerk': [each.qddd for each in rates]}
        else:
            rows = _rows(samples, n)
        moved = _chosen([update.positions for update in updates], m, n)
        pushed = _chosen([update.efforts for update in updates], m, n)
        rows['effort'] = [update.effort if update.efforts == every else _spread(
            update.efforts, update.effort, n) for update in updates]
        values = {name: np.array(value, dtype=float) for name, value in rows.items()}  # NaN: None
        sets = dict.fromkeys(values, moved)
        sets['effort'] = pushed
        latest = {name: _filled(values[name], sets[name], self.latest[name])
                  for name in values}
        found = {}
        for name in QUANTITIES:
            limits = [math.nan if limit is None else limit for limit in self._limits[name]]
            limit = np.broadcast_to(np.array(limits), (m, n))
            if name == 'acceleration':  # slowing down: the deceleration limit, where set
                deceleration = np.array([math.nan if value is None else value
                                         for value in self._deceleration])
                with np.errstate(invalid='ignore'):
                    slowing = (latest['velocity'] * latest['acceleration'] < 0.0) & ~np.isnan(
                        deceleration)
                limit = np.where(slowing, deceleration, limit)
            judged = sets[name] & ~np.isnan(values[name]) & ~np.isnan(limit)
            with np.errstate(invalid='ignore'):
                ratios = np.abs(values[name]) / limit
            events = threshold_events(ratios, self._warn, 1.0, self._warn - self._hysteresis,
                                      1.0 - self._hysteresis)
            found[name] = latched_levels(*held(events, ~judged), self._levels[name])
        joint = np.maximum.reduce(list(found.values()))
        found['soft'] = np.zeros((m, n), dtype=int)
        block = _Block(joint.tolist(), found, latest)
        return [(block, k) for k in range(m)]

    def _limit(self, j, name):
        if name != 'acceleration':
            return self._limits[name][j]
        limit, deceleration = self._limits['acceleration'][j], self._deceleration[j]
        velocity, acceleration = self.latest['velocity'][j], self.latest['acceleration'][j]
        if deceleration is not None and velocity * acceleration < 0.0:  # slowing down
            return deceleration
        return limit

    def soft_velocity_bounds(self, j):
        """Return the velocity bounds the soft limiter allows joint ``j`` now, or None."""
        soft = self._soft[j]
        q = self.latest['position'][j]
        if soft is None or soft[1] <= 0.0 or q != q:
            return None
        (lower, upper), k = soft
        top = self._limits['velocity'][j] or math.inf
        return (max(-top, min(top, -k * (q - lower))), max(-top, min(top, -k * (q - upper))))

    def _soft_level(self, j):
        (lower, upper), _ = self._soft[j]
        q, v = self.latest['position'][j], self.latest['velocity'][j]
        if q != q:
            return OK
        previous, margin = self._levels['soft'][j], self._position_hysteresis
        level = self._band_level(j, lower, upper, q, v, margin)
        if level < previous:  # to clear: back inside by the margin, within the bounds exactly
            inset = min(margin, (upper - lower) / 2.0)
            strict = self._band_level(j, lower + inset, upper - inset, q, v, 0.0)
            level = min(previous, max(level, strict))
        return level

    def _band_level(self, j, lower, upper, q, v, dead_band):
        """Return the soft level of ``q``, ``v`` in a band, velocities past ``dead_band``/s."""
        if not lower <= q <= upper:  # outside the band: WARN, ERROR while going further out
            outward = v == v and (v > dead_band if q > upper else v < -dead_band)
            return ERROR if outward else WARN
        bounds = self.soft_velocity_bounds(j)  # inside: approaching no faster than allowed
        if bounds is not None and v == v and not (
                bounds[0] - dead_band <= v <= bounds[1] + dead_band):
            return ERROR
        return OK

    def describe(self, j):
        """Say what puts joint ``j`` at its level: 'velocity 2.61 rad/s above limit 2.5 ...'."""
        texts = []
        for name in QUANTITIES:
            level, limit = self._levels[name][j], self._limit(j, name)
            if level == OK or limit is None:
                continue
            texts.append((level, self._text(j, name, limit)))
        if self._soft[j] is not None and self._levels['soft'][j] != OK:
            texts.append((self._levels['soft'][j], self._soft_text(j)))
        return '; '.join(text for _, text in sorted(texts, key=lambda item: -item[0]))

    def _text(self, j, name, limit):
        unit = self._unit(j, name)
        value = self.latest[name][j]
        if value != value:  # a level held while the value restarts (after a gap, say)
            return f'{name} {against_limit(value, limit)} {unit}'
        shown = f'{name} {format_number(value, 3)} {unit}'
        if abs(value) > limit:
            return f'{shown} {against_limit(abs(value), limit)}'
        return f'{shown} at {against_limit(abs(value), limit)}'

    def _soft_text(self, j):
        (lower, upper), _ = self._soft[j]
        q, v = self.latest['position'][j], self.latest['velocity'][j]
        length, unit = self._units[j][0], self._unit(j, 'velocity')
        if lower <= q <= upper:
            low, high = self.soft_velocity_bounds(j)
            return (f'velocity {format_number(v, 3)} {unit} beyond the soft limiter bounds '
                    f'[{format_number(low, 3)}, {format_number(high, 3)}]')
        side, limit = ('below soft lower', lower) if q < lower else ('above soft upper', upper)
        going = ', moving away' if self._levels['soft'][j] == ERROR else ''
        return (f'position {format_number(q, 4)} {length} {side} limit '
                f'{format_number(limit, 4)}{going}')

    def _unit(self, j, name):
        length, force = self._units[j]
        return {'velocity': f'{length}/s', 'acceleration': f'{length}/s^2',
                'jerk': f'{length}/s^3', 'effort': force}[name]

    def values(self, j):
        """Return joint ``j``'s watched values and limits as (key, text) pairs (SI units)."""
        pairs = []
        for name in QUANTITIES:
            limit = self._limit(j, name)
            if limit is not None:
                pairs += [(name, format_number(self.latest[name][j])),
                          (f'{name}_limit', format_number(limit))]
        if self._soft[j] is not None:
            (lower, upper), _ = self._soft[j]
            pairs += [('soft_lower', format_number(lower)), ('soft_upper', format_number(upper))]
        return tuple(pairs)


def _spread(joints, values, n):
    """Return a row of n: ``values`` at ``joints``, None elsewhere."""
    row = [None] * n
    for j, value in zip(joints, values):
        row[j] = value
    return row


def _rows(samples, n):
    """Return the positions, velocities, accelerations and jerks :meth:`judge` stores, by row."""
    rows = {name: [] for name in ('position', 'velocity', 'acceleration', 'jerk')}
    for sample in samples:
        update, rates = sample.update, sample.rates
        given = dict(zip(update.velocities, update.qd))
        joints = update.positions
        rows['position'].append(_spread(joints, update.q, n))
        rows['velocity'].append(_spread(joints, [given.get(j, rates.qd_smooth[j])
                                                 for j in joints], n))
        for name, estimate in (('acceleration', rates.qdd), ('jerk', rates.qddd)):
            rows[name].append(_spread(joints, [estimate[j] if j in given else None
                                               for j in joints], n))
    return rows


def _chosen(joints, m, n):
    """Return an (m, n) mask: whether each row's ``joints`` (indices) hold joint j."""
    mask = np.zeros((m, n), dtype=bool)
    every = tuple(range(n))
    for k, chosen in enumerate(joints):
        if chosen == every:
            mask[k] = True
        elif chosen:
            mask[k, list(chosen)] = True
    return mask


def _filled(values, chosen, before):
    """Return ``values`` (m, n) where ``chosen``, else the last chosen above, else ``before``."""
    m, n = values.shape
    last = np.maximum.accumulate(np.where(chosen, np.arange(m)[:, None], -1), axis=0)
    return np.where(last >= 0, values[np.maximum(last, 0), np.arange(n)],
                    np.asarray(before, dtype=values.dtype))
