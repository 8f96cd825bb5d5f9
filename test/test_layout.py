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

import ast
import re

from helpers import PACKAGE


LISTED_FOLDERS = ('launch', 'examples', 'tools')
"""Folders beside the package whose every Python file the layout names too."""


def _listed():
    """Return the modules CONTRIBUTING's layout block names, as paths from the repository."""
    text = (PACKAGE / 'CONTRIBUTING.md').read_text()
    block = text.split('## Layout', 1)[1].split('```', 2)[1]
    folder, listed = None, []
    for line in block.splitlines():
        entry = line.split()[0] if line.strip() else ''
        if re.fullmatch(r'dh_kinematics/([\w/]*/)?|(' + '|'.join(LISTED_FOLDERS) + ')/', entry):
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
    tree |= {str(path.relative_to(PACKAGE)) for folder in LISTED_FOLDERS
             for path in (PACKAGE / folder).glob('*.py')}
    assert set(listed) == tree, (sorted(set(listed) - tree), sorted(tree - set(listed)))


# What makes a test depend on the ROS distribution: rclpy, the message packages, the nodes,
# launch, tf2. Such tests carry the ``ros`` marker and run on every distribution; the others
# run once (see the Makefile's test-ros and .ci/run).
ROS_WORDS = re.compile(r'rclpy|ros_fixtures|ros_probe|dh_kinematics\.ros\b|dh_kinematics_node|'
                       r'sensor_msgs|diagnostic_msgs|import launch|launch_pytest|tf2_|rosidl')


class _Code(ast.NodeTransformer):
    """Drop the text of strings but for what a test imports (``importorskip('rclpy')``)."""

    def visit_Call(self, node):
        name = ast.unparse(node.func)
        return node if name.endswith(('importorskip', 'import_module')) else self.generic_visit(
            node)

    def visit_Constant(self, node):
        return ast.Constant('') if isinstance(node.value, str) else node


def _code(nodes):
    return '\n'.join(ast.unparse(_Code().visit(node)) for node in nodes)


def _marked(node, mark):
    return any(mark in ast.unparse(decorator) for decorator in node.decorator_list)


def _touches_ros(source, functions, name, seen=()):
    body = _code(functions[name].body)
    if ROS_WORDS.search(body):
        return True
    return any(_touches_ros(source, functions, other, seen + (name,)) for other in functions
               if other not in seen and other != name and not other.startswith('test_')
               and re.search(rf'\b{other}\(', body))


def test_every_test_that_touches_ros_is_marked_so():
    unmarked = []
    for path in sorted((PACKAGE / 'test').glob('test_*.py')):
        source = path.read_text()
        tree = ast.parse(source)
        module_level = [node for node in tree.body if not isinstance(
            node, (ast.FunctionDef, ast.ClassDef, ast.Expr))]
        whole = 'pytestmark = pytest.mark.ros' in source
        if ROS_WORDS.search(_code(module_level)):
            if not whole:
                unmarked.append(path.name)
            continue
        functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
        unmarked += [f'{path.name}::{name}' for name in functions if name.startswith('test_')
                     and not whole and not _marked(functions[name], 'ros')
                     and _touches_ros(source, functions, name)]
    assert not unmarked, unmarked


SKIPS = ('skip', 'importorskip', 'skipif')


def _skip_calls(tree):
    """Yield every call of pytest.skip, importorskip or skipif in a module, and where it is."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).split('.')[-1] in SKIPS:
            yield node


def test_no_test_module_skips_at_module_level():
    # Issue 57: under colcon's pytest with launch_testing's plugin, one module-level skip ended
    # the collection of every module (2,091 tests read '1 skipped'). A test skips by a marker
    # or a fixture; a module-level call would run at import.
    found = []
    for path in sorted((PACKAGE / 'test').glob('*.py')):
        tree = ast.parse(path.read_text())
        module_level = [node for node in tree.body
                        if not isinstance(node, (ast.FunctionDef, ast.ClassDef))]
        found += [f'{path.name}:{call.lineno}' for node in module_level
                  for call in _skip_calls(node)
                  if ast.unparse(call.func).split('.')[-1] != 'skipif']
        found += [f'{path.name}:{call.lineno}' for call in _skip_calls(tree)
                  if any(keyword.arg == 'allow_module_level' for keyword in call.keywords)]
    assert not found, found


def test_skip_reasons_name_what_a_user_can_install():
    # Issue 57: reasons named ../shared/vendor-urdf and ROS2_CONTROL_PARSER, which no user has.
    bad = []
    for path in sorted((PACKAGE / 'test').glob('*.py')):
        for call in _skip_calls(ast.parse(path.read_text())):
            said = call.args[:1] if ast.unparse(call.func).endswith('.skip') else []
            texts = [ast.unparse(argument) for argument in said] + [
                ast.unparse(keyword.value) for keyword in call.keywords
                if keyword.arg == 'reason']
            bad += [f'{path.name}:{call.lineno}: {text}' for text in texts
                    if re.search(r'\.\./|shared/|\b(?!ROS_DISTRO\b)[A-Z][A-Z0-9]*_[A-Z0-9_]{3,}\b',
                                 text)]
    assert not bad, bad
