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
The speed at which the tool may meet a body region in a transient contact.

ISO/TS 15066:2016 Annex A (taken into ISO 10218-2:2025) models a transient contact as two
masses meeting through a spring: the body region's effective mass ``m_H`` and spring constant
``k``, the robot's effective mass ``m_R``. The contact force stays within the region's
permissible transient force ``F_T`` while the relative speed is at most

    v_max = F_T / sqrt(mu k),   mu = (1 / m_H + 1 / m_R)^-1.

The standard takes ``m_R = M / 2 + m_L`` from the robot's moving mass ``M`` and its payload
``m_L``; here it is the mass the arm reflects at the tool along the tool's present motion
``u`` (a unit vector, world frame),

    m_R = 1 / (u^T J_v M(q)^-1 J_v^T u)

from the joint-space inertia matrix ``M`` (:meth:`Chain.inertia`, the motors' ``G^2 Jm``
included) and the tool's linear Jacobian ``J_v``: what the body feels at the moment of contact.

:data:`BODY_REGIONS` holds the standard's figures: the quasi-static permissible force and the
spring constant of Table A.2, with the transient force twice the quasi-static one (its note),
and the effective masses of Table A.3. Transient contact with the skull, forehead and face is
not permitted: those regions are refused.
"""

from collections import namedtuple
import math

from dh_kinematics.core.checks import InvalidFieldError
import numpy as np

BodyRegion = namedtuple('BodyRegion', 'name force spring mass')
BodyRegion.__doc__ = """A body region of ISO/TS 15066 Annex A: its name, permissible transient
contact force F_T (N), effective spring constant k (N/m) and effective mass m_H (kg)."""


def _region(name, quasi_static_force, spring_n_per_mm, mass):
    return BodyRegion(name, 2.0 * quasi_static_force, 1000.0 * spring_n_per_mm, mass)


BODY_REGIONS = {region.name: region for region in (
    _region('neck', 150.0, 50.0, 1.2),
    _region('back_shoulders', 210.0, 35.0, 40.0),
    _region('chest', 140.0, 25.0, 40.0),
    _region('abdomen', 110.0, 10.0, 40.0),
    _region('pelvis', 180.0, 25.0, 40.0),
    _region('upper_arms_elbows', 150.0, 30.0, 3.0),
    _region('lower_arms_wrists', 160.0, 40.0, 2.0),
    _region('hands_fingers', 140.0, 75.0, 0.6),
    _region('thighs_knees', 220.0, 50.0, 75.0),
    _region('lower_legs', 130.0, 60.0, 75.0))}
"""ISO/TS 15066:2016 Tables A.2 and A.3, by region name, transient figures in SI units."""
NOT_PERMITTED = ('skull_forehead', 'face')
"""Regions the standard permits no transient contact with."""


def check_body_region(name, field='safety.contact.body_region'):
    """Return the :data:`BodyRegion` of ``name``; refuse a region without transient figures."""
    if name in NOT_PERMITTED:
        raise InvalidFieldError(field, name, 'ISO/TS 15066 permits no transient contact with '
                                'the skull, forehead or face: keep the arm away from the head')
    if name not in BODY_REGIONS:
        raise InvalidFieldError(field, name, f'must be one of {", ".join(BODY_REGIONS)}')
    return BODY_REGIONS[name]


def reflected_mass(M, J_v, direction, definite=False):
    """
    Return the mass the arm reflects at a point along a unit direction, kg.

    Parameters
    ----------
    M : array, shape (..., n, n)
        The joint-space inertia matrix (kg m^2, kg), symmetric, positive semi-definite.
    J_v : array, shape (..., 3, n)
        The point's linear Jacobian (m/s per unit joint rate) in the world.
    direction : array, shape (..., 3)
        A unit vector in the world.
    definite : bool
        Whether ``M`` is known to be positive definite (every joint moves some mass at every
        configuration): one linear solve then, else its eigenvectors.

    Returns
    -------
    m : float, or array of shape (...)
        ``1 / (u^T J_v M^-1 J_v^T u)``, a float for one matrix and an array for a stack of them
        (each one alone, as LAPACK solves each). Where ``M`` is singular (a joint that moves no
        mass, as a last joint whose point masses lie on its axis), its inverse is taken on the
        motions that do: 0 where the point moves along ``direction`` without moving any mass,
        inf where the arm cannot move it along ``direction`` at all.

    """
    M, J_v = np.asarray(M, dtype=float), np.asarray(J_v, dtype=float)
    row = (np.asarray(direction, dtype=float)[..., None, :] @ J_v)[..., 0, :]
    if definite:
        mobility = (row[..., None, :] @ np.linalg.solve(M, row[..., None]))[..., 0, 0]
    else:
        values, vectors = np.linalg.eigh(M)
        along = (row[..., None, :] @ vectors)[..., 0, :]
        moving = values > 1e-12 * np.maximum(values[..., -1:], 1e-300)
        mobility = (np.divide(along ** 2, values, out=np.zeros_like(values), where=moving)
                    .sum(axis=-1))
    still = not definite and (  # moving along ``direction`` with no mass
        np.abs(np.where(moving, 0.0, along)).max(axis=-1)
        > 1e-9 * np.maximum(np.abs(row).max(axis=-1), 1e-300))
    if np.ndim(mobility) == 0:  # one: in floats, 8 µs less than as arrays
        return 0.0 if still else 1.0 / float(mobility) if mobility > 0.0 else math.inf
    mass = np.divide(1.0, mobility, out=np.full(np.shape(mobility), math.inf),
                     where=mobility > 0.0)
    mass[still] = 0.0
    return mass


def always_definite(M):
    """
    Tell whether inertia matrices (k, n, n) are all positive definite beyond rounding.

    An arm's at spread configurations: whether :func:`reflected_mass` may take ``definite``.
    """
    values = np.linalg.eigvalsh(M)
    return bool((values[:, 0] > 1e-9 * values[:, -1]).all())


def permissible_speed(region, robot_mass):
    """
    Return the largest relative speed (m/s) of a transient contact within the region's force.

    ``robot_mass`` is the robot's effective mass, kg (inf: the body region's mass alone; 0:
    none, so any speed), a float or an array of them (NaN stays NaN).
    """
    with np.errstate(divide='ignore'):
        mu = 1.0 / (1.0 / region.mass + 1.0 / np.asarray(robot_mass, dtype=float))
        speed = region.force / np.sqrt(mu * region.spring)
    return float(speed) if speed.ndim == 0 else speed
