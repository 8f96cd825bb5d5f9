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
``dh_kinematics identify``: a model's dynamics from logs of the arm's motion and torques.

The masses, centres of mass, inertias, motor inertia and friction of every joint are fitted
(:mod:`identification.fit`).
It prints the fit's figures (the base parameters found against the model's, the condition
number, each joint's RMS error on the fitted and the held-out part for the model given, the
least-squares fit and the identified model) and writes the identified model, whose kinematics,
limits and settings are the given model's, only where the fit succeeded: never over MODEL.
"""

import os
import sys

from dh_kinematics import logs
from dh_kinematics.cli import arguments, models
from dh_kinematics.core import escaping, files

PROG = 'dh_kinematics'
MAX_PAYLOAD = 1e4
"""The largest ``--payload`` guess, kg: ten times what the heaviest industrial arms carry."""
LONG_LOG = 200_000
"""Samples from which identify says on stderr that the fit is under way."""
INSTALL = 'identify needs SciPy: pip install scipy (apt: python3-scipy)'


def add_parser(commands):
    """Add the ``identify`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('identify', help="a model's dynamics (inertias, friction, "
                                  'motor inertia) from logs of the arm with measured torques')
    command.add_argument('model', help=arguments.MODEL_FILE)
    command.add_argument('logs', nargs='+', metavar='LOG', help='a CSV file (time, '
                         '<joint>.position, <joint>.velocity, <joint>.effort) or a rosbag2 '
                         'folder of sensor_msgs/JointState (rosbags)')
    command.add_argument('-o', '--output', required=True, help='the identified model file')
    command.add_argument('--report', metavar='DIR', help='write index.html, a picture per '
                         'joint, base_parameters.csv and changes.csv here (matplotlib)')
    command.add_argument('--holdout', type=float, default=0.3, metavar='FRACTION',
                         help='the last FRACTION of each log in time is predicted, not fitted '
                         '(default: %(default)g)')
    command.add_argument('--topic', default='/joint_states', help='the JointState topic in a '
                         'bag (default: %(default)s)')
    command.add_argument('--payload', type=float, metavar='MASS_GUESS', help="the arm's model "
                         "held fixed, find a payload's mass (kg), centre of mass and inertia "
                         'at the tool, starting from this mass; OUT is the model with these '
                         'payload.* settings')
    command.add_argument('--cutoff', type=float, metavar='HZ', help='the low-pass cut-off '
                         "(default: ten times the motion's bandwidth, at least 2 Hz)")
    return command


def run(args, out):
    """Identify; print the figures; write the model file only if the fit succeeded."""
    try:
        import scipy  # noqa: F401
    except ImportError:
        raise ValueError(INSTALL) from None
    from dh_kinematics.identification import identify

    chain, _, given = models.load([args.model])
    if args.report:  # before a long fit, not after
        files.check_new_folder(args.report, '--report')
    read = []
    for path in args.logs:
        log, notes = logs.read(path, args.topic)
        read.append(logs.for_model(log, chain))
        for note in notes:
            out.write(f'note: {note}\n')
    samples = sum(len(log.time) for log in read)
    if samples >= LONG_LOG:  # a fit of minutes: say what is under way (stderr)
        sys.stderr.write(f'identify: {samples} samples read; fitting them (a minute or more)\n')
    if args.payload is not None:
        return _payload(chain, given, read, args, out)
    result = identify(chain, read, args.holdout, args.cutoff)
    _summary(result, chain, args, out)
    if result.failure is not None:
        raise ValueError(f'the fit failed, nothing written: {result.failure}')
    if args.report:
        from dh_kinematics.cli import identification_report

        paths = identification_report.write(args.report, result, chain)
        out.write(f'wrote the report into {args.report}: '
                  f'{", ".join(os.path.basename(p) for p in paths)}\n')
    models.write(args.output, header(result, args) + models.model_file_text(result.chain, given),
                 'model file')
    out.write(f'wrote {args.output}; check it with: {PROG} check {args.output}\n')
    return 0


def header(result, args):
    """Return the identified model file's comment lines: where it came from, how good it is."""
    held = result.held_out
    lines = [f'Identified by {PROG} identify from {", ".join(args.logs)}',
             f'(model {args.model}): {len(result.base.columns)} base parameters, condition '
             f'number {result.condition:.4g}, cut-off {result.cutoff:.3g} Hz;',
             f'torques predicted to {result.fit["identified"].total:.3%} on the fitted part'
             + (f', {held["identified"].total:.3%} on the held-out last {args.holdout:g}'
                if held else '') + '.']
    return ''.join(escaping.yaml_comment(line) + '\n' for line in lines)


def _summary(result, chain, args, out):
    out.write(f'identified {chain.name or "the model"} from {result.samples} samples '
              f'(cut-off {result.cutoff:.3g} Hz): {len(result.base.columns)} base parameters '
              f"of the model's {result.expected}, condition number {result.condition:.4g}\n")
    for note in result.notes:
        out.write(f'note: {note}\n')
    parts = [('fitted', result.fit)] + ([(f'held out (last {args.holdout:g})', result.held_out)]
                                        if result.held_out else [])
    width = max(len(name) for name in chain.joint_names)
    for label, table in parts:
        out.write(f'{label}: RMS torque error per joint (N m or N; relative: of the RMS '
                  'torque), and all joints together\n')
        out.write(f'  {"":<{width}} {"model":>10} {"least sq.":>10} {"identified":>10} '
                  f'{"relative":>9}\n')
        for j, name in enumerate(chain.joint_names):
            values = ' '.join(f'{table[kind].rms[j]:>10.4g}'
                              for kind in ('model', 'least squares', 'identified'))
            out.write(f'  {name:<{width}} {values} {table["identified"].relative[j]:>9.3%}\n')
        out.write(f'  {"all":<{width}} ' + ' '.join(
            f'{table[kind].total:>10.3%}' for kind in ('model', 'least squares',
                                                       'identified')) + '\n')


def payload_settings(fit):
    """Return the ``payload.*`` parameters of a :class:`PayloadFit`, as the node takes them."""
    inertia = fit.inertia
    return {'payload.mass': float(fit.mass), 'payload.com': [float(v) for v in fit.com],
            'payload.inertia': [float(inertia[i, k]) for i, k in
                                ((0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (0, 2))]}


def _payload(chain, given, read, args, out):
    """Identify a payload; print its settings; write the model with them."""
    from dh_kinematics.identification.payload import identify_payload

    if not args.payload <= MAX_PAYLOAD:
        raise ValueError(f'--payload: {args.payload!r} must be a mass up to {MAX_PAYLOAD:g} kg '
                         '(a guess of the payload)')

    fit = identify_payload(chain, read, args.payload, args.cutoff)
    out.write(f'payload at {chain.tool_frame} (cut-off {fit.cutoff:.3g} Hz): mass '
              f'{fit.mass:.4g} kg (std {fit.std[0]:.2g}), centre of mass '
              f'[{", ".join(f"{v:.4g}" for v in fit.com)}] m in the tool frame; inertia '
              + ('identified' if fit.inertia_identified else
                 f"no rigid body's ({fit.unphysical}): 0" if fit.unphysical else
                 'not excited by the motion: 0') + '\n')
    out.write(f'torques predicted to {fit.before.total:.3%} without it, {fit.after.total:.3%} '
              'with it\n')
    settings = payload_settings(fit)
    for name, value in settings.items():
        out.write(f'{name}: {value}\n')
    loaded = chain.with_payload(fit.mass, fit.com, fit.inertia)
    models.write(args.output, models.model_file_text(loaded, given), 'model file')
    out.write(f'wrote {args.output}; check it with: {PROG} check {args.output}\n')
    return 0
