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
Self-collision: the model's capsules, the node's level and values, check, moveit, from-urdf.

The distances' truth is coal's (hpp-fcl) on the same capsules; the enclosing capsules' truth
is pinocchio's placement of the vendor shapes and trimesh's bounds of a mesh.
"""

import math
import struct
from types import SimpleNamespace

from dh_kinematics import Chain, from_urdf, InvalidFieldError, Link
from dh_kinematics.core.display import format_number
from dh_kinematics.core.model_file.parameter_file import flatten
from dh_kinematics.core.safety.link_capsules import LinkCapsules
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, WARN
from dh_kinematics.node_logic.monitors.sample import Sample
from dh_kinematics.node_logic.monitors.self_collision import levels, SelfCollision
from dh_kinematics.parameters import validation
from dh_kinematics.parameters.specs import NODE
from helpers import (
    coal_distance, needs, needs_pin, needs_vendor, PACKAGE, pin, pin_configuration, random_arm,
    run_cli, segment_distance, vendor_arm)
import numpy as np
import pytest

needs_coal = needs('coal', 'pip install coal')
DEFAULTS = {spec.name: spec.default for spec in NODE}
# A planar arm folding its third link back over its first: capsules of 0.05 m along each,
# the third's 0.105 m above the plane (the closest they come: 0.005 m).
FOLDING = Chain([Link(a=0.5, collision=[-0.5, 0, 0, 0, 0, 0, 0.05], name='j1'),
                 Link(a=0.5, name='j2'),
                 Link(a=0.4, collision=[-0.4, 0, 0.105, 0, 0, 0.105, 0.05], name='j3')])


def _their_distance(q):
    """Return coal's distance of the folding arm's two capsules at ``q`` (m)."""
    T = FOLDING.fkine_all(q)
    a = [T[1][:3, :3] @ end + T[1][:3, 3] for end in ([-0.5, 0, 0], [0, 0, 0])]
    b = [T[3][:3, :3] @ end + T[3][:3, 3] for end in ([-0.4, 0, 0.105], [0, 0, 0.105])]
    return coal_distance((*a, 0.05), (*b, 0.05))


def _settings(**changes):
    settings = dict(DEFAULTS, **{'safety.self_collision.enabled': True})
    settings.update({f'safety.self_collision.{name}': value for name, value in changes.items()})
    return settings


# The model's field ------------------------------------------------------------------------

def test_capsules_go_through_the_model_file_and_the_nodes_parameters():
    chain = FOLDING
    again = Chain.from_params(chain.to_params())
    assert [link.collision for link in again.links][1] is None
    np.testing.assert_array_equal(again.links[2].collision, [[-0.4, 0, 0.105, 0, 0, 0.105, 0.05]])
    checked = validation.checked(flatten(chain.to_params()), NODE)
    assert checked.values['j1.collision'] == [-0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.05]
    assert checked.values['j2.collision'] == []  # none: the default body's
    np.testing.assert_array_equal(checked.chain.links[0].collision, chain.links[0].collision)


@pytest.mark.parametrize('value, words', [
    ([0.0] * 6, 'has 6 numbers: must be 7 numbers per capsule'),
    ([0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0], 'must give each capsule a radius > 0'),
    ([0.0, 0.0, math.nan, 0.1, 0.0, 0.0, 0.1], 'must not contain NaN or inf'),
    ([0.0, 0.0, 0.0, 2000.0, 0.0, 0.0, 0.1], 'must be within +-1000 m'),
    ('capsule', 'must be 7 numbers per capsule'),
    ([0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.1] * 17, 'must hold at most 16 capsules a link'),  # 71 (5)
    ([0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.1] * 10_000, 'capsules, got 10000')])
def test_bad_capsules_are_refused_naming_the_joint(value, words):
    params = flatten(FOLDING.to_params())
    params['j2.collision'] = value
    for read in (Chain.from_params, lambda given: validation.checked(given, NODE)):
        with pytest.raises(InvalidFieldError, match='^j2.collision: ') as error:
            read(params)
        assert words in str(error.value)


def test_a_joints_capsules_take_the_place_of_its_default_rods():
    capsules = LinkCapsules(FOLDING)
    assert capsules.links.tolist() == [1, 2, 2, 3]  # link 2: its a rod and its axis rod
    np.testing.assert_array_equal(capsules.ends[0], [[-0.5, 0, 0], [0, 0, 0]])
    assert capsules.pairs.tolist() == [[0, 3]]
    assert LinkCapsules(FOLDING, ['link1 link3']).pairs.shape == (0, 2)


@pytest.mark.parametrize('entry', ['link1', 'link1 link1', 'link1 gripper', 'a b c'])
def test_an_ignore_entry_that_is_not_two_links_is_refused_naming_the_parameter(entry):
    given = dict(flatten(FOLDING.to_params()), **{
        'safety.self_collision.ignore': [entry]})
    with pytest.raises(InvalidFieldError, match="^safety.self_collision.ignore: must be 'linkA "
                       "linkB': two link frames of the arm"):
        validation.checked(given, NODE)


def test_an_error_distance_above_the_warning_is_refused():
    given = dict(flatten(FOLDING.to_params()), **{
        'safety.self_collision.warn_distance': 0.02,
        'safety.self_collision.error_distance': 0.03})
    with pytest.raises(InvalidFieldError, match='^safety.self_collision.error_distance: must '
                       'not be above safety.self_collision.warn_distance 0.02'):
        validation.checked(given, NODE)


# The monitor --------------------------------------------------------------------------------

def _fold(angles):
    """Return the configurations folding link 3 back over link 1 through joint 3."""
    return [np.array([0.2, 2.6, angle]) for angle in angles]


@needs_coal
def test_a_path_into_contact_goes_ok_warn_error_and_back_with_the_hysteresis():
    # Joint 3 folds link 3 back over link 1 and out again; at each message the level is what
    # coal's distance gives against 0.05 m (WARN) and 0.01 m (ERROR), each clearing 0.01 m
    # (diagnostics.hysteresis) back.
    safety = SelfCollision()
    safety.configure(FOLDING, _settings())
    assert list(safety.levels) == ['self_collision']
    angles = np.concatenate([np.linspace(0.0, 2.9, 60), np.linspace(2.9, 0.0, 60)])
    warn, error, band = 0.05, 0.01, DEFAULTS['diagnostics.hysteresis']
    expected, seen, level, distances = [], [], OK, []
    for q in _fold(angles):
        distance = _their_distance(q)
        raised = ERROR if distance < error else WARN if distance < warn else OK
        if raised < level:  # clears only past the band
            raised = max(raised, ERROR if distance < error + band else
                         WARN if distance < warn + band else OK)
            raised = min(raised, level)
        level = raised
        expected.append(level)
        distances.append(distance)
        safety.update(q, [0.0, 0.0, 0.1])
        seen.append(safety.levels['self_collision'])
        assert safety.topic_values()[0] == pytest.approx(distance, abs=1e-9)
    assert seen == expected
    assert {OK, WARN, ERROR} <= set(seen) and seen[-1] == OK
    # The path as one block: its figures over the state's rows, its levels over the column.
    rows = safety.state.columns(_fold(angles), [[0.0, 0.0, 0.1]] * len(angles), safety.parts)
    assert levels(safety.measure(rows)[1], OK, warn, error, band).tolist() == expected
    status, = safety.statuses()
    assert status.message.startswith('link1 and link3 ') and ' m apart (warn 0.05 m' in (
        status.message)


@needs_coal
def test_the_level_is_the_positions_alone_and_the_rates_give_the_closing_speed():
    # The closing speed is minus the rate of coal's distance (central differences along qd),
    # the time to collision the distance over it while closing; the level WARN at 0.038 m
    # whether the pair closes in, parts or stands still.
    safety = SelfCollision()
    safety.configure(FOLDING, _settings())
    q, step = _fold([1.55])[0], 1e-6
    distance = _their_distance(q)
    for qd in ([0.0, 0.0, 0.3], [0.0, 0.0, -0.3], [0.0, 0.0, 0.0]):
        closing = -(_their_distance(q + step * np.array(qd))
                    - _their_distance(q - step * np.array(qd))) / (2 * step)
        safety.update(q, qd)
        labels = tuple(figure.label for figure in safety.figures)
        values = dict(zip(labels, safety.topic_values()))
        assert labels == ('self_collision.distance', 'self_collision.closing_speed',
                          'self_collision.time_to_collision')
        assert values['self_collision.distance'] == pytest.approx(distance, abs=1e-9)
        assert values['self_collision.closing_speed'] == pytest.approx(closing, abs=1e-6)
        expected = distance / closing if qd[2] > 0.0 else math.inf
        assert values['self_collision.time_to_collision'] == pytest.approx(expected, rel=1e-4)
        assert safety.levels['self_collision'] == WARN
        if qd[2] > 0.0:
            assert closing > 0.0  # the fold closes the pair in
    at_rest = dict(zip(labels, safety.topic_values()))['self_collision.closing_speed']
    assert math.copysign(1.0, at_rest) == 1.0  # 0.0, not -0.0 (issue 71 (17))
    values = {kv[0]: kv[1] for kv in safety.statuses()[-1].values}
    assert values['closing speed (m/s)'] == '0', values


@needs_coal
def test_an_unknown_rate_still_judges_the_distance_and_says_the_motion_is_unknown():
    # A first differenced message: every position, no rate. The distance is judged (WARN,
    # coal's 0.038 m at the fold) and no motion is claimed.
    safety = SelfCollision()
    safety.configure(FOLDING, _settings())
    q = _fold([1.55])[0]
    sample = Sample(update=None, rates=SimpleNamespace(qd=[None] * 3), configuration=list(q),
                    efforts=None, measure=False)
    assert safety.judge(sample) and not safety.measured
    assert safety.levels['self_collision'] == WARN
    status, = safety.statuses()
    assert status.message.endswith(', its rate unknown'), status.message
    values = dict(status.values)
    assert values['closing speed (m/s)'] == values['time to collision (s)'] == format_number(
        math.nan)
    assert float(values['distance (m)']) == pytest.approx(_their_distance(q), rel=1e-5)


def _arm(name):
    if name != 'random':
        return Chain.from_yaml(PACKAGE / 'config' / f'{name}.yaml')
    rng = np.random.default_rng(72)
    while True:  # modified DH, a prismatic joint, four joints or more
        chain = random_arm(rng)
        if (chain.mdh and chain.n >= 4 and any(link.isprismatic() for link in chain.links)
                and len(LinkCapsules(chain).pairs)):
            return chain


@needs_coal
@pytest.mark.parametrize('name', ['panda', 'ur5', 'random'])
def test_a_block_of_messages_gives_each_ones_figures_and_coals_distance(name):
    # The figures of 40 messages measured as one block of the arm's state (columns) are each
    # message's measured alone, to 1e-12; the distance is coal's of the closest pair.
    chain = _arm(name)
    monitor, capsules = SelfCollision(), LinkCapsules(chain)
    monitor.configure(chain, _settings())
    rng = np.random.default_rng(7)
    Q, QD = rng.uniform(-2.0, 2.0, (40, chain.n)), rng.uniform(-1.0, 1.0, (40, chain.n))
    block = monitor.measure(monitor.state.columns(Q, QD, monitor.parts))
    for k, (q, qd) in enumerate(zip(Q, QD)):
        pair, distance, speed, time = monitor.measure(
            [monitor.state.one(q.tolist(), qd.tolist(), monitor.parts)])
        ends = capsules.placed(chain.fkine_all(q))
        theirs = min(coal_distance((*ends[a], capsules.radii[a]), (*ends[b], capsules.radii[b]))
                     for a, b in capsules.pairs)
        assert block[1][k] == pytest.approx(distance[0], abs=1e-12)
        assert block[1][k] == pytest.approx(theirs, abs=1e-9)
        if block[0][k] == pair[0]:  # not two pairs as near
            assert block[2][k] == pytest.approx(speed[0], abs=1e-12)
            assert block[3][k] == pytest.approx(time[0], rel=1e-12)


def test_the_distance_is_a_figure_of_the_replay_smaller_worse():
    safety = SelfCollision()
    safety.configure(FOLDING, _settings())
    figures = {figure.label: figure for figure in safety.figures}
    assert figures['self_collision.distance'] == ('self_collision.distance', 'self_collision',
                                                  0.01, True)
    assert figures['self_collision.closing_speed'].limit is None


def test_a_chain_whose_pairs_are_all_ignored_watches_nothing():
    safety = SelfCollision()
    safety.configure(FOLDING, _settings(ignore=['link1 link3']))
    assert not safety.active and 'self_collision' not in safety.levels
    # Nor does it say a figure or a status of it (no pair: no closest one to measure).
    assert safety.figures == () and safety.statuses() == []


# check and moveit -------------------------------------------------------------------------

def test_check_proposes_the_pairs_near_in_most_configurations_and_moveit_disables_them(
        tmp_path):
    out, _ = run_cli('check', PACKAGE / 'config' / 'panda.yaml')
    line = out.splitlines()[-1]
    assert line == ('self-collision: 14 capsules, 44 pairs to judge once '
                    'safety.self_collision.enabled is true (3 ignored); no other pair near in '
                    'most configurations')
    chain = Chain.from_yaml(PACKAGE / 'config' / 'panda.yaml')
    bare = tmp_path / 'bare.yaml'
    chain.to_yaml(bare)  # the model alone: nothing ignored
    out, _ = run_cli('check', bare)
    proposed = ['panda_link1 panda_link3', 'panda_link3 panda_link5', 'panda_link5 panda_link7']
    assert out.splitlines()[-1] == (
        'self-collision: 14 capsules, 60 pairs to judge once safety.self_collision.enabled is '
        'true (0 ignored); 3 near in most '
        f'configurations: set safety.self_collision.ignore: {proposed}')
    # Each proposed pair is near (0.05 m) in at least 95 % of 2000 random configurations.
    capsules = LinkCapsules(chain)
    rng = np.random.default_rng(631)
    q = chain.random_q(2000, rng)
    gaps = capsules.closest(chain.fkine_all(q)).distance.reshape(len(q), -1)
    names = [capsules.pair_name(k) for k in range(len(capsules.pairs))]
    for pair in sorted(set(names)):
        near = (gaps[:, [name == pair for name in names]].min(axis=1) < 0.05).mean()
        assert (near >= 0.9) == (pair in proposed), (pair, near)
    out, _ = run_cli('moveit', bare, '-o', tmp_path / 'moveit', '--samples', '0')
    srdf = (tmp_path / 'moveit' / 'panda.srdf').read_text()
    for pair in proposed:
        first, second = pair.split()
        assert f'link1="{first}" link2="{second}" reason="User"' in srdf
    assert '3 the self-collision check ignores' in out


# from-urdf ---------------------------------------------------------------------------------

def _binary_stl(path, points):
    triangles = points[: len(points) // 3 * 3].reshape(-1, 3, 3)
    with open(path, 'wb') as stream:
        stream.write(b'\0' * 80 + struct.pack('<I', len(triangles)))
        for triangle in triangles:
            stream.write(struct.pack('<12fH', 0.0, 0.0, 1.0, *triangle.reshape(-1), 0))


URDF = """<?xml version="1.0"?>
<robot name="shapes">
  <link name="base"/>
  <link name="l1">
    <collision><origin xyz="0.1 0.0 0.2" rpy="0.3 -0.2 0.5"/>
      <geometry><box size="0.1 0.3 0.2"/></geometry></collision>
    <collision><origin xyz="0.0 0.05 0.0" rpy="0.0 1.2 0.0"/>
      <geometry><cylinder radius="0.04" length="0.25"/></geometry></collision>
  </link>
  <link name="l2">
    <collision><origin xyz="0.2 0.0 0.0" rpy="0 0 0"/>
      <geometry><sphere radius="0.06"/></geometry></collision>
    <collision><origin xyz="0.0 0.1 0.0" rpy="0.4 0.1 0.2"/>
      <geometry><mesh filename="file://{mesh}" scale="1.0 2.0 0.5"/></geometry></collision>
  </link>
  <link name="tip"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.3" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.4 0 0.1" rpy="0.3 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
  <joint name="j3" type="fixed"><parent link="l2"/><child link="tip"/>
    <origin xyz="0.3 0 0" rpy="0 0 0"/></joint>
</robot>
"""


@needs_pin
def test_a_urdfs_collision_shapes_lie_inside_the_imported_capsules(tmp_path):
    # Every corner of the box, every rim point of the cylinder, the sphere's surface and the
    # mesh's vertices, placed by pinocchio at random configurations, lie within the capsules
    # the model places there (1e-9 m); the box's corners and the cylinder's rims touch them.
    trimesh = pytest.importorskip('trimesh')
    rng = np.random.default_rng(632)
    points = rng.normal(size=(60, 3)) * [0.03, 0.05, 0.02]
    _binary_stl(tmp_path / 'part.stl', points)
    bounds = trimesh.load(tmp_path / 'part.stl').bounds  # the mesh's truth: trimesh's reading
    text = URDF.replace('{mesh}', str(tmp_path / 'part.stl'))
    chain = from_urdf(text, 'base', 'tip').chain
    assert [len(link.collision) for link in chain.links] == [2, 2]
    capsules = LinkCapsules(chain)
    model = pin.buildModelFromXML(text)
    data = model.createData()
    (x0, y0, z0), (x1, y1, z1) = bounds * [[1.0, 2.0, 0.5]]
    surfaces = {  # each shape's points in its own frame
        'l1': [np.array([[x, y, z] for x in (-0.05, 0.05) for y in (-0.15, 0.15)
                         for z in (-0.1, 0.1)]),
               np.array([[0.04 * math.cos(t), 0.04 * math.sin(t), z]
                         for t in np.linspace(0, 2 * math.pi, 16) for z in (-0.125, 0.125)])],
        'l2': [0.06 * rng.normal(size=(40, 3)) / 1.0,
               np.array([[x, y, z] for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)])]}
    surfaces['l2'][0] *= 0.06 / np.linalg.norm(surfaces['l2'][0], axis=1, keepdims=True)
    origins = {'l1': [((0.1, 0.0, 0.2), (0.3, -0.2, 0.5)), ((0.0, 0.05, 0.0), (0.0, 1.2, 0.0))],
               'l2': [((0.2, 0.0, 0.0), (0, 0, 0)), ((0.0, 0.1, 0.0), (0.4, 0.1, 0.2))]}
    from dh_kinematics.core.rotations import xyz_rpy_to_transform
    for q in rng.uniform(-2.0, 2.0, (5, 2)):
        pin.framesForwardKinematics(model, data, pin_configuration(pin, model, ['j1', 'j2'], q))
        placed = capsules.placed(chain.fkine_all(q))
        for k, link in enumerate(('l1', 'l2'), start=1):
            M = data.oMf[model.getFrameId(link)]
            ours = [c for c, on in enumerate(capsules.links) if on == k]
            for shape, (xyz, rpy) in zip(surfaces[link], origins[link]):
                T = np.vstack([np.hstack([M.rotation, M.translation[:, None]]), [0, 0, 0, 1]])
                T = T @ xyz_rpy_to_transform(xyz, rpy)
                world = shape @ T[:3, :3].T + T[:3, 3]
                gaps = [min(segment_distance(point, *placed[c]) - capsules.radii[c]
                            for c in ours) for point in world]
                assert max(gaps) <= 1e-9, (link, max(gaps))
                if link == 'l1':  # the box's corners, the cylinder's rims: on a capsule
                    assert max(gaps) >= -1e-9, (link, max(gaps))


def test_a_link_with_more_shapes_than_capsules_keeps_the_default_body_and_says_so():
    # Issue 71 (5): a link's capsules are capped; an import past the cap says so.
    sphere = '<collision><geometry><sphere radius="0.01"/></geometry></collision>'
    text = URDF.replace('<link name="l2">', '<link name="l2">' + sphere * 17).replace(
        '<mesh filename="file://{mesh}" scale="1.0 2.0 0.5"/>', '<sphere radius="0.02"/>')
    result = from_urdf(text, 'base', 'tip')
    assert [link.collision is None for link in result.chain.links] == [False, True]
    assert any('19 shapes, more than the 16 capsules a link holds' in note
               for note in result.notes), result.notes


def test_a_mesh_too_large_for_any_arm_is_not_read_and_the_body_says_so(tmp_path):
    # Issue 71 (8): a sparse 3 GB STL named by a collision shape was read whole: 3 GB of memory
    # or a MemoryError traceback. Refused by its size before any byte is read.
    with open(tmp_path / 'huge.stl', 'wb') as sparse:
        sparse.truncate(3 << 30)
    result = from_urdf(URDF.replace('{mesh}', str(tmp_path / 'huge.stl')), 'base', 'tip')
    assert result.chain.links[1].collision is None
    assert any(f'{tmp_path / "huge.stl"}: the mesh is larger than 64 MiB, which no mesh needs'
               in note for note in result.notes), result.notes


@needs_vendor
def test_a_vendor_arm_whose_meshes_are_missing_keeps_the_default_body_and_says_so():
    text, entry = vendor_arm('kuka_iiwa14.urdf')
    result = from_urdf(text, entry['base'], entry['tip'], environ={})
    assert all(link.collision is None for link in result.chain.links)
    assert any(note.startswith('collision geometry of lbr_link_1, lbr_link_2') and
               '(mesh package://lbr_description/' in note and
               'keep the default capsules' in note for note in result.notes), result.notes
    text, entry = vendor_arm('doosan_m1013.urdf')  # cylinders: enclosed
    chain = from_urdf(text, entry['base'], entry['tip']).chain
    assert sum(link.collision is not None for link in chain.links) == 4
