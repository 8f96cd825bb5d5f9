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
Shared helpers of the tests: reference vectors, chains, messages and the command line.

Test modules import what they use from here; ``conftest.py`` holds pytest's hooks and fixtures
only.
"""

import contextlib
import functools
import importlib
import importlib.util
import io
import json
import math
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile
import warnings
import xml.etree.ElementTree as ET

from dh_kinematics import Chain, Link
from dh_kinematics.cli import entry
from dh_kinematics.core.names import axis_frame_names, frame_names, parent_name, published_frames
from dh_kinematics.core.rotations import quaternion_to_matrix, xyz_rpy_to_transform
from hypothesis import strategies as st
import numpy as np
import processes
import pytest


DATA = pathlib.Path(__file__).parent / 'data'
PACKAGE = pathlib.Path(__file__).parents[1]
MODELS = ('puma560', 'puma560akb', 'stanford', 'panda')
CONFIG_FILES = {'puma560': 'puma560.yaml', 'puma560akb': 'puma560_mdh.yaml',
                'stanford': 'stanford.yaml', 'panda': 'panda.yaml', 'ur5': 'ur5.yaml'}
POSE_TOL = 1e-10
SCRIPT = pathlib.Path(sys.executable).with_name('dh_kinematics')
LINTED_PATHS = [str(PACKAGE / name) for name in (
    'dh_kinematics', 'test', 'bench', 'examples', 'launch', 'tools', 'doc', 'setup.py')]
"""What the linters check: every Python file of the package, its tests, tools and docs."""
CLI_COMMAND = ([str(SCRIPT)] if SCRIPT.exists()
               else [sys.executable, '-m', 'dh_kinematics.cli.main'])
"""The dh_kinematics command: the console script of this venv, else the module."""


def optional(module):
    """
    Return ``module`` imported, or None where it is not installed.

    Not importorskip at module level: launch_testing's pytest plugin, on a ROS install, turns a
    module-level skip into an empty collection for every module (a test skips by a marker,
    :func:`needs`, or a fixture).
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def needs(module, install):
    """Return a marker: skip a test where ``module`` does not import, saying what to install."""
    return pytest.mark.skipif(optional(module) is None,
                              reason=f'{module} is not installed: {install}')


pin = optional('pinocchio')
needs_pin = pytest.mark.skipif(pin is None, reason='pinocchio (pin) is not installed: '
                               'pip install pin, or apt install ros-$ROS_DISTRO-pinocchio')
needs_matplotlib = needs('matplotlib', 'pip install matplotlib, or apt install '
                         'python3-matplotlib')
needs_yourdfpy = needs('yourdfpy', 'pip install yourdfpy')


def example(name):
    """Return the module of ``examples/<name>.py``, loaded from its file."""
    path = PACKAGE / 'examples' / f'{name}.py'
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_cli(*args, code=0, cwd=None):
    """
    Run the command in this process; check its exit code (None: 0 or 1); return (stdout, stderr).

    As the console script runs it (:func:`dh_kinematics.cli.entry.main`), with the warnings a
    process would print on its stderr. A command line that touches ROS (``monitor``,
    ``from-urdf --topic``) runs as a process: :func:`run_cli_process`.
    """
    args = [str(arg) for arg in args]
    if args[:1] in (['monitor'], ['record']) or '--topic' in args:
        return run_cli_process(*args, code=code, cwd=cwd)
    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        try:
            if cwd is not None:
                os.chdir(cwd)
            returncode = entry.main(args)
        except SystemExit as stop:  # argparse: --help, or a bad command line
            returncode = stop.code
        finally:
            os.chdir(before)
    err = err.getvalue() + ''.join(
        warnings.formatwarning(w.message, w.category, w.filename, w.lineno) for w in caught)
    return _checked(returncode, out.getvalue(), err, code)


def run_cli_process(*args, code=0, cwd=None):
    """Run the command as its console script does; as :func:`run_cli`, in a process."""
    process = processes.spawn(CLI_COMMAND + [str(arg) for arg in args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    out, err = process.communicate(timeout=120)
    return _checked(process.returncode, out, err, code)


def run_cli_without(module, *args, code=0):
    """Run the command in a process where ``module`` does not import; as :func:`run_cli`."""
    program = (f'import sys; sys.modules[{module!r}] = None; '
               'from dh_kinematics.cli.main import main; sys.exit(main(sys.argv[1:]))')
    process = processes.spawn([sys.executable, '-c', program] + [str(arg) for arg in args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = process.communicate(timeout=120)
    return _checked(process.returncode, out, err, code)


def _checked(returncode, out, err, code):
    assert returncode in ((0, 1) if code is None else (code,)), (returncode, out, err)
    if code == 1:
        assert err.count('\n') == 1 and err.startswith('dh_kinematics '), err  # one line
    return out, err


def load_reference(model):
    """Return the reference vectors of one model."""
    with open(DATA / f'{model}.json', encoding='utf-8') as stream:
        return json.load(stream)


def link_from_reference(row):
    """Build a Link from one row of a reference model's DH table."""
    prismatic = bool(row['sigma'])
    return Link(joint='prismatic' if prismatic else 'revolute',
                convention='modified' if row['mdh'] else 'standard',
                a=row['a'], alpha=row['alpha'], offset=row['offset'], flip=row['flip'],
                d=0.0 if prismatic else row['d'], theta=row['theta'] if prismatic else 0.0,
                qlim=row['qlim'], m=row['m'], r=row['r'], I=row['I'], Jm=row['Jm'],
                G=row['G'], B=row['B'], Tc=row['Tc'])


def chain_from_reference(reference):
    """Build a Chain from a reference model, independently of the YAML reader."""
    model = reference['model']
    return Chain([link_from_reference(row) for row in model['links']], base=model['base'],
                 tool=model['tool'], gravity=model['gravity'], name=model['rtb_name'])


def assert_torques(actual, expected):
    """Compare torques with the reference tolerance 1e-9 * max(1, |tau|)."""
    expected = np.asarray(expected, dtype=float)
    tolerance = 1e-9 * np.maximum(1.0, np.abs(expected))
    assert np.all(np.abs(np.asarray(actual) - expected) <= tolerance), (actual, expected)


def assert_same_bits_but_zero_signs(values, expected):
    """Every value has the bits of the expected one, or both are zeros (of either sign)."""
    values, expected = np.asarray(values, float), np.asarray(expected, float)
    same = (values.view(np.uint64) == expected.view(np.uint64)) | (
        (values == 0.0) & (expected == 0.0))
    assert same.all(), (values[~same], expected[~same])


def joint_state_cdr(stamp_ns, names, positions, velocities=(), efforts=(), frame_id='',
                    padding=None):
    """
    Serialize a sensor_msgs/JointState as plain little-endian CDR.

    The alignment padding is zeros, or with ``padding`` (a numpy Generator) random bytes, as a
    middleware that leaves it uninitialised sends.
    """
    out = bytearray()

    def pad(alignment):
        count = -len(out) % alignment
        out.extend(bytes(count) if padding is None else padding.bytes(count))

    def u32(value):
        pad(4)
        out.extend(struct.pack('<I', value))

    def string(text):
        data = text.encode() + b'\0'
        u32(len(data))
        out.extend(data)

    def doubles(values):
        u32(len(values))
        if values:
            pad(8)
            out.extend(struct.pack(f'<{len(values)}d', *values))

    out.extend(struct.pack('<iI', *divmod(stamp_ns, 1_000_000_000)))
    string(frame_id)
    u32(len(names))
    for name in names:
        string(name)
    doubles(positions)
    doubles(velocities)
    doubles(efforts)
    return b'\x00\x01\x00\x00' + bytes(out)


VALUES = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([0.0, 1e308, -1e308, 1e-308, np.nan, np.inf, -np.inf]))
STAMPS = st.one_of(st.integers(-2 ** 31 * 10 ** 9, 2 ** 32 * 10 ** 9),
                   st.sampled_from([0, 1, 2 ** 31 * 10 ** 9 - 1, 2 ** 31 * 10 ** 9]))


@st.composite
def joint_state_fields(draw, chain):
    """Draw any JointState content for ``chain``: (names, positions, velocities, stamp_ns)."""
    known = list(chain.joint_names)
    names = draw(st.lists(st.one_of(st.sampled_from(known), st.text(max_size=6)), max_size=10))
    count = len(names)
    lengths = st.sampled_from([count, count, count, 0, max(count - 1, 0), count + 1])
    positions = draw(st.lists(VALUES, min_size=draw(lengths), max_size=count + 1))
    velocities = draw(st.lists(VALUES, min_size=0, max_size=count + 1))
    return names, positions, velocities, draw(STAMPS)


def urdf_joints(text):
    """Return a URDF's joints: {(parent, child): 'static' or 'moving'}, failing on a repeat."""
    joints = {}
    for joint in ET.fromstring(text).iter('joint'):
        key = joint.find('parent').get('link'), joint.find('child').get('link')
        assert key not in joints, key
        joints[key] = 'static' if joint.get('type') == 'fixed' else 'moving'
    return joints


def pin_model(chain, motors=False):
    """
    Return pinocchio's ``(model, data)`` of ``chain``'s URDF, with the chain's gravity.

    With ``motors``, the motors' ``G^2 Jm`` as pinocchio's armature: the inertia the chain's
    dynamics has that its URDF cannot hold.
    """
    model = pin.buildModelFromXML(chain.to_urdf())
    model.gravity.linear = np.asarray(chain.gravity, dtype=float)
    if motors:
        model.armature = np.asarray(chain.dynamic_constants.motor_inertia, dtype=float)
    return model, model.createData()


def pin_configuration(pin, model, joint_names, q):
    """Return pinocchio's configuration for ``q`` by joint name (continuous: cos, sin)."""
    q_pin = pin.neutral(model)
    for name, value in zip(joint_names, q):
        joint = model.joints[model.getJointId(name)]
        if joint.nq == 2:
            q_pin[joint.idx_q:joint.idx_q + 2] = math.cos(value), math.sin(value)
        else:
            q_pin[joint.idx_q] = value
    return q_pin


def coal_capsule(start, end, radius):
    """
    Return coal's capsule from ``start`` to ``end`` of ``radius`` (m) and its placement.

    A sphere where the two points are one. coal's capsule is along its z, its length the
    whole segment's.
    """
    import coal
    start, end = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
    axis = end - start
    length = float(np.linalg.norm(axis))
    placement = coal.Transform3s()
    placement.setTranslation((start + end) / 2)
    if length == 0.0:
        return coal.Sphere(radius), placement
    z = axis / length
    x = np.cross(z, [1.0, 0.0, 0.0] if abs(z[0]) < 0.9 else [0.0, 1.0, 0.0])
    x /= np.linalg.norm(x)
    placement.setRotation(np.column_stack([x, np.cross(z, x), z]))
    return coal.Capsule(radius, length), placement


def coal_distance(capsule_a, capsule_b):
    """Return coal's signed distance (m) of two capsules, each ``(start, end, radius)``."""
    import coal
    return coal.distance(*coal_capsule(*capsule_a), *coal_capsule(*capsule_b),
                         coal.DistanceRequest(), coal.DistanceResult())


def segment_distance(points, start, end):
    """Return the distance (m) of each of ``points`` (..., 3) to the segment ``start``-``end``."""
    points, start, end = (np.asarray(value, dtype=float) for value in (points, start, end))
    axis = end - start
    t = np.clip((points - start) @ axis / max(axis @ axis, 1e-300), 0.0, 1.0)
    return np.linalg.norm(points - (start + t[..., None] * axis), axis=-1)


def capsules_closing(capsules, q, qd):
    """Return :meth:`LinkCapsules.moving` of ``capsules`` at ``q`` moving at ``qd``."""
    from dh_kinematics.core.state import ArmState

    state = ArmState(capsules.chain, capsules.points.links, capsules.points.offsets)
    return capsules.moving(*state.points_at(q, qd))


def pose_transform(translation, quaternion):
    """Return the (4, 4) transform of a translation and a quaternion [x, y, z, w]."""
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = quaternion_to_matrix(quaternion), translation
    return T


def world_poses(edges, root):
    """Compose the TF tree from ``root`` as tf2 does; fail on a frame with two parents."""
    parents = {}
    for parent, child in edges:
        assert child not in parents, f'{child} has two parents: {parents.get(child)}, {parent}'
        parents[child] = parent
    poses = {root: np.eye(4)}

    def pose(frame):
        if frame not in poses:
            poses[frame] = pose(parents[frame]) @ edges[parents[frame], frame][0]
        return poses[frame]
    for frame in parents:
        pose(frame)
    return poses


def with_random_frames(chain, rng):
    """Return ``chain`` with 1 to 3 extra frames on random frames of it or of one another."""
    params = chain.to_params()
    parents = [name.name for name in published_frames(chain)]
    params['frames'] = {}
    for k in range(int(rng.integers(1, 4))):
        name = f'extra{k}'
        params['frames'][name] = {'parent': str(rng.choice(parents)),
                                  'xyz': rng.uniform(-0.3, 0.3, 3).tolist(),
                                  'rpy': rng.uniform(-3.0, 3.0, 3).tolist()}
        parents.append(name)
    return Chain.from_params(params)


def expected_world_poses(chain, q, prefix):
    """Every frame's world pose as the node published it before TF followed the URDF."""
    frames = frame_names(chain, prefix)
    T = chain.fkine_all(q)
    poses = dict(zip(frames[1:-1], T))
    poses[frames[0]], poses[frames[-1]] = np.eye(4), chain.fkine(q)
    theta = q * [-1.0 if link.flip else 1.0 for link in chain.links] + [
        link.offset for link in chain.links]
    for j, (link, axis) in enumerate(zip(chain.links, axis_frame_names(chain, prefix))):
        if axis:  # the link's frame without its Tx(a) Rx(alpha)
            t, d = (theta[j], link.d) if link.isrevolute() else (link.theta, theta[j])
            Rz = np.eye(4)
            Rz[:2, :2] = [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]
            Rz[2, 3] = d
            poses[axis] = T[j] @ Rz
    for frame in chain.frames:  # extra frames: their parent's pose, then their own
        parent = parent_name(chain, frame.parent, prefix)
        poses[prefix + frame.name] = poses[parent] @ frame.T_parent_frame
    return poses


# ur_description's UR5 (Universal_Robots_ROS2_Description, config/ur5/default_kinematics.yaml,
# physical_parameters.yaml and urdf/ur_macro.xacro, 2024-10): each joint's origin xyz and rpy,
# the fixed frames, and each link's mass, centre of mass, inertial rpy and the cylinder (radius,
# length) whose inertia ur_macro.xacro gives it.
UR5_JOINTS = (
    ('shoulder_pan_joint', 'base_link_inertia', 'shoulder_link', '0 0 0.089159', '0 0 0'),
    ('shoulder_lift_joint', 'shoulder_link', 'upper_arm_link', '0 0 0', '1.570796327 0 0'),
    ('elbow_joint', 'upper_arm_link', 'forearm_link', '-0.425 0 0', '0 0 0'),
    ('wrist_1_joint', 'forearm_link', 'wrist_1_link', '-0.39225 0 0.10915', '0 0 0'),
    ('wrist_2_joint', 'wrist_1_link', 'wrist_2_link', '0 -0.09465 -1.941303950897609e-11',
     '1.570796327 0 0'),
    ('wrist_3_joint', 'wrist_2_link', 'wrist_3_link', '0 0.0823 -1.688001216681175e-11',
     '1.570796326589793 3.141592653589793 3.141592653589793'))
UR5_FIXED = (('base_link', 'base_link_inertia', '0 0 3.141592653589793'),
             ('base_link', 'base', '0 0 3.141592653589793'),
             ('wrist_3_link', 'flange', '0 -1.5707963267948966 -1.5707963267948966'),
             ('flange', 'tool0', '1.5707963267948966 0 1.5707963267948966'))
UR5_INERTIALS = {
    'base_link_inertia': (4.0, '0 0 0', '0 0 0', 0.06, 0.05),
    'shoulder_link': (3.7, '0 -0.00193 -0.02561', '0 0 0', 0.06, 0.135),
    'upper_arm_link': (8.393, '-0.2125 0 0.11336', '0 1.570796326794897 0', 0.054, 0.425),
    'forearm_link': (2.33, '-0.24225 0 0.0265', '0 1.570796326794897 0', 0.04, 0.39225),
    'wrist_1_link': (1.219, '0 -0.01634 -0.0018', '0 0 0', 0.045, 0.093),
    'wrist_2_link': (1.219, '0 0.01634 -0.0018', '0 0 0', 0.045, 0.095),
    'wrist_3_link': (0.1879, '0 0 -0.001159', '0 0 0', 0.045, 0.0305)}


def _ur_inertial(link):
    if link not in UR5_INERTIALS:
        return ''
    m, xyz, rpy, r, length = UR5_INERTIALS[link]
    side, axial = m * (3 * r * r + length * length) / 12, m * r * r / 2
    return (f'<inertial><origin xyz="{xyz}" rpy="{rpy}"/><mass value="{m}"/><inertia '
            f'ixx="{side}" iyy="{side}" izz="{axial}" ixy="0" ixz="0" iyz="0"/></inertial>')


def ur_description_urdf(inertials=False):
    """Return ur_description's UR5 URDF (its joints, fixed frames and, if asked, inertials)."""
    links = {name for joint in UR5_JOINTS for name in joint[1:3]} | {
        name for joint in UR5_FIXED for name in joint[:2]}
    parts = [f'<link name="{name}">{_ur_inertial(name) if inertials else ""}</link>'
             for name in sorted(links)]
    parts += [f'<joint name="{name}" type="revolute"><parent link="{parent}"/><child '
              f'link="{child}"/><origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="0 0 1"/><limit '
              'lower="-6.3" upper="6.3" effort="150" velocity="3.15"/></joint>'
              for name, parent, child, xyz, rpy in UR5_JOINTS]
    parts += [f'<joint name="{parent}-{child}" type="fixed"><parent link="{parent}"/><child '
              f'link="{child}"/><origin xyz="0 0 0" rpy="{rpy}"/></joint>'
              for parent, child, rpy in UR5_FIXED]
    return '<robot name="ur5">' + ''.join(parts) + '</robot>'


RANDOM_ARMS = 200


def random_arm(rng, hayati=False):
    """
    Return a random DH or MDH arm of 1 to 7 joints, with dynamics, limits or none.

    With ``hayati``, most links also get a Hayati beta.
    """
    convention = 'modified' if rng.random() < 0.5 else 'standard'
    links = []
    for j in range(int(rng.integers(1, 8))):
        prismatic = rng.random() < 0.25
        lower = rng.uniform(-3.0, 0.0)
        qlim = (lower, lower + rng.uniform(0.1, 3.0)) if rng.random() < 0.7 else None
        mass = rng.uniform(0.1, 5.0) if rng.random() < 0.9 else 0.0
        diagonal = rng.uniform(0.01, 0.2, 3)
        links.append(Link(
            joint='prismatic' if prismatic else 'revolute', convention=convention,
            a=rng.uniform(-0.5, 0.5) if rng.random() < 0.7 else 0.0,
            alpha=rng.choice([0.0, math.pi / 2, -math.pi / 2, rng.uniform(-3.0, 3.0)]),
            d=0.0 if prismatic else rng.uniform(-0.5, 0.5),
            theta=rng.uniform(-3.0, 3.0) if prismatic else 0.0,
            offset=rng.uniform(-1.0, 1.0) if rng.random() < 0.5 else 0.0,
            flip=bool(rng.random() < 0.3), qlim=qlim, m=mass, r=rng.uniform(-0.2, 0.2, 3),
            I=list(diagonal) + list(rng.uniform(-0.2, 0.2, 3) * diagonal.min()),
            Jm=rng.uniform(0.0, 1e-3), G=rng.uniform(1.0, 100.0) * rng.choice([-1, 1]),
            B=rng.uniform(0.0, 1e-3), Tc=(rng.uniform(0.0, 0.5), -rng.uniform(0.0, 0.5)),
            name=f'joint{j + 1}',
            beta=rng.uniform(-0.5, 0.5) if hayati and rng.random() < 0.7 else 0.0))
    base, tool = np.eye(4), np.eye(4)
    base[:3, 3], tool[:3, 3] = rng.uniform(-1.0, 1.0, 3), rng.uniform(-0.2, 0.2, 3)
    base[:3, :3] = _rotation(rng)
    tool[:3, :3] = _rotation(rng)
    chain = Chain(links, base=base, tool=tool, gravity=rng.uniform(-10.0, 10.0, 3),
                  name='random')
    if rng.random() < 0.5:  # a payload at the tool, which the URDF puts on the tool link
        diagonal = rng.uniform(0.001, 0.05, 3)
        chain = chain.with_payload(rng.uniform(0.0, 5.0), rng.uniform(-0.2, 0.2, 3), list(
            diagonal) + list(rng.uniform(-0.2, 0.2, 3) * diagonal.min()))
    return chain


def closed_form_arm(rng, kind, convention):
    """Return a random arm of a closed form's kind: offsets, flips, base and tool, limits."""
    links = []
    for j in range(6):
        slide = kind == 'wrist' and j == 2 and rng.random() < 0.4
        a = rng.uniform(-0.5, 0.5) if rng.random() < 0.8 else 0.0
        alpha = rng.choice([math.pi / 2, -math.pi / 2, rng.uniform(0.3, 2.8)])
        if kind == 'wrist' and j in (3, 4):
            a = 0.0
        if kind == 'parallel' and j in (1, 2):
            alpha, a = 0.0, rng.uniform(0.2, 0.5) * rng.choice([-1.0, 1.0])
        if kind == 'parallel' and j == 4:
            a = 0.0
        lower = rng.uniform(-3.0, 0.0)
        links.append(Link(
            joint='prismatic' if slide else 'revolute', a=a, alpha=alpha,
            d=0.0 if slide or (kind == 'wrist' and j == 4) else rng.uniform(-0.5, 0.5),
            theta=rng.uniform(-3.0, 3.0) if slide else 0.0,
            offset=rng.uniform(-1.0, 1.0) if rng.random() < 0.5 else 0.0,
            flip=bool(rng.random() < 0.3),
            qlim=(-0.5, 0.5) if slide else (lower, lower + rng.uniform(2.0, 7.0)) if
            rng.random() < 0.8 else None))
    base, tool = np.eye(4), np.eye(4)
    base[:3, :3], base[:3, 3] = _rotation(rng), rng.uniform(-1.0, 1.0, 3)
    tool[:3, :3], tool[:3, 3] = _rotation(rng), rng.uniform(-0.2, 0.2, 3)
    chain = Chain(links, base=base, tool=tool)
    return chain.to_modified() if convention == 'modified' else chain


def _rotation(rng):
    """Return a random rotation matrix."""
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


# Every shipped model and RANDOM_ARMS random arms (seeded): (name, chain).
CHAINS = [(name, Chain.from_yaml(PACKAGE / 'config' / path))
          for name, path in sorted(CONFIG_FILES.items())]
RNG = np.random.default_rng(13)
CHAINS += [(f'random{k}', random_arm(RNG)) for k in range(RANDOM_ARMS)]
HAYATI_ARMS = 30
CHAINS += [(f'hayati{k}', random_arm(np.random.default_rng(7000 + k), hayati=True))
           for k in range(HAYATI_ARMS)]


RANDOM_NAMES = ('random', 'hayati', 'small')
"""How the names of the seeded random arms start (the others are shipped arms)."""
FEATURES = ('dh', 'mdh', 'prismatic', 'offset', 'flip', 'limits', 'beta', 'payload')
"""What a random arm may exercise; :func:`for_each_arm` names one arm per feature."""
_LOOP = '<the other random arms>'


def arm_features(chain):
    """Return what ``chain`` exercises, in :data:`FEATURES` order."""
    links = chain.links
    return tuple(feature for feature, present in (
        ('dh', not chain.mdh), ('mdh', chain.mdh),
        ('prismatic', any(link.isprismatic() for link in links)),
        ('offset', any(link.offset for link in links)),
        ('flip', any(link.flip for link in links)),
        ('limits', any(link.qlim is not None for link in links)),
        ('beta', any(link.beta for link in links)),
        ('payload', chain.payload.mass > 0.0)) if present)


def arm_id(name, chain):
    """
    Return a test id for an arm: a random arm's name followed by what it exercises.

    For example ``random137-mdh-RRPR-offset-flip-limits-payload``: the convention, the joints
    (R revolute, P prismatic), then offsets, flips, joint limits, Hayati's beta and a payload
    where it has them, so that a failing id says which feature broke. A shipped arm's id is its
    name.
    """
    if not name.startswith(RANDOM_NAMES):
        return name
    joints = ''.join('P' if link.isprismatic() else 'R' for link in chain.links)
    features = [feature for feature in arm_features(chain) if feature != 'prismatic']
    return '-'.join([name, features[0], joints] + features[1:])


def for_each_arm(chains):
    """
    Parametrize a test taking ``name, chain`` over ``chains``, a list of (name, chain) pairs.

    Each shipped arm is a case of its own, and so is one random arm per feature
    (:data:`FEATURES`), each named by what it exercises (:func:`arm_id`). The other random arms
    are one case (marked slow) that runs the test on each in turn, each with a ``tmp_path`` of
    its own, and fails naming every arm that failed, by its id and its index in ``chains``,
    with the first failure chained. A skip (a tool that is not installed) skips the case.
    """
    named = [(name, chain) for name, chain in chains if not name.startswith(RANDOM_NAMES)]
    randoms = [(name, chain) for name, chain in chains if name.startswith(RANDOM_NAMES)]
    for feature in FEATURES:
        chosen = {name for name, _ in named}
        named += [(name, chain) for name, chain in randoms
                  if feature in arm_features(chain) and name not in chosen][:1]
    chosen = {name for name, _ in named}
    others = [(k, name, chain) for k, (name, chain) in enumerate(chains)
              if name not in chosen]

    def decorate(test):
        @functools.wraps(test)
        def each(name, chain, **fixtures):
            if name != _LOOP:
                return test(name, chain, **fixtures)
            failed = []
            for k, other, arm in others:
                arguments = dict(fixtures)
                if 'tmp_path' in arguments:
                    arguments['tmp_path'] = fixtures['tmp_path'] / other
                    arguments['tmp_path'].mkdir()
                try:
                    test(other, arm, **arguments)
                except Exception as error:  # noqa: B902 (every failure, named below)
                    failed.append((f'{arm_id(other, arm)} (index {k})', error))
            if failed:
                raise AssertionError(
                    f'{len(failed)} of {len(others)} random arms failed: '
                    f'{", ".join(arm for arm, _ in failed)}; the first: {failed[0][1]}'
                ) from failed[0][1]

        cases = [pytest.param(name, chain, id=arm_id(name, chain)) for name, chain in named]
        if others:  # seconds to a minute of CPU: make test-all and CI, not the inner loop
            cases.append(pytest.param(_LOOP, None, id=f'{len(others)}-other-random-arms',
                                      marks=pytest.mark.slow))
        return pytest.mark.parametrize('name, chain', cases)(each)
    return decorate


# An independent forward kinematics for the calibration tests: plain 4x4 products of
# elementary transforms from a dict of every parameter, with nothing of the package's
# kinematics. Its parameters are complete: per link theta (or a prismatic joint's constant
# theta), d, a, alpha and Hayati's beta; the base and the tool as 4x4 transforms.
ARM_FIELDS = ('angle', 'length', 'a', 'alpha', 'beta')
"""Per link: the constant angle (a revolute joint's offset, a prismatic one's theta), the
constant length (d, or a prismatic joint's offset), a, alpha and beta."""


def plain_arm(chain):
    """Return ``chain`` as the independent model's dict: links, base, tool, mdh."""
    links = [{'prismatic': link.isprismatic(), 'sign': -1.0 if link.flip else 1.0,
              'angle': link.theta if link.isprismatic() else link.offset,
              'length': link.offset if link.isprismatic() else link.d,
              'a': link.a, 'alpha': link.alpha, 'beta': link.beta} for link in chain.links]
    return {'links': links, 'base': np.array(chain.base), 'tool': np.array(chain.tool),
            'mdh': chain.mdh}


def _elementary(kind, value):
    """Return the (m, 4, 4) elementary transforms Rx, Ry, Rz, Tx or Tz of ``value`` (m,)."""
    value = np.asarray(value, dtype=float)
    T = np.tile(np.eye(4), value.shape + (1, 1))
    c, s = np.cos(value), np.sin(value)
    if kind == 'Tx':
        T[..., 0, 3] = value
    elif kind == 'Tz':
        T[..., 2, 3] = value
    else:
        i, j = {'Rx': (1, 2), 'Ry': (2, 0), 'Rz': (0, 1)}[kind]
        T[..., i, i], T[..., i, j], T[..., j, i], T[..., j, j] = c, -s, s, c
    return T


def plain_tool_poses(arm, q):
    """Return T_world_tool of the independent model for joint values ``q`` (m, n): (m, 4, 4)."""
    q = np.atleast_2d(q)
    T = np.tile(arm['base'], (len(q), 1, 1))
    for j, link in enumerate(arm['links']):
        value = link['sign'] * q[:, j]
        theta = np.full(len(q), link['angle']) if link['prismatic'] else value + link['angle']
        d = value + link['length'] if link['prismatic'] else np.full(len(q), link['length'])
        joint = _elementary('Rz', theta) @ _elementary('Tz', d)
        fixed = (_elementary('Tx', [link['a']]) @ _elementary('Rx', [link['alpha']])
                 @ _elementary('Ry', [link['beta']]))[0]
        T = T @ (fixed @ joint if arm['mdh'] else joint @ fixed)
    return T @ arm['tool']


def plain_parameters(arm, orientation):
    """Return the names of every parameter of the independent model, in a fixed order."""
    names = [f'base.{axis}' for axis in ('x', 'y', 'z', 'rx', 'ry', 'rz')]
    names += [f'{j}.{field}' for j in range(len(arm['links'])) for field in ARM_FIELDS]
    names += [f'tool.{axis}' for axis in ('x', 'y', 'z') + (
        ('rx', 'ry', 'rz') if orientation else ())]
    return names


def plain_perturbed(arm, changes):
    """Return ``arm`` with {parameter: change} added (rotations as small rotation vectors)."""
    arm = {'links': [dict(link) for link in arm['links']], 'base': arm['base'].copy(),
           'tool': arm['tool'].copy(), 'mdh': arm['mdh']}
    for name, change in changes.items():
        owner, field = name.split('.')
        if owner in ('base', 'tool'):
            turn = np.eye(4)
            if field.startswith('r'):
                axis = np.zeros(3)
                axis['xyz'.index(field[1])] = change
                angle = np.linalg.norm(axis)
                K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]],
                              [-axis[1], axis[0], 0]])
                turn[:3, :3] = np.eye(3) + (np.sin(angle) / angle * K + (
                    1 - np.cos(angle)) / angle ** 2 * K @ K if angle else 0.0)
            else:
                turn[:3, 3] = 0.0
                turn['xyz'.index(field), 3] = change
            arm[owner] = arm[owner] @ turn  # in the frame's own axes
        else:
            arm['links'][int(owner)][field] += change
    return arm


def plain_rank(arm, q, orientation, step=1e-6, tolerance=1e-6):
    """
    Return the numerical rank of the independent model's identification Jacobian.

    Central differences of its tool positions (and orientations) in every parameter at ``q``;
    each column scaled to unit length; singular values above ``tolerance`` of the largest.
    """
    columns = []
    for name in plain_parameters(arm, orientation):
        plus = plain_tool_poses(plain_perturbed(arm, {name: step}), q)
        minus = plain_tool_poses(plain_perturbed(arm, {name: -step}), q)
        rows = [(plus[:, :3, 3] - minus[:, :3, 3]).ravel()]
        if orientation:  # the small turn from minus to plus, in minus's axes
            R = minus[:, :3, :3].transpose(0, 2, 1) @ plus[:, :3, :3]
            rows.append(0.5 * np.stack([R[:, 2, 1] - R[:, 1, 2], R[:, 0, 2] - R[:, 2, 0],
                                        R[:, 1, 0] - R[:, 0, 1]], axis=1).ravel())
        column = np.concatenate(rows) / (2.0 * step)
        size = np.linalg.norm(column)
        columns.append(column / size if size > 1e-9 else column)
    s = np.linalg.svd(np.array(columns).T, compute_uv=False)
    return int((s > tolerance * s[0]).sum())


VENDOR_URDF = PACKAGE.parent / 'shared' / 'vendor-urdf'
"""Real vendors' URDFs (never committed here); tests that read them skip where absent."""
needs_vendor = pytest.mark.skipif(
    not (VENDOR_URDF / 'arms.json').exists(),
    reason="needs vendors' URDFs (franka_description, ur_description, kortex_description and "
    'others, expanded with xacro), which this package does not ship')


def vendor_arm(file):
    """Return (URDF text, its arms.json entry: base, tip, joints...) of a vendor arm."""
    with open(VENDOR_URDF / 'arms.json', encoding='utf-8') as stream:
        entry = next(arm for arm in json.load(stream)['arms'] if arm['file'] == file)
    return (VENDOR_URDF / file).read_text(encoding='utf-8'), entry


def vendor_model(file, folder):
    """Import a vendor arm (arms.json: base to tip) with ``from-urdf``; return the model file."""
    text, entry = vendor_arm(file)
    urdf = folder / 'vendor.urdf'
    urdf.write_text(text, encoding='utf-8')
    model = folder / 'vendor.yaml'
    run_cli('from-urdf', urdf, '--base', entry['base'], '--tip', entry['tip'], '-o', model)
    return model


class PinBranches:
    """
    The signs of a 6R arm's shoulder, elbow and wrist, from pinocchio's joint axes.

    Each axis is the angular part of pinocchio's Jacobian column in the world frame, a point
    on it from the column's linear part. Wrist: the outer wrist axes crossed, along the middle
    one; elbow: joints 2 and 3 parallel, the link from axis 2 to 3 crossed with the reach on to
    the far point (axis 4 where it is parallel too, else where axes 5 and 6 meet), along axis
    2; shoulder: the wrist point's side of the plane of axes 1 and 2.
    """

    def __init__(self, chain):
        self._model = pin.buildModelFromXML(chain.to_urdf())
        self._data = self._model.createData()
        self._chain = chain
        self._columns = [self._model.joints[self._model.getJointId(name)].idx_v
                         for name in chain.joint_names]

    def signs(self, q):
        J = pin.computeJointJacobians(self._model, self._data, pin_configuration(
            pin, self._model, self._chain.joint_names, q))[:, self._columns]
        z = J[3:].T
        o = np.cross(z, J[:3].T)  # the point on each axis nearest the origin
        wrist_point = _meeting_point(o[4], z[4], o[5], z[5])
        planar = np.linalg.norm(np.cross(z[2], z[3])) < 1e-9
        far = o[3] if planar else wrist_point
        return (np.sign((wrist_point - o[0]) @ np.cross(z[0], z[1])),
                np.sign(np.cross(o[2] - o[1], far - o[2]) @ z[1]),
                np.sign(np.cross(z[3], z[5]) @ z[4]))


def _meeting_point(p, u, r, v):
    """Return the midpoint of the common perpendicular of two lines (p, u) and (r, v)."""
    w = p - r
    b, d, e = u @ v, u @ w, v @ w
    s, t = (b * e - d) / (1.0 - b * b), (e - b * d) / (1.0 - b * b)
    return 0.5 * (p + s * u + r + t * v)


def toolbox_ets(urdf_text, base, tip):
    """
    Return roboticstoolbox-python's ETS from ``base`` to ``tip`` of a URDF, by its own loader.

    Its joints numbered from 0 in the chain's order (``ik_LM`` reads q by them).
    """
    import roboticstoolbox as rtb
    from roboticstoolbox.models.URDF.URDFRobot import URDF_read
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / 'arm.urdf'
        path.write_text(urdf_text, encoding='utf-8')
        links, name, _ = URDF_read(str(path))
    robot = rtb.Robot(links, name=name)
    first = robot.link_dict[tip]
    while first.parent.name != base:
        first = first.parent
    elements, k = [], 0
    for element in robot.ets(start=first, end=tip):
        if element.isjoint:
            element.jindex, k = k, k + 1
        elements.append(element)
    return rtb.ETS(elements)


def pin_jacobian(urdf_text, joint_names, q, frame):
    """Return pinocchio's [v; w] Jacobian of ``frame`` (world-aligned) for ``q`` by joint name."""
    model = pin.buildModelFromXML(urdf_text)
    data = model.createData()
    q_pin = pin_configuration(pin, model, joint_names, q)
    J = pin.computeFrameJacobian(model, data, q_pin, model.getFrameId(frame),
                                 pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)
    return np.reshape(J, (6, -1))[:, [model.joints[model.getJointId(name)].idx_v
                                      for name in joint_names]]


def check_urdf_command():
    """Return (urdfdom's check_urdf, the environment it needs), or None where it is absent."""
    found = shutil.which('check_urdf')
    if found:
        return found, {}
    prefix = pin and next((path for path in pathlib.Path(pin.__file__).parents
                           if path.name == 'cmeel.prefix'), None)  # urdfdom from PyPI
    if prefix is not None and (prefix / 'bin' / 'check_urdf').exists():
        return str(prefix / 'bin' / 'check_urdf'), {'LD_LIBRARY_PATH': str(prefix / 'lib')}
    return None


needs_check_urdf = pytest.mark.skipif(
    check_urdf_command() is None, reason="urdfdom's check_urdf is not installed: apt install "
    'liburdfdom-tools, or pip install cmeel-urdfdom')


# The momentum observer's truth: examples/simulate_contact.py, pinocchio's forward dynamics.
CONTACT = 0.2005
"""When the external torque starts in a simulated run, s: between two samples."""
GAIN = 50.0
"""The observer's gain the contact tests use, 1/s."""
# Poses away from the wrist and shoulder singularities, for the tool wrench.
TURNED_BASE = ((0.1, -0.2, 0.3), (0.3, -0.4, 1.1))
"""A base's place in the world: xyz (m), roll, pitch, yaw (rad)."""
CONTACT_POSES = {'ur5': (0.3, -1.2, 1.4, -1.8, 1.2, 0.4),
                 'puma560': (0.3, 0.9, -2.2, 0.4, 0.9, 0.3)}


@functools.lru_cache(maxsize=None)
def contact_arm(name, turned=False):
    """
    Return the example module, the shipped arm ``name`` with motors, and its Simulation.

    ``turned``: the arm's base moved and turned in the world (:data:`TURNED_BASE`), gravity
    with it, so that the base frame and the world differ.
    """
    simulate = example('simulate_contact')
    chain = simulate.with_motors(Chain.from_yaml(PACKAGE / 'config' / f'{name}.yaml'))
    if turned:
        chain = chain.replace(base=xyz_rpy_to_transform(*TURNED_BASE))
    return simulate, chain, simulate.Simulation(chain, pin)


def contact_noise(chain, q):
    """
    Return each joint's predicted noise of the estimate at ``q`` (N m or N).

    ``sqrt((K sigma_v |M_j|)^2 + sigma_tau^2 (1 - a) / (1 + a))``, ``a = exp(-K dt)``, with
    the simulation's noise and 1 kHz.
    """
    simulate = example('simulate_contact')
    a = math.exp(-GAIN * 1e-3)
    rows = np.linalg.norm(chain.inertia(q), axis=1)
    return np.hypot(GAIN * simulate.VELOCITY_NOISE * rows,
                    simulate.EFFORT_NOISE * math.sqrt((1.0 - a) / (1.0 + a)))


@functools.lru_cache(maxsize=None)
def contact_run(name, joint, force=None, turned=False):
    """
    Simulate a step on ``joint`` (or a ``force`` direction at the tool) from :data:`CONTACT`.

    Return ``(samples, size, noise)``: :meth:`Simulation.run`'s samples over 0.4 s, the step or
    force (10 N m or N, or 250 times the largest predicted noise where that is more) and the
    predicted noise per joint. A force is simulated slower (0.05 rad/s, the estimate lags
    ``1/K`` behind a ``J^T F`` that the motion turns), in a pose of :data:`CONTACT_POSES`.
    """
    simulate, chain, simulation = contact_arm(name, turned)
    if force is None:
        centre, speed = None, 0.2
    else:
        centre, speed = CONTACT_POSES.get(name), 0.05
    start = simulation.run(0.0, 1.0, lambda q: np.zeros(chain.n), centre=centre)[1][0]
    noise = contact_noise(chain, start)
    size = max(10.0, 250.0 * noise.max())
    if force is None:
        external = simulate.step_on(chain.n, joint, size)
    else:
        external = simulate.force_at_tool(simulation, np.array(force) * size)
    samples = simulation.run(0.4, CONTACT, external, centre=centre, speed=speed,
                             seed=17 + joint)
    return samples, size, noise


# A real Panda's log (Gaz et al., RA-L 2019), read from ../shared: GPL-3.0, never copied here.
PANDA_LOG = PACKAGE.parent / 'shared' / 'panda-log'
needs_panda_log = pytest.mark.skipif(
    not PANDA_LOG.is_dir(), reason='the real Panda log is not here: it is the exciting '
    'trajectory of github.com/marcocognetti/FrankaEmikaPandaDynModel (GPL-3.0)')


def panda_log_csv(path):
    """Write the real Panda log as the CSV identify reads; return the path."""
    columns = [np.loadtxt(PANDA_LOG / 'time.txt')[:, None]]
    for name in ('positions', 'velocity', 'torques'):
        columns.append(np.loadtxt(PANDA_LOG / f'{name}.txt').reshape(-1, 7))
    joints = Chain.from_yaml(PACKAGE / 'config' / 'panda.yaml').joint_names
    header = ['time'] + [f'{j}.{field}' for field in ('position', 'velocity', 'effort')
                         for j in joints]
    np.savetxt(path, np.hstack(columns), delimiter=',', header=','.join(header), comments='')
    return path


def free_motion_log(chain, seconds, seed, **options):
    """Return :func:`examples.simulate_free_motion.free_motion` of ``chain``: a JointLog."""
    return example('simulate_free_motion').free_motion(chain, seconds, seed, **options)


def pin_dynamics(chain):
    """
    Return the efforts that make pinocchio's forward dynamics follow a motion of ``chain``.

    ``efforts(Q, QD, QDD)``, each (m, n): pinocchio's ``rnea`` (the exact inverse of the
    ``aba`` that :class:`examples.simulate_contact.Simulation` integrates, the motors' inertia
    as pinocchio's armature) with the model's friction added.
    """
    model, data = pin_model(chain, motors=True)

    def efforts(Q, QD, QDD):
        found = np.array([pin.rnea(model, data, q, qd, qdd) for q, qd, qdd in zip(Q, QD, QDD)])
        return found - chain.friction(QD)
    return efforts


def pin_free_motion_log(chain, seconds, seed, **options):
    """Return :func:`free_motion_log` with the efforts pinocchio's (:func:`pin_dynamics`)."""
    return free_motion_log(chain, seconds, seed, dynamics=pin_dynamics(chain), **options)
