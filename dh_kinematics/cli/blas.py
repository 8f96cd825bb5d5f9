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
The BLAS threads of the executables: one each, unless the user's environment says otherwise.

numpy's and scipy's OpenBLAS start a thread per core for a large product or fit, and on a busy
machine those threads wait on each other's cores: ``identify`` of one simulated Stanford arm
took 459 s with both cores of a 2-core machine loaded by other processes, and 74 s with one
thread (``with-load``, 2026-11-29; 41 s against 557 s on an earlier run). A robot's computer is
busy by its nature. The variables are read when numpy loads, so :func:`bound` runs before: in
the executables' entry points (:mod:`cli.entry`, :mod:`ros.entry`) and the tests' conftest.
A variable the user set is kept (``OPENBLAS_NUM_THREADS=4 dh_kinematics identify ...``).

Only the standard library is imported here.
"""

import os

__all__ = ['bound', 'VARIABLES']

VARIABLES = ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'BLIS_NUM_THREADS')
"""The thread counts OpenBLAS, OpenMP, MKL and BLIS read when they load."""


def bound(environ=None, threads=1):
    """Set each of :data:`VARIABLES` the environment does not set to ``threads``."""
    environ = os.environ if environ is None else environ
    for name in VARIABLES:
        environ.setdefault(name, str(threads))
