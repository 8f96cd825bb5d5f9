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

- Corke (Robotics Toolbox for MATLAB/Python): ``[theta d a alpha (sigma (offset))]``, or the
  20-element dynamic row of its ``Link``: ``[theta d a alpha sigma m rx ry rz Ixx Iyy Izz Ixy
  Iyz Ixz Jm G B Tc+ Tc-]``.
- Scilab Robotics Toolbox (``rt_link``) dh row: ``[alpha A theta D (sigma)]``; legacy dyn row
  of 16 to 20 elements: ``[alpha A theta D sigma m rx ry rz Ixx Iyy Izz Ixy Iyz Ixz Jm (G (B
  (Tc+ Tc-)))]``, with rt_link's defaults for what a shorter row leaves out: G 1, B 0, Tc 0
  (a 19-element row, with Tc+ but no Tc-, rt_link refuses, and so does this reader).
- MATLAB Robotics System Toolbox ``setFixedTransform``: ``[a alpha d theta]`` with ``'dh'`` or
  ``'mdh'``.

``sigma`` is 0 for a revolute joint and 1 for a prismatic one. Angles in rad, lengths in m.

**The joint variable's place.** Each layout has a column for the joint variable: theta of a
revolute joint, d of a prismatic one. All three toolboxes ignore what it holds (the joint value
replaces it), and tables copied from them often carry a home angle there. These readers ignore
it too, and warn once (:class:`PlaceholderWarning`): a constant angle or length belongs in
``offset``. The model file, which has no such place, keeps refusing a non-zero theta of a
revolute joint.
"""

import warnings

from dh_kinematics.core.checks import check_choice, InvalidFieldError
import numpy as np

CORKE_LAYOUT = ('[theta d a alpha (sigma (offset))] (Corke dh row, 4 to 6 elements) or [theta d '
                'a alpha sigma m rx ry rz Ixx Iyy Izz Ixy Iyz Ixz Jm G B Tc+ Tc-] (20 elements)')
SCILAB_LAYOUT = ('[alpha A theta D (sigma)] (Scilab dh row, 4 or 5 elements) or '
                 '[alpha A theta D sigma m rx ry rz Ixx Iyy Izz Ixy Iyz Ixz Jm (G (B (Tc+ Tc-)))] '
                 '(Scilab dyn row, 16, 17, 18 or 20 elements)')
MATLAB_LAYOUT = "[a alpha d theta] (MATLAB setFixedTransform, 4 elements, 'dh' or 'mdh')"
TOOLBOXES = {CORKE_LAYOUT: ('a Corke row', "Corke's Link"),
             SCILAB_LAYOUT: ('a Scilab row', "Scilab's rt_link"),
             MATLAB_LAYOUT: ('a MATLAB row', "MATLAB's setFixedTransform")}
"""Per layout: how to name its rows, and the function that reads them in its toolbox."""


class PlaceholderWarning(UserWarning):
    """A legacy row held a value in the joint variable's place, which was ignored."""


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
    """Keyword arguments for a Link from one of Corke's rows (:data:`CORKE_LAYOUT`)."""
    values = _row_values(row, (4, 5, 6, 20), CORKE_LAYOUT)
    theta, d, a, alpha = values[:4]
    sigma = values[4] if len(values) > 4 else 0.0
    offset = values[5] if len(values) == 6 else 0.0
    kwargs = {'joint': _joint_from_sigma(sigma, row, CORKE_LAYOUT), 'convention': convention,
              'theta': theta, 'd': d, 'a': a, 'alpha': alpha, 'offset': offset}
    if len(values) == 20:
        kwargs.update(_dynamics(values))
    return kwargs


def _dynamics(values):
    """Return the dynamics of a 20-element row: its elements 6 to 20."""
    return {'m': values[5], 'r': values[6:9], 'I': values[9:15], 'Jm': values[15],
            'G': values[16], 'B': values[17], 'Tc': values[18:20]}


def scilab_row(row, convention):
    """Keyword arguments for a Link from a Scilab dh row or 16- to 20-element dyn row."""
    values = _row_values(row, (4, 5, 16, 17, 18, 20), SCILAB_LAYOUT)
    alpha, a, theta, d = values[:4]
    sigma = values[4] if len(values) > 4 else 0.0
    kwargs = {'joint': _joint_from_sigma(sigma, row, SCILAB_LAYOUT), 'convention': convention,
              'alpha': alpha, 'a': a, 'theta': theta, 'd': d}
    if len(values) >= 16:  # rt_link's defaults for what the row leaves out: G 1, B 0, Tc 0
        kwargs.update(_dynamics(values + [1.0, 0.0, 0.0, 0.0][len(values) - 16:]))
    return kwargs


def matlab_row(row, convention, joint):
    """Keyword arguments for a Link from MATLAB's ``setFixedTransform`` ``[a alpha d theta]``."""
    values = _row_values(row, (4,), MATLAB_LAYOUT)
    name = check_choice('convention', convention, ('dh', 'mdh'), min_prefix=2)
    a, alpha, d, theta = values
    return {'joint': joint, 'convention': 'modified' if name == 'mdh' else 'standard',
            'a': a, 'alpha': alpha, 'd': d, 'theta': theta}


def link_from_row(factory, reader, row, *args):
    """
    Build a Link with ``factory(**reader(row, *args))``, naming the layout in any error.

    The joint variable's place is emptied first, with a :class:`PlaceholderWarning` where it
    held a value (once per call site, as Python shows a warning).
    """
    kwargs = reader(row, *args)
    layout = {corke_row: CORKE_LAYOUT, scilab_row: SCILAB_LAYOUT,
              matlab_row: MATLAB_LAYOUT}[reader]
    variable = 'theta' if kwargs['joint'] == 'revolute' else 'd'
    if kwargs[variable] != 0.0:
        kwargs[variable] = 0.0
        warnings.warn(placeholder_note(layout), PlaceholderWarning, stacklevel=3)
    try:
        return factory(**kwargs)
    except InvalidFieldError as error:
        raise InvalidFieldError('row', row, f'was read as {layout} and refused ({error}); '
                                'is the order right?') from None


def placeholder_note(layout):
    """Return the sentence a :class:`PlaceholderWarning` of rows laid out as ``layout`` says."""
    rows, tool = TOOLBOXES[layout]
    return (f"{rows} holds a value in the joint variable's place (theta of a revolute joint, d "
            f'of a prismatic one), which {tool} ignores; it is ignored here too. A constant '
            'angle or length belongs in offset')
