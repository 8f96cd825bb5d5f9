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
Recursive Newton-Euler for one arm, compiled to straight-line Python.

For one configuration, :mod:`core.dynamics.rne` spends much of its time on loops, tuples and
arithmetic with link constants that are 0 or 1. :func:`compile_torques` runs that same code
once on symbols (:mod:`core.symbolic`): the function it returns is the original's arithmetic
minus terms that are exactly zero, so it returns the same numbers as :mod:`core.dynamics.rne`
for finite inputs, to the last bit but for the sign of a zero (a test checks this on random
arms). :func:`snap_twists` makes more constants exact: with it, gravity and motion torques of
the Panda take 9 µs instead of 27.
Units are SI, as in :mod:`core.dynamics.rne`.
"""

from dh_kinematics.core.dynamics import equations, rne
from dh_kinematics.core.dynamics.friction import friction_torque
from dh_kinematics.core.symbolic import Code, list_function, snapped, store_function
import numpy as np


def snap_twists(dyn):
    """
    Return ``dyn`` with each link's cos and sin of alpha within 1e-15 of 0, 1 or -1 made exact.

    The float nearest pi/2 has a cosine of 6e-17, not 0, so the terms it multiplies are 1e-16
    of the others; without them, the torques change by about 1e-15 of their size, and
    :func:`compile_torques` leaves out every such term.
    """
    return dyn._replace(rne_links=tuple(
        link._replace(ca=snapped(link.ca), sa=snapped(link.sa)) for link in dyn.rne_links))


def compile_torques(dyn, gravity=True, motion=True, motors=False, columns=False):
    """
    Return a function of one configuration (or many) computing rigid-body joint torques.

    Parameters
    ----------
    dyn : Dynamics
        The arm (:func:`core.dynamics.equations.dynamics`): its DH table, link constants and
        gravity.
    gravity, motion : bool
        Which torques the function returns: the gravity load (the arm at rest), and the
        torques of :func:`core.dynamics.rne.rigid_body_torques` for given velocities and
        accelerations.
    motors : bool
        Whether the torques for a motion include motor inertia and friction
        (:func:`core.dynamics.equations.with_motors`): then they are those of :meth:`Chain.rne`.
    columns : bool
        Whether the function takes many configurations at once, the same code run by numpy on
        columns.

    Returns
    -------
    torques : callable
        ``torques(q, qd, qdd)`` with sequences of n floats (rad or m, per s, per s^2; ``qd``
        and ``qdd`` unused without ``motion``) returns a tuple: the list of gravity torques
        if ``gravity``, then the list of torques if ``motion`` (N m or N). With ``columns``,
        arrays of shape (m, n) in and out; each row equals the one configuration's to the
        rounding of numpy's cos and sin against math's.

    """
    code = Code()
    n, mdh, links, base = dyn.n, dyn.table.mdh, dyn.rne_links, dyn.base_acceleration
    inputs = {kind: [code.emit(f'{kind}[{j}]') for j in range(n)]
              for kind in ('q', 'qd', 'qdd')[:3 if motion else 1]}
    theta, d = dyn.table.floats(inputs['q'])
    ct, st = [code.call('cos', t) for t in theta], [code.call('sin', t) for t in theta]
    R = rne.rotations(mdh, links, ct, st)
    outputs = []
    if gravity:
        outputs.append(rne.rigid_body_torques(mdh, links, ct, st, d, None, None, base,
                                              R=R))
    if motion:
        qd, qdd = inputs['qd'], inputs['qdd']
        tau = rne.rigid_body_torques(mdh, links, ct, st, d, qd, qdd, base, R=R)
        outputs.append(equations.with_motors(dyn, tau, qd, qdd) if motors else tau)
    if not columns:
        return list_function(code, outputs, 'q, qd, qdd', f'<rne of {n} links>')
    return _over_columns(code, outputs, 'q, qd, qdd', f'<rne columns of {n} links>')


def compile_momentum(dyn, columns=False):
    """
    Return ``momentum(q, qd)``: ``(p, terms)``, the lists ``M(q) qd`` and ``C(q, qd)^T qd - g(q)``.

    ``M`` includes the motors' ``G^2 Jm``; ``C^T qd`` comes from :func:`core.dynamics.rne.momenta`,
    ``g`` from the arm at rest; compiled as :func:`compile_torques` is. ``q`` and ``qd`` are
    sequences of n floats (rad or m, per s); ``p`` is in N m s or kg m/s, ``terms`` in N m or N.
    With ``columns``, arrays of shape (m, n) in and out, as :func:`compile_torques`'s.
    """
    code = Code()
    n, mdh, links = dyn.n, dyn.table.mdh, dyn.rne_links
    q, qd = ([code.emit(f'{kind}[{j}]') for j in range(n)] for kind in ('q', 'qd'))
    theta, d = dyn.table.floats(q)
    ct, st = [code.call('cos', t) for t in theta], [code.call('sin', t) for t in theta]
    R = rne.rotations(mdh, links, ct, st)
    rigid, coriolis = rne.momenta(mdh, links, ct, st, d, qd, R=R)
    gravity = rne.rigid_body_torques(mdh, links, ct, st, d, None, None, dyn.base_acceleration,
                                     R=R)
    p = [value + motor * rate for value, motor, rate in zip(rigid, dyn.floats[0], qd)]
    terms = [c - g for c, g in zip(coriolis, gravity)]
    if columns:
        return _over_columns(code, [p, terms], 'q, qd', f'<momentum columns of {n} links>')
    return list_function(code, [p, terms], 'q, qd', f'<momentum of {n} links>')


def _over_columns(code, outputs, arguments, label):
    """
    Return the function of arrays (m, n) that returns the lists ``outputs`` as arrays (m, n).

    The arguments (``arguments``' names, in order) may be None or left out where the code does
    not read them.
    """
    function, constants = store_function(code, [value for values in outputs for value in values],
                                         arguments, label)
    n, count = len(outputs[0]), len(arguments.split(','))

    def over_columns(*columns):
        columns += (None,) * (count - len(columns))
        out = np.empty((len(columns[0]), len(constants)))
        out[:] = constants
        function(*(None if values is None else np.ascontiguousarray(
            np.asarray(values, dtype=float).T) for values in columns), out)
        return tuple(out[:, k * n:(k + 1) * n] for k in range(len(outputs)))
    return over_columns


def compile_friction(dyn):
    """
    Return ``friction(qd)``: the friction torque (N m) or force (N) of every joint, a list.

    ``qd`` is a sequence of n finite velocities (rad/s or m/s); the values are those of
    :func:`core.dynamics.friction.friction_torque`, compiled as :func:`compile_torques` is (a
    joint without friction is a constant).
    """
    code = Code()
    return list_function(code, [friction_values(code, dyn)], 'qd',
                         f'<friction of {dyn.n} joints>', single=True)


def friction_values(code, dyn):
    """Return every joint's friction as values of ``code``, of ``qd[0]`` .. ``qd[n - 1]``."""
    qd = [code.emit(f'qd[{j}]') for j in range(dyn.n)]
    _, G, B, tc_pos, tc_neg = dyn.floats
    return [friction_torque(*values) for values in zip(qd, G, B, tc_pos, tc_neg)]
