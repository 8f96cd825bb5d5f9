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
The dh_kinematics command, end to end: every subcommand and its bad inputs.

In process, as the console script runs it (``helpers.run_cli``); the console script itself runs
as a process once here, and in the tests of Ctrl-C, file-size limits and ROS.
"""

import math
import os
import struct

from dh_kinematics import Chain
from dh_kinematics.cli.convert import chain_from_table
from dh_kinematics.core import display
from helpers import needs_matplotlib, PACKAGE, run_cli as run, run_cli_process, run_cli_without
import numpy as np
import pytest

CONFIG = PACKAGE / 'config'
PUMA, UR5 = CONFIG / 'puma560.yaml', CONFIG / 'ur5.yaml'
# 8 levels of 10 aliases: 10^8 paths from a 1 kB file, which rcl would refuse at the first.
ALIAS_BOMB = '/**:\n  ros__parameters:\n    a0: &a0 {x: 1.0}\n' + ''.join(
    f'    a{i}: &a{i} {{' + ', '.join(f'k{j}: *a{i - 1}' for j in range(10)) + '}\n'
    for i in range(1, 9))
UR5_TABLE = ('[0 0.089159 0 pi/2; 0 0 -0.425 0; 0 0 -0.39225 0; 0 0.10915 0 pi/2; '
             '0 0.09465 0 -pi/2; 0 0.0823 0 0]')


def test_check_says_ok_in_one_line_and_refuses_as_the_node_does(tmp_path):
    out, _ = run('check', UR5)
    assert out == (f'{UR5}: OK: ur5, 6 joints (RRRRRR, standard DH), frames world -> '
                   'base .. tool0, extra frames base_link, flange\nlimits: position 6/6, soft '
                   'position 0/6, velocity 6/6, acceleration 0/6, deceleration 0/6, jerk 0/6, '
                   'effort 6/6\nself-collision: 12 capsules, 32 pairs to judge once '
                   'safety.self_collision.enabled is true (2 ignored); no other pair near in '
                   'most configurations\n')
    typo = tmp_path / 'typo.yaml'
    typo.write_text(PUMA.read_text().replace('qlim:', 'qlimit:', 1))
    _, err = run('check', typo, code=1)
    assert 'joint1.qlimit: is not a joint field' in err and '(did you mean qlim?)' in err
    degrees = tmp_path / 'degrees.yaml'
    degrees.write_text(PUMA.read_text().replace('alpha: 1.5707963267948966', 'alpha: 90.0', 1))
    _, err = run('check', degrees, code=1)
    assert 'joint1.alpha: must be within +-2 pi: radians are expected (90 rad' in err
    thresholds = tmp_path / 'thresholds.yaml'
    thresholds.write_text(PUMA.read_text().replace(
        'ros__parameters:\n', 'ros__parameters:\n    effort.warn: [1.0, 2.0]\n', 1))
    _, err = run('check', thresholds, code=1)
    assert 'effort.warn: must hold 1 value (every joint) or 6 (one per joint)' in err
    payload = tmp_path / 'payload.yaml'
    payload.write_text(PUMA.read_text().replace(
        'ros__parameters:\n', 'ros__parameters:\n    payload: {mass: -1.0}\n', 1))
    _, err = run('check', payload, code=1)
    assert 'payload.mass: must be >= 0, got -1.0' in err
    wide = tmp_path / 'wide.yaml'
    wide.write_text(PUMA.read_text().replace('qlim: [-2.792526803190927', 'qlim: [-20.0', 1))
    out, _ = run('check', wide)
    assert out.startswith('warning: unusual model value: joint1.qlim') and 'OK' in out
    other = tmp_path / 'other.yaml'
    other.write_text(PUMA.read_text().replace('/**:', 'left_arm:', 1))
    _, err = run('check', other, code=1)
    assert ("no model parameters reached node '/dh_kinematics': the parameter file has "
            f"'left_arm' in {other}; key the model with \"/**:\" (every node) or "
            '"dh_kinematics:"') in err  # the node's own message
    _, err = run('check', tmp_path / 'missing.yaml', code=1)
    assert 'cannot read the parameter file' in err
    run('check', code=2)


def test_the_console_script_runs_a_command_and_refuses_a_bad_one(tmp_path):
    out, _ = run_cli_process('check', UR5)
    assert out.startswith(f'{UR5}: OK: ur5, 6 joints')
    _, err = run_cli_process('check', tmp_path / 'missing.yaml', code=1)
    assert 'cannot read the parameter file' in err
    _, err = run_cli_process('fk', code=2)
    assert err.startswith('usage: dh_kinematics fk')


def test_show_prints_the_table_in_degrees_and_the_dynamics():
    out, _ = run('show', PUMA, '--deg', '--dyn')
    assert out.startswith("Chain 'puma560': 6 joints (RRRRRR), standard DH (lengths m, "
                          'angles deg)')
    assert '|  90° |' in out and 'Jm    =' in out
    assert run('show', PUMA)[0] == str(Chain.from_yaml(PUMA)) + '\n'


def test_fk_prints_every_frame_and_the_tool_last():
    chain = Chain.from_yaml(PUMA)
    q = [0.1, -0.5, 0.3, 1.0, -0.7, 2.0]
    lines = run('fk', PUMA, *q)[0].splitlines()
    assert lines[-1] == display.transform_line('tool0', chain.fkine(q))
    assert lines[0].startswith('base_link: ') and len(lines) == chain.n + 2
    out, _ = run('fk', UR5, '--q-name', 'home', '--jacobian')
    tool = [line for line in out.splitlines() if line.startswith('tool0')][0]
    # UR5 upright: d1 + a2 + a3 + d5 above the base, d4 + d6 to the side (by hand).
    assert tool.startswith('tool0: xyz=[') and '-0.19145, 1.00106]' in tool
    assert 'jacobian' in out and len(out.splitlines()) == 8 + 1 + 6
    degrees = run('fk', PUMA, *np.degrees(q), '--deg')[0].splitlines()[-1]
    assert degrees == display.transform_line('tool0', chain.fkine(q), True)
    assert run('fk', PUMA, '--deg', *np.degrees(q))[0].splitlines()[-1] == degrees  # any order
    for args, message in ((('1', '2'), 'Q: 6 joint values expected, got 2'),
                          (('--q-name', 'qx'), "no configuration 'qx'"),
                          (('1', '2', 'x', '4', '5', '6'), "Q: 'x' is not a number")):
        assert message in run('fk', PUMA, *args, code=1)[1]


@pytest.mark.parametrize('model', ['panda', 'puma560', 'puma560_mdh', 'stanford', 'ur5'])
def test_every_shipped_model_passes_check_strict(model):
    # Issue 57: three of them carried inertias no rigid body has (the toolbox's), so the
    # README's own check refused them and the demo warned of its own model at every start.
    out, err = run('check', PACKAGE / 'config' / f'{model}.yaml', '--strict')
    assert ': OK: ' in out and 'warning' not in out + err, out + err


@pytest.mark.parametrize('command, args, what', [
    ('urdf', [PUMA], 'URDF'),
    ('convert', [UR5_TABLE, '--order', 'corke'], 'model file'),
    pytest.param('plot', [PUMA], 'picture', marks=needs_matplotlib),
])
def test_an_output_that_cannot_be_written_is_one_line(tmp_path, command, args, what):
    for output, reason in ((tmp_path, 'Is a directory'),
                           (tmp_path / 'missing' / 'out', 'No such file or directory')):
        _, err = run(command, *args, '-o', output, code=1)
        assert err == f'dh_kinematics {command}: error: {output}: cannot write the {what}: ' \
            f'{reason}\n', err


@pytest.mark.parametrize('make, message', [
    (lambda path: os.mkfifo(path), 'cannot read the parameter file: it is a FIFO, not a '
     'regular file'),
    (lambda path: path.write_text(ALIAS_BOMB), 'line 4: an alias (*a0), which ROS 2 cannot '
     'read; write the value out'),
    (lambda path: path.write_text('/**:\n  ros__parameters:\n    x: ' + '[' * 5000 + ']' * 5000),
     'line 3: nested deeper than 32 levels'),
    (lambda path: path.write_bytes(b'/**:\n  ros__parameters:\n    x: \xe9\n'),
     'line 3: not UTF-8 text (byte 31)'),
    (lambda path: path.write_text(PUMA.read_text().replace('a: 0.0', 'a: ' + '9' * 5000, 1)),
     "joint1.a: must be a real number, got '99999"),
])
def test_check_reads_any_file_in_bounded_work_and_says_why_in_one_line(tmp_path, make,
                                                                       message):
    path = tmp_path / 'hostile.yaml'
    make(path)
    _, err = run('check', path, code=1)
    assert message in err, err
    _, err = run('check', '/dev/zero', code=1)
    assert 'it is a character device, not a regular file' in err


def test_urdf_writes_the_model_urdf(tmp_path):
    path = tmp_path / 'ur5.urdf'
    run('urdf', UR5, '-o', path, '--prefix', 'a/')
    assert path.read_text() == Chain.from_yaml(UR5).to_urdf('a/')
    assert run('urdf', UR5)[0] == Chain.from_yaml(UR5).to_urdf()
    _, err = run('urdf', UR5, '--prefix', '/a/', code=1)
    assert 'prefix: a frame prefix is parts of letters' in err and 'it starts with /' in err


@pytest.mark.parametrize('order, table, extra', [
    ('corke', UR5_TABLE, []),
    ('corke', '[0 89.159e-3 0 90; 0 0 -0.425 0; 0 0 -0.39225 0; 0 0.10915 0 90; '
              '0 0.09465 0 -90; 0 0.0823 0 0]', ['--deg']),
    ('scilab', '[pi/2 0 0 0.089159; 0 -0.425 0 0; 0 -0.39225 0 0; pi/2 0 0 0.10915; '
               '-pi/2 0 0 0.09465; 0 0 0 0.0823]', []),
    ('matlab', 'CSV', []),
])
def test_convert_round_trips_the_ur5_table(tmp_path, order, table, extra):
    if table == 'CSV':
        table = tmp_path / 'ur5.csv'
        table.write_text('# UR5, MATLAB order\na,alpha,d,theta\n0,pi/2,0.089159,0\n'
                         '-0.425,0,0,0\n-0.39225,0,0,0\n0,pi/2,0.10915,0\n0,-pi/2,0.09465,0\n'
                         '0,0,0.0823,0\n')
    path = tmp_path / 'ur5.yaml'
    names = 'shoulder_pan_joint,shoulder_lift_joint,elbow_joint,wrist_1_joint,wrist_2_joint,' \
            'wrist_3_joint'
    out, _ = run('convert', table, '--order', order, '--joint-names', names, '--name', 'ur5',
                 '-o', path, *extra)
    assert out.startswith(f'wrote {path}: 6 joints')
    assert 'OK: ur5, 6 joints' in run('check', path)[0]
    converted, shipped = Chain.from_yaml(path), Chain.from_yaml(UR5)
    assert converted.joint_names == shipped.joint_names
    q = np.random.default_rng(5).uniform(-3.0, 3.0, (20, 6))
    np.testing.assert_allclose(converted.fkine_all(q), shipped.fkine_all(q), atol=1e-12)
    # Model -> table -> model: the DH columns come back exactly.
    rows = [[link.theta, link.d, link.a, link.alpha] for link in converted.links]
    again = chain_from_table(rows, 'corke', joint_names=list(converted.joint_names))
    assert again.to_params()['elbow_joint'] == converted.to_params()['elbow_joint']


@pytest.mark.parametrize('args, message', [
    (['[0 0 x 0]', '--order', 'corke'], "row 1: table: 'x' is not a number"),
    (['[0 0 0.1]', '--order', 'corke'], 'row 1: row: must be a row of numbers laid out as'),
    (['[0 0 0.1 0 2]', '--order', 'corke'], 'sigma must be 0 (revolute) or 1 (prismatic)'),
    (['[0 0 0.1 0; 0 0 0 0]', '--order', 'corke', '--joint-names', 'a'],
     '--joint-names: 2 names expected'),
    (['[0 0 0.1 0', '--order', 'corke'], 'a matrix literal must end with "]"'),
    (['missing.csv', '--order', 'corke'], 'missing.csv: cannot read the table'),
])
def test_convert_refuses_a_bad_table_in_one_line(tmp_path, args, message):
    _, err = run('convert', *args, '-o', tmp_path / 'out.yaml', code=1, cwd=tmp_path)
    assert message in err
    assert not (tmp_path / 'out.yaml').exists()  # nothing half-written


def _png_size(path):
    data = path.read_bytes()
    assert data[:8] == b'\x89PNG\r\n\x1a\n' and data[12:16] == b'IHDR'
    return struct.unpack('>II', data[16:24])


@needs_matplotlib
def test_plot_renders_a_png_of_the_asked_size(tmp_path):
    path = tmp_path / 'ur5.png'
    out, _ = run('plot', UR5, '--q-name', 'home', '-o', path, '--limits', '--size', '640x480')
    assert out == f'wrote {path} (640x480)\n'
    assert _png_size(path) == (640, 480) and path.stat().st_size > 10_000
    stanford = tmp_path / 'stanford.png'
    run('plot', CONFIG / 'stanford.yaml', '0', '30', '0.5', '0', '45', '0', '--deg',
        '--limits', '-o', stanford)
    assert _png_size(stanford) == (800, 600)
    run('plot', UR5, '-o', path, '--size', '10x10', code=2)
    assert 'cannot write the picture' in run('plot', UR5, '-o', tmp_path / 'no' / 'x.png',
                                             code=1)[1]


def test_plot_says_how_to_get_matplotlib_when_it_is_missing(tmp_path):
    _, err = run_cli_without('matplotlib', 'plot', UR5, '-o', tmp_path / 'x.png', code=1)
    assert err == ('dh_kinematics plot: error: plot needs matplotlib, which is not installed: '
                   'pip install matplotlib (or apt install python3-matplotlib)\n')


def test_the_guide_pictures_are_the_shipped_arms():
    guide = (PACKAGE / 'doc' / 'configuring.md').read_text()
    for model in ('panda', 'puma560', 'puma560_mdh', 'stanford', 'ur5'):
        picture = PACKAGE / 'doc' / 'images' / f'{model}.png'
        assert f'](images/{model}.png)' in guide and _png_size(picture) == (640, 480)
    # The README's picture is the browser view's (test_view.py drives the page it shows).
    assert '](doc/images/view.png)' in (PACKAGE / 'README.md').read_text()
    assert _png_size(PACKAGE / 'doc' / 'images' / 'view.png')[0] >= 640


def test_degrees_go_to_radians_only_for_angles():
    chain = chain_from_table([[0.0, 0.2, 0.1, 90.0, 0.0, 45.0], [30.0, 0.0, 0.1, 0.0, 1.0, 0.3]],
                             'corke', degrees=True)
    assert chain.links[0].alpha == pytest.approx(math.pi / 2)
    assert chain.links[0].offset == pytest.approx(math.pi / 4)  # revolute: an angle
    assert chain.links[1].theta == pytest.approx(math.pi / 6)
    assert chain.links[1].offset == 0.3  # prismatic: a length


@pytest.mark.parametrize('command', ['check', 'show', 'fk', 'urdf', 'convert', 'plot',
                                     'monitor'])
def test_every_subcommand_has_help_and_refuses_a_bad_file(command, tmp_path):
    out, _ = run(command, '--help')
    assert out.startswith(f'usage: dh_kinematics {command}')
    if command in ('check', 'show', 'fk', 'urdf', 'plot'):
        bad = tmp_path / 'tabs.yaml'
        bad.write_text(PUMA.read_text().replace('      a: 0.0', '\ta: 0.0', 1))
        extra = ['-o', tmp_path / 'x.png'] if command == 'plot' else []
        _, err = run(command, bad, *extra, code=1)
        assert 'not valid YAML' in err and 'indent with spaces, not tabs' in err


def test_check_strict_refuses_a_model_with_warnings(tmp_path):
    assert run('check', '--strict', UR5)[0].startswith(f'{UR5}: OK: ur5')  # options first
    millimetres = tmp_path / 'mm.yaml'
    millimetres.write_text(UR5.read_text().replace('d: 0.089159', 'd: 89.159', 1))
    out, _ = run('check', millimetres)
    assert out.splitlines()[-3].startswith(f'{millimetres}: OK with warnings: ur5')
    out, err = run('check', millimetres, '--strict', code=1)
    assert err == 'dh_kinematics check: error: --strict: 1 warning (above, on stdout)\n'
    assert out.splitlines()[0] == ('warning: unusual model value: shoulder_pan_joint.d: 89.159 '
                                   'm is longer than 10 m; metres are expected (millimetres?)')
    assert out.splitlines()[-3].startswith(f'{millimetres}: refused by --strict: ur5')


def test_fk_prints_every_digit_and_notes_joints_past_their_limits():
    chain = Chain.from_yaml(PUMA)
    q = [3.0, -0.5, 0.3, 1.0, -0.7, 2.0]  # joint1's upper limit is 160 deg
    out, _ = run('fk', PUMA, '--precision', 'full', *q, '--jacobian')
    lines = out.splitlines()
    tool = lines[chain.n + 1]
    xyz = [float(v) for v in tool.split('xyz=[')[1].split(']')[0].split(', ')]
    assert xyz == chain.fkine(q)[:3, 3].tolist()  # exactly: shortest round-trip text
    assert [float(v) for v in lines[chain.n + 3].split()] == chain.jacob0(q)[0].tolist()
    upper = chain.links[0].qlim[1]
    assert lines[-1] == (f'note: joint1 = 3.0 rad is above its upper limit {upper!r} rad (by '
                         f'{3.0 - upper!r})')
    out, _ = run('fk', PUMA, '--deg', '--precision', '3', -170, 0, 0, 0, 0, 0)
    assert out.splitlines()[-1] == 'note: joint1 = -170 deg is below its lower limit -160 deg ' \
                                   '(by 10)'
    assert 'note:' not in run('fk', PUMA)[0]
    _, err = run('fk', PUMA, '--precision', '18', code=2)
    assert "'18': 1 to 17 significant digits, or full" in err


def test_show_dyn_has_the_digits_of_a_datasheet():
    out, _ = run('show', PUMA, '--dyn')
    assert 'B     =       0.00148 ' in out and 'G     =      -62.6111 ' in out
    out, _ = run('show', '--precision', 'full', '--dyn', PUMA)  # any order
    link = Chain.from_yaml(PUMA).links[0]
    assert f'G     =  {link.G!r:>24} ' in out


def test_convert_carries_limits_flip_and_dynamics(tmp_path):
    table = tmp_path / 'arm.csv'
    table.write_text('theta,d,a,alpha,qmin,qmax,flip,m,rx,ry,rz,Ixx,Iyy,Izz,Ixy,Iyz,Ixz,Jm,G,'
                     'B,Tc+,Tc-,effort_limit,velocity_limit\n'
                     '0,0.1,0,90,-170,170,1,2.5,0,0,0.1,0.01,0.01,0.005,0,0,0,1e-4,50,1e-3,0.2,'
                     '-0.25,80,2.5\n'
                     '0,0,0.4,0,-90,90,0,1.5,-0.2,0,0,0.002,0.03,0.03,0,0,0,0,1,0,0,0,40,3\n')
    path = tmp_path / 'arm.yaml'
    run('convert', '--deg', table, '--order', 'corke', '-o', path)  # options first
    first, second = Chain.from_yaml(path).links
    assert first.flip and not second.flip
    np.testing.assert_allclose(first.qlim, np.radians([-170.0, 170.0]), rtol=1e-15)
    assert (first.m, first.Jm, first.G, first.B, tuple(first.Tc)) == (
        2.5, 1e-4, 50.0, 1e-3, (0.2, -0.25))
    np.testing.assert_array_equal(first.r, [0.0, 0.0, 0.1])
    np.testing.assert_array_equal(np.diag(second.I), [0.002, 0.03, 0.03])
    assert (second.effort_limit, second.velocity_limit) == (40.0, 3.0)
    # Corke's legacy DYN matrix (the Scilab dyn row): the dynamics come with the row.
    dyn = path.with_name('dyn.yaml')
    run('convert', '[pi/2 0 0 0.1 0 2 0 0 0.1 0.01 0.01 0.005 0 0 0 1e-4 50 1e-3 0.2 -0.2]',
        '--order', 'dyn', '-o', dyn)
    link = Chain.from_yaml(dyn).links[0]
    assert (link.alpha, link.d, link.m, link.G, tuple(link.Tc)) == (
        math.pi / 2, 0.1, 2.0, 50.0, (0.2, -0.2))
    for header, message in (('theta,d,a,alpha,qmin\n0,0,0,0,1', 'qmin and qmax come together'),
                            ('theta,d,a,alpha,rx\n0,0,0,0,1', 'r needs rx, ry, rz (missing ry'),
                            ('theta,d,a,alpha,flip\n0,0,0,0,2', 'flip: must be 0 or 1, got 2'),
                            ('theta,d,a,alpha,m\n0,0,0,0', '5 values expected (one per header')):
        table.write_text(header + '\n')
        assert message in run('convert', table, '--order', 'corke', '-o', path, code=1)[1]
    assert 'a DYN row has 16 to 20 columns, got 4' in run(
        'convert', '[0 0 0 0]', '--order', 'dyn', '-o', path, code=1)[1]
