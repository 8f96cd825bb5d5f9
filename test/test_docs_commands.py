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
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from dh_kinematics import Chain
from dh_kinematics.cli import main
from helpers import CLI_COMMAND, PACKAGE
from processes import spawn
import pytest
import yaml

DOCUMENTS = [PACKAGE / 'README.md', PACKAGE / 'CONTRIBUTING.md', PACKAGE / 'bench' / 'README.md'] \
    + sorted((PACKAGE / 'doc').glob('*.md'))
RUN_HERE = ('dh_kinematics', 'printf', 'python3', 'xacro')
"""Commands whose first word is one of these run in the test."""
NOT_HERE = {
    'make': 'builds venvs and runs this suite or a benchmark',
    'colcon': 'needs a ROS install (the rig runs it)',
    'ros2': 'needs a ROS install',
    'sed': "edits what a ros2 command wrote: the README's ros2 commands' test runs it",
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
COMMAND_TIMEOUT_S = 600
"""The longest a document's command may take: health's how-to judges 16 logs on Dask, 40 s on an
idle 2-core machine and more than twice that on a busy one."""
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


def _lines_that_run_here(path):
    return [line for document, block in SHELL if document == path for line in block
            if line.split()[0] in RUN_HERE and not line.startswith(SERVERS)]


# ROS's xacro: a ROS install's, or the venv's from PyPI.
XACRO = shutil.which('xacro', path=os.path.dirname(sys.executable)) or shutil.which('xacro')
needs_xacro = pytest.mark.skipif(XACRO is None, reason='xacro is not installed: pip install '
                                 'xacro, or apt install ros-$ROS_DISTRO-xacro')


@pytest.mark.slow  # each document's commands: 10 to 60 s; make test-all and CI run them
@pytest.mark.parametrize('path', [
    pytest.param(path, marks=[needs_xacro] * any(
        line.startswith('xacro ') for line in _lines_that_run_here(path)))
    for path in sorted({path for path, _ in SHELL})], ids=str)
def test_commands_that_run_here_exit_0(path, reader_folder):
    for line in _lines_that_run_here(path):
        _exits_0(line, reader_folder)


def _exits_0(line, folder, sourced=False):
    """
    Run a command line as a reader's shell runs it, in ``folder``; return its output.

    A reader's dh_kinematics and python3 have the package: the activated venv's (this
    interpreter's, here), or with ``sourced`` those a sourced workspace puts on PATH.
    """
    functions = '' if sourced else (
        'dh_kinematics() { ' + ' '.join(map(shlex.quote, CLI_COMMAND)) + ' "$@"; }\n'
        f'python3() {{ {shlex.quote(sys.executable)} "$@"; }}\n')
    if XACRO is not None and not sourced:
        functions += f'xacro() {{ {shlex.quote(XACRO)} "$@"; }}\n'
    process = spawn(['bash', '-c', functions + line], cwd=folder, stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True)
    out, err = process.communicate(timeout=COMMAND_TIMEOUT_S)
    assert process.returncode == 0, (line, out, err)
    return out + err


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
    import ros_fixtures
    path = tmp_path / 'my_arm.yaml'
    path.write_text(YAML[index][1])
    node = ros_fixtures.NodeThread(ros_fixtures.DhKinematicsNode, 'dh_kinematics',
                                   ['--params-file', str(path)])
    try:
        assert node.node.config.chain.joint_names == Chain.from_yaml(path).joint_names
    finally:
        assert node.stop() == 0


def test_to_params_is_plain_python_and_to_yaml_round_trips(tmp_path):
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


def test_the_readme_stays_short():
    # What works and how to run it; the tables and the details live in doc/.
    assert len((PACKAGE / 'README.md').read_text().splitlines()) <= 300


# The README's ROS commands, run for real ---------------------------------------------------

NODE_LINES = ('ros2 launch ', 'ros2 run dh_kinematics dh_kinematics_node ')
"""Lines that start the node: it keeps running while the block's next lines run beside it."""


def _model_of(line, folder):
    """Return the model a line that starts the node runs: params_file, --params-file or robot."""
    from dh_kinematics.ros import launch_config
    words = shlex.split(line.replace('$PWD', str(folder)))
    given = dict(word.split(':=', 1) for word in words if ':=' in word)
    if '--params-file' in words:
        return Chain.from_yaml(folder / words[words.index('--params-file') + 1])
    return Chain.from_yaml(launch_config.model_file(given.get('robot', 'puma560'),
                                                    given.get('params_file', '')))


def _start(line, folder, probe):
    """
    Start a line that starts the node, and wait until it runs: None where it is refused.

    Up means the node's /tf (from sim_arm's stream, or from joint_states sent here), or, for
    a managed node, its status saying it waits to be configured. What needs a package this
    machine lacks (RViz, ros2_control) must be refused, naming what to install.
    """
    from dh_kinematics.ros import launch_config
    needs = [package for word, package in (('rviz:=true', 'rviz2'),
                                           ('control.launch.py', 'controller_manager'))
             if word in line and not launch_config.installed(package)]
    for key in ('tf', 'tf_static', 'diagnostics'):
        probe.clear(key)
    from ros_fixtures import Foreground
    running = Foreground(['bash', '-c', f'exec {line}'], cwd=folder)
    if needs:
        code, out = running.stop(sig=None)
        assert code == 1, (line, out)
        assert f'{needs[0]}' in out and 'not installed' in out and 'apt install' in out, out
        return None
    if 'managed:=true' in line:
        probe.wait_for('diagnostics', lambda message: any(
            status.message.startswith('unconfigured') for status in message.status))
    elif 'demo.launch.py' in line:
        probe.wait_for('tf', lambda message: True)
    else:
        chain = _model_of(line, folder)
        probe.wait_for('tf_static', lambda message: True)
        probe.send_until_seen(chain.joint_names, [0.0] * chain.n)
    return running


def _stop(running, line, ros2, folder):
    """End a node line with Ctrl-C; the ros2 daemon too, lest it still list the node after."""
    if running is not None:
        code, out = running.stop()
        assert code == 0, (line, out)
        _exits_0(f'{ros2} daemon stop', folder)


@pytest.mark.ros
def test_the_readmes_ros_commands_run_as_it_says(ros2, reader_folder):
    from ros_probe import DEADLINE_S, Probe
    probe = Probe()
    try:
        for path, lines in SHELL:  # every block, in order: later ones read what earlier wrote
            if path != pathlib.Path('README.md'):
                continue
            running = command = None
            for line in lines:
                if line.startswith(NODE_LINES) and '--show-args' not in line:
                    _stop(running, command, ros2, reader_folder)
                    running, command = _start(line, reader_folder, probe), line
                elif line.split()[0] in RUN_HERE + ('ros2', 'sed') and not line.startswith(
                        SERVERS):
                    if running is not None and '/dh_kinematics' in line:
                        # Found as the ros2 commands find nodes: through the ros2 daemon (the
                        # first command of a run starts it, and answers without it).
                        probe.wait_until(lambda: '/dh_kinematics\n' in _exits_0(
                            f'{ros2} daemon start > /dev/null; {ros2} node list',
                            reader_folder), "the ros2 daemon's node list names it", DEADLINE_S)
                    said = _exits_0(line, reader_folder, sourced=True)
                    assert not re.search(r'failed|Traceback|Exception', said), (line, said)
            _stop(running, command, ros2, reader_folder)
    finally:
        probe.close()
