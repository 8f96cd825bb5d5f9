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
The generalised momentum of an arm and its rate, from Newton-Euler alone.

The momentum ``p = M(q) qd`` obeys (De Luca and Mattone 2003)

    dp/dt = tau + C(q, qd)^T qd - g(q) + friction(qd) + tau_ext

with ``M`` the joint-space inertia (the motors' ``G^2 Jm`` included), ``C`` the Coriolis matrix,
``g`` the gravity torques and ``friction`` the torque friction exerts (:meth:`Chain.friction`).
A momentum observer needs ``p`` and ``C^T qd - g`` at each sample. Both come from the one
Newton-Euler code (:func:`core.dynamics.rne.momenta`), compiled for the arm
(:func:`rne_unrolled.compile_momentum`): with ``qd`` in place of the accelerations of an arm at
rest, Newton-Euler's forces and moments are the links' momenta; summed from the tip and
projected on each joint's screw they give ``p``, projected on the screw's rate of change (the
axis carried along by its link's motion) they give ``C^T qd``, the derivative of the kinetic
energy in each joint value. No derivative is taken numerically. Tests check both against
pinocchio's ``crba`` and ``computeCoriolisMatrix`` on the shipped and random arms.

Units are SI: N m s or kg m/s for ``p``, N m or N for the rest.
"""

from dh_kinematics.core.dynamics import rne_unrolled

__all__ = ['Momentum']


class Momentum:
    """
    The momentum and its rate's model terms at one configuration, compiled for one arm.

    Parameters
    ----------
    dyn : Dynamics
        The arm's :attr:`Chain.dynamic_constants`.

    Examples
    --------
    >>> from dh_kinematics import Chain, Link
    >>> arm = Chain([Link(a=1.0, m=2.0, r=[-0.5, 0, 0]), Link(a=0.5, m=1.0, r=[-0.25, 0, 0])])
    >>> p, terms = Momentum(arm.dynamic_constants)([0.0, 0.0], [1.0, 0.0])
    >>> [round(value, 6) for value in p]  # kg m^2/s about each joint
    [2.0625, 0.3125]

    """

    def __init__(self, dyn):
        self._dyn = rne_unrolled.snap_twists(dyn)
        self._terms = rne_unrolled.compile_momentum(self._dyn)
        self._columns = None

    def __call__(self, q, qd):
        """
        Return ``(p, terms)``: ``M(q) qd`` and ``C(q, qd)^T qd - g(q)``, lists of n floats.

        ``q`` and ``qd`` are sequences of n finite floats (rad or m, per s).
        """
        return self._terms(q, qd)

    def columns(self, Q, QD):
        """
        Return ``(P, terms)`` at many configurations: arrays (m, n), each row :meth:`__call__`'s.

        ``Q`` and ``QD`` have shape (m, n); the same code runs on their columns, to the
        rounding of numpy's cos and sin against math's.
        """
        if self._columns is None:
            self._columns = rne_unrolled.compile_momentum(self._dyn, columns=True)
        return self._columns(Q, QD)
