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
``dh_kinematics replay``: a recorded bag through the node's own monitors, offline; a report.

The model and any more parameter files are read as the node reads them; the bag's
``sensor_msgs/JointState`` messages (rosbags; the ``logs`` extra), or a CSV joint log's samples
(``identify``'s), go to the node's flow on their stamps (:class:`replay.Replay`); the report
folder gets ``transitions.csv``, ``maxima.csv``, ``branches.csv`` (each change of the arm's
shoulder, elbow or wrist sign, :mod:`replay.branches`), the pictures and ``index.html``, stdout
the worst level of each status, the first ERROR and the branch changes; ``--write-tf`` a bag
with the TF (:class:`TfBag`).
Every refusal is one line, and leaves nothing behind (doc/replay.md).
"""

import csv
import itertools
import math
import os
import shutil
import sys

from dh_kinematics.cli.plot import pyplot
from dh_kinematics.cli.progress import reported
from dh_kinematics.core import files
from dh_kinematics.core.names import axis_frame_names, frame_names
from dh_kinematics.node_logic import frames
from dh_kinematics.parameters.files import read
from dh_kinematics.parameters.validation import notes, robot_description
from dh_kinematics.replay import BranchChanges, Replay, source, TfBag
from dh_kinematics.replay.report import summary, write


def add_parser(commands):
    """Add the ``replay`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('replay', help="run a recorded bag through the node's "
                                  'monitors offline; write a report')
    command.add_argument('files', nargs='+', metavar='FILE', help='the model file, any more '
                         'parameter files (merged as the node merges them), then the bag (a '
                         'rosbag2 folder)')
    command.add_argument('--report', required=True, metavar='DIR',
                         help='the report folder to write (new, or empty)')
    command.add_argument('--topic', default='/joint_states', help='default: /joint_states')
    command.add_argument('--from', dest='start', type=float, default=0.0, metavar='S',
                         help='s after the first message (default: 0)')
    command.add_argument('--to', dest='end', type=float, default=math.inf, metavar='S',
                         help='s after the first message (default: the end)')
    command.add_argument('--write-tf', metavar='OUT_BAG', help='also write a bag (sqlite3) of '
                         'the messages with /tf at each stamp, /tf_static and '
                         '/robot_description (latched), for RViz or Foxglove')
    return command


def _tf_bag(path, checked, topic, start_ns):
    """Open the ``--write-tf`` bag: the frames named and prefixed as the node names them."""
    chain, prefix = checked.chain, checked.settings['frame_prefix']
    names = frame_names(chain, prefix)
    children = frames.joint_children(names, axis_frame_names(chain, prefix))
    return TfBag(path, names, children, frames.static_frames(chain, prefix),
                 robot_description(checked), topic, start_ns)


def write_report(folder, checked, replay, found, branches=None):
    """
    Write ``replay``'s report into ``folder`` (new, or empty); return its summary.

    With ``branches`` (:class:`BranchChanges`), ``branches.csv`` too, and its line in the
    summary.
    """
    said, maxima = summary(found), replay.maxima.rows()
    if branches is not None:
        said += '\n' + branches.summary()

    def pictures(staging):
        from dh_kinematics.cli import replay_report
        if branches is not None:
            with open(staging / 'branches.csv', 'w', newline='') as stream:
                rows = csv.writer(stream)
                rows.writerow(('stamp', 'kind', 'before', 'after'))
                rows.writerows((f'{stamp:.9f}', kind, before, after)
                               for stamp, kind, before, after in branches.rows())
        replay_report.draw(staging, checked.chain, checked.settings, replay, said, found, maxima)
    write(folder, found, maxima, pictures)
    return said


def run(args, out):
    """Replay the bag; write the report; print the summary."""
    if len(args.files) < 2:
        raise ValueError('give the model file (and any more parameter files), then the bag')
    *parameter_files, path = args.files
    if not 0.0 <= args.start < args.end:
        raise ValueError(f'--from {args.start!r} --to {args.end!r}: need 0 <= from < to')
    _, checked = read(parameter_files)
    for note in notes(checked):  # as check prints them and the node logs them
        sys.stderr.write(f'warning: {note}\n')
    files.check_new_folder(args.report, '--report')
    pyplot('replay --report')  # the pictures' matplotlib, before a long replay, not after
    if args.write_tf and os.path.lexists(args.write_tf):  # a dangling link too
        raise ValueError(f'--write-tf: {args.write_tf} exists; give a new folder')
    _, first_ns, messages = source.messages(path, args.topic, [checked.chain.joint_names])
    start_ns = first_ns + int(args.start * 1e9)
    end_ns = first_ns + args.end * 1e9
    window = reported(itertools.takewhile(lambda message: message[0] <= end_ns, (
        message for message in messages if message[0] >= start_ns)),
        lambda message, count: f'replay: {count} messages, '
                               f'{(message[0] - first_ns) * 1e-9:.1f} s of the log')
    branches = BranchChanges(checked.chain)
    replay = Replay(checked.chain, checked.settings, tf=bool(args.write_tf),
                    taken=branches.take)
    tf_bag = None if not args.write_tf else _tf_bag(args.write_tf, checked, args.topic, first_ns)
    try:
        found = list(replay.transitions(window, tf_bag))
    except BaseException:
        if tf_bag is not None:
            tf_bag.close()
            shutil.rmtree(args.write_tf, ignore_errors=True)
        raise
    if tf_bag is not None:
        tf_bag.close()
    said = write_report(args.report, checked, replay, found, branches)
    out.write(said + f'\nwrote {args.report}: transitions.csv, maxima.csv, branches.csv, the '
              'pictures and index.html\n' + (f'wrote {args.write_tf}\n' if args.write_tf else ''))
    return 0
