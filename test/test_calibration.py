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
Calibration against truths it did not choose: every parameter off, an independent kinematics.

The true arm is conftest's independent forward kinematics (plain 4x4 products, nothing of the
package) with **every** parameter perturbed: the base (far away, turned), per joint its
offset (or theta), d, a and alpha, and the tool point (and rotation): about 1 mm and 1 mrad
each, not only where the calibration looks. Its tool points, with 0.05 mm of noise per axis
(and 0.5 mrad on orientations), are the measurements; the calibration starts from the nominal
model. The truths:

- the calibrated model predicts held-out configurations of the true arm to within the noise,
  for the 5 shipped arms and 20 random ones, from positions and from full poses;
- the number of parameters it estimates is the numerical rank of the independent kinematics'
  Jacobian over its complete parameter set (base 6, per joint theta, d, a, alpha and beta,
  tool 3 or 6), centrally differenced: 27 and 30 for a 6R arm (4R + 2P + 3, + 6);
- an error in any single parameter of that set is recovered from exact data;
- what it holds changes its best fit by less than the noise: an independent least-squares fit
  of the complete set does no better;
- repeated configurations count once, degenerate data are refused or warned about, and a
  failed fit writes nothing.
"""

from dataclasses import replace
import math
import zlib

from dh_kinematics import Chain
from dh_kinematics.core.calibration import fit, measurements
from dh_kinematics.core.calibration.measurements import Measurements
from dh_kinematics.core.rotations import rotation_to_quaternion, rotvec_to_matrix
from dh_kinematics.core.symbolic import GENERATED_DIR
from helpers import (
    CHAINS, PACKAGE, plain_arm, plain_parameters, plain_perturbed, plain_rank, plain_tool_poses,
    run_cli, world_poses)
import numpy as np
import pytest

NOISE = 5e-5
"""Measurement noise per axis, m (a laser tracker's)."""
TURN_NOISE = 5e-4
"""Noise of measured orientations, rad."""
SHIPPED = CHAINS[:5]
RANDOM = [(name, chain) for name, chain in CHAINS[5:205] if chain.n >= 3][:20]
CASES = [(name, chain, orientation) for name, chain in SHIPPED + RANDOM
         for orientation in (False, True)]


def _nominal(chain, rng):
    """Return ``chain`` with a measured point off its flange (random, within 0.1 m)."""
    tool = np.eye(4)
    tool[:3, 3] = rng.uniform(-0.1, 0.1, 3)
    return Chain(chain.links, chain.base, tool, chain.gravity, chain.name)


def _true_arm(nominal, rng, orientation, size=1e-3):
    """Return the independent model of ``nominal`` with every parameter off, standing afar."""
    arm = plain_arm(nominal)
    changes = {name: rng.normal(0.0, size) for name in plain_parameters(arm, orientation)
               if not name.endswith('.beta')}
    true = plain_perturbed(arm, changes)
    T_tracker_world = np.eye(4)
    T_tracker_world[:3, :3] = rotvec_to_matrix(rng.normal(0.0, 1.0, 3))
    T_tracker_world[:3, 3] = rng.uniform(-2.0, 2.0, 3)
    true['base'] = T_tracker_world @ true['base']
    return true


def _measured(arm, q, rng, orientation, noise=NOISE):
    """Return the true arm's measurements at ``q``, with noise."""
    T = plain_tool_poses(arm, q)
    quaternion = None
    if orientation:
        quaternion = rotation_to_quaternion(np.array(
            [rotvec_to_matrix(rng.normal(0.0, TURN_NOISE, 3)) @ R for R in T[:, :3, :3]]))
    return Measurements(q, T[:, :3, 3] + rng.normal(0.0, noise, (len(q), 3)), quaternion)


def _scene(seed, model, orientation, count):
    """Return (rng, nominal model, true arm, configurations) of one seeded simulated tracker."""
    rng = np.random.default_rng(seed)
    nominal = _nominal(Chain.from_yaml(PACKAGE / 'config' / model), rng)
    true = _true_arm(nominal, rng, orientation)
    return rng, nominal, true, nominal.random_q(count, rng)


def _held_out_error(chain, arm, q):
    """Return the RMS distance between ``chain``'s and the true arm's tool points, m."""
    error = chain.fkine(q)[:, :3, 3] - plain_tool_poses(arm, q)[:, :3, 3]
    return float(np.sqrt(np.mean(np.sum(error ** 2, axis=1))))


@pytest.mark.parametrize('name, chain, orientation', CASES,
                         ids=[f'{name}-{"poses" if o else "positions"}' for name, _, o in CASES])
def test_an_arm_with_every_parameter_off_is_recovered_to_the_noise(name, chain, orientation):
    rng = np.random.default_rng(zlib.crc32(f'{name}{orientation}'.encode()))
    nominal = _nominal(chain, rng)
    true = _true_arm(nominal, rng, orientation)
    q = nominal.random_q(80, rng)
    result = fit.calibrate(nominal, _measured(true, q, rng, orientation))
    assert result.failure is None and result.converged and not result.warnings
    # The held-out truth: closer than one measurement's noise (0.087 mm RMS in 3-D).
    assert _held_out_error(result.chain, true, nominal.random_q(200, rng)) < (
        np.sqrt(3.0) * NOISE)
    assert result.after.position_rms < 1.3 * np.sqrt(3.0) * NOISE < result.before.position_rms
    # What it estimates is what an independent Jacobian's rank says the data can give.
    assert result.rank == result.expected == plain_rank(plain_arm(nominal), q, orientation)
    if chain.n == 6 and sum(link.isprismatic() for link in chain.links) == 0:
        assert result.rank == (30 if orientation else 27)
    for parameter in result.parameters:
        if parameter.status == 'estimated':
            assert parameter.std > 0.0
        else:
            assert parameter.estimate == parameter.nominal and parameter.std is None


@pytest.mark.parametrize('name, chain', SHIPPED, ids=[name for name, _ in SHIPPED])
def test_an_error_in_any_single_parameter_is_recovered(name, chain):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    nominal = _nominal(chain, rng)
    arm = plain_arm(nominal)
    q, check = nominal.random_q(40, rng), nominal.random_q(50, rng)
    for parameter in plain_parameters(arm, False):
        size = 3e-3 if parameter.rsplit('.', 1)[1] in ('angle', 'alpha', 'beta', 'rx', 'ry',
                                                       'rz') else 2e-3
        true = plain_perturbed(arm, {parameter: size})
        result = fit.calibrate(nominal, _measured(true, q, rng, False, noise=0.0))
        assert result.failure is None, (parameter, result.failure)
        assert _held_out_error(result.chain, true, check) < 1e-7, parameter


@pytest.mark.parametrize('name, chain', SHIPPED, ids=[name for name, _ in SHIPPED])
def test_what_is_held_changes_the_best_fit_by_less_than_the_noise(name, chain):
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    nominal = _nominal(chain, rng)
    true = _true_arm(nominal, rng, False)
    q = nominal.random_q(60, rng)
    data = _measured(true, q, rng, False)
    result = fit.calibrate(nominal, data)
    held = [p for p in result.parameters if p.status == 'held']
    assert held and all(p.fit_change < NOISE for p in held)
    # An independent Gauss-Newton fit of the complete parameter set (minimum-norm steps over
    # every direction, held ones included) from the calibrated model does no better.
    arm = plain_arm(result.chain)
    names = plain_parameters(arm, False)
    r_ours = (plain_tool_poses(arm, q)[:, :3, 3] - data.position).ravel()
    values = dict.fromkeys(names, 0.0)
    for _ in range(3):
        fitted = plain_perturbed(arm, values)
        r = (plain_tool_poses(fitted, q)[:, :3, 3] - data.position).ravel()
        J = np.array([((plain_tool_poses(plain_perturbed(fitted, {n: 1e-7}), q)
                        - plain_tool_poses(plain_perturbed(fitted, {n: -1e-7}), q))[:, :3, 3]
                       ).ravel() / 2e-7 for n in names]).T
        step = np.linalg.lstsq(J, -r, rcond=1e-9)[0]
        values = {n: values[n] + s for n, s in zip(names, step)}
    r_all = (plain_tool_poses(plain_perturbed(arm, values), q)[:, :3, 3] - data.position).ravel()
    gain = np.sqrt(max(r_ours @ r_ours - r_all @ r_all, 0.0) / len(r_ours))
    assert gain < 0.1 * NOISE, gain


def test_a_calibration_compiles_no_kinematics(tmp_path, monkeypatch):
    # Every compiled function's source goes to DH_KINEMATICS_GENERATED_DIR: none is made, though
    # 100 measurements are past the size from which the chain's batch kinematics compile.
    monkeypatch.setenv(GENERATED_DIR, str(tmp_path))
    rng, nominal, true, q = _scene(13, 'ur5.yaml', True, 100)
    result = fit.calibrate(nominal, _measured(true, q, rng, True))
    assert result.failure is None and list(tmp_path.iterdir()) == []


def test_repeated_configurations_count_once():
    rng, nominal, true, q = _scene(8, 'puma560.yaml', False, 40)
    once = fit.calibrate(nominal, _measured(true, q, rng, False))
    twice = fit.calibrate(nominal, _measured(true, np.repeat(q, 2, axis=0), rng, False))
    assert twice.configurations == once.configurations == 40
    std = {p.name: p.std for p in once.parameters if p.status == 'estimated'}
    ratio = np.array([p.std / std[p.name] for p in twice.parameters
                      if p.status == 'estimated'])
    assert ratio.min() > 0.8  # not 1 / sqrt(2): a repeat adds no configuration
    # Two configurations measured 30 times each cannot identify an arm: refused, saying how
    # many are needed.
    with pytest.raises(ValueError, match=r'measurements: 2 distinct configurations \(60 rows\) '
                       r'give 6 equations for the 27 parameters this arm\'s positions '
                       r'identify; measure at least 10 distinct configurations'):
        fit.calibrate(nominal, _measured(true, np.repeat(q[:2], 30, axis=0), rng,
                                         False))


def test_configurations_in_one_plane_are_warned_about_naming_what_they_miss():
    rng, nominal, true, _ = _scene(9, 'puma560.yaml', False, 0)
    q = np.zeros((60, 6))  # only the shoulder and the elbow move: the arm stays in a plane
    q[:, 1], q[:, 2] = rng.uniform(-0.7, 3.9, 60), rng.uniform(-3.9, 0.7, 60)
    result = fit.calibrate(nominal, _measured(true, q, rng, False))
    assert result.rank < result.expected == 27
    assert len(result.warnings) == 1
    assert result.warnings[0].startswith(f'the data identify {result.rank} of the 27 parameters')
    assert 'at least 10 distinct ones' in result.warnings[0]
    unseen = [p.name for p in result.parameters if p.reason == 'unseen']
    assert len(unseen) == 27 - result.rank and all(name in result.warnings[0] for name in unseen)


def test_measured_orientations_identify_the_tool_rotation_too():
    rng, nominal, true, q = _scene(3, 'puma560.yaml', True, 80)
    result = fit.calibrate(nominal, _measured(true, q, rng, True))
    status = {p.name: p.status for p in result.parameters}
    assert {status[f'tool.{axis}'] for axis in ('rx', 'ry', 'rz')} == {'estimated'}
    assert status['joint6.offset'] == 'held'  # a turn of the tool about its z
    assert result.after.orientation_rms < 2.0 * np.sqrt(3.0) * TURN_NOISE
    assert result.before.orientation_rms > 3.0 * result.after.orientation_rms
    held_out = nominal.random_q(50, rng)
    np.testing.assert_allclose(result.chain.fkine(held_out)[:, :3, :3],
                               plain_tool_poses(true, held_out)[:, :3, :3], atol=3e-4)


def test_a_known_base_and_the_masks_hold_what_they_say():
    rng = np.random.default_rng(4)
    nominal = Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml')
    q = nominal.random_q(60, rng)
    data = _measured(plain_arm(nominal), q, rng, False)
    result = fit.calibrate(nominal, data, base_known=True, fixed=['*.alpha'])
    names = {p.name: p for p in result.parameters}
    assert not any(name.startswith('base.') for name in names)
    assert all(p.status == 'fixed' and p.reason == 'as asked' and p.estimate == p.nominal
               for name, p in names.items() if name.endswith('.alpha'))
    only = fit.calibrate(nominal, data, free=['tool.*', 'joint2.a'])
    assert {p.name for p in only.parameters if p.status == 'estimated'} == {
        'tool.x', 'tool.y', 'tool.z', 'joint2.a'}
    assert only.expected == 4
    with pytest.raises(ValueError, match=r"'joint9\.\*' names no parameter"):
        fit.calibrate(nominal, data, fixed=['joint9.*'])
    # Issue 41 (6): a noise of 0 or 1e308, or any orientation weight, gave numpy's internals,
    # an infinite ratio or 'converged' with NaN.
    for noise in (-1, 0.0, 1e-300, 1e308, math.nan):
        with pytest.raises(ValueError, match=r'noise: must be within \[1e-09, 0.05\] m'):
            fit.calibrate(nominal, data, noise=noise)
    for weight in (-1.0, 0.0, 1e308, math.nan, math.inf):  # 0: issue 58 (9), divided by it
        with pytest.raises(ValueError, match=r'orientation_weight: must be within \(0, 1000\]'):
            fit.calibrate(nominal, data, orientation_weight=weight)
    # Issue 58 (9): a mask leaving nothing free ended in numpy's "cannot reshape array".
    with pytest.raises(ValueError, match=r"free, fixed: \['base\.\*'\] less \['base\.\*'\] "
                       'leaves no parameter to estimate'):
        fit.calibrate(nominal, data, free=['base.*'], fixed=['base.*'])


def test_a_fit_far_from_the_given_noise_or_the_nominal_model_fails():
    rng, nominal, true, q = _scene(10, 'ur5.yaml', False, 60)
    data = _measured(true, q, rng, False)
    assert fit.calibrate(nominal, data, noise=NOISE).failure is None
    result = fit.calibrate(nominal, data, noise=NOISE / 10.0)
    assert result.failure.startswith('the fit leaves 0.0')
    assert 'times the noise of 0.005 mm' in result.failure
    # A model 8 cm off in one link: no calibration, but a wrong model.
    wrong = _true_arm(nominal, rng, False)
    wrong['links'][2]['a'] += 0.08
    result = fit.calibrate(nominal, _measured(wrong, q, rng, False))
    assert 'beyond what a calibration corrects' in result.failure


def test_measurements_the_arm_cannot_have_made_are_refused_naming_the_row():
    chain = Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml')
    rng = np.random.default_rng(11)
    q = chain.random_q(30, rng)
    data = _measured(plain_arm(chain), q, rng, False)
    degrees = replace(data, q=np.degrees(q))
    bad = np.flatnonzero(np.any(chain.islimit(degrees.q) != 0, axis=1))[0]
    with pytest.raises(ValueError, match=rf'measurements: row {bad + 1}: joint\d = .* rad is '
                       r'past its limits \[.*\]'):
        fit.calibrate(chain, degrees)
    glitch = data.position.copy()
    glitch[6, 2] = 1e308
    with pytest.raises(ValueError, match=r'measurements: row 7: position .* is beyond \+-1000 m'):
        fit.calibrate(chain, replace(data, position=glitch))
    nan = data.position.copy()
    nan[3, 0] = np.nan
    with pytest.raises(ValueError, match=r'measurements: row 4: every value must be finite'):
        fit.residuals(chain, replace(data, position=nan))


@pytest.mark.parametrize('text, message', [
    ('', r'no header row and no measurements'),
    ('q1,q2,x,y,z\n', r'line 1: column \'q1\' is neither a joint'),
    ('joint1,joint2,joint3,joint4,joint5,joint6,x,y\n', r'line 1: columns z are missing'),
    ('joint1,joint2,joint3,joint4,joint5,joint6,x,y,z,qx\n',
     r'line 1: columns qy, qz, qw are missing'),
    ('joint1,joint1,joint2,joint3,joint4,joint5,joint6,x,y,z\n',
     r"line 1: column 'joint1' is named twice"),
    ('joint1,joint2,joint3,joint4,joint5,joint6,x,y,z\n0,0,0,0,0,0,1,2\n',
     r'line 2: 9 values expected \(one per column\), got 8'),
    ('joint1,joint2,joint3,joint4,joint5,joint6,x,y,z\n0,0,0,0,0,0,1,2,z\n',
     r'line 2: .* not a number'),
    ('joint1,joint2,joint3,joint4,joint5,joint6,x,y,z\n0,0,0,0,0,0,1,2,nan\n',
     r'line 2: every value must be finite'),
    ('joint1,joint2,joint3,joint4,joint5,joint6,x,y,z,qx,qy,qz,qw\n0,0,0,0,0,0,1,2,3,0,0,0,2\n',
     r'line 2: qx, qy, qz, qw must be a unit quaternion, got length 2'),
    ('joint1,joint2,joint3,joint4,joint5,joint6,x,y,z\n# nothing\n',
     r'a header but no measurements'),
])
def test_bad_measurements_are_refused_naming_the_line(tmp_path, text, message):
    path = tmp_path / 'data.csv'
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        measurements.read(path, Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml').joint_names)


def test_measurements_written_are_read_back_unchanged(tmp_path):
    chain = Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml')
    rng = np.random.default_rng(31)
    for orientation in (False, True):
        data = _measured(plain_arm(chain), rng.uniform(-1.0, 1.0, (5, 6)), rng, orientation)
        path = tmp_path / f'data{orientation}.csv'
        measurements.write(path, reversed(chain.joint_names), replace(data, q=data.q[:, ::-1]))
        back = measurements.read(path, chain.joint_names)
        np.testing.assert_array_equal(back.q, data.q)
        np.testing.assert_array_equal(back.position, data.position)
        assert back.lines == [2, 3, 4, 5, 6] and back.source == str(path)
        if orientation:  # read normalises: unit to rounding
            np.testing.assert_allclose(back.quaternion, data.quaternion, atol=1e-15)
        else:
            assert back.quaternion is None


def _tracker_files(tmp_path, rng, model, count=60):
    """Write a true arm's measurements and held-out ones; return (true arm, held-out q)."""
    nominal = Chain.from_yaml(model)
    true = _true_arm(nominal, rng, False)
    q = nominal.random_q(count, rng)
    measurements.write(tmp_path / 'data.csv', nominal.joint_names,
                       _measured(true, q, rng, False))
    q2 = nominal.random_q(30, rng)
    measurements.write(tmp_path / 'check.csv', nominal.joint_names,
                       _measured(true, q2, rng, False))
    return true, q2


def test_the_command_writes_a_calibrated_model_and_reports_the_fit(tmp_path):
    model = PACKAGE / 'config' / 'ur5.yaml'
    true, q2 = _tracker_files(tmp_path, np.random.default_rng(5), model)
    out, _ = run_cli('calibrate', model, tmp_path / 'data.csv', '--validate',
                     tmp_path / 'check.csv', '-o', tmp_path / 'ur5_cal.yaml', '--report',
                     tmp_path / 'report')
    assert out.startswith('calibrated ur5 from 60 measurements (60 distinct configurations): '
                          'converged in ')
    assert f'validation ({tmp_path / "check.csv"}): position RMS' in out
    assert 'identified: 27 parameters, of 27 that positions of this arm can give\n' in out
    assert 'observability: O1 ' in out and '(estimated from the fit; --noise gives it)' in out
    assert ('held at nominal:\n  shoulder_pan_joint.offset: the arm cannot tell it from '
            'base.') in out
    run_cli('check', '--strict', tmp_path / 'ur5_cal.yaml')
    for picture in ('residuals.png', 'corrections.png'):
        assert (tmp_path / 'report' / picture).read_bytes().startswith(b'\x89PNG')
    rows = (tmp_path / 'report' / 'parameters.csv').read_text().splitlines()
    assert rows[0] == 'parameter,nominal,estimate,std,status,reason,fit_change'
    assert len(rows) == 1 + 6 + 3 + 24
    calibrated = Chain.from_yaml(tmp_path / 'ur5_cal.yaml')
    assert _held_out_error(calibrated, true, q2) < np.sqrt(3.0) * NOISE
    assert 'home: [0.0, -1.5707963267948966' in (tmp_path / 'ur5_cal.yaml').read_text()
    _, err = run_cli('calibrate', model, tmp_path / 'missing.csv', '-o', tmp_path / 'x.yaml',
                     code=1)
    assert 'cannot read the measurements' in err and not (tmp_path / 'x.yaml').exists()


def test_a_failed_fit_writes_nothing_and_never_the_input_model(tmp_path):
    model = tmp_path / 'ur5.yaml'
    model.write_text((PACKAGE / 'config' / 'ur5.yaml').read_text())
    before = model.read_bytes()
    _tracker_files(tmp_path, np.random.default_rng(12), model)
    out, err = run_cli('calibrate', model, tmp_path / 'data.csv', '-o', tmp_path / 'out.yaml',
                       '--noise', '5e-6', '--report', tmp_path / 'report', code=1)
    assert 'the fit failed, nothing written: the fit leaves' in err
    assert 'identified: 27 parameters' in out  # the summary, to see why
    assert not (tmp_path / 'out.yaml').exists() and not (tmp_path / 'report').exists()
    _, err = run_cli('calibrate', model, tmp_path / 'data.csv', '-o', model, code=1)
    assert f'-o {model}: is also an input of the command ({model})' in err
    _, err = run_cli('calibrate', model, tmp_path / 'data.csv', '-o',
                     tmp_path / '.' / 'ur5.yaml', code=1)
    assert 'is also an input of the command' in err and model.read_bytes() == before
    lines = (tmp_path / 'data.csv').read_text().splitlines()
    lines[5] = ','.join(lines[5].split(',')[:6] + ['1e308', '0', '0'])
    (tmp_path / 'glitch.csv').write_text('\n'.join(lines) + '\n')
    _, err = run_cli('calibrate', model, tmp_path / 'glitch.csv', '-o', tmp_path / 'out.yaml',
                     code=1)
    assert f'{tmp_path / "glitch.csv"}: line 6: position [1e+308, 0.0, 0.0] is beyond' in err
    assert not (tmp_path / 'out.yaml').exists() and model.read_bytes() == before


@pytest.mark.ros
def test_the_calibrated_model_starts_the_node_whose_tf_is_the_true_arms(tmp_path):
    import ros_fixtures
    model = PACKAGE / 'config' / 'ur5.yaml'
    rng = np.random.default_rng(6)
    true, _ = _tracker_files(tmp_path, rng, model)
    run_cli('calibrate', model, tmp_path / 'data.csv', '-o', tmp_path / 'calibrated.yaml')
    calibrated = Chain.from_yaml(tmp_path / 'calibrated.yaml')
    check = calibrated.random_q(1, rng)[0]
    run = ros_fixtures.Running(['--params-file', str(tmp_path / 'calibrated.yaml')])
    try:
        stamp = run.probe.send_until_seen(calibrated.joint_names, check.tolist())
        edges = ros_fixtures.published_tree(run.probe, stamp)
    finally:
        run.stop()
    tool = world_poses(edges, calibrated.world_frame)[calibrated.tool_frame]
    # The tracker's frame is the world: TF puts the tool where the true arm has it.
    assert np.linalg.norm(tool[:3, 3] - plain_tool_poses(true, check)[0, :3, 3]) < 5.0 * NOISE
