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
Formulas into code: a plain numpy function of the joint variables, and text or LaTeX to read.

:func:`to_function` is SymPy's ``lambdify`` with the arguments in the order given; each argument
takes a number or an array (a batch), and the result has the expression's shape.
"""

import textwrap

import sympy


def to_function(expression, *arguments):
    """
    Return a numpy function of ``arguments`` (sequences of symbols) evaluating ``expression``.

    ``f = to_function(arm.fkine(), arm.q)``, then ``f([0.1, 0.2])``: the 4x4 pose as an array.
    """
    # Common subexpressions once: the dynamics' recursion shares most of its terms.
    function = sympy.lambdify(arguments, expression, modules='numpy', cse=True)
    function.__doc__ = f'Evaluate {len(arguments)} argument(s) into the expression (numpy).'
    return function


def text(expression, latex=False, width=None):
    """
    Return an expression or matrix as text a terminal shows (or as LaTeX with ``latex``).

    Drawn in two dimensions, unless ``width`` is given: then on lines, as Python writes it
    (``0.4318*cos(q1)*cos(q2)``), broken between terms at ``width`` columns, the lines after the
    first indented (drawn formulas broken across lines cannot be read).
    """
    if latex:
        return sympy.latex(expression, full_prec=False)
    if width is None:
        return sympy.pretty(expression, use_unicode=True, wrap_line=False, full_prec=False)
    return textwrap.fill(sympy.sstr(expression, full_prec=False), width,
                         subsequent_indent='    ', break_long_words=False,
                         break_on_hyphens=False)
