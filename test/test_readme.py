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
Every Python and YAML snippet of the README works as a reader would use it.

Python snippets run as they stand, each on its own, in a folder where ``config/`` holds the
shipped models (paths in the README are relative to the package). YAML snippets are model files:
the core reads them, and so does the node, through rcl's own parameter-file parser.
"""

import re

from conftest import PACKAGE
from dh_kinematics import Chain
import pytest

README = (PACKAGE / 'README.md').read_text(encoding='utf-8')
BLOCKS = re.findall(r'^```(\w+)\n(.*?)^```', README, re.M | re.S)
PYTHON = [code for language, code in BLOCKS if language == 'python']
YAML = [code for language, code in BLOCKS if language == 'yaml']


def test_the_readme_has_snippets_of_both_kinds():
    assert len(PYTHON) >= 2 and len(YAML) >= 1


@pytest.fixture
def reader_folder(tmp_path, monkeypatch):
    """Work in a folder with the package's config/ beside it, as in a clone."""
    (tmp_path / 'config').symlink_to(PACKAGE / 'config')
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize('index', range(len(PYTHON)))
def test_python_snippet_runs(index, reader_folder):
    code = compile(PYTHON[index], f'README.md, Python snippet {index + 1}', 'exec')
    exec(code, {'__name__': '__readme__'})


@pytest.mark.parametrize('index', range(len(YAML)))
def test_yaml_snippet_is_a_model_the_core_reads(index, tmp_path):
    path = tmp_path / 'my_arm.yaml'
    path.write_text(YAML[index])
    chain = Chain.from_yaml(path)
    assert chain.n >= 1


@pytest.mark.parametrize('index', range(len(YAML)))
def test_yaml_snippet_is_a_model_the_node_reads(index, tmp_path):
    ros_fixtures = pytest.importorskip('ros_fixtures')
    path = tmp_path / 'my_arm.yaml'
    path.write_text(YAML[index])
    node = ros_fixtures.NodeThread(ros_fixtures.DhKinematicsNode, 'dh_kinematics',
                                   ['--params-file', str(path)])
    try:
        assert node.node.config.chain.joint_names == Chain.from_yaml(path).joint_names
    finally:
        assert node.stop() == 0


def test_to_params_is_plain_python_and_to_yaml_round_trips(tmp_path):
    yaml = pytest.importorskip('yaml')
    for name in ('panda', 'puma560', 'puma560_mdh', 'stanford'):
        chain = Chain.from_yaml(PACKAGE / 'config' / f'{name}.yaml')
        params = chain.to_params()
        assert yaml.safe_load(yaml.safe_dump(params)) == params
        path = tmp_path / f'{name}.yaml'
        assert chain.to_yaml(path) == path.read_text(encoding='utf-8')
        assert Chain.from_yaml(path).to_params() == params
