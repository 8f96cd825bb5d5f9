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
  inertia. The URDF has no acceleration limits, and MoveIt falls back to slow defaults without.
- :func:`joint_limits_yaml`: MoveIt's (and ros2_control's) ``joint_limits`` layout: position,
  velocity, acceleration and effort limits, each where known, and saying which are missing.
- :func:`kinematics_yaml`: the KDL solver for the group.

Names are the URDF's (:mod:`core.urdf`), with the same prefix. Units: SI, rad.
"""

from collections import namedtuple
import math
import xml.etree.ElementTree as ET
from xml.sax.saxutils import quoteattr

import numpy as np

DEFAULT_GROUP = 'arm'
KDL = 'kdl_kinematics_plugin/KDLKinematicsPlugin'
Acceleration = namedtuple('Acceleration', 'value q')
Acceleration.__doc__ = """A derived acceleration limit: the value (rad/s^2 or m/s^2; 0 where the
effort cannot hold the joint against gravity, inf where nothing the model holds has inertia about
the joint) and the worst configuration, shape (n,)."""


def sample_configurations(chain, count, rng):
    """
    Return ``count`` configurations within the limits, uniformly drawn, shape (count, n).

    A joint without limits is drawn within +-pi (revolute) or +-1 m (prismatic).
    """
    spans = np.where([link.isprismatic() for link in chain.links], 1.0, math.pi)
    lower = np.where(np.isfinite(chain.qlim[:, 0]), chain.qlim[:, 0], -spans)
    upper = np.where(np.isfinite(chain.qlim[:, 1]), chain.qlim[:, 1], spans)
    return rng.uniform(lower, upper, (count, chain.n))


def acceleration_limits(chain, configurations):
    """
    Return, per joint, its :data:`Acceleration` over ``configurations``, or None.

    None where the joint has no ``effort_limit``. See the module docstring for the definition.

    Parameters
    ----------
    chain : Chain
        The model.
    configurations : array-like, shape (m, n)
        Where to look, rad or m (:func:`sample_configurations`).

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
    base, tool = prefix + chain.base_frame, prefix + chain.tool_frame
    lines = ['<?xml version="1.0"?>',
             f'<robot name={quoteattr(chain.name or "arm")}>',
             f'  <group name={quoteattr(group)}>',
             f'    <chain base_link={quoteattr(base)} tip_link={quoteattr(tool)}/>',
             '  </group>',
             '  <group name="tool">',
             f'    <link name={quoteattr(tool)}/>',
             '  </group>']
    for name, q in (states or {}).items():
        lines.append(f'  <group_state name={quoteattr(name)} group={quoteattr(group)}>')
        lines += [f'    <joint name={quoteattr(joint)} value="{float(value)!r}"/>'
                  for joint, value in zip(chain.joint_names, q)]
        lines.append('  </group_state>')
    lines.append(f'  <end_effector name="tool" parent_link={quoteattr(tool)} group="tool" '
                 f'parent_group={quoteattr(group)}/>')
    lines += [f'  <disable_collisions link1={quoteattr(first)} link2={quoteattr(second)} '
              f'reason={quoteattr(reason)}/>' for first, second, reason in disabled]
    lines.append('</robot>')
    return '\n'.join(lines) + '\n'


def _yaml_number(value):
    return repr(float(value))


def joint_limits_yaml(chain, accelerations, samples, seed, source=''):
    """
    Return MoveIt's ``joint_limits.yaml`` for ``chain`` (text, with comments).

    Parameters
    ----------
    chain : Chain
        The model; a joint's ``acceleration_limit``, where given, is written as it is.
    accelerations : sequence of (Acceleration or None)
        From :func:`acceleration_limits`, per joint.
    samples, seed : int
        How the configurations were drawn, for the comment.
    source : str
        The model file's name, for the comment.

    """
    lines = [f'# MoveIt joint limits of {chain.name or "the arm"}, written by dh_kinematics '
             f'moveit{" from " + source if source else ""}.',
             "# Positions, velocities and efforts: the model's. Accelerations: the model's",
             '# acceleration_limit where it has one; else derived from the effort limit and the',
             '# dynamics: the largest acceleration the joint reaches from rest, against gravity,',
             f'# the other joints held still, in the worst of {samples} configurations drawn',
             f'# within the limits (seed {seed}). Units: rad, m, s, N m, N.',
             'default_velocity_scaling_factor: 0.1',
             'default_acceleration_scaling_factor: 0.1',
             'joint_limits:']
    missing = {'velocity': [], 'acceleration': [], 'effort': []}
    for joint, link, derived in zip(chain.joint_names, chain.links, accelerations):
        lines.append(f'  {joint}:')
        if link.qlim is not None and all(map(math.isfinite, link.qlim)):
            lines += ['    has_position_limits: true',
                      f'    min_position: {_yaml_number(link.qlim[0])}',
                      f'    max_position: {_yaml_number(link.qlim[1])}']
        else:
            lines.append('    has_position_limits: false')
        for kind, value, note in (
                ('velocity', link.velocity_limit, ''),
                ('acceleration', _acceleration(link, derived), _acceleration_note(link, derived)),
                ('effort', link.effort_limit, '')):
            if value is None:
                lines.append(f'    has_{kind}_limits: false  # not in the model')
                missing[kind].append(joint)
            else:
                lines += [f'    has_{kind}_limits: true',
                          f'    max_{kind}: {_yaml_number(value)}{note}']
    gaps = [f'{kind}: {", ".join(joints)}' for kind, joints in missing.items() if joints]
    if gaps:
        lines.insert(6, '# Missing from the model, so MoveIt uses its defaults: '
                     + '; '.join(gaps) + '.')
    return '\n'.join(lines) + '\n'


def _acceleration(link, derived):
    """Return the acceleration limit to write: the model's, else the derived one if finite."""
    if link.acceleration_limit is not None:
        return link.acceleration_limit
    return derived.value if derived is not None and math.isfinite(derived.value) else None


def _acceleration_note(link, derived):
    if link.acceleration_limit is not None or derived is None:
        return ''
    if derived.value == 0.0:
        return '  # derived: the effort limit cannot hold this joint against gravity'
    return '  # derived from effort_limit and the dynamics'


def missing_accelerations(chain, accelerations):
    """Return the joints that get no acceleration limit: neither given nor derivable."""
    return [joint for joint, link, derived in zip(chain.joint_names, chain.links, accelerations)
            if _acceleration(link, derived) is None]


def kinematics_yaml(group=DEFAULT_GROUP):
    """Return ``kinematics.yaml``: the KDL solver for ``group``."""
    return (f'{group}:\n  kinematics_solver: {KDL}\n'
            '  kinematics_solver_search_resolution: 0.005\n'
            '  kinematics_solver_timeout: 0.005\n')


def collision_links(urdf_text):
    """Return (links, joints as (parent, child), links with collision geometry) of a URDF."""
    root = ET.fromstring(urdf_text)
    links = [link.get('name') for link in root.iter('link')]
    joints = [(joint.find('parent').get('link'), joint.find('child').get('link'))
              for joint in root.iter('joint')]
    geometry = {link.get('name') for link in root.iter('link')
                if link.find('collision') is not None}
    return links, joints, geometry
