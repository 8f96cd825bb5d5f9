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
What the page shows of a configuration, judged by the node's own code (no viser, no ROS).

Each joint's limit level comes from :class:`monitors.levels.Thresholds` with the model's
``diagnostics.warn_margin`` and ``diagnostics.hysteresis``; the singularity measure, its level
and the kind it names, and the tool's speed from :class:`monitors.arm.ArmLimits` with the
model's settings (the singularity watched whatever ``singularity.enabled`` says: the page
always shows it). Joint rates are the slider's: the change since the last configuration over
the time between the two.
"""

from collections import namedtuple

from dh_kinematics.core import display
from dh_kinematics.node_logic.monitors.arm import ArmLimits
from dh_kinematics.node_logic.monitors.levels import LEVEL_NAMES, OK, Thresholds
import numpy as np

Reading = namedtuple('Reading', 'q levels T_world_tool condition singularity speed speed_level')
Reading.__doc__ = """What the page shows of one configuration.

q : joint values (rad or m); levels : each joint's OK, WARN or ERROR; T_world_tool : the tool's
pose, shape (4, 4); condition : the scaled Jacobian's condition number; singularity : the
status text of the singularity (its level first); speed : the tool's linear speed, m/s (NaN
before the second configuration); speed_level : its level against ``tool_speed_limit``, or
None where the model sets none."""

POSITION_ONLY = (1.0, 1.0, 1.0, 0.0, 0.0, 0.0)
"""The IK mask of an arm of fewer than six joints: the tool's position, any orientation."""


class Readout:
    """
    The levels and measures of the configurations a user moves the arm through.

    Parameters
    ----------
    chain : Chain
        The model.
    settings : dict
        The node's settings (SI units), checked (:func:`parameters.validation.checked`).

    """

    def __init__(self, chain, settings):
        self.chain = chain
        lower, upper = np.asarray(chain.qlim, dtype=float).T
        self._thresholds = Thresholds(lower, upper, settings['diagnostics.warn_margin'],
                                      settings['diagnostics.hysteresis'])
        self._arm = ArmLimits()
        self._arm.configure(chain, dict(settings, **{'singularity.enabled': True}))
        self._levels = [OK] * chain.n
        self._last = None  # (q, seconds) of the last configuration

    def update(self, q, seconds):
        """
        Judge configuration ``q`` (rad or m) reached at monotonic time ``seconds``.

        ``seconds`` None: the arm jumped there (a button, an IK solution), no rate.

        Returns
        -------
        reading : Reading

        """
        q = np.array(q, dtype=float)
        self._levels = self._thresholds.levels(range(self.chain.n), q.tolist(), self._levels)
        qd = None
        if seconds is not None and self._last is not None and seconds > self._last[1]:
            qd = (q - self._last[0]) / (seconds - self._last[1])
        self._last = None if seconds is None else (q, seconds)
        arm = self._arm
        arm.update(q, qd, measure=True)
        statuses = {status.task: status for status in arm.statuses()}
        singular = statuses['singularity']
        speed = statuses.get('tool_speed')
        return Reading(q, list(self._levels), self.chain.fkine(q), arm.measures[-1],
                       f'{LEVEL_NAMES[singular.level]}: {singular.message}', arm.speed,
                       None if speed is None else speed.level)

    def solve(self, T_world_tool, q):
        """
        Find joint values that put the tool at ``T_world_tool`` (shape (4, 4)), from ``q``.

        Returns
        -------
        q : array, shape (n,) or None
            The solution nearest ``q`` within the limits; None where there is none.
        message : str
            How it was found, or why there is none (out of reach, the limits).

        """
        chain = self.chain
        mask = POSITION_ONLY if chain.n < 6 else None
        result = chain.ikine(T_world_tool, q0=q, mask=mask, restarts=20)
        if result.success:
            return result.q, f'solved: {result.note}'
        return None, (f'no solution: {result.note} ({result.position_error:.3g} m, '
                      f'{result.orientation_error:.3g} rad from the target)')


def joint_text(chain, q, degrees=False):
    """Return the joint values as the CLI prints them, each with its unit."""
    parts = []
    for name, link, value in zip(chain.joint_names, chain.links, q):
        scale, unit = display.joint_unit(link.isprismatic(), degrees)
        parts.append(f'{name}={display.format_number(value * scale)} {unit}')
    return ', '.join(parts)


def yaml_line(q, name='here'):
    """Return a line to paste under ``configurations:`` in a model file (rad and m)."""
    return f'{name}: [{", ".join(_yaml_float(float(value)) for value in q)}]'


def _yaml_float(value):
    """Return the shortest text of a finite float that YAML 1.1 and 1.2 read as that float."""
    mantissa, exponent, power = repr(value).partition('e')
    if exponent and '.' not in mantissa:  # YAML 1.1 reads 1e-17 as a string
        return f'{mantissa}.0e{power}'
    return repr(value)
