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
The ``<ros2_control>`` block of a model's URDF: the arm as ros2_control's hardware sees it.

Since Jazzy the controller manager reads the URDF from ``/robot_description``; its
``hardware_interface`` parser (``component_parser.cpp``) wants, inside ``<robot>``, a
``<ros2_control name="..." type="system">`` with a ``<hardware>`` naming the ``<plugin>`` and
its ``<param name="...">`` values, then a ``<joint name="...">`` per joint with
``<command_interface name="...">`` and ``<state_interface name="...">`` elements, each with
optional ``min``, ``max`` and ``initial_value`` params. Every joint must be a moving joint of
the same URDF (the parser looks each up by name), and every param needs a name and a text.

Here each joint gets a ``position`` command and state interface, and ``velocity`` and
``effort`` ones where the model has a velocity or effort limit: commands bounded by the
limits (position from ``qlim``, velocity and effort +-limit), the position's initial value from
a configuration (each joint 0, within its limits, by default). ``mock`` is ros2_control's mock
hardware, ``mock_components/GenericSystem``, with ``calculate_dynamics`` off: each state follows
its command.
"""

from collections import namedtuple
import re

from dh_kinematics.core.checks import check_joint_array, InvalidFieldError
from dh_kinematics.core.escaping import xml_attribute
import numpy as np

MOCK = 'mock_components/GenericSystem'
"""ros2_control's mock hardware (package mock_components, in hardware_interface)."""
MOCK_PARAMETERS = (('calculate_dynamics', 'false'),)
"""The mock's hardware parameters written: each state follows its command."""
_PLUGIN = re.compile(r'[A-Za-z_]\w*(/|::)[A-Za-z_]\w*(::[A-Za-z_]\w*)*', re.ASCII)

Hardware = namedtuple('Hardware', 'plugin parameters initial')
Hardware.__doc__ = """The hardware a ``<ros2_control>`` block names: the plugin's class name,
its parameters ((name, text) pairs) and each joint's initial position (rad or m), shape (n,)."""


def check_plugin(value, field='ros2_control.plugin'):
    """
    Return the plugin class a setting names: '' (none), ``mock`` or ``package/Class``.

    Returns None for '' (no block). Raises :class:`InvalidFieldError` naming ``field`` for a
    name pluginlib could not look up (``package/Class`` or ``namespace::Class``).
    """
    if value == '':
        return None
    if value == 'mock':
        return MOCK
    if not isinstance(value, str) or not _PLUGIN.fullmatch(value):
        raise InvalidFieldError(field, value, "must be '' (none), 'mock' or a hardware "
                                'plugin class such as my_robot_driver/MyRobotHardware')
    return value


def hardware(chain, plugin, initial=None, field='ros2_control.initial_configuration'):
    """
    Return the :data:`Hardware` of ``chain`` for a plugin class (:func:`check_plugin`).

    ``initial`` is each joint's initial position (rad or m), within its limits; by default
    each joint's 0 brought within its limits.
    """
    lower, upper = np.asarray(chain.qlim, dtype=float).T
    if initial is None:
        initial = np.clip(np.zeros(chain.n), lower, upper)
    else:
        initial = check_joint_array(field, initial, chain.n)[0][0]
        outside = np.flatnonzero((initial < lower) | (initial > upper))
        if len(outside):
            j = outside[0]
            raise InvalidFieldError(field, float(initial[j]), f'{chain.joint_names[j]} must '
                                    f'start within its limits [{lower[j]:g}, {upper[j]:g}]')
    parameters = MOCK_PARAMETERS if plugin == MOCK else ()
    return Hardware(plugin, parameters, initial)


def block(chain, control, joint_prefix=''):
    """
    Return the ``<ros2_control>`` element of ``chain`` with ``control`` (:data:`Hardware`).

    ``joint_prefix`` goes before each joint's name and the system's (the chain's name), as the
    URDF around it names its joints (``${prefix}`` in a xacro macro).
    """
    name = joint_prefix + (chain.name or 'arm')
    lines = [f'<ros2_control name={xml_attribute(name)} type="system">',
             f'  <hardware><plugin>{_text(control.plugin)}</plugin>'
             + ''.join(_param(key, value) for key, value in control.parameters)
             + '</hardware>']
    for joint, link, initial in zip(chain.joint_names, chain.links, control.initial):
        interfaces = [('position', link.qlim, initial)]
        if link.velocity_limit is not None:
            interfaces.append(('velocity', (-link.velocity_limit, link.velocity_limit), 0.0))
        if link.effort_limit is not None:
            interfaces.append(('effort', (-link.effort_limit, link.effort_limit), 0.0))
        commands = ''.join(
            f'<command_interface name="{kind}">'
            + ('' if limits is None else _param('min', _number(limits[0]))
               + _param('max', _number(limits[1])))
            + '</command_interface>' for kind, limits, _ in interfaces)
        states = ''.join(f'<state_interface name="{kind}">'
                         f'{_param("initial_value", _number(value))}</state_interface>'
                         for kind, _, value in interfaces)
        lines.append(f'  <joint name={xml_attribute(joint_prefix + joint)}>{commands}{states}'
                     '</joint>')
    lines.append('</ros2_control>')
    return '\n  '.join(lines)


def _param(name, text):
    return f'<param name="{name}">{_text(text)}</param>'


def _text(value):
    return str(value).replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def _number(value):
    return repr(float(value))
