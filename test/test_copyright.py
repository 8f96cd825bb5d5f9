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

"""The Apache-2.0 header on every Python file (ament_copyright is not on PyPI)."""

import pathlib

from helpers import LINTED_PATHS
import pytest


@pytest.mark.linter
def test_copyright_headers():
    files = [path for name in LINTED_PATHS for path in (
        pathlib.Path(name).rglob('*.py') if pathlib.Path(name).is_dir() else [pathlib.Path(name)])]
    missing = [str(path) for path in files if not path.read_text(encoding='utf-8').startswith(
        '# Copyright 2026 The dh_kinematics authors\n#\n'
        '# Licensed under the Apache License, Version 2.0')]
    assert len(files) > 100 and not missing, f'no Apache-2.0 copyright header: {missing}'
