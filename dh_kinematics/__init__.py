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
DH chains for ROS 2: the public API of the numpy core.

- :class:`Link` (one joint) and :class:`Chain` (the arm; model files through
  ``Chain.from_yaml``, ``from_params``, ``to_yaml`` and ``to_params``), and
  :class:`InvalidFieldError`, which every bad value raises;
- :class:`IKResult`, what ``Chain.ikine`` returns;
- :func:`from_urdf` and its :class:`URDFImport`: a DH model of a URDF's chain;
- :func:`calibrate`, its :class:`Calibration`, and the :class:`Measurements` it takes
  (``read_measurements`` reads them from a tracker's CSV file).

The sub-packages (what each may import is held by ``test/test_import_boundaries.py``; rclpy
only :mod:`~dh_kinematics.ros` and the few ROS commands and views):
:mod:`~dh_kinematics.core` (numpy: chains, kinematics, dynamics, the arm's state per message,
URDF), :mod:`~dh_kinematics.formulas` (SymPy), :mod:`~dh_kinematics.identification` (the
dynamic model from a log), :mod:`~dh_kinematics.logs` (CSV and rosbag2 joint logs),
:mod:`~dh_kinematics.parameters` (the nodes' parameters), :mod:`~dh_kinematics.node_logic`
(the node's message path and monitors), :mod:`~dh_kinematics.replay` (a log through that
path), :mod:`~dh_kinematics.viewer` (the browser view), :mod:`~dh_kinematics.cli` (the
command line) and :mod:`~dh_kinematics.ros` (rclpy: the nodes and launch helpers).

The names are imported on first use, so that importing a submodule (the executables' entry
points, which handle signals from their first instruction) costs nothing.
"""

import importlib

_WHERE = {  # a public name: (its module, its name there)
    'Calibration': ('dh_kinematics.core.calibration.fit', 'Calibration'),
    'calibrate': ('dh_kinematics.core.calibration.fit', 'calibrate'),
    'Chain': ('dh_kinematics.core.chain', 'Chain'),
    'from_urdf': ('dh_kinematics.core.urdf_import', 'from_urdf'),
    'IKResult': ('dh_kinematics.core.ik.result', 'IKResult'),
    'InvalidFieldError': ('dh_kinematics.core.checks', 'InvalidFieldError'),
    'Link': ('dh_kinematics.core.link', 'Link'),
    'Measurements': ('dh_kinematics.core.calibration.measurements', 'Measurements'),
    'read_measurements': ('dh_kinematics.core.calibration.measurements', 'read'),
    'URDFImport': ('dh_kinematics.core.urdf_import', 'URDFImport'),
}
__all__ = sorted(_WHERE, key=str.lower)


def __getattr__(name):
    if name not in _WHERE:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    module, attribute = _WHERE[name]
    return getattr(importlib.import_module(module), attribute)


def __dir__():
    return sorted(list(globals()) + __all__)
