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
Task-space goals and straight lines: a free tool axis, Cartesian paths and their time law.

Poses come from pinocchio's frame placements on the model's URDF; the line from SciPy's slerp;
the nearest member of a free axis's family from sampling its angle with the closed form; the
fraction a line completes against roboticstoolbox-python's ``ikine_LM`` chained step to step.
"""

import math

from dh_kinematics import Chain, InvalidFieldError
from helpers import (
    closed_form_arm, needs, needs_pin, needs_vendor, PACKAGE, pin, pin_configuration,
    PinBranches, run_cli, toolbox_ets, vendor_model)
import numpy as np
import pytest

EXACT = 1e-9
MODELS = {name: Chain.from_yaml(PACKAGE / 'config' / f'{name}.yaml')
          for name in ('puma560', 'stanford', 'ur5', 'panda')}
needs_scipy = needs('scipy', 'pip install scipy, or apt install python3-scipy')
needs_toolbox = needs('roboticstoolbox', 'pip install roboticstoolbox-python')


def _turn_z(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def _pin_poses(chain, Q):
    """Return the tool's poses at each configuration, from pinocchio on the model's URDF."""
    model = pin.buildModelFromXML(chain.to_urdf())
    data = model.createData()
    tool = model.getFrameId(chain.tool_frame)
    poses = []
    for q in Q:
        pin.framesForwardKinematics(model, data, pin_configuration(
            pin, model, chain.joint_names, q))
        poses.append(data.oMf[tool].homogeneous.copy())
    return np.array(poses)


def _axis_angle(a, b):
    return math.atan2(np.linalg.norm(np.cross(a, b)), float(a @ b))


def _limited(chain):
    lower, upper = chain.qlim.T
    return np.maximum(lower, -math.pi), np.minimum(upper, math.pi)


@needs_pin
@pytest.mark.parametrize('name', ['puma560', 'stanford', 'ur5', 'wrist', 'parallel'])
def test_a_free_axis_gives_the_member_nearest_the_start(name):
    rng = np.random.default_rng(31)
    chain = MODELS[name] if name in MODELS else closed_form_arm(rng, name, 'standard')
    lower, upper = _limited(chain)
    for _ in range(3):
        q0, q_goal = rng.uniform(lower, upper), rng.uniform(lower, upper)
        goal = chain.fkine(q_goal) @ _turn_z(rng.uniform(-math.pi, math.pi))
        result = chain.ikine(goal, q0=q0, free_axis='z')
        assert result.success and result.method == 'analytic', result.note
        (T,) = _pin_poses(chain, [result.q])
        assert np.linalg.norm(T[:3, 3] - goal[:3, 3]) <= EXACT
        assert _axis_angle(T[:3, 2], goal[:3, 2]) <= EXACT
        assert not chain.islimit(result.q).any()
        # Every member the closed form solves, 1000 turns about the axis: none nearer q0.
        members = goal @ np.array([_turn_z(a) for a in np.linspace(-math.pi, math.pi, 1000)])
        nearest = min((float(np.linalg.norm(q - q0))
                       for found in chain.ikine(members, q0=q0, restarts=0)
                       for q in found.solutions), default=math.inf)
        assert np.linalg.norm(result.q - q0) <= nearest + EXACT


@needs_pin
@pytest.mark.parametrize('name', ['panda', 'ur5'])
def test_a_free_axis_is_met_by_the_search(name):
    chain = MODELS[name]
    rng = np.random.default_rng(32)
    lower, upper = _limited(chain)
    for axis, column in (('z', 2), ('x', 0)):
        for _ in range(3):
            q0, q_goal = rng.uniform(lower, upper), rng.uniform(lower, upper)
            turn = np.eye(4)
            turn[:3, :3] = np.roll(np.roll(_turn_z(rng.uniform(-3, 3))[:3, :3], column - 2, 0),
                                   column - 2, 1)
            goal = chain.fkine(q_goal) @ turn
            result = chain.ikine(goal, q0=q0, free_axis=axis, method='numerical')
            assert result.success, result.note
            (T,) = _pin_poses(chain, [result.q])
            assert np.linalg.norm(T[:3, 3] - goal[:3, 3]) <= EXACT
            assert _axis_angle(T[:3, column], goal[:3, column]) <= EXACT
            assert result.orientation_error == pytest.approx(
                _axis_angle(T[:3, column], goal[:3, column]), abs=1e-12)


def test_free_axes_and_weights_are_refused_naming_the_field():
    chain = MODELS['ur5']
    T = chain.fkine(np.full(6, 0.3))
    with pytest.raises(InvalidFieldError, match='free_axis'):
        chain.ikine(T, free_axis='w')
    with pytest.raises(InvalidFieldError, match='mask'):
        chain.ikine(T, free_axis='z', mask=[1, 1, 1, 1, 1, 0.5])
    with pytest.raises(InvalidFieldError, match='mask'):
        chain.ikine(T, free_axis='z', mask=[1, 1, 1, 0, 0, 0])


def _random_line(chain, rng, length, turn):
    """Return a start within the limits and a goal ``length`` m and ``turn`` rad away."""
    lower, upper = _limited(chain)
    q0 = rng.uniform(lower, upper)
    goal = chain.fkine(q0)
    direction = rng.normal(size=3)
    goal[:3, 3] += length * direction / np.linalg.norm(direction)
    axis = rng.normal(size=3)
    axis *= turn / np.linalg.norm(axis)
    from scipy.spatial.transform import Rotation
    goal[:3, :3] = goal[:3, :3] @ Rotation.from_rotvec(axis).as_matrix()
    return q0, goal


def _line_errors(start, goal, T):
    """Return each pose's distance from the line (m) and angle from its slerp (rad)."""
    from scipy.spatial.transform import Rotation, Slerp
    direction = goal[:3, 3] - start[:3, 3]
    length = np.linalg.norm(direction)
    along = (T[:, :3, 3] - start[:3, 3]) @ direction / length ** 2
    off = np.linalg.norm(T[:, :3, 3] - start[:3, 3] - along[:, None] * direction, axis=1)
    slerp = Slerp([0.0, 1.0], Rotation.from_matrix([start[:3, :3], goal[:3, :3]]))
    expected = slerp(np.clip(along, 0.0, 1.0)).as_matrix()
    angle = (Rotation.from_matrix(expected).inv() * Rotation.from_matrix(T[:, :3, :3])
             ).magnitude()
    return along, off, angle


@needs_pin
@needs_scipy
@pytest.mark.parametrize('name', ['ur5', 'panda', 'puma560'])
def test_a_path_is_on_the_line_within_the_limits(name):
    chain = MODELS[name]
    rng = np.random.default_rng(41)
    velocity, acceleration = rng.uniform(0.5, 2.0, chain.n), rng.uniform(1.0, 6.0, chain.n)
    lengths = []
    for _ in range(6):
        q0, goal = _random_line(chain, rng, 0.15, 0.3)
        path = chain.cartesian_path(q0, goal, max_step=0.002, velocity_limits=velocity,
                                    acceleration_limits=acceleration, tool_speed=0.25)
        lengths.append(path.fraction)
        assert path.complete == (path.fraction == 1.0) == (path.stop == '')
        start = chain.fkine(q0)
        T = _pin_poses(chain, path.q)
        along, off, angle = _line_errors(start, goal, T)
        assert off.max() <= EXACT and angle.max() <= EXACT
        assert np.all(np.diff(along) > 0.0)
        np.testing.assert_allclose(T, path.T, atol=EXACT)
        # Every step's midpoint within the deviations.
        _, off, angle = _line_errors(start, goal, _pin_poses(chain, (path.q[1:] + path.q[:-1])
                                                             / 2.0))
        assert off.max() <= 1e-4 and angle.max() <= 1e-3
        if path.complete:
            np.testing.assert_allclose(T[-1], goal, atol=EXACT)
        else:
            assert path.reason and path.stop in ('limit', 'singularity', 'branch', 'deviation',
                                                 'unreachable')
        _assert_timed(chain, path, velocity, acceleration, 0.25)
    assert max(lengths) == 1.0  # one line at least is whole


def _assert_timed(chain, path, velocity, acceleration, tool_speed):
    """Check the trajectory: through every step, within every limit at 1 kHz, still at the ends."""
    trajectory = path.trajectory
    q, qd, _ = trajectory.sample(path.t)
    np.testing.assert_allclose(q, path.q, atol=1e-12)
    assert np.abs(qd[[0, -1]]).max() == 0.0
    t = np.arange(0.0, trajectory.duration, 1e-3)
    q, qd, qdd = trajectory.sample(t)
    assert np.all(np.abs(qd) <= velocity) and np.all(np.abs(qdd) <= acceleration)
    assert not chain.islimit(q).any()
    # The velocities and accelerations are the positions' own: central differences agree.
    step = 1e-6
    after, before = trajectory.sample(t[1:-1] + step)[0], trajectory.sample(t[1:-1] - step)[0]
    np.testing.assert_allclose((after - before) / (2 * step), qd[1:-1], atol=1e-4)
    speed = np.linalg.norm(np.diff(chain.fkine(q)[:, :3, 3], axis=0), axis=1) / 1e-3
    assert speed.max() <= tool_speed * 1.001


@needs_scipy
def test_paths_through_waypoints_stop_at_each():
    chain = MODELS['ur5']
    q0 = np.array([0.3, -1.2, 1.4, -1.6, -1.5, 0.2])
    start = chain.fkine(q0)
    waypoints = np.array([start, start, start])
    waypoints[0][:3, 3] += [0.1, 0.0, 0.0]
    waypoints[1][:3, 3] += [0.1, 0.1, 0.0]
    waypoints[2][:3, 3] += [0.0, 0.1, 0.05]
    path = chain.cartesian_path(q0, waypoints, acceleration_limits=np.full(6, 3.0))
    assert path.complete and len(path.waypoints) == 3
    np.testing.assert_allclose(chain.fkine(path.q[path.waypoints]), waypoints, atol=EXACT)
    _, qd, _ = path.trajectory.sample(path.t[path.waypoints])
    assert np.abs(qd).max() == 0.0  # at rest at each corner


def test_a_path_stops_where_the_arm_cannot_go_and_says_why():
    chain = MODELS['puma560']
    velocity, acceleration = np.full(6, 1.0), np.full(6, 2.0)
    q0 = np.array([0.0, 0.5, -1.0, 0.0, 0.5, 0.0])
    goal = chain.fkine(q0)
    goal[:3, 3] += [5.0, 0.0, 0.0]  # far out of reach
    path = chain.cartesian_path(q0, goal, max_step=0.01, velocity_limits=velocity,
                                acceleration_limits=acceleration)
    assert not path.complete and 0.0 < path.fraction < 0.2
    assert path.stop in ('unreachable', 'singularity', 'branch'), path.reason
    assert path.reason
    # Into a joint's limit: the shoulder held to 0.6 rad.
    limited = Chain([link.replace(qlim=[-0.2, 0.6]) if j == 1 else link
                     for j, link in enumerate(chain.links)], chain.base, chain.tool)
    q0 = np.array([0.0, 0.3, -1.0, 0.0, 0.5, 0.0])
    goal = chain.fkine(np.array([0.0, 0.9, -1.0, 0.0, 0.5, 0.0]))
    path = limited.cartesian_path(q0, goal, velocity_limits=velocity,
                                  acceleration_limits=acceleration)
    assert path.stop == 'limit' and 'joint' in path.reason
    assert 0.0 < path.fraction < 1.0
    assert path.q[:, 1].max() <= 0.6


def test_paths_refuse_bad_input_naming_the_field():
    chain = MODELS['puma560']
    q0 = np.zeros(6)
    goal = chain.fkine(q0)
    with pytest.raises(InvalidFieldError, match='velocity_limits'):
        chain.cartesian_path(q0, goal)  # the Puma's model has no velocity limits
    limits = {'velocity_limits': np.ones(6), 'acceleration_limits': np.ones(6)}
    with pytest.raises(InvalidFieldError, match='q_start'):
        chain.cartesian_path(np.zeros(5), goal, **limits)
    with pytest.raises(InvalidFieldError, match='q_start'):
        chain.cartesian_path(np.full(6, 9.0), goal, **limits)
    with pytest.raises(InvalidFieldError, match='max_step'):
        chain.cartesian_path(q0, goal, max_step=0.0, **limits)
    with pytest.raises(InvalidFieldError, match='acceleration_limits'):
        chain.cartesian_path(q0, goal, velocity_limits=np.ones(6),
                             acceleration_limits=[1, 1, 1, 1, 1, -1])
    with pytest.raises(InvalidFieldError, match='poses'):
        chain.cartesian_path(q0, np.eye(3), **limits)


def _flipped(before, after):
    return any(a and b and a != b for a, b in zip(before, after))


def _toolbox_fraction(ets, chain, branches, q0, targets):
    """
    Return the share of ``targets`` ikine_LM reaches chained from q0, within the limits.

    A step counts as ours do: converged, its midpoint (the joints halfway) on the line, and on
    the start's branch (where the arm has branches).
    """
    q, start = q0, chain.fkine(q0)
    signs = branches.signs(q0) if branches else ()
    for k, T in enumerate(targets):
        solution = ets.ik_LM(T, q0=q, ilimit=100, slimit=1, tol=0.5 * EXACT ** 2,
                             joint_limits=True)
        if not solution.success:
            return k / len(targets)
        halfway = chain.fkine((q + solution.q) / 2.0)[None]
        _, off, angle = _line_errors(start, targets[-1], halfway)
        if off[0] > 1e-4 or angle[0] > 1e-3:
            return k / len(targets)
        if branches and _flipped(signs, branches.signs(solution.q)):
            return k / len(targets)
        q = solution.q
    return 1.0


@pytest.mark.slow
@needs_toolbox
@needs_scipy
@needs_vendor
@pytest.mark.parametrize('name', ['ur5', 'panda', 'puma560', 'kuka_iiwa14.urdf',
                                  'ur_ur10e.urdf', 'abb_irb2400.urdf'])
def test_lines_go_as_far_as_the_toolbox_chained(name, tmp_path):
    from scipy.spatial.transform import Rotation, Slerp
    chain = MODELS.get(name) or Chain.from_yaml(vendor_model(name, tmp_path))
    ets = toolbox_ets(chain.to_urdf(), chain.base_frame, chain.tool_frame)
    branches = PinBranches(chain) if chain.n == 6 else None
    rng = np.random.default_rng(51)
    steps = 51  # 0.1003 m at 2 mm, 0.2003 rad at 4 mrad: as the path cuts them
    fractions = np.arange(1, steps + 1) / steps
    behind = []
    for _ in range(200):
        q0, goal = _random_line(chain, rng, 0.1003, 0.2003)
        path = chain.cartesian_path(q0, goal, max_step=0.002, max_angle_step=0.004,
                                    velocity_limits=np.ones(chain.n),
                                    acceleration_limits=np.ones(chain.n))
        start = chain.fkine(q0)
        slerp = Slerp([0.0, 1.0], Rotation.from_matrix([start[:3, :3], goal[:3, :3]]))
        targets = np.tile(np.eye(4), (steps, 1, 1))
        targets[:, :3, :3] = slerp(fractions).as_matrix()
        targets[:, :3, 3] = start[:3, 3] + fractions[:, None] * (goal[:3, 3] - start[:3, 3])
        theirs = _toolbox_fraction(ets, chain, branches, q0, targets)
        if path.fraction < theirs - 1e-12:
            behind.append((path.fraction, theirs, path.reason))
        if branches and len(path.q) > 1:  # and ours never changes branch
            signs = [branches.signs(q) for q in path.q]
            assert not any(_flipped(signs[0], s) for s in signs[1:]), path.reason
    assert not behind, behind


UR5_FILES = (PACKAGE / 'config' / 'ur5.yaml', PACKAGE / 'config' / 'ur5_joint_limits.yaml')
UR5_START = ['0', '-1.2', '1.4', '-1.8', '-1.57', '0']


@needs_pin
def test_the_path_command_writes_a_log_sim_arm_plays(tmp_path):
    from dh_kinematics.logs import reading
    from dh_kinematics.logs.playback import Playback
    output = tmp_path / 'line.csv'
    down = [repr(math.pi), '0', repr(math.pi / 2)]  # the tool's z down, its x along -y
    out, _ = run_cli('path', *UR5_FILES, '--from', *UR5_START, '--via', '-0.5', '0.2', '0.3',
                     *down, '--to', '-0.5', '-0.2', '0.4', *down, '--acceleration-limits', '3',
                     '--tool-speed', '0.25', '-o', output)
    assert '2 lines' in out and '100.0 % done' in out
    log, notes = reading.read(str(output))  # as sim_arm reads its trajectory
    assert not notes and log.names == tuple(MODELS['ur5'].joint_names)
    chain = MODELS['ur5']
    assert np.all(np.abs(log.velocity) <= np.pi) and np.all(np.diff(log.time) > 0.0)
    np.testing.assert_allclose(log.position[0], [float(v) for v in UR5_START], atol=1e-12)
    (end,) = _pin_poses(chain, [log.position[-1]])
    goal = np.eye(4)
    goal[:3, :3] = np.array([[0, 1, 0], [1, 0, 0], [0, 0, -1.0]])  # Rz(pi/2) Rx(pi)
    goal[:3, 3] = [-0.5, -0.2, 0.4]
    np.testing.assert_allclose(end, goal, atol=1e-9)
    assert np.abs(log.velocity[-1]).max() == 0.0
    playback = Playback(log)
    q, qd, _ = playback.at(playback.duration / 2.0)
    assert np.all(np.abs(qd) <= np.pi)


def test_the_path_command_says_where_it_stopped(tmp_path):
    output = tmp_path / 'far.csv'
    _, err = run_cli('path', *UR5_FILES, '--from', *UR5_START, '--to', '-3', '0', '0.3', '3.1416',
                     '0', '1.5708', '--acceleration-limits', '3', '-o', output, code=1)
    assert err.startswith('dh_kinematics path: stopped at ') and 'out of reach' in err
    assert output.exists()  # as far as it went
    for args, field in ((['--from', 'nowhere'], '--from'),
                        (['--from', *UR5_START, '--velocity-limits', '1', '2'],
                         '--velocity-limits'),
                        (['--from', *UR5_START, '--rate', '0'], '--rate'),
                        (['--from', *UR5_START[:5]], '--from')):
        _, err = run_cli('path', *UR5_FILES, *args, '--to', '-0.5', '0', '0.3', '0', '0', '0',
                         '--acceleration-limits', '3', '-o', tmp_path / 'bad.csv', code=1)
        assert field in err
        assert not (tmp_path / 'bad.csv').exists()
    _, err = run_cli('path', UR5_FILES[0], '--from', *UR5_START, '--to', '-0.5', '0', '0.3',
                     '0', '0', '0', '-o', tmp_path / 'bad.csv', code=1)
    assert 'acceleration_limits' in err  # the UR5's file has none: say how to give them


@needs_pin
def test_replay_lists_each_branch_change_with_its_stamp(tmp_path):
    from dh_kinematics.logs import csv_log
    from dh_kinematics.logs.joint_log import JointLog
    chain = MODELS['puma560']
    # The elbow through its singularity and back, the wrist through its own once, at 100 Hz.
    t = np.arange(0.0, 4.0, 0.01)
    Q = np.tile([0.3, 0.4, 0.0, 0.2, 0.6, 0.1], (len(t), 1))
    Q[:, 2] = 1.2 * np.sin(2 * math.pi * t / 4.0) - 0.1
    Q[:, 4] = 0.6 - 0.4 * t
    csv_log.write(tmp_path / 'log.csv', JointLog(tuple(chain.joint_names), t + 100.0, Q,
                                                 np.gradient(Q, t, axis=0), None))
    out, _ = run_cli('replay', PACKAGE / 'config' / 'puma560.yaml', tmp_path / 'log.csv',
                     '--report', tmp_path / 'report')
    branches = PinBranches(chain)
    signs = np.array([branches.signs(q) for q in Q])
    expected = []
    for k, kind in enumerate(('shoulder', 'elbow', 'wrist')):
        last = signs[0, k]
        for row in range(1, len(t)):
            if signs[row, k] and last and signs[row, k] != last:
                expected.append((f'{t[row] + 100.0:.9f}', kind, '+' if last > 0 else '-',
                                 '+' if signs[row, k] > 0 else '-'))
            last = signs[row, k] or last
    expected.sort()
    assert len(expected) == 3  # the elbow twice, the wrist once
    rows = (tmp_path / 'report' / 'branches.csv').read_text().splitlines()
    assert rows[0] == 'stamp,kind,before,after'
    assert sorted(tuple(row.split(',')) for row in rows[1:]) == expected
    assert f'branch changes: 3, the first at {float(expected[0][0]):.6f} s' in out


@needs_pin
@needs_scipy
def test_a_free_axis_path_keeps_the_axis_on_the_line_and_lets_the_turn_go():
    from scipy.spatial.transform import Rotation, Slerp
    chain = MODELS['ur5']
    q0 = np.array([0.0, -1.2, 1.4, -1.8, -1.57, 0.0])
    start = chain.fkine(q0)
    goal = start @ _turn_z(2.5)  # a turn about the tool's z the arm need not make
    goal[:3, 3] += [0.05, 0.15, 0.05]
    path = chain.cartesian_path(q0, goal, free_axis='z', velocity_limits=np.full(6, 3.0),
                                acceleration_limits=np.full(6, 3.0))
    assert path.complete, path.reason
    T = _pin_poses(chain, path.q)
    along, off, _ = _line_errors(start, goal, T)
    assert off.max() <= EXACT
    z_line = Slerp([0.0, 1.0], Rotation.from_matrix([start[:3, :3], goal[:3, :3]]))(
        np.clip(along, 0.0, 1.0)).as_matrix()[:, :, 2]
    assert max(_axis_angle(a, b) for a, b in zip(T[:, :3, 2], z_line)) <= EXACT
    # The wrist need not turn the 2.5 rad: the path's last joint moves less.
    assert abs(path.q[-1, 5] - q0[5]) < 2.0


@needs_pin
@needs_scipy
def test_an_orientation_only_goal_leaves_the_position_free():
    chain = MODELS['ur5']
    rng = np.random.default_rng(61)
    lower, upper = _limited(chain)
    for _ in range(3):
        q0, q_goal = rng.uniform(lower, upper), rng.uniform(lower, upper)
        goal = chain.fkine(q_goal)
        goal[:3, 3] += 5.0  # out of reach: only the orientation can be met
        result = chain.ikine(goal, q0=q0, mask=[0, 0, 0, 1, 1, 1])
        assert result.success and result.method == 'numerical'
        (T,) = _pin_poses(chain, [result.q])
        from scipy.spatial.transform import Rotation
        assert Rotation.from_matrix(T[:3, :3].T @ goal[:3, :3]).magnitude() <= EXACT
