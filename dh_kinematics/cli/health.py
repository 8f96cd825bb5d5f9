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
``dh_kinematics health``: a fleet's logs judged, in parallel on Dask; each joint's drift.

The model files (and any parameter files after each) come first, then the logs: bag folders,
CSV joint logs, or folders searched for them (:func:`health.fleet.find`). Each log is judged
by replay's code with its joints' friction fitted (:func:`health.judge.judge`), here or on Dask
(:func:`health.fleet.judged`); its replay report goes into ``DIR/logs/<name>/`` as soon as it is
done. At the end (or at Ctrl-C, of the logs done) ``logs.csv``, ``joints.csv``, the drift
(:mod:`health.drift`) and ``index.html`` with its pictures; stdout a line per joint flagged,
per log with an ERROR and per log with a problem (doc/health.md).
"""

import dataclasses
import pathlib
import shutil
import sys
import time

from dh_kinematics.cli.plot import pyplot
from dh_kinematics.cli.replay import write_report
from dh_kinematics.core import files
from dh_kinematics.core.model_file import parameter_file
from dh_kinematics.health import drift, fleet, tables
from dh_kinematics.health.judge import Model
from dh_kinematics.parameters.files import NODE_NAME, read
from dh_kinematics.parameters.validation import model_values, notes

__all__ = ['add_parser', 'run']

MODEL_SUFFIXES = ('.yaml', '.yml')
"""The files given first that are model and parameter files; the rest are logs."""


def add_parser(commands):
    """Add the ``health`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('health', help="judge a fleet's logs (replay's report each, "
                                  "each joint's friction) in parallel on Dask; flag the joints "
                                  'that drift')
    command.add_argument('files', nargs='+', metavar='FILE', help='model files (each followed '
                         'by any more parameter files for it), then the logs: rosbag2 folders, '
                         'CSV joint logs, or folders to search for them')
    command.add_argument('--report', required=True, metavar='DIR',
                         help='the report folder to write (new, or empty)')
    command.add_argument('--topic', default='/joint_states', help='default: /joint_states')
    command.add_argument('--workers', type=int, metavar='N',
                         help='processes of a Dask LocalCluster; 1: here, without Dask '
                         "(default: the machine's cores where Dask is installed, else 1)")
    command.add_argument('--scheduler', metavar='tcp://HOST:PORT', help='a running Dask '
                         "cluster's scheduler, instead of a LocalCluster: its workers must "
                         'read the logs at the paths given')
    command.add_argument('--drift-sigma', type=float, default=4.0, metavar='Z',
                         help='flag a joint whose friction or residual RMS is this many '
                         'standard deviations from its baseline (default: %(default)g)')
    command.add_argument('--baseline', type=int, default=5, metavar='LOGS',
                         help="each arm's first LOGS logs (by stamp) are its baseline "
                         '(default: %(default)s)')
    return command


def _models(paths):
    """Return the :class:`Model` of each model file and the parameter files after it."""
    groups = []
    for path in paths:
        given = parameter_file.merged([(path, parameter_file.read(path))], NODE_NAME)
        if model_values(given):
            groups.append([path])
        elif groups:
            groups[-1].append(path)
        else:
            raise ValueError(f'{path}: no model reaches the node in it: give a model file '
                             'first, then its parameter files')
    models = []
    for group in groups:
        _, checked = read(group)
        for note in notes(checked):
            sys.stderr.write(f'warning: {group[0]}: {note}\n')
        models.append(Model(checked.chain.name or pathlib.Path(group[0]).stem, checked))
    return models


def _check(args):
    if args.workers is None:
        args.workers = fleet.default_workers()
        if args.workers is None and args.scheduler is None:
            sys.stderr.write(f'note: judging one log at a time: {fleet.INSTALL}\n')
        args.workers = args.workers or 1
    if args.workers < 1:
        raise ValueError(f'--workers {args.workers}: give 1 or more')
    if not args.drift_sigma > 0.0:
        raise ValueError(f'--drift-sigma {args.drift_sigma!r}: give a number above 0')
    if args.baseline < 1:
        raise ValueError(f'--baseline {args.baseline}: give 1 or more logs')
    count = next((k for k, path in enumerate(args.files) if not path.endswith(MODEL_SUFFIXES)),
                 len(args.files))
    model_files = args.files[:count]
    if not model_files:
        raise ValueError(f'{args.files[0]}: give the model file (.yaml) first, then the logs')
    if len(model_files) == len(args.files):
        raise ValueError('give the logs after the model files: bag folders, CSV joint logs or '
                         'folders of them')
    return model_files, args.files[len(model_files):]


class _Progress:
    """The progress bar on stderr: logs done of all, throughput, time left."""

    WIDTH = 24

    def __init__(self, total, stream=None):
        self._total, self._stream = total, stream or sys.stderr
        self._start, self._seconds, self._done = time.monotonic(), 0.0, 0
        self._tty = self._stream.isatty()

    def __call__(self, result):
        self._done += 1
        if result.duration_s == result.duration_s:  # not NaN
            self._seconds += result.duration_s
        elapsed = max(time.monotonic() - self._start, 1e-9)
        left = (self._total - self._done) * elapsed / self._done
        filled = self.WIDTH * self._done // self._total
        line = (f'health: [{"#" * filled}{"." * (self.WIDTH - filled)}] {self._done}/'
                f'{self._total} logs, {self._seconds / elapsed:.1f} log-s/s, '
                f'{left:.0f} s left')
        self._stream.write(('\r' + line) if self._tty else line + '\n')
        if self._tty and self._done == self._total:
            self._stream.write('\n')
        self._stream.flush()


def _write_log_report(folder, result):
    """Write a log's replay report (its files' bytes) into ``folder/logs/<name>``, whole."""
    with files.staged_folder(folder / 'logs' / result.name, '--report') as staging:
        for relative, data in result.report.items():
            target = staging / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)


def run(args, out):
    """Judge the logs; write the report; print the flagged joints, the ERRORs, the problems."""
    model_files, paths = _check(args)
    fleet.check(args.workers, args.scheduler)  # what is not installed, before anything else
    models = _models(model_files)
    files.check_new_folder(args.report, '--report')
    pyplot('health --report')  # the pictures' matplotlib, before a long run, not after
    logs = fleet.find(paths)
    if not logs:
        raise ValueError(f'no logs in {", ".join(paths)}: bag folders (with metadata.yaml) or '
                         '.csv files')
    folder = pathlib.Path(args.report)
    made = not folder.exists()  # else an empty folder of the user's, left as it was found
    folder.mkdir(parents=True, exist_ok=True)
    results, progress, interrupted = {}, _Progress(len(logs)), False
    try:
        for k, result in fleet.judged(logs, models, args.topic, args.workers, args.scheduler,
                                      write_report):
            if result.report:
                _write_log_report(folder, result)
            # The bytes are written: only their names are kept.
            results[k] = dataclasses.replace(result, report=dict.fromkeys(result.report, b''))
            progress(result)
    except KeyboardInterrupt:
        interrupted = True
    except BaseException:  # no cluster, say: the logs done are summed up, or nothing is left
        if results:
            _summary(folder, logs, results, args)
        else:
            for path in [folder] if made else list(folder.iterdir()):
                shutil.rmtree(path, ignore_errors=True)
        raise
    flagged = _summary(folder, logs, results, args)
    for flag in flagged:
        out.write(f'drift: {flag.arm} {flag.joint} from {results[flag.log].path} '
                  f'({flag.quantity} {flag.value:.4g} against {flag.mean:.4g}, '
                  f'{flag.sigmas:+.1f} sigma)\n')
    for k in sorted(results):
        result = results[k]
        if result.first_error is not None:
            error = result.first_error
            out.write(f'ERROR: {result.path} at {error.stamp_ns * 1e-9:.6f} s {error.status}: '
                      f'{error.message}\n')
        if result.problem:
            out.write(f'problem: {result.path}: {result.problem}\n')
    out.write(f'wrote {args.report}: {len(results)} of {len(logs)} logs judged'
              + (' (interrupted)' if interrupted else '')
              + f'; {len(flagged)} joints drift; logs.csv, joints.csv, index.html\n')
    return 130 if interrupted else 0


def _summary(folder, logs, results, args):
    """Write the tables, the pictures and the page of the logs done; return the joints flagged."""
    from dh_kinematics.cli import health_report

    z, means = drift.distances(results, args.baseline)
    flagged = drift.flags(results, z, means, args.drift_sigma)
    files.write_text(folder / 'logs.csv', tables.logs_csv(logs, results))
    files.write_text(folder / 'joints.csv', tables.joints_csv(logs, results, z))
    health_report.draw(folder, logs, results, z, flagged, args.drift_sigma)
    return flagged
