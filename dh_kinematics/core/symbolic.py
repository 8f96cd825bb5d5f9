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
Straight-line code generated from a run of ordinary arithmetic on symbols.

Code written for floats (the float Newton-Euler of :mod:`core.dynamics.rne`, the pose composition
of :mod:`core.kinematics.dh_transforms`, the Levenberg-Marquardt step of :mod:`core.ik.step`) runs
once with :class:`Symbol` objects in place of the joint values. Each operation on a symbol becomes
one line of a new function, in the order the original performs it; an operation that a constant
decides (a product with 0, 1 or -1, a sum with 0) becomes no line at all, and operations on
constants alone are done by the generator, as the original would do them at run time. The result is
the original's arithmetic minus terms that are exactly zero; a division by -1, a negation of a
negation and one of a difference are written as the exact equals they have. Values used once are
written into their single use. So every result equals (``==``) the original's to the last bit,
with one exception: a zero may come out with the other sign (``0.0`` where the original gives
``-0.0``, or back), as the term left out no longer decides it (about 3 % of the link pose values
of random arms).

The same generated text runs on Python floats (:func:`list_function`, one configuration) and
on numpy arrays of shape (m,) (:func:`store_function`, a batch, one column per value): numpy
then does every line for the whole batch at once. The text holds only float literals
(``repr``, and ``nan`` and ``inf``) and names of its own.

This is the package's one place that turns text into code. Each generated function's source
is registered with :mod:`linecache` under a name of its own (``<rne of 7 links #3>``) for as
long as the function lives, so that tracebacks, pdb and :func:`inspect.getsource` show its
lines. With the environment variable ``DH_KINEMATICS_GENERATED_DIR`` set to a folder, each
source is also written there as a ``.py`` file and compiled under that path, for coverage,
profilers and editors.
"""

import itertools
import linecache
import math
import os
import pathlib
import re
import weakref

from dh_kinematics.core import files
import numpy as np

_NAME = re.compile(r'\bv\d+\b')  # the names of emitted lines
SNAP_TOLERANCE = 1e-15
GENERATED_DIR = 'DH_KINEMATICS_GENERATED_DIR'
"""The environment variable naming a folder that receives every generated source."""
_serial = itertools.count(1)


def snapped(value):
    """Return ``value``, or 0, 1 or -1 when it is within SNAP_TOLERANCE (1e-15) of it."""
    for exact in (0.0, 1.0, -1.0):
        if abs(value - exact) < SNAP_TOLERANCE:
            return exact
    return value


class Code:
    """The lines of a function being generated: one assignment each, every name new."""

    def __init__(self):
        self.lines = []
        self._names = {}  # expression -> the name holding it: each is computed once
        self._negations = {}  # name -> the symbol of its negation, where one is known

    def negation(self, symbol):
        """
        Return ``-symbol``: a name already known for it, or one new line.

        ``-(-x)`` is ``x``, and ``-(a - b)`` is written ``b - a``: both exact in floating point
        (but for the sign of a zero difference).
        """
        known = self._negations.get(symbol.name)
        if known is not None:
            return known
        expression = self.lines[int(symbol.name[1:])][1]
        left, operator, right = expression.partition(' - ')
        if operator and ' ' not in left + right and '(' not in left + right:
            negated = self.emit(f'{right} - {left}')
        else:
            negated = self.emit(f'-{symbol.name}')
        self._negations[symbol.name], self._negations[negated.name] = negated, symbol
        return negated

    def emit(self, expression):
        """Return a symbol for ``expression``, adding its line unless it already exists."""
        name = self._names.get(expression)
        if name is None:
            name = self._names[expression] = f'v{len(self.lines)}'
            self.lines.append((name, expression))
        return Symbol(name, self)

    def call(self, function, *values, constant=None):
        """
        Return ``function(*values)``: a symbol, or its value where every value is a constant.

        ``constant`` computes a constant call (math's function of that name by default).
        """
        if any(isinstance(value, Symbol) for value in values):
            return self.emit(f'{function}({", ".join(map(text, values))})')
        return (constant or getattr(math, function))(*values)


class Calls:
    """
    Functions called on values of a :class:`Code`: ``calls.atan2(y, x)`` is one line.

    Parameters
    ----------
    code : Code
    floats : dict
        Each function's float implementation, by name: it folds calls on constants, and the
        generated function for floats calls it (:func:`list_function`'s ``functions``).

    """

    def __init__(self, code, floats):
        self._code, self._floats = code, floats

    def __getattr__(self, name):
        code, constant = self._code, self._floats[name]
        return lambda *values: code.call(name, *values, constant=constant)


def text(value):
    """Return a value as code: a symbol's name, or a float literal."""
    if isinstance(value, Symbol):
        return value.name
    if value != value:  # NaN: a value that does not exist (a closed form's missing branch)
        return 'nan'
    if math.isinf(value):  # a limit that is none
        return 'inf' if value > 0.0 else '(-inf)'
    return repr(float(value))


def _is(value, constant):
    return not isinstance(value, Symbol) and value == constant


class Symbol:
    """A value known only at run time, named in the generated code; operators emit lines."""

    __slots__ = ('name', 'code')

    def __init__(self, name, code):
        self.name, self.code = name, code

    def _emit(self, left, operator, right):
        return self.code.emit(f'{text(left)} {operator} {text(right)}')

    def __neg__(self):
        return self.code.negation(self)

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

    def __truediv__(self, other):
        if _is(other, 1.0):
            return self
        return -self if _is(other, -1.0) else self._emit(self, '/', other)

    def __rtruediv__(self, other):
        return 0.0 if _is(other, 0.0) else self._emit(other, '/', self)

    def __gt__(self, other):  # a bool, which the friction multiplies (floats only)
        return self._emit(self, '>', other)

    def __lt__(self, other):
        return self._emit(self, '<', other)

    def __abs__(self):
        return self.code.emit(f'abs({self.name})')

    def __le__(self, other):
        return self._emit(self, '<=', other)

    def __ge__(self, other):
        return self._emit(self, '>=', other)

    def __and__(self, other):  # of two truth values: bools, or numpy's bool arrays
        return self._emit(self, '&', other)

    def __rand__(self, other):
        return self._emit(other, '&', self)

    def __pow__(self, power):  # a square, written as a product
        if power != 2:
            raise ValueError(f'generated code: only squares, got the power {power}')
        return self * self

    def __or__(self, other):  # of two truth values: bools, or numpy's bool arrays
        return self._emit(self, '|', other)

    def __ror__(self, other):
        return self._emit(other, '|', self)


def list_function(code, outputs, arguments, label, single=False, functions=None):
    """
    Return the function of ``arguments`` that returns the lists ``outputs`` (a tuple).

    With ``single``, ``outputs`` holds one list and the function returns that list. The
    function runs on Python floats (math's cos, sin and sqrt, and ``functions``, a dict of
    further float functions by name).
    """
    returned = ', '.join('[' + ', '.join(map(text, values)) + ']' for values in outputs)
    lines, returned = _inlined(_needed(code.lines, returned), returned)
    result = returned if single else f'({returned},)'
    return _compiled(arguments, lines, [f'return {result}'], label, math, functions)


def store_function(code, values, arguments, label, functions=None):
    """
    Return ``(function, constants)`` that fill the columns of a batch's output with ``values``.

    ``function(*arguments, out)`` writes ``out[:, k]`` for every value that is a symbol, for an
    ``out`` of shape (m, len(values)), with numpy on arrays of shape (m,). ``constants``, shape
    (len(values),), holds the other values and 0 where a symbol goes: fill ``out`` with it
    first. Only the lines that some stored value needs are kept. ``functions`` is a dict of
    further array functions by name, as :func:`list_function`'s for floats.
    """
    stored = '\n'.join(f'out[:, {k}] = {text(value)}' for k, value in enumerate(values)
                       if isinstance(value, Symbol))
    lines, stored = _inlined(_needed(code.lines, stored), stored)
    function = _compiled(f'{arguments}, out', lines, stored.split('\n') if stored else ['pass'],
                         label, np, functions)
    constants = np.array([0.0 if isinstance(value, Symbol) else value for value in values])
    return function, constants


def _compiled(arguments, lines, last, label, functions, extra=None):
    """Return the function ``generated(arguments)`` of ``lines``, registered (module docstring)."""
    body = [f'{name} = {expression}' for name, expression in lines] + last
    source = '\n    '.join([f'def generated({arguments}):'] + body) + '\n'
    serial = next(_serial)
    filename = f'{label[:-1]} #{serial}>' if label.endswith('>') else f'{label} #{serial}'
    folder = os.environ.get(GENERATED_DIR)
    if folder:
        stem = re.sub(r'[^A-Za-z0-9]+', '_', filename).strip('_')
        path = pathlib.Path(folder).resolve() / f'{stem}_{os.getpid()}.py'
        path.parent.mkdir(parents=True, exist_ok=True)
        files.write_text(path, f'# {filename}: generated by dh_kinematics.core.symbolic\n{source}')
        filename, source = str(path), path.read_text()
    namespace = dict({'cos': functions.cos, 'sin': functions.sin, 'sqrt': functions.sqrt,
                      'nan': math.nan, 'inf': math.inf}, **(extra or {}))
    exec(compile(source, filename, 'exec'), namespace)  # float literals and names only
    function = namespace['generated']
    if not folder:
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        weakref.finalize(function, linecache.cache.pop, filename, None)
    return function


def _needed(lines, returned):
    """Return the lines that what is returned depends on, in order."""
    used = set(_NAME.findall(returned))
    kept = []
    for name, expression in reversed(lines):
        if name in used:
            kept.append((name, expression))
            used.update(_NAME.findall(expression))
    return kept[::-1]


MAX_NESTING = 50
"""The deepest brackets an inlined value's expression reaches (module :func:`_inlined`)."""


def _inlined(lines, returned):
    """
    Write each value used once into the expression that uses it; return (lines, returned).

    Fewer names to store and load; every operation keeps its operands, so its result. A
    value whose expression would nest deeper than :data:`MAX_NESTING` brackets keeps its name
    (Python's parser refuses 200: the sums along a long chain of links nest one per link).
    """
    uses = {}
    for source in [expression for _, expression in lines] + [returned]:
        for name in _NAME.findall(source):
            uses[name] = uses.get(name, 0) + 1
    inline, kept = {}, []

    def substitute(source):
        return _NAME.sub(lambda match: inline.get(match.group(), match.group()), source)

    for name, expression in lines:
        expression = substitute(expression)
        if uses.get(name) == 1 and _nesting(expression) < MAX_NESTING:
            inline[name] = f'({expression})'
        else:
            kept.append((name, expression))
    return kept, substitute(returned)


def _nesting(expression):
    """Return how deep the brackets of ``expression`` nest."""
    depth = deepest = 0
    for character in expression:
        if character in '([':
            depth += 1
            deepest = max(deepest, depth)
        elif character in ')]':
            depth -= 1
    return deepest
