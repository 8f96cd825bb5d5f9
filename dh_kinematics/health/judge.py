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
One log of a fleet judged: replay's report, and each joint's friction and RMS figures.

:func:`judge` runs where a worker runs. It reads the log a block at a time through replay's
code (:mod:`replay.source`, :class:`replay.Replay`: the node's own flow) and writes replay's
report; on the same blocks it fits each joint's friction with the rigid model held
(:class:`identification.friction.FrictionFit`) and sums the squares of the effort residual
(measured - expected effort) and of the momentum observer's external torque, at rest (every
joint slower than the rest speed) and in motion. The messages while any joint is at ERROR (a
contact, a limit passed) are the log's events, counted as such: they enter neither the fit nor
the sums. Memory is bounded by the block, not the log.

A log that cannot be read is a :class:`LogHealth` saying why (``problem``); one that fails part
way (cut short, a bad record) is judged up to there and says where it stopped.
"""

from dataclasses import dataclass, field
import math
import os
import pathlib
import shutil
import tempfile

from dh_kinematics.identification.friction import FrictionFit, MOVING
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, WARN
from dh_kinematics.replay import Replay, source
from dh_kinematics.replay.maxima import QUANTITIES
from dh_kinematics.replay.report import worst as worst_levels
import numpy as np

__all__ = ['judge', 'JointHealth', 'LogHealth', 'Model']

LIMITED = ('position margin', 'velocity', 'acceleration', 'jerk', 'effort')
CLUSTER_S = 0.5
"""The span of the clusters whose mean squares give the residual's RMS its deviation, s."""
"""The quantities with a limit, whose worst margin each joint's row gives."""


@dataclass(frozen=True)
class Model:
    """
    An arm's model as a worker needs it.

    Attributes
    ----------
    name : str
        The arm's name where a log does not say it (the model's name, or its file's).
    checked : validation.Parameters
        The model and the node's settings, read and checked as the node reads them.

    """

    name: str
    checked: object


@dataclass(frozen=True)
class JointHealth:
    """
    One joint in one log.

    Attributes
    ----------
    name : str
        The joint.
    friction : JointFriction
        Viscous and Coulomb friction (motor side), their standard deviations, or why none.
    residual, observer : tuple of float
        The RMS of the effort residual and of the observer's external torque (N m or N), at
        rest and in motion; NaN where there was no such message.
    residual_std : float
        The standard deviation of the RMS in motion: from the spread of the mean squares of
        its clusters of :data:`CLUSTER_S` (their correlation's span is shorter).
    margins : dict of str to float
        The worst margin to each limit of :data:`LIMITED` (rad, rad/s, ... or m, N: the limit
        less the worst value; negative past it); NaN where there is no limit or value.

    """

    name: str
    friction: object
    residual: tuple
    observer: tuple
    residual_std: float
    margins: dict


@dataclass(frozen=True)
class LogHealth:
    """
    One log judged.

    Attributes
    ----------
    path, name : str
        The log as given, and its report's folder's name.
    arm : str
        The bag's robot_description name, else the model's name.
    first_s, duration_s : float
        The first stamp and the span of the stamps, s; NaN where none was read.
    messages : int
        The messages read.
    worst : dict of str to int
        Each status's worst level (its name as the node names it).
    alarms : dict of str to int
        Each status's alarms: how often it left OK for WARN or ERROR.
    first_error : Transition or None
        The first ERROR.
    maxima : list of tuple
        :meth:`Maxima.rows`.
    joints : tuple of JointHealth
        In the model's order; none where the log was not judged.
    problem : str
        Why the log was not judged, or where it stopped; '' where it was read whole.
    report : dict of str to bytes
        Replay's report folder: each file's path in it, and its bytes.

    """

    path: str
    name: str
    arm: str
    first_s: float = math.nan
    duration_s: float = math.nan
    messages: int = 0
    worst: dict = field(default_factory=dict)
    alarms: dict = field(default_factory=dict)
    first_error: object = None
    maxima: list = field(default_factory=list)
    joints: tuple = ()
    problem: str = ''
    report: dict = field(default_factory=dict)


class _Sums:
    """The squares of the residual and the observer, at rest and in motion, and the fit's input."""

    def __init__(self, chain, rest_speed, fit):
        self._rest_speed, self._fit = rest_speed, fit
        n = chain.n
        self.squares = np.zeros((2, 2, n))  # (residual, observer), (rest, motion), joint
        self.counts = np.zeros((2, 2, n))
        # The residual's mean square in motion per cluster of CLUSTER_S: the clusters' sum, sum
        # of squares and count per joint, and the cluster under way (its number, sums, counts).
        self._clusters = np.zeros((3, n))
        self._open = (None, np.zeros(n), np.zeros(n))
        self.messages, self.first_ns, self.last_ns = 0, None, None

    def __call__(self, stamps, values, levels):
        """Take a block of :class:`Replay`'s messages (its ``taken``)."""
        stamps = np.asarray(stamps)
        self.messages += len(stamps)
        self.first_ns = stamps[0] if self.first_ns is None else self.first_ns
        self.last_ns = stamps[-1]
        keep = ~(np.asarray(levels) == ERROR).any(axis=1)
        q, qd, tau = values[:, 0], values[:, 1], values[:, 4]
        known = np.isfinite(q).all(axis=1) & np.isfinite(qd).all(axis=1) & np.isfinite(
            tau).all(axis=1)
        self._fit.add(stamps[known] * 1e-9, q[known], qd[known], tau[known], keep[known])
        moving = ~(np.abs(qd) < self._rest_speed).all(axis=1)  # NaN: not known at rest
        for k, estimate in enumerate((values[:, 5], values[:, 6])):
            finite = np.isfinite(estimate) & keep[:, None]
            squares = np.where(finite, estimate, 0.0) ** 2
            for phase, rows in enumerate((~moving, moving)):
                self.squares[k, phase] += squares[rows].sum(axis=0)
                self.counts[k, phase] += finite[rows].sum(axis=0)
            if k == 0:
                self._cluster(stamps[moving], squares[moving], finite[moving])

    def _cluster(self, stamps, squares, finite):
        """Add messages in motion to the clusters of :data:`CLUSTER_S` (stamps in order)."""
        if not len(stamps):
            return
        numbers = np.floor(stamps * (1e-9 / CLUSTER_S))
        starts = np.flatnonzero(np.concatenate([[True], numbers[1:] != numbers[:-1]]))
        for first, end in zip(starts, np.append(starts[1:], len(numbers))):
            number, sums, counts = self._open
            if number != numbers[first]:
                self._close()
                number, sums, counts = numbers[first], np.zeros(len(sums)), np.zeros(len(sums))
            self._open = (number, sums + squares[first:end].sum(axis=0),
                          counts + finite[first:end].sum(axis=0))

    def _close(self):
        """Count the cluster under way, where it has messages."""
        _, sums, counts = self._open
        full = counts > 0
        mean = np.where(full, sums / np.where(full, counts, 1.0), 0.0)
        self._clusters += np.stack([mean, mean ** 2, full.astype(float)])
        self._open = (None, np.zeros(len(sums)), np.zeros(len(sums)))

    def rms(self):
        """Return the RMS (2, 2, n), and the standard deviation of the residual's in motion."""
        self._close()
        with np.errstate(invalid='ignore', divide='ignore'):
            rms = np.sqrt(self.squares / self.counts)
            total, squares, count = self._clusters
            variance = (squares - total ** 2 / count) / (count - 1) / count  # of the mean square
            spread = np.sqrt(np.maximum(variance, 0.0)) / (2.0 * rms[0, 1])
        return rms, np.where(count >= 2, spread, math.nan)


def judge(path, name, models, topic='/joint_states', report=None):
    """
    Judge one log (the module's docstring); return its :class:`LogHealth`.

    Parameters
    ----------
    path : str
        A rosbag2 folder or a CSV joint log.
    name : str
        Its report folder's name (``DIR/logs/<name>``).
    models : sequence of Model
        The fleet's models: the log's is the one whose joints its first message names.
    topic : str
        The bag's JointState topic.
    report : callable, optional
        ``report(folder, checked, replay, transitions)`` writes replay's report into a new
        folder (:func:`cli.replay.write_report`, with its pictures); its files go into
        :attr:`LogHealth.report`. None: no report.

    """
    path = str(path)
    try:
        chosen, _, messages = source.messages(
            path, topic, [model.checked.chain.joint_names for model in models])
        model = models[chosen]
        arm = _bag_arm(path) or model.name
    except (ValueError, OSError) as error:
        return LogHealth(path, name, '', problem=_said(error))
    chain, settings = model.checked.chain, model.checked.settings
    fit = FrictionFit(chain)
    sums = _Sums(chain, settings['effort.rest_speed'] or MOVING, fit)
    replay = Replay(chain, settings, taken=sums)
    found, problem = [], ''
    try:
        for transition in replay.transitions(messages):
            found.append(transition)
    except (ValueError, OSError) as error:
        problem = f'judged up to where it stopped: {_said(error)}'
    files = _report(report, model.checked, replay, found) if report and sums.messages else {}
    rms, spread = sums.rms()
    frictions = fit.result()
    maxima = replay.maxima.rows()
    joints = tuple(JointHealth(joint, frictions[j], tuple(rms[0, :, j].tolist()),
                               tuple(rms[1, :, j].tolist()), float(spread[j]),
                               _margins(maxima, joint))
                   for j, joint in enumerate(chain.joint_names))
    worst, alarms, first_error = _levels(found)
    first_s = math.nan if sums.first_ns is None else sums.first_ns * 1e-9
    duration = math.nan if sums.first_ns is None else (sums.last_ns - sums.first_ns) * 1e-9
    return LogHealth(path, name, arm, first_s, duration, sums.messages, worst, alarms,
                     first_error, maxima, joints, problem, files)


def _bag_arm(path):
    """Return the bag's robot_description name, or None (a CSV log, or a bag without it)."""
    if not os.path.isdir(path):
        return None
    from dh_kinematics.logs import bag
    return bag.robot_name(path)


def _report(write_report, checked, replay, found):
    """Write replay's report into a temporary folder; return its files' bytes by path."""
    staging = pathlib.Path(tempfile.mkdtemp(prefix='dh_kinematics-health-'))
    try:
        folder = staging / 'report'
        write_report(folder, checked, replay, found)
        return {str(file.relative_to(folder)): file.read_bytes()
                for file in sorted(folder.rglob('*')) if file.is_file()}
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _margins(maxima, joint):
    """Return the joint's worst margin to each limit of :data:`LIMITED`."""
    margins = dict.fromkeys(LIMITED, math.nan)
    for subject, quantity, value, _, limit in maxima:
        if subject == joint and quantity in LIMITED:
            margins[quantity] = value if quantity == QUANTITIES[0] else limit - value
    return margins


def _levels(found):
    """Return each status's worst level and alarms, and the first ERROR, of the transitions."""
    worst, first_error = worst_levels(found)
    alarms, last = dict.fromkeys(worst, 0), {}
    for t in found:
        if t.level in (WARN, ERROR) and last.get(t.status, OK) not in (WARN, ERROR):
            alarms[t.status] += 1
        last[t.status] = t.level
    return worst, alarms, first_error


def _said(error):
    """Return an error as one line."""
    return ' '.join(str(error).split()) or type(error).__name__
