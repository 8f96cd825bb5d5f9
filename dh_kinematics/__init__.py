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

``Link`` (one joint), ``Chain`` (the arm; model files through ``Chain.from_yaml``,
``from_params``, ``to_yaml`` and ``to_params``) and ``InvalidFieldError``. The package has
three layers: :mod:`dh_kinematics.core` (numpy only), :mod:`dh_kinematics.node_logic` (the node's
logic without ROS) and :mod:`dh_kinematics.ros` (rclpy).

The names are imported on first use, so that importing a submodule (the executables' entry
points, which handle signals from their first instruction) costs nothing.
"""

import importlib

__all__ = ['Chain', 'InvalidFieldError', 'Link']
_CORE = 'dh_kinematics.core'


def __getattr__(name):
    if name not in __all__:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    return getattr(importlib.import_module(_CORE), name)


def __dir__():
    return sorted(list(globals()) + __all__)
