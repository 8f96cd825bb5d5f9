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
The layers' import boundaries: what core/, node_logic/ and ros/ may import.

- ``core/``: numpy, PyYAML, the standard library and ``dh_kinematics.core`` only; its rooms
  ``kinematics/``, ``dynamics/``, ``ik/`` and ``model_file/`` sit below the Chain (they never
  import it, nor what builds on it: ``calibration/``, ``urdf_import.py``);
- ``node_logic/``: the same and ``dh_kinematics.node_logic``: never rclpy, a message package
  or ros/;
- ``parameters/``: the nodes' parameters, for the node and the command line: the core, the
  node logic (each monitor checks its own settings), never ROS;
- every sub-package's ``__init__.py`` only re-exports: a docstring, imports, ``__all__``;
- ``cli/``: the command line (the logs too); ROS only in ``monitor.py``, ``record.py`` and
  ``description_topic.py``, matplotlib only in ``plot.py`` and the two reports, identification
  only in ``identify.py``, ``excite.py``, ``tune_contact.py`` and ``contact_report.py``,
  pinocchio only in
  ``collisions.py``, viser and the viewer only in ``view.py``;
- ``viewer/``: the browser view: the core, the node logic, viser, yourdfpy and its trimesh;
  ROS only in
  ``follow.py``;
- ``logs/``: joint logs: the core, and rosbags (``bag.py``);
- ``identification/``: the dynamic model from a log: the core, the logs and SciPy; the node
  logic's observer (``contact.py``: contact thresholds by the node's own code);
- ``health/``: a fleet's logs: replay, the logs, identification's friction, the node logic and
  the parameters; Dask (``fleet.py``); the command line's report is handed to it, not imported;
- ``formulas/``: the formulas of a chain: the core and SymPy (``cli/show.py`` imports it
  for ``--symbolic``);
- ``ros/``: anything; the only layer that speaks ROS.

Every import statement is checked, at module level and inside functions, and a fresh
interpreter that uses the core and runs the node logic must load nothing else.
"""

import ast
import os
import subprocess
import sys

from helpers import PACKAGE
import pytest

SOURCE = PACKAGE / 'dh_kinematics'
THIRD_PARTY = {'numpy', 'yaml'}
ALLOWED = {
    'core': THIRD_PARTY | {'dh_kinematics.core'},
    'parameters': THIRD_PARTY | {'dh_kinematics.core', 'dh_kinematics.parameters'},
    'node_logic': THIRD_PARTY | {'dh_kinematics.core', 'dh_kinematics.parameters',
                                 'dh_kinematics.node_logic'},
    'cli': THIRD_PARTY | {'dh_kinematics.core', 'dh_kinematics.node_logic',
                          'dh_kinematics.parameters', 'dh_kinematics.cli', 'dh_kinematics.logs',
                          'dh_kinematics.replay', 'dh_kinematics.health'},
    'logs': THIRD_PARTY | {'dh_kinematics.core', 'dh_kinematics.logs', 'rosbags'},
    'identification': THIRD_PARTY | {'dh_kinematics.core', 'dh_kinematics.logs',
                                     'dh_kinematics.identification', 'scipy',
                                     'dh_kinematics.node_logic'},
    'viewer': THIRD_PARTY | {'dh_kinematics.core', 'dh_kinematics.node_logic',
                             'dh_kinematics.viewer', 'trimesh', 'viser', 'websockets',
                             'yourdfpy'},
    'formulas': THIRD_PARTY | {'dh_kinematics.core', 'dh_kinematics.formulas', 'sympy'},
    'health': THIRD_PARTY | {'dh_kinematics.core', 'dh_kinematics.parameters',
                             'dh_kinematics.node_logic', 'dh_kinematics.logs',
                             'dh_kinematics.replay', 'dh_kinematics.identification',
                             'dh_kinematics.health', 'dask', 'distributed', 'scipy'},
    'replay': THIRD_PARTY | {'dh_kinematics.core', 'dh_kinematics.parameters',
                             'dh_kinematics.node_logic', 'dh_kinematics.logs',
                             'dh_kinematics.replay', 'rosbags'},
    '': {'importlib'},  # the package's own __init__: names imported on first use
}


def _imports(path):
    """Yield (line, module) for every import in a file; relative imports count as foreign."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, ('.' * node.level) + (node.module or '')


def _allowed(module, allowed):
    if module.split('.')[0] in sys.stdlib_module_names:
        return True
    return any(module == name or module.startswith(name + '.') for name in allowed)


EXEMPT = {'cli/monitor.py', 'cli/description_topic.py', 'cli/record.py', 'cli/spinning.py',
          'viewer/follow.py',  # ROS
          'cli/plot.py', 'cli/calibration_report.py', 'cli/collisions.py',  # matplotlib, pin
          'cli/identification_report.py', 'cli/identify.py',  # matplotlib, identification
          'cli/tune_contact.py', 'cli/contact_report.py',  # identification's contact (no SciPy)
          'cli/excite.py', 'cli/replay_report.py', 'cli/health_report.py',  # matplotlib
          'cli/view.py', 'cli/show.py'}  # viser and the viewer, SymPy and the formulas


def _layer_files(layer):
    if layer:
        return sorted(path for path in (SOURCE / layer).rglob('*.py')
                      if str(path.relative_to(SOURCE)) not in EXEMPT)
    return [SOURCE / '__init__.py']


def test_the_layers_are_the_package():
    assert sorted(path.name for path in SOURCE.iterdir()
                  if path.suffix == '.py' or (path / '__init__.py').exists()) == [
        '__init__.py', 'cli', 'core', 'formulas', 'health', 'identification', 'logs',
        'node_logic', 'parameters', 'replay', 'ros', 'viewer']


BELOW_CHAIN = ('kinematics', 'dynamics', 'ik', 'model_file')
ABOVE_CHAIN = ('dh_kinematics.core.chain', 'dh_kinematics.core.calibration',
               'dh_kinematics.core.urdf_import', 'dh_kinematics')


@pytest.mark.parametrize('room', BELOW_CHAIN)
def test_the_rooms_below_the_chain_never_import_it(room):
    upward = [f'{path.relative_to(PACKAGE)}:{line}: {module}'
              for path in sorted((SOURCE / 'core' / room).rglob('*.py'))
              for line, module in _imports(path)
              if module in ABOVE_CHAIN
              or any(module.startswith(name + '.') for name in ABOVE_CHAIN[:-1])]
    assert not upward, '\n'.join(upward)


def test_every_sub_package_only_re_exports():
    for init in sorted(SOURCE.rglob('*/__init__.py')):
        tree = ast.parse(init.read_text())
        body = tree.body[1:] if ast.get_docstring(tree) else tree.body
        kinds = {type(node) for node in body}
        assert kinds <= {ast.ImportFrom, ast.Assign}, init
        exported = [node for node in body if isinstance(node, ast.Assign)]
        assert [target.id for node in exported for target in node.targets] == ['__all__'], init
        imported = {alias.asname or alias.name for node in body
                    if isinstance(node, ast.ImportFrom) for alias in node.names}
        assert set(ast.literal_eval(exported[0].value)) == imported, init


def _core_rooms():
    """Return each room of core/ (a folder or a module) and the rooms it imports."""
    rooms = {}
    for path in sorted((SOURCE / 'core').rglob('*.py')):
        parts = path.relative_to(SOURCE / 'core').parts
        if parts == ('__init__.py',):
            continue
        room = parts[0].removesuffix('.py')
        imported = rooms.setdefault(room, set())
        for _, module in _imports(path):
            names = module.split('.')
            if names[:2] == ['dh_kinematics', 'core'] and len(names) > 2 and names[2] != room:
                imported.add(names[2])
    return rooms


def test_the_rooms_of_the_core_stand_in_one_order():
    # Issue 59: chain-urdf, link-model_file, kinematics-dynamics-link and
    # fixed_frames-kinematics imported each other.
    import graphlib
    rooms = _core_rooms()
    try:
        order = list(graphlib.TopologicalSorter(rooms).static_order())
    except graphlib.CycleError as error:
        raise AssertionError(f'rooms of core/ import each other: {error.args[1]}') from None
    assert order.index('chain') > order.index('kinematics') and (
        order.index('urdf_import') > order.index('chain'))


@pytest.mark.parametrize('layer', sorted(ALLOWED))
def test_a_layer_imports_only_what_it_may(layer):
    foreign = [f'{path.relative_to(PACKAGE)}:{line}: {module}'
               for path in _layer_files(layer) for line, module in _imports(path)
               if not _allowed(module, ALLOWED[layer])]
    assert not foreign, '\n'.join(foreign)


def test_the_boundary_check_catches_a_foreign_import(tmp_path):
    module = tmp_path / 'bad.py'
    module.write_text('def f():\n    from rclpy.node import Node\n    import sensor_msgs.msg\n')
    assert [m for _, m in _imports(module) if not _allowed(m, ALLOWED['node_logic'])] == [
        'rclpy.node', 'sensor_msgs.msg']


CHECK = """
import sys
before = set(sys.modules)
from dh_kinematics import Chain, Link
chain = Chain([Link(a=0.3, m=1.0, name='a'), Link(joint='pri', convention='stand', name='b')])
chain.rne([0.1, 0.2], [0.3, 0.4], [0.5, 0.6]); chain.jacob0([[0.1, 0.2]]); str(chain)
core = {name.split('.')[0] for name in set(sys.modules) - before}
import pkgutil, importlib, dh_kinematics.node_logic
for module in pkgutil.iter_modules(dh_kinematics.node_logic.__path__):
    importlib.import_module('dh_kinematics.node_logic.' + module.name)
from dh_kinematics.node_logic.joint_states import JointStatesFlow
from dh_kinematics.parameters.specs import NODE
flow = JointStatesFlow(chain.joint_names, None, print, 0)
flow.configure(chain, {spec.name: spec.default for spec in NODE})
flow.tick(1, 1); flow.statuses(1, 1)
logic = {name.split('.')[0] for name in set(sys.modules) - before}
print(sorted(core - set(sys.stdlib_module_names) - {'numpy', 'dh_kinematics'}))
print(sorted(logic - set(sys.stdlib_module_names) - {'numpy', 'yaml', 'dh_kinematics'}))
"""


def test_the_core_and_the_node_logic_load_no_ros():
    # The core needs numpy alone (no YAML until a file is read); the node logic adds none.
    env = dict(os.environ, PYTHONPATH=str(PACKAGE), PYTHONNOUSERSITE='1')
    result = subprocess.run([sys.executable, '-c', CHECK], env=env, capture_output=True,
                            text=True, timeout=60, check=True)
    assert result.stdout.split('\n')[:2] == ['[]', '[]'], result.stdout + result.stderr
