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
Each figure the README and the user guide give of the package's speed, held to its results file.

A row names the document, its text with ``{}`` where each figure goes, the file of
``bench/results/`` the figures come from and how each is read from it, rounded as the text
gives it. A figure measured anew without the document saying it, or a document saying a
figure no file holds, fails here.
"""

import json
import re
import statistics

from helpers import PACKAGE
import pytest

RESULTS = PACKAGE / 'bench' / 'results'
NODE = '2026-11-28-every-monitor/node_rate-after.json'
IK = '2026-11-26-ik-3/bench_ik.json'
REPLAY = '2026-11-30-levels/bench_replay.json'
FLEET = '2026-11-30-fleet-health/fleet_health.json'
PATH = '2026-11-30-path/cartesian_path.json'
SAME_CODE = [f'2026-11-29-measure-once/bench_replay-{name}.json'
             for name in ('report', 'report2', 'final')]
"""Replay runs of the same package code (the last commit changed the benchmark only)."""


def _ratio(key):
    return lambda results: results[key]['ratio']


def _replay(setting, key):
    return lambda results: results['results'][setting][key]


def _same_code_runs(pick):
    """Return ``pick`` of replay's µs a message, every monitor and self-collision, in SAME_CODE."""
    return lambda results: pick(json.loads((RESULTS / name).read_text())['results'][
        'every monitor and self-collision']['us_per_message'] for name in SAME_CODE)


def _path(arm, figure, solver):
    return lambda results: results['results'][arm][figure][solver]


def _closed_forms(solver, pick):
    return lambda results: pick(entry[solver]['one_median_us']
                                for entry in results['closed_forms']
                                if 'one_median_us' in entry.get(solver, {}))


FIGURES = [
    ('README.md', 'at {}x the CPU per message of a raw pass-through, {}x with every limit '
     'watched and {}x with every monitor', NODE,
     [(_ratio('paired_raw'), 1), (_ratio('paired_limits'), 1), (_ratio('paired_every'), 1)]),
    ('README.md', "a median {} µs searching, {}x roboticstoolbox's C++ `ik_LM`; {} to {} µs in "
     'closed form (EAIK: {} to {} µs)', IK,
     [(lambda results: statistics.median(
         arm['solvers']['ours numerical']['median_us'] for arm in results['exact']), -1),
      (lambda results: statistics.median(arm['ratio'] for arm in results['head_to_head']), 1),
      (_closed_forms('ours', min), 0), (_closed_forms('ours', max), 0),
      (_closed_forms('eaik', min), 0), (_closed_forms('eaik', max), 0)]),
] + [
    ('doc/replay.md', f'| {setting} | {{}} | {{}} |', REPLAY,
     [(_replay(key, 'us_per_message'), 0), (_replay(key, 'times_real_time'), 1)])
    for key, setting in (
        ('position limits', 'the position limits'),
        ('every joint limit', "every joint limit, the singularity, the tool's speed"),
        ('every monitor', 'every monitor: those, the effort monitor, every safety figure'),
        ('every monitor and self-collision', 'every monitor and self-collision'))
] + [
    ('doc/replay.md', 'Start-up takes {} s to the first block of messages (Python, the package, '
     'the model, matplotlib), and drawing the pictures at the end {} s', REPLAY,
     [(lambda results: results['to_first_block_s'], 1),
      (lambda results: results['drawing_s'], 1)]),
    ('doc/replay.md', 'three runs of the same code with every monitor and self-collision: {} to '
     '{} µs a message', REPLAY, [(_same_code_runs(min), 0), (_same_code_runs(max), 0)]),
    ('doc/health.md', "two workers judged the fleet {} times as fast as one, the LocalCluster's "
     'start included. One worker judges {} seconds of log a CPU second', FLEET,
     [(lambda results: results['ratio'], 2),
      (lambda results: results['one worker (here, no Dask)']['log seconds per cpu second'], 1)]),
    ('doc/ik.md', 'On the Panda, ours went {} of the way on average and `ik_LM` chained {}; on '
     'the UR5, {} and {}', PATH,
     [(_path('panda', 'mean_fraction', 'ours'), 2), (_path('panda', 'mean_fraction', 'ik_LM'), 2),
      (_path('ur5', 'mean_fraction', 'ours'), 3), (_path('ur5', 'mean_fraction', 'ik_LM'), 3)]),
    ('doc/ik.md', 'A step done costs {} µs on the Panda and {} µs on the UR5 with ours (the time '
     'law included), {} and {} µs', PATH,
     [(_path('panda', 'us_per_step_done', 'ours'), 0),
      (_path('ur5', 'us_per_step_done', 'ours'), 0),
      (_path('panda', 'us_per_step_done', 'ik_LM'), 0),
      (_path('ur5', 'us_per_step_done', 'ik_LM'), 0)]),
    ('doc/health.md', 'needs 100 / {} = {} cores', FLEET,
     [(lambda results: results['one worker (here, no Dask)']['log seconds per cpu second'], 1),
      (lambda results: results['cores for 100 arms x 8 h a day, in 8 h'], 1)]),
    ('doc/replay.md', 'reading the bag alone costs {} µs a message', REPLAY,
     [(lambda results: results['reading_us_per_message'], 1)]),
    ('doc/replay.md', 'the same reading took {} µs two days before, when the first three '
     'settings ran at {}, {} and {} µs a message', '2026-11-28-replay/bench_replay.json',
     [(lambda results: results['reading_us_per_message'], 1)] + [
         (_replay(key, 'us_per_message'), 0)
         for key in ('position limits', 'every joint limit', 'every monitor')]),
    ('doc/replay.md', 'Memory is bounded by the report, not the bag: {} MiB after {} s of the log '
     'and after {} s', REPLAY,
     [(lambda results: max(results['long_rss_mib']), 0),
      (lambda results: results['long_seconds'] / 10, 0),
      (lambda results: results['long_seconds'], 0)]),
]


def _shown(value, digits):
    """Return ``value`` as the documents write it: ``digits`` decimals, no thousands mark."""
    value = round(value, digits)
    return f'{value:.{max(digits, 0)}f}'


def _text(path):
    """Return a document's text with its line breaks and runs of spaces made single spaces."""
    return re.sub(r'\s+', ' ', (PACKAGE / path).read_text())


@pytest.mark.parametrize('document, text, results, figures', FIGURES,
                         ids=[f'{row[0]}: {row[1][:40]}' for row in FIGURES])
def test_each_figure_a_document_gives_is_in_its_results_file(document, text, results, figures):
    found = json.loads((RESULTS / results).read_text())
    expected = text.format(*(_shown(read(found), digits) for read, digits in figures))
    assert expected in _text(document), (
        f'{document} no longer says what {results} holds: {expected!r}')


def test_the_readme_counts_the_sub_packages_there_are():
    words = ('one two three four five six seven eight nine ten eleven twelve thirteen fourteen '
             'fifteen').split()
    count = sum(1 for path in (PACKAGE / 'dh_kinematics').iterdir()
                if (path / '__init__.py').is_file())
    assert f'({words[count - 1]} sub-packages in all,' in _text('README.md'), count
