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
CSV joint logs read a block at a time: memory a small multiple of the file, refusals at once.

Issue 71 (4): a 428 MB CSV took 10.7 GB resident, a 1 GB file of one line 5.1 GB before its
refusal, 40,000 header columns 117 s; replay of a CSV held 0.4 kB a message.
"""

import subprocess
import sys

from dh_kinematics.logs import csv_log, JointLog, read
import numpy as np
import pytest

JOINTS = tuple(f'joint{j}' for j in range(1, 8))
PEAK = ('import resource, sys\n'
        'from dh_kinematics.logs import csv_log\n'
        'if sys.argv[2] == "read":\n'
        '    log = csv_log.read(sys.argv[1])\n'
        'else:\n'
        '    for block in csv_log.blocks(sys.argv[1]):\n'
        '        pass\n'
        'print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)\n')


def _log(path, rows, seed=71):
    rng = np.random.default_rng(seed)
    log = JointLog(JOINTS, np.arange(rows) * 1e-3, rng.uniform(-1, 1, (rows, 7)),
                   rng.uniform(-1, 1, (rows, 7)), rng.uniform(-50, 50, (rows, 7)))
    csv_log.write(path, log)
    return log


def _peak(path, how):
    """Return the peak resident memory (bytes) of a process that reads ``path``."""
    out = subprocess.run([sys.executable, '-c', PEAK, str(path), how], capture_output=True,
                         text=True, timeout=600, check=True).stdout
    return int(out)


def test_a_log_reads_back_exactly_in_blocks_or_whole(tmp_path):
    written = _log(tmp_path / 'log.csv', 20_000)
    whole, _ = read(str(tmp_path / 'log.csv'))
    parts = list(csv_log.blocks(tmp_path / 'log.csv', rows=3000))
    assert [len(part.time) for part in parts] == [3000] * 6 + [2000]
    for field in ('time', 'position', 'velocity', 'effort'):
        np.testing.assert_array_equal(getattr(whole, field), getattr(written, field))
        np.testing.assert_array_equal(np.concatenate([getattr(p, field) for p in parts]),
                                      getattr(written, field))
    assert whole.rows.tolist() == list(range(2, 20_002))  # each sample's line


@pytest.mark.slow  # a 63 MB log written and read three times: 13 s
def test_memory_is_a_small_multiple_of_the_file_and_bounded_in_blocks(tmp_path):
    _log(tmp_path / 'small.csv', 10)
    _log(tmp_path / 'big.csv', 150_000)
    size = (tmp_path / 'big.csv').stat().st_size  # about 66 MB
    base = _peak(tmp_path / 'small.csv', 'read')
    whole = _peak(tmp_path / 'big.csv', 'read') - base
    blocks = _peak(tmp_path / 'big.csv', 'blocks') - base
    assert whole < 2 * size, (whole, size)
    assert blocks < 64 << 20, blocks  # the blocks one at a time: whatever the file's size


def test_a_line_too_long_or_a_row_too_wide_is_refused_at_its_line(tmp_path):
    one_line = tmp_path / 'one_line.csv'
    one_line.write_text('time,' + 'x' * (8 << 20))
    with pytest.raises(ValueError, match='line 1: longer than 1048576 characters'):
        read(str(one_line))
    wide = tmp_path / 'wide.csv'
    wide.write_text('time,a.position\n0,1\n1,2,' + '3,' * 100_000 + '\n2,3\n')
    with pytest.raises(ValueError, match='line 3: 2 values expected .one per column., got more'):
        read(str(wide))


def test_a_header_of_40000_columns_is_checked_in_linear_work(tmp_path):
    names = [f'j{k}' for k in range(40_000)]
    path = tmp_path / 'many.csv'
    path.write_text('time,' + ','.join(f'{name}.position' for name in names) + '\n'
                    + ','.join(['0'] * 40_001) + '\n')
    log, _ = read(str(path))
    assert log.names == tuple(names) and log.position.shape == (1, 40_000)
    path.write_text('time,' + ','.join(f'{name}.position' for name in names) + ',j7.position\n')
    with pytest.raises(ValueError, match="column 'j7.position' is named twice"):
        read(str(path))


def test_a_long_command_says_its_progress_every_few_seconds_and_a_short_one_nothing():
    # Issue 71 (4): a long replay or identify printed nothing until it ended.
    import io

    from dh_kinematics.cli.progress import reported

    now = [0.0]

    def clock():
        now[0] += 0.75  # each item takes 0.75 s of this clock
        return now[0]
    stream = io.StringIO()
    items = list(reported(range(20), lambda item, count: f'{count} done', every_s=5.0,
                          stream=stream, clock=clock))
    assert items == list(range(20))
    assert stream.getvalue().splitlines() == ['7 done', '14 done']
    quiet = io.StringIO()
    list(reported(range(3), lambda item, count: 'never', stream=quiet, clock=clock))
    assert quiet.getvalue() == ''
