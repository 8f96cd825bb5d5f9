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
Rows of DH tables in the layouts of the toolboxes people move from.

Each reader returns the keyword arguments of :class:`dh_kinematics.Link`. Layouts:

- Corke (Robotics Toolbox for MATLAB/Python): ``[theta d a alpha (sigma (offset))]``.
- Scilab Robotics Toolbox dh row: ``[alpha A theta D (sigma)]``; legacy dyn row (20 elements):
  ``[alpha A theta D sigma m rx ry rz Ixx Iyy Izz Ixy Iyz Ixz Jm G B Tc+ Tc-]``.
- MATLAB Robotics System Toolbox ``setFixedTransform``: ``[a alpha d theta]`` with ``'dh'`` or
  ``'mdh'``.

``sigma`` is 0 for a revolute joint and 1 for a prismatic one. Angles in rad, lengths in m.
"""

from dh_kinematics.core.checks import check_choice, InvalidFieldError
import numpy as np

CORKE_LAYOUT = '[theta d a alpha (sigma (offset))] (Corke dh row, 4 to 6 elements)'
SCILAB_LAYOUT = ('[alpha A theta D (sigma)] (Scilab dh row, 4 or 5 elements) or '
                 '[alpha A theta D sigma m rx ry rz Ixx Iyy Izz Ixy Iyz Ixz Jm G B Tc+ Tc-] '
                 '(Scilab dyn row, 20 elements)')
MATLAB_LAYOUT = "[a alpha d theta] (MATLAB setFixedTransform, 4 elements, 'dh' or 'mdh')"


def _row_values(row, lengths, layout):
    try:
        values = np.asarray(row, dtype=float)
    except (ValueError, TypeError):
        values = None
    if values is None or values.ndim != 1 or len(values) not in lengths:
        raise InvalidFieldError('row', row, f'must be a row of numbers laid out as {layout}')
    return [float(v) for v in values]


def _joint_from_sigma(sigma, row, layout):
    if sigma not in (0.0, 1.0):
        raise InvalidFieldError('row', row, f'sigma must be 0 (revolute) or 1 (prismatic) in '
                                f'{layout}; is the order right?')
    return 'prismatic' if sigma == 1.0 else 'revolute'


def corke_row(row, convention):
    """Keyword arguments for a Link from Corke's ``[theta d a alpha (sigma (offset))]``."""
    values = _row_values(row, (4, 5, 6), CORKE_LAYOUT)
    theta, d, a, alpha = values[:4]
    sigma = values[4] if len(values) > 4 else 0.0
    offset = values[5] if len(values) > 5 else 0.0
    return {'joint': _joint_from_sigma(sigma, row, CORKE_LAYOUT), 'convention': convention,
            'theta': theta, 'd': d, 'a': a, 'alpha': alpha, 'offset': offset}


def scilab_row(row, convention):
    """Keyword arguments for a Link from a Scilab dh row or 20-element dyn row."""
    values = _row_values(row, (4, 5, 20), SCILAB_LAYOUT)
    alpha, a, theta, d = values[:4]
    sigma = values[4] if len(values) > 4 else 0.0
    kwargs = {'joint': _joint_from_sigma(sigma, row, SCILAB_LAYOUT), 'convention': convention,
              'alpha': alpha, 'a': a, 'theta': theta, 'd': d}
    if len(values) == 20:
        kwargs.update(m=values[5], r=values[6:9], I=values[9:15], Jm=values[15], G=values[16],
                      B=values[17], Tc=values[18:20])
    return kwargs


def matlab_row(row, convention, joint):
    """Keyword arguments for a Link from MATLAB's ``setFixedTransform`` ``[a alpha d theta]``."""
    values = _row_values(row, (4,), MATLAB_LAYOUT)
    name = check_choice('convention', convention, ('dh', 'mdh'), min_prefix=2)
    a, alpha, d, theta = values
    return {'joint': joint, 'convention': 'modified' if name == 'mdh' else 'standard',
            'a': a, 'alpha': alpha, 'd': d, 'theta': theta}


def link_from_row(factory, reader, row, *args):
    """Build a Link with ``factory(**reader(row, *args))``, naming the layout in any error."""
    kwargs = reader(row, *args)
    try:
        return factory(**kwargs)
    except InvalidFieldError as error:
        layout = {corke_row: CORKE_LAYOUT, scilab_row: SCILAB_LAYOUT,
                  matlab_row: MATLAB_LAYOUT}[reader]
        raise InvalidFieldError('row', row, f'was read as {layout} and refused ({error}); '
                                'is the order right?') from None
