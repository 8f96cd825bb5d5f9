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
Model files: the layout of a robot model as ROS 2 parameters, read and written.

The layout, under ``ros__parameters`` (lengths in m, angles in rad, SI throughout)::

    robot_name: puma560            # optional
    convention: standard           # or modified; required
    joints: [joint1, joint2]       # joint names as in joint_states; required
    links: [link1, link2]          # child frame names; optional
    world_frame: world             # optional, parent of the base transform
    base_frame: base_link          # optional
    tool_frame: tool0              # optional
    gravity: [0.0, 0.0, -9.81]     # optional, world frame
    base: {xyz: [0.0, 0.0, 0.0], rpy: [0.0, 0.0, 0.0]}   # T_world_base, optional
    tool: {xyz: [0.0, 0.0, 0.0], rpy: [0.0, 0.0, 0.0]}   # T_last_tool, optional
    payload:                       # optional: a body fixed to the tool (core.dynamics.payload)
      mass: 0.0                    # kg
      com: [0.0, 0.0, 0.0]         # centre of mass in the tool frame, m
      inertia: [0.0, 0.0, 0.0]     # about the centre of mass, tool axes; as I below
    joint1:                        # one block per joint
      type: revolute               # or prismatic; required
      a: 0.0                       # required
      alpha: 1.5707963267948966    # required
      d: 0.6718                    # required for revolute joints
      theta: 0.0                   # required for prismatic joints
      offset: 0.0
      flip: false
      qlim: [-2.79, 2.79]          # omit for no limits
      m: 0.0
      r: [0.0, 0.0, 0.0]
      I: [0.0, 0.35, 0.0]          # 3 (diagonal), 6 (Ixx Iyy Izz Ixy Iyz Ixz) or 9 (row-major)
      Jm: 0.0002
      G: -62.6111
      B: 0.00148
      Tc: [0.395, -0.435]          # or one number T for [T, -T]
      effort_limit: 97.6           # N m or N; omit when not known (URDF <limit> only)
      velocity_limit: 8.0          # rad/s or m/s; likewise
    frames:                        # optional: extra fixed frames (core.fixed_frames)
      flange: {parent: link6, xyz: [0.0, 0.0, 0.0], rpy: [0.0, 0.0, 0.0]}
    meshes:                        # optional: per frame, in place of its cylinders (core.meshes)
      link1:
        visual: package://my_description/meshes/link1.dae   # or file:///..., or omitted
        collision: package://my_description/meshes/link1.stl
        xyz: [0.0, 0.0, 0.0]       # the meshes' origin in the frame
        rpy: [0.0, 0.0, 0.0]
        scale: [1.0, 1.0, 1.0]

Nested blocks may also come flattened, as rclpy names them (``joint1.a``, ``base.xyz``).
Integers are accepted wherever a real number is expected. The settings of the node, sim_arm and
rclpy (:func:`is_setting`) are left alone; any other key is refused with the names
it was probably meant to be (a typo such as ``alpah``, ``qlimit`` or ``bsae.xyz``), so that no
typo silently drops a limit.
"""

import contextlib
import difflib

from dh_kinematics.core import bounds, files
from dh_kinematics.core.checks import check_array, check_choice, InvalidFieldError
from dh_kinematics.core.dynamics.payload import check_payload, is_empty
from dh_kinematics.core.fixed_frames import FixedFrame
from dh_kinematics.core.link import Link
from dh_kinematics.core.meshes import Mesh
from dh_kinematics.core.model_file import joint_limits
from dh_kinematics.core.model_file.parameter_file import flatten
from dh_kinematics.core.rotations import matrix_to_rpy, xyz_rpy_to_transform
import numpy as np

MODEL_FIELDS = ('robot_name', 'convention', 'joints', 'links', 'world_frame', 'base_frame',
                'tool_frame', 'gravity', 'base.xyz', 'base.rpy', 'tool.xyz', 'tool.rpy',
                'payload.mass', 'payload.com', 'payload.inertia')
"""The model's own parameters, as rclpy names them."""
JOINT_FIELDS = ('type', 'a', 'alpha', 'beta', 'd', 'theta', 'offset', 'flip', 'qlim', 'm', 'r',
                'I', 'Jm', 'G', 'B', 'Tc', 'effort_limit', 'velocity_limit', 'acceleration_limit',
                'deceleration_limit', 'jerk_limit', 'soft_limits', 'k_position', 'k_velocity',
                'collision')
"""The fields of a joint block (``<joint>.<field>``); each is the Link argument of that name,
except ``type``, which is Link's ``joint``."""
NODE_SETTINGS = ('frame_prefix', 'diagnostics.warn_margin', 'diagnostics.stale_timeout',
                 'diagnostics.period', 'diagnostics.hysteresis', 'future_stamp_tolerance',
                 'publish_robot_description', 'ros2_control.plugin',
                 'ros2_control.initial_configuration', 'tf.max_rate',
                 'monitors.block_period', 'effort.warn',
                 'effort.error', 'effort.rest_speed', 'effort.rest_warn', 'effort.rest_error',
                 'effort.velocity_noise', 'effort.effort_noise', 'effort.hold',
                 'effort.hysteresis',
                 'effort.acceleration_cutoff',
                 'effort.estimator', 'effort.observer_gain',
                 'limits.warn_fraction', 'limits.hysteresis', 'tool_speed_limit',
                 'singularity.enabled',
                 'singularity.warn', 'singularity.error', 'singularity.hysteresis',
                 'safety.momentum_limit', 'safety.kinetic_energy_limit', 'safety.power_limit',
                 'safety.stopping_time_limit', 'safety.stopping_distance_limit',
                 'safety.plane_frames', 'safety.plane_margin', 'safety.tool_spheres',
                 'safety.tool_direction.axis', 'safety.tool_direction.limit',
                 'safety.contact.body_region', 'safety.self_collision.enabled',
                 'safety.self_collision.ignore', 'safety.self_collision.warn_distance',
                 'safety.self_collision.error_distance')
NAMED_SETTINGS = ('safety.frame_speed_limits.', 'safety.planes.')
"""The prefixes of node settings whose last part the user names (a frame, a plane)."""
SIM_ARM_SETTINGS = ('rate', 'period', 'overshoot', 'extra_payload.mass', 'extra_payload.com',
                    'collision.joint', 'collision.effort', 'collision.start',
                    'collision.duration', 'collision.every', 'trajectory')
RCLPY_SETTINGS = ('use_sim_time', 'start_type_description_service')
MOVEIT_SETTINGS = ('default_velocity_scaling_factor', 'default_acceleration_scaling_factor')
"""The top-level keys of MoveIt's joint_limits.yaml beside its ``joint_limits`` block."""
RCLPY_PREFIXES = ('qos_overrides.',)
SETTINGS = frozenset(NODE_SETTINGS + SIM_ARM_SETTINGS + RCLPY_SETTINGS + MOVEIT_SETTINGS)
"""Names a model file may hold besides the model: the settings of the package's nodes and the
parameters rclpy declares on every node (those starting with RCLPY_PREFIXES too). The node's
parameter specs (:mod:`dh_kinematics.parameters.specs`) use exactly these names."""
CONFIGURATIONS = 'configurations'
"""Named joint configurations (``configurations.<name>: [q1, ..., qn]``, rad or m) that tools
read (``dh_kinematics fk --q-name``); the node leaves them alone."""
FRAMES, MESHES = 'frames', 'meshes'
FRAME_FIELDS = ('parent', 'xyz', 'rpy')
"""The fields of an extra frame's block (``frames.<name>.<field>``)."""
MESH_FIELDS = ('visual', 'collision', 'xyz', 'rpy', 'scale')
"""The fields of a frame's mesh block (``meshes.<frame>.<field>``)."""
_LINK_ARGUMENT = {'type': 'joint'}
_CHAIN_FIELDS = (('link_frames', 'links'), ('joint_names', 'joints'), ('name', 'robot_name'))
RESERVED = frozenset(name.split('.')[0] for name in MODEL_FIELDS + tuple(SETTINGS)) | {
    CONFIGURATIONS, RCLPY_PREFIXES[0].rstrip('.'), joint_limits.BLOCK, FRAMES, MESHES}
"""The first parts of the layout's own names, which no joint name may start with: a joint's
parameters are ``<joint>.<field>``."""


def is_setting(name):
    """Tell whether ``name`` is a setting of the node, of sim_arm or of rclpy, not the model."""
    return name in SETTINGS or name.startswith(RCLPY_PREFIXES + NAMED_SETTINGS)


def model_values(values):
    """Keep the model parameters that are set (not None, not a setting)."""
    return {name: value for name, value in values.items()
            if value is not None and not is_setting(name)}


def _string(name, value):
    if not isinstance(value, str) or not value:
        raise InvalidFieldError(name, value, 'must be a non-empty string')
    return value


def _strings(name, value):
    if not isinstance(value, (list, tuple)) or not value:
        raise InvalidFieldError(name, value, 'must be a non-empty list of strings')
    return [_string(f'{name}[{i}]', item) for i, item in enumerate(value)]


def _pose(flat, name, prefixed=True):
    """Return the transform of ``<name>.xyz`` and ``<name>.rpy`` (or of ``xyz``, ``rpy``)."""
    key = (lambda field: f'{name}.{field}') if prefixed else (lambda field: field)
    xyz = check_array(f'{name}.xyz', flat.get(key('xyz'), (0.0, 0.0, 0.0)), [(3,)])
    rpy = check_array(f'{name}.rpy', flat.get(key('rpy'), (0.0, 0.0, 0.0)), [(3,)])
    bounds.check_magnitude(f'{name}.xyz', xyz, bounds.LENGTH_MAX, 'm')
    return xyz_rpy_to_transform(xyz, bounds.check_angles(f'{name}.rpy', rpy))


def suggestion(key, candidates):
    """Return ' (did you mean NAME?)' for the candidate closest to ``key``, or ''."""
    close = difflib.get_close_matches(key, candidates, n=1, cutoff=0.6)
    return f' (did you mean {close[0]}?)' if close else ''


def _listed_typo(block, joints, flat):
    """Suggest which name of ``joints`` was meant as ``block``: one that has no block itself."""
    blockless = [joint for joint in joints
                 if not any(key.startswith(joint + '.') for key in flat)]
    close = difflib.get_close_matches(block, blockless, n=1, cutoff=0.5)
    if not close:
        return suggestion(block, joints)
    j = joints.index(close[0])
    return f' (joints[{j}] is {close[0]!r}, which has no block: a typo for {block}?)'


def _check_keys(flat, joints):
    """Refuse every key that is neither a model field, a joint field nor a setting."""
    for key, value in flat.items():
        if key in MODEL_FIELDS or is_setting(key) or key.startswith(CONFIGURATIONS + '.'):
            continue
        if key.split('.')[0] in (FRAMES, MESHES):
            continue  # checked by _named_blocks
        limit = joint_limits.split_key(key)
        if limit is not None and joints is not None:
            _check_joint_limits_key(key, value, limit, joints)
            continue
        head, _, field = key.rpartition('.')  # a joint name may hold dots; a field never
        if joints is not None and head in joints:
            if field in JOINT_FIELDS:
                continue
            reason = f'is not a joint field (fields: {", ".join(JOINT_FIELDS)})'
            raise InvalidFieldError(key, value, reason + suggestion(field, JOINT_FIELDS))
        if field in JOINT_FIELDS:
            if joints is None:
                continue  # a joint block; 'joints: is missing' follows
            raise InvalidFieldError(key, value, f'belongs to a block {head!r} that is not '
                                    f'listed in joints {joints}' + _listed_typo(head, joints,
                                                                                flat))
        candidates = list(MODEL_FIELDS) + sorted(SETTINGS) + [
            f'{joint}.{field}' for joint in joints or () for field in JOINT_FIELDS]
        raise InvalidFieldError(key, value, 'is not a model parameter or a setting of the '
                                'node' + suggestion(key, candidates))


def _check_joint_limits_key(key, value, limit, joints):
    """Refuse a ``joint_limits.<joint>.<key>`` of a joint the model lacks, or an unknown key."""
    joint, field = limit
    if joint not in joints:
        raise InvalidFieldError(key, value, f'names a joint that is not in joints {joints}'
                                + suggestion(joint, joints))
    if field not in joint_limits.KEYS:
        raise InvalidFieldError(key, value, f'is not a joint_limits key (keys: '
                                f'{", ".join(joint_limits.KEYS)})'
                                + suggestion(field, joint_limits.KEYS))


def _named_blocks(flat, block, fields):
    """
    Return the blocks ``<block>.<name>.<field>`` of a flat dict: name to {field: value}.

    A name may hold dots, a field never. Refuses a field not in ``fields`` and a value given
    to ``<block>.<name>`` itself.
    """
    found = {}
    for key, value in flat.items():
        if key.split('.')[0] != block:
            continue
        name, _, field = key[len(block) + 1:].rpartition('.')
        if not name or field not in fields:
            if not name or key.count('.') < 2:
                raise InvalidFieldError(key, value, f'must be a block of {", ".join(fields)}: '
                                        f'{block}.<name>.<field>')
            raise InvalidFieldError(key, value, f'is not a field of a {block} block (fields: '
                                    f'{", ".join(fields)})' + suggestion(field, fields))
        found.setdefault(name, {})[field] = value
    return found


def _extra_frames(flat):
    """Return the FixedFrames of the ``frames`` block (checked further by the Chain)."""
    frames = []
    for name, block in _named_blocks(flat, FRAMES, FRAME_FIELDS).items():
        if 'parent' not in block:
            raise InvalidFieldError(f'{FRAMES}.{name}.parent', None, 'is missing; give the '
                                    'frame it hangs from')
        frames.append(FixedFrame(_string(f'{FRAMES}.{name}', name),
                                 _string(f'{FRAMES}.{name}.parent', block['parent']),
                                 _pose(block, f'{FRAMES}.{name}', prefixed=False)))
    return frames


def _meshes(flat):
    """Return the Meshes of the ``meshes`` block (checked further by the Chain)."""
    meshes = {}
    for frame, block in _named_blocks(flat, MESHES, MESH_FIELDS).items():
        field = f'{MESHES}.{frame}'
        meshes[frame] = Mesh(block.get('visual', ''), block.get('collision', ''),
                             _pose(block, field, prefixed=False),
                             check_array(f'{field}.scale', block.get('scale', (1.0, 1.0, 1.0)),
                                         [(3,)]))
    return meshes


def _joint_names(value):
    """
    Check the joint list: none repeated, each a parameter block of its own.

    The rule for each name is the Chain's (:mod:`core.names`), named as here by file_fields.
    """
    joints = _strings('joints', value)
    if len(set(joints)) != len(joints):
        raise InvalidFieldError('joints', joints, 'must not repeat a name')
    for j, joint in enumerate(joints):
        field = f'joints[{j}]'
        head = joint.split('.')[0]
        if head in RESERVED:
            raise InvalidFieldError(field, joint, f'its first part {head!r} is a name the model '
                                    f'file uses itself, which its parameters {joint}.<field> '
                                    'would share')
        within = [other for other in joints if joint.startswith(other + '.')]
        if within:
            raise InvalidFieldError(field, joint, f'must not start with joint {within[0]!r} '
                                    "and a dot: its parameters would sit in that joint's block")
    return joints


def configurations(flat, n):
    """
    Return the named configurations of a model's flat parameters: name -> array of shape (n,).

    ``flat`` maps dotted names to values, as a parameter file is read (:func:`flatten`).
    Raises InvalidFieldError naming one that is not n finite numbers.
    """
    named = {}
    for key, value in flat.items():
        if key.startswith(CONFIGURATIONS + '.'):
            named[key[len(CONFIGURATIONS) + 1:]] = check_array(key, value, [(n,)])
    return named


def _inertia(name, value):
    if np.ndim(value) == 1 and np.size(value) == 9:
        return check_array(name, value, [(9,)]).reshape(3, 3)
    return value


def _link_arguments(flat, joint, convention):
    """
    Keyword arguments of Link for one joint block, checking names and presence.

    Its own errors, and those of the ``joint_limits`` block, name each parameter in full.
    """
    block = {key[len(joint) + 1:]: value for key, value in flat.items()
             if key.rpartition('.')[0] == joint}
    if not block:
        raise InvalidFieldError(joint, None, 'is listed in joints but has no parameter block')
    if 'type' not in block:
        raise InvalidFieldError(f'{joint}.type', None, "is missing; give 'revolute' or "
                                "'prismatic'")
    joint_type = check_choice(f'{joint}.type', block['type'], ('revolute', 'prismatic'))
    required = ('a', 'alpha', 'd' if joint_type == 'revolute' else 'theta')
    for field in required:
        if field not in block:
            raise InvalidFieldError(f'{joint}.{field}', None, f'is missing; a {joint_type} '
                                    f'joint needs {", ".join(required)}')
    kwargs = {_LINK_ARGUMENT.get(field, field): value for field, value in block.items()}
    kwargs = joint_limits.merged(kwargs, joint_limits.link_fields(flat, joint), joint)
    if 'I' in kwargs:
        kwargs['I'] = _inertia(f'{joint}.I', kwargs['I'])
    kwargs.update(convention=convention, name=joint)
    return kwargs


def chain_arguments(params):
    """
    Return the keyword arguments of :class:`Chain` for a ``ros__parameters`` dict.

    The dict may be nested or flat (see the module doc); a nested one is flattened here, a
    flat one (a parameter file as read, or rclpy's parameters) is taken as it is. Raises
    InvalidFieldError naming the parameter, typos included.
    """
    nested = not isinstance(params, dict) or any(isinstance(value, dict)
                                                 for value in params.values())
    flat = flatten(params) if nested else params
    joints = _joint_names(flat['joints']) if 'joints' in flat else None
    _check_keys(flat, joints)
    for required in ('convention', 'joints'):
        if required not in flat:
            raise InvalidFieldError(required, None, 'is missing')
    convention = check_choice('convention', flat['convention'], ('standard', 'modified'))
    configurations(flat, len(joints))
    links = []
    for joint in joints:
        arguments = _link_arguments(flat, joint, convention)  # its errors name fields in full
        try:
            links.append(Link(**arguments))
        except InvalidFieldError as error:  # Link names its own field: put the joint first
            raise error.renamed(f'{joint}.{error.field}') from None
    link_frames = _strings('links', flat['links']) if 'links' in flat else None
    if link_frames is not None and len(link_frames) != len(joints):
        raise InvalidFieldError('links', link_frames, f'must name {len(joints)} frames, one '
                                'per joint')
    robot_name = flat.get('robot_name', '')  # checked by the Chain, named by file_fields
    gravity = check_array('gravity', flat.get('gravity', (0.0, 0.0, -9.81)), [(3,)])
    payload = {key: flat[f'payload.{key}'] for key in ('mass', 'com', 'inertia')
               if f'payload.{key}' in flat}
    if 'inertia' in payload:
        payload['inertia'] = _inertia('payload.inertia', payload['inertia'])
    payload = check_payload(**payload)
    return {
        'links': links, 'base': _pose(flat, 'base'), 'tool': _pose(flat, 'tool'),
        'gravity': bounds.check_magnitude('gravity', gravity, bounds.GRAVITY_MAX, 'm/s^2'),
        'name': robot_name, 'link_frames': link_frames,
        'world_frame': _string('world_frame', flat.get('world_frame', 'world')),
        'base_frame': _string('base_frame', flat.get('base_frame', 'base_link')),
        'tool_frame': _string('tool_frame', flat.get('tool_frame', 'tool0')),
        'payload': payload, 'frames': _extra_frames(flat), 'meshes': _meshes(flat)}


@contextlib.contextmanager
def file_fields():
    """Name a Chain argument as the model file does in an InvalidFieldError raised inside."""
    try:
        yield
    except InvalidFieldError as error:
        field = error.field
        for argument, name in _CHAIN_FIELDS:
            if field == argument or field.startswith(argument + '['):
                raise error.renamed(name + field[len(argument):]) from None
        raise


@contextlib.contextmanager
def in_file(path):
    """Name ``path`` in the field of an InvalidFieldError raised inside the block."""
    try:
        yield
    except InvalidFieldError as error:
        raise error.renamed(f'{path}: {error.field}') from None


def _plain(value):
    """Return ``value`` with numpy scalars and arrays turned into Python numbers and lists."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(item) for item in value]
    return value.item() if isinstance(value, np.generic) else value


def to_yaml(chain, path=None):
    """
    Return ``chain`` as a ROS 2 parameter file (a ``/**`` block); write it to ``path`` if given.

    Needs PyYAML. Every number is written as a real number, as the node expects.
    """
    import yaml

    text = yaml.safe_dump({'/**': {'ros__parameters': to_params(chain)}},
                          sort_keys=False, default_flow_style=None)
    if path is not None:
        files.write_text(path, text)
    return text


def to_params(chain):
    """Return the ``ros__parameters`` dict (nested, plain Python) that rebuilds ``chain``."""
    return _plain(_params(chain))


def _six(I):  # noqa: E741
    """Return [Ixx Iyy Izz Ixy Iyz Ixz] of a symmetric inertia matrix."""
    return [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[1, 2], I[0, 2]]


def _params(chain):
    params = {'robot_name': chain.name, 'convention': 'modified' if chain.mdh else 'standard',
              'joints': list(chain.joint_names), 'links': list(chain.link_frames),
              'world_frame': chain.world_frame, 'base_frame': chain.base_frame,
              'tool_frame': chain.tool_frame,
              'gravity': chain.gravity.tolist()}
    for name, T in (('base', chain.base), ('tool', chain.tool)):
        params[name] = _xyz_rpy(T)
    payload = chain.payload
    if not is_empty(payload):
        params['payload'] = {'mass': payload.mass, 'com': payload.com.tolist(),
                             'inertia': _six(payload.inertia)}
    for name, link in zip(chain.joint_names, chain.links):
        block = {'type': link.joint, 'a': link.a, 'alpha': link.alpha}
        if link.beta:
            block['beta'] = link.beta
        block['d' if link.isrevolute() else 'theta'] = link.d if link.isrevolute() else link.theta
        block.update(offset=link.offset, flip=link.flip)
        if link.qlim is not None:
            block['qlim'] = list(link.qlim)
        block.update(m=link.m, r=link.r.tolist(), I=_six(link.I),
                     Jm=link.Jm, G=link.G, B=link.B, Tc=list(link.Tc))
        for field in ('effort_limit', 'velocity_limit', 'acceleration_limit',
                      'deceleration_limit', 'jerk_limit'):
            if getattr(link, field) is not None:
                block[field] = getattr(link, field)
        if link.soft_limits is not None:
            block['soft_limits'] = list(link.soft_limits)
        for field in ('k_position', 'k_velocity'):
            if getattr(link, field):
                block[field] = getattr(link, field)
        if link.collision is not None:
            block['collision'] = link.collision.reshape(-1).tolist()
        params[name] = block
    if chain.frames:
        params[FRAMES] = {frame.name: dict(parent=frame.parent, **_xyz_rpy(frame.T_parent_frame))
                          for frame in chain.frames}
    if chain.meshes:
        params[MESHES] = {frame: _mesh_block(value) for frame, value in chain.meshes.items()}
    return params


def _xyz_rpy(T):
    return {'xyz': T[:3, 3].tolist(), 'rpy': matrix_to_rpy(T[:3, :3]).tolist()}


def _mesh_block(value):
    block = {kind: getattr(value, kind) for kind in ('visual', 'collision')
             if getattr(value, kind)}
    block.update(_xyz_rpy(value.T_frame_mesh), scale=value.scale.tolist())
    return block
