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
The nodes' parameters, checked in one place: at start-up and on every change.

What reaches a node (parameter files, ``-p``, ``ros2 param set``) is checked here as a whole:
each value against its :class:`ParameterSpec` (type and range; integers are taken where a real
number is expected), and the model against the core, exactly as :meth:`Chain.from_params`
checks a file, so that a typo is refused, never dropped. The result is a :data:`Parameters`
record with a value for every parameter (a model field the file leaves out gets the core's
default), so that ``ros2 param dump`` gives a file that starts an identical node.
"""

from collections import namedtuple
import math

from dh_kinematics.core import bounds
from dh_kinematics.core.chain import Chain
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.model_file.parameter_file import flatten
from dh_kinematics.core.model_file.params import configurations, MESHES, model_values
from dh_kinematics.core.urdf import ros2_control
from dh_kinematics.parameters import rules
from dh_kinematics.parameters.specs import (
    configuration_spec, frame_specs, joint_specs, mesh_specs, MODEL, named_setting_specs)

NO_LIMITS = [-math.inf, math.inf]
"""The declared ``qlim`` of a joint without limits."""
_NONE = {'qlim': NO_LIMITS, 'effort_limit': math.inf, 'velocity_limit': math.inf,
         'acceleration_limit': math.inf, 'deceleration_limit': math.inf,
         'jerk_limit': math.inf, 'soft_limits': NO_LIMITS, 'k_position': 0.0, 'k_velocity': 0.0,
         'payload.mass': 0.0, 'payload.com': [0.0] * 3, 'payload.inertia': [0.0] * 3,
         'collision': []}
_NO_MESH = {'visual': '', 'collision': ''}
# The declared values that stand for "none": no joint limits, no known effort or velocity
# limit, no payload, no capsules (the default body's), no mesh.
_WORDS = {'string': 'a string', 'string_array': 'a list of strings', 'double': 'a real number',
          'double_array': 'a list of real numbers', 'bool': 'true or false'}
_KINDS = {
    'string': lambda value: isinstance(value, str),
    'string_array': lambda value: _list_of(value, str),
    'double': lambda value: isinstance(value, float),
    'double_array': lambda value: _list_of(value, float),
    'bool': lambda value: isinstance(value, bool)}

Parameters = namedtuple('Parameters', 'chain settings values specs')
Parameters.__doc__ = """A node's checked parameters.

chain : Chain
    The model.
settings : dict
    The node's settings by name (SI units).
values : dict
    Every parameter's value by name, model and settings, as declared.
specs : dict
    Every parameter's ParameterSpec by name.
"""


class NoModelError(ValueError):
    """No model parameter reached the node (no parameter file, or one keyed for another)."""


def _list_of(value, kind):
    return isinstance(value, list) and bool(value) and all(
        isinstance(item, kind) and not isinstance(item, bool) for item in value)


def as_real(value):
    """Turn integers (and integer lists) into real numbers; leave anything else as it is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(item, int) and not isinstance(item, bool) for item in value):
        return [float(item) for item in value]
    return value


def _number(text):
    """Return the float a string spells (YAML's ``.inf`` and ``.nan`` included), or None."""
    if not isinstance(text, str):
        return None
    spelled = text.strip().lower()
    sign, body = ('-', spelled[1:]) if spelled[:1] in '+-' and spelled else ('', spelled)
    if body in ('.inf', '.nan'):
        body = body[1:]
    try:
        return float(sign + body)
    except ValueError:
        return None


def read_numbers(spec, value):
    """
    Return a string (or strings) that spells a number as that number, for a real parameter.

    ``ros2 param load`` sends every value through YAML 1.1, where ``4e-05`` and ``inf`` (a
    number Python printed) are strings, and a list that holds one becomes the string of the
    list, ``'[0.00015, 4e-05]'``: such a string, for a parameter that is a real number (or a
    list of them), is the number (or list) it spells. Anything else is returned as it is.
    """
    if spec.kind == 'double':
        number = _number(value)
        return value if number is None else number
    if spec.kind != 'double_array':
        return value
    items = value
    if isinstance(value, str) and value.strip()[:1] == '[' and value.strip()[-1:] == ']':
        items = value.strip()[1:-1].split(',')
    if not isinstance(items, list) or not items or all(isinstance(i, float) for i in items):
        return value
    numbers = [_number(item) for item in items]
    return value if None in numbers else numbers


def check_value(spec, value):
    """Return ``value`` in the type of ``spec``, or raise InvalidFieldError naming it."""
    if spec.kind in ('double', 'double_array', 'dynamic'):
        value = as_real(read_numbers(spec, value))
    if spec.kind == 'dynamic':
        return value
    if value == [] and spec.kind == 'double_array' and spec.name.endswith('.collision'):
        return value  # a joint's capsules: none, the default body's
    if not _KINDS[spec.kind](value):
        raise InvalidFieldError(spec.name, value, f'must be {_WORDS[spec.kind]}')
    if spec.minimum is not None and not spec.minimum <= value <= spec.maximum:
        raise InvalidFieldError(spec.name, value,
                                f'must be within [{spec.minimum:g}, {spec.maximum:g}]')
    if spec.limit and not all(item == math.inf or 0.0 < item < math.inf
                              for item in (value if isinstance(value, list) else [value])):
        off = spec.maximum is None or spec.maximum == math.inf  # else its range refused .inf
        raise InvalidFieldError(spec.name, value, 'must be > 0' + (', or .inf for off' * off))
    return value


def _model_values(chain, given):
    """Return a value for every model parameter: as given, else the core's default."""
    defaults = flatten(chain.to_params())
    for joint in chain.joint_names:  # the field a joint's variable replaces is 0, as is beta
        for field in ('theta', 'd', 'beta'):
            defaults.setdefault(f'{joint}.{field}', 0.0)
    specs = MODEL + tuple(spec for joint in chain.joint_names for spec in joint_specs(joint))
    specs += tuple(spec for frame in chain.frames for spec in frame_specs(frame.name))
    specs += tuple(spec for frame in chain.meshes for spec in mesh_specs(frame))
    specs += tuple(configuration_spec(name) for name in configurations(given, chain.n))
    values = {}
    for spec in specs:
        value = given.get(spec.name, defaults.get(spec.name))
        if value is None:
            last = spec.name.rpartition('.')[2]
            value = _NONE.get(spec.name, (_NO_MESH if spec.name.startswith(MESHES + '.')
                                          else _NONE).get(last))
        values[spec.name] = value
    return {spec.name: check_value(spec, values[spec.name]) for spec in specs}, specs


def checked(given, setting_specs, node_name='node'):
    """
    Check what was given to a node as a whole; return its :data:`Parameters`.

    Parameters
    ----------
    given : dict
        Parameter values by name, as plain Python values (lists, not arrays).
    setting_specs : sequence of ParameterSpec
        The node's settings; a missing one gets its default.
    node_name : str
        The node's fully qualified name, for the error when no model reached it.

    Raises
    ------
    NoModelError
        When no model parameter reached the node.
    ValueError
        Naming the parameter, as :meth:`Chain.from_params` does (typos included), and a
        ``frame_prefix`` that breaks the rule for names or makes two published names alike
        (:mod:`core.names`).

    """
    declared = {spec.name for spec in setting_specs}
    if 'safety.momentum_limit' in declared:  # the node's: also what the user named
        setting_specs = tuple(setting_specs) + tuple(
            spec for spec in named_setting_specs(given) if spec.name not in declared)
    settings = {spec.name: check_value(spec, given.get(spec.name, spec.default))
                for spec in setting_specs}
    model = {name: as_real(value) for name, value in model_values(given).items()}
    if not model:
        raise NoModelError(f'no model parameters reached node {node_name!r}', node_name)
    chain = Chain.from_params(model)
    rules.check(chain, settings)
    if 'ros2_control.plugin' in settings:
        control_hardware(chain, settings, model)
    values, specs = _model_values(chain, model)
    values.update(settings)
    specs = {spec.name: spec for spec in specs + tuple(setting_specs)}
    return Parameters(chain, settings, values, specs)


def notes(parameters):
    """
    Return what a user should hear of checked ``parameters`` though nothing is refused.

    A model value possible but unusual (:func:`core.bounds.model_warnings`), and a setting that
    has no effect as the others stand (:func:`rules.setting_warnings`): the node logs each as a
    warning, the commands print each as one.
    """
    return ([f'unusual model value: {note}' for note in bounds.model_warnings(parameters.chain)]
            + rules.setting_warnings(parameters.settings))


def control_hardware(chain, settings, values):
    """
    Return the hardware of the URDF's ``<ros2_control>`` block, or None where none is set.

    From ``ros2_control.plugin`` and ``ros2_control.initial_configuration`` (a name among the
    ``configurations`` in ``values``); raises :class:`InvalidFieldError` naming either.
    """
    plugin = ros2_control.check_plugin(settings['ros2_control.plugin'])
    field = 'ros2_control.initial_configuration'
    name = settings[field]
    if not name:
        return None if plugin is None else ros2_control.hardware(chain, plugin)
    if plugin is None:
        raise InvalidFieldError(field, name, 'needs ros2_control.plugin: no block is written')
    named = configurations(values, chain.n)
    if name not in named:
        raise InvalidFieldError(field, name, f'must name one of the configurations '
                                f'({", ".join(sorted(named)) or "none"}): add '
                                f'configurations.{name}')
    return ros2_control.hardware(chain, plugin, named[name], field)


def robot_description(parameters):
    """Return the URDF the node publishes: the model, prefixed, with its ros2_control block."""
    chain, settings = parameters.chain, parameters.settings
    return chain.to_urdf(settings['frame_prefix'],
                         control=control_hardware(chain, settings, parameters.values))


def changed(parameters, changes):
    """
    Check a change as a whole; return ``(parameters, changed)``: the new record and values.

    ``changes`` maps names to values, None for unsetting one. A value equal to the current one
    is no change (so that a dumped file loads back). Refused with a ValueError naming the
    parameter: an unknown name, unsetting, a wrong type or range, a new joint set or joint
    type (fixed at start-up), and anything the model as a whole refuses: InvalidFieldError.
    """
    checked_changes = {}
    for name, value in changes.items():
        spec = parameters.specs.get(name)
        if spec is None:
            raise InvalidFieldError(name, value, 'no such parameter')
        if value is None:
            raise InvalidFieldError(name, value, 'cannot be unset; give a value')
        checked_changes[name] = check_value(spec, value)
    new = {name: value for name, value in checked_changes.items()
           if value != parameters.values[name]}
    restart = 'restart the node with the new model to change it'
    for name, value in new.items():
        if name == 'joints':
            raise InvalidFieldError(name, value, f'the joint set is fixed at start-up; {restart}')
        if name.endswith('.type'):
            raise InvalidFieldError(name, value, f'a joint type is fixed at start-up; {restart}')
    if not new:
        return parameters, new
    setting_specs = [parameters.specs[name] for name in parameters.settings]
    return checked(dict(parameters.values, **new), setting_specs), new
