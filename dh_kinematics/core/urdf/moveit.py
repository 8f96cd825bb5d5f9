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
What MoveIt 2 needs beside the URDF: an SRDF, ``joint_limits.yaml`` and ``kinematics.yaml``.

- :func:`srdf`: one planning group, a chain from the base frame to the tool frame; the tool as
  end effector (a group of the tool link); each named configuration as a group state; and the
  collision pairs MoveIt may skip, as found by the caller (:func:`adjacent_pairs`, and the
  sampling of ``dh_kinematics moveit``).
- :func:`acceleration_limits`: per joint, the largest acceleration (rad/s^2 or m/s^2) it reaches
  from rest with its effort limit, against gravity, the other joints held still, in the worst
  of the sampled configurations: ``(effort - |g_j(q)|) / M_jj(q)``, M with the motors' reflected
  inertia ``G^2 Jm``.
- :func:`planning_limits`: what MoveIt plans with, per joint: a velocity and an acceleration
  limit always (MoveIt's time parameterization stops a plan at a joint without one, and has
  no defaults). The model's where it has them. Else the acceleration derived above, where the
  model has the joint's motor inertia: its motor dominates what the joint can do, and the
  value is clipped to :data:`ACCELERATION_CEILING`, 20 rad/s^2, the highest joint acceleration
  of Franka's datasheet for the Panda. Without the motor's inertia (an imported URDF, a DH
  table with no motor data) the rigid links alone give extremes (a wrist's tens of thousands
  of rad/s^2): then :data:`ACCELERATION_DEFAULT`, 5 rad/s^2, the low end of what vendors'
  MoveIt packages ship (Universal Robots' ur_moveit_config: 5 for every joint, "chosen
  conservatively to work in most use cases"; moveit_resources' Panda: 1.9 to 5), which arms of
  this kind follow. A velocity the model does not have is the URDF's placeholder
  (:data:`core.urdf.writer.DEFAULT_VELOCITY`). Each such value says so in a comment.
- :func:`joint_limits_yaml`: MoveIt's (and ros2_control's) ``joint_limits`` layout: position,
  velocity, acceleration, deceleration, jerk and effort limits.
- :func:`pilz_cartesian_limits_yaml`: the Cartesian limits the Pilz planner needs (and that
  ``moveit_configs_utils`` loads whenever the Pilz pipeline is there, as by default).
- :func:`kinematics_yaml`: the KDL solver for the group.

Names are the URDF's (:mod:`core.urdf.writer`), with the same prefix. Units: SI, rad.
"""

from collections import namedtuple
import math
import re
import xml.etree.ElementTree as ET

from dh_kinematics.core.escaping import xml_attribute, yaml_comment, yaml_scalar
from dh_kinematics.core.urdf import writer
import numpy as np

DEFAULT_GROUP = 'arm'
_GROUP = re.compile(r'[A-Za-z][A-Za-z0-9_]*', re.ASCII)
KDL = 'kdl_kinematics_plugin/KDLKinematicsPlugin'
ACCELERATION_DEFAULT = {'revolute': 5.0, 'prismatic': 1.0}
"""A joint's acceleration limit where the model cannot give one, rad/s^2 or m/s^2."""
ACCELERATION_CEILING = {'revolute': 20.0, 'prismatic': 5.0}
"""The largest acceleration limit written, rad/s^2 or m/s^2 (derived ones are clipped to it)."""
CARTESIAN_LIMITS = (('max_trans_vel', 0.25), ('max_trans_acc', 1.0), ('max_trans_dec', -1.0),
                    ('max_rot_vel', 0.5))
"""The Pilz planner's Cartesian limits written: m/s (ISO 10218-1's reduced speed), m/s^2 and
rad/s; raise them for a cell without people in it."""

Acceleration = namedtuple('Acceleration', 'value q')
Acceleration.__doc__ = """A derived acceleration limit: the value (rad/s^2 or m/s^2; 0 where the
effort cannot hold the joint against gravity, inf where nothing the model holds has inertia about
the joint) and the worst configuration, shape (n,)."""

Limit = namedtuple('Limit', 'value source note')
Limit.__doc__ = """A limit MoveIt plans with (rad/s, rad/s^2, m/s or m/s^2), where it comes from
('model', 'derived' or 'default') and, but for the model's own, a comment for the file."""


def acceleration_limits(chain, configurations):
    """
    Return, per joint, its :data:`Acceleration` over ``configurations``, or None.

    None where the joint has no ``effort_limit``. See the module docstring for the definition.

    Parameters
    ----------
    chain : Chain
        The model.
    configurations : array-like, shape (m, n)
        Where to look, rad or m (:meth:`Chain.random_q`).

    """
    q = np.asarray(configurations, dtype=float)
    M, g = chain.inertia(q), chain.gravload(q)
    limits = []
    for j, link in enumerate(chain.links):
        if link.effort_limit is None:
            limits.append(None)
            continue
        with np.errstate(divide='ignore'):  # no inertia about the joint: no bound (inf)
            reach = np.maximum(link.effort_limit - np.abs(g[:, j]), 0.0) / M[:, j, j]
        worst = int(np.argmin(reach))
        limits.append(Acceleration(float(reach[worst]), q[worst]))
    return limits


def adjacent_pairs(urdf_links, urdf_joints, with_geometry):
    """
    Return the pairs of geometry-bearing links that touch through the URDF's tree.

    Links without geometry are passed through (MoveIt Setup Assistant's rule): two links with
    geometry are adjacent when the path between them runs from one to the other through links
    without geometry only, parent to child.

    Parameters
    ----------
    urdf_links : iterable of str
        Every link.
    urdf_joints : iterable of (str, str)
        Every joint as (parent, child).
    with_geometry : collection of str
        The links with collision geometry.

    Returns
    -------
    pairs : set of frozenset

    """
    parent = {child: up for up, child in urdf_joints}
    pairs = set()
    for link in urdf_links:
        if link not in with_geometry:
            continue
        up = parent.get(link)
        while up is not None and up not in with_geometry:
            up = parent.get(up)
        if up is not None:
            pairs.add(frozenset((link, up)))
    return pairs


def check_group(group):
    """
    Return a planning group's name, or raise ValueError naming it.

    MoveIt reads ``kinematics.yaml`` as ROS parameters keyed by the group: a letter, then
    letters, digits or ``_``. ``tool`` is the end effector's own group.
    """
    if not isinstance(group, str) or not _GROUP.fullmatch(group) or group == 'tool':
        raise ValueError(f'group: {group!r} must be a letter, then letters, digits or _ (a ROS '
                         "parameter's name, in kinematics.yaml), and not 'tool' (the end "
                         "effector's group)")
    return group


def srdf(chain, states=None, disabled=(), group=DEFAULT_GROUP, prefix=''):
    """
    Return the SRDF of ``chain`` (text).

    Parameters
    ----------
    chain : Chain
        The model.
    states : dict of str to array-like, optional
        Named configurations (rad or m): a group state each.
    disabled : iterable of (str, str, str)
        Collision pairs to disable: two URDF link names and the reason (``Adjacent``,
        ``Never``, ``Always``).
    group : str
        The planning group's name.
    prefix : str
        The URDF's prefix (the node's ``frame_prefix``).

    """
    group = check_group(group)
    base, tool = prefix + chain.base_frame, prefix + chain.tool_frame
    lines = ['<?xml version="1.0"?>',
             f'<robot name={xml_attribute(chain.name or "arm")}>',
             f'  <group name={xml_attribute(group)}>',
             f'    <chain base_link={xml_attribute(base)} tip_link={xml_attribute(tool)}/>',
             '  </group>',
             '  <group name="tool">',
             f'    <link name={xml_attribute(tool)}/>',
             '  </group>']
    for name, q in (states or {}).items():
        lines.append(f'  <group_state name={xml_attribute(name)} group={xml_attribute(group)}>')
        lines += [f'    <joint name={xml_attribute(joint)} value="{float(value)!r}"/>'
                  for joint, value in zip(chain.joint_names, q)]
        lines.append('  </group_state>')
    lines.append(f'  <end_effector name="tool" parent_link={xml_attribute(tool)} group="tool" '
                 f'parent_group={xml_attribute(group)}/>')
    lines += [f'  <disable_collisions link1={xml_attribute(first)} link2={xml_attribute(second)} '
              f'reason={xml_attribute(reason)}/>' for first, second, reason in disabled]
    lines.append('</robot>')
    return '\n'.join(lines) + '\n'


def _yaml_number(value):
    return repr(float(value))


def planning_limits(link, derived):
    """
    Return a joint's velocity and acceleration :data:`Limit` for MoveIt; see the module.

    Parameters
    ----------
    link : Link
        The joint's link.
    derived : Acceleration or None
        From :func:`acceleration_limits`.

    """
    kind = link.joint
    if link.velocity_limit is not None:
        velocity = Limit(link.velocity_limit, 'model', '')
    else:
        velocity = Limit(writer.DEFAULT_VELOCITY, 'default', "not in the model: the URDF's "
                         'placeholder; set velocity_limit from the datasheet')
    if link.acceleration_limit is not None:
        return velocity, Limit(link.acceleration_limit, 'model', '')
    default, ceiling = ACCELERATION_DEFAULT[kind], ACCELERATION_CEILING[kind]
    if link.Jm * link.G ** 2 == 0.0:
        reason = 'no motor inertia in the model (the links alone give extremes)'
    elif derived is None:
        reason = 'no effort_limit in the model'
    elif derived.value <= 0.0:
        reason = 'the effort limit cannot hold the joint against gravity in some poses'
    elif derived.value > ceiling:
        return velocity, Limit(ceiling, 'derived',
                               f'derived {derived.value:.4g}, clipped to the ceiling')
    else:
        return velocity, Limit(derived.value, 'derived',
                               'derived from effort, gravity and inertia')
    return velocity, Limit(default, 'default', f'default: {reason}')


def joint_limits_yaml(chain, accelerations, samples, seed, source=''):
    """
    Return MoveIt's ``joint_limits.yaml`` for ``chain`` (text, with comments).

    Parameters
    ----------
    chain : Chain
        The model.
    accelerations : sequence of (Acceleration or None)
        From :func:`acceleration_limits`, per joint.
    samples, seed : int
        How the configurations were drawn, for the comment.
    source : str
        The model file's name, for the comment.

    """
    default, ceiling = ACCELERATION_DEFAULT, ACCELERATION_CEILING
    lines = [yaml_comment(f'MoveIt joint limits of {chain.name or "the arm"}, written by '
                          f'dh_kinematics moveit{" from " + source if source else ""}.'),
             '# Every joint has a velocity and an acceleration limit, which MoveIt needs to time',
             "# a plan. Each is the model's where it has one. Else an acceleration is derived",
             '# from the effort limit, gravity and the inertia with the motors (the joint from',
             f'# rest, the others held, the worst of {samples} configurations within the limits,',
             f'# seed {seed}), clipped to {ceiling["revolute"]:g} rad/s^2 or '
             f'{ceiling["prismatic"]:g} m/s^2; without the motors\' inertia',
             f'# the links alone give extremes, so it is {default["revolute"]:g} rad/s^2 or '
             f'{default["prismatic"]:g} m/s^2, the low end',
             "# of what vendors' MoveIt packages ship. A comment says which. Units: rad, m, s,",
             '# N m, N.',
             'default_velocity_scaling_factor: 0.1',
             'default_acceleration_scaling_factor: 0.1',
             'joint_limits:']
    for joint, link, derived in zip(chain.joint_names, chain.links, accelerations):
        lines.append(f'  {yaml_scalar(joint)}:')
        if link.qlim is not None and all(map(math.isfinite, link.qlim)):
            lines += ['    has_position_limits: true',
                      f'    min_position: {_yaml_number(link.qlim[0])}',
                      f'    max_position: {_yaml_number(link.qlim[1])}']
        else:
            lines.append('    has_position_limits: false')
        for kind, limit in zip(('velocity', 'acceleration'), planning_limits(link, derived)):
            note = f'  {yaml_comment(limit.note)}' if limit.note else ''
            lines += [f'    has_{kind}_limits: true',
                      f'    max_{kind}: {_yaml_number(limit.value)}{note}']
        for kind, value in (('deceleration', link.deceleration_limit),
                            ('jerk', link.jerk_limit), ('effort', link.effort_limit)):
            if value is not None:
                lines += [f'    has_{kind}_limits: true', f'    max_{kind}: {_yaml_number(value)}']
            elif kind == 'effort':
                lines.append('    has_effort_limits: false  # not in the model')
    return '\n'.join(lines) + '\n'


def pilz_cartesian_limits_yaml():
    """Return ``pilz_cartesian_limits.yaml``: :data:`CARTESIAN_LIMITS`, for the Pilz planner."""
    lines = ['# Cartesian limits of the Pilz industrial motion planner, written by dh_kinematics',
             "# moveit: ISO 10218-1's reduced speed for the tool (m/s), m/s^2 and rad/s. Raise",
             '# them for a cell without people in it.',
             'cartesian_limits:']
    lines += [f'  {key}: {_yaml_number(value)}' for key, value in CARTESIAN_LIMITS]
    return '\n'.join(lines) + '\n'


def kinematics_yaml(group=DEFAULT_GROUP):
    """Return ``kinematics.yaml``: the KDL solver for ``group``."""
    import yaml

    solver = {'kinematics_solver': KDL, 'kinematics_solver_search_resolution': 0.005,
              'kinematics_solver_timeout': 0.005}
    return yaml.safe_dump({check_group(group): solver}, sort_keys=False)


def file_stem(chain):
    """Return the name of the robot's URDF and SRDF files, without a folder: its name."""
    stem = re.sub(r'[^A-Za-z0-9_.-]', '_', chain.name or 'arm')
    return stem if stem.strip('.') else 'arm'


def collision_links(urdf_text):
    """Return (links, joints as (parent, child), links with collision geometry) of a URDF."""
    root = ET.fromstring(urdf_text)
    links = [link.get('name') for link in root.iter('link')]
    joints = [(joint.find('parent').get('link'), joint.find('child').get('link'))
              for joint in root.iter('joint')]
    geometry = {link.get('name') for link in root.iter('link')
                if link.find('collision') is not None}
    return links, joints, geometry
