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

"""Robot models as ROS 2 parameter files: the shipped configs and every kind of bad input."""

import copy
import math

from dh_kinematics import Chain
from dh_kinematics.core.model_file.params import flatten
from helpers import (
    assert_torques, chain_from_reference, CONFIG_FILES, load_reference, MODELS, PACKAGE, POSE_TOL)
import numpy as np
import pytest
import yaml

CONFIG = PACKAGE / 'config'


def _params(model='puma560'):
    with open(CONFIG / CONFIG_FILES[model], encoding='utf-8') as stream:
        return yaml.safe_load(stream)['/**']['ros__parameters']


DEPARTURES = {'stanford': {4: {'I': [[0.003, 0.0, 0.0], [0.0, 0.0004, 0.0],
                                     [0.0, 0.0, 0.0027]]}}}
"""Where a shipped file is not the toolbox's model (link index: fields), as its header says:
the toolbox's Stanford joint5 inertia is no rigid body's, and no torque-keeping change fixes it.
(The Pumas' inertias differ too, by changes that keep every torque: the torques show it.)"""


@pytest.mark.parametrize('model', MODELS)
def test_config_file_reproduces_reference(model):
    reference = load_reference(model)
    chain = Chain.from_yaml(CONFIG / CONFIG_FILES[model])
    assert chain.n == reference['model']['n'] and chain.mdh == reference['model']['mdh']
    configs = reference['configs']
    q = np.array([c['q'] for c in configs])
    for key in ('link_A', 'fkine_all', 'fkine', 'jacob0', 'jacobe'):
        method = 'link_transforms' if key == 'link_A' else key
        np.testing.assert_allclose(getattr(chain, method)(q), [c[key] for c in configs],
                                   rtol=0, atol=POSE_TOL, err_msg=key)
    if model in DEPARTURES:  # the file's dynamics: the toolbox's, but the departures
        for j, (link, row) in enumerate(zip(chain.links, reference['model']['links'])):
            for field in ('m', 'r', 'I', 'Jm', 'G', 'B', 'Tc'):
                expected = DEPARTURES[model].get(j, {}).get(field, row[field])
                np.testing.assert_array_equal(np.asarray(getattr(link, field), dtype=float),
                                              np.asarray(expected, dtype=float), f'{j} {field}')
        return
    assert_torques(chain.gravload(q), [c['gravload'] for c in configs])
    assert_torques(chain.inertia(q), [c['inertia'] for c in configs])
    qd, qdd = (np.array([c['rne'][k] for c in configs]) for k in ('qd', 'qdd'))
    assert_torques(chain.rne(q, qd, qdd), [c['rne']['tau'] for c in configs])
    for case in reference['friction']:
        np.testing.assert_allclose(chain.friction(case['qd']), case['tau'], atol=1e-12)
    for case in reference['islimit_cases']:
        np.testing.assert_array_equal(chain.islimit(case['q']) != 0, case['islimit'])


def test_frames_and_names_come_from_the_file():
    panda = Chain.from_yaml(CONFIG / 'panda.yaml')
    assert panda.name == 'panda'
    assert panda.joint_names == tuple(f'panda_joint{i}' for i in range(1, 8))
    assert panda.link_frames == tuple(f'panda_link{i}' for i in range(1, 8))
    assert (panda.base_frame, panda.tool_frame) == ('panda_link0', 'panda_hand_tcp')
    assert Chain.from_yaml(CONFIG / 'puma560_mdh.yaml').links[0].qlim is None


def test_nested_flat_and_round_trip_forms_agree():
    params = _params()
    q = np.linspace(-1.0, 1.0, 6)
    expected = Chain.from_params(params).rne(q, q, q)
    np.testing.assert_array_equal(Chain.from_params(flatten(params)).rne(q, q, q), expected)
    chain = Chain.from_params(params)
    again = Chain.from_params(chain.to_params())
    np.testing.assert_allclose(again.rne(q, q, q), expected, rtol=1e-14, atol=1e-12)
    np.testing.assert_allclose(again.fkine(q), chain.fkine(q), atol=1e-14)
    assert again.links == chain.links


def test_node_settings_beside_the_model_are_ignored():
    params = dict(_params(), frame_prefix='left/', use_sim_time=True)
    params['qos_overrides'] = {'/joint_states': {'subscription': {'depth': 10}}}
    assert Chain.from_params(params).n == 6


def test_block_selection(tmp_path):
    params = _params()
    path = tmp_path / 'two.yaml'
    path.write_text(yaml.safe_dump({'left': {'ros__parameters': params},  # no alias
                                    '/right': {'ros__parameters': copy.deepcopy(params)}}))
    assert Chain.from_yaml(path, node_name='left').n == 6
    assert Chain.from_yaml(path, node_name='right').n == 6
    with pytest.raises(ValueError, match='cannot tell which node block'):
        Chain.from_yaml(path)
    with pytest.raises(ValueError, match="no parameters for node 'middle': the file has "
                       "'/right', 'left'; key the file with '/\\*\\*:'"):
        Chain.from_yaml(path, node_name='middle')
    path.write_text(yaml.safe_dump({'dh_kinematics': {'ros__parameters': params}}))
    assert Chain.from_yaml(path).n == 6
    path.write_text(yaml.safe_dump({'/**': {'ros__parameters': params},
                                    'rviz': {'ros__parameters': {}}}))
    assert Chain.from_yaml(path, node_name='dh_kinematics').n == 6


@pytest.mark.parametrize('text, message', [
    ('[1, 2', 'line 1: not valid YAML'),
    ('- 1\n- 2\n', 'expected a ROS 2 parameter file'),
    ('/**:\n  parameters: {}\n', "block '/\\*\\*' has no ros__parameters mapping"),
    # What rcl cannot read is refused, with the line.
    ('/**:\n  ros__parameters:\n    x: [0, 0.0]\n',
     r'bad.yaml: line 3: x: a list mixes types \(\[0, 0.0\]\), which ROS 2 cannot read; '
     r'write them all as real numbers: \[0.0, 0.0\]'),
    ('/**:\n  ros__parameters:\n    j1:\n      qlim: [-3, 3.0]\n',
     r'line 4: j1.qlim: a list mixes types'),
    ('/**:\n  ros__parameters:\n\tx: 1.0\n', 'line 3: not valid YAML: .*indent with spaces'),
    ('/**:\n  ros__parameters:\n    x: [a, 1.0]\n', 'write them all as one type'),
])
def test_bad_files(tmp_path, text, message):
    path = tmp_path / 'bad.yaml'
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        Chain.from_yaml(path)


def test_errors_from_a_file_name_the_file_and_parameter(tmp_path):
    text = (CONFIG / 'puma560.yaml').read_text().replace('alpha: 0.0', 'alpha: .nan', 1)
    path = tmp_path / 'nan.yaml'
    path.write_text(text)
    with pytest.raises(ValueError, match=r'nan.yaml: joint2.alpha: must be finite, got nan'):
        Chain.from_yaml(path)


def _mutated(change):
    params = copy.deepcopy(_params())
    change(params)
    return params


def _set(path, value):
    def change(params):
        *parents, last = path.split('.')
        block = params
        for parent in parents:
            block = block[parent]
        block[last] = value
    return change


def _renamed(joint, name):
    """Rename a joint, in the list and its block."""
    def change(params):
        params['joints'] = [name if item == joint else item for item in params['joints']]
        params[name] = params.pop(joint)
    return change


def _delete(path):
    def change(params):
        *parents, last = path.split('.')
        block = params
        for parent in parents:
            block = block[parent]
        del block[last]
    return change


@pytest.mark.parametrize('change, message', [
    (_delete('convention'), 'convention: is missing'),
    (_delete('joints'), 'joints: is missing'),
    (_delete('joint3'), 'joint3: is listed in joints but has no parameter block'),
    (_delete('joint3.type'), 'joint3.type: is missing'),
    (_delete('joint3.a'), 'joint3.a: is missing; a revolute joint needs a, alpha, d'),
    (_delete('joint2.alpha'), 'joint2.alpha: is missing'),
    (_set('joint2.type', 'prismatic'), 'joint2.theta: is missing; a prismatic joint needs'),
    (_set('convention', 'std'), 'convention: must be .standard. or .modified.'),
    (_set('joints', 'joint1'), 'joints: must be a non-empty list of strings'),
    (_set('joints', ['joint1', 'joint1']), 'joints: must not repeat a name'),
    (_set('joints', ['joint1', 2]), r'joints\[1\]: must be a non-empty string'),
    (_set('joint4.a', 'zero'), "joint4.a: must be a real number, got 'zero'"),
    (_set('joint4.a', [0.0]), 'joint4.a: must be a real number'),
    (_set('joint4.d', True), 'joint4.d: must be a real number, got True'),
    (_set('joint4.flip', 'no'), 'joint4.flip: must be true or false'),
    (_set('joint5.m', math.nan), 'joint5.m: must be finite, got nan'),
    (_set('joint5.r', [0.0, math.inf, 0.0]), 'joint5.r: must not contain NaN or inf'),
    (_set('joint5.qlim', [1.0, -1.0]), 'joint5.qlim: must be .lower, upper. with lower <='),
    (_set('joint5.qlim', [math.nan, 1.0]), 'joint5.qlim: must not contain NaN'),
    (_set('joint6.I', [1.0, 0.1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]),
     'joint6.I: must be a symmetric 3x3 matrix'),
    (_set('joint6.I', [1.0, 0.1]), 'joint6.I: must be an array of numbers of shape'),
    (_set('joint6.I', [1.0, math.nan, 1.0]), 'joint6.I: must not contain NaN'),
    (_set('joint6.G', 0.0), 'joint6.G: must be non-zero'),
    (_set('joint6.Tc', [-0.1, 0.1]), 'joint6.Tc: must be .Tc.'),
    (_set('joint6.alpah', 0.1), 'joint6.alpah: is not a joint field .*did you mean alpha'),
    (_delete('joint2.alpha'), 'joint2.alpha: is missing'),
    (lambda p: p['joint2'].update(alpah=p['joint2'].pop('alpha')),
     r'joint2.alpah: is not a joint field .*\(did you mean alpha\?\)'),  # not 'is missing'
    (lambda p: p['joint2'].update(qlimit=p['joint2'].pop('qlim')),
     r'joint2.qlimit: is not a joint field .*\(did you mean qlim\?\)'),
    (lambda p: p['joint2'].update(ofset=p['joint2'].pop('offset')), 'joint2.ofset: .*offset'),
    (lambda p: p.update(bsae=p.pop('base')),
     r'bsae.xyz: is not a model parameter or a setting of the node \(did you mean base.xyz'),
    (lambda p: p.update(convetion=p.pop('convention')),
     r'convetion: is not a model parameter .*did you mean convention\?'),
    (_set('diagnostics', {'perod': 1.0}), 'diagnostics.perod: .*did you mean diagnostics.period'),
    (_set('joint2.alpha', 90.0), r'joint2.alpha: must be within \+-2 pi: radians are expected '
     r'\(90 rad; did you mean \[?1.5708\]?\?\)'),
    (_set('joint2.offset', -180.0), 'joint2.offset: .*radians are expected'),
    (_set('tool.rpy', [0.0, 0.0, 90.0]), 'tool.rpy: .*radians are expected'),
    (_set('joint2.a', -425.0e3), r'joint2.a: must be within \+-1000 m'),
    (_set('joint2.offset', 1e308), 'joint2.offset: .*radians'),
    (_set('base.xyz', [0.0, 0.0, 1e308]), r'base.xyz: must be within \+-1000 m'),
    (_set('joint2.B', 1e308), r'joint2.B: must be within \+-1e\+06'),
    (_set('joint2.G', -1e7), r'joint2.G: must be within \+-1e\+06'),
    (_set('joint2.Tc', [1e300, -1.0]), 'joint2.Tc: must be within'),
    (_set('joint2.I', [1e300, 1.0, 1.0]), 'joint2.I: must be within'),
    (_set('joint2.qlim', [-1e7, 1.0]), 'joint2.qlim: must be within'),
    (_set('gravity', [0.0, 0.0, -9.81e3]), 'gravity: must be within'),
    (_set('joint7', {'type': 'revolute', 'a': 0.0}),
     "joint7.type: belongs to a block 'joint7' that is not listed in joints"),
    (_set('links', ['l1', 'l2']), 'links: must name 6 frames, one per joint'),
    (_set('base.xyz', [0.0, 0.0]), r'base.xyz: must be an array of numbers of shape \(3,\)'),
    (_set('tool.rpy', [0.0, math.nan, 0.0]), 'tool.rpy: must not contain NaN'),
    (_set('gravity', 9.81), r'gravity: must be an array of numbers of shape \(3,\)'),
    (_set('robot_name', 5), 'robot_name: must be a string'),
    (_set('base_frame', ''), 'base_frame: must be a non-empty string'),
    (_set('joint1.theta', 0.3), 'joint1.theta: must be 0 for a revolute joint'),
    # Names: the rule for ROS names, and no two published frames or URDF joints alike.
    (_set('links', ['a', 'a_axis', 'l3', 'l4', 'l5', 'l6']), r'links\[1\]: the frame of link 2 is '
     r'also the axis frame of link 1 \(standard DH, a or alpha not 0: <link>_axis\); every '
     r"frame on TF needs a name of its own, got 'a_axis'"),
    (_set('tool_frame', 'link2_axis'), 'tool_frame: the tool frame is also the axis frame of '
     'link 2'),
    (_set('world_frame', 'base_link'), 'base_frame: the base frame is also the world frame'),
    (_set('base_frame', '/base'), 'base_frame: a frame name is .*; it starts with / '
     r'\(tf2 refuses such a frame id\)'),
    (_set('tool_frame', 'tool 0'), r"tool_frame: .*; character 5 is ' ' U\+0020"),
    (_set('links', ['l1', 'l2', 'l3', 'l4', 'l5', 'l\x07']), r'links\[5\]: .*character 2 is '
     r'U\+0007'),
    (_set('robot_name', 'puma\x1b'), r'robot_name: must be printable text; character 5 is '
     r'U\+001B'),
    (_renamed('joint2', 'link2_axis_to_link2'), r'joints\[1\]: joint 2 is also the fixed joint '
     r'<axis>_to_<link> of link 2; every URDF joint needs a name of its own'),
    (_renamed('joint6', 'link6_to_tool0'), r'joints\[5\]: joint 6 is also the fixed joint '
     r'<last link>_to_<tool>'),
    (_renamed('joint1', 'j\ufffe'), r'joints\[0\]: a joint name is .*character 2 is U\+FFFE'),
    (_renamed('joint1', 'payload'), r"joints\[0\]: its first part 'payload' is a name the "
     'model file uses itself'),
    (_renamed('joint1', 'arm'), None),
    (lambda p: (_renamed('joint1', 'arm')(p), _renamed('joint2', 'arm.j2')(p)),
     r"joints\[1\]: must not start with joint 'arm' and a dot"),
])
def test_bad_parameters_name_the_parameter(change, message):
    if message is None:  # the case a refusal next to it builds on
        assert Chain.from_params(_mutated(change)).n == 6
        return
    with pytest.raises(ValueError, match=message):
        Chain.from_params(_mutated(change))


def test_a_joint_name_may_hold_dots_its_block_nested_or_flat():
    params = _mutated(_renamed('joint2', 'arm.j2'))
    nested = _mutated(lambda p: p.update(arm={'j2': p.pop('joint2')}, joints=[
        'arm.j2' if name == 'joint2' else name for name in p['joints']]))
    for given in (params, nested, flatten(params)):
        chain = Chain.from_params(given)
        assert chain.joint_names[1] == 'arm.j2' and chain.to_params() == Chain.from_params(
            chain.to_params()).to_params()
    with pytest.raises(ValueError, match=r'arm.j2.qlimit: is not a joint field'):
        Chain.from_params(dict(flatten(params), **{'arm.j2.qlimit': [0.0, 1.0]}))


def test_settings_of_the_node_sim_arm_and_rclpy_are_left_alone():
    params = _params()
    params.update({'frame_prefix': 'l/', 'diagnostics': {'period': 2}, 'use_sim_time': True,
                   'rate': 10.0, 'qos_overrides': {'/joint_states': {'subscription': {
                       'reliability': 'reliable'}}}})
    assert Chain.from_params(params).n == 6


def test_a_prismatic_offset_is_a_length_not_an_angle():
    chain = Chain.from_yaml(CONFIG / 'stanford.yaml')
    j = [link.isprismatic() for link in chain.links].index(True)
    params = chain.to_params()
    params[chain.joint_names[j]]['offset'] = 7.0  # m: no radians error
    assert Chain.from_params(params).links[j].offset == 7.0
    params[chain.joint_names[j]]['offset'] = 1001.0
    with pytest.raises(ValueError, match=r'offset: must be within \+-1000 m'):
        Chain.from_params(params)


def test_unusual_values_are_warned_about():
    from dh_kinematics.core.bounds import model_warnings

    for model in ('panda', 'ur5'):
        assert model_warnings(Chain.from_yaml(CONFIG / f'{model}.yaml')) == []
    params = _params()
    params['joint2']['qlim'] = [-180.0, 180.0]
    params['joint3']['a'] = -425.0
    params['base'] = {'xyz': [0.0, 0.0, 12.0]}
    notes = [note for note in model_warnings(Chain.from_params(params))
             if '.I:' not in note]  # the Puma's own inertias: below
    assert notes == [
        'joint2.qlim: [-180.0, 180.0] is beyond +-4 pi rad; radians are expected (degrees?)',
        'joint3.a: -425 m is longer than 10 m; metres are expected (millimetres?)',
        'base.xyz: [0.0, 0.0, 12.0] is farther than 10 m; metres are expected (millimetres?)']


def test_a_new_arm_in_the_wrong_units_is_warned_about():
    from dh_kinematics.core.bounds import model_warnings

    # The toolbox's IRB140 carries its centres of mass in mm; gravity comes out 1000x.
    params = _params('stanford')
    params['joint1']['r'] = [198.29, 9.73, 92.43]
    params['joint3']['qlim'] = [304.8, 1270.0]  # mm
    params['joint4']['m'] = 2500.0  # g
    params['joint5']['I'] = [0.01, 0.01, 0.05]  # 0.01 + 0.01 < 0.05
    params['payload'] = {'mass': 1.0, 'com': [0.0, 0.0, 120.0]}
    notes = model_warnings(Chain.from_params(params))
    assert notes == [
        'joint1.r: [198.29, 9.73, 92.43] is farther than 10 m; metres are expected '
        '(millimetres?)',
        'joint3.qlim: [304.8, 1270.0] is beyond +-10 m; metres are expected (millimetres?)',
        'joint4.m: 2500 kg is more than 1000 kg; kilograms are expected (grams?)',
        'joint5.I: its principal moments [0.01, 0.01, 0.05] kg m^2 break the triangle '
        'inequality (I1 + I2 >= I3); no rigid body has it (a reduced model, or a typing '
        'error?)',
        'payload.com: [0.0, 0.0, 120.0] is farther than 10 m; metres are expected '
        '(millimetres?)']
    params['joint5']['I'] = [-0.01, 0.01, 0.01]
    params['payload'] = {'mass': 2000.0}
    assert model_warnings(Chain.from_params(params))[-2:] == [
        'joint5.I: a principal moment is negative ([-0.01, 0.01, 0.01] kg m^2); no rigid body '
        'has it (a reduced model, or a typing error?)',
        'payload.mass: 2000 kg is more than 1000 kg; kilograms are expected (grams?)']


def test_the_published_puma_inertias_break_the_triangle_inequality_and_the_shipped_do_not():
    from dh_kinematics.core.bounds import inertia_problem, model_warnings

    # Armstrong's link 1 has only Iyy (a reduced model) and link 3's moments are values no
    # rigid body can have: named. The shipped file's give the same torques (the reference
    # vectors above) and are a body's.
    published = chain_from_reference(load_reference('puma560'))
    assert [note.split(':')[0] for note in model_warnings(published)] == [
        f'{published.joint_names[0]}.I', f'{published.joint_names[2]}.I']
    assert model_warnings(Chain.from_yaml(CONFIG / 'puma560.yaml')) == []
    assert inertia_problem(np.diag([1.0, 1.0, 2.0])) == ''  # a flat disc: the limit case
    assert inertia_problem(np.zeros((3, 3))) == ''


def test_the_degrees_hint_keeps_the_sign():
    params = _params()
    params['joint2']['alpha'] = -90.0
    with pytest.raises(ValueError, match=r'\(-90 rad; did you mean -1\.5708\?\)'):
        Chain.from_params(params)


def test_a_typo_in_joints_is_named_from_the_blocks():
    params = _params()
    params['joints'] = params['joints'][:5] + ['jiont6']
    with pytest.raises(ValueError, match=r"joint6\.\w+: belongs to a block 'joint6' that is not "
                       r"listed in joints .* \(joints\[5\] is 'jiont6', which has no block: a "
                       r'typo for joint6\?\)'):
        Chain.from_params(params)


def test_infinite_limits_mean_no_limit():
    params = _mutated(_set('joint2.qlim', [-math.inf, math.inf]))
    assert Chain.from_params(params).links[1].islimit(1e9) == 0


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ValueError, match='nothere.yaml: cannot read the parameter file: No such'):
        Chain.from_yaml(tmp_path / 'nothere.yaml')


def test_exponents_without_a_point_are_numbers_as_in_rcl(tmp_path):
    text = (CONFIG / 'puma560.yaml').read_text()
    path = tmp_path / 'exp.yaml'
    path.write_text(text.replace('B: 0.00148', 'B: 1.48e-3').replace(
        'Jm: 0.0002', 'Jm: 2e-4', 1))
    chain = Chain.from_yaml(path)
    assert chain.links[0].Jm == 2e-4 and chain.links[0].B == 1.48e-3


def test_integers_are_read_as_numbers():
    params = _mutated(_set('joint2.alpha', 0))
    assert Chain.from_params(params).links[1].alpha == 0.0
