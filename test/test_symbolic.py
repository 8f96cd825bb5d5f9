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

"""Generated functions can be debugged: tracebacks, inspect and a folder of their sources."""

import gc
import inspect
import linecache
import math
import pathlib
import traceback

from dh_kinematics import Chain
from dh_kinematics.core import symbolic
from dh_kinematics.core.dynamics import rne_unrolled
from dh_kinematics.core.kinematics.poses_unrolled import compile_link_poses
from helpers import CONFIG_FILES, PACKAGE
import pytest

PANDA = Chain.from_yaml(PACKAGE / 'config' / CONFIG_FILES['panda'])


def _poses():
    table = PANDA.dynamic_constants.table
    return compile_link_poses(table, table.twists)


def _failing_frame(poses):
    with pytest.raises(ValueError) as raised:
        poses([math.inf] + [0.0] * 6)  # math.cos(inf) raises inside the generated code
    return traceback.extract_tb(raised.value.__traceback__)[-1]


def test_a_traceback_from_generated_code_shows_its_source_line(monkeypatch):
    monkeypatch.delenv(symbolic.GENERATED_DIR, raising=False)
    poses = _poses()
    frame = _failing_frame(poses)
    assert frame.filename.startswith('<poses of 7 links #') and frame.name == 'generated'
    assert frame.lineno > 1 and ('cos(' in frame.line or 'sin(' in frame.line), frame.line
    source = inspect.getsource(poses)
    assert source.startswith('def generated(q):') and frame.line in source
    other = _poses()  # each function its own name
    assert other.__code__.co_filename != poses.__code__.co_filename


def test_a_source_is_registered_as_long_as_its_function_lives(monkeypatch):
    monkeypatch.delenv(symbolic.GENERATED_DIR, raising=False)
    poses = _poses()
    filename = poses.__code__.co_filename
    assert linecache.getline(filename, 1) == 'def generated(q):\n'
    del poses
    gc.collect()
    assert filename not in linecache.cache


def test_the_environment_switch_writes_every_source_to_a_folder(monkeypatch, tmp_path):
    monkeypatch.setenv(symbolic.GENERATED_DIR, str(tmp_path / 'generated'))
    poses = _poses()
    friction = rne_unrolled.compile_friction(PANDA.dynamic_constants)
    files = sorted((tmp_path / 'generated').glob('*.py'))
    assert len(files) == 2
    path = pathlib.Path(poses.__code__.co_filename)
    assert path in files and pathlib.Path(friction.__code__.co_filename) in files
    frame = _failing_frame(poses)
    assert frame.filename == str(path)
    assert frame.line == path.read_text().splitlines()[frame.lineno - 1].strip()
    assert poses([0.0] * 7) == _poses_without_folder(monkeypatch)([0.0] * 7)


def _poses_without_folder(monkeypatch):
    monkeypatch.delenv(symbolic.GENERATED_DIR)
    return _poses()


def test_negations_fold_and_every_value_equals_the_float_arithmetic():
    # -(-x) is x, -(a - b) is written b - a: no line of negations, the same floats.
    code = symbolic.Code()
    x, y = code.emit('q[0]'), code.emit('q[1]')
    difference = x - y
    values = [-(-x), -difference, -(-(-y)), (x * -1.0) * -1.0, -(x / -1.0)]
    function = symbolic.list_function(code, [values], 'q', '<negations>', single=True)
    source = inspect.getsource(function)
    assert '-(-' not in source and '/ -1.0' not in source
    for a, b in ((0.3, -1.7), (-2.5e-8, 4.0), (1.0, 1.0)):
        assert function([a, b]) == [a, b - a, -b, a, -(a / -1.0)]
