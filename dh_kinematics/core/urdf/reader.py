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
Read a URDF into its tree of links and joints, in SI units, refusing what is not a URDF.

Only what a DH model can use or must report is read: each joint's type, parent, child, origin,
axis, ``<limit>``, ``<safety_controller>``, ``<dynamics>`` and ``<mimic>``; each link's
``<inertial>``, the kinds of its ``<visual>`` and ``<collision>`` geometry, and its
``<collision>`` shapes (:data:`Shape`); sizes, scales and origins are checked (finite, sizes
not negative). Defaults are the
URDF specification's (origin at the identity, axis ``1 0 0``, no limits). A xacro file is
refused with the command that expands it.
"""

from collections import namedtuple
import xml.etree.ElementTree as ET

from dh_kinematics.core.bounds import LIMIT_MAX
from dh_kinematics.core.dynamics.inertials import Inertial, NONE
from dh_kinematics.core.rotations import xyz_rpy_to_transform
import numpy as np

JOINT_TYPES = ('revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar')
MOVING = ('revolute', 'continuous', 'prismatic')
"""The joint types a DH link holds."""
MAX_CHARS = 50 << 20
"""The largest URDF read, characters (a vendor's, with its meshes referenced, is < 1 MB)."""
_XACRO = 'http://www.ros.org/wiki/xacro'

Joint = namedtuple('Joint', 'name type parent child T_parent_joint axis limit safety dynamics '
                   'mimic')
Joint.__doc__ = """A URDF joint: ``T_parent_joint`` (4, 4) is its origin in the parent link (m);
``axis`` a unit vector, shape (3,), in the joint frame; ``limit`` a dict of the ``<limit>``
attributes given (lower, upper in rad or m, effort in N m or N, velocity in rad/s or m/s),
``safety`` likewise for ``<safety_controller>`` (or None), ``dynamics`` ``(damping, friction)``
(N m s/rad, N m), ``mimic`` the name of the joint it follows, or None."""

Link = namedtuple('Link', 'name inertial geometry collisions')
Link.__doc__ = """A URDF link: its :data:`core.dynamics.inertials.Inertial` in the link frame,
the kinds of geometry it has (``'mesh'``, ``'box'``...), for what an import reports, and its
collision :data:`Shape` s."""

Shape = namedtuple('Shape', 'kind T_link_shape size uri scale')
Shape.__doc__ = """A ``<collision>`` shape: its kind (``'box'``, ``'cylinder'``, ``'sphere'``,
``'capsule'``, ``'mesh'``), its origin in the link (4, 4), its sizes (m: a box's 3 sides; a
cylinder's or capsule's radius and length; a sphere's radius; None for a mesh), and a mesh's
URI and scale (3,) (None otherwise)."""

Tree = namedtuple('Tree', 'name links joints parent_joint child_joints')
Tree.__doc__ = """A URDF: the robot's name, links and joints by name, for each child link
the joint whose child it is, and for each link the joints whose parent it is (in file order)."""


def _numbers(element, attribute, count, where, default=None):
    """Return ``count`` floats from an attribute, ``default`` when it is absent."""
    text = None if element is None else element.get(attribute)
    if text is None:
        if default is None:
            raise ValueError(f'{where}: {attribute} is missing')
        return np.array(default, dtype=float)
    try:
        values = [float(value) for value in text.split()]
    except ValueError:
        values = []
    if len(values) != count or not all(-LIMIT_MAX <= value <= LIMIT_MAX for value in values):
        raise ValueError(f'{where}: {attribute}={text!r} must be {count} finite number'
                         f'{"s" if count > 1 else ""} within +-{LIMIT_MAX:g} (SI units)')
    return np.array(values)


def _number(element, attribute, where, default=None):
    return float(_numbers(element, attribute, 1, where, None if default is None
                          else [default])[0])


def _origin(element, where):
    origin = element.find('origin')
    return xyz_rpy_to_transform(_numbers(origin, 'xyz', 3, f'{where} origin', [0.0] * 3),
                                _numbers(origin, 'rpy', 3, f'{where} origin', [0.0] * 3))


def _inertial(link, where):
    inertial = link.find('inertial')
    if inertial is None:
        return NONE
    where = f'{where} inertial'
    T = _origin(inertial, where)
    m = _number(inertial.find('mass'), 'value', f'{where} mass')
    element = inertial.find('inertia')
    if element is None:
        raise ValueError(f'{where}: <inertia> is missing')
    xx, xy, xz, yy, yz, zz = (_number(element, key, f'{where} inertia')
                              for key in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'))
    if m < 0.0:
        raise ValueError(f'{where}: mass {m:g} kg is negative')
    I = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])  # noqa: E741
    R = T[:3, :3]
    return Inertial(m, T[:3, 3], R @ I @ R.T)


_SIZES = {'box': (('size', 3),), 'cylinder': (('radius', 1), ('length', 1)),
          'sphere': (('radius', 1),), 'capsule': (('radius', 1), ('length', 1))}
"""The sizes of each URDF shape (m): attribute and count; each finite and >= 0."""


def _geometry(link, where):
    """
    Return the kinds of a link's geometry and its collision :data:`Shape` s.

    Refuse a size, scale or origin not a number.
    """
    kinds, collisions = [], []
    for part in link.findall('visual') + link.findall('collision'):
        place = f'{where} {part.tag}'
        T = _origin(part, place)
        shape = part.find('geometry')
        for child in ([] if shape is None else shape):
            kinds.append(child.tag)
            size = []
            for attribute, count in _SIZES.get(child.tag, ()):
                sizes = _numbers(child, attribute, count, f'{place} {child.tag}')
                if (sizes < 0.0).any():
                    raise ValueError(f'{place} {child.tag}: {attribute}={child.get(attribute)!r}'
                                     ' must not be negative (m)')
                size += sizes.tolist()
            uri = scale = None
            if child.tag == 'mesh':
                scale = _numbers(child, 'scale', 3, f'{place} mesh', [1.0] * 3)
                uri = child.get('filename', '')
            if part.tag == 'collision':
                collisions.append(Shape(child.tag, T, tuple(size) if size else None, uri,
                                        scale))
    return tuple(sorted(set(kinds))), tuple(collisions)


def _attributes(element, keys, where):
    if element is None:
        return None
    return {key: _number(element, key, where) for key in keys if element.get(key) is not None}


def _joint(element):
    name = element.get('name')
    kind = element.get('type')
    where = f'joint {name!r}'
    if kind not in JOINT_TYPES:
        raise ValueError(f'{where}: type {kind!r} is not a URDF joint type '
                         f'({", ".join(JOINT_TYPES)})')
    ends = []
    for tag in ('parent', 'child'):
        end = element.find(tag)
        if end is None or not end.get('link'):
            raise ValueError(f'{where}: <{tag} link="..."/> is missing')
        ends.append(end.get('link'))
    axis = _numbers(element.find('axis'), 'xyz', 3, f'{where} axis', [1.0, 0.0, 0.0])
    if kind in MOVING or kind == 'planar':
        norm = np.linalg.norm(axis)
        if norm < 1e-9:
            raise ValueError(f'{where}: axis xyz={axis.tolist()} has no direction')
        axis = axis / norm
    limit = _attributes(element.find('limit'), ('lower', 'upper', 'effort', 'velocity'),
                        f'{where} limit')
    if kind in ('revolute', 'prismatic') and limit is None:
        raise ValueError(f'{where}: a {kind} joint needs <limit> (URDF requires it)')
    safety = _attributes(element.find('safety_controller'), (
        'soft_lower_limit', 'soft_upper_limit', 'k_position', 'k_velocity'),
        f'{where} safety_controller')
    dynamics = element.find('dynamics')
    mimic = element.find('mimic')
    return Joint(name, kind, ends[0], ends[1], _origin(element, where), axis, limit or {},
                 safety, (_number(dynamics, 'damping', f'{where} dynamics', 0.0),
                          _number(dynamics, 'friction', f'{where} dynamics', 0.0)),
                 None if mimic is None else mimic.get('joint'))


def parse(text):
    """
    Return the :data:`Tree` of a URDF document (text).

    Raises
    ------
    ValueError
        For text that is not XML, not a ``<robot>``, a xacro file, a link or joint without a
        name or named twice, a joint between unknown links, a link with two parents, a loop,
        or a number that is not one; each message names the element.

    """
    if len(text) > MAX_CHARS:
        raise ValueError(f'the URDF is larger than {MAX_CHARS >> 20} MB, which no robot needs')
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise ValueError(f'not a valid XML document: {error}') from None
    if root.tag != 'robot':
        raise ValueError(f'not a URDF: the root element is <{root.tag}>, not <robot>')
    if any(element.tag.startswith('{' + _XACRO) for element in root.iter()):
        raise ValueError('this is a xacro file, not a URDF: expand it first with '
                         '`xacro FILE.urdf.xacro > FILE.urdf`')
    links, joints, parent_joint = {}, {}, {}
    for element in root.findall('link'):
        name = element.get('name')
        if not name or name in links:
            raise ValueError(f'link {name!r}: {"named twice" if name else "has no name"}')
        links[name] = Link(name, _inertial(element, f'link {name!r}'),
                           *_geometry(element, f'link {name!r}'))
    for element in root.findall('joint'):
        joint = _joint(element)
        if not joint.name or joint.name in joints:
            raise ValueError(f'joint {joint.name!r}: '
                             f'{"named twice" if joint.name else "has no name"}')
        for end in (joint.parent, joint.child):
            if end not in links:
                raise ValueError(f'joint {joint.name!r}: link {end!r} is not defined')
        if joint.child in parent_joint:
            raise ValueError(f'link {joint.child!r} is the child of two joints, '
                             f'{parent_joint[joint.child]!r} and {joint.name!r}')
        joints[joint.name] = joint
        parent_joint[joint.child] = joint.name
    for joint in joints.values():
        if joint.mimic is not None and joint.mimic not in joints:
            raise ValueError(f'joint {joint.name!r}: mimics {joint.mimic!r}, which is not a '
                             'joint')
    child_joints = {name: [] for name in links}
    for joint in joints.values():
        child_joints[joint.parent].append(joint.name)
    tree = Tree(root.get('name', ''), links, joints, parent_joint, child_joints)
    _check_tree(tree)
    return tree


def _walk_up(tree, link, stop=frozenset()):
    """
    Return the joints from ``link`` up to the root (names), and the links walked from.

    The walk ends early at a link in ``stop``. A loop is refused.
    """
    joints, links, seen = [], [], {link}
    while link not in stop and link in tree.parent_joint:
        links.append(link)
        joint = tree.joints[tree.parent_joint[link]]
        joints.append(joint.name)
        link = joint.parent
        if link in seen:
            raise ValueError(f'the joints {sorted(joints)} form a loop; a URDF is a tree')
        seen.add(link)
    return joints, links


def _check_tree(tree):
    """Refuse a loop, in time linear in the number of links (each is walked up once)."""
    rooted = set()
    for link in tree.links:
        rooted.update(_walk_up(tree, link, rooted)[1])


def path_to_root(tree, link):
    """Return the joints from the root down to ``link``, in order (names)."""
    return _walk_up(tree, link)[0][::-1]


def children(tree, link):
    """Return the joints whose parent is ``link`` (names)."""
    return tree.child_joints[link]


def joint_motion(joint, q):
    """
    Return a joint's transform from its child link to its parent link at joint value ``q``.

    ``origin @ motion(q)``: a rotation of ``q`` rad about the axis (revolute, continuous), a
    translation of ``q`` m along it (prismatic); the origin alone for any other type. ``q`` is
    a number, or an array of shape (m,) for m values: then the transforms have shape
    (m, 4, 4).
    """
    q = np.asarray(q, dtype=float)
    origin = joint.T_parent_joint
    T = np.array(np.broadcast_to(origin, q.shape + (4, 4)))
    if joint.type in ('revolute', 'continuous'):
        x, y, z = joint.axis
        K = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
        s, c = np.sin(q)[..., None, None], np.cos(q)[..., None, None]
        T[..., :3, :3] = origin[:3, :3] @ (np.eye(3) + s * K + (1.0 - c) * (K @ K))
    elif joint.type == 'prismatic':
        T[..., :3, 3] = origin[:3, 3] + np.multiply.outer(q, origin[:3, :3] @ joint.axis)
    return T
