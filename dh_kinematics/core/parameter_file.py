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
Read a ROS 2 parameter file as rcl reads it, with one clear error for what rcl would refuse.

PyYAML follows YAML 1.1, where ``2e-4`` is a string; rcl reads it as a number, and so does
:func:`read`. rcl refuses a list that mixes types (``[0, 0.0]``) and any YAML error, with a
19-line traceback from ``rclpy.init``; :func:`read` refuses them in one line that names the
file, the line and what to write instead. Needs PyYAML.
"""

import re

from dh_kinematics.core.checks import InvalidFieldError

NODE_NAME_HINT = "key the file with '/**:' (every node) or with the node's name"
_EXPONENT = re.compile(r'^[-+]?[0-9]+[eE][-+]?[0-9]+$')


def _loader():
    import yaml

    class Loader(yaml.SafeLoader):
        """SafeLoader that reads ``2e-4`` and ``1E5`` as numbers, as rcl does."""

    Loader.add_implicit_resolver('tag:yaml.org,2002:float', _EXPONENT, list('-+0123456789'))
    return Loader


def _walk(node, path=()):
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _walk(value, path + (getattr(key, 'value', '?'),))
    elif isinstance(node, yaml.SequenceNode):
        yield node, path


def _check_lists(root, path):
    """Refuse a list that mixes types, as rcl does ('Sequence should be of same type')."""
    import yaml

    for node, keys in _walk(root):
        tags = [item.tag for item in node.value if isinstance(item, yaml.ScalarNode)]
        if len(set(tags)) < 2:
            continue
        name = '.'.join(str(key) for key in keys[2:] if key != 'ros__parameters') or keys[-1]
        items = [item.value for item in node.value]
        numbers = {'tag:yaml.org,2002:int', 'tag:yaml.org,2002:float'}
        if set(tags) <= numbers:
            fixed = ', '.join(value if '.' in value or 'e' in value.lower() else f'{value}.0'
                              for value in items)
            hint = f'write them all as real numbers: [{fixed}]'
        else:
            hint = 'write them all as one type'
        raise ValueError(f'{path}: line {node.start_mark.line + 1}: {name}: a list mixes types '
                         f'([{", ".join(items)}]), which ROS 2 cannot read; {hint}')


def read(path):
    """
    Return the document of a ROS 2 parameter file (a dict), read as rcl reads it.

    Raises
    ------
    ValueError
        Naming the file and, where it applies, the line: no such file, not YAML (a tab, say),
        not a mapping, or a list that mixes types.

    """
    import yaml

    try:
        with open(path, encoding='utf-8') as stream:
            text = stream.read()
    except OSError as error:
        raise ValueError(f'{path}: cannot read the parameter file: {error.strerror}') from None
    loader = _loader()
    try:
        root = yaml.compose(text, Loader=loader)
        document = yaml.load(text, Loader=loader)
    except yaml.YAMLError as error:
        mark = getattr(error, 'problem_mark', None)
        where = f'line {mark.line + 1}: ' if mark is not None else ''
        problem = getattr(error, 'problem', None) or str(error)
        hint = '; indent with spaces, not tabs' if '\\t' in problem or '\t' in text else ''
        raise ValueError(f'{path}: {where}not valid YAML: {problem}{hint}') from None
    if not isinstance(document, dict) or not document:
        raise ValueError(f'{path}: expected a ROS 2 parameter file (node: ros__parameters: ...)')
    _check_lists(root, path)
    return document


def flatten(params, prefix=''):
    """Flatten nested dicts into rclpy-style dotted names: ``{'a': {'b': 1}} -> {'a.b': 1}``."""
    if not isinstance(params, dict):
        raise InvalidFieldError(prefix.rstrip('.') or 'parameters', params, 'must be a mapping')
    flat = {}
    for key, value in params.items():
        name = f'{prefix}{key}'
        if isinstance(value, dict):
            flat.update(flatten(value, name + '.'))
        else:
            flat[name] = value
    return flat


def _reaches(key, node_name):
    """Tell whether a file's node key reaches ``node_name`` (``/ns/name`` or ``name``)."""
    key, target = str(key), '/' + node_name.lstrip('/')
    if key == '/**':
        return True
    if key.startswith('/**/'):
        return target.rsplit('/', 1)[-1] == key[len('/**/'):]
    return '/' + key.lstrip('/') == target


def node_keys(document, node_name):
    """
    Return the keys of ``document`` whose block reaches node ``node_name``, as rcl matches.

    ``node_name`` is fully qualified (``/left/dh_kinematics``) or in the root namespace; the
    keys that reach it are ``/**``, ``/**/<name>`` and its full name, with or without the
    leading slash. An exact key comes first.
    """
    keys = [key for key in document if _reaches(key, node_name)]
    return sorted(keys, key=lambda key: str(key) in ('/**',) or str(key).startswith('/**/'))


def node_parameters(path, node_name=None, document=None):
    """
    Return the ``ros__parameters`` of a parameter file for one node, as a flat dict.

    With ``node_name``, every block that reaches it is merged as rcl merges them: wildcards
    first, then its own name. Without, the ``/**`` block, or else the file's only block.
    ``document`` is the file as :func:`read` returned it, when the caller has read it already.
    """
    document = read(path) if document is None else document
    if node_name is not None:
        keys = node_keys(document, node_name)[::-1]
        if not keys:
            raise ValueError(f'{path}: no parameters for node {node_name!r}: the file has '
                             f'{", ".join(repr(str(key)) for key in document)}; '
                             f'{NODE_NAME_HINT}')
    else:
        keys = ['/**'] if '/**' in document else list(document)
        if len(keys) != 1:
            raise ValueError(f'{path}: cannot tell which node block to read among '
                             f'{sorted(map(str, document))}; name one with node_name')
    params = {}
    for key in keys:
        block = document[key]
        if not isinstance(block, dict) or not isinstance(block.get('ros__parameters'), dict):
            raise ValueError(f'{path}: block {key!r} has no ros__parameters mapping')
        params.update(flatten(block['ros__parameters']))
    return params
