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
Rigid-body inertials: move one into another frame, merge several into one body.

An :data:`Inertial` is what a DH link's ``m``, ``r`` and ``I`` hold, and what a URDF
``<inertial>`` holds once its rotation is applied: mass (kg), centre of mass (m, in some frame)
and the inertia about the centre of mass (kg m^2, in that frame's axes).
"""

from collections import namedtuple

import numpy as np

Inertial = namedtuple('Inertial', 'm c I')
Inertial.__doc__ = """Mass m (kg), centre of mass c, shape (3,), in m, and inertia I about it,
shape (3, 3), in kg m^2, both in one frame."""

NONE = Inertial(0.0, np.zeros(3), np.zeros((3, 3)))
"""No body: no mass, no inertia."""


def moved(inertial, T_new_old):
    """
    Return ``inertial``, given in frame ``old``, in frame ``new``.

    Parameters
    ----------
    inertial : Inertial
        In frame ``old``.
    T_new_old : array-like, shape (4, 4)
        Pose of ``old`` in ``new``.

    Returns
    -------
    inertial : Inertial
        The same body in frame ``new``: ``c' = R c + p``, ``I' = R I R^T``.

    """
    T = np.asarray(T_new_old, dtype=float)
    R = T[:3, :3]
    return Inertial(inertial.m, R @ inertial.c + T[:3, 3], R @ inertial.I @ R.T)


def merged(inertials):
    """
    Return one body of several rigidly joined ones, all given in one frame.

    The centre of mass is the mass-weighted mean; the inertia about it adds each body's
    own and its parallel-axis term ``m (|d|^2 E - d d^T)``, ``d`` its centre's offset. Bodies
    without mass add their inertia only; with no mass at all the centre is the frame's origin.

    Parameters
    ----------
    inertials : sequence of Inertial
        The bodies, each in the same frame.

    Returns
    -------
    inertial : Inertial

    """
    inertials = list(inertials)
    m = sum(body.m for body in inertials)
    if m == 0.0:
        return Inertial(0.0, np.zeros(3), sum((body.I for body in inertials), np.zeros((3, 3))))
    c = sum(body.m * body.c for body in inertials) / m
    I = np.zeros((3, 3))  # noqa: E741
    for body in inertials:
        d = body.c - c
        I += body.I + body.m * (d @ d * np.eye(3) - np.outer(d, d))
    return Inertial(m, c, (I + I.T) / 2.0)
