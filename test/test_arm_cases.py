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

"""The random arms' cases: one per feature by name, the others in one case naming each failure."""

from helpers import arm_features, CHAINS, FEATURES, for_each_arm
import pytest


def _cases(test):
    """Return the (id, values) of the cases ``for_each_arm`` gave ``test``."""
    mark, = [mark for mark in test.pytestmark if mark.name == 'parametrize']
    return [(case.id, case.values) for case in mark.args[1]]


def test_every_arm_runs_once_and_every_feature_has_a_case_of_its_own():
    seen = []

    def record(name, chain):
        seen.append(name)

    test = for_each_arm(CHAINS)(record)
    cases = _cases(test)
    for _, values in cases:
        test(*values)
    assert sorted(seen) == sorted(name for name, _ in CHAINS)  # each arm once
    named = dict(CHAINS)
    for feature in FEATURES:
        assert any(feature in arm_features(named[values[0]]) for case, values in cases[:-1]
                   if case.startswith(('random', 'hayati'))), feature
    assert cases[-1][0] == f'{len(CHAINS) - len(cases) + 1}-other-random-arms'


def test_the_loop_names_every_arm_that_fails_with_its_index(tmp_path):
    broken = {'random40', 'hayati7'}

    def check(name, chain, tmp_path):
        assert tmp_path.name == name and not any(tmp_path.iterdir())  # a folder of its own
        (tmp_path / 'x').write_text(name)
        assert name not in broken, f'{name} broke'

    test = for_each_arm(CHAINS)(check)
    cases = _cases(test)
    with pytest.raises(AssertionError) as error:
        test(*cases[-1][1], tmp_path=tmp_path)
    index = {name: k for k, (name, _) in enumerate(CHAINS)}
    message = str(error.value)
    assert message.startswith(f'2 of {len(CHAINS) - len(cases) + 1} random arms failed: ')
    for name in broken:
        assert f'(index {index[name]})' in message and f'{name}-' in message
    assert 'random40 broke' in str(error.value.__cause__)
