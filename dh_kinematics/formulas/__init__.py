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
The formulas of a DH chain (SymPy, an optional dependency: ``pip install ".[symbolic]"``).

:class:`SymbolicChain` derives each link's transform, the forward kinematics, the Jacobian, the
gravity torques and the inverse dynamics of a model as SymPy expressions, with every number
exact; :func:`to_function` turns any of them into a numpy function. Nothing else in the
package imports this one, and the numeric core never imports SymPy.
"""

from dh_kinematics.formulas.chain import SymbolicChain
from dh_kinematics.formulas.export import to_function

__all__ = ['SymbolicChain', 'to_function']
