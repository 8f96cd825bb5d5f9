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

"""What inverse kinematics found for one target, whichever way it found it."""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class IKResult:
    """
    What :meth:`Chain.ikine` found for one target.

    Attributes
    ----------
    q : array, shape (n,)
        The solution nearest ``q0`` (Euclidean, rad and m); without one, the closest pose
        the search reached.
    success : bool
        True when ``q`` reaches the target within the tolerance and the limits.
    position_error : float
        Distance of ``q``'s tool position from the target's, m (masked components).
    orientation_error : float
        Angle of the rotation between ``q``'s tool orientation and the target's, rad (masked
        components of its rotation vector).
    iterations : int
        Iterations of the numerical search, over every start and every polish (in a batch
        of targets, also the later starts run beside an earlier one that then converged).
    solutions : array, shape (k, n)
        Every distinct solution found, nearest ``q0`` first; k = 0 on failure.
    method : str
        ``'analytic'`` or ``'numerical'``: where the solutions came from.
    note : str
        Which closed form, or why none applies; why the target failed.

    """

    q: np.ndarray
    success: bool
    position_error: float
    orientation_error: float
    iterations: int
    solutions: np.ndarray
    method: str
    note: str
