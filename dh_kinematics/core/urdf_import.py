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
The serial chain between two links of a URDF, as a DH model (:func:`from_urdf`).

The chain's moving joints (revolute, continuous, prismatic, about any axis) become the links,
with the DH frames :func:`core.kinematics.dh_fit.fit` places on their axes at the URDF's zero
configuration: the model's zero configuration is the URDF's, its joint values are the URDF's
(a joint whose DH z points against its axis gets ``flip``), its world frame is the base link
and its tool frame is the tip link. The fixed joints between moving ones go into the DH
parameters; what comes before the first and after the last moving joint into ``base`` and
``tool``.

Carried over, in SI units:

- limits: ``<limit>`` lower and upper as ``qlim`` (continuous joints: none), effort and
  velocity as ``effort_limit`` and ``velocity_limit``; ``<safety_controller>`` as
  ``soft_limits``, ``k_position`` and ``k_velocity``;
- ``<dynamics>``: damping as viscous friction ``B`` and friction as Coulomb friction ``Tc``,
  with gear ratio ``G = 1`` (link side);
- inertials: every link that moves with a joint until the next one (on the chain, or hanging
  from it by fixed joints) is merged into one body, put into that link's DH frame;
- gravity: the URDF's, -9.81 m/s^2 along the root link's z, in the base link's frame;
- collision geometry: each ``<collision>`` shape of the links a joint moves as its enclosing
  capsule (:mod:`core.urdf.enclosing`), in that link's DH frame (the link's ``collision``);
  a body with a shape that cannot be enclosed (a mesh not found) keeps the default body, and
  the base link's shapes (no joint's block holds them) are left out, each said in the notes;
- frames: the URDF links named in ``keep_frames`` as extra fixed frames with their URDF names,
  so that they are published where robot_state_publisher would put them. A DH frame that is
  a URDF link's frame takes that link's name; the others are ``<link>_dh``.

A joint off the chain is held at 0, the links it moves riding on the chain's body they hang
from, and the import says so; so is everything else a DH model cannot hold (a mimic joint, a
floating or planar joint, a link's visual geometry, a limit of 0). A chain that a DH model cannot
hold at all (a floating, planar or mimic joint on it) is refused.
"""

from dataclasses import dataclass

from dh_kinematics.core import fixed_frames
from dh_kinematics.core.chain import Chain
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.dynamics import inertials
from dh_kinematics.core.fixed_frames import FixedFrame
from dh_kinematics.core.kinematics import dh_fit
from dh_kinematics.core.link import Link
from dh_kinematics.core.link_checks import MAX_CAPSULES
from dh_kinematics.core.rotations import matrix_to_rotvec
from dh_kinematics.core.urdf import reader
from dh_kinematics.core.urdf.enclosing import enclosing
import numpy as np


@dataclass(frozen=True)
class URDFImport:
    """
    What :func:`from_urdf` returns: the model and how well it matches the URDF.

    Attributes
    ----------
    chain : Chain
        The DH model of the chain between the two links.
    notes : list of str
        What was chosen, or not held, a sentence each.
    position_error : float
        The largest distance between the model's and the URDF's tool and kept frames over
        :data:`SAMPLES` configurations, m.
    orientation_error : float
        The largest angle between their orientations over the same configurations, rad.

    """

    chain: object
    notes: list
    position_error: float
    orientation_error: float


SAMPLES = 100
"""Configurations (seeded, within the limits) over which the model is compared to the URDF."""
GRAVITY = (0.0, 0.0, -9.81)
"""The gravity of a URDF's root link, m/s^2 (as Gazebo and pinocchio take it)."""
_SAME_POSE = 1e-12


def _chain_joints(tree, base, tip):
    """Return the joints from ``base`` down to ``tip`` (names), refusing what is no chain."""
    for field, link in (('base', base), ('tip', tip)):
        if link not in tree.links:
            raise InvalidFieldError(field, link, 'must name a link of the URDF (links: '
                                    f'{", ".join(sorted(tree.links))})')
    above_base = reader.path_to_root(tree, base)
    above_tip = reader.path_to_root(tree, tip)
    if base == tip or above_tip[:len(above_base)] != above_base:
        raise InvalidFieldError('tip', tip, f'must be a link below base {base!r} in the URDF '
                                'tree (its path from the root: '
                                f'{" -> ".join(above_tip) or "it is the root"})')
    path = above_tip[len(above_base):]
    for name in path:
        joint = tree.joints[name]
        if joint.type in ('floating', 'planar'):
            raise InvalidFieldError(f'joint {name!r}', joint.type, 'must be revolute, '
                                    'continuous, prismatic or fixed on the chain: a DH link '
                                    'moves along or about one axis')
        if joint.mimic is not None:
            raise InvalidFieldError(f'joint {name!r}', f'mimic {joint.mimic}', 'cannot be on '
                                    'the chain: the joints of a DH chain move independently')
    if not any(tree.joints[name].type in reader.MOVING for name in path):
        raise InvalidFieldError('tip', tip, f'must be reached from {base!r} through at least '
                                'one moving joint')
    return path


def _below(tree, base, chain):
    """
    Return every link below ``base`` with its pose at the zero configuration and its body.

    Returns
    -------
    poses : dict
        Link name -> T_base_link (4, 4), every joint at 0.
    bodies : dict
        Link name -> the number of the chain's moving joints between base and it (0: it is
        fixed to the base).
    held : list of str
        The moving joints below base that are not on the chain.

    """
    moving = {name for name in chain if tree.joints[name].type in reader.MOVING}
    poses, bodies, held, todo = {base: np.eye(4)}, {base: 0}, [], [base]
    while todo:
        parent = todo.pop()
        for name in reader.children(tree, parent):
            joint = tree.joints[name]
            poses[joint.child] = poses[parent] @ joint.T_parent_joint
            bodies[joint.child] = bodies[parent] + (name in moving)
            if joint.type != 'fixed' and name not in moving:
                held.append(name)
            todo.append(joint.child)
    return poses, bodies, held


def _limits(joint, notes):
    """Return the Link fields of a joint's limits, noting what a model cannot take."""
    limit, fields = joint.limit, {}
    if joint.type != 'continuous':
        lower, upper = limit.get('lower', 0.0), limit.get('upper', 0.0)
        if lower > upper:
            raise InvalidFieldError(f'joint {joint.name!r} limit', [lower, upper],
                                    'must have lower <= upper')
        fields['qlim'] = (lower, upper)
    for key in ('effort', 'velocity'):
        if limit.get(key, 0.0) > 0.0:
            fields[f'{key}_limit'] = limit[key]
        else:
            notes.append(f'{joint.name}: no {key} limit (URDF {key}="'
                         f'{limit.get(key, 0.0):g}"); the model has none')
    safety = joint.safety
    if safety:
        soft = [safety.get('soft_lower_limit', 0.0), safety.get('soft_upper_limit', 0.0)]
        if 'qlim' in fields:
            inside = [max(soft[0], fields['qlim'][0]), min(soft[1], fields['qlim'][1])]
            if inside != soft:
                notes.append(f'{joint.name}: soft limits {soft} narrowed to the joint limits, '
                             f'{inside}')
            soft = inside
        fields.update(soft_limits=soft, k_position=safety.get('k_position', 0.0),
                      k_velocity=safety.get('k_velocity', 0.0))
    damping, friction = joint.dynamics
    fields.update(B=damping, Tc=friction, G=1.0)
    return fields


def _frame_name(tree, joint, frame, poses, taken):
    """Name a DH frame after the link it moves with: that link's name where they coincide."""
    child = joint.child
    if child not in taken and np.abs(poses[child] - frame).max() <= _SAME_POSE:
        return child
    return f'{child}_dh'


def _capsules(tree, poses, bodies, fit, count, environ, notes):
    """Return each body's enclosing capsules in its DH frame (None: the default body's)."""
    shapes = [[] for _ in range(count + 1)]
    for link, pose in poses.items():
        shapes[bodies[link]] += [(link, pose, shape) for shape in tree.links[link].collisions]
    if shapes[0]:
        notes.append(f'collision geometry of {", ".join(sorted({s[0] for s in shapes[0]}))}: '
                     "left out (on the base: a model's capsules hang on the links its joints "
                     'move)')
    found, failed = [None], []
    for body in range(1, count + 1):
        T_dh_base, capsules = np.linalg.inv(fit.frames[body]), []
        try:
            for link, pose, shape in shapes[body]:
                a, b, radius = enclosing(shape, environ)
                T = T_dh_base @ pose
                capsules.append(np.concatenate([T[:3, :3] @ a + T[:3, 3],
                                                T[:3, :3] @ b + T[:3, 3], [max(radius, 1e-6)]]))
            if len(capsules) > MAX_CAPSULES:
                raise ValueError(f'{len(capsules)} shapes, more than the {MAX_CAPSULES} capsules '
                                 'a link holds')
        except ValueError as error:
            failed.append((link, str(error)))
            capsules = []
        found.append(dh_fit.clean(np.array(capsules)) if capsules else None)
    if failed:
        notes.append(f'collision geometry of {", ".join(link for link, _ in failed)} not '
                     f'enclosed ({failed[0][1]}{", ..." if len(failed) > 1 else ""}): their '
                     'bodies keep the default capsules')
    return found


def from_urdf(text, base, tip, convention='standard', keep_frames=(),
              parallel_tolerance=dh_fit.PARALLEL_TOLERANCE, name=None, hayati=True,
              environ=None):
    """
    Return the chain of a URDF between links ``base`` and ``tip`` as a DH model.

    Parameters
    ----------
    text : str
        The URDF (XML text).
    base, tip : str
        The links where the chain starts (the model's world frame) and ends (its tool frame).
    convention : {'standard', 'modified'}
        The DH convention of the model.
    keep_frames : sequence of str
        URDF links below ``base`` to publish as extra frames; ``'all'`` among them: every link
        on the chain.
    parallel_tolerance : float
        Without ``hayati``: joint axes closer than this to parallel (rad) are taken as
        parallel (:mod:`core.kinematics.dh_fit`).
    name : str, optional
        The robot name; the URDF's by default.
    hayati : bool
        Join nearly parallel axes with Hayati's beta (exact); False for plain DH.
    environ : dict, optional
        Where a collision mesh's ``package://`` is looked up (``AMENT_PREFIX_PATH``); the
        process's environment by default.

    Returns
    -------
    result : URDFImport

    Raises
    ------
    ValueError
        For a URDF that cannot be read, links that are not there or form no chain, a joint a
        DH chain cannot hold, or a value the model refuses; the message names the joint or
        link.

    Examples
    --------
    A URDF's chain back to a DH model (here, a chain's own URDF):

    >>> from dh_kinematics import Chain, Link
    >>> arm = Chain([Link(a=1.0, m=2.0, r=[-0.5, 0, 0], name='shoulder'),
    ...              Link(a=0.5, m=1.0, r=[-0.25, 0, 0], name='elbow')])
    >>> from dh_kinematics import from_urdf
    >>> result = from_urdf(arm.to_urdf(), 'world', 'tool0')
    >>> result.chain.n, result.position_error < 1e-12, result.orientation_error < 1e-12
    (2, True, True)

    """
    tree = reader.parse(text)
    modified = {'standard': False, 'modified': True}.get(convention)
    if modified is None:
        raise InvalidFieldError('convention', convention, "must be 'standard' or 'modified'")
    chain_joints = _chain_joints(tree, base, tip)
    poses, bodies, held = _below(tree, base, chain_joints)
    moving = [tree.joints[name] for name in chain_joints
              if tree.joints[name].type in reader.MOVING]
    axes = []
    for joint in moving:
        T_base_joint = poses[joint.parent] @ joint.T_parent_joint
        axes.append(dh_fit.Axis(T_base_joint[:3, 3], T_base_joint[:3, :3] @ joint.axis,
                                joint.type != 'prismatic'))
    fit = dh_fit.fit(axes, poses[tip], modified, parallel_tolerance,
                     [joint.name for joint in moving], [poses[joint.child] for joint in moving],
                     hayati)
    notes = list(fit.notes)
    body_inertials = [inertials.merged(
        inertials.moved(tree.links[link].inertial, np.linalg.inv(fit.frames[body]) @ pose)
        for link, pose in poses.items() if bodies[link] == body)
        for body in range(1, len(moving) + 1)]
    capsules = _capsules(tree, poses, bodies, fit, len(moving), environ, notes)
    links, link_frames, taken = [], [], {base, tip}
    for j, (joint, fields, body) in enumerate(zip(moving, fit.links, body_inertials)):
        try:
            links.append(Link(joint='revolute' if joint.type != 'prismatic' else 'prismatic',
                              convention=convention, m=body.m, r=dh_fit.clean(body.c),
                              I=dh_fit.clean(body.I), collision=capsules[j + 1],
                              name=joint.name, **fields, **_limits(joint, notes)))
        except InvalidFieldError as error:
            raise error.renamed(f'joint {joint.name!r}: {error.field}') from None
        link_frames.append(_frame_name(tree, joint, fit.frames[j + 1], poses, taken))
        taken.add(link_frames[-1])
    frame_of_body = [base] + link_frames
    kept = _kept_frames(keep_frames, chain_joints, tree, base, tip, poses, bodies, fit,
                        frame_of_body)
    chain = Chain(links, fit.base, fit.tool, _gravity(tree, base, notes),
                  tree.name if name is None else name, base_frame=f'{base}_dh',
                  link_frames=link_frames, tool_frame=tip, world_frame=base, frames=kept)
    notes += _not_held(tree, poses, held)
    position_error, orientation_error = _difference(chain, tree, moving, kept, base)
    return URDFImport(chain, notes, position_error, orientation_error)


def _kept_frames(keep_frames, chain_joints, tree, base, tip, poses, bodies, fit,
                 frame_of_body):
    keep_frames = [keep_frames] if isinstance(keep_frames, str) else list(keep_frames)
    if 'all' in keep_frames and 'all' not in tree.links:
        keep_frames = [tree.joints[name].child for name in chain_joints] + keep_frames
    kept = []
    for link in dict.fromkeys(keep_frames):
        if link == 'all' and 'all' not in tree.links:
            continue
        if link not in poses:
            raise InvalidFieldError('keep_frames', link, f'must name links below base {base!r} '
                                    f'(links there: {", ".join(sorted(poses))})')
        if link in (base, tip) or link in frame_of_body:
            continue  # the world, tool or a DH frame already: published under its name
        body = bodies[link]
        T_parent = np.eye(4) if body == 0 else fit.frames[body]
        kept.append(FixedFrame(link, frame_of_body[body],
                               dh_fit.clean(np.linalg.inv(T_parent) @ poses[link])))
    return kept


def _gravity(tree, base, notes):
    """Return the URDF's gravity in the base link, its joints above base held at 0."""
    T = np.eye(4)
    for name in reader.path_to_root(tree, base):
        joint = tree.joints[name]
        T = T @ joint.T_parent_joint
        if joint.type != 'fixed':
            notes.append(f'{name}: moves the base link ({joint.type}); gravity is taken with '
                         'it at 0')
    return T[:3, :3].T @ np.array(GRAVITY)


def _not_held(tree, poses, held):
    """Return the notes on what below the base a DH model does not hold."""
    notes = []
    for name in held:
        joint = tree.joints[name]
        why = f'mimics {joint.mimic}' if joint.mimic else joint.type
        notes.append(f'{name}: off the chain ({why}); held at 0, its links riding on the body '
                     f'it hangs from')
    drawn = sorted(link for link in poses if tree.links[link].geometry)
    if drawn:
        kinds = sorted({kind for link in drawn for kind in tree.links[link].geometry})
        notes.append(f'visual geometry ({", ".join(kinds)}) of {len(drawn)} links is not '
                     'carried over: the model draws its capsules and cylinders, or meshes '
                     'given in meshes.<frame>')
    return notes


def _difference(chain, tree, moving, kept, base):
    """Return the largest tool and kept-frame difference (m, rad) of model and URDF."""
    names = [joint.name for joint in moving]
    above_base = len(reader.path_to_root(tree, base))
    paths = {link: reader.path_to_root(tree, link)[above_base:]
             for link in [chain.tool_frame] + [frame.name for frame in kept]}
    q = chain.random_q(SAMPLES, np.random.default_rng(0))  # (SAMPLES, n)
    values = dict(zip(names, q.T))
    held = np.zeros(len(q))  # a joint off the chain, at 0 in every sample
    frames = fixed_frames.world_poses(chain, q)  # every sample at once
    position, angle = 0.0, 0.0
    for link, path in paths.items():
        T = np.eye(4)
        for name in path:
            T = T @ reader.joint_motion(tree.joints[name], values.get(name, held))
        T = np.broadcast_to(T, frames[link].shape)
        position = max(position, float(np.linalg.norm(
            T[:, :3, 3] - frames[link][:, :3, 3], axis=-1).max()))
        turns = np.swapaxes(T[:, :3, :3], -1, -2) @ frames[link][:, :3, :3]
        angle = max(angle, float(np.linalg.norm(matrix_to_rotvec(turns), axis=-1).max()))
    return position, angle
