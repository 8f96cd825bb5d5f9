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

"""The node's parameters as an operator meets them: files, typos, dump and load, `param set`."""

import re

from dh_kinematics import Chain
from dh_kinematics.node_logic.schedule import TICK_S
from helpers import PACKAGE, run_cli
from processes import run_module
import pytest
from ros_fixtures import interrupt, Probe, read_line, refused_start, Running, start_node
import yaml

from dh_kinematics.ros.node import DhKinematicsNode  # noqa: I100
from dh_kinematics.ros.sim_arm import SimArm  # noqa: I100

from rcl_interfaces.msg import ParameterType  # noqa: I100
from rcl_interfaces.srv import GetParameters, ListParameters  # noqa: I100
from rclpy.parameter import Parameter, parameter_value_to_python  # noqa: I100

pytestmark = pytest.mark.ros

PANDA = PACKAGE / 'config' / 'panda.yaml'
STANFORD = PACKAGE / 'config' / 'stanford.yaml'
EXECUTABLES = {'dh_kinematics.ros.node': (DhKinematicsNode, 'dh_kinematics', 'dh_kinematics_node'),
               'dh_kinematics.ros.sim_arm': (SimArm, 'sim_arm', None)}
"""Each executable's module: its node, its name and the executable the usage line names."""
PUMA = PACKAGE / 'config' / 'puma560.yaml'


def _edited(tmp_path, old, new, source=PANDA):
    text = source.read_text()
    assert old in text, old
    path = tmp_path / 'edited.yaml'
    path.write_text(text.replace(old, new, 1))
    return str(path)


JOINT2 = '    panda_joint2:\n'
FILE_MISTAKES = [
    ('      qlim: [-1.7628, 1.7628]', '      qlimit: [-1.7628, 1.7628]',
     'panda_joint2.qlimit: is not a joint field (fields: type, a, alpha, beta, d, theta, offset, '
     'flip, qlim, m, r, I, Jm, G, B, Tc, effort_limit, velocity_limit, acceleration_limit, '
     'deceleration_limit, jerk_limit, soft_limits, k_position, k_velocity, collision) (did '
     'you mean '
     'qlim?)'),
    ('      alpha: -1.5707963267948966', '      alpah: -1.5707963267948966',
     'panda_joint2.alpah: is not a joint field'),
    ('      offset: 0.0', '      ofset: 0.0', '.ofset: is not a joint field'),
    ('    base:', '    bsae:', 'bsae.xyz: is not a model parameter or a setting of the node '
     '(did you mean base.xyz?)'),
    (JOINT2, '    panda_joint8:\n      qlim: [-1.0, 1.0]\n' + JOINT2,
     "panda_joint8.qlim: belongs to a block 'panda_joint8' that is not listed in joints"),
    ('      alpha: -1.5707963267948966', '      alpha: 90.0',
     'panda_joint2.alpha: must be within +-2 pi: radians are expected (90 rad; did you mean '
     '1.5708?)'),
    ('      qlim: [-1.7628, 1.7628]', '      qlim: [1.7628, -1.7628]',
     'panda_joint2.qlim: must be (lower, upper)'),
    ('      qlim: [-1.7628, 1.7628]', '      qlim: [-2, 2.0]',
     'line 45: panda_joint2.qlim: a list mixes types ([-2, 2.0]), which ROS 2 cannot read; write '
     'them all as real numbers: [-2.0, 2.0]'),
    ('      qlim: [-1.7628, 1.7628]', '\tqlim: [-1.7628, 1.7628]',
     "not valid YAML: found character '\\t' that cannot start any token; indent with spaces"),
    ('/**:', 'panda_arm:', "no model parameters reached node '/dh_kinematics': the parameter "
     "file has 'panda_arm' in "),
    ('      offset: 0.0', '      offset: 1.0e308', 'offset: must be within +-2 pi'),
    ('      B: 0.0', '      B: 1.0e308', 'B: must be within +-1e+06 (SI units)'),
    # A file whose reading would never end, or has no end: refused before rcl reads it.
    ('    robot_name: panda', '    robot_name: &name panda\n    nickname: *name',
     'line 11: an alias (*name), which ROS 2 cannot read; write the value out'),
    ('    gravity:', '    deep: ' + '[' * 5000 + ']' * 5000 + '\n    gravity:',
     'line 16: nested deeper than 32 levels, which no model needs (a model file nests 5)'),
    ('    gravity:', '    deep: ' + '{a: ' * 3000 + '1' + '}' * 3000 + '\n    gravity:',
     'line 16: nested deeper than 32 levels'),
    ('    gravity:', '    big: "' + 'x' * (1 << 20) + '"\n    gravity:',
     'the parameter file is larger than 1 MiB, which no parameter file needs'),
    # Names that ROS cannot carry, or that would give two frames or URDF joints one name.
    ('    tool_frame: panda_hand_tcp', '    tool_frame: panda_link3',
     'tool_frame: the tool frame is also the frame of link 3; every frame on TF needs a name '
     "of its own, got 'panda_link3'"),
    ('    tool_frame: panda_hand_tcp', '    tool_frame: "hand\\x1b[31m"',
     'tool_frame: a frame name is parts of letters, digits, _, - and . joined by / (no space, '
     "no / at either end); character 5 is U+001B, got 'hand\\x1b[31m'"),
    ('    robot_name: panda', '    robot_name: "panda\\ufffe"',
     "robot_name: must be printable text; character 6 is U+FFFE, got 'panda\\ufffe'"),
]


@pytest.mark.parametrize('old, new, message', FILE_MISTAKES,
                         ids=[message[:48] for _, _, message in FILE_MISTAKES])
def test_a_file_mistake_stops_the_node_with_one_line(tmp_path, old, new, message, capfd):
    path = _edited(tmp_path, old, new)
    code, output = refused_start(*EXECUTABLES['dh_kinematics.ros.node'][:2],
                                 ['--ros-args', '--params-file', path], capfd,
                                 'dh_kinematics_node')
    assert code == 1 and message in output, output
    assert len(output.splitlines()) == 1 and 'Traceback' not in output, output


@pytest.mark.parametrize('name, message', [
    ('world_to_panda_link0', 'joints[1]: joint 2 is also the fixed joint <world>_to_<base>; '
     "every URDF joint needs a name of its own, got 'world_to_panda_link0'"),
    ('panda_link7_to_panda_hand_tcp', 'joints[1]: joint 2 is also the fixed joint <last '
     'link>_to_<tool>'),
    ('"panda\\x01joint2"', 'joints[1]: a joint name is letters, digits, _, - and . (no / or '
     "space); character 6 is U+0001, got 'panda\\x01joint2'"),
    ('left/joint2', 'joints[1]: a joint name is letters, digits, _, - and . (no / or space); '
     "character 5 is '/' U+002F"),
    ('base', "joints[1]: its first part 'base' is a name the model file uses itself"),
])
def test_a_joint_name_that_cannot_be_published_stops_the_node(tmp_path, name, message, capfd):
    path = tmp_path / 'renamed.yaml'
    path.write_text(PANDA.read_text().replace('panda_joint2', name))
    code, output = refused_start(*EXECUTABLES['dh_kinematics.ros.node'][:2],
                                 ['--ros-args', '--params-file', path], capfd,
                                 'dh_kinematics_node')
    assert code == 1 and message in output, output
    assert len(output.splitlines()) == 1 and 'Traceback' not in output, output


def test_a_joint_name_with_a_dot_is_a_joint_of_its_own(tmp_path):
    # Legal in URDF and joint_states; its parameters are arm.j2.<field>, nested or not.
    path = tmp_path / 'dotted.yaml'
    path.write_text(PANDA.read_text().replace('panda_joint2', 'arm.j2'))
    run = Running(['--params-file', str(path)])
    try:
        assert list(run.node.get_parameter('arm.j2.qlim').value) == [-1.7628, 1.7628]
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('arm.j2.qlim', value=[-1.0, 1.0])])
        assert result.successful, result.reason
        stamp = run.probe.send(['arm.j2'], [1.5])  # inside the old limits, past the new
        assert run.probe.wait_for_stamp('tf', stamp).transforms[0].child_frame_id == (
            'panda_link2')
        run.probe.wait_for('diagnostics', lambda d: any(
            s.name == '/dh_kinematics: arm.j2' and s.level == b'\x02' for s in d.status))
    finally:
        run.stop()


@pytest.mark.parametrize('module, args, message', [
    ('dh_kinematics.ros.node', [], 'no model: give --params-file <model>.yaml; usage: ros2 run '
     'dh_kinematics dh_kinematics_node --ros-args --params-file <model>.yaml'),
    ('dh_kinematics.ros.node', ['--ros-args', '--params-file', '/nonexistent/arm.yaml'],
     '/nonexistent/arm.yaml: cannot read the parameter file: No such file or directory'),
    ('dh_kinematics.ros.node', ['--ros-args', '--params-file', str(PANDA), '-p',
                                'diagnostics.period:=0.0'],
     'diagnostics.period: must be within [0.02, 60], got 0.0'),
    ('dh_kinematics.ros.node', ['--ros-args', '--params-file', str(PANDA), '-p',
                                'monitors.block_period:=0.5'],
     'monitors.block_period: must be within [0, 0.1], got 0.5'),
    ('dh_kinematics.ros.node', ['--ros-args', '--params-file', str(PANDA), '-p',
                                'frame_prefix:=3'], 'frame_prefix: must be a string, got 3'),
    ('dh_kinematics.ros.node', ['--ros-args', '--params-file', str(PANDA), '-p',
                                'frame_prefix:=/left/'],
     'frame_prefix: a frame prefix is parts of letters, digits, _, - and . joined by / and may '
     'end with / (no space, no / at the start); it starts with / (tf2 refuses such a frame id)'),
    ('dh_kinematics.ros.node', ['--ros-args', '--params-file', str(PANDA), '-p',
                                'frame_prefix:=left/', '-p', 'world_frame:=left/panda_link0'],
     "frame_prefix: makes the base frame 'left/panda_link0', the name of the world frame; "
     "every frame on TF needs a name of its own, got 'left/'"),
    ('dh_kinematics.ros.node', ['--ros-args', '--params-file', '/dev/zero'],
     '/dev/zero: cannot read the parameter file: it is a character device, not a regular file'),
    ('dh_kinematics.ros.node', ['--ros-args', '--params-file', str(PANDA.parent)],
     'cannot read the parameter file: it is a directory, not a regular file'),
    ('dh_kinematics.ros.sim_arm', ['--ros-args', '--params-file', str(PANDA), '-p', 'rate:=0.0'],
     'rate: must be within [0.1, 10000], got 0.0'),
    ('dh_kinematics.ros.sim_arm', [], 'usage: ros2 run dh_kinematics sim_arm'),
])
def test_a_start_up_mistake_is_one_line(module, args, message, capfd):
    node_class, name, executable = EXECUTABLES[module]
    code, output = refused_start(node_class, name, args, capfd, executable)
    assert code == 1 and message in output, output
    assert len(output.splitlines()) == 1 and 'Traceback' not in output, output


@pytest.mark.parametrize('module, args, message', [
    ('dh_kinematics.ros.node', [], 'no model: give --params-file <model>.yaml; usage: ros2 run '
     'dh_kinematics dh_kinematics_node --ros-args --params-file <model>.yaml'),
    ('dh_kinematics.ros.sim_arm', ['--ros-args', '--params-file', str(PANDA), '-p', 'rate:=0.0'],
     'rate: must be within [0.1, 10000], got 0.0'),
])
def test_the_executables_say_a_start_up_mistake_in_one_line(module, args, message):
    # The process as a user starts it; the other start-up mistakes run in this process.
    code, output = run_module(module, args)
    assert code == 1 and message in output, output
    assert len(output.splitlines()) == 1 and 'Traceback' not in output, output


def test_integers_and_exponents_are_numbers(tmp_path):
    text = PANDA.read_text().replace('      qlim: [-1.7628, 1.7628]', '      qlim: [-2, 2]', 1)
    text = text.replace('      m: 0.0', '      m: 3', 1).replace('      a: 0.0', '      a: 0', 1)
    text = text.replace('      B: 0.0', '      B: 2e-4', 1)
    path = tmp_path / 'integers.yaml'
    path.write_text(text)
    run = Running(['--params-file', str(path), '-p', 'diagnostics.period:=2'])
    try:
        assert list(run.node.get_parameter('panda_joint2.qlim').value) == [-2.0, 2.0]
        assert run.node.get_parameter('diagnostics.period').value == 2.0
        chain = run.node.config.chain
        assert chain.to_params() == Chain.from_yaml(path).to_params()
        assert 2e-4 in [link.B for link in chain.links]
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('panda_joint1.qlim', value=[-1, 1])])
        assert result.successful, result.reason
        assert run.node.config.chain.links[0].qlim == (-1.0, 1.0)
    finally:
        run.stop()


def _dump(probe, node):
    """Return the node's parameters as `ros2 param dump` writes them (nested, by node name)."""
    names = probe.call(ListParameters, f'{node}/list_parameters',
                       ListParameters.Request()).result.names
    values = probe.call(GetParameters, f'{node}/get_parameters',
                        GetParameters.Request(names=names)).values
    assert len(values) == len(names)
    assert all(value.type != ParameterType.PARAMETER_NOT_SET for value in values)
    params = {}
    for name, value in zip(names, values):
        *parents, last = name.split('.')
        block = params
        for parent in parents:
            block = block.setdefault(parent, {})
        block[last] = parameter_value_to_python(value)
    return {node: {'ros__parameters': params}}


def test_param_dump_gives_a_file_that_starts_an_identical_node(tmp_path):
    first = Running(['--params-file', str(PUMA), '-p', 'frame_prefix:=a/'])
    try:
        dump = _dump(first.probe, '/dh_kinematics')
    finally:
        first.stop()
    path = tmp_path / 'dump.yaml'
    path.write_text(yaml.safe_dump(dump))
    second = Running(['--params-file', str(path)])
    try:
        assert second.node.config.chain.to_params() == first.node.config.chain.to_params()
        assert second.node.config.settings['frame_prefix'] == 'a/'
        assert second.node.config.settings == first.node.config.settings
        # Loading the dump back into the running node changes nothing, and succeeds.
        params = [Parameter(name, value=value) for name, value in
                  yaml.safe_load(path.read_text())['/dh_kinematics']['ros__parameters'].items()
                  if not isinstance(value, dict)]
        results = second.probe.set_parameters('/dh_kinematics', params)
        assert all(result.successful for result in results), results
    finally:
        second.stop()


def _flat(path):
    from dh_kinematics.core.model_file.params import flatten

    return flatten(yaml.safe_load(path.read_text())['/**']['ros__parameters'])


def test_loading_another_arm_is_refused_wholly(tmp_path):
    run = Running(['--params-file', str(PUMA)])
    try:
        before = run.node.config
        params = [Parameter(name, value=value) for name, value in _flat(STANFORD).items()]
        results = run.probe.set_parameters('/dh_kinematics', params)
        assert len(results) == len(params)
        assert all(not r.successful for r in results)
        assert {r.reason for r in results} == {
            'joint3.type: a joint type is fixed at start-up; restart the node with the new '
            "model to change it, got 'prismatic'"}
        assert run.node.config is before
        assert run.node.get_parameter('joint3.d').value == before.chain.links[2].d
        result, = run.probe.set_parameters('/dh_kinematics', [Parameter('joints', value=['a'])])
        assert not result.successful and 'joints: the joint set is fixed at start-up' in (
            result.reason)
    finally:
        run.stop()


def test_a_set_parameters_request_is_applied_wholly_or_not_at_all():
    run = Running(['--params-file', str(PUMA)])
    try:
        before = run.node.config
        results = run.probe.set_parameters('/dh_kinematics', [
            Parameter('joint2.a', value=0.5), Parameter('joint3.alpha', value=90.0)])
        assert [r.successful for r in results] == [False, False]
        assert 'joint3.alpha: must be within +-2 pi: radians are expected' in results[0].reason
        assert run.node.config is before and run.node.get_parameter('joint2.a').value != 0.5
        results = run.probe.set_parameters('/dh_kinematics', [
            Parameter('joint2.a', value=0.5), Parameter('joint3.d', value=0.2)])
        assert all(r.successful for r in results), results
        links = run.node.config.chain.links
        assert (links[1].a, links[2].d) == (0.5, 0.2)
        result, = run.probe.set_parameters('/dh_kinematics', [Parameter('joint2.m')])
        assert not result.successful and result.reason == (
            'joint2.m: cannot be unset; give a value, got None')
        assert run.node.get_parameter('joint2.m').value == links[1].m
    finally:
        run.stop()


def test_the_tick_follows_a_diagnostics_period_shorter_than_tick_s():
    run = Running(['--params-file', str(PUMA), '-p', 'diagnostics.period:=0.05'])
    try:
        assert run.node.tick_period_ns == 50_000_000
        result, = run.probe.set_parameters('/dh_kinematics', [
            Parameter('diagnostics.period', value=2.0)])
        assert result.successful, result
        assert run.node.tick_period_ns == int(TICK_S * 1e9)
    finally:
        run.stop()


def test_unusual_values_are_warned_about_at_start_up_and_after_a_change_only_the_new(tmp_path):
    path = _edited(tmp_path, '      qlim: [-1.7628, 1.7628]', '      qlim: [-100.0, 100.0]')
    process = start_node('dh_kinematics.ros.node', ['--params-file', path])
    line = read_line(process)  # the warning follows the start-up line
    probe = Probe()
    try:
        assert ('[WARN]' in line and 'unusual model value: panda_joint2.qlim: [-100.0, 100.0] '
                'is beyond +-4 pi rad; radians are expected (degrees?)') in line, line
        # Issue 57: every ros2 param set warned of the model's unusual values again.
        for change in ([Parameter('diagnostics.period', value=2.0)],
                       [Parameter('panda_joint3.qlim', value=[-100.0, 100.0])]):
            result, = probe.set_parameters('/dh_kinematics', change, atomically=True)
            assert result.successful, result.reason
        lines = [read_line(process)]
        while 'unusual model value' not in lines[-1]:
            assert lines[-1].endswith('\n'), ''.join(lines)
            lines.append(read_line(process))
        assert 'panda_joint3.qlim' in lines[-1], ''.join(lines)
    finally:
        probe.close()
        code, err = interrupt(process)
    assert code == 0, err


def test_thresholds_of_a_monitor_left_off_are_warned_about_at_start_up():
    # Issue 71 (13): with self-collision's distances set and the monitor left off, check said
    # "44 pairs judged" and the node judged nothing without a word.
    process = start_node('dh_kinematics.ros.node', [
        '--params-file', str(PUMA), '-p', 'safety.self_collision.error_distance:=0.02'])
    try:
        line = read_line(process)  # the warning follows the start-up line
        assert ('[WARN]' in line and 'safety.self_collision.error_distance set, but '
                'safety.self_collision.enabled is false: no self-collision is judged') in line, (
            line)
    finally:
        code, err = interrupt(process)
    assert code == 0, err


def test_the_parameter_reference_is_what_the_node_declares(tmp_path):
    from dh_kinematics.cli import reference

    params = Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml').to_params()  # extra frames
    params['meshes'] = {'link2': {'visual': 'package://ur_description/meshes/upperarm.dae'}}
    chain = Chain.from_params(params)
    model = tmp_path / 'ur5_meshes.yaml'
    chain.to_yaml(model)
    running = Running(['--params-file', str(model)])
    try:
        declared = set(running.probe.call(ListParameters, '/dh_kinematics/list_parameters',
                                          ListParameters.Request()).result.names)
        assert running.node.config.chain.meshes['link2'].visual.endswith('upperarm.dae')
    finally:
        running.stop()
    ours = {name for name in declared if not name.startswith('qos_overrides.')} - {
        'use_sim_time', 'start_type_description_service'}  # rclpy's own
    assert ours == set(reference.parameter_names(
        chain.joint_names, [frame.name for frame in chain.frames], chain.meshes))
    table = (PACKAGE / 'doc' / 'generated' / 'parameters.md').read_text(encoding='utf-8')
    rows = set(re.findall(r'^\| `([^`]+)` \|', table, re.M))
    placeholder = [reference.FRAME_PLACEHOLDER]
    expected = set(reference.parameter_names([reference.JOINT_PLACEHOLDER], placeholder,
                                             placeholder))
    assert expected <= rows  # and sim_arm's settings beside them


def test_the_committed_reference_tables_are_generated_from_the_code():
    from dh_kinematics.cli import reference

    generated = PACKAGE / 'doc' / 'generated'
    assert (generated / 'parameters.md').read_text(encoding='utf-8') == \
        reference.parameters_markdown(), 'run make docs (or python -m ' \
        'dh_kinematics.cli.reference doc/generated) and commit doc/generated'
    assert (generated / 'cli.md').read_text(encoding='utf-8') == reference.cli_markdown()


def test_blocks_merge_in_the_order_rcl_applies_them(tmp_path):
    # Issue 41 (4): with the node's block before '/**' in one file, rcl applies them in file
    # order; check, fk and the command line let the node's block win.
    from dh_kinematics.core.model_file import parameter_file

    own = tmp_path / 'own_first.yaml'
    own.write_text('dh_kinematics:\n  ros__parameters:\n    panda_joint2:\n'
                   '      qlim: [-1.0, 1.0]\n' + PANDA.read_text())
    later = tmp_path / 'later.yaml'
    later.write_text('/**:\n  ros__parameters:\n    panda_joint2:\n      qlim: [-1.5, 1.5]\n')
    seen = []
    for files in ([own], [own, later], [PANDA, own, later]):
        run = Running([arg for path in files for arg in ('--params-file', str(path))])
        try:
            applied = list(run.node.get_parameter('panda_joint2.qlim').value)
        finally:
            run.stop()
        merged = parameter_file.merged(
            [(path, parameter_file.read(path)) for path in files], '/dh_kinematics')
        assert merged['panda_joint2.qlim'] == applied, (files, applied)
        seen.append(applied[1])
        if len(files) > 1:
            continue
        # fk on the file says a joint is past its limits exactly where the node would.
        out, _ = run_cli('fk', files[0], '0', '1.2', '0', '-1.5', '0', '1.8', '0')
        assert ('panda_joint2 = 1.2 rad is above its upper limit' in out) == (applied[1] < 1.2)
    assert seen == [1.7628, 1.5, 1.0]  # in the order each key first appears, as rcl


@pytest.mark.parametrize('name', ['ur5', 'puma560', 'puma560_mdh'])
def test_param_load_takes_the_start_files_and_the_nodes_own_dump(name, tmp_path):
    # Issue 41 (11): `ros2 param load` sends .inf as the string 'inf' and 4e-05 as a string
    # (YAML 1.1), and configurations.* were accepted at start and refused at run time: every
    # dump and the start files of ur5, puma560 and puma560_mdh were refused. This loads them
    # with rclpy's own reader, as ros2 param load does.
    from rclpy.parameter import Parameter as RclpyParameter, parameter_dict_from_yaml_file

    start = PACKAGE / 'config' / f'{name}.yaml'
    run = Running(['--params-file', str(start)])
    try:
        dump = tmp_path / 'dump.yaml'
        dump.write_text(yaml.safe_dump(_dump(run.probe, '/dh_kinematics')))
        for path in (start, dump):
            keyed = '/dh_kinematics' in yaml.safe_load(path.read_text())  # else '/**' only
            messages = parameter_dict_from_yaml_file(
                str(path), True, ['/dh_kinematics'] if keyed else None)
            params = [RclpyParameter.from_parameter_msg(message)
                      for message in messages.values()]
            results = run.probe.set_parameters('/dh_kinematics', params)
            refused = [(param.name, result.reason) for param, result in zip(params, results)
                       if not result.successful]
            assert not refused, (path.name, refused)
        assert run.node.config.chain.to_params() == Chain.from_yaml(start).to_params()
    finally:
        run.stop()
