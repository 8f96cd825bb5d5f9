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
``dh_kinematics replay`` of a 1 kHz Panda bag: times real time, start-up and memory.

The bag (sqlite3, written here by rosbags) holds the real Panda's log (../shared/panda-log, Gaz
et al. 2019; read, never copied) where it is present, else a simulated one
(bench_identify.panda_log), played forward, backward (velocities negated) and forward again:
about 60 s, positions continuous. ``replay`` runs as a user runs it, a process per run, on
four settings: the model's position limits; every joint limit (config/panda_joint_limits.yaml,
the singularity, the tool's speed); every monitor (those, the effort monitor judging the
momentum observer and every safety figure of rate_tools.PANDA_SAFETY, as node_rate.py's
``dh_kinematics_every``); and those with self-collision. The stream's speed is the difference
between the whole bag's run and its first 5 s's (whose pictures have as many bins as the
whole's); start-up is the rest of the short run, and in three more short runs with every
monitor and self-collision it is timed apart: from the first import to the first block of
messages, and the drawing of the pictures. The target (issue 72): 50x real time with
every monitor and self-collision on, start-up at most 2 s. The peer is the live node behind
``ros2 bag play``: 1x by its nature; the floor, reading the bag alone (rosbags). Memory: the
largest resident size of each run; and, in a process of its own, the replay of a bag ten times
as long (position limits, its file read once before), the largest resident size after a tenth
of it and after all of it: the report bounds it, not the bag. Prints a table; ``--json PATH``
writes the results with their provenance.

    .venv/bin/python bench/bench_replay.py
"""

import argparse
from importlib.metadata import version
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

from dh_kinematics import Chain
from dh_kinematics.logs import for_model
from dh_kinematics.logs.bag import raw_messages
import numpy as np
import yaml

try:
    from bench_identify import panda_log
    from provenance import ROOT, write_results
    from rate_tools import PANDA_SAFETY
except ImportError:  # run as a module
    from bench.bench_identify import panda_log
    from bench.provenance import ROOT, write_results
    from bench.rate_tools import PANDA_SAFETY

TARGET = 50.0
"""Times real time with every monitor and self-collision on (issue 72)."""
STARTUP = 2.0
"""Start-up, s, at most (issue 72)."""
SECOND = 1_000_000_000
BASE = 1_790_000_000 * SECOND


def _there_and_back(log, copies):
    """Return (t, q, qd, effort): the log forward, backward, forward ... ``copies`` times."""
    t, q, qd, effort = log.time - log.time[0], log.position, log.velocity, log.effort
    step = float(np.median(np.diff(t)))
    parts, start = [], 0.0
    for k in range(copies):
        forward = k % 2 == 0
        times = t if forward else t[-1] - t[::-1]
        parts.append((start + times, q if forward else q[::-1], qd if forward else -qd[::-1],
                      effort if forward else effort[::-1]))
        start += t[-1] + step
    return [np.concatenate(column) for column in zip(*parts)]


def write_bag(path, names, columns, seconds=None):
    """Write the columns' samples (up to ``seconds``) as a sqlite3 bag of JointState."""
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import get_typestore, Stores
    store = get_typestore(Stores.ROS2_JAZZY)
    JointState = store.types['sensor_msgs/msg/JointState']
    Header, Time = store.types['std_msgs/msg/Header'], store.types['builtin_interfaces/msg/Time']
    t, q, qd, effort = (np.ascontiguousarray(column, dtype=float) for column in columns)
    count = len(t) if seconds is None else int(np.searchsorted(t, seconds))
    with Writer(path, version=9) as writer:
        connection = writer.add_connection('/joint_states', JointState.__msgtype__,
                                           typestore=store)
        for k in range(count):
            stamp = BASE + int(round(t[k] * 1e9))
            message = JointState(Header(Time(*divmod(stamp, SECOND)), ''), list(names), q[k],
                                 qd[k], effort[k])
            writer.write(connection, stamp, store.serialize_cdr(message, JointState.__msgtype__))
    return path, t[count - 1] - t[0]


def settings_files(folder):
    """Return each setting's parameter files: position limits, every limit, every monitor."""
    panda, limits = ROOT / 'config' / 'panda.yaml', ROOT / 'config' / 'panda_joint_limits.yaml'
    every = {'singularity.enabled': True, 'tool_speed_limit': 10.0}
    joint_limits = folder / 'limits.yaml'
    joint_limits.write_text(yaml.safe_dump({'/**': {'ros__parameters': every}}))
    every = dict(every, **{'effort.warn': [500.0], 'effort.error': [1000.0]})
    every.update({name: yaml.safe_load(value) if isinstance(value, str) else value
                  for name, value in PANDA_SAFETY.items()})
    every_monitor = folder / 'every.yaml'
    every_monitor.write_text(yaml.safe_dump({'/**': {'ros__parameters': every}}))
    self_collision = folder / 'self_collision.yaml'
    self_collision.write_text(yaml.safe_dump({'/**': {'ros__parameters': {
        'safety.self_collision.enabled': True}}}))
    return {'position limits': [panda], 'every joint limit': [panda, limits, joint_limits],
            'every monitor': [panda, limits, every_monitor],
            'every monitor and self-collision': [panda, limits, every_monitor, self_collision]}


RUN = """import sys
from dh_kinematics.cli.entry import run
try:
    run()
finally:
    with open('/proc/self/status') as status:
        print(next(line for line in status if line.startswith('VmHWM')), file=sys.stderr)
"""
"""The console script's entry, then the process's largest resident size (VmHWM, KiB) on
stderr: unlike ``ru_maxrss``, which a process started by a fork keeps from its parent."""


PARTS = """import sys, time
start = time.perf_counter()
from dh_kinematics.cli import replay_report
from dh_kinematics.cli.entry import run
from dh_kinematics.node_logic.joint_states import JointStatesFlow
marks, block, draw = {}, JointStatesFlow.handle_block, replay_report.draw


def first(self, *args):
    marks.setdefault('first', time.perf_counter())
    return block(self, *args)


def drawn(*args):
    marks['draw'] = time.perf_counter()
    draw(*args)
    marks['drawn'] = time.perf_counter()


JointStatesFlow.handle_block, replay_report.draw = first, drawn
try:
    run()
finally:
    print(marks['first'] - start, marks['drawn'] - marks['draw'], file=sys.stderr)
"""
"""The console script's entry, timed: from the first import to the first block of messages,
and the pictures' drawing (s), on stderr."""


def startup_parts(files, bag, folder, runs=3):
    """Return the medians (s) of ``replay``'s time to its first block, and of its drawing."""
    parts = []
    for k in range(runs):
        done = subprocess.run([sys.executable, '-c', PARTS, 'replay', *map(str, files),
                               str(bag), '--report', str(folder / f'parts{k}')],
                              capture_output=True, text=True, check=True)
        parts.append([float(value) for value in done.stderr.split()[-2:]])
    return [statistics.median(values) for values in zip(*parts)]


def run(files, bag, report):
    """Run ``replay`` as a process; return (wall s, largest resident size MiB, stdout)."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, '-c', RUN, 'replay', *map(str, files), str(bag),
                           '--report', str(report)], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode:
        raise RuntimeError(f'replay failed: {done.stderr}')
    return wall, int(done.stderr.split()[-2]) / 1024, done.stdout


def memory(files, bag, first):
    """Replay ``bag`` here; return the largest resident size (MiB) after ``first`` and all."""
    from dh_kinematics.parameters.files import read
    from dh_kinematics.replay import Replay
    for _ in raw_messages(bag):  # the file in the page cache, as a bag read before
        pass
    _, checked = read(files)
    sizes = []

    def messages():
        for k, message in enumerate(raw_messages(bag)):
            if k == first:
                sizes.append(largest_resident())
            yield message
    for _ in Replay(checked.chain, checked.settings).transitions(messages()):
        pass
    return sizes[0], largest_resident()


def largest_resident():
    """Return this process's largest resident size so far, MiB (VmHWM; see :data:`RUN`)."""
    with open('/proc/self/status') as status:
        return int(next(line for line in status if line.startswith('VmHWM')).split()[1]) / 1024


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('--json', metavar='PATH', help='write the results here')
    parser.add_argument('--memory', nargs=2, metavar=('BAG', 'FIRST'),
                        help='(in a process of its own) print memory(position limits, BAG, FIRST)')
    args = parser.parse_args(argv)
    if args.memory:
        print(*memory([ROOT / 'config' / 'panda.yaml'], args.memory[0], int(args.memory[1])))
        return 0
    chain = Chain.from_yaml(ROOT / 'config' / 'panda.yaml')
    log, source = panda_log(chain)
    log = for_model(log, chain)
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        columns = _there_and_back(log, 3)
        bag, seconds = write_bag(folder / 'bag', chain.joint_names, columns)
        short, short_seconds = write_bag(folder / 'short', chain.joint_names, columns, 5.0)
        messages = int(np.searchsorted(columns[0], seconds + 1e-9))
        short_messages = int(np.searchsorted(columns[0], short_seconds + 1e-9))
        for k, (name, files) in enumerate(settings_files(folder).items()):
            short_wall, _, _ = run(files, short, folder / f'short{k}')
            wall, rss, _ = run(files, bag, folder / f'report{k}')
            per_message = (wall - short_wall) / (messages - short_messages)
            stream = per_message * messages
            startup = wall - stream
            with open(folder / f'report{k}' / 'transitions.csv') as rows:
                changes = sum(1 for _ in rows) - 1
            results[name] = {'wall_s': wall, 'startup_s': startup, 'stream_s': stream,
                             'us_per_message': 1e6 * stream / messages,
                             'times_real_time': seconds / stream, 'rss_mib': rss,
                             'level_changes': changes}
        first, drawing = startup_parts(settings_files(folder)['every monitor and self-collision'],
                                       short, folder)
        start = time.perf_counter()
        for _ in raw_messages(bag):
            pass
        reading = (time.perf_counter() - start) / messages * 1e6
        long_columns = _there_and_back(log, 30)
        long_bag, long_seconds = write_bag(folder / 'long', chain.joint_names, long_columns)
        del long_columns
        done = subprocess.run([sys.executable, __file__, '--memory', str(long_bag), str(messages)],
                              capture_output=True, text=True, check=True)
        long_rss = [float(value) for value in done.stdout.split()]
    print(f'replay of {source}, there and back: {messages} messages, {seconds:.1f} s')
    print(f'{"":<32} {"wall s":>8} {"start s":>8} {"us/msg":>8} {"x real":>8} {"MiB":>6} '
          f'{"changes":>8}')
    for name, result in results.items():
        print(f'{name:<32} {result["wall_s"]:>8.2f} {result["startup_s"]:>8.2f} '
              f'{result["us_per_message"]:>8.1f} {result["times_real_time"]:>8.1f} '
              f'{result["rss_mib"]:>6.0f} {result["level_changes"]:>8}')
    print(f'reading the bag alone (rosbags {version("rosbags")}): {reading:.1f} us/msg')
    every = results['every monitor and self-collision']
    met = every['times_real_time'] >= TARGET and every['startup_s'] <= STARTUP
    print(f'every monitor and self-collision: {every["times_real_time"]:.1f}x real time (target '
          f'>= {TARGET:g}x), start-up {every["startup_s"]:.1f} s (target <= {STARTUP:g} s): '
          f'{"met" if met else "MISSED"}; the live node behind ros2 bag play: 1x')
    print(f'start-up of every monitor and self-collision: {first:.2f} s to the first block '
          f'(Python, the package, the model, matplotlib), {drawing:.2f} s drawing the '
          'pictures (medians of 3 runs of the short bag)')
    print(f'memory in process, position limits: {long_rss[0]:.0f} MiB after {seconds:.0f} s, '
          f'{long_rss[1]:.0f} MiB after {long_seconds:.0f} s')
    if args.json:
        write_results(args.json, source=source, seconds=seconds, messages=messages,
                      results=results, reading_us_per_message=reading,
                      rosbags=version('rosbags'), long_seconds=long_seconds,
                      long_rss_mib=long_rss, to_first_block_s=first, drawing_s=drawing)
    return 0 if met else 1


if __name__ == '__main__':
    sys.exit(main())
