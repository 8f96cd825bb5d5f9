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
A closed form's arithmetic compiled for one arm: for one target in floats, for a batch on arrays.

A closed form's ``candidates(geometry, t, hint, f)`` is written once, for the floats of one
pose (``t``, the last frame's top rows; ``hint``, a free joint's DH value), every branch in
turn, calling ``f``'s functions (:data:`geometry.FLOATS`). It runs once on symbols
(:mod:`core.symbolic`) with the arm's constants, from the target's own pose ``T_world_tool``
(the base and tool taken out in the same code) and q0, and becomes one straight-line
function: for one target it runs on floats (a few µs, where numpy's per-call cost would be
hundreds), for a batch the same lines run on numpy arrays of one value per target. A branch
without a solution comes out as NaN. Each is compiled on first use and kept with the arm's
geometry.
"""

from dh_kinematics.core.ik.geometry import ARRAYS, FLOATS
from dh_kinematics.core.symbolic import Calls, Code, list_function, store_function
import numpy as np

SIZE = 8
"""Values per checked candidate (:func:`geometry.checks`): 6 joint values, 2 errors."""


def one(geometry, name, candidates, arguments=()):
    """
    Return ``solve(t, *arguments)``: ``candidates``' values of one pose, flat.

    ``t`` is the pose ``T_world_tool``'s top rows (12 floats); ``arguments`` names what
    ``candidates`` takes after ``t``: ``start``, q0's n values, or one float.
    """
    def make():
        code, values = _traced(geometry, candidates, arguments)
        return list_function(code, [values], ', '.join(('t',) + arguments),
                             f'<{name} of one pose>', single=True, functions=FLOATS)
    return geometry.constant(f'{name}: one', make)


def batch(geometry, name, candidates, T, *columns, arguments=()):
    """
    Return the checked candidates of poses ``T`` (m, 4, 4) that exist, and the pose of each.

    ``T`` holds poses ``T_world_tool``; ``columns`` each pose's ``arguments`` (arrays of shape
    (m,), or (n, m) for ``start``). Returns the checks, shape (k, SIZE), pose after pose, and
    the index of each one's pose, shape (k,).
    """
    values = batch_values(geometry, name, candidates, T, *columns, arguments=arguments)
    m = len(T)
    values = values.reshape(-1, SIZE)
    real = ~np.isnan(values[:, 6])  # a candidate, within the limits or not: it has an error
    return values[real], np.repeat(np.arange(m), len(values) // m if m else 0)[real]


def batch_values(geometry, name, function, T, *columns, arguments=()):
    """Return ``function``'s values for poses ``T_world_tool`` (m, 4, 4), flat per pose: (m, k)."""
    def make():
        code, values = _traced(geometry, function, arguments)
        return store_function(code, values, ', '.join(('t',) + arguments),
                              f'<{name} of poses>', functions=ARRAYS)
    compiled, constants = geometry.constant(f'{name}: batch', make)
    m = len(T)
    out = np.empty((m, constants.size))
    out[:] = constants
    with np.errstate(all='ignore'):  # NaN is the answer of a branch without a solution
        compiled(np.ascontiguousarray(T[:, :3].reshape(m, 12).T), *columns, out)
    return out


def _traced(geometry, function, arguments):
    """
    Return (code, values): ``function`` run on symbols, its values flattened.

    ``function`` gets ``T_0_n``'s top rows (:meth:`Geometry.frame_rows` of the pose given). An
    argument named ``start`` is the n values of q0 (``start[j]``), any other one value.
    """
    code = Code()
    t = geometry.frame_rows([code.emit(f't[{k}]') for k in range(12)])
    given = [[code.emit(f'start[{j}]') for j in range(geometry.n)] if name == 'start'
             else code.emit(name) for name in arguments]
    found = function(geometry, t, *given, Calls(code, FLOATS))
    return code, [value for item in found for value in (
        item if isinstance(item, tuple) else (item,))]
