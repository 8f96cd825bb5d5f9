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
Configurations within a chain's joint limits: drawn uniformly, or spread deterministically.

A joint without limits ranges over +-pi rad (revolute) or +-1 m (prismatic).
"""

import math

import numpy as np


def ranges(chain):
    """Return the lower and upper end of each joint's range, rad or m: shapes (n,), (n,)."""
    span = np.where([link.isprismatic() for link in chain.links], 1.0, math.pi)
    lower, upper = np.asarray(chain.qlim, dtype=float).T
    return np.where(np.isfinite(lower), lower, -span), np.where(np.isfinite(upper), upper, span)


def uniform(chain, count, rng):
    """Return ``count`` configurations drawn uniformly within the ranges, shape (count, n)."""
    lower, upper = ranges(chain)
    return rng.uniform(lower, upper, (count, chain.n))


def spread(chain, count):
    """
    Return ``count`` configurations spread over the ranges with no random draw.

    A Kronecker sequence: the fractional parts of the multiples of the square roots of the
    first n primes, scaled to the ranges; shape (count, n).
    """
    lower, upper = ranges(chain)
    fractions = np.modf(np.outer(np.arange(1, count + 1), np.sqrt(_primes(chain.n))))[0]
    return lower + fractions * (upper - lower)


def _primes(count):
    """Return the first ``count`` primes."""
    primes, candidate = [], 2
    while len(primes) < count:
        if all(candidate % prime for prime in primes):
            primes.append(candidate)
        candidate += 1
    return np.array(primes, dtype=float)
