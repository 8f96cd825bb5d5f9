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
every estimated parameter with its standard deviation, and the parameters held at nominal
(unidentifiable from the data, or fixed by ``--free`` and ``--fixed``).
"""

from dh_kinematics.cli import model_commands
from dh_kinematics.core import calibration, measurements

PROG = 'dh_kinematics'


def _residual_line(label, value):
    text = (f'{label}: position RMS {value.position_rms * 1e3:.4g} mm, max '
            f'{value.position_max * 1e3:.4g} mm')
    if value.orientation_rms is not None:
        text += (f'; orientation RMS {value.orientation_rms * 1e3:.4g} mrad, max '
                 f'{value.orientation_max * 1e3:.4g} mrad')
    return text + '\n'


def calibrate(args, out):
    """Calibrate, write the model file and print the summary."""
    chain, _, given = model_commands.load([args.model])
    data = measurements.read(args.data, chain.joint_names)
    result = calibration.calibrate(chain, data, args.base_known, args.free, args.fixed or (),
                                   args.conditioning, args.orientation_weight)
    held_out = errors = None
    if args.validate:
        data2 = measurements.read(args.validate, chain.joint_names)
        held_out, errors = calibration.residuals(result.chain, data2)
    if args.report:
        from dh_kinematics.cli import calibration_report

        calibration_report.write(args.report, result, errors)
    model_commands.write(args.output, model_commands.model_file_text(result.chain, given),
                         'model file')
    state = 'converged' if result.converged else 'did NOT converge'
    out.write(f'calibrated {chain.name or "the model"} from {len(data.q)} measurements: '
              f'{state} in {result.iterations} iterations (condition {result.condition:.3g})\n')
    out.write(_residual_line('before', result.before))
    out.write(_residual_line('after', result.after))
    if held_out is not None:
        out.write(_residual_line(f'validation ({args.validate})', held_out))
    out.write(f'{"parameter":<32} {"nominal":>14} {"estimate":>14} {"std":>10}\n')
    for parameter in result.parameters:
        if parameter.status == 'estimated':
            out.write(f'{parameter.name:<32} {parameter.nominal:>14.8g} '
                      f'{parameter.estimate:>14.8g} {parameter.std:>10.2g}\n')
    for status, why in (('unidentifiable', 'the data cannot tell them from the others'),
                        ('fixed', 'as asked')):
        held = [p.name for p in result.parameters if p.status == status]
        if held:
            out.write(f'held at nominal ({why}): {", ".join(held)}\n')
    if args.report:
        out.write(f'wrote the report into {args.report}: residuals.png, corrections.png, '
                  'parameters.csv\n')
    out.write(f'wrote {args.output}; check it with: {PROG} check {args.output}\n')
    return 0 if result.converged else 1
