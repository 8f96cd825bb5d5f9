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
A URDF of a chain: every frame the node publishes is a link, and every pose matches its TF.

Modified DH links map onto one URDF joint each: ``A = [Tx(a) Rx(alpha) Rz(offset) Tz(d)] Rz(q)``
(revolute; ``[Tx(a) Rx(alpha) Rz(theta) Tz(offset)] Tz(q)`` prismatic), the bracket being the
joint's origin. A standard DH link turns about its parent's z, off which its own origin sits
when ``a`` or ``alpha`` is not 0; it then gets an *axis frame* ``<link>_axis`` at
``Rz(theta) Tz(d)`` (moving joint, axis +-z) with the link frame fixed on it at
``Tx(a) Rx(alpha)``. The node publishes the axis frames on TF too, as children of the link's
parent frame, so that RViz finds a transform for every URDF link.

What the URDF holds, in SI units:

- ``<limit>`` from ``qlim`` (a revolute joint without one is ``continuous``; a prismatic one
  gets +-1000 m), with ``effort_limit`` and ``velocity_limit``, or DEFAULT_EFFORT and
  DEFAULT_VELOCITY where they are not known; ``<safety_controller>`` from ``soft_limits``,
  ``k_position`` and ``k_velocity`` (acceleration and jerk limits have no place in URDF);
- ``<inertial>`` from ``m``, ``r`` and ``I`` on the link frame, where the toolbox defines them,
  and the payload's (:mod:`core.dynamics.payload`) on the tool frame;
- ``<dynamics>``: ``damping = B G^2`` and ``friction = |G| (Tc+ - Tc-) / 2``, link side. URDF
  has no asymmetric Coulomb friction (the mean is written) and no motor inertia (left out);
- ``<visual>`` and ``<collision>``: a cylinder along each joint axis and one along each
  link's ``a`` and ``d``, sized from the arm's reach (:mod:`core.bodies`); where a link has
  ``collision`` capsules, each capsule instead: a cylinder between its ends and a sphere on
  each end, the capsule's exact shape.

Link names are the TF frame names: ``prefix`` is put before every name but the world frame's,
as the node does with ``frame_prefix``.
"""

import re

from dh_kinematics.core import bodies, bounds, files, names
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.escaping import xacro_attribute, xml_attribute
from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.kinematics.dh_transforms import dh_transforms, fixed_transforms
from dh_kinematics.core.rotations import matrix_to_rpy, z_along
from dh_kinematics.core.urdf import ros2_control
import numpy as np

DEFAULT_EFFORT = 1000.0
"""The URDF effort limit (N m or N) of a joint whose ``effort_limit`` is not known."""
DEFAULT_VELOCITY = 1.0
"""The URDF velocity limit (rad/s or m/s) of a joint whose ``velocity_limit`` is not known."""


def _number(value):
    return repr(float(value))


def _origin(T):
    xyz = ' '.join(_number(v) for v in T[:3, 3])
    rpy = ' '.join(_number(v) for v in matrix_to_rpy(T[:3, :3]))
    return f'<origin xyz="{xyz}" rpy="{rpy}"/>'


def _cylinder(radius, start, end):
    """Return a cylinder from ``start`` to ``end`` (on one axis of the frame), or ''."""
    start, end = np.asarray(start, float), np.asarray(end, float)
    length = float(np.linalg.norm(end - start))
    if length < 1e-9:
        return ''
    T = np.eye(4)
    T[:3, 3] = (start + end) / 2.0
    if abs(end[2] - start[2]) < length * (1.0 - 1e-12):  # along x: turn z onto x
        T[:3, :3] = [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]
    geometry = (f'{_origin(T)}<geometry><cylinder radius="{_number(radius)}" '
                f'length="{_number(length)}"/></geometry>')
    return f'<visual>{geometry}</visual><collision>{geometry}</collision>'


def _capsule(start, end, radius):
    """Return a capsule from ``start`` to ``end`` (anywhere in the frame): cylinder, 2 spheres."""
    start, end = np.asarray(start, float), np.asarray(end, float)
    axis, parts = end - start, []
    length = float(np.linalg.norm(axis))
    if length >= 1e-9:
        T = np.eye(4)
        T[:3, 3], T[:3, :3] = (start + end) / 2.0, z_along(axis)
        parts.append(f'{_origin(T)}<geometry><cylinder radius="{_number(radius)}" '
                     f'length="{_number(length)}"/></geometry>')
    for centre in (start, end)[:1 + (length >= 1e-9)]:
        T = np.eye(4)
        T[:3, 3] = centre
        parts.append(f'{_origin(T)}<geometry><sphere radius="{_number(radius)}"/></geometry>')
    return ''.join(f'<visual>{part}</visual><collision>{part}</collision>' for part in parts)


def _inertial(m, r, I):  # noqa: E741
    if m == 0.0 and not I.any():
        return ''
    xyz = ' '.join(_number(v) for v in r)
    return (f'<inertial><origin xyz="{xyz}" rpy="0.0 0.0 0.0"/>'
            f'<mass value="{_number(m)}"/><inertia ixx="{_number(I[0, 0])}" '
            f'ixy="{_number(I[0, 1])}" ixz="{_number(I[0, 2])}" iyy="{_number(I[1, 1])}" '
            f'iyz="{_number(I[1, 2])}" izz="{_number(I[2, 2])}"/></inertial>')


def _limit(link):
    effort = DEFAULT_EFFORT if link.effort_limit is None else link.effort_limit
    velocity = DEFAULT_VELOCITY if link.velocity_limit is None else link.velocity_limit
    if link.qlim is not None:
        lower, upper = link.qlim
    elif link.isprismatic():
        lower, upper = -bounds.LENGTH_MAX, bounds.LENGTH_MAX
    else:
        return 'continuous', f'<limit effort="{_number(effort)}" velocity="{_number(velocity)}"/>'
    lower, upper = max(lower, -bounds.LIMIT_MAX), min(upper, bounds.LIMIT_MAX)
    return link.joint, (f'<limit lower="{_number(lower)}" upper="{_number(upper)}" '
                        f'effort="{_number(effort)}" velocity="{_number(velocity)}"/>')


def _moving_joint(name, link, parent, child, origin):
    kind, limit = _limit(link)
    gain = abs(link.G)
    friction = gain * (link.Tc[0] - link.Tc[1]) / 2.0
    return (f'<joint name={xml_attribute(name)} type="{kind}">'
            f'<parent link={xml_attribute(parent)}/><child link={xml_attribute(child)}/>'
            f'{_origin(origin)}'
            f'<axis xyz="0.0 0.0 {"-1.0" if link.flip else "1.0"}"/>{limit}'
            f'<dynamics damping="{_number(link.B * gain ** 2)}" friction="{_number(friction)}"/>'
            f'{_safety_controller(link)}</joint>')


def _safety_controller(link):
    """Return the ``<safety_controller>`` of a joint with soft limits, else ''."""
    if link.soft_limits is None:
        return ''
    lower, upper = link.soft_limits
    return (f'<safety_controller soft_lower_limit="{_number(lower)}" '
            f'soft_upper_limit="{_number(upper)}" k_position="{_number(link.k_position)}" '
            f'k_velocity="{_number(link.k_velocity)}"/>')


def _fixed_joint(parent, child, origin):
    return (f'<joint name={xml_attribute(names.fixed_joint_name(parent, child))} type="fixed">'
            f'<parent link={xml_attribute(parent)}/><child link={xml_attribute(child)}/>'
            f'{_origin(origin)}</joint>')


def _mesh(value, xacro):
    """Return the ``<visual>`` and ``<collision>`` of a :data:`core.meshes.Mesh`."""
    origin, scale = _origin(value.T_frame_mesh), ' '.join(_number(v) for v in value.scale)
    attribute = xacro_attribute if xacro else xml_attribute  # xacro runs $(...) and ${...}
    return ''.join(f'<{kind}>{origin}<geometry><mesh filename={attribute(uri)} '
                   f'scale="{scale}"/></geometry></{kind}>'
                   for kind, uri in (('visual', value.visual), ('collision', value.collision))
                   if uri)


def macro_name(chain):
    """Return the xacro macro's name for ``chain``: its name made an XML name, or 'arm'."""
    name = re.sub(r'[^A-Za-z0-9_]', '_', chain.name) or 'arm'
    return name if name[0].isalpha() or name[0] == '_' else f'arm_{name}'


def to_urdf(chain, prefix='', path=None, xacro=False, control=None):
    """
    Return the URDF of ``chain`` (text), or a xacro macro of it; see the module docstring.

    Parameters
    ----------
    chain : Chain
        The model.
    prefix : str
        Put before every link name but the world frame's (the node's ``frame_prefix``).
    path : str or path-like, optional
        Also write the text to this file.
    xacro : bool
        Write a xacro macro ``<xacro:NAME prefix="..." parent="..."/>`` (NAME:
        :func:`macro_name`) instead: every link and joint name takes ``${prefix}``, and the
        world frame is the ``parent`` link, which the macro does not define.
    control : ros2_control.Hardware, optional
        Add a ``<ros2_control>`` block for this hardware (:mod:`core.urdf.ros2_control`).

    Raises
    ------
    InvalidFieldError
        For a prefix that breaks the rule for names or makes two names alike
        (:mod:`core.names`), or a prefix given with ``xacro`` (the macro takes its own).

    """
    if xacro:
        if prefix:
            raise InvalidFieldError('prefix', prefix, 'must be empty for a xacro macro, which '
                                    'takes its prefix as a parameter')
        prefix, world, joint_prefix = '${prefix}', '${parent}', '${prefix}'
    else:
        world, joint_prefix = chain.world_frame, ''
        names.check_prefixed(chain, prefix)
    frames = (world,) + names.frame_names(chain, prefix)[1:]
    axes = names.axis_frame_names(chain, prefix)

    def published(frame):  # a frame of the chain by its own name, as published
        return world if frame == chain.world_frame else prefix + frame

    # The joint origins are the transforms at q = 0: Tx(a) Rx(alpha) Rz(theta) Tz(d) for a
    # modified DH link; for a standard one its Rz(theta) Tz(d), then Tx(a) Rx(alpha) fixed.
    table = DHTable(chain.links)
    theta, d = table.values(np.zeros((1, chain.n)))
    origins = dh_transforms(theta, d, table.fixed if chain.mdh else fixed_transforms(
        np.zeros(chain.n), np.zeros(chain.n)), chain.mdh)[0]
    geometry = {name: [] for name in frames + tuple(axis for axis in axes if axis)}
    geometry.update({prefix + frame.name: [] for frame in chain.frames})
    joints = [_fixed_joint(frames[0], frames[1], chain.base)]
    for j, (link, joint) in enumerate(zip(chain.links, chain.joint_names)):
        parent, child = frames[1 + j], frames[2 + j]
        joint = joint_prefix + joint
        if link.mdh:
            joints.append(_moving_joint(joint, link, parent, child, origins[j]))
        else:
            moving = axes[j] or child
            joints.append(_moving_joint(joint, link, parent, moving, origins[j]))
            if axes[j]:
                joints.append(_fixed_joint(moving, child, table.fixed[j]))
    for j, link in enumerate(chain.links):  # capsules of the link's own
        for capsule in () if link.collision is None else link.collision:
            geometry[frames[2 + j]].append(_capsule(capsule[:3], capsule[3:6], capsule[6]))
    for rod in bodies.segments(chain):  # each in the frame it is drawn in
        if rod.joint >= 0 and chain.links[rod.joint].collision is not None:
            continue  # in place of the default body
        frame = axes[rod.joint] if rod.axis_frame else None
        geometry[frame or frames[2 + rod.joint]].append(_cylinder(rod.radius, rod.start,
                                                                  rod.end))
    joints.append(_fixed_joint(frames[-2], frames[-1], chain.tool))
    joints += [_fixed_joint(published(frame.parent), prefix + frame.name, frame.T_parent_frame)
               for frame in chain.frames]
    rigid = dict(zip(frames[2:-1], axes))  # a link frame's axis frame moves with it
    for frame, value in chain.meshes.items():  # in place of the cylinders of that body
        name = prefix + frame
        geometry[name] = [_mesh(value, xacro)]
        if rigid.get(name):
            geometry[rigid[name]] = []
    inertial = {frames[2 + j]: _inertial(link.m, link.r, link.I)
                for j, link in enumerate(chain.links)}
    inertial[frames[-1]] = _inertial(*chain.payload)
    links = [f'<link name={xml_attribute(name)}>{inertial.get(name, "")}{"".join(parts)}'
             '</link>'
             for name, parts in geometry.items() if not (xacro and name == world)]
    robot = xml_attribute(chain.name or 'arm')
    if control is not None:
        joints.append(ros2_control.block(chain, control, joint_prefix))
    body = '\n  '.join(links + joints)
    if xacro:
        text = ('<?xml version="1.0"?>\n<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                f'<xacro:macro name="{macro_name(chain)}" params="prefix parent">\n  {body}\n'
                '</xacro:macro>\n</robot>\n')
    else:
        text = f'<?xml version="1.0"?>\n<robot name={robot}>\n  {body}\n</robot>\n'
    if path is not None:
        files.write_text(path, text)
    return text
