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

"""Shared helpers: the reference vectors and chains built from them."""

import json
import pathlib

from dh_kinematics import Chain, Link
from hypothesis import settings
import numpy as np
import processes
import pytest

# Property-based tests draw from a fixed seed: every run tries the same examples.
settings.register_profile('seeded', derandomize=True, database=None, print_blob=True)
settings.load_profile('seeded')

DATA = pathlib.Path(__file__).parent / 'data'
PACKAGE = pathlib.Path(__file__).parents[1]
MODELS = ('puma560', 'puma560akb', 'stanford', 'panda')
CONFIG_FILES = {'puma560': 'puma560.yaml', 'puma560akb': 'puma560_mdh.yaml',
                'stanford': 'stanford.yaml', 'panda': 'panda.yaml', 'ur5': 'ur5.yaml'}
POSE_TOL = 1e-10


def load_reference(model):
    """Return the reference vectors of one model."""
    with open(DATA / f'{model}.json', encoding='utf-8') as stream:
        return json.load(stream)


def link_from_reference(row):
    """Build a Link from one row of a reference model's DH table."""
    prismatic = bool(row['sigma'])
    return Link(joint='prismatic' if prismatic else 'revolute',
                convention='modified' if row['mdh'] else 'standard',
                a=row['a'], alpha=row['alpha'], offset=row['offset'], flip=row['flip'],
                d=0.0 if prismatic else row['d'], theta=row['theta'] if prismatic else 0.0,
                qlim=row['qlim'], m=row['m'], r=row['r'], I=row['I'], Jm=row['Jm'],
                G=row['G'], B=row['B'], Tc=row['Tc'])


def chain_from_reference(reference):
    """Build a Chain from a reference model, independently of the YAML reader."""
    model = reference['model']
    return Chain([link_from_reference(row) for row in model['links']], base=model['base'],
                 tool=model['tool'], gravity=model['gravity'], name=model['rtb_name'])


def assert_torques(actual, expected):
    """Compare torques with the reference tolerance 1e-9 * max(1, |tau|)."""
    expected = np.asarray(expected, dtype=float)
    tolerance = 1e-9 * np.maximum(1.0, np.abs(expected))
    assert np.all(np.abs(np.asarray(actual) - expected) <= tolerance), (actual, expected)


def assert_same_bits_but_zero_signs(values, expected):
    """Every value has the bits of the expected one, or both are zeros (of either sign)."""
    values, expected = np.asarray(values, float), np.asarray(expected, float)
    same = (values.view(np.uint64) == expected.view(np.uint64)) | (
        (values == 0.0) & (expected == 0.0))
    assert same.all(), (values[~same], expected[~same])


@pytest.fixture(params=MODELS)
def model(request):
    """Each reference model: (name, reference dict, chain)."""
    reference = load_reference(request.param)
    return request.param, reference, chain_from_reference(reference)


@pytest.fixture(autouse=True)
def _no_process_outlives_its_test():
    """Kill what a test started and left running (a failed one, typically)."""
    yield
    processes.reap()
