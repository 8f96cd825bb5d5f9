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

For one configuration, :mod:`core.rne_floats` spends much of its time on loops, tuples and
arithmetic with link constants that are 0 or 1. :func:`compile_torques` runs that same code
once on symbols (:class:`_Symbol`) in place of the joint values: each operation on a symbol
becomes one line of a new function, in the order the original performs it, and an operation
that a constant decides (a product with 0, 1 or -1, a sum with 0) becomes no line at all.
Operations on constants alone are done by the generator, as the original would do them at
run time. The function is the original's arithmetic minus terms that are exactly zero, so it
returns the same numbers as :mod:`core.rne_floats` for finite inputs (a test checks this on
random arms). Values used once are written into their single use. :func:`square_twists`
makes more constants exact: with it, gravity and motion torques of the Panda take 9 µs
instead of 27. The generated text holds only float literals (``repr``) and names of its own.
Units are SI, as in :mod:`core.rne`.
"""

import math
import re

from dh_kinematics.core import dynamics, rne_floats
from dh_kinematics.core.link import friction_torque

_NAME = re.compile(r'\bv\d+\b')  # the names of emitted lines
SQUARE_TOLERANCE = 1e-15


def square_twists(dyn):
    """
    Return ``dyn`` with each link's cos and sin of alpha within 1e-15 of 0, 1 or -1 made exact.

    The float nearest pi/2 has a cosine of 6e-17, not 0, so the terms it multiplies are 1e-16
    of the others; without them, the torques change by about 1e-15 of their size, and
    :func:`compile_torques` leaves out every such term.
    """
    def square(value):
        for exact in (0.0, 1.0, -1.0):
            if abs(value - exact) < SQUARE_TOLERANCE:
                return exact
        return value

    return dyn._replace(rne_links=tuple(
        link._replace(ca=square(link.ca), sa=square(link.sa)) for link in dyn.rne_links))


class _Code:
    """The lines of a function being generated: one assignment each, every name new."""

    def __init__(self):
        self.lines = []
        self._names = {}  # expression -> the name holding it: each is computed once

    def emit(self, expression):
        """Return a symbol for ``expression``, adding its line unless it already exists."""
        name = self._names.get(expression)
        if name is None:
            name = self._names[expression] = f'v{len(self.lines)}'
            self.lines.append((name, expression))
        return _Symbol(name, self)

    def call(self, function, value):
        """Return ``function(value)``: a symbol, or a float for a constant ``value``."""
        if isinstance(value, _Symbol):
            return self.emit(f'{function}({value.name})')
        return getattr(math, function)(value)


def _text(value):
    if isinstance(value, _Symbol):
        return value.name
    if not math.isfinite(value):
        raise ValueError(f'rne: a constant is not finite: {value}')
    return repr(float(value))


def _is(value, constant):
    return not isinstance(value, _Symbol) and value == constant


class _Symbol:
    """A value known only at run time, named in the generated code; operators emit lines."""

    __slots__ = ('name', 'code')

    def __init__(self, name, code):
        self.name, self.code = name, code

    def _emit(self, left, operator, right):
        return self.code.emit(f'{_text(left)} {operator} {_text(right)}')

    def __neg__(self):
        return self.code.emit(f'-{self.name}')

    def __add__(self, other):
        return self if _is(other, 0.0) else self._emit(self, '+', other)

    def __radd__(self, other):
        return self if _is(other, 0.0) else self._emit(other, '+', self)

    def __sub__(self, other):
        return self if _is(other, 0.0) else self._emit(self, '-', other)

    def __rsub__(self, other):
        return -self if _is(other, 0.0) else self._emit(other, '-', self)

    def _times(self, other, left):
        if _is(other, 0.0):
            return 0.0
        if _is(other, 1.0):
            return self
        if _is(other, -1.0):
            return -self
        return self._emit(other, '*', self) if left else self._emit(self, '*', other)

    def __mul__(self, other):
        return self._times(other, False)

    def __rmul__(self, other):
        return self._times(other, True)

    def __gt__(self, other):  # a bool, which the friction multiplies
        return self._emit(self, '>', other)

    def __lt__(self, other):
        return self._emit(self, '<', other)


def compile_torques(dyn, gravity=True, motion=True, motors=False):
    """
    Return a function of one configuration computing rigid-body joint torques.

    Parameters
    ----------
    dyn : Dynamics
        The arm (:func:`core.dynamics.dynamics`): its DH table, link constants and gravity.
    gravity, motion : bool
        Which torques the function returns: the gravity load (the arm at rest), and the
        torques of :func:`core.rne_floats.rigid_body_torques` for given velocities and
        accelerations.
    motors : bool
        Whether the torques for a motion include motor inertia and friction
        (:func:`core.dynamics.with_motors`): then they are those of :meth:`Chain.rne`.

    Returns
    -------
    torques : callable
        ``torques(q, qd, qdd)`` with sequences of n floats (rad or m, per s, per s^2; ``qd``
        and ``qdd`` unused without ``motion``) returns a tuple: the list of gravity torques
        if ``gravity``, then the list of torques if ``motion`` (N m or N).

    """
    code = _Code()
    n, mdh, links, base = dyn.n, dyn.table.mdh, dyn.rne_links, dyn.base_acceleration
    inputs = {kind: [code.emit(f'{kind}[{j}]') for j in range(n)]
              for kind in ('q', 'qd', 'qdd')[:3 if motion else 1]}
    theta, d = dyn.table.floats(inputs['q'])
    ct, st = [code.call('cos', t) for t in theta], [code.call('sin', t) for t in theta]
    R = rne_floats.rotations(mdh, links, ct, st)
    outputs = []
    if gravity:
        outputs.append(rne_floats.rigid_body_torques(mdh, links, ct, st, d, None, None, base, R))
    if motion:
        qd, qdd = inputs['qd'], inputs['qdd']
        tau = rne_floats.rigid_body_torques(mdh, links, ct, st, d, qd, qdd, base, R)
        outputs.append(dynamics.with_motors(dyn, tau, qd, qdd) if motors else tau)
    return _function(code, outputs, 'q, qd, qdd', f'<rne of {n} links>')


def compile_friction(dyn):
    """
    Return ``friction(qd)``: the friction torque (N m) or force (N) of every joint, a list.

    ``qd`` is a sequence of n finite velocities (rad/s or m/s); the values are those of
    :func:`core.link.friction_torque`, compiled as :func:`compile_torques` is (a joint without
    friction is a constant).
    """
    code = _Code()
    qd = [code.emit(f'qd[{j}]') for j in range(dyn.n)]
    _, G, B, tc_pos, tc_neg = dyn.floats
    torques = [friction_torque(*values) for values in zip(qd, G, B, tc_pos, tc_neg)]
    return _function(code, [torques], 'qd', f'<friction of {dyn.n} joints>', single=True)


def _function(code, outputs, arguments, label, single=False):
    """Return the function of ``arguments`` that returns the lists ``outputs`` (a tuple)."""
    returned = ', '.join('[' + ', '.join(map(_text, values)) + ']' for values in outputs)
    lines, returned = _inlined(_needed(code.lines, returned), returned)
    body = [f'    {name} = {expression}' for name, expression in lines]
    result = returned if single else f'({returned},)'
    source = '\n'.join([f'def generated({arguments}):'] + body + [f'    return {result}'])
    namespace = {'cos': math.cos, 'sin': math.sin}
    exec(compile(source, label, 'exec'), namespace)  # float literals and names only
    return namespace['generated']


def _needed(lines, returned):
    """Return the lines that what is returned depends on, in order."""
    used = set(_NAME.findall(returned))
    kept = []
    for name, expression in reversed(lines):
        if name in used:
            kept.append((name, expression))
            used.update(_NAME.findall(expression))
    return kept[::-1]


def _inlined(lines, returned):
    """
    Write each value used once into the expression that uses it; return (lines, returned).

    Fewer names to store and load; every operation keeps its operands, so its result.
    """
    uses = {}
    for text in [expression for _, expression in lines] + [returned]:
        for name in _NAME.findall(text):
            uses[name] = uses.get(name, 0) + 1
    inline, kept = {}, []

    def substitute(text):
        return _NAME.sub(lambda match: inline.get(match.group(), match.group()), text)

    for name, expression in lines:
        expression = substitute(expression)
        if uses.get(name) == 1:
            inline[name] = f'({expression})'
        else:
            kept.append((name, expression))
    return kept, substitute(returned)
