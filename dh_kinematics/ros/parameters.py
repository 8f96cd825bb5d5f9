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
The nodes' parameters on rclpy: declared from the checked record, changed as a whole.

Everything is checked in :mod:`dh_kinematics.stream.node_parameters`; this module only turns
its record into declared parameters (typed, described, with ranges) and a change request into
a call to it. rclpy's own parameters (``use_sim_time`` and the like) are left to rclpy.
"""

import array

from dh_kinematics.stream import node_parameters
from rcl_interfaces.msg import FloatingPointRange, ParameterDescriptor, SetParametersResult
from rclpy.parameter import Parameter
from rclpy.parameter_service import ParameterService

_TYPES = {'string': Parameter.Type.STRING, 'string_array': Parameter.Type.STRING_ARRAY,
          'double': Parameter.Type.DOUBLE, 'double_array': Parameter.Type.DOUBLE_ARRAY,
          'bool': Parameter.Type.BOOL}


def plain(value):
    """Return a parameter value as the user wrote it: arrays as lists."""
    return value.tolist() if isinstance(value, array.array) else value


def given(node):
    """Return the parameters given to ``node`` (files and ``-p``) as plain Python values."""
    return {name: plain(parameter.value)
            for name, parameter in node._parameter_overrides.items()}


def declare(node, setting_specs):
    """
    Check what was given to ``node`` as a whole and declare every parameter with its value.

    Returns the :data:`node_parameters.Parameters` record; raises as
    :func:`node_parameters.checked` does.
    """
    parameters = node_parameters.checked(given(node), setting_specs,
                                         node.get_fully_qualified_name())
    for name, value in parameters.values.items():
        spec = parameters.specs[name]
        descriptor = ParameterDescriptor(description=spec.description,
                                         read_only=spec.read_only)
        if spec.kind == 'dynamic':
            descriptor.dynamic_typing = True
        else:
            descriptor.type = _TYPES[spec.kind].value
        if spec.minimum is not None:
            descriptor.floating_point_range = [FloatingPointRange(from_value=spec.minimum,
                                                                  to_value=spec.maximum)]
        node.declare_parameter(name, value, descriptor, ignore_override=True)
    return parameters


def _check_rclpy_parameter(node, parameter, not_set):
    """Refuse unsetting one of rclpy's own parameters, or giving it another type."""
    if not_set:
        raise ValueError(f'{parameter.name}: cannot be unset; give a value')
    descriptor = node.describe_parameter(parameter.name)
    expected = Parameter.Type(descriptor.type)
    if not descriptor.dynamic_typing and parameter.type_ != expected:
        kind = 'true or false' if expected == Parameter.Type.BOOL else expected.name.lower()
        raise ValueError(f'{parameter.name}: must be {kind}, got {plain(parameter.value)!r}')


class WholeChanges:
    """
    Node mixin: a change is taken wholly or refused wholly, with a reason naming the parameter.

    The node holds its record in ``_config`` and provides ``_take(parameters, names)``, which
    applies a checked change, and ``_refused(reason)``, which logs a refusal. rclpy's own
    parameters pass to rclpy; only unsetting one or giving it another type is refused here.
    """

    def set_parameters_atomically(self, parameter_list):
        """Check the change in :func:`node_parameters.changed`; set and take it, or refuse it."""
        ours, others = {}, []
        for parameter in parameter_list:
            not_set = parameter.type_ == Parameter.Type.NOT_SET
            if parameter.name in self._config.specs or not self.has_parameter(parameter.name):
                ours[parameter.name] = None if not_set else plain(parameter.value)
            elif not_set or plain(parameter.value) != plain(
                    self.get_parameter(parameter.name).value):
                others.append((parameter, not_set))
        try:
            for parameter, not_set in others:
                _check_rclpy_parameter(self, parameter, not_set)
            parameters, new = node_parameters.changed(self._config, ours)
        except ValueError as error:
            self._refused(str(error))
            return SetParametersResult(successful=False, reason=str(error))
        others = [parameter for parameter, _ in others]
        if not new and not others:
            return SetParametersResult(successful=True)
        result = super().set_parameters_atomically(
            [Parameter(name, value=value) for name, value in new.items()] + others)
        if result.successful and new:
            self._take(parameters, list(new))
        return result

    def set_parameters(self, parameter_list):
        """Set the parameters as one change (see :meth:`set_parameters_atomically`)."""
        result = self.set_parameters_atomically(parameter_list)
        return [result for _ in parameter_list]


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
