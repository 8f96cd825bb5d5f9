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

"""Linters with the ament settings: flake8 (ament_flake8) and pydocstyle (ament_pep257)."""

import pathlib
import subprocess
import sys

import pydocstyle
import pytest

PACKAGE = pathlib.Path(__file__).parents[1]
FOLDERS = ('dh_kinematics', 'test', 'bench', 'examples', 'launch', 'tools')
SOURCES = sorted(str(p) for d in FOLDERS for p in (PACKAGE / d).rglob('*.py')) + [
    str(PACKAGE / 'setup.py')]
# ament_lint's settings: ament_flake8.ini and ament_pep257's default ignore list.
AMENT_FLAKE8_INI = """[flake8]
extend-ignore = C816,D100,D101,D102,D103,D104,D105,D106,D107,D203,D212,D404,I202
import-order-style = google
max-line-length = 99
show-source = true
statistics = true
"""
PEP257_IGNORE = ['D100', 'D101', 'D102', 'D103', 'D104', 'D105', 'D106', 'D107', 'D203',
                 'D212', 'D404']


@pytest.mark.linter
def test_flake8(tmp_path):
    config = tmp_path / 'ament_flake8.ini'
    config.write_text(AMENT_FLAKE8_INI)
    result = subprocess.run([sys.executable, '-m', 'flake8', '--config', str(config), *SOURCES],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.linter
def test_pep257():
    errors = [str(e) for e in pydocstyle.check(SOURCES, ignore=PEP257_IGNORE)]
    assert not errors, '\n'.join(errors)


@pytest.mark.linter
def test_copyright_headers():
    missing = [path for path in SOURCES
               if not pathlib.Path(path).read_text(encoding='utf-8').startswith(
                   '# Copyright 2026 The dh_kinematics authors\n#\n'
                   '# Licensed under the Apache License, Version 2.0')]
    assert not missing, f'files without the Apache-2.0 copyright header: {missing}'
