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

"""The Examples in the public API's docstrings run, and print what they say."""

import doctest
import importlib

import dh_kinematics
from helpers import PACKAGE
import pytest

# Where the docs send users first: each of these carries a doctested Examples section.
DOCUMENTED = {
    'dh_kinematics.core.chain': ('Chain.fkine', 'Chain.jacob0', 'Chain.rne', 'Chain.ikine'),
    'dh_kinematics.core.calibration.fit': ('calibrate',),
    'dh_kinematics.core.dynamics.momentum': ('Momentum',),
    'dh_kinematics.core.safety.capsules': ('closest_points',),
    'dh_kinematics.core.safety.near_pairs': ('near_pairs',),
    'dh_kinematics.core.urdf.enclosing': ('enclosing',),
    'dh_kinematics.core.urdf_import': ('from_urdf',),
}


@pytest.mark.parametrize('module', sorted(DOCUMENTED))
def test_the_examples_run_as_written(module):
    tests = {test.name[len(module) + 1:]: test
             for test in doctest.DocTestFinder().find(importlib.import_module(module))
             if test.examples}
    assert set(DOCUMENTED[module]) <= set(tests), sorted(tests)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for name in DOCUMENTED[module]:
        runner.run(tests[name])
    assert runner.summarize(verbose=False).failed == 0


def test_the_package_exports_what_the_docs_use():
    for name in dh_kinematics.__all__:
        assert getattr(dh_kinematics, name).__name__ in (name, 'read'), name
    for name in ('IKResult', 'calibrate', 'Calibration', 'from_urdf', 'URDFImport',
                 'Measurements'):
        assert name in dh_kinematics.__all__


def test_the_api_page_summarises_every_export():
    # doc/api.md: a `currentmodule` and an autosummary of its __all__, for every package that
    # exports anything.
    text = (PACKAGE / 'doc' / 'api.md').read_text()
    listed = {}
    for block in text.split('.. currentmodule:: ')[1:]:
        module, rest = block.split('\n', 1)
        summary = rest.split('.. autosummary::', 1)[1].split('```', 1)[0]
        listed[module] = summary.split()
    packages = {'dh_kinematics'} | {
        '.'.join(init.relative_to(PACKAGE).parent.parts)
        for init in (PACKAGE / 'dh_kinematics').rglob('__init__.py')}
    exported = {name: importlib.import_module(name).__all__ for name in sorted(packages)}
    assert listed == {name: names for name, names in exported.items() if names}
