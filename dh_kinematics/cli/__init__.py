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
The ``dh_kinematics`` command: a subcommand per task on a model file.

``check``, ``show``, ``fk``, ``ik``, ``path``, ``urdf``, ``moveit``, ``from-urdf``, ``convert``,
``calibrate``, ``identify``, ``tune-contact``, ``excite``, ``plot``, ``monitor``, ``record``,
``replay``, ``health`` and ``view``: a module each, with its parser (``add_parser``) and what
it does (``run``); :mod:`dh_kinematics.cli.main` runs them.

Every command but ``monitor``, ``record`` and ``view --follow`` is ROS-free. Each exits 0 on
success and 1 with one clear line on stderr for bad input (2 for a bad command line, as
argparse does).
"""

__all__ = []
