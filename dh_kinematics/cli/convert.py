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
``dh_kinematics convert``: a DH table in a toolbox's order to a model file (ROS-free).

The table comes as a CSV file (one row per joint; ``#`` comments and a header row allowed) or
as a MATLAB-style matrix literal, ``"[0 0.089159 0 pi/2; 0 0 -0.425 0]"``, whose entries may be
numbers or simple expressions of ``pi`` (``pi/2``, ``-pi/2``, ``2*pi``; no spaces inside one).
Orders (:mod:`core.legacy_rows`): ``corke`` ``[theta d a alpha (sigma (offset))]``, ``scilab``
``[alpha A theta D (sigma)]``, ``matlab`` ``[a alpha d theta]``.
"""

import ast
import math
import operator
import pathlib
import re

from dh_kinematics.core.chain import Chain
from dh_kinematics.core.link import Link

ORDERS = ('corke', 'scilab', 'matlab')
# Columns that hold angles, by order; Corke's offset (5) is one only for a revolute joint.
_ANGLES = {'corke': (0, 3), 'scilab': (0, 2), 'matlab': (1, 3)}
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
              ast.Div: operator.truediv}


def _value(text):
    """Evaluate one table entry: a number, or +, -, *, / of numbers and pi."""
    def evaluate(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id == 'pi':
            return math.pi
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = evaluate(node.operand)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](evaluate(node.left), evaluate(node.right))
        raise ValueError
    try:
        return evaluate(ast.parse(text.strip(), mode='eval').body)
    except (SyntaxError, ValueError, ZeroDivisionError):
        raise ValueError(f'table: {text.strip()!r} is not a number (numbers and pi only, '
                         'e.g. -pi/2)') from None


def read_table(source):
    """Return the rows of a CSV file or a matrix literal, as lists of float."""
    text = source.strip()
    if text.startswith('['):
        if not text.endswith(']'):
            raise ValueError(f'table: a matrix literal must end with "]": {source!r}')
        lines = text[1:-1].split(';')
        split = re.compile(r'[\s,]+')
    else:
        path = pathlib.Path(source)
        try:
            lines = path.read_text(encoding='utf-8').splitlines()
        except OSError as error:
            raise ValueError(f'{source}: cannot read the table: {error.strerror}') from None
        split = re.compile(r'\s*,\s*')
    rows = []
    for number, line in enumerate(lines, start=1):
        line = line.split('#')[0].strip()
        if not line:
            continue
        cells = [cell for cell in split.split(line) if cell]
        if not rows and not text.startswith('[') and not _numeric(cells[0]):
            continue  # a header row
        try:
            rows.append([_value(cell) for cell in cells])
        except ValueError as error:
            raise ValueError(f'row {number}: {error}') from None
    if not rows:
        raise ValueError(f'table: no rows in {source!r}')
    return rows


def _numeric(cell):
    try:
        _value(cell)
    except ValueError:
        return False
    return True


def chain_from_table(rows, order, convention='standard', degrees=False, joint_names=None,
                     prismatic=(), name=''):
    """
    Build a Chain from table rows in a toolbox's order.

    Parameters
    ----------
    rows : list of list of float
        One row per joint.
    order : {'corke', 'scilab', 'matlab'}
        The toolbox whose column order the rows follow.
    convention : {'standard', 'modified'}
        The DH convention of the table.
    degrees : bool
        The angle columns are in degrees (Corke's offset too, for a revolute joint).
    joint_names : list of str, optional
        Names as in joint_states; joint1... by default.
    prismatic : collection of int
        1-based indices of prismatic joints, for the MATLAB order (which has no sigma).
    name : str
        Robot name.

    """
    if joint_names is not None and len(joint_names) != len(rows):
        raise ValueError(f'--joint-names: {len(rows)} names expected (one per row), got '
                         f'{len(joint_names)}')
    links = []
    for i, row in enumerate(rows):
        row = list(row)
        if degrees:
            revolute = not (order == 'corke' and len(row) > 4 and row[4] == 1.0)
            columns = _ANGLES[order] + ((5,) if order == 'corke' and revolute else ())
            for column in columns:
                if column < len(row):
                    row[column] = math.radians(row[column])
        joint_name = joint_names[i] if joint_names else f'joint{i + 1}'
        try:
            if order == 'corke':
                link = Link.from_dh_row(row, convention)
            elif order == 'scilab':
                link = Link.from_scilab_row(row, convention)
            else:
                joint = 'prismatic' if i + 1 in prismatic else 'revolute'
                link = Link.from_matlab_row(row, 'mdh' if convention == 'modified' else 'dh',
                                            joint)
        except ValueError as error:
            raise ValueError(f'row {i + 1}: {error}') from None
        links.append(link.replace(name=joint_name))
    return Chain(links, name=name)
