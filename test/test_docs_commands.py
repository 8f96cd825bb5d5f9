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
Every command and snippet of the README and the docs works as a reader would use it.

Documents: README.md, CONTRIBUTING.md, bench/README.md and doc/*.md. Shell commands are read
from their ``sh`` blocks: those that run here (``dh_kinematics`` but ``monitor``, ``printf``,
``python3``, ``xacro``) run in order in a folder where ``config/`` holds the shipped models,
and must exit 0; the others (a ROS install's ``colcon``, ``ros2``, ``rosdep``; ``make``, which
runs this suite; the node itself) are each of a kind named here, so a new kind of command
cannot slip by untested. Python snippets run as they stand, each on its own. YAML snippets are
model files: the core reads them, and so does the node, through rcl's own parameter-file
parser.
"""

import importlib
import pathlib
import re
import shlex
import subprocess
import sys

from dh_kinematics import Chain
from dh_kinematics.cli import main
from helpers import CLI_COMMAND, PACKAGE
from processes import spawn
import pytest

DOCUMENTS = [PACKAGE / 'README.md', PACKAGE / 'CONTRIBUTING.md', PACKAGE / 'bench' / 'README.md'] \
    + sorted((PACKAGE / 'doc').glob('*.md'))
RUN_HERE = ('dh_kinematics', 'printf', 'python3', 'xacro')
"""Commands whose first word is one of these run in the test."""
NOT_HERE = {
    'make': 'builds venvs and runs this suite or a benchmark',
    'colcon': 'needs a ROS install (the rig runs it)',
    'ros2': 'needs a ROS install',
    'rosdep': 'needs a ROS install and apt',
    'sudo': 'installs system packages',
    'git': 'clones the repository',
    'mkdir': 'sets up a colcon workspace',
    'cd': 'sets up a colcon workspace',
    '.venv/bin/python': 'runs the demo, a module of the suite, or a benchmark',
    '.venv/bin/ament_flake8': 'the linter, which test_flake8.py runs',
    '.venv-bench/bin/python': 'a benchmark',
    'dh_kinematics_node': 'the node, which the node tests start',
    'sim_arm': 'sim_arm, which the node tests start',
}
"""Commands that do not run here, by first word, with the reason."""
SERVERS = ('dh_kinematics monitor', 'dh_kinematics view')
"""Commands that run until Ctrl-C: test_cli_monitor.py and test_view.py start them."""


def _blocks(language):
    found = []
    for path in DOCUMENTS:
        text = path.read_text(encoding='utf-8')
        for indent, code in re.findall(rf'^( *)```{language}\n(.*?)^\1```', text, re.M | re.S):
            found.append((path.relative_to(PACKAGE),  # a block in a list item is indented
                          re.sub(rf'^{indent}', '', code, flags=re.M)))
    return found


def _commands(code):
    """Return the command lines of a shell block: continuations joined, comments dropped."""
    joined = re.sub(r'\\\n\s*', ' ', code)
    return [line for line in (re.sub(r'\s+#\s.*$', '', raw).strip()
                              for raw in joined.splitlines()) if line]


SHELL = [(path, _commands(code)) for path, code in _blocks('sh')]
PYTHON = _blocks('python')
YAML = _blocks('yaml')


def test_the_documents_have_commands_and_snippets():
    assert len(SHELL) >= 10 and len(PYTHON) >= 3 and len(YAML) >= 2


def test_every_command_is_of_a_known_kind():
    unknown = [(str(path), line) for path, lines in SHELL for line in lines
               if line.split()[0] not in RUN_HERE + tuple(NOT_HERE)]
    assert not unknown, 'commands of no known kind: add them to RUN_HERE or NOT_HERE'


@pytest.fixture
def reader_folder(tmp_path, monkeypatch):
    """Work in a folder with the package's config/ and examples/ beside it, as in a clone."""
    for name in ('config', 'examples'):
        (tmp_path / name).symlink_to(PACKAGE / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize('path', sorted({path for path, _ in SHELL}), ids=str)
def test_commands_that_run_here_exit_0(path, reader_folder):
    pytest.importorskip('yaml')
    function = 'dh_kinematics() { ' + ' '.join(map(shlex.quote, CLI_COMMAND)) + ' "$@"; }'
    # A reader's python3 has the package: a sourced workspace's, or the activated venv's.
    function += f'\npython3() {{ {shlex.quote(sys.executable)} "$@"; }}'
    lines = [line for document, block in SHELL if document == path for line in block
             if line.split()[0] in RUN_HERE and not line.startswith(SERVERS)]
    if any(line.startswith('xacro ') for line in lines):  # ROS's xacro, from PyPI here
        script = pathlib.Path(sys.executable).with_name('xacro')
        if not script.exists():
            pytest.skip('xacro is not installed')
        function += f'\nxacro() {{ {shlex.quote(str(script))} "$@"; }}'
    for line in lines:
        process = spawn(['bash', '-c', f'{function}\n{line}'], cwd=reader_folder,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, (line, out, err)


@pytest.mark.parametrize('index', range(len(PYTHON)))
def test_python_snippet_runs(index, reader_folder):
    path, snippet = PYTHON[index]
    code = compile(snippet, f'{path}, Python snippet {index + 1}', 'exec')
    exec(code, {'__name__': '__docs__'})


@pytest.mark.parametrize('index', range(len(YAML)))
def test_yaml_snippet_is_a_model_the_core_reads(index, tmp_path):
    path = tmp_path / 'my_arm.yaml'
    path.write_text(YAML[index][1])
    chain = Chain.from_yaml(path)
    assert chain.n >= 1


@pytest.mark.ros
@pytest.mark.parametrize('index', range(len(YAML)))
def test_yaml_snippet_is_a_model_the_node_reads(index, tmp_path):
    ros_fixtures = pytest.importorskip('ros_fixtures')
    path = tmp_path / 'my_arm.yaml'
    path.write_text(YAML[index][1])
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


def test_every_command_is_in_the_readme_the_cli_guide_and_the_cli_docstring():
    # The commands are argparse's; each is named where a user or a maintainer looks first.
    commands = list(main.parsers()[1])
    readme = (PACKAGE / 'README.md').read_text()
    listed = readme.split('with these commands:', 1)[1].split('\n\n', 1)[0]
    guide_rows = [row.split('`')[1].split()[0]
                  for row in (PACKAGE / 'doc' / 'cli.md').read_text().splitlines()
                  if row.startswith('| `')]
    docstring = importlib.import_module('dh_kinematics.cli').__doc__
    assert re.findall(r'`([\w-]+)`', listed) == commands
    assert list(dict.fromkeys(guide_rows)) == commands
    assert re.findall(r'``([\w-]+)``', docstring.split('\n\n')[1].split(':')[0]) == commands


def test_setup_py_and_package_xml_describe_the_package_alike():
    described = re.search(r'<description>(.*?)</description>', (
        PACKAGE / 'package.xml').read_text(), re.S).group(1)
    setup = re.search(r"description=((?:'[^']*'\s*)+),", (PACKAGE / 'setup.py').read_text())
    text = ''.join(re.findall(r"'([^']*)'", setup.group(1)))
    assert ' '.join(described.split()) == ' '.join(text.split())


def test_the_readme_stays_short():
    # What works and how to run it; the tables and the details live in doc/.
    assert len((PACKAGE / 'README.md').read_text().splitlines()) <= 300
