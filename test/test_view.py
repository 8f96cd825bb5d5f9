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
``dh_kinematics view``: the arm in a browser, moved by hand or following a running system.

What the page shows is checked three ways: its readout against the core (no viser); the scene
that viser serves against ``fkine`` (yourdfpy poses the generated URDF), with inverse kinematics
asked for over the page's websocket as the browser asks; and the page itself in headless
Chromium (Debian's ``chromium`` and Playwright; skipped where either is missing), moved through
its own controls, and following a node.
"""

import io
import math
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading

from helpers import (
    CLI_COMMAND, needs_pin, needs_vendor, optional, PACKAGE, pin, pin_configuration, run_cli,
    segment_distance, vendor_model)
import numpy as np
from processes import read_line, spawn
import pytest
import yaml

from dh_kinematics import Chain, Link  # noqa: I100
from dh_kinematics.cli import models
from dh_kinematics.core.display import pose_text
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, WARN
from dh_kinematics.parameters import files
from dh_kinematics.viewer.history import History
from dh_kinematics.viewer.readout import Readout, yaml_line

viser = optional('viser')
playwright = optional('playwright.sync_api')
needs_viser = pytest.mark.skipif(viser is None, reason='viser (the view extra) is not installed')
CHROMIUM = shutil.which('chromium')
needs_browser = pytest.mark.skipif(
    viser is None or playwright is None or CHROMIUM is None,
    reason="headless Chromium (Debian's chromium) or Playwright is not here")
CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
                  '--disable-component-update', '--disable-sync', '--no-first-run',
                  '--disable-quic']
SHIPPED = ('ur5', 'panda', 'puma560', 'puma560_mdh', 'stanford')
DEADLINE_MS = 60_000
STARTED_S = 120.0  # view's start on a loaded machine: its libraries imported, the page built
SCREENSHOTS = (pathlib.Path(os.environ['DH_VIEW_SCREENSHOTS'])
               if os.environ.get('DH_VIEW_SCREENSHOTS') else None)
"""Where the browser tests also save their screenshots (besides the test's tmp_path)."""


def _model(name):
    given, checked = files.read(PACKAGE / 'config' / f'{name}.yaml')
    return checked.chain, given, checked.settings


def test_the_readout_judges_as_the_node():
    chain, _, settings = _model('ur5')
    readout = Readout(chain, settings)
    margin = settings['diagnostics.warn_margin']
    upper = chain.qlim[1][1]
    q = np.array([0.0, -1.0, 1.0, -1.5, 1.2, 0.3])
    reading = readout.update(q, 1.0)
    assert reading.levels == [OK] * 6
    np.testing.assert_allclose(reading.T_world_tool, chain.fkine(q), atol=1e-15)
    assert math.isnan(reading.speed)  # one configuration: no rate yet
    assert reading.singularity.startswith('OK: condition number')
    near = q.copy()
    near[1] = upper - margin / 2
    reading = readout.update(near, 1.5)
    assert reading.levels[1] == WARN
    qd, h = (near - q) / 0.5, 1e-6  # the tool's speed by central differences of its position
    moved = chain.fkine(near + h * qd)[:3, 3] - chain.fkine(near - h * qd)[:3, 3]
    assert reading.speed == pytest.approx(np.linalg.norm(moved) / (2 * h), rel=1e-7)
    beyond = near.copy()
    beyond[1] = upper + 0.01
    assert readout.update(beyond, 2.0).levels[1] == ERROR
    wrist = q.copy()
    wrist[4] = 0.0  # the UR wrist's textbook singularity: joint 5 at 0
    assert readout.update(wrist, 2.5).singularity.startswith('ERROR: wrist singularity')


def test_the_readout_solves_from_where_the_arm_is_or_says_why_not():
    chain, _, settings = _model('panda')
    readout = Readout(chain, settings)
    rng = np.random.default_rng(45)
    q_start = chain.random_q(1, rng)[0]
    target = chain.fkine(chain.random_q(1, rng)[0])
    q, message = readout.solve(target, q_start)
    assert message.startswith('solved')
    np.testing.assert_allclose(chain.fkine(q), target, atol=1e-8)
    far = target.copy()
    far[:3, 3] = [3.0, 0.0, 0.5]
    q, message = readout.solve(far, q_start)
    assert q is None and message.startswith('no solution') and ' m, ' in message


def test_the_yaml_line_reads_back_as_the_joint_values():
    q = np.array([0.1, -1.2345678901234567, 3.0, 1e-17])
    assert yaml.safe_load(yaml_line(q)) == {'here': q.tolist()}


def test_the_history_keeps_the_window_and_thins_a_fast_stream():
    history = History(seconds=2.0, spacing=0.01)
    for k in range(5000):  # 1 kHz for 5 s
        history.add('velocity', k * 1e-3, ('a', 'b'), (k, -k))
    names, t, values = history.series('velocity', 5.0)
    assert names == ('a', 'b') and values.shape == (2, len(t))
    assert -2.0 <= t[0] < -1.98 and -0.012 < t[-1] <= -0.001
    assert np.all(np.diff(t) >= 0.01 - 1e-12)
    history.add('velocity', 5.1, ('a',), (1.0,))  # other joints: a new series
    assert history.series('velocity', 5.1)[0] == ('a',)
    assert history.series('effort', 5.1)[1].size == 0


# The scene viser serves, and a client's IK drag -------------------------------------------

def _free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


@pytest.fixture
def server():
    """Serve on loopback; stop after the test."""
    from dh_kinematics.cli.view import viser_server
    running = viser_server('127.0.0.1', _free_port())
    yield running
    running.stop()


def _teach(server, chain, given, settings, out=None):
    from dh_kinematics.viewer.teach import serve
    return serve(server, chain, given, settings, False, out)


def _drawn_poses_agree(page, chain, q):
    page.move(q)
    drawn = [page.scene.pose(name) for name in chain.link_frames]
    np.testing.assert_allclose(drawn, chain.fkine_all(q)[1:], atol=1e-9)
    np.testing.assert_allclose(page.scene.pose(chain.tool_frame), chain.fkine(q), atol=1e-9)
    assert page.tool.value == pose_text(chain.fkine(q))


@needs_viser
@pytest.mark.parametrize('name', SHIPPED)
def test_the_scene_draws_every_frame_where_fkine_puts_it(server, name):
    chain, given, settings = _model(name)
    page = _teach(server, chain, given, settings)
    rng = np.random.default_rng(4500)
    for q in chain.random_q(5, rng):
        _drawn_poses_agree(page, chain, q)
    # A joint past its limit turns the links it moves red; back inside, they are as drawn.
    lower, upper = np.asarray(chain.qlim).T
    limited = np.flatnonzero(np.isfinite(upper))
    if not len(limited):
        return
    j = limited[-1]
    joint = chain.joint_names[j]
    inside = np.where(np.isfinite(lower) & np.isfinite(upper), (lower + upper) / 2.0, 0.0)
    page.move(inside)
    own = page.scene.colours(joint)
    assert own and page.levels.value == 'every joint OK'
    beyond = inside.copy()
    beyond[j] = upper[j] + 0.2
    page.move(beyond)
    assert page.scene.colours(joint) == {(214, 39, 40)}
    assert page.levels.value == f'{joint} ERROR'
    page.move(inside)
    assert page.scene.colours(joint) == own


@needs_viser
def test_the_capsules_are_drawn_on_their_links_and_the_closest_pair_coloured(server):
    # Each capsule's mesh lies on its capsule (its vertices one radius from the segment, to
    # the mesh's facets); the closest judged pair (coal-checked in test_capsules) takes its
    # level's colour, the others stay grey.
    from dh_kinematics.core.safety.link_capsules import LinkCapsules
    from dh_kinematics.viewer.capsules import capsule_mesh, CLOSEST, GREY
    chain, given, settings = _model('panda')
    page = _teach(server, chain, given, settings)
    capsules = LinkCapsules(chain, [entry for entry in settings['safety.self_collision.ignore']
                                    if entry])
    for ends, radius in zip(capsules.ends, capsules.radii):
        mesh = capsule_mesh(ends[0], ends[1], radius)
        np.testing.assert_allclose(segment_distance(mesh.vertices, *ends), radius, rtol=1e-6)
    rng = np.random.default_rng(4502)
    for q in chain.random_q(5, rng):
        page.move(q)
        closest = capsules.closest(chain.fkine_all(q))
        pair = int(np.argmin(closest.distance))
        distance = float(closest.distance[pair])
        level = 2 if distance < 0.01 else 1 if distance < 0.05 else 0
        assert page.self_collision.value == (
            f'{("OK", "WARN", "ERROR")[level]}: '
            f'{capsules.pair_name(pair).replace(" ", " and ")} {distance:.3f} m apart')
        colours = [tuple(int(c) for c in handle.color) for handle in page.capsules.handles]
        assert [k for k, colour in enumerate(colours) if colour != GREY] == sorted(
            capsules.pairs[pair].tolist())
        assert colours[capsules.pairs[pair][0]] == CLOSEST[level]
        np.testing.assert_allclose([dot.position for dot in page.capsules.dots],
                                   [closest.point_a[pair], closest.point_b[pair]], atol=1e-6)


@needs_viser
@needs_vendor
def test_an_imported_vendor_arm_is_drawn_where_fkine_puts_it(server, tmp_path):
    model = vendor_model('kinova_gen3_7dof.urdf', tmp_path)
    given, checked = files.read(model)
    chain = checked.chain
    page = _teach(server, chain, given, checked.settings)
    for q in chain.random_q(5, np.random.default_rng(4501)):
        _drawn_poses_agree(page, chain, q)


@needs_viser
@pytest.mark.parametrize('name', SHIPPED)
def test_the_first_camera_shows_the_whole_arm_filling_the_view(server, name):
    # Issue 57: the UR5 was small and far in the first view.
    chain, given, settings = _model(name)
    page = _teach(server, chain, given, settings)
    camera = server.initial_camera
    position, look_at = np.asarray(camera.position), np.asarray(camera.look_at)
    ahead = (look_at - position) / np.linalg.norm(look_at - position)
    points = np.vstack([chain.fkine_all(page.q)[:, :3, 3], chain.fkine(page.q)[:3, 3]])
    rays = points - position
    angles = np.arccos(np.clip(rays @ ahead / np.linalg.norm(rays, axis=1), -1.0, 1.0))
    assert angles.max() < camera.fov / 2  # every frame in view...
    assert angles.max() > camera.fov / 4  # ...and the arm not a speck in its middle


@needs_viser
@pytest.mark.parametrize('name', SHIPPED)
def test_each_label_names_the_frames_at_its_place_and_none_overlap(name):
    # Issue 57: frames with one origin (a DH link with a = d = 0, flange at tool0) had their
    # names drawn over each other.
    from dh_kinematics.viewer.scene import label_groups, load_urdf
    chain = _model(name)[0]
    urdf = load_urdf(chain.to_urdf()).urdf
    named = ((chain.world_frame, chain.base_frame) + chain.link_frames + (chain.tool_frame,)
             + tuple(frame.name for frame in chain.frames))
    labels = label_groups(urdf, named)
    texts = [text.split(', ') for _, text in labels]
    assert sorted(sum(texts, [])) == sorted(set(named))
    for q in chain.random_q(5, np.random.default_rng(4502)):
        urdf.update_cfg(dict(zip(chain.joint_names, q)))
        where = {link: urdf.get_transform(link)[:3, 3] for link in named}  # yourdfpy's
        places = np.array([where[link] for link, _ in labels])
        gaps = np.linalg.norm(places[:, None] - places[None], axis=2)
        assert gaps[np.triu_indices(len(places), 1)].min() > 1e-6
        for (link, _), group in zip(labels, texts):
            for other in group:
                np.testing.assert_allclose(where[other], where[link], atol=1e-9)


@needs_viser
def test_the_tool_speed_of_a_slider_moved_by_a_rounding_is_0(server):
    # Issue 57: the page read 1.7e-18 m/s with the arm at rest.
    chain, given, settings = _model('ur5')
    page = _teach(server, chain, given, settings)
    page.move(np.zeros(chain.n))
    for value in (1e-15, 2e-15):  # as a browser's slider sends back values it rounded
        page.sliders[0].value = value
    assert page.speed.value.startswith('0.000 m/s'), page.speed.value


def _send_as_the_browser(port, message):
    """Send one message over viser's websocket, as its client does (msgpack, subprotocol)."""
    import msgspec
    from websockets.sync.client import connect
    with connect(f'ws://127.0.0.1:{port}', subprotocols=[f'viser-v{viser.__version__}'],
                 max_size=None) as websocket:
        websocket.send(msgspec.msgpack.encode(message))


def _drag(port, page, T):
    """Drag the IK gizmo to ``T`` as a browser would; return once the page says a new result."""
    from viser import transforms
    done = threading.Event()
    page.ik.on_update(lambda _: done.set())  # the page's last word on a drag
    _send_as_the_browser(port, {
        'type': 'TransformControlsUpdateMessage', 'name': '/ik_target', 'owner': '',
        'wxyz': [float(v) for v in transforms.SO3.from_matrix(T[:3, :3]).wxyz],
        'position': [float(v) for v in T[:3, 3]]})
    assert done.wait(60), 'the page never took the drag'


@needs_viser
def test_dragging_the_gizmo_solves_from_the_present_configuration(server):
    chain, given, settings = _model('ur5')
    page = _teach(server, chain, given, settings)
    q_start = np.array([0.2, -1.2, 1.3, -1.6, -1.5, 0.4])
    page.move(q_start)
    target = chain.fkine(q_start + [0.1, -0.1, 0.15, 0.0, 0.1, -0.2])
    _drag(server.get_port(), page, target)
    assert page.ik.value.startswith('solved')
    np.testing.assert_allclose(chain.fkine(page.q), target, atol=1e-8)
    np.testing.assert_allclose(page.scene.pose(chain.tool_frame), target, atol=1e-8)
    # Of the closed form's solutions, the one nearest where the arm was.
    assert np.abs(page.q - q_start).max() < 0.5
    before = page.q
    far = target.copy()
    far[:3, 3] = [2.0, 0.0, 0.5]
    _drag(server.get_port(), page, far)
    assert page.ik.value.startswith('no solution') and 'out of reach' in page.ik.value
    np.testing.assert_array_equal(page.q, before)  # the arm stays


# A description from anyone on the domain --------------------------------------------------

BRANCHED = """<robot name="branched">
  <link name="base"><visual><geometry><box size="0.2 0.2 0.1"/></geometry></visual></link>
  <link name="upper"><visual><origin xyz="0.15 0 0"/>
    <geometry><cylinder radius="0.03" length="0.3"/></geometry></visual></link>
  <link name="left"/><link name="right"/><link name="tip"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.1" rpy="0.1 0.2 0.3"/><axis xyz="0 1 1"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="left_finger" type="prismatic"><parent link="upper"/><child link="left"/>
    <origin xyz="0.3 0.02 0"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.04" effort="1" velocity="1"/></joint>
  <joint name="right_finger" type="prismatic"><parent link="upper"/><child link="right"/>
    <origin xyz="0.3 -0.02 0"/><axis xyz="0 -1 0"/>
    <limit lower="0" upper="0.04" effort="1" velocity="1"/>
    <mimic joint="left_finger" multiplier="0.5" offset="0.01"/></joint>
  <joint name="tool" type="fixed"><parent link="left"/><child link="tip"/>
    <origin xyz="0.05 0 0" rpy="0 1.5 0"/></joint>
</robot>
"""


def _follow_page(server):
    from dh_kinematics.viewer.follow import FollowPage
    return FollowPage(server, False, '/robot_description')


@needs_viser
def test_a_branched_description_with_a_mimic_joint_is_posed_as_yourdfpy_poses_it(server):
    import yourdfpy
    page = _follow_page(server)
    page.describe(BRANCHED)
    truth = yourdfpy.URDF.load(io.StringIO(BRANCHED))
    for shoulder, finger in ((0.0, 0.0), (0.7, 0.03), (-1.9, 0.01)):
        page.joint_states(1.0, ['shoulder', 'left_finger'], [shoulder, finger])
        page.refresh(1.0)
        truth.update_cfg({'shoulder': shoulder, 'left_finger': finger})
        for link in truth.link_map:
            np.testing.assert_allclose(page.scene.pose(link), truth.get_transform(link),
                                       atol=1e-12)


@needs_viser
def test_following_plots_the_observers_external_torque_beside_the_residual(server):
    page = _follow_page(server)
    page.describe(BRANCHED)
    limits = {'position': '0.1', 'lower': '-2', 'upper': '2'}
    page.diagnostics(1.0, [('shoulder', 2, 'external torque -25 N m',
                            dict(limits, external_torque='-25')),
                           ('left_finger', 0, 'within limits',
                            dict(limits, effort_residual='0.5'))])
    assert page.history.quantities == ('effort residual', 'external torque')
    names, _, values = page.history.series('external torque', 1.0)
    assert names == ('shoulder',) and values.tolist() == [[-25.0]]


@needs_viser
@pytest.mark.parametrize('size', ['nan nan nan', 'inf 1 1', '1 -1 1'])
def test_a_description_with_a_size_no_urdf_has_is_refused_on_the_page(server, size):
    # Issue 58 (3): <box size="nan nan nan"/> on the domain ended view --follow ("Camera
    # position must be finite"). Refused naming it; the arm drawn before stays.
    page = _follow_page(server)
    page.describe(BRANCHED)
    camera = tuple(server.initial_camera.position)
    page.describe(BRANCHED.replace('0.2 0.2 0.1', size))
    assert page.status.value.startswith("robot_description: link 'base' visual box: size=")
    assert tuple(server.initial_camera.position) == camera
    page.joint_states(1.0, ['shoulder'], [0.5])
    page.refresh(1.0)
    assert page.status.value.startswith('robot_description')


@needs_viser
def test_a_long_description_is_drawn_in_one_walk_of_its_tree(server, monkeypatch):
    # Issue 58 (4): each link's pose was a product along its path from the root (numpy's
    # multi_dot orders a chain of n matrices in n^3): 120 links took 3.7 s a refresh, 250
    # about 70 s. bench/bench_view.py times it.
    from trimesh.scene.transforms import SceneGraph
    chain = Chain([Link(a=0.05, alpha=0.3, d=0.01, name=f'j{k}') for k in range(250)])
    longest = []
    get = SceneGraph.get

    def counted(graph, frame_to, frame_from=None):
        path = graph.transforms.shortest_path(frame_from or graph.base_frame, frame_to)
        longest.append(len(path) - 1)
        return get(graph, frame_to, frame_from)

    page = _follow_page(server)
    monkeypatch.setattr(SceneGraph, 'get', counted)
    page.describe(chain.to_urdf())
    q = np.random.default_rng(4503).uniform(-1.0, 1.0, chain.n)
    page.joint_states(1.0, chain.joint_names, q)
    page.refresh(1.0)
    monkeypatch.undo()
    assert max(longest) <= 2  # a link to its visual, through the visual's own frame at most
    np.testing.assert_allclose(page.scene.pose(chain.tool_frame), chain.fkine(q), atol=1e-9)


def test_a_signal_ends_a_busy_step_at_once():
    # Issue 58 (4): while a step was busy (drawing a large description) Ctrl-C waited for it.
    from dh_kinematics.viewer.signals import Signals
    done, total = [], 50_000_000

    def busy(period):
        os.kill(os.getpid(), signal.SIGINT)
        for k in range(total):
            done.append(k) if k % 1_000_000 == 0 else None
        return True

    with Signals() as signals:
        signals.run(busy)
    assert len(done) < total // 1_000_000


def test_a_signal_while_the_page_is_built_ends_the_loop_before_it_starts():
    # A Ctrl-C while view imported its libraries was lost (a KeyboardInterrupt inside an
    # import can be caught there), and the page served on: now it is noted from the start,
    # raises nothing before the loop, and the loop does not start.
    from dh_kinematics.viewer.signals import Signals
    steps, before = [], signal.getsignal(signal.SIGINT)
    with Signals() as signals:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            sum(range(1000))  # the handler has run
        except KeyboardInterrupt:  # pragma: no cover
            pytest.fail('the signal raised before the loop')
        signals.run(steps.append)
    assert steps == [] and signal.getsignal(signal.SIGINT) is before


def _handshake(port, host, origin=None):
    """Open viser's websocket as a browser does, raw; return the HTTP status line's code."""
    lines = ['GET / HTTP/1.1', f'Host: {host}', 'Upgrade: websocket', 'Connection: Upgrade',
             'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13',
             f'Sec-WebSocket-Protocol: viser-v{viser.__version__}']
    if origin is not None:
        lines.append(f'Origin: {origin}')
    with socket.create_connection(('127.0.0.1', port)) as connection:
        connection.sendall(('\r\n'.join(lines) + '\r\n\r\n').encode())
        status = connection.makefile('rb').readline().decode()
    return int(status.split()[1])


@needs_viser
def test_the_websocket_is_only_for_the_page_itself(server):
    # Issue 58 (5): a page of any site open in the user's browser could read and move the arm.
    port = server.get_port()
    own = f'localhost:{port}'
    assert _handshake(port, own, f'http://{own}') == 101
    assert _handshake(port, f'127.0.0.1:{port}', f'http://127.0.0.1:{port}') == 101
    assert _handshake(port, f'[::1]:{port}', f'http://[::1]:{port}') == 101
    assert _handshake(port, own) == 101  # no Origin: no browser page (a script here)
    assert _handshake(port, own, 'http://evil.example') == 403
    assert _handshake(port, own, f'http://localhost:{port + 1}') == 403
    assert _handshake(port, own, 'null') == 403  # a sandboxed page or a file
    # A name of the attacker's rebound to 127.0.0.1: Origin and Host agree, yet not here.
    assert _handshake(port, f'evil.example:{port}', f'http://evil.example:{port}') == 403


@pytest.mark.parametrize('host', ['', ' ', 'a b', 'x_y', 'http://localhost'])
def test_the_host_is_an_address(host):
    # Issue 58 (6): --host '' bound every interface and printed http://:PORT/.
    _, err = run_cli('view', PACKAGE / 'config' / 'ur5.yaml', '--host', host, code=2)
    assert 'not an address; give 127.0.0.1' in err


@needs_viser
def test_serving_beyond_this_machine_says_the_page_has_no_authentication():
    # Issue 58 (6): --host 0.0.0.0 gave no word that anyone reaching the port drives the page.
    process = spawn(CLI_COMMAND + ['view', str(PACKAGE / 'config' / 'ur5.yaml'), '--host',
                                   '0.0.0.0', '--port', str(_free_port())],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = read_line(process, STARTED_S, process.stdout)
        warning = read_line(process, STARTED_S, process.stderr)
    finally:
        process.send_signal(signal.SIGINT)  # whenever it comes: view ends once it is built
        process.communicate(timeout=STARTED_S)
    assert re.match(r'serving the arm at http://0\.0\.0\.0:\d+/ \(bound to 0\.0\.0\.0', line)
    assert warning.startswith('warning: the page has no authentication: anyone who reaches')


@needs_viser
def test_a_slider_takes_no_value_its_range_does_not_hold(server):
    # Issue 58 (8): a slider set to NaN gave a traceback per message and printed [nan, ...];
    # one at 1e308 on a +-2 pi joint was shown and printed as 1e+308. What the websocket sets
    # reaches the page's callback as this assignment does.
    chain, given, settings = _model('ur5')
    out = io.StringIO()
    page = _teach(server, chain, given, settings, out)
    page.move([0.1, -1.0, 1.2, 0.0, 0.5, 0.0])
    before = page.tool.value
    page.sliders[1].value = math.nan
    assert page.sliders[1].value == -1.0 and page.tool.value == before
    page.sliders[2].value = 1e308
    page.sliders[3].value = -math.inf
    upper = chain.qlim[2][1]
    np.testing.assert_allclose(page.q, [0.1, -1.0, upper, 0.0, 0.5, 0.0])
    assert page.tool.value == pose_text(chain.fkine(page.q))
    page.print_yaml()
    assert yaml.safe_load(out.getvalue())['here'] == page.q.tolist()


@needs_viser
def test_a_slider_moved_while_the_page_moves_the_sliders_is_applied_after(server):
    # Issue 71 (17): after 300 gizmo poses sent at once, a slider moved while a solve set the
    # sliders was dropped. Here the user's move comes while the page sets the first slider.
    chain, given, settings = _model('ur5')
    page = _teach(server, chain, given, settings)
    page.move(np.zeros(chain.n))
    user = {'left': 1}

    def the_user_moves_the_last_slider(_):
        if user['left']:
            user['left'] -= 1
            page.sliders[5].value = 0.7  # rad: the page is in radians
    page.sliders[0].on_update(the_user_moves_the_last_slider)
    q = np.array([0.2, -1.2, 1.3, -1.6, -1.5, 0.4])
    page.move(q)  # as a gizmo's solve moves the arm
    assert user['left'] == 0
    np.testing.assert_allclose(page.q, np.r_[q[:5], 0.7])
    assert page.tool.value == pose_text(chain.fkine(page.q))  # shown, not only set


@needs_viser
@pytest.mark.parametrize('wxyz, position', [([0.0, 0.0, 0.0, 0.0], [0.4, 0.1, 0.3]),
                                            ([1.0, 0.0, 0.0, 0.0], [math.nan, 0.1, 0.3]),
                                            ([math.inf, 0.0, 0.0, 0.0], [0.4, 0.1, 0.3])])
def test_an_ik_target_that_is_no_pose_is_refused_and_the_gizmo_goes_back(
        server, wxyz, position):
    # Issue 58 (8): a NaN target or the quaternion (0, 0, 0, 0) gave a traceback and the page
    # kept saying "solved" for the old target.
    chain, given, settings = _model('ur5')
    page = _teach(server, chain, given, settings)
    q = page.q
    _drag(server.get_port(), page, chain.fkine(q + 0.1))
    assert page.ik.value.startswith('solved')
    q = page.q
    done = threading.Event()
    page.ik.on_update(lambda _: done.set())
    _send_as_the_browser(server.get_port(), {
        'type': 'TransformControlsUpdateMessage', 'name': '/ik_target', 'owner': '',
        'wxyz': wxyz, 'position': position})
    assert done.wait(60), 'the page never took the drag'
    assert page.ik.value.startswith('no target: its position or orientation is not finite')
    np.testing.assert_array_equal(page.q, q)
    from dh_kinematics.viewer.scene import pose_of
    np.testing.assert_allclose(pose_of(page.target), chain.fkine(q), atol=1e-9)


# The page in headless Chromium ------------------------------------------------------------

def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _view(*args):
    """
    Start ``dh_kinematics view`` as its console script; return (process, the page's URL).

    With SIGINT ignored, as a shell starts a background job (and CI runs the suite): Ctrl-C must
    still stop it.
    """
    process = spawn(CLI_COMMAND + ['view', *map(str, args), '--port', str(_free_port())],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                    preexec_fn=_ignore_sigint)
    line = read_line(process, stream=process.stdout)
    match = re.search(r'http://localhost:\d+/', line)
    if match is None:
        process.kill()
        raise AssertionError(f'view did not start: {line}{process.communicate()[1]}')
    return process, match.group(0)


def _stop(process):
    """Stop the viewer as Ctrl-C does; it must end with code 0. Return what it printed."""
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=DEADLINE_MS / 1000)
    assert process.returncode == 0, err
    return out


class _Browser:
    """Headless Chromium on one page of the viewer."""

    def __init__(self, url):
        self._playwright = playwright.sync_playwright().start()
        self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM,
                                                         args=CHROMIUM_FLAGS)
        self.page = self._browser.new_page(viewport={'width': 1400, 'height': 900})
        self.page.set_default_timeout(DEADLINE_MS)
        self.page.goto(url)

    def close(self):
        self._browser.close()
        self._playwright.stop()

    def field(self, label):
        """Return the input or text area of the panel's row labelled ``label``."""
        named = self.page.locator('label').filter(has_text=re.compile(f'^{re.escape(label)}$'))
        row = self.page.locator('.mantine-Flex-root', has=named).last
        return row.locator('input[inputmode=decimal], textarea').last

    def expect(self, locator):
        playwright.expect.set_options(timeout=DEADLINE_MS)
        return playwright.expect(locator)

    def screenshot(self, tmp_path, name):
        for folder in (tmp_path, SCREENSHOTS):
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
                self.page.screenshot(path=str(folder / name))


def _pose_numbers(text):
    """Return the six numbers of ``xyz=[...] m, rpy=[...] deg``, the rpy in rad."""
    values = [float(v) for v in re.findall(r'[-+0-9.e]+(?=[,\]])', text)]
    return np.array(values[:3]), np.radians(values[3:6])


def _pose_close(text, T, tolerance):
    from dh_kinematics.core.rotations import rpy_to_matrix
    xyz, rpy = _pose_numbers(text)
    np.testing.assert_allclose(xyz, T[:3, 3], atol=tolerance)
    np.testing.assert_allclose(rpy_to_matrix(rpy), T[:3, :3], atol=tolerance)


@needs_browser
def test_the_page_moves_the_arm_by_its_sliders_buttons_and_gizmo(tmp_path):
    chain, given, _ = _model('ur5')
    names = [f'{name} (deg)' for name in chain.joint_names]
    process, url = _view(PACKAGE / 'config' / 'ur5.yaml', '--deg')
    browser = _Browser(url)
    try:
        tool = browser.field(chain.tool_frame)
        # A slider, through its number box: the tool where fkine puts it, in the CLI's units.
        browser.field(names[1]).fill('-45')
        browser.field(names[1]).press('Enter')
        q = np.radians([0.0, -45.0, 0.0, 0.0, 0.0, 0.0])
        browser.expect(tool).to_have_value(pose_text(chain.fkine(q), degrees=True))
        # A named configuration's button.
        home = np.array(models.params.configurations(given, chain.n)['home'])
        browser.page.get_by_role('button', name='home', exact=True).click()
        browser.expect(tool).to_have_value(pose_text(chain.fkine(home), degrees=True))
        shown = np.radians([float(browser.field(name).input_value()) for name in names])
        np.testing.assert_allclose(shown, home, atol=np.radians(0.051))
        # The gizmo, dragged as the browser drags it: the arm follows, solved from home.
        target = chain.fkine(home + [0.2, -0.1, 0.2, 0.1, 0.2, -0.3])
        port = int(url.rsplit(':', 1)[1].strip('/'))
        from viser import transforms
        _send_as_the_browser(port, {
            'type': 'TransformControlsUpdateMessage', 'name': '/ik_target', 'owner': '',
            'wxyz': [float(v) for v in transforms.SO3.from_matrix(target[:3, :3]).wxyz],
            'position': [float(v) for v in target[:3, 3]]})
        browser.expect(browser.field('IK')).to_have_value(re.compile('^solved'))
        _pose_close(tool.input_value(), target, 2e-6)
        shown = np.radians([float(browser.field(name).input_value()) for name in names])
        _pose_close(pose_text(chain.fkine(shown), True), target, 2e-3)  # the boxes round
        # The values as a line to paste under configurations:, on the page and printed.
        browser.page.get_by_role('button', name='Print the joint values as YAML').click()
        browser.expect(browser.field('YAML')).to_have_value(re.compile(r'^here: \['))
        line = browser.field('YAML').input_value()
        np.testing.assert_allclose(chain.fkine(yaml.safe_load(line)['here']), target, atol=1e-8)
        browser.screenshot(tmp_path, 'view_ur5.png')
    finally:
        browser.close()
        out = _stop(process)
    assert line in out.splitlines()


@needs_browser
def test_the_page_names_the_closest_pair_of_capsules(tmp_path):
    # The Panda's forearm folded onto its shoulder (a named configuration's button): the page
    # names the pair at ERROR.
    model = tmp_path / 'panda.yaml'
    model.write_text((PACKAGE / 'config' / 'panda.yaml').read_text() + (
        '    configurations:\n      folded: [0.04, 1.76, -0.4, -3.03, 1.68, 1.82, -2.27]\n'))
    process, url = _view(model)
    browser = _Browser(url)
    try:
        browser.page.get_by_role('button', name='folded', exact=True).click()
        browser.expect(browser.field('self-collision')).to_have_value(
            re.compile('^ERROR: panda_link1 and panda_link5 0.00[0-9] m apart$'))
        browser.screenshot(tmp_path, 'view_self_collision.png')
    finally:
        browser.close()
        _stop(process)


@needs_browser
@needs_vendor
def test_the_page_shows_an_imported_vendor_arm(tmp_path):
    model = vendor_model('franka_fr3.urdf', tmp_path)
    chain = models.load(model)[0]
    process, url = _view(model)
    browser = _Browser(url)
    try:
        q = np.clip(np.zeros(chain.n), *np.asarray(chain.qlim).T)
        browser.expect(browser.field(chain.tool_frame)).to_have_value(
            pose_text(chain.fkine(q)))
        assert browser.page.locator('input[inputmode=decimal]').count() == chain.n
        browser.screenshot(tmp_path, 'view_fr3.png')
    finally:
        browser.close()
        _stop(process)


def test_view_says_what_to_give():
    _, err = run_cli('view', code=1)
    assert 'give a model file, or --follow a running system' in err
    _, err = run_cli('view', PACKAGE / 'config' / 'ur5.yaml', '--follow', code=1)
    assert '--follow takes no model file' in err
    _, err = run_cli('view', PACKAGE / 'config' / 'ur5.yaml', '--port', '0', code=2)
    _, err = run_cli('view', '--follow', '--path', 'line.csv', code=1)
    assert '--path takes a model file' in err


@needs_viser
def test_a_path_log_of_another_arm_is_refused_before_a_port_is_taken(tmp_path):
    (tmp_path / 'other.csv').write_text('time,a.position\n0,0.1\n0.1,0.2\n')
    _, err = run_cli('view', PACKAGE / 'config' / 'ur5.yaml', '--path', tmp_path / 'other.csv',
                     code=1)
    assert "joint 'a' is not in the model" in err


@needs_browser
@pytest.mark.ros
def test_following_a_node_shows_its_joint_states_and_colours_an_error(tmp_path):
    from ros_fixtures import NodeThread, Running, SimArm
    panda = PACKAGE / 'config' / 'panda.yaml'
    chain = models.load(panda)[0]
    running = Running(['--params-file', str(panda), '-p', 'diagnostics.period:=0.1'])
    process = browser = None
    try:
        process, url = _view('--follow')
        browser = _Browser(url)
        buttons = {name: browser.page.get_by_role('button', name=re.compile(f'^{name}: '))
                   for name in chain.joint_names}
        q = np.mean(np.asarray(chain.qlim), axis=1) + 0.1
        shown = [f'{name}: {float(f"{value:.4g}"):g} rad'
                 for name, value in zip(chain.joint_names, q)]

        def sent_and_shown(q, label):
            # joint_states is best effort: send until the page shows it.
            while True:
                running.probe.send(chain.joint_names, q)
                try:
                    browser.expect(buttons['panda_joint4']).to_have_text(label, timeout=1000)
                    return
                except AssertionError:
                    continue

        sent_and_shown(q, shown[3])
        for button, label in zip(buttons.values(), shown):
            browser.expect(button).to_have_text(label)
            browser.expect(button).not_to_have_css('background-color', 'rgb(214, 39, 40)')
        # The node says ERROR for joint 4 beyond its limit: its button turns red.
        beyond = q.copy()
        beyond[3] = chain.qlim[3][1] + 0.05
        sent_and_shown(beyond, f'panda_joint4: {float(f"{beyond[3]:.4g}"):g} rad')
        browser.expect(buttons['panda_joint4']).to_have_css('background-color',
                                                            'rgb(214, 39, 40)')
        browser.expect(buttons['panda_joint1']).not_to_have_css('background-color',
                                                                'rgb(214, 39, 40)')
        browser.screenshot(tmp_path, 'view_follow.png')
        # sim_arm's sweep: the page's values move with it.
        sim = NodeThread(SimArm, 'sim_arm', ['--params-file', str(panda)])
        try:
            first = buttons['panda_joint1'].text_content()
            browser.expect(buttons['panda_joint1']).not_to_have_text(first)
            second = buttons['panda_joint1'].text_content()
            browser.expect(buttons['panda_joint1']).not_to_have_text(second)
        finally:
            assert sim.stop() == 0
    finally:
        if browser is not None:
            browser.close()
        if process is not None:
            _stop(process)
        running.stop()


def test_view_without_viser_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, 'viser', None)  # import viser raises ImportError
    _, err = run_cli('view', PACKAGE / 'config' / 'ur5.yaml', code=1)
    assert 'pip install "dh_kinematics[view]"' in err


@needs_viser
@needs_pin
def test_a_path_log_is_drawn_where_the_tool_went_and_its_slider_poses_the_arm(server, tmp_path):
    from dh_kinematics.logs import for_model, read
    from dh_kinematics.viewer.path import PathLayer
    chain, given, settings = _model('ur5')
    log_file = tmp_path / 'line.csv'
    run_cli('path', PACKAGE / 'config' / 'ur5.yaml', PACKAGE / 'config' / 'ur5_joint_limits.yaml',
            '--from', '0', '-1.2', '1.4', '-1.8', '-1.57', '0', '--to', '-0.5', '-0.2', '0.4',
            '3.1416', '0', '1.5708', '--acceleration-limits', '3', '--rate', '100', '-o', log_file)
    page = _teach(server, chain, given, settings)
    layer = PathLayer(server, page, chain, for_model(read(log_file)[0], chain))
    # The drawn polyline joins the tool's positions, each from pinocchio at the log's row.
    model = pin.buildModelFromXML(chain.to_urdf())
    data = model.createData()
    tool = model.getFrameId(chain.tool_frame)
    expected = []
    for q in layer.positions:
        pin.framesForwardKinematics(model, data, pin_configuration(pin, model,
                                                                   chain.joint_names, q))
        expected.append(data.oMf[tool].translation.copy())
    expected = np.array(expected)
    np.testing.assert_allclose(layer.line.points[:, 0], expected[:-1], atol=1e-6)
    np.testing.assert_allclose(layer.line.points[:, 1], expected[1:], atol=1e-6)
    # The slider poses the arm at the log's time, between samples as sim_arm plays it.
    middle = layer.time[len(layer.time) // 2] + 0.004
    layer.slider.value = middle
    q = np.array([np.interp(middle, layer.time, column) for column in layer.positions.T])
    np.testing.assert_allclose(page.scene.pose(chain.tool_frame), chain.fkine(q), atol=1e-9)
