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

Everything is checked in :mod:`dh_kinematics.parameters.validation`; this module only turns
its record into declared parameters (typed, described, with ranges) and a change request into
a call to it. rclpy's own parameters (``use_sim_time`` and the like) are left to rclpy.
"""

import array

from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.parameters import validation
from dh_kinematics.ros.rclpy_compat import parameter_overrides
from rcl_interfaces.msg import FloatingPointRange, ParameterDescriptor
from rclpy.parameter import Parameter

_TYPES = {'string': Parameter.Type.STRING, 'string_array': Parameter.Type.STRING_ARRAY,
          'double': Parameter.Type.DOUBLE, 'double_array': Parameter.Type.DOUBLE_ARRAY,
          'bool': Parameter.Type.BOOL}


def python_value(value):
    """Return a parameter value as the user wrote it: arrays as lists."""
    return value.tolist() if isinstance(value, array.array) else value


def given_values(node):
    """Return the parameters given to ``node`` (files and ``-p``) as Python values, by name."""
    return {name: python_value(parameter.value)
            for name, parameter in parameter_overrides(node).items()}


def declare(node, setting_specs):
    """
    Check what was given to ``node`` as a whole and declare every parameter with its value.

    Returns the :data:`validation.Parameters` record; raises as
    :func:`validation.checked` does.
    """
    parameters = validation.checked(given_values(node), setting_specs,
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
        raise InvalidFieldError(parameter.name, None, 'cannot be unset; give a value')
    descriptor = node.describe_parameter(parameter.name)
    expected = Parameter.Type(descriptor.type)
    if not descriptor.dynamic_typing and parameter.type_ != expected:
        kind = 'true or false' if expected == Parameter.Type.BOOL else expected.name.lower()
        raise InvalidFieldError(parameter.name, python_value(parameter.value), f'must be {kind}')


def checked_change(node, config, parameter_list):
    """
    Check a change of ``node``'s parameters as a whole, without applying it.

    Parameters
    ----------
    node : rclpy.node.Node
        The node, whose rclpy parameters (``use_sim_time`` and the like) are read.
    config : validation.Parameters
        The node's checked record.
    parameter_list : list of rclpy.parameter.Parameter
        The change.

    Returns
    -------
    record : validation.Parameters
        The record after the change (:func:`validation.changed`).
    declared : list of rclpy.parameter.Parameter
        What to set on the node: the node's own parameters that change, and rclpy's.
    names : list of str
        The names of the node's own parameters that change.

    Raises
    ------
    ValueError
        With a reason naming the parameter: one of the node's refused by its checks, or one
        of rclpy's unset or given another type.

    """
    ours, others = {}, []
    for parameter in parameter_list:
        not_set = parameter.type_ == Parameter.Type.NOT_SET
        if parameter.name in config.specs or not node.has_parameter(parameter.name):
            ours[parameter.name] = None if not_set else python_value(parameter.value)
        elif not_set or python_value(parameter.value) != python_value(
                node.get_parameter(parameter.name).value):
            _check_rclpy_parameter(node, parameter, not_set)
            others.append(parameter)
    record, new = validation.changed(config, ours)
    declared = [Parameter(name, value=value) for name, value in new.items()]
    return record, declared + others, list(new)
