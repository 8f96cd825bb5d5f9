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

"""Declare ParameterSpecs as ROS parameters with descriptors (type, description, range)."""

from dh_kinematics.node_params import joint_specs, MODEL
from rcl_interfaces.msg import FloatingPointRange, ParameterDescriptor
from rclpy.parameter import Parameter

_TYPES = {'string': Parameter.Type.STRING, 'string_array': Parameter.Type.STRING_ARRAY,
          'double': Parameter.Type.DOUBLE, 'double_array': Parameter.Type.DOUBLE_ARRAY,
          'bool': Parameter.Type.BOOL}


def declare(node, spec):
    """Declare one parameter from a ParameterSpec; return its name."""
    descriptor = ParameterDescriptor(description=spec.description, read_only=spec.read_only)
    if spec.kind == 'dynamic':
        descriptor.dynamic_typing = True
        node.declare_parameter(spec.name, None, descriptor)
        return spec.name
    descriptor.type = _TYPES[spec.kind].value
    if spec.minimum is not None:
        descriptor.floating_point_range = [FloatingPointRange(from_value=spec.minimum,
                                                              to_value=spec.maximum)]
    node.declare_parameter(spec.name, _TYPES[spec.kind] if spec.default is None
                           else spec.default, descriptor)
    return spec.name


def declare_model(node):
    """Declare the model parameters (MODEL, then one block per joint); return their names."""
    names = [declare(node, spec) for spec in MODEL]
    joints = node.get_parameter_or('joints').value or []
    if len(set(joints)) != len(joints):
        raise ValueError(f'joints: must not repeat a name, got {joints}')
    for joint in joints:
        names += [declare(node, spec) for spec in joint_specs(joint)]
    return names


def refusal(node, parameters):
    """
    Return why rclpy would refuse a change, naming the parameter, or None.

    rclpy's own reasons for an undeclared parameter or a wrong type do not say which parameter
    they mean; these do.
    """
    for parameter in parameters:
        if not node.has_parameter(parameter.name):
            return f'{parameter.name}: no such parameter'
        descriptor = node.describe_parameter(parameter.name)
        if descriptor.dynamic_typing or parameter.type_ == Parameter.Type.NOT_SET:
            continue
        if parameter.type_.value != descriptor.type:
            expected = Parameter.Type(descriptor.type).name.lower().replace('_', ' ')
            hint = (' (write doubles with a decimal point, e.g. 1.0)'
                    if parameter.type_ in (Parameter.Type.INTEGER, Parameter.Type.INTEGER_ARRAY)
                    else '')
            return f'{parameter.name}: must be of type {expected}, got {parameter.value!r}{hint}'
    return None
