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

"""Where and on what a benchmark ran: the commit, the date and the machine, for its JSON."""

import datetime
import json
import os
import pathlib
import platform
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def commit():
    """Return the commit measured, with ``-dirty`` if the tree has changes."""
    return subprocess.run(['git', 'describe', '--always', '--dirty'], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip() or 'unknown'


def provenance():
    """Return {'commit', 'date', 'machine', 'python'} of this run."""
    return {'commit': commit(), 'date': datetime.date.today().isoformat(),
            'machine': f'{sys.platform}, {len(os.sched_getaffinity(0))} cores',
            'python': platform.python_version()}


def write_results(path, **results):
    """Write ``results`` to the JSON file ``path``, after this run's :func:`provenance`."""
    pathlib.Path(path).write_text(json.dumps({'provenance': provenance(), **results},
                                             indent=2) + '\n')
