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
What every monitor judges: one accepted message's values, as the flow has them.

:meth:`LimitDiagnostics.after_message` hands a :data:`Sample` to each monitor that is on, through
the one protocol every monitor keeps: ``configure(chain, settings)`` once per change of the
model or the settings, ``judge(sample)`` once per message (True when a level moved), and
``statuses()`` or ``describe(j)`` and ``values(j)`` for what the diagnostics say.
"""

from collections import namedtuple

from dh_kinematics.node_logic.rate_estimate import MAX_RATE

NOTHING_YET = 'not judged: no joint_states yet'
"""What a status that needs the arm's state says before it has it (STALE)."""

Sample = namedtuple('Sample', 'update rates configuration efforts measure safety state '
                    'jacobian figures', defaults=(False, None, None, None))
Sample.__doc__ = """One accepted message, for the monitors to judge.

update : JointStateCache's update
    The joints the message set: ``positions`` and ``q``, ``velocities`` and ``qd``,
    ``efforts`` and ``effort`` (indices, then values in rad, m, per s, N m or N), ``stamp_ns``.
rates : RateEstimate
    The velocities (``qd``, ``qd_smooth``), accelerations (``qdd``) and jerks (``qddd``) of
    every joint as estimated so far (None where not known).
configuration : list of float or None
    Every joint's position (rad or m), where the arm's limits or measures need it and every
    joint has one; else None.
efforts : (joints, measured, expected, stamp_ns, residuals) or None
    The efforts (N m or N) of the joints whose effort the message carried, the model's and
    their differences, where the effort monitor is on and the model's are known; else None.
measure : bool
    Whether ``~/manipulability`` wants the arm's measures whether watched or not.
safety : bool
    Whether ``~/safety`` wants the safety values whether watched or not.
state : list of float or None
    The arm's state at the configuration (:class:`core.state.ArmState`: the safety
    monitor's), with the rates, or 0 where one is unknown; None where there is no configuration
    or nothing reads it.
jacobian : array (6, n) or None
    The tool's Jacobian [v; w] from ``state``, where the arm's limits or the tool wrench read it.
figures : dict or None
    The figures that cost most, measured for a whole block of messages at once
    (:meth:`LimitDiagnostics.ahead`), by the task that reads them; None: each monitor measures
    its own.
"""


Figure = namedtuple('Figure', 'label task limit smaller')
Figure.__doc__ = """One value of ``~/safety``: its label, the status that judges it, its limit
(SI units; None: none of its own) and whether smaller is worse (a plane's distance, the
permitted contact speed)."""


def unknown_positions():
    """Say why nothing is judged: a joint's position is unknown (STALE)."""
    return "not judged: a joint's position is unknown or not finite (see the joint's status)"


def unknown_rates(sample, chain):
    """Say why what needs the joint rates is not judged on ``sample``: which rates are unknown."""
    names = [name for name, rate in zip(chain.joint_names, sample.rates.qd) if rate is None]
    return (f'not judged: no velocity of {", ".join(names)} yet (one was not finite or beyond '
            f'{MAX_RATE:g} rad/s or m/s, or came after a gap)')
