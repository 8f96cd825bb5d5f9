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
The batched closed forms against the answers of the scalar ones they replaced.

``data/closed_forms.json`` holds what ``Chain.ikine`` answered at commit cdd31e5, before the
closed forms were written for arrays, on 200 random arms of ``helpers.closed_form_arm``
(spherical wrists and three parallel axes, standard and modified DH, prismatic joints,
offsets, flips, limits or none, base and tool): three targets from configurations within the
limits and one beyond reach, from a random ``q0``. Each target alone and the four as a batch
must give the same success, method and note, and the same solutions in the same order.
"""

import json

from helpers import closed_form_arm, DATA
import numpy as np
import pytest

CASES = json.loads((DATA / 'closed_forms.json').read_text())['cases']


def _arm(case):
    return closed_form_arm(np.random.default_rng(7000 + case['arm']), case['kind'],
                           case['convention'])


def _assert_same(result, expected):
    assert (result.success, result.method, result.note) == (
        expected['success'], expected['method'], expected['note'])
    if expected['success']:
        solutions = np.array(expected['solutions'])
        assert result.solutions.shape == solutions.shape
        np.testing.assert_allclose(result.solutions, solutions, rtol=0.0, atol=1e-9)
        np.testing.assert_allclose(result.q, expected['q'], rtol=0.0, atol=1e-9)
        assert max(result.position_error, result.orientation_error) <= 1e-10


@pytest.mark.parametrize('case', CASES, ids=[f'{c["kind"]}-{c["convention"]}-{c["arm"]}'
                                             for c in CASES])
def test_the_batched_closed_forms_answer_as_the_scalar_ones(case):
    chain = _arm(case)
    targets = np.array(case['targets'])
    # Beyond reach the search runs after the closed form; its starts change no answer here.
    for result, expected in zip(chain.ikine(targets, q0=case['q0'], restarts=2),
                                case['results']):
        _assert_same(result, expected)
    for target, expected in zip(targets, case['results']):
        _assert_same(chain.ikine(target, q0=case['q0'], restarts=2), expected)
