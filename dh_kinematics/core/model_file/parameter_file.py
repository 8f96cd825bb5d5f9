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
:func:`read`. rcl refuses a list that mixes types (``[0, 0.0]``), an alias (``*name``) and any
YAML error, with a 19-line traceback from ``rclpy.init``; :func:`read` refuses them in one line
that names the file, the line and what to write instead. Its work is bounded whatever the file
holds: only a regular file is opened (a FIFO or a device could block or never end), at most
:data:`MAX_BYTES` are read, nesting deeper than :data:`MAX_DEPTH` is refused before anything
recurses, and an alias is refused before it could be expanded. Needs PyYAML (its libyaml
parser where present: a file of MAX_BYTES then reads in about 1 s).
"""

import re

from dh_kinematics.core import files
from dh_kinematics.core.checks import InvalidFieldError

NODE_NAME_HINT = "key the file with '/**:' (every node) or with the node's name"
MAX_BYTES = 1 << 20
"""The largest parameter file read, bytes (the Panda's model file is 3.4 kB)."""
MAX_DEPTH = 32
"""The deepest nesting of mappings and lists read (a model file nests 5 levels deep)."""
_EXPONENT = re.compile(r'^[-+]?[0-9]+[eE][-+]?[0-9]+$')
_INT64 = (-2 ** 63, 2 ** 63 - 1)


def _loader(fast=True):
    """Return the loader: on libyaml's parser if ``fast`` and PyYAML has it, else PyYAML's."""
    import yaml

    class Loader(getattr(yaml, 'CSafeLoader', yaml.SafeLoader) if fast else yaml.SafeLoader):
        """SafeLoader that reads numbers as rcl does: ``2e-4`` is one, int64 is the range."""

        def construct_yaml_int(self, node):
            """Keep an integer rcl cannot hold in an int64 as its text, which no check takes."""
            try:
                value = super().construct_yaml_int(node)
            except ValueError:  # more digits than Python converts
                return node.value
            return value if _INT64[0] <= value <= _INT64[1] else node.value

    Loader.add_implicit_resolver('tag:yaml.org,2002:float', _EXPONENT, list('-+0123456789'))
    Loader.add_constructor('tag:yaml.org,2002:int', Loader.construct_yaml_int)
    return Loader


def _check_events(text, loader, path):
    """Refuse an alias and nesting deeper than MAX_DEPTH, from the parser's events alone."""
    import yaml

    depth = 0
    for event in yaml.parse(text, Loader=loader):
        where = f'{path}: line {event.start_mark.line + 1}'
        if isinstance(event, yaml.AliasEvent):
            raise ValueError(f'{where}: an alias (*{event.anchor}), which ROS 2 cannot read; '
                             'write the value out')
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise ValueError(f'{where}: nested deeper than {MAX_DEPTH} levels, which no '
                                 'model needs (a model file nests 5)')
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _python_error(text, path):
    """Return the error PyYAML's Python parser finds in ``text`` (libyaml's says less)."""
    import yaml

    try:
        _check_events(text, _loader(fast=False), path)
        yaml.compose(text, Loader=_loader(fast=False))
    except yaml.YAMLError as error:
        return error
    return None


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
        Naming the file and, where it applies, the line: no such file, not a regular file,
        larger than MAX_BYTES, not UTF-8, not YAML (a tab, say), an alias, nested deeper than
        MAX_DEPTH, not a mapping, or a list that mixes types.

    """
    import yaml

    text = files.read_text(path, 'parameter file', MAX_BYTES)
    loader = _loader()
    try:
        _check_events(text, loader, path)
        reader = loader(text)
        try:
            root = reader.get_single_node()
            document = None if root is None else reader.construct_document(root)
        finally:
            reader.dispose()
    except yaml.YAMLError as error:
        error = _python_error(text, path) or error  # PyYAML's own words and marks
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
    Return the keys of ``document`` whose block reaches node ``node_name``, in file order.

    ``node_name`` is fully qualified (``/left/dh_kinematics``) or in the root namespace; the
    keys that reach it are ``/**``, ``/**/<name>`` and its full name, with or without the
    leading slash.
    """
    return [key for key in document if _reaches(key, node_name)]


def _block(path, document, key):
    block = document[key]
    if not isinstance(block, dict) or not isinstance(block.get('ros__parameters'), dict):
        raise ValueError(f'{path}: block {key!r} has no ros__parameters mapping')
    return flatten(block['ros__parameters'])


def merged(files, node_name):
    """
    Return the parameters that reach ``node_name`` from several files, as rcl merges them.

    ``files`` is a sequence of ``(path, document)``, in the order of the ``--params-file``
    arguments. rcl keeps one block per node key, in the order the keys first appear across
    the files (a later file's values for a key override an earlier one's), then applies the
    blocks that reach the node in that order: a ``/**`` block after the node's own block
    overrides it. Returns a flat dict (empty when no block reaches the node).
    """
    blocks = {}
    for path, document in files:
        for key in node_keys(document, node_name):
            blocks.setdefault('/' + str(key).lstrip('/'), {}).update(_block(path, document, key))
    params = {}
    for block in blocks.values():
        params.update(block)
    return params


def node_parameters(path, node_name=None, document=None):
    """
    Return the ``ros__parameters`` of a parameter file for one node, as a flat dict.

    With ``node_name``, every block that reaches it is merged as rcl merges them, in file
    order (:func:`merged`). Without, the ``/**`` block, or else the file's only block.
    ``document`` is the file as :func:`read` returned it, when the caller has read it already.
    """
    document = read(path) if document is None else document
    if node_name is not None:
        if not node_keys(document, node_name):
            raise ValueError(f'{path}: no parameters for node {node_name!r}: the file has '
                             f'{", ".join(repr(str(key)) for key in document)}; '
                             f'{NODE_NAME_HINT}')
        return merged([(path, document)], node_name)
    else:
        keys = ['/**'] if '/**' in document else list(document)
        if len(keys) != 1:
            raise ValueError(f'{path}: cannot tell which node block to read among '
                             f'{sorted(map(str, document))}; name one with node_name')
    return _block(path, document, keys[0])
