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
The command line against hostile input (issue 41): what a file holds never writes another.

Every text that reaches a YAML, XML or xacro file is escaped, every input file is read in
bounded work, every output is written whole or not at all, and every failure is one line.
"""

import math
import os
import resource
import signal
import subprocess
import sys

from dh_kinematics import Chain, Link
from helpers import CLI_COMMAND, needs, needs_matplotlib, optional, PACKAGE, run_cli as run
from processes import spawn
import pytest
import yaml

CONFIG = PACKAGE / 'config'
PUMA, UR5 = CONFIG / 'puma560.yaml', CONFIG / 'ur5.yaml'
xacro = optional('xacro')
TWO_LINKS = """<robot name="two">
  <link name="base"/><link name="a"/><link name="tip"/><link name="finger"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="fixed"><parent link="a"/><child link="tip"/>
    <origin xyz="0.3 0 0"/></joint>
  <joint name="{finger}" type="prismatic"><parent link="tip"/><child link="finger"/>
    <axis xyz="1 0 0"/><limit lower="0" upper="0.04" effort="1" velocity="1"/></joint>
</robot>
"""


def _model_values(path):
    return yaml.safe_load(path.read_text())['/**']['ros__parameters']


def test_a_urdf_name_cannot_write_keys_into_the_model_file(tmp_path):
    # Issue 41 (3): a line break in a joint's name broke out of the '# note:' comment.
    urdf = tmp_path / 'evil.urdf'
    urdf.write_text(TWO_LINKS.format(
        finger='f&#10;    diagnostics.stale_timeout: 3600.0&#10;#&#13;x&#x2028;y'))
    model = tmp_path / 'evil.yaml'
    run('from-urdf', urdf, '--base', 'base', '--tip', 'tip', '-o', model)
    values = _model_values(model)
    assert 'diagnostics' not in values and 'diagnostics.stale_timeout' not in values
    comments = [line for line in model.read_text().splitlines() if line.startswith('#')]
    assert any('f\\n    diagnostics.stale_timeout: 3600.0\\n#\\rx\\u2028y' in line
               for line in comments), comments
    run('check', '--strict', model)


def test_the_moveit_group_and_robot_name_stay_what_they_are(tmp_path):
    # Issue 41 (3): --group went unquoted into kinematics.yaml, robot_name into file paths.
    params = Chain.from_yaml(UR5).to_params()
    for name in ('../outside/ur5', str(tmp_path / 'absolute' / 'ur5'), '..'):
        params['robot_name'] = name
        model = tmp_path / 'model.yaml'
        Chain.from_params(params).to_yaml(model)
        out_dir = tmp_path / 'moveit'
        group = 'left_arm2'
        run('moveit', model, '-o', out_dir, '--group', group, '--samples', '0')
        written = sorted(os.listdir(out_dir))
        assert all('/' not in file and file not in ('.', '..') for file in written)
        assert not (tmp_path / 'outside').exists() and not (tmp_path / 'absolute').exists()
        kinematics = yaml.safe_load((out_dir / 'kinematics.yaml').read_text())
        assert list(kinematics) == [group]
        solver = kinematics[group]['kinematics_solver']
        assert solver == 'kdl_kinematics_plugin/KDLKinematicsPlugin'
        srdf = next(file for file in written if file.endswith('.srdf'))
        from xml.etree import ElementTree
        assert ElementTree.parse(out_dir / srdf).getroot().find('group').get('name') == group


@pytest.mark.parametrize('group', ['', 'arm\n  kinematics_solver: evil/Plugin\nother',
                                   '2arm', 'arm.left', 'tool', 'a\u0663'])
def test_a_moveit_group_is_a_name_moveit_reads(tmp_path, group):
    # Issue 58 (9): --group '' wrote <group name=""> and a '' key into kinematics.yaml.
    _, err = run('moveit', UR5, '-o', tmp_path / 'moveit', '--group', group, code=1)
    assert f'group: {group!r} must be a letter, then letters, digits or _' in err
    assert not (tmp_path / 'moveit').exists()


def test_a_plugin_name_is_ascii_as_pluginlib_reads_it(tmp_path):
    # Issue 58 (9): a ros2_control plugin name with an Arabic-Indic digit was written.
    model = tmp_path / 'control.yaml'
    model.write_text(PUMA.read_text().replace(
        'ros__parameters:\n', 'ros__parameters:\n    ros2_control.plugin: a\u0663/B\n', 1),
        encoding='utf-8')
    _, err = run('check', model, code=1)
    assert "ros2_control.plugin: must be '' (none), 'mock' or a hardware plugin class" in err


@pytest.mark.skipif(xacro is None, reason='xacro is not installed')
def test_xacro_reads_a_mesh_uri_back_as_written(tmp_path):
    # Issue 41 (3): $(env HOME) and ${load_yaml(...)} in a mesh URI were run by xacro.
    secret = tmp_path / 'secret.yaml'
    secret.write_text('key: SECRET\n')
    params = Chain.from_yaml(PUMA).to_params()
    visual = 'package://vendor/$(env HOME)/$$(x)/a.stl'
    collision = f'file://{tmp_path}/${{load_yaml("{secret}")}}.stl'
    params['meshes'] = {'link2': {'visual': visual, 'collision': collision}}
    model = tmp_path / 'meshes.yaml'
    Chain.from_params(params).to_yaml(model)
    macro = tmp_path / 'arm.urdf.xacro'
    run('urdf', model, '--xacro', '-o', macro)
    cell = tmp_path / 'cell.urdf.xacro'
    cell.write_text('<robot name="cell" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                    f'<xacro:include filename="{macro}"/><link name="world"/>'
                    '<xacro:puma560 prefix="" parent="world"/></robot>')
    expanded = xacro.process_file(str(cell)).toxml()
    assert 'SECRET' not in expanded
    from xml.etree import ElementTree
    uris = {mesh.get('filename') for mesh in ElementTree.fromstring(expanded).iter('mesh')}
    assert uris == {visual, collision}, uris


def _measurements(tmp_path, bom=False):
    from dh_kinematics.core.calibration import measurements
    import numpy as np

    chain = Chain.from_yaml(UR5)
    rng = np.random.default_rng(41)
    q = chain.random_q(60, rng)
    points = np.array([chain.fkine(x)[:3, 3] for x in q]) + rng.normal(0.0, 1e-5, (60, 3))
    path = tmp_path / 'tracker.csv'
    measurements.write(path, chain.joint_names, measurements.Measurements(q, points, None))
    if bom:
        path.write_bytes(b'\xef\xbb\xbf' + path.read_bytes())
    return path


@pytest.mark.parametrize('command', [
    ['from-urdf', '{fifo}', '--base', 'a', '--tip', 'b', '-o', '{out}'],
    ['calibrate', str(UR5), '{fifo}', '-o', '{out}'],
    ['calibrate', str(UR5), '{data}', '--validate', '{fifo}', '-o', '{out}'],
    ['convert', '{fifo}', '--order', 'corke', '-o', '{out}'],
    ['calibrate', str(UR5), '/dev/zero', '-o', '{out}'],
])
def test_every_input_file_is_read_in_bounded_work(tmp_path, command):
    # Issue 41 (8): a FIFO blocked from-urdf, calibrate and --validate forever; calibrate read
    # /dev/zero until memory ran out.
    fifo = tmp_path / 'fifo'
    os.mkfifo(fifo)
    values = {'fifo': fifo, 'out': tmp_path / 'out.yaml', 'data': _measurements(tmp_path)}
    _, err = run(*[part.format(**values) for part in command], code=1)
    kind = 'a character device' if '/dev/zero' in command else 'a FIFO'
    assert f'it is {kind}, not a regular file' in err, err
    assert not (tmp_path / 'out.yaml').exists()


def test_a_csv_with_a_byte_order_mark_reads_as_without(tmp_path):
    # Issue 41 (10): a UTF-8 BOM was taken as part of the first column's name.
    run('calibrate', UR5, _measurements(tmp_path, bom=True), '-o', tmp_path / 'cal.yaml')


def _limited(size):
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_a_write_that_fails_part_way_leaves_the_old_file(tmp_path):
    # Issue 41 (9): a write that failed part way (a full disk) left a truncated file: after
    # convert MY.yaml --to standard -o MY.yaml the model passed check with limits gone.
    # (Over its own input it is refused now: issue 71 (2).)
    model, old = tmp_path / 'my.yaml', tmp_path / 'old.yaml'
    model.write_text(PUMA.read_text().replace('/**:', '/**:  # the original', 1))
    old.write_bytes(model.read_bytes())
    before = model.read_bytes()
    process = spawn(CLI_COMMAND + ['convert', str(model), '--to', 'modified', '-o', str(old)],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                    preexec_fn=_limited(len(before) // 2))
    out, err = process.communicate(timeout=120)
    assert process.returncode == 1 and err.count('\n') == 1, (out, err)
    assert 'cannot write the model file' in err
    assert old.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ['my.yaml', 'old.yaml']  # no temporary file left


def test_ctrl_c_is_one_line_and_code_130(tmp_path):
    # Issue 41 (10): Ctrl-C during a long command gave a traceback.
    process = spawn(CLI_COMMAND + ['from-urdf', '--topic', '/nobody_publishes_this',
                                   '--timeout', '600', '--base', 'a', '--tip', 'b', '-o',
                                   str(tmp_path / 'out.yaml')],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().startswith('waiting for the URDF on /nobody_publishes')
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, (out, err)
    assert err == 'dh_kinematics from-urdf: interrupted\n', err


def test_a_reader_that_leaves_early_ends_the_command_quietly():
    # Seen in issue 57: dh_kinematics show ... | head ended with "error: : Broken pipe".
    process = spawn(CLI_COMMAND + ['show', str(PUMA), '--dyn'], stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE, text=True)
    process.stdout.close()  # no reader left before it writes a line
    err = process.stderr.read()
    assert process.wait(timeout=120) == 141 and err == '', err


@pytest.mark.parametrize('args, message', [
    (['from-urdf', '--topic', '/a b', '--base', 'a', '--tip', 'b', '-o', 'x.yaml'],
     "--topic '/a b': not a topic name ROS takes"),
    (['from-urdf', '--topic', '/a', '--timeout', '1e308', '--base', 'a', '--tip', 'b', '-o',
      'x.yaml'], '--timeout: must be within (0, 3600] s'),
    (['ik', str(UR5), '--xyz', '1e308', '0', '0'], '--xyz: each must be within +-1000 m'),
    (['ik', str(UR5), '--xyz', '0.3', '0', '0', '--rpy', '1e308', '0', '0'],
     '--rpy: each must be within +-6.28319 rad'),
    (['ik', str(UR5), '--xyz', '0.3', '0', '0', '--q0', '1e308', '0', '0', '0', '0', '0'],
     'q0: must be within +-1e+06 (rad or m)'),
])
def test_out_of_range_input_is_one_line_without_numpy_warnings(tmp_path, args, message):
    # Issue 41 (10): tracebacks and numpy RuntimeWarnings for such input.
    _, err = run(*args, code=1, cwd=tmp_path)
    assert message in err and 'Warning' not in err, err


def test_ik_from_far_past_the_limits_or_without_them_is_an_answer(tmp_path):
    # Issue 41 (10): --q0 two turns past the limits gave an IndexError; a far target on an
    # unlimited prismatic arm an OverflowError.
    out, err = run('ik', UR5, '--xyz', '0.4', '0.1', '0.3', '--q0', '16', '0', '0', '0', '0',
                   '0')
    assert 'solutions within the limits' in out and 'Warning' not in err
    cart = Chain([Link(joint='prismatic', alpha=-math.pi / 2, name='x'),
                  Link(joint='prismatic', alpha=-math.pi / 2, theta=-math.pi / 2, name='y'),
                  Link(joint='prismatic', name='z')], name='cart')
    cart.to_yaml(tmp_path / 'cart.yaml')
    out, err = run('ik', tmp_path / 'cart.yaml', '--xyz', '900', '0', '0', '--mask', '1', '1',
                   '1', '0', '0', '0', code=None)
    assert 'Traceback' not in err and 'Warning' not in err, err


def test_moveit_samples_are_bounded(tmp_path):
    # Issue 41 (8): --samples 1000000000 allocated 45 GB.
    _, err = run('moveit', UR5, '-o', tmp_path, '--samples', '1000000000', code=2)
    assert "'1000000000': 0 to 100000 configurations" in err


def test_check_refuses_a_rate_cap_the_node_refuses(tmp_path):
    # Issue 41 (1): the node crashed at start on tf.max_rate 1e-300 while check said OK.
    model = tmp_path / 'capped.yaml'
    model.write_text(PUMA.read_text().replace('ros__parameters:\n',
                                              'ros__parameters:\n    tf.max_rate: 1.0e-300\n', 1))
    _, err = run('check', model, code=1)
    assert 'tf.max_rate: must be 0 (every message) or within [0.001, 1e+06] Hz' in err


@pytest.mark.parametrize('value', ['.nan', '-.inf', '0.0'])
def test_check_refuses_a_safety_limit_that_is_no_limit(tmp_path, value):
    # Issue 58 (1): NaN or -inf switched the momentum and tool direction statuses off, silently.
    for name in ('safety.momentum_limit', 'safety.tool_direction.limit'):
        model = tmp_path / 'limit.yaml'
        model.write_text(PUMA.read_text().replace(
            'ros__parameters:\n', f'ros__parameters:\n    {name}: {value}\n', 1))
        _, err = run('check', model, code=1)
        assert f'{name}: must be > 0, or .inf for off' in err


def _with_settings(tmp_path, text, model=PUMA):
    path = tmp_path / 'model.yaml'
    path.write_text(model.read_text().replace('ros__parameters:\n',
                                              'ros__parameters:\n' + text, 1))
    return path


def test_a_plane_with_no_point_to_judge_is_refused_as_the_node_refuses_it(tmp_path):
    # Issue 71 (1): check said OK; the node died on the first message.
    model = _with_settings(tmp_path, '    safety.planes.table: [0.0, 0.0, 1.0, -0.5]\n')
    _, err = run('check', model, code=1)
    assert ('safety.plane_frames: must name a frame (or safety.tool_spheres a sphere) to judge '
            "against safety.planes.table: no point is judged against a plane otherwise, got ['']"
            ) in err, err
    spheres = _with_settings(tmp_path, '    safety.planes.table: [0.0, 0.0, 1.0, -0.5]\n'
                             '    safety.tool_spheres: [0.0, 0.0, 0.1, 0.05]\n')
    run('check', spheres)


def test_thresholds_of_a_monitor_left_off_are_a_warning(tmp_path):
    # Issue 71 (13): check printed "44 pairs judged" and the node judged nothing.
    model = _with_settings(tmp_path, '    safety.self_collision.warn_distance: 0.08\n')
    out, _ = run('check', model)
    assert ('warning: safety.self_collision.warn_distance set, but safety.self_collision.enabled'
            ' is false: no self-collision is judged (set it true)') in out
    assert 'pairs to judge once safety.self_collision.enabled is true' in out
    _, err = run('check', model, '--strict', code=1)
    assert '--strict: 1 warning' in err
    on = _with_settings(tmp_path, '    safety.self_collision.warn_distance: 0.08\n'
                        '    safety.self_collision.enabled: true\n')
    out, _ = run('check', on)
    assert 'warning' not in out and 'pairs judged' in out


@pytest.mark.parametrize('command', [
    ['moveit', '{model}', '{limits}', '-o', '{here}', '--samples', '0'],
    ['identify', '{model}', '{log}', '-o', '{log}'],
    ['identify', '{model}', '{log}', '-o', '{model}'],
    ['excite', '{model}', '-o', '{model}'],
    ['convert', '{model}', '--to', 'modified', '-o', '{link}'],
    ['calibrate', '{model}', '{log}', '-o', '{log}'],
    ['from-urdf', '{urdf}', '--base', 'base', '--tip', 'tip', '-o', '{urdf}'],
    ['urdf', '{model}', '-o', '{model}'],
    ['plot', '{model}', '-o', '{model}'],
])
def test_no_command_writes_over_one_of_its_inputs(tmp_path, command):
    # Issue 71 (2): identify -o LOG.csv replaced the log, excite -o M the model.
    model, log, urdf = tmp_path / 'm.yaml', tmp_path / 'log.csv', tmp_path / 'arm.urdf'
    model.write_text(PUMA.read_text())
    log.write_text('time,a\n0,1\n')
    urdf.write_text(TWO_LINKS.format(finger='j3'))
    (tmp_path / 'link.yaml').symlink_to(model)
    limits = tmp_path / 'joint_limits.yaml'  # moveit -o writes one of this name
    limits.write_text('/**:\n  ros__parameters: {}\n')
    before = {path: path.read_bytes() for path in (model, log, urdf, limits)}
    values = {'model': model, 'log': log, 'urdf': urdf, 'link': tmp_path / 'link.yaml',
              'limits': limits, 'here': tmp_path}
    args = [part.format(**values) for part in command]
    _, err = run(*args, code=1)
    output = args[args.index('-o') + 1]
    output = os.path.join(output, 'joint_limits.yaml') if output == str(tmp_path) else output
    assert f'-o {output}: is also an input of the command' in err, err
    assert len(err.splitlines()) == 1
    assert {path: path.read_bytes() for path in before} == before


@needs('threadpoolctl', 'pip install threadpoolctl, or apt install python3-threadpoolctl')
@pytest.mark.parametrize('given, threads', [(None, 1), ('2', 2)])
def test_a_command_runs_one_blas_thread_unless_the_user_says(given, threads):
    # Issue 71 (10): on a loaded 2-core machine identify took 10 to 13 times longer with
    # OpenBLAS's thread per core (459 s against 74 s for one simulated Stanford arm).
    code = ('import sys; from dh_kinematics.cli.entry import main; main(sys.argv[1:]); '
            'from threadpoolctl import threadpool_info; '
            "print(max(pool['num_threads'] for pool in threadpool_info()))")
    env = {name: value for name, value in os.environ.items()
           if not name.endswith('_NUM_THREADS')}
    if given:
        env['OPENBLAS_NUM_THREADS'] = given
    out = subprocess.run([sys.executable, '-c', code, 'fk', str(PUMA)], env=env,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.splitlines()[-1] == str(threads), out


@needs('scipy', 'pip install scipy, or apt install python3-scipy')
@needs_matplotlib
@pytest.mark.parametrize('command', [
    ['identify', '{model}', '{log}', '-o', '{out}', '--report', '{report}'],
    ['calibrate', '{model}', '{log}', '-o', '{out}', '--report', '{report}'],
    ['replay', '{model}', '{log}', '--report', '{report}'],
])
def test_a_report_never_writes_into_a_folder_that_holds_files(tmp_path, command):
    # Issue 71 (16): identify --report DIR overwrote a user's index.html; every report folder
    # is new or empty, checked before the log is read, and written whole.
    report = tmp_path / 'report'
    report.mkdir()
    (report / 'index.html').write_text('mine')
    values = {'model': UR5, 'log': tmp_path / 'missing.csv', 'out': tmp_path / 'out.yaml',
              'report': report}
    _, err = run(*[part.format(**values) for part in command], code=1)
    assert f'--report: {report} exists and is not an empty folder' in err, err
    assert os.listdir(report) == ['index.html'] and (report / 'index.html').read_text() == 'mine'
    assert not (tmp_path / 'out.yaml').exists()
