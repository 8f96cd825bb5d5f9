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
``dh_kinematics tune-contact``: the effort monitor's thresholds from logs of the arm moving free.

The node's observer runs over the first part of each log (:mod:`identification.contact`); each
joint's WARN threshold is the size its estimate's held sizes cross ``--alarms-per-hour`` times
an hour of the logs in all (by an exponential tail, at rest and in motion apart), its ERROR
threshold the one crossed a hundred times less often; the observer's gain and the hold, unless
given, are those that catch the smallest steps within 50 ms (:func:`contact.chosen`), chosen on
the first minute of each log's tuned part. The last
``--holdout`` of each log certifies them: the alarms they raise there, and how soon a step
added to each joint's effort is detected. OUT holds the ``effort.*`` parameters the node
takes, at rest (``effort.rest_*``, below ``effort.rest_speed``) and in motion, the certificate
in its comments.
"""

import math
import os

from dh_kinematics.cli import models
from dh_kinematics.cli.plot import pyplot
from dh_kinematics.core import escaping, files
from dh_kinematics.logs import for_model, read as read_log
from dh_kinematics.parameters.files import read
import numpy as np
import yaml

STEPS = (0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0)
"""The steps added to each joint's effort to certify detection, N m or N."""
FORCES = (2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0)
"""The forces pressed on the tool point along each base axis to certify detection, N."""
WITHIN = 0.05
"""A step detected within this long counts as caught, s."""
AXES = ('fx', 'fy', 'fz', 'mx', 'my', 'mz')
"""The tool wrench's axes, as ``~/external_wrench`` orders them."""
CHOICE_S = 60.0
"""Of each log's tuned part, the first this many s choose the gain and the hold: every gain of
:data:`contact.GAINS` is observed over them (the observer's run is most of the command's time);
the thresholds are tuned on the whole part with the gain and the hold chosen."""
RARER = 100.0
"""The ERROR threshold is crossed this many times less often than the WARN one."""


def add_parser(commands):
    """Add the ``tune-contact`` command to ``commands`` (argparse's subparsers)."""
    command = commands.add_parser('tune-contact', help="the effort monitor's contact "
                                  'thresholds from logs of the arm moving with nothing '
                                  'touching it, with a certificate of their false alarms and '
                                  'detection delays')
    command.add_argument('files', nargs='+', metavar='FILE', help='the model file, any more '
                         'parameter files (.yaml), then the logs: CSV files or rosbag2 '
                         'folders of sensor_msgs/JointState with efforts')
    command.add_argument('-o', '--output', required=True, help='the parameter file to write')
    command.add_argument('--alarms-per-hour', type=float, default=0.1, metavar='R',
                         help='false alarms an hour of motion, all joints together '
                         '(default: %(default)g)')
    command.add_argument('--gain', type=float, metavar='K', help="the observer's gain, 1/s "
                         '(default: the one of 10, 25, 50 and 100 that catches the smallest '
                         'steps within 50 ms)')
    command.add_argument('--hold', type=float, metavar='S', help='how long an estimate '
                         'stays past a threshold before the level rises, s (default: the one '
                         'of 0 to 30 ms that catches the smallest steps within 50 ms)')
    command.add_argument('--rest-speed', type=float, default=0.05, metavar='V',
                         help='at rest while every joint is slower, rad/s or m/s (default: '
                         '%(default)g)')
    command.add_argument('--holdout', type=float, default=0.3, metavar='FRACTION',
                         help='the last FRACTION of each log in time certifies, the rest tunes '
                         '(default: %(default)g)')
    command.add_argument('--topic', default='/joint_states', help='the JointState topic in a '
                         'bag (default: %(default)s)')
    command.add_argument('--report', metavar='DIR', help='write index.html, a picture of each '
                         "joint's estimate and its thresholds, the delays against the step "
                         'size and certificate.csv here (matplotlib)')
    return command


def _split(files):
    """Return (parameter files, logs): the .yaml files first, then the rest."""
    count = next((k for k, path in enumerate(files) if not path.endswith(('.yaml', '.yml'))),
                 len(files))
    if count == 0 or count == len(files):
        raise ValueError('give the model file (and any more parameter files), then the logs')
    return files[:count], files[count:]


def _checked(args):
    """Check the options' numbers; a ValueError names the option."""
    gain, hold = args.gain, args.hold
    for option, value, high in (('--alarms-per-hour', args.alarms_per_hour, 3600.0),
                                ('--gain', 1.0 if gain is None else gain, 1e4),
                                ('--rest-speed', args.rest_speed, 1e4),
                                ('--holdout', args.holdout, 0.9)):
        if not 0.0 < value <= high:
            raise ValueError(f'{option} {value!r}: must be more than 0 and at most {high:g}')
    if hold is not None and not 0.0 <= hold < WITHIN:
        raise ValueError(f'--hold {hold!r}: must be 0 or more and less than {WITHIN:g} s (a '
                         'step must be caught within it)')


def run(args, out):
    """Tune, certify, write OUT; print the thresholds and the certificate."""
    from dh_kinematics.identification import contact

    parameter_files, paths = _split(args.files)
    _, checked = read(parameter_files)
    chain, settings = checked.chain, checked.settings
    _checked(args)
    if args.report:  # before the work, not after
        files.check_new_folder(args.report, '--report')
        pyplot('--report')
    gap, holds = settings['diagnostics.stale_timeout'], (
        contact.HOLDS if args.hold is None else (args.hold,))
    parts, logs = [], []
    for path in paths:
        log, notes = read_log(path, args.topic)
        for note in notes:
            out.write(f'note: {note}\n')
        log = for_model(log, chain)
        if log.effort is None or log.velocity is None:
            missing = 'efforts' if log.effort is None else 'velocities'
            raise ValueError(f'{path}: no {missing}: the observer needs the velocity and '
                             'effort of every joint')
        end = log.time[0] + (1.0 - args.holdout) * (log.time[-1] - log.time[0])
        cut = int(np.searchsorted(log.time, end))
        parts.append((log.select(slice(0, cut)), log.select(slice(cut, None))))
        logs.append(log)
    gain = args.gain
    if gain is None:  # every gain over the parts' first CHOICE_S, the chosen one over all
        choosing = {gain: [] for gain in contact.GAINS}
        for tuned, _ in parts:
            first = tuned.select(slice(0, int(np.searchsorted(tuned.time,
                                                              tuned.time[0] + CHOICE_S))))
            for each, observed in zip(contact.GAINS, contact.observe(chain, first,
                                                                     contact.GAINS, gap)):
                choosing[each].append(observed)
        gain, hold, _ = contact.chosen(choosing, args.alarms_per_hour, args.rest_speed, WITHIN,
                                       holds)
        holds = (hold,)
    tuning_parts, held_out = ([contact.observe(chain, part[k], (gain,), gap)[0]
                               for part in parts] for k in (0, 1))
    _, hold, warn = contact.chosen({gain: tuning_parts}, args.alarms_per_hour,
                                   args.rest_speed, WITHIN, holds)
    error = contact.tune(tuning_parts, args.alarms_per_hour / RARER, hold, args.rest_speed)
    certificate = contact.combined([
        contact.certify(each, contact.thresholds_at(warn, each.speed), hold, gain, STEPS,
                        within=WITHIN, chain=chain, forces=FORCES) for each in held_out])
    noise = contact.sensor_noise(chain, logs, args.rest_speed)
    wrench = contact.wrench_errors(chain, tuning_parts + held_out, args.rest_speed, gain, noise)
    summary = _summary(chain, warn, error, certificate, gain, args, out)
    _wrench_summary(wrench, out)
    if args.report:
        from dh_kinematics.cli import contact_report

        paths = contact_report.write(args.report, chain, warn, error, tuning_parts, held_out,
                                     certificate, wrench, [summary[0]] + summary[-2:])
        out.write(f'wrote the report into {args.report}: '
                  f'{", ".join(os.path.basename(path) for path in paths)}\n')
    written = {'effort.estimator': 'observer', 'effort.observer_gain': float(gain),
               'effort.hold': float(hold),
               'effort.warn': _rounded(warn.motion), 'effort.error': _rounded(error.motion),
               'effort.rest_speed': float(args.rest_speed),
               'effort.rest_warn': _rounded(warn.rest), 'effort.rest_error': _rounded(error.rest)}
    if noise is not None:
        written.update({'effort.velocity_noise': _rounded(noise[0]),
                        'effort.effort_noise': _rounded(noise[1])})
    text = yaml.safe_dump({'/**': {'ros__parameters': written}}, sort_keys=False)
    models.write(args.output, _header(args, certificate) + text, 'parameter file')
    out.write(f'wrote {args.output}; pass it after the model: --params-file {args.output}\n')
    return 0


def _rounded(values):
    """Return thresholds (N m or N) as floats rounded up to 4 significant digits."""
    rounded = []
    for value in values.tolist():
        scale = 10.0 ** (3 - math.floor(math.log10(value))) if value > 0.0 else 1.0
        rounded.append(float(math.ceil(value * scale) / scale))
    return rounded


def _summary(chain, warn, error, certificate, gain, args, out):
    """Print the thresholds and the certificate; return the lines printed."""
    alarms, hours, smallest = certificate.alarms, certificate.hours, certificate.smallest
    lines = []
    lines.append(f'tuned on {sum(warn.hours) * 60:.3g} min ({warn.hours[0] * 60:.3g} at rest, '
                 f'slower than {args.rest_speed:g}), observer gain {gain:g} 1/s, hold '
                 f'{warn.hold:g} s, for {args.alarms_per_hour:g} false alarms an hour')
    width = max(len(name) for name in chain.joint_names)
    lines.append(f'  {"joint":<{width}} {"warn rest":>9} {"motion":>9} {"error rest":>10} '
                 f'{"motion":>9} {"alarms":>7} {"caught":>9}')
    for j, name in enumerate(chain.joint_names):
        lines.append(f'  {name:<{width}} {warn.rest[j]:>9.4g} {warn.motion[j]:>9.4g} '
                     f'{error.rest[j]:>10.4g} {error.motion[j]:>9.4g} {int(alarms[j]):>7} '
                     f'{smallest[j]:>9.4g}')
    lines.append(f'held out: {hours * 60:.3g} min, {int(alarms.sum())} alarms '
                 f'({certificate.per_hour:.3g} an hour); caught: the smallest step (N m or N) '
                 f'detected within {WITHIN * 1e3:g} ms from every start tried')
    lines.append(f'  a force on the tool caught within {WITHIN * 1e3:g} ms, N: ' + ', '.join(
        f'{axis} {value:.4g}' for axis, value in zip('xyz', certificate.smallest_force)))
    out.write(''.join(line + '\n' for line in lines))
    return lines


def _wrench_summary(wrench, out):
    """Print the tool wrench's error at rest per axis (:func:`contact.wrench_errors`)."""
    from dh_kinematics.identification.contact import REST_STAY_S

    if not len(wrench.time):
        lines = [f'tool wrench at rest: no stay at rest of {REST_STAY_S:g} s or more to '
                 "read it in (nor the sensors' noise)"]
    else:
        rms = np.sqrt((wrench.mean ** 2 + wrench.spread ** 2).mean(axis=0))
        lines = [f'tool wrench at rest with nothing pressing ({len(wrench.time)} stays), base '
                 'frame, N and N m:',
                 '  axis        ' + ' '.join(f'{axis:>8}' for axis in AXES)]
        for name, values in (('RMS', rms), ('by pose', wrench.mean.std(axis=0)),
                             ('noise', np.sqrt((wrench.spread ** 2).mean(axis=0))),
                             ('stated', np.sqrt((wrench.stated ** 2).mean(axis=0)))):
            lines.append(f'  {name:<11} ' + ' '.join(f'{value:>8.3g}' for value in values))
    out.write(''.join(line + '\n' for line in lines))
    return lines


def _header(args, certificate):
    """Return OUT's comment lines: where the thresholds came from and what they certify."""
    alarms, hours, smallest = certificate.alarms, certificate.hours, certificate.smallest
    lines = [f'Contact thresholds by dh_kinematics tune-contact from {", ".join(args.files)}',
             f'for {args.alarms_per_hour:g} false alarms an hour; held out '
             f'{hours * 60:.3g} min: {int(alarms.sum())} alarms; smallest step caught within '
             f'{WITHIN * 1e3:g} ms per joint: {", ".join(f"{value:g}" for value in smallest)}.']
    return ''.join(escaping.yaml_comment(line) + '\n' for line in lines)
