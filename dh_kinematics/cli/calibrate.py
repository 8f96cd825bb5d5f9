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
``dh_kinematics calibrate``: a calibrated model file from measurements of the tool.

It prints the solver's outcome, the residuals before and after (and on ``--validate`` data),
the rank of the identification Jacobian against the arm's expected count, the data's
observability, every estimated parameter with its standard deviation, and every parameter held
at nominal with why. A fit that failed (:mod:`core.calibration.fit`) writes nothing and exits 1;
the output never replaces the model it starts from.
"""

from dh_kinematics.cli import arguments, models
from dh_kinematics.core import files
from dh_kinematics.core.calibration import fit, measurements

PROG = 'dh_kinematics'
WHY = {'redundant': 'the arm cannot tell it from {partners}',
       'unseen': 'these data cannot tell it from {partners}: measure more varied configurations',
       'below noise': 'the data hold less of it than the noise',
       'no effect': 'it does not move the measured point',
       'as asked': 'as asked (--free, --fixed)'}


def _residual_line(label, value):
    text = (f'{label}: position RMS {value.position_rms * 1e3:.4g} mm, max '
            f'{value.position_max * 1e3:.4g} mm')
    if value.orientation_rms is not None:
        text += (f'; orientation RMS {value.orientation_rms * 1e3:.4g} mrad, max '
                 f'{value.orientation_max * 1e3:.4g} mrad')
    return text + '\n'


def add_parser(commands):
    """Add the ``calibrate`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('calibrate', help='a calibrated model from measurements of '
                                  'a point on the tool (a laser tracker)')
    command.add_argument('model', help=arguments.MODEL_FILE)
    command.add_argument('data', help='CSV: a header of the joint names and x, y, z (m; and qx, '
                         'qy, qz, qw), a row per measurement')
    command.add_argument('-o', '--output', required=True, help='the calibrated model file')
    command.add_argument('--base-known', action='store_true', help='the measurement frame is '
                         "the model's world frame: do not estimate the base")
    command.add_argument('--free', nargs='+', metavar='PATTERN', help='estimate only these '
                         'parameters (fnmatch patterns: base.*, *.offset, elbow_joint.a)')
    command.add_argument('--fixed', nargs='+', metavar='PATTERN', help='hold these at nominal')
    command.add_argument('--validate', metavar='DATA2', help='measurements not used in the '
                         'fit, to report the residuals on')
    command.add_argument('--report', metavar='DIR', help='write residuals.png, corrections.png '
                         'and parameters.csv here (matplotlib)')
    command.add_argument('--noise', type=float, help="the measurements' standard deviation "
                         "per coordinate, m (the instrument's and the arm's repeatability); "
                         'the fit fails beyond 3 times it (default: estimated from the fit)')
    command.add_argument('--orientation-weight', type=float,
                         default=fit.ORIENTATION_WEIGHT, help='m per rad of '
                         'orientation residual (default: %(default)g)')
    return command


def run(args, out):
    """Calibrate; print the summary; write the model file only if the fit succeeded."""
    chain, _, given = models.load([args.model])
    if args.report:  # before the fit, not after
        files.check_new_folder(args.report, '--report')
    data = measurements.read(args.data, chain.joint_names)
    result = fit.calibrate(chain, data, args.base_known, args.free, args.fixed or (),
                           args.noise, args.orientation_weight)
    held_out = errors = None
    if args.validate:
        data2 = measurements.read(args.validate, chain.joint_names)
        held_out, errors = fit.residuals(result.chain, data2)
    _summary(result, chain, data, args, held_out, out)
    if result.failure is not None:
        raise ValueError(f'the fit failed, nothing written: {result.failure}')
    if args.report:
        from dh_kinematics.cli import calibration_report

        calibration_report.write(args.report, result, errors)
        out.write(f'wrote the report into {args.report}: residuals.png, corrections.png, '
                  'parameters.csv\n')
    models.write(args.output, models.model_file_text(result.chain, given),
                 'model file')
    out.write(f'wrote {args.output}; check it with: {PROG} check {args.output}\n')
    return 0


def _summary(result, chain, data, args, held_out, out):
    state = 'converged' if result.converged else 'did NOT converge'
    out.write(f'calibrated {chain.name or "the model"} from {len(data.q)} measurements '
              f'({result.configurations} distinct configurations): {state} in '
              f'{result.iterations} iterations\n')
    out.write(_residual_line('before', result.before))
    out.write(_residual_line('after', result.after))
    if held_out is not None:
        out.write(_residual_line(f'validation ({args.validate})', held_out))
    kind = 'poses' if data.quaternion is not None else 'positions'
    out.write(f'identified: {result.rank} parameters, of {result.expected} that {kind} of '
              f'this arm can give\n')
    noise = f'{result.noise * 1e3:.3g} mm per coordinate ' + (
        '(given)' if result.noise_given else '(estimated from the fit; --noise gives it)')
    o = result.observability
    out.write(f'observability: O1 {o.O1:.3g}, O4 {o.O4:.3g}, condition {o.condition:.3g} '
              f'(angles scaled by {result.length:.3g} m); noise {noise}\n')
    for warning in result.warnings:
        out.write(f'warning: {warning}\n')
    out.write(f'{"parameter":<32} {"nominal":>14} {"estimate":>14} {"std":>10}\n')
    for parameter in result.parameters:
        if parameter.status == 'estimated':
            out.write(f'{parameter.name:<32} {parameter.nominal:>14.8g} '
                      f'{parameter.estimate:>14.8g} {parameter.std:>10.2g}\n')
    held = [p for p in result.parameters if p.status != 'estimated']
    if held:
        out.write('held at nominal:\n')
    for parameter in held:
        why = WHY[parameter.reason].format(
            partners=', '.join(parameter.partners) or 'the others')
        change = (f'; holding it changes the fit by {parameter.fit_change * 1e3:.2g} mm RMS'
                  if parameter.reason in ('below noise', 'unseen') else '')
        out.write(f'  {parameter.name}: {why}{change}\n')
