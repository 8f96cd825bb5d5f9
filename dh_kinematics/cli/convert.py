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
Orders (:mod:`core.legacy_rows`): ``corke`` ``[theta d a alpha (sigma (offset))]``,
``scilab`` ``[alpha A theta D (sigma)]`` or its dyn row, ``dyn`` (Corke's legacy DYN matrix, the
columns of the dyn row: ``[alpha A theta D sigma m rx ry rz Ixx Iyy Izz Ixy Iyz Ixz Jm (G (B (Tc+
Tc-)))]``, 16, 17, 18 or 20 of them), ``matlab`` ``[a alpha d theta]``. A value in the joint
variable's place (theta of a revolute joint, d of a prismatic one) is ignored, as the toolboxes
ignore it, with one warning naming the rows
(:class:`core.legacy_rows.PlaceholderWarning`).

A CSV file's header row may name more columns than the order's, anywhere in the row: ``qmin``
and ``qmax`` (joint limits, rad or m; deg for revolute joints with ``--deg``), ``flip`` (0 or
1), the dynamics ``m rx ry rz Ixx Iyy Izz Ixy Iyz Ixz Jm G B Tc+ Tc-`` and ``effort_limit``,
``velocity_limit``. The other columns are the order's, in its order.
"""

import ast
import math
import operator
import re
import warnings

from dh_kinematics.cli import models
from dh_kinematics.cli.arguments import PROG
from dh_kinematics.core import files
from dh_kinematics.core.chain import Chain
from dh_kinematics.core.legacy_rows import (
    CORKE_LAYOUT, MATLAB_LAYOUT, PlaceholderWarning, SCILAB_LAYOUT)
from dh_kinematics.core.link import Link

MAX_TABLE_BYTES = 1 << 20
"""The largest table file read, bytes (a DH table is a few hundred)."""
ORDERS = ('corke', 'scilab', 'dyn', 'matlab')
# Columns that hold angles, by order; Corke's offset (5) is one only for a revolute joint.
_ANGLES = {'corke': (0, 3), 'scilab': (0, 2), 'dyn': (0, 2), 'matlab': (1, 3)}
EXTRA_COLUMNS = ('qmin', 'qmax', 'flip', 'm', 'rx', 'ry', 'rz', 'Ixx', 'Iyy', 'Izz', 'Ixy',
                 'Iyz', 'Ixz', 'Jm', 'G', 'B', 'Tc+', 'Tc-', 'effort_limit', 'velocity_limit')
"""Columns a CSV header may name beside the order's own, each a Link field or part of one."""
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
    """
    Return the header and rows of a CSV file or a matrix literal.

    Returns
    -------
    header : list of str or None
        The CSV file's header row (its cells stripped), None without one.
    rows : list of list of float
        One row per joint.

    """
    text = source.strip()
    if text.startswith('['):
        if not text.endswith(']'):
            raise ValueError(f'table: a matrix literal must end with "]": {source!r}')
        lines = text[1:-1].split(';')
        split = re.compile(r'[\s,]+')
    else:
        lines = files.read_text(source, 'table', MAX_TABLE_BYTES).splitlines()
        split = re.compile(r'\s*,\s*')
    header, rows = None, []
    for number, line in enumerate(lines, start=1):
        line = line.split('#')[0].strip()
        if not line:
            continue
        cells = [cell for cell in split.split(line) if cell]
        if not rows and header is None and not text.startswith('[') and not _numeric(cells[0]):
            header = cells
            continue
        try:
            rows.append([_value(cell) for cell in cells])
        except ValueError as error:
            raise ValueError(f'row {number}: {error}') from None
    if not rows:
        raise ValueError(f'table: no rows in {source!r}')
    return header, rows


def _numeric(cell):
    try:
        _value(cell)
    except ValueError:
        return False
    return True


def chain_from_table(rows, order, convention='standard', degrees=False, joint_names=None,
                     prismatic=(), name='', header=None):
    """
    Build a Chain from table rows in a toolbox's order.

    Parameters
    ----------
    rows : list of list of float
        One row per joint.
    order : {'corke', 'scilab', 'dyn', 'matlab'}
        The toolbox whose column order the rows follow.
    convention : {'standard', 'modified'}
        The DH convention of the table.
    degrees : bool
        The angle columns are in degrees (Corke's offset and the limits too, for a revolute
        joint).
    joint_names : list of str, optional
        Names as in joint_states; joint1... by default.
    prismatic : collection of int
        1-based indices of prismatic joints, for the MATLAB order (which has no sigma).
    name : str
        Robot name.
    header : list of str, optional
        The name of every column; those in :data:`EXTRA_COLUMNS` are read by name, the rest
        are the order's.

    """
    if joint_names is not None and len(joint_names) != len(rows):
        raise ValueError(f'--joint-names: {len(rows)} names expected (one per row), got '
                         f'{len(joint_names)}')
    extra = _extra_columns(header)
    links, placeholders = [], {}
    for i, full_row in enumerate(rows):
        if header is not None and len(full_row) != len(header):
            raise ValueError(f'row {i + 1}: {len(header)} values expected (one per header '
                             f'column), got {len(full_row)}')
        row = [value for j, value in enumerate(full_row) if j not in extra.values()]
        named = {column: full_row[j] for column, j in extra.items()}
        revolute = _is_revolute(order, row, i, prismatic)
        if degrees:
            offset = order == 'corke' and revolute and len(row) == 6
            columns = _ANGLES[order] + ((5,) if offset else ())
            for column in columns:
                if column < len(row):
                    row[column] = math.radians(row[column])
        joint_name = joint_names[i] if joint_names else f'joint{i + 1}'
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter('always', PlaceholderWarning)
                link = _link(order, row, convention, revolute)
            placeholders.update({i + 1: str(note.message) for note in caught})
            link = link.replace(name=joint_name, **_fields(named, degrees and revolute))
        except ValueError as error:
            raise ValueError(f'row {i + 1}: {error}') from None
        links.append(link)
    if placeholders:
        rows_named = ', '.join(map(str, placeholders))
        warnings.warn(f'row{"s" if len(placeholders) > 1 else ""} {rows_named}: '
                      f'{next(iter(placeholders.values()))}', PlaceholderWarning, stacklevel=2)
    return Chain(links, name=name)


def _link(order, row, convention, revolute):
    """Return the Link of one row in ``order``'s layout."""
    if order == 'corke':
        return Link.from_dh_row(row, convention)
    if order in ('scilab', 'dyn'):
        if order == 'dyn' and len(row) < 16:
            raise ValueError(f'row: a DYN row has 16 to 20 columns, got {len(row)}')
        return Link.from_scilab_row(row, convention)
    joint = 'revolute' if revolute else 'prismatic'
    return Link.from_matlab_row(row, 'mdh' if convention == 'modified' else 'dh', joint)


def _extra_columns(header):
    """Return {column name: index} of the header's extra columns; refuse one named twice."""
    if header is None:
        return {}
    extra = {}
    for j, column in enumerate(header):
        if column in EXTRA_COLUMNS:
            if column in extra:
                raise ValueError(f'header: column {column!r} is named twice')
            extra[column] = j
    if ('qmin' in extra) != ('qmax' in extra):
        raise ValueError("header: qmin and qmax come together (a joint's two limits)")
    return extra


def _is_revolute(order, row, i, prismatic):
    if order == 'matlab':
        return i + 1 not in prismatic
    return not (len(row) > 4 and row[4] == 1.0)  # sigma: 1 for a prismatic joint


def _fields(named, degrees):
    """Return the Link fields of a row's extra columns (limits in rad when ``degrees``)."""
    fields = {}
    if 'qmin' in named:
        scale = math.pi / 180.0 if degrees else 1.0
        fields['qlim'] = (named['qmin'] * scale, named['qmax'] * scale)
    if 'flip' in named:
        if named['flip'] not in (0.0, 1.0):
            raise ValueError(f'flip: must be 0 or 1, got {named["flip"]:g}')
        fields['flip'] = named['flip'] == 1.0
    for field in ('m', 'Jm', 'G', 'B', 'effort_limit', 'velocity_limit'):
        if field in named:
            fields[field] = named[field]
    groups = {'r': ('rx', 'ry', 'rz'), 'I': ('Ixx', 'Iyy', 'Izz', 'Ixy', 'Iyz', 'Ixz'),
              'Tc': ('Tc+', 'Tc-')}
    for field, columns in groups.items():
        present = [column for column in columns if column in named]
        if present and len(present) != len(columns):
            missing = ', '.join(column for column in columns if column not in named)
            raise ValueError(f'header: {field} needs {", ".join(columns)} (missing {missing})')
        if present:
            fields[field] = [named[column] for column in columns]
    return fields


def add_parser(commands):
    """Add the ``convert`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('convert', help="a DH table in a toolbox's order, or a model "
                                  'in the other DH convention, to a model file')
    command.add_argument('table', help='a CSV file, or a matrix literal "[r1; r2; ...]"; with '
                         '--to, a model file')
    command.add_argument('--to', choices=('standard', 'modified'), help='re-express the model '
                         'file TABLE in this DH convention (same frames at the joints, same '
                         'dynamics)')
    command.add_argument('--order', choices=ORDERS, help=(
        f'corke: {CORKE_LAYOUT}; scilab: {SCILAB_LAYOUT}; dyn: the legacy DYN matrix of '
        f'Corke (the Scilab dyn row, 16 to 20 columns); matlab: {MATLAB_LAYOUT}. A value in the '
        "joint variable's place is ignored, as the toolboxes do, with a warning. A CSV header "
        f'may name more columns: {", ".join(EXTRA_COLUMNS)}'))
    command.add_argument('--convention', default='standard', choices=('standard', 'modified'))
    command.add_argument('--deg', action='store_true', help='angle columns (and revolute '
                         'limits) in degrees')
    command.add_argument('--joint-names', help='comma-separated joint names (joint1... by '
                         'default)')
    command.add_argument('--prismatic', default='', help='MATLAB order: comma-separated '
                         '1-based indices of prismatic joints')
    command.add_argument('--name', default='', help='robot name')
    command.add_argument('-o', '--output', required=True, help='the model file to write')
    return command


def run(args, out):
    """Write a model file from a DH table, or a model in the other convention."""
    if args.to is not None:
        return _model(args, out)
    if args.order is None:
        raise ValueError('--order is required for a table (or give --to for a model file)')
    names = [name.strip() for name in args.joint_names.split(',')] if args.joint_names else None
    try:
        prismatic = {int(index) for index in args.prismatic.split(',') if index.strip()}
    except ValueError:
        raise ValueError(f'--prismatic: {args.prismatic!r}: give 1-based indices, e.g. 3,5')
    header, rows = read_table(args.table)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always', PlaceholderWarning)
        chain = chain_from_table(rows, args.order, args.convention, args.deg, names,
                                 prismatic, args.name, header)
    for note in caught:
        out.write(f'warning: {note.message}\n')
    models.write(args.output, chain.to_yaml(), 'model file')
    out.write(f'wrote {args.output}: {chain.n} joints; check it with: {PROG} check '
              f'{args.output}\n')
    return 0


def _model(args, out):
    if args.order is not None:
        raise ValueError('--order is for a table; --to takes a model file')
    chain, _, given = models.load([args.table])
    converted = chain.to_modified() if args.to == 'modified' else chain.to_standard()
    models.write(args.output, models.model_file_text(converted, given),
                 'model file')
    out.write(f'wrote {args.output}: {converted.n} joints, {args.to} DH; check it with: '
              f'{PROG} check {args.output}\n')
    return 0
