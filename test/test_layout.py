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

"""CONTRIBUTING's layout is the tree: every module listed once, in its own folder, none missing."""

import re

from helpers import PACKAGE


def _listed():
    """Return the modules CONTRIBUTING's layout block names, as paths from the repository."""
    text = (PACKAGE / 'CONTRIBUTING.md').read_text()
    block = text.split('## Layout', 1)[1].split('```', 2)[1]
    folder, listed = None, []
    for line in block.splitlines():
        entry = line.split()[0] if line.strip() else ''
        if re.fullmatch(r'dh_kinematics/([\w/]*/)?', entry):
            folder = entry
        elif entry.startswith('dh_kinematics/') and entry.endswith('.py'):
            listed.append(entry)
        elif folder and re.match(r'  \w', line) and entry.endswith('.py'):
            listed.append(folder + entry)
        elif not line.startswith(' '):
            folder = None
    return listed


def test_the_layout_lists_every_module_once_and_nothing_else():
    listed = _listed()
    assert len(listed) == len(set(listed)), sorted(p for p in listed if listed.count(p) > 1)
    tree = {str(path.relative_to(PACKAGE)) for path in (PACKAGE / 'dh_kinematics').rglob('*.py')
            if path.name != '__init__.py' or path.parent.name == 'dh_kinematics'}
    assert set(listed) == tree, (sorted(set(listed) - tree), sorted(tree - set(listed)))
