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
A payload at the tool: its mass properties, checked, and folded into the last link.

A payload (a gripper, a part) is a rigid body fixed to the tool frame: mass ``m`` (kg), centre
of mass ``com`` in the tool frame (m) and inertia about that centre, in tool-frame axes
(kg m^2). :func:`fold` adds it to the last link's mass, centre of mass and inertia (parallel
axis theorem), so that gravity load and inverse dynamics carry it, as a fixed child link does in
a URDF. Unlike the toolbox's ``payload(m, p)``, which replaces the last link's mass, the link's
own mass is kept.
"""

from collections import namedtuple

from dh_kinematics.core import bounds
from dh_kinematics.core.checks import check_array, check_scalar
from dh_kinematics.core.dynamics.inertials import Inertial, merged, moved
from dh_kinematics.core.link_checks import check_inertia
import numpy as np

Payload = namedtuple('Payload', 'mass com inertia')
Payload.__doc__ = """A payload fixed to the tool frame.

mass : float
    kg, >= 0.
com : array, shape (3,)
    Centre of mass in the tool frame, m.
inertia : array, shape (3, 3)
    Inertia about the centre of mass, tool-frame axes, kg m^2.
"""


def check_payload(mass=0.0, com=(0.0, 0.0, 0.0), inertia=(0.0, 0.0, 0.0),
                  field='payload'):
    """
    Check a payload's mass properties; return a :data:`Payload`.

    ``inertia`` takes the forms of a link's ``I``: 3 (diagonal), 6 (Ixx Iyy Izz Ixy Iyz Ixz)
    or a 3x3 symmetric matrix. Raises InvalidFieldError naming ``<field>.mass``, ``.com`` or
    ``.inertia``.
    """
    mass = check_scalar(f'{field}.mass', mass, minimum=0.0)
    com = check_array(f'{field}.com', com, [(3,)])
    inertia = check_inertia(f'{field}.inertia', inertia)
    bounds.check_magnitude(f'{field}.mass', np.asarray(mass), bounds.DYNAMICS_MAX, 'kg')
    bounds.check_magnitude(f'{field}.com', com, bounds.LENGTH_MAX, 'm')
    bounds.check_magnitude(f'{field}.inertia', inertia, bounds.DYNAMICS_MAX, 'kg m^2')
    for array in (com, inertia):
        array.flags.writeable = False
    return Payload(mass, com, inertia)


NO_PAYLOAD = check_payload()


def is_empty(payload):
    """Tell whether ``payload`` adds nothing (no mass, no inertia)."""
    return payload.mass == 0.0 and not payload.inertia.any()


def fold(m, r, I, payload, T_last_tool):  # noqa: E741
    """
    Return the mass properties of the last link with ``payload`` fixed to the tool.

    Parameters
    ----------
    m : float
        The link's mass, kg.
    r : array, shape (3,)
        Its centre of mass in the last link frame, m.
    I : array, shape (3, 3)
        Its inertia about that centre, link-frame axes, kg m^2.
    payload : Payload
        The payload, in the tool frame.
    T_last_tool : array, shape (4, 4)
        The tool frame in the last link frame.

    Returns
    -------
    m, r, I
        Of the link and payload together, in the same frames and units.

    """
    if is_empty(payload):
        return m, r, I
    body = merged([Inertial(m, r, I), moved(Inertial(payload.mass, payload.com,
                                                     payload.inertia), T_last_tool)])
    # Inertia only (no mass at all): nothing moves the centre of mass.
    return body.m, r if body.m == 0.0 else body.c, body.I
