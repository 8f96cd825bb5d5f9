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
Which links of a URDF collide over sampled configurations: pinocchio's collision support.

The collision geometry is the URDF's own (cylinders, or meshes resolved from ``package://``
through ``AMENT_PREFIX_PATH``), loaded by pinocchio (coal). Every pair of geometries on two
different links is checked, links fixed to each other included, at each configuration. The
only module that imports pinocchio (optional: ``pip install pin``, or
``ros-$ROS_DISTRO-pinocchio``).
"""

import itertools
import math
import os
import pathlib


class NoCollisionEngine(ValueError):
    """pinocchio, which samples the collisions, is not installed."""


def _pinocchio():
    try:
        import pinocchio
    except ImportError:
        raise NoCollisionEngine(
            'the collision pairs are sampled with pinocchio, which is not installed (pip '
            'install pin, or apt install ros-$ROS_DISTRO-pinocchio); --samples 0 disables '
            'only the adjacent pairs') from None
    return pinocchio


def _package_dirs():
    """Return the share folders of AMENT_PREFIX_PATH, where package:// URIs are looked up."""
    prefixes = [prefix for prefix in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep)
                if prefix]
    return [str(pathlib.Path(prefix) / 'share') for prefix in prefixes]


def collision_counts(urdf_text, joint_names, configurations):
    """
    Count, for each pair of links with collision geometry, the configurations it collides in.

    Parameters
    ----------
    urdf_text : str
        The URDF.
    joint_names : sequence of str
        The moving joints, in the order of the configurations' columns.
    configurations : array-like, shape (m, n)
        rad or m.

    Returns
    -------
    counts : dict of frozenset to int
        Every pair of links with geometry, and in how many configurations they collide.

    Raises
    ------
    NoCollisionEngine
        Without pinocchio.
    ValueError
        When pinocchio cannot load the URDF or a mesh of it.

    """
    pin = _pinocchio()
    try:
        model = pin.buildModelFromXML(urdf_text)
        geometry = pin.buildGeomFromUrdfString(model, urdf_text, pin.GeometryType.COLLISION,
                                               package_dirs=_package_dirs())
    except (RuntimeError, ValueError) as error:
        raise ValueError(f'pinocchio cannot load the URDF or its meshes: {error}') from None
    link = [model.frames[item.parentFrame].name for item in geometry.geometryObjects]
    pairs = {}
    for i, j in itertools.combinations(range(len(link)), 2):
        if link[i] != link[j]:
            geometry.addCollisionPair(pin.CollisionPair(i, j))
            pairs.setdefault(frozenset((link[i], link[j])), []).append(
                len(geometry.collisionPairs) - 1)
    data, geometry_data = model.createData(), pin.GeometryData(geometry)
    joints = [model.joints[model.getJointId(name)] for name in joint_names]
    counts = dict.fromkeys(pairs, 0)
    for q in configurations:
        q_pin = pin.neutral(model)
        for joint, value in zip(joints, q):
            if joint.nq == 2:  # continuous: cos, sin
                q_pin[joint.idx_q:joint.idx_q + 2] = math.cos(value), math.sin(value)
            else:
                q_pin[joint.idx_q] = value
        pin.computeCollisions(model, data, geometry, geometry_data, q_pin, False)
        results = geometry_data.collisionResults
        for pair, indices in pairs.items():
            if any(results[k].isCollision() for k in indices):
                counts[pair] += 1
    return counts
