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
ParameterSpecs as ROS parameters: every parameter declared with a value, typed and described.

What reaches the node (parameter files, ``-p``) is checked by the core as a whole, exactly as
:meth:`Chain.from_params` checks a file: a typo is refused, never dropped. Integers are
accepted wherever a real number is declared, at start-up and in a change. Every parameter gets
a value (a model field the file leaves out gets the core's default), so that
``ros2 param dump`` gives a file that starts an identical node.
"""

import array
import math

from dh_kinematics.core.chain import Chain
from dh_kinematics.core.params import flatten
from dh_kinematics.stream import param_specs as node_params
from rcl_interfaces.msg import FloatingPointRange, ParameterDescriptor, SetParametersResult
from rclpy.parameter import Parameter
from rclpy.parameter_service import ParameterService

_TYPES = {'string': Parameter.Type.STRING, 'string_array': Parameter.Type.STRING_ARRAY,
          'double': Parameter.Type.DOUBLE, 'double_array': Parameter.Type.DOUBLE_ARRAY,
          'bool': Parameter.Type.BOOL}
_WORDS = {'string': 'a string', 'string_array': 'a list of strings', 'double': 'a real number',
          'double_array': 'a list of real numbers', 'bool': 'true or false'}
NO_LIMITS = [-math.inf, math.inf]
"""The declared ``qlim`` of a joint without limits."""


class NoModelError(ValueError):
    """No model parameter reached the node (no parameter file, or one keyed for another)."""


def plain(value):
    """Return a parameter value as the user wrote it: arrays as lists."""
    return value.tolist() if isinstance(value, array.array) else value


def as_real(value):
    """Turn integers (and integer lists) into real numbers; leave anything else as it is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(item, int) and not isinstance(item, bool) for item in value):
        return [float(item) for item in value]
    return value


def converted(spec, value):
    """Return ``value`` in the declared type of ``spec``, or raise ValueError naming it."""
    value = plain(value)
    if spec.kind in ('double', 'double_array', 'dynamic'):
        value = as_real(value)
    if spec.kind == 'dynamic' or value is None:
        return value
    if Parameter.Type.from_parameter_value(value) != _TYPES[spec.kind]:
        raise ValueError(f'{spec.name}: must be {_WORDS[spec.kind]}, got {value!r}')
    return value


def declare(node, spec, value=None):
    """Declare one parameter from a ParameterSpec with ``value`` (or its default)."""
    descriptor = ParameterDescriptor(description=spec.description, read_only=spec.read_only)
    value = spec.default if value is None else value
    if spec.kind == 'dynamic':
        descriptor.dynamic_typing = True
    else:
        descriptor.type = _TYPES[spec.kind].value
    if spec.minimum is not None:
        descriptor.floating_point_range = [FloatingPointRange(from_value=spec.minimum,
                                                              to_value=spec.maximum)]
        if not spec.minimum <= value <= spec.maximum:
            raise ValueError(f'{spec.name}: must be within [{spec.minimum:g}, '
                             f'{spec.maximum:g}], got {value!r}')
    node.declare_parameter(spec.name, value, descriptor, ignore_override=True)
    return spec.name


def given(node):
    """Return the parameters given to ``node`` (files and ``-p``) as plain Python values."""
    return {name: plain(parameter.value)
            for name, parameter in node._parameter_overrides.items()}


def declare_settings(node, specs):
    """Declare node settings with the given values (integers taken as reals) or defaults."""
    values = given(node)
    return [declare(node, spec, converted(spec, values.get(spec.name))) for spec in specs]


def declare_model(node):
    """
    Check the given model as a whole, declare every model parameter; return (names, chain).

    Raises
    ------
    NoModelError
        When no model parameter reached the node.
    ValueError
        Naming the parameter, as :meth:`Chain.from_params` does (typos included).

    """
    values = {name: as_real(value) for name, value in given(node).items()}
    if not node_params.model_values(values):
        name = node.get_fully_qualified_name()
        raise NoModelError(f'no model parameters reached node {name!r}', name)
    chain = Chain.from_params(values)
    defaults = flatten(chain.to_params())
    for joint in chain.joint_names:  # the field a joint's variable replaces is 0
        defaults.setdefault(f'{joint}.theta', 0.0)
        defaults.setdefault(f'{joint}.d', 0.0)
    names = []
    specs = node_params.MODEL + tuple(
        spec for joint in chain.joint_names for spec in node_params.joint_specs(joint))
    for spec in specs:
        value = values.get(spec.name, defaults.get(spec.name))
        if spec.name.endswith('.qlim') and value is None:
            value = NO_LIMITS
        names.append(declare(node, spec, converted(spec, value)))
    return names, chain


def refusal(node, parameters):
    """
    Return why a change cannot be taken, naming the parameter, or None.

    Undeclared parameters, unsetting one, and wrong types are refused here, with the name that
    rclpy's own reasons leave out.
    """
    for parameter in parameters:
        if not node.has_parameter(parameter.name):
            return f'{parameter.name}: no such parameter'
        if parameter.type_ == Parameter.Type.NOT_SET:
            return f'{parameter.name}: cannot be unset; give a value'
        descriptor = node.describe_parameter(parameter.name)
        if descriptor.dynamic_typing:
            continue
        expected = Parameter.Type(descriptor.type)
        if parameter.type_ != expected:
            kind = next(kind for kind, type_ in _TYPES.items() if type_ == expected)
            return f'{parameter.name}: must be {_WORDS[kind]}, got {plain(parameter.value)!r}'
    return None


def with_reals(node, parameters):
    """Return ``parameters`` with integers turned into reals where a real is declared."""
    result = []
    for parameter in parameters:
        if node.has_parameter(parameter.name) and parameter.type_ in (
                Parameter.Type.INTEGER, Parameter.Type.INTEGER_ARRAY):
            descriptor = node.describe_parameter(parameter.name)
            if descriptor.dynamic_typing or descriptor.type in (
                    Parameter.Type.DOUBLE.value, Parameter.Type.DOUBLE_ARRAY.value):
                parameter = Parameter(parameter.name, value=as_real(plain(parameter.value)))
        result.append(parameter)
    return result


def changed(node, parameters):
    """Keep the parameters whose value differs from the current one (a reload is no change)."""
    return [parameter for parameter in parameters
            if not node.has_parameter(parameter.name)
            or plain(node.get_parameter(parameter.name).value) != plain(parameter.value)]


class WholeChanges:
    """
    Node mixin: a change is taken wholly or refused wholly, naming the parameter.

    The node provides ``_joint_names()`` and ``_log(key, text, counts)``.
    """

    def set_parameters_atomically(self, parameter_list):
        """
        Take a change wholly or refuse it wholly, with a reason that names the parameter.

        Integers are taken where reals are declared; parameters that keep their value are no
        change (so that a dumped file loads back); the joint set and joint types need a
        restart.
        """
        parameters = changed(self, with_reals(self, parameter_list))
        reason = refusal(self, parameters) or self._needs_restart(parameters)
        if reason is not None:
            self._log('refused', f'parameter change refused: {reason}', counts=False)
            return SetParametersResult(successful=False, reason=reason)
        if not parameters:
            return SetParametersResult(successful=True)
        return super().set_parameters_atomically(parameters)

    def set_parameters(self, parameter_list):
        """Set the parameters as one change (see :meth:`set_parameters_atomically`)."""
        result = self.set_parameters_atomically(parameter_list)
        return [result for _ in parameter_list]

    def _needs_restart(self, parameters):
        for parameter in parameters:
            joint, _, field = parameter.name.rpartition('.')
            if parameter.name == 'joints':
                return ('joints: the joint set is fixed at start-up; restart the node with the '
                        'new model to change it')
            if field == 'type' and joint in self._joint_names():
                return (f'{parameter.name}: a joint type is fixed at start-up; restart the '
                        'node with the new model to change it')
        return None


class AtomicParameterService(ParameterService):
    """
    rclpy's parameter services, except that ``set_parameters`` takes a request as a whole.

    rclpy sets each parameter of a ``set_parameters`` request on its own, so that loading
    another arm's file half-succeeds (92 set, 3 refused: a hybrid arm). Here the request is
    applied wholly or refused wholly, with one reason for every parameter.
    """

    def _set_parameters_callback(self, request, response):
        node = self._get_node()
        parameters = [Parameter.from_parameter_msg(p) for p in request.parameters]
        result = node.set_parameters_atomically(parameters) if parameters else None
        response.results = [SetParametersResult(successful=result.successful,
                                                reason=result.reason) for _ in parameters]
        return response
