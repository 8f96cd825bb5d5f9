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
The flow's CPU per message one at a time and in blocks, every monitor and output on, in process.

The Panda with every monitor and self-collision (``bench_replay.py``'s settings), every output
wanted, on 4000 messages of the real Panda log where it is present (else the simulated one:
``bench_identify.panda_log``), forward as ``bench_replay.py`` plays it. ``handle`` takes them
one at a time (the node at ``monitors.block_period`` 0); ``block k``,
:meth:`JointStatesFlow.handle_block` k at a time (the node gathers k at 1 kHz in a
``block_period`` of k ms; ``replay`` takes 1000). CPU µs per message, the median of
``--rounds`` rounds, each round every way in turn. There is no peer doing the same job: the
ratio to ``handle`` is what blocks gain; ``node_rate.py`` measures the node against a raw
pass-through. ``--parts``: in blocks of 1000 instead, the wall µs per message of the
measuring half (the arm's state and every monitor's figures over a block's columns) and of
each of its parts, each timed around its public call: the least any judging leaves.

    .venv/bin/python bench/blocks.py [--rounds 5] [--parts] [--json FILE]
"""

import argparse
import contextlib
import json
import pathlib
import statistics
import tempfile
import time
from unittest import mock

from bench_identify import panda_log
from bench_replay import _there_and_back, settings_files
from dh_kinematics import Chain
from dh_kinematics.core.state import ArmState
from dh_kinematics.logs import for_model
from dh_kinematics.node_logic.cdr import joint_state
from dh_kinematics.node_logic.joint_states import JointStatesFlow, Wanted
from dh_kinematics.node_logic.limit_diagnostics import LimitDiagnostics
from dh_kinematics.node_logic.monitors import ArmLimits, Safety, SelfCollision
from dh_kinematics.parameters.files import read
from provenance import provenance, ROOT, write_results

COUNT = 4000
BLOCKS = (1, 4, 7, 8, 10, 20, 100, 1000)
BASE_NS = 1_790_000_000 * 10 ** 9


def _messages(chain):
    """Return the log's first COUNT messages, serialized, and their stamps (ns); its source."""
    log, source = panda_log(chain)
    t, q, qd, effort = _there_and_back(for_model(log, chain), 1)
    stamps = [BASE_NS + int(round(t[k] * 1e9)) for k in range(COUNT)]
    return [joint_state(stamp, chain.joint_names, q[k].tolist(), qd[k].tolist(),
                        effort[k].tolist()) for k, stamp in enumerate(stamps)], stamps, source


def _per_message_us(checked, data, stamps, block):
    """Return the CPU µs per message of a fresh flow taking the messages ``block`` at a time."""
    flow = JointStatesFlow(checked.chain.joint_names, None, lambda text: None, 0)
    flow.configure(checked.chain, checked.settings)
    flow.wanted = Wanted(*([True] * len(Wanted._fields)))
    start = time.process_time()
    if block is None:
        for message, stamp in zip(data, stamps):
            flow.handle(message, stamp, stamp)
    else:
        events = [(message, stamp, stamp) for message, stamp in zip(data, stamps)]
        for first in range(0, len(events), block):
            flow.handle_block(events[first:first + block])
    return (time.process_time() - start) / len(data) * 1e6


PARTS = {'measuring half': (LimitDiagnostics, 'ahead'), 'arm state': (ArmState, 'columns'),
         'safety figures': (Safety, 'ahead'), 'self-collision': (SelfCollision, 'ahead'),
         'singular values, tool speed': (ArmLimits, 'ahead')}
"""The measuring half's parts, each by the class and method timed: the block's state (its
columns outside the figures: the stops' paths take theirs within the safety figures), then
:meth:`LimitDiagnostics.ahead`'s figures; the half is the state and the figures."""


def _parts_us(checked, data, stamps):
    """Return the wall µs per message in each of :data:`PARTS`, in blocks of 1000."""
    spent, within = dict.fromkeys(PARTS, 0.0), []

    def timed(name, method):
        def call(*args, **kwargs):
            start, outside = time.perf_counter(), not within
            within.append(name)
            try:
                return method(*args, **kwargs)
            finally:
                within.pop()
                if outside or name != 'arm state':
                    spent[name] += time.perf_counter() - start
        return call
    with contextlib.ExitStack() as stack:
        for name, (owner, attribute) in PARTS.items():
            stack.enter_context(mock.patch.object(
                owner, attribute, timed(name, getattr(owner, attribute))))
        _per_message_us(checked, data, stamps, 1000)
    spent['measuring half'] += spent['arm state']
    return {name: value / len(data) * 1e6 for name, value in spent.items()}


def main():
    """Time each way in rounds; print the medians, write them with ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--parts', action='store_true', help='the measuring half, in parts')
    parser.add_argument('--json', type=pathlib.Path)
    args = parser.parse_args()
    files = settings_files(pathlib.Path(tempfile.mkdtemp()))['every monitor and self-collision']
    _, checked = read(files)
    data, stamps, source = _messages(Chain.from_yaml(ROOT / 'config' / 'panda.yaml'))
    if args.parts:
        rounds = [_parts_us(checked, data, stamps) for _ in range(args.rounds)]
        results = {'log': source, 'messages': COUNT, 'rounds': args.rounds, 'block': 1000,
                   'wall us per message': {name: round(statistics.median(
                       each[name] for each in rounds), 1) for name in PARTS}}
        print(json.dumps(dict(results, provenance=provenance()), indent=2, ensure_ascii=False))
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            write_results(args.json, **results)
        return
    ways = {'handle': None, **{f'block {k}': k for k in BLOCKS}}
    rounds = {name: [] for name in ways}
    for _ in range(args.rounds):
        for name, block in ways.items():
            rounds[name].append(_per_message_us(checked, data, stamps, block))
    alone = statistics.median(rounds['handle'])
    results = {'log': source, 'messages': COUNT, 'rounds': args.rounds,
               'us per message': {name: round(statistics.median(values), 1)
                                  for name, values in rounds.items()},
               'handle / way': {name: round(alone / statistics.median(values), 2)
                                for name, values in rounds.items()}}
    print(json.dumps(dict(results, provenance=provenance()), indent=2, ensure_ascii=False))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        write_results(args.json, **results)


if __name__ == '__main__':
    main()
