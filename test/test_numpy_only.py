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

"""The core imports with numpy alone: no ROS, no YAML, nothing outside the standard library."""

import os
import subprocess
import sys

from conftest import PACKAGE

CHECK = """
import sys
before = set(sys.modules)
from dh_kinematics import Chain, Link
chain = Chain([Link(a=0.3, m=1.0), Link(joint='pri', convention='stand')])
chain.rne([0.1, 0.2], [0.3, 0.4], [0.5, 0.6]); chain.jacob0([[0.1, 0.2]]); str(chain)
loaded = {name.split('.')[0] for name in set(sys.modules) - before}
foreign = loaded - set(sys.stdlib_module_names) - {'numpy', 'dh_kinematics'}
print(sorted(foreign))
"""


def test_core_needs_numpy_only():
    env = dict(os.environ, PYTHONPATH=str(PACKAGE), PYTHONNOUSERSITE='1')
    result = subprocess.run([sys.executable, '-c', CHECK], env=env, capture_output=True,
                            text=True, timeout=60, check=True)
    assert result.stdout.strip() == '[]', result.stdout + result.stderr
