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


"""launch_config: what the launch files resolve and check before they start any process."""

import re

from helpers import PACKAGE
import numpy as np
import pytest
import yaml

from dh_kinematics.ros import launch_config  # noqa: I100

pytestmark = pytest.mark.ros

MODELS = ['panda', 'puma560', 'puma560_mdh', 'stanford', 'ur5']


def test_builtin_models_are_the_config_files():
    assert launch_config.builtin_models() == MODELS
    assert launch_config.model_file('panda') == launch_config.config_dir() / 'panda.yaml'


def test_every_argument_has_a_default_and_a_description():
    arguments = dict(launch_config.NODE_ARGUMENTS, **launch_config.DEMO_ARGUMENTS)
    assert sorted(arguments) == ['frame_prefix', 'joint_limits_file', 'managed', 'namespace',
                                 'overshoot', 'params_file', 'rate', 'robot', 'rpy', 'rviz',
                                 'tf_max_rate', 'use_sim_time', 'xyz']
    for name, (default, description) in arguments.items():
        assert isinstance(default, str), name
        assert description.endswith('.') and len(description) > 20, name


def test_node_settings_defaults():
    settings = launch_config.node_settings({})
    assert settings.params_file.name == 'puma560.yaml'
    assert settings.chain.name == 'puma560'
    assert (settings.frame_prefix, settings.namespace, settings.use_sim_time) == ('', '', False)


def test_the_arguments_users_set_reach_the_node_checked(tmp_path):
    limits = tmp_path / 'ur5_joint_limits.yaml'
    limits.write_text((PACKAGE / 'config' / 'ur5_joint_limits.yaml').read_text().replace(
        'has_acceleration_limits: false\n        max_acceleration: 0.0',
        'has_acceleration_limits: true\n        max_acceleration: 8.0', 1))
    settings = launch_config.node_settings({
        'robot': 'ur5', 'joint_limits_file': str(limits),
        'xyz': '0 0.5 0.8', 'rpy': '[0, 0, 1.5]', 'tf_max_rate': '100', 'managed': 'true'})
    assert [path.name for path in settings.params_files] == ['ur5.yaml', 'ur5_joint_limits.yaml']
    assert settings.overrides == {'tf.max_rate': 100.0, 'base.xyz': [0.0, 0.5, 0.8],
                                  'base.rpy': [0.0, 0.0, 1.5]}
    assert settings.managed
    np.testing.assert_allclose(settings.chain.base[:3, 3], [0.0, 0.5, 0.8])
    # The joint limits file's limits are the model's, as the node merges the two files.
    assert settings.chain.links[0].acceleration_limit == 8.0
    plain = launch_config.node_settings({'robot': 'ur5'})
    assert (plain.params_files, plain.overrides, plain.managed) == (
        [plain.params_file], {}, False)


@pytest.mark.parametrize('configurations, message', [
    ({'xyz': '1 2'}, r"^xyz: must be three finite numbers, as '0.0 0.0 0.5', got '1 2'"),
    ({'xyz': '0 0 nan'}, '^xyz: must be three finite numbers'),
    ({'xyz': '1e9 0 0'}, r'^xyz: must be within \+-1000 m'),
    ({'rpy': '0 0 1e9'}, r'^rpy: must be within \+-2 pi'),
    ({'tf_max_rate': '0.0001'}, r'^tf_max_rate: must be 0 \(every message\) or within'),
    ({'tf_max_rate': 'fast'}, '^tf_max_rate: must be a finite number'),
    ({'joint_limits_file': '/no/such.yaml'}, "^joint_limits_file: no such file, got '/no/such"),
    ({'managed': 'maybe'}, "^managed: must be true or false, got 'maybe'"),
])
def test_a_bad_user_argument_is_named(configurations, message):
    with pytest.raises(ValueError, match=message):
        launch_config.node_settings(dict(configurations, robot='ur5'))


def test_a_joint_limits_file_is_checked_as_the_node_reads_it(tmp_path):
    limits = tmp_path / 'joint_limits.yaml'
    limits.write_text((PACKAGE / 'config' / 'ur5_joint_limits.yaml').read_text().replace(
        'max_velocity: 3.141592653589793', 'max_velocity: -3.1', 1))
    with pytest.raises(ValueError, match=r'shoulder_pan_joint\.velocity_limit: disagrees with '
                       r'joint_limits\.shoulder_pan_joint\.max_velocity: -3\.1'):  # as the node
        launch_config.node_settings({'robot': 'ur5', 'joint_limits_file': str(limits)})


def test_params_file_replaces_robot(tmp_path):
    path = tmp_path / 'my_arm.yaml'
    path.write_text((PACKAGE / 'config' / 'stanford.yaml').read_text())
    settings = launch_config.node_settings({
        'robot': 'panda', 'params_file': str(path), 'frame_prefix': 'left/',
        'namespace': 'arm', 'use_sim_time': 'True'})
    assert settings.params_file == path
    assert settings.chain.name == 'stanford'
    assert (settings.frame_prefix, settings.namespace, settings.use_sim_time) == (
        'left/', 'arm', True)


@pytest.mark.parametrize('configurations, message', [
    ({'robot': 'ur10'}, r'robot: must be a built-in model \(panda, puma560'),
    ({'params_file': '/no/such/arm.yaml'},
     "params_file: must name a file that exists, got '/no/such/arm.yaml'"),
    ({'use_sim_time': 'maybe'}, "use_sim_time: must be true or false, got 'maybe'"),
    ({'frame_prefix': '/left/'}, 'frame_prefix: a frame prefix is .*it starts with /'),
    ({'frame_prefix': 'left /'}, r"frame_prefix: .*character 5 is ' ' U\+0020"),
])
def test_bad_node_arguments_are_named(configurations, message):
    with pytest.raises(ValueError, match=message):
        launch_config.node_settings(configurations)


def test_a_bad_model_file_stops_the_launch_naming_the_parameter(tmp_path):
    params = yaml.safe_load((PACKAGE / 'config' / 'puma560.yaml').read_text())
    params['/**']['ros__parameters']['joint2']['qlim'] = [1.0, -1.0]
    path = tmp_path / 'bad.yaml'
    path.write_text(yaml.safe_dump(params))
    with pytest.raises(ValueError, match='joint2.qlim'):
        launch_config.node_settings({'params_file': str(path)})


@pytest.mark.parametrize('edit, message', [
    (lambda text: text.replace('/**:', 'ur5_arm:'),
     "no model parameters reached node '/dh_kinematics': the parameter file has 'ur5_arm'"),
    (lambda text: text.replace('      qlim: [-2.79', '      qlimit: [-2.79', 1),
     'joint1.qlimit: is not a joint field'),
    (lambda text: text.replace('      B: 0.00148', '      B: [0, 0.0]', 1),
     'line 41: joint1.B: a list mixes types'),
])
def test_the_launch_checks_the_file_as_the_node_reads_it(tmp_path, edit, message):
    path = tmp_path / 'arm.yaml'
    path.write_text(edit((PACKAGE / 'config' / 'puma560.yaml').read_text()))
    with pytest.raises(ValueError, match=message):
        launch_config.node_settings({'params_file': str(path)})


def test_integers_pass_the_launch_check(tmp_path):
    path = tmp_path / 'arm.yaml'
    path.write_text((PACKAGE / 'config' / 'puma560.yaml').read_text().replace(
        '      a: 0.0', '      a: 0', 1))
    assert launch_config.node_settings({'params_file': str(path)}).chain.n == 6


def test_blocks_reach_the_node_as_rcl_merges_them(tmp_path):
    params = yaml.safe_load((PACKAGE / 'config' / 'puma560.yaml').read_text())
    model = params['/**']['ros__parameters']
    path = tmp_path / 'arm.yaml'
    path.write_text(yaml.safe_dump({
        '/**': {'ros__parameters': {'frame_prefix': 'x/'}},
        '/left/dh_kinematics': {'ros__parameters': model},
        '/**/dh_kinematics': {'ros__parameters': {'robot_name': 'wild'}}}))
    settings = launch_config.node_settings({'params_file': str(path), 'namespace': 'left'})
    assert settings.chain.name == 'puma560'  # the node's own block wins over the wildcards
    with pytest.raises(ValueError, match='convention: is missing'):
        launch_config.node_settings({'params_file': str(path), 'namespace': 'right'})


def test_demo_settings():
    settings, sim_arm, rviz = launch_config.demo_settings({'robot': 'panda', 'rate': '250'})
    assert settings.chain.name == 'panda'
    assert sim_arm == {'rate': 250.0, 'overshoot': 0.05}
    assert rviz is None


@pytest.mark.parametrize('configurations, message', [
    ({'rate': 'fast'}, "rate: must be a finite number, got 'fast'"),
    ({'overshoot': 'nan'}, "overshoot: must be a finite number, got 'nan'"),
    ({'rviz': 'perhaps'}, "rviz: must be true or false, got 'perhaps'"),
    ({'rate': '0.0'}, r"rate: must be within \[0.1, 10000\], got '0.0'"),
    ({'overshoot': '-1'}, r"overshoot: must be within \[0, 10\], got '-1'"),
])
def test_bad_demo_arguments_are_named(configurations, message):
    with pytest.raises(ValueError, match=message):
        launch_config.demo_settings(configurations)


def test_rviz_fixes_the_prefixed_base_frame(monkeypatch):
    monkeypatch.setattr(launch_config, 'installed', lambda package: package == 'rviz2')
    _, _, rviz = launch_config.demo_settings({'robot': 'panda', 'frame_prefix': 'left/',
                                              'rviz': 'true'})
    assert rviz == ['-d', str(launch_config.rviz_config()), '-f', 'left/panda_link0']
    monkeypatch.setattr(launch_config, 'installed', lambda package: False)
    with pytest.raises(ValueError, match='rviz: needs the rviz2 package, which is not installed'):
        launch_config.demo_settings({'rviz': 'true'})


def test_rviz_config_shows_tf_in_the_fixed_frame():
    config = yaml.safe_load(launch_config.rviz_config().read_text())
    manager = config['Visualization Manager']
    displays = {display['Class']: display for display in manager['Displays']}
    assert displays['rviz_default_plugins/TF']['Enabled'] is True
    assert displays['rviz_default_plugins/TF']['Show Names'] is True
    assert displays['rviz_default_plugins/Grid']['Reference Frame'] == '<Fixed Frame>'
    assert manager['Global Options']['Fixed Frame'] == 'base_link'


@pytest.mark.parametrize('text, value', [
    ('true', True), ('False', False), ('1', True), ('0', False), (' on ', True), ('no', False)])
def test_parse_bool(text, value):
    assert launch_config.parse_bool('rviz', text) is value


def test_launch_files_are_installed_with_the_configs():
    setup = (PACKAGE / 'setup.py').read_text()
    assert "glob('launch/*.launch.py')" in setup and "glob('config/*.rviz')" in setup
    assert sorted(path.name for path in (PACKAGE / 'launch').glob('*.launch.py')) == [
        'control.launch.py', 'demo.launch.py', 'dh_kinematics.launch.py']


def test_the_diagnostic_analyzers_match_the_status_names_of_each_namespace():
    from dh_kinematics.core.model_file.parameter_file import read

    assert 'diagnostic_analyzers' not in launch_config.builtin_models()
    document = read(PACKAGE / 'config' / 'diagnostic_analyzers.yaml')
    groups = document['analyzers']['ros__parameters']['arms']['analyzers']
    for namespace, key in (('', 'arm'), ('left', 'left'), ('right', 'right')):
        node = launch_config.node_name(namespace)
        prefixes = tuple(groups[key]['startswith'])
        assert all(f'{node}: {task}'.startswith(prefixes) for task in ('joint1', 'arm'))
        others = tuple(prefix for other, block in groups.items() if other != key
                       for prefix in block['startswith'])
        assert not f'{node}: joint1'.startswith(others)


def test_the_robot_argument_names_every_built_in_model():
    description = launch_config.NODE_ARGUMENTS['robot'][1]
    assert re.findall(r'\b[a-z0-9_]+\b(?=[,.]| or)', description.split(':')[1]) == \
        launch_config.builtin_models()


def test_an_unknown_launch_argument_stops_the_launch_naming_it():
    # Issue 41 (12): tf_max_rate:=30 was silently ignored, though a wrong argument stops the
    # launch (issue 46 made it an argument: tf_rate is not).
    command_line = ['ros2', 'launch', 'dh_kinematics', 'dh_kinematics.launch.py']
    with pytest.raises(ValueError, match=r'^tf_rate: no such launch argument \(did you mean '
                       r'tf_max_rate\?\); dh_kinematics.launch.py takes robot, '):
        launch_config.check_arguments(['robot:=ur5', 'tf_rate:=30'],
                                      '/x/share/dh_kinematics/launch/dh_kinematics.launch.py',
                                      command_line)
    with pytest.raises(ValueError, match=r'^robt: no such launch argument \(did you mean '
                       r'robot\?\)'):
        launch_config.check_arguments(['robt:=ur5'], 'dh_kinematics.launch.py', command_line)
    launch_config.check_arguments(['robot:=ur5', 'frame_prefix:=a/'], 'dh_kinematics.launch.py',
                                  command_line)
    # Included by demo.launch.py, it sees the demo's arguments: the demo checks those.
    launch_config.check_arguments(['rate:=50'], 'dh_kinematics.launch.py',
                                  ['ros2', 'launch', 'dh_kinematics', 'demo.launch.py'])


def test_each_launch_file_takes_its_included_files_arguments():
    # Issue 57: demo.launch.py refused robot:=, params_file:=, namespace:= and xyz:=, which it
    # passes on to dh_kinematics.launch.py; control.launch.py took managed:= and ignored it.
    node = list(launch_config.NODE_ARGUMENTS)
    takes = {'dh_kinematics.launch.py': node,
             'demo.launch.py': node + ['rviz', 'rate', 'overshoot'],
             'control.launch.py': [name for name in node if name != 'managed'] + [
                 'plugin', 'initial_configuration', 'controller', 'update_rate']}
    for launch_file, names in takes.items():
        command_line = ['ros2', 'launch', 'dh_kinematics', launch_file]
        assert list(launch_config.launch_arguments(f'/x/launch/{launch_file}')) == names
        launch_config.check_arguments([f'{name}:=x' for name in names], launch_file,
                                      command_line)
    with pytest.raises(ValueError, match=r'^managed: no such launch argument; '
                       r'control.launch.py takes robot, '):
        launch_config.check_arguments(['managed:=true'], 'control.launch.py',
                                      ['ros2', 'launch', 'dh_kinematics', 'control.launch.py'])


def test_the_control_launch_checks_its_arguments_and_writes_the_controllers(monkeypatch):
    monkeypatch.setattr(launch_config, 'installed', lambda package: True)
    settings, controllers, controller = launch_config.control_settings(
        {'robot': 'ur5', 'initial_configuration': 'home', 'namespace': 'left'})
    assert controller == 'joint_trajectory_controller'
    assert settings.overrides == {'ros2_control.plugin': 'mock',
                                  'ros2_control.initial_configuration': 'home'}
    manager = controllers['/**/controller_manager']['ros__parameters']
    assert manager['joint_trajectory_controller']['type'] == (
        'joint_trajectory_controller/JointTrajectoryController')
    own = controllers['/**/joint_trajectory_controller']['ros__parameters']
    assert own['joints'] == list(settings.chain.joint_names)
    assert own['state_interfaces'] == ['position', 'velocity']  # the UR5 has velocity limits
    _, controllers, _ = launch_config.control_settings(
        {'robot': 'puma560', 'controller': 'forward_position_controller'})
    assert controllers['/**/forward_position_controller']['ros__parameters'][
        'interface_name'] == 'position'


@pytest.mark.parametrize('configurations, message', [
    ({'controller': 'pid'}, '^controller: must be one of joint_trajectory_controller, '),
    ({'plugin': 'a b'}, "^plugin: must be '' \\(none\\), 'mock' or a hardware plugin"),
    ({'initial_configuration': 'nope'}, '^initial_configuration: must name one of the '
     r'configurations \(home, qz\)'),
    ({'update_rate': '0'}, r'^update_rate: must be within \[1, 10000\]'),
])
def test_a_bad_control_argument_is_named(monkeypatch, configurations, message):
    monkeypatch.setattr(launch_config, 'installed', lambda package: True)
    with pytest.raises(ValueError, match=message):
        launch_config.control_settings(dict(configurations, robot='ur5'))


def test_the_control_launch_says_what_to_install(monkeypatch):
    monkeypatch.setattr(launch_config, 'installed',
                        lambda package: package != 'controller_manager')
    with pytest.raises(ValueError, match='^control.launch.py needs the ROS package '
                       'controller_manager, which is not installed: apt install '):
        launch_config.control_settings({'robot': 'ur5'})
