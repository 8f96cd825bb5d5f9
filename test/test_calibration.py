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
Calibration from simulated laser-tracker data: a perturbed "true" arm, seeded noise, the fit.

The true arm differs from the nominal model in every parameter the data can identify (1 mm,
1 mrad), stands at an unknown pose in the tracker's frame, and carries the measured point off
its flange. Its tool points, with 0.05 mm of noise per axis, are the measurements; the
calibration starts from the nominal model. The calibrated model predicts held-out
configurations to the noise level, every estimated parameter lies within 4 standard deviations
of the truth, and the parameters the data cannot identify are listed and left at nominal.
"""

from conftest import CHAINS, configurations, PACKAGE, run_cli, world_poses
from dh_kinematics import Chain
from dh_kinematics.core import calibration, measurements
from dh_kinematics.core.measurements import Measurements
from dh_kinematics.core.rotations import rotation_to_quaternion, rotvec_to_matrix
import numpy as np
import pytest

NOISE = 5e-5
"""Measurement noise per axis, m (a laser tracker's)."""
ARMS = [(name, chain) for name, chain in CHAINS[:5]] + [
    (name, chain) for name, chain in CHAINS[5::10] if chain.n >= 3]


def _with_tool_point(chain, rng):
    tool = np.eye(4)
    tool[:3, 3] = rng.uniform(-0.05, 0.05, 3)
    return Chain(chain.links, chain.base, tool, chain.gravity, chain.name)


def _truth(nominal, rng, q, orientation=False):
    """Return the true arm and its corrections: every identifiable parameter perturbed."""
    exact = Measurements(q, nominal.fkine(q)[:, :3, 3],
                         rotation_to_quaternion(nominal.fkine(q)[:, :3, :3])
                         if orientation else None)
    estimated = {p.name for p in calibration.calibrate(nominal, exact).parameters
                 if p.status == 'estimated' and not p.name.startswith('base.')}
    names = calibration.parameter_names(nominal, orientation)
    delta = np.array([rng.normal(0.0, 1e-3) if name in estimated else 0.0 for name in names])
    base = np.eye(4)
    base[:3, :3], base[:3, 3] = rotvec_to_matrix(rng.normal(0.0, 1.0, 3)), rng.uniform(-2, 2, 3)
    true = calibration.corrected(nominal, names, delta, base @ nominal.base)
    return true, dict(zip(names, delta))


def _measured(chain, q, rng, orientation=False):
    T = chain.fkine(q)
    quaternion = None
    if orientation:
        noisy = np.array([rotvec_to_matrix(rng.normal(0.0, 1e-4, 3)) @ R for R in T[:, :3, :3]])
        quaternion = rotation_to_quaternion(noisy)
    return Measurements(q, T[:, :3, 3] + rng.normal(0.0, NOISE, (len(q), 3)), quaternion)


@pytest.mark.parametrize('name, chain', ARMS, ids=[name for name, _ in ARMS])
def test_a_perturbed_arm_is_recovered_to_the_noise_level(name, chain):
    rng = np.random.default_rng(sum(map(ord, name)))
    nominal = _with_tool_point(chain, rng)
    q = configurations(nominal, rng, 80)
    true, delta = _truth(nominal, rng, q)
    result = calibration.calibrate(nominal, _measured(true, q, rng))
    assert result.converged
    held_out = configurations(nominal, rng, 100)
    error = np.linalg.norm(result.chain.fkine(held_out)[:, :3, 3]
                           - true.fkine(held_out)[:, :3, 3], axis=1)
    assert np.sqrt(np.mean(error ** 2)) < 2.0 * NOISE  # the noise: 0.087 mm RMS in 3-D
    assert result.after.position_rms < 2.0 * NOISE < result.before.position_rms
    for parameter in result.parameters:
        if parameter.status != 'estimated':
            assert parameter.estimate == parameter.nominal and parameter.std is None
        elif not parameter.name.startswith('base.'):
            z = (parameter.estimate - parameter.nominal - delta[parameter.name]) / parameter.std
            assert abs(z) < 4.0, (parameter.name, z)


def test_the_ur5s_parallel_axes_get_beta_and_its_redundant_parameters_are_held():
    nominal = _with_tool_point(Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml'),
                               np.random.default_rng(1))
    rng = np.random.default_rng(2)
    q = configurations(nominal, rng, 60)
    true, delta = _truth(nominal, rng, q)
    # The true arm's shoulder, elbow and wrist 1 axes are not quite parallel: tilted by beta.
    assert delta['shoulder_lift_joint.beta'] and delta['elbow_joint.beta']
    result = calibration.calibrate(nominal, _measured(true, q, rng))
    status = {p.name: p.status for p in result.parameters}
    assert 'shoulder_lift_joint.d' not in status and 'elbow_joint.d' not in status
    assert status['shoulder_lift_joint.beta'] == status['elbow_joint.beta'] == 'estimated'
    # The base takes the first joint's offset and d, the tool point the last joint's.
    assert {name for name, value in status.items() if value == 'unidentifiable'} >= {
        'shoulder_pan_joint.offset', 'shoulder_pan_joint.d', 'wrist_3_joint.offset',
        'wrist_3_joint.d'}
    # Bounded: no d runs off to reach nearly parallel axes' common normal.
    assert max(abs(link.d) for link in result.chain.links) < 0.2


def test_measured_orientations_identify_the_tool_rotation_too():
    rng = np.random.default_rng(3)
    nominal = _with_tool_point(Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml'), rng)
    q = configurations(nominal, rng, 80)
    true, delta = _truth(nominal, rng, q, orientation=True)
    result = calibration.calibrate(nominal, _measured(true, q, rng, orientation=True))
    status = {p.name: p.status for p in result.parameters}
    assert {status[f'tool.{axis}'] for axis in ('rx', 'ry', 'rz')} == {'estimated'}
    assert status['joint6.offset'] == 'unidentifiable'  # a turn of the tool about its z
    assert result.after.orientation_rms < 3e-4 < result.before.orientation_rms
    held_out = configurations(nominal, rng, 50)
    np.testing.assert_allclose(result.chain.fkine(held_out)[:, :3, :3],
                               true.fkine(held_out)[:, :3, :3], atol=2e-4)


def test_a_known_base_and_the_masks_hold_what_they_say():
    rng = np.random.default_rng(4)
    nominal = Chain.from_yaml(PACKAGE / 'config' / 'puma560.yaml')
    q = configurations(nominal, rng, 60)
    data = _measured(nominal, q, rng)
    result = calibration.calibrate(nominal, data, base_known=True, fixed=['*.alpha'])
    names = {p.name: p for p in result.parameters}
    assert not any(name.startswith('base.') for name in names)
    assert all(p.status == 'fixed' and p.estimate == p.nominal
               for name, p in names.items() if name.endswith('.alpha'))
    only = calibration.calibrate(nominal, data, free=['tool.*', 'joint2.a'])
    assert {p.name for p in only.parameters if p.status == 'estimated'} == {
        'tool.x', 'tool.y', 'tool.z', 'joint2.a'}
    with pytest.raises(ValueError, match=r"'joint9\.\*' names no parameter"):
        calibration.calibrate(nominal, data, fixed=['joint9.*'])
    with pytest.raises(ValueError, match=r'measurements: 3 are too few for'):
        calibration.calibrate(nominal, Measurements(q[:3], data.position[:3], None))


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
        data = _measured(chain, rng.uniform(-1.0, 1.0, (5, 6)), rng, orientation)
        path = tmp_path / f'data{orientation}.csv'
        measurements.write(path, reversed(chain.joint_names), data._replace(q=data.q[:, ::-1]))
        back = measurements.read(path, chain.joint_names)
        np.testing.assert_array_equal(back.q, data.q)
        np.testing.assert_array_equal(back.position, data.position)
        if orientation:  # read normalises: unit to rounding
            np.testing.assert_allclose(back.quaternion, data.quaternion, atol=1e-15)
        else:
            assert back.quaternion is None


def test_the_command_writes_a_calibrated_model_and_reports_the_fit(tmp_path):
    model = PACKAGE / 'config' / 'ur5.yaml'
    nominal = Chain.from_yaml(model)
    rng = np.random.default_rng(5)
    q = configurations(nominal, rng, 60)
    true, _ = _truth(nominal, rng, q)
    measurements.write(tmp_path / 'data.csv', nominal.joint_names, _measured(true, q, rng))
    q2 = configurations(nominal, rng, 30)
    measurements.write(tmp_path / 'check.csv', nominal.joint_names, _measured(true, q2, rng))
    out, _ = run_cli('calibrate', model, tmp_path / 'data.csv', '--validate',
                     tmp_path / 'check.csv', '-o', tmp_path / 'ur5_cal.yaml', '--report',
                     tmp_path / 'report')
    assert out.startswith('calibrated ur5 from 60 measurements: converged in ')
    assert f'validation ({tmp_path / "check.csv"}): position RMS' in out
    assert 'held at nominal (the data cannot tell them from the others): ' in out
    run_cli('check', '--strict', tmp_path / 'ur5_cal.yaml')
    for picture in ('residuals.png', 'corrections.png'):
        assert (tmp_path / 'report' / picture).read_bytes().startswith(b'\x89PNG')
    rows = (tmp_path / 'report' / 'parameters.csv').read_text().splitlines()
    assert rows[0] == 'parameter,nominal,estimate,std,status' and len(rows) == 1 + 6 + 3 + 24
    calibrated = Chain.from_yaml(tmp_path / 'ur5_cal.yaml')
    error = np.linalg.norm(calibrated.fkine(q2)[:, :3, 3] - true.fkine(q2)[:, :3, 3], axis=1)
    assert error.max() < 5.0 * NOISE
    assert 'home: [0.0, -1.5707963267948966' in (tmp_path / 'ur5_cal.yaml').read_text()
    _, err = run_cli('calibrate', model, tmp_path / 'missing.csv', '-o', tmp_path / 'x.yaml',
                     code=1)
    assert 'cannot read the measurements' in err and not (tmp_path / 'x.yaml').exists()


def test_the_calibrated_model_starts_the_node_whose_tf_is_the_true_arms(tmp_path):
    ros_fixtures = pytest.importorskip('ros_fixtures')
    nominal = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml')
    rng = np.random.default_rng(6)
    q = configurations(nominal, rng, 60)
    true, _ = _truth(nominal, rng, q)
    measurements.write(tmp_path / 'data.csv', nominal.joint_names, _measured(true, q, rng))
    run_cli('calibrate', PACKAGE / 'config' / 'ur5.yaml', tmp_path / 'data.csv', '-o',
            tmp_path / 'calibrated.yaml')
    calibrated = Chain.from_yaml(tmp_path / 'calibrated.yaml')
    check = configurations(nominal, rng, 1)[0]
    run = ros_fixtures.Running(['--params-file', str(tmp_path / 'calibrated.yaml')])
    try:
        stamp = run.probe.send_until_seen(nominal.joint_names, check.tolist())
        edges = ros_fixtures.published_tree(run.probe, stamp)
    finally:
        run.stop()
    tool = world_poses(edges, calibrated.world_frame)[calibrated.tool_frame]
    # The tracker's frame is the world: TF puts the tool where the true arm has it.
    assert np.linalg.norm(tool[:3, 3] - true.fkine(check)[:3, 3]) < 5.0 * NOISE
