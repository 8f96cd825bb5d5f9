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
A payload's mass, centre of mass and inertia from logs, with the arm's own model held fixed.

The torques a payload adds are linear in its 10 parameters as a body of the last link
(:mod:`core.dynamics.regressor`: ``m``, ``m c`` and the inertia about the last link frame's
origin). They are fitted to what the logs' torques hold beyond the arm's model without a
payload, by least squares with a weak pull (:data:`PULL`) towards ``MASS_GUESS`` kg at the tool
frame's origin with no inertia (what holds the parameters the motion cannot tell apart). The
inertia is reported only where the motion excites every one of its six columns (the base
parameters of the payload's columns are its ten parameters themselves) and is one a rigid body
can have; otherwise it stays 0, as the mass's centre is all the motion can tell.
"""

from dataclasses import dataclass

from dh_kinematics.core import bounds
from dh_kinematics.core.dynamics import regressor
from dh_kinematics.identification.fit import errors
from dh_kinematics.identification.signals import prepare
import numpy as np

PULL = 1e-6
"""The pull towards the guess, relative to the largest squared column norm of the fit."""


@dataclass(frozen=True)
class PayloadFit:
    """
    What :func:`identify_payload` found.

    Attributes
    ----------
    mass : float
        kg.
    com : array, shape (3,)
        The centre of mass in the tool frame, m.
    inertia : array, shape (3, 3)
        The inertia about the centre of mass, tool-frame axes, kg m^2 (0 where not excited).
    inertia_identified : bool
        Whether the motion told the inertia's six parameters apart.
    std : array, shape (10,)
        The standard deviation of each of the ten parameters (``m``, ``m c``, ``I_o``).
    before, after : Errors
        The torques predicted by the arm alone and with the payload.
    cutoff : float
        The filter's cut-off, Hz.
    unphysical : str
        Why the inertia found is no rigid body's (:func:`core.bounds.inertia_problem`), where
        it was told apart but is not kept ('' otherwise).

    """

    mass: float
    com: np.ndarray
    inertia: np.ndarray
    inertia_identified: bool
    std: np.ndarray
    before: object
    after: object
    cutoff: float
    unphysical: str = ''


def identify_payload(chain, logs, mass_guess, cutoff=None):
    """
    Identify a payload at ``chain``'s tool from joint logs with efforts.

    Parameters
    ----------
    chain : Chain
        The arm's model, held fixed; a payload it carries is left out and found again.
    logs : sequence of JointLog
        In the model's joint order (:func:`logs.for_model`), with efforts.
    mass_guess : float
        The payload's mass as guessed, kg (> 0).
    cutoff : float, optional
        The low-pass filter's cut-off, Hz.

    Returns
    -------
    PayloadFit

    Raises
    ------
    ValueError
        A guess that is not a positive mass; a log that cannot tell the mass and centre of mass
        apart (say which joints to move).

    """
    if not (np.isfinite(mass_guess) and mass_guess > 0.0):
        raise ValueError(f'--payload: {mass_guess!r} must be a positive mass, kg')
    arm = chain.replace(payload=None)
    prepared = [prepare(log, cutoff) for log in logs]
    q, qd, qdd, tau = (np.concatenate([getattr(p, field) for p in prepared])
                       for field in ('q', 'qd', 'qdd', 'tau'))
    dyn = arm.dynamic_constants
    last = len(regressor.PARAMETERS) * (arm.n - 1)
    Y = regressor.regressor(dyn, q, qd, qdd)[:, :, last:last + regressor.RIGID]
    alone = arm.rne(q, qd, qdd)
    rest = tau - alone
    A = Y.reshape(-1, regressor.RIGID)
    base = regressor.base_parameters(A, regressor.PARAMETERS[:regressor.RIGID])
    if not {0, 1, 2, 3} <= set(base.columns):
        raise ValueError("the logs cannot tell the payload's mass and centre of mass apart: "
                         'turn the last joints through more of their range')
    T_last_tool = arm.tool
    guess = regressor.rigid_parameters(mass_guess, T_last_tool[:3, 3], np.zeros((3, 3)))
    weight = PULL * np.max(np.sum(A * A, axis=0))
    lhs = A.T @ A + weight * np.eye(regressor.RIGID)
    pi = np.linalg.solve(lhs, A.T @ rest.ravel() + weight * guess)
    residual = A @ pi - rest.ravel()
    sigma2 = residual @ residual / max(len(residual) - regressor.RIGID, 1)
    std = np.sqrt(np.diag(np.linalg.inv(lhs)) * sigma2)
    mass, com_last, I_com = regressor.body_of(pi)
    identified = len(base.columns) == regressor.RIGID
    why = bounds.inertia_problem(I_com) if identified else ''
    if why:  # noise the motion could not beat: no rigid body's, so none is written
        identified = False
    R = T_last_tool[:3, :3]
    com = R.T @ (com_last - T_last_tool[:3, 3])
    inertia = R.T @ I_com @ R if identified else np.zeros((3, 3))
    with_payload = arm.with_payload(mass, com, inertia if identified else (0.0, 0.0, 0.0))
    return PayloadFit(mass, com, inertia, identified, std, errors(alone, tau),
                      errors(with_payload.rne(q, qd, qdd), tau), prepared[0].cutoff, why)
