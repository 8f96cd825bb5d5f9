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
The node's ROS parameters: names, types, descriptions and ranges, without importing ROS.

The model parameters follow :mod:`dh_kinematics.core.model_file.params`; optional model fields have
no default here, so that an unset parameter means "use the core's default", exactly as a missing
key in a YAML file. Node settings have defaults.
"""

from collections import namedtuple
import math
import sys

from dh_kinematics.core.model_file.params import (
    CONFIGURATIONS, FRAME_FIELDS, JOINT_FIELDS, MESH_FIELDS, MODEL_FIELDS, NAMED_SETTINGS,
    NODE_SETTINGS, SIM_ARM_SETTINGS)

ParameterSpec = namedtuple('ParameterSpec', 'name kind description default minimum maximum '
                                            'read_only limit')
ParameterSpec.__new__.__defaults__ = (None, None, None, False, False)
ParameterSpec.__doc__ = """One parameter: kind is 'string', 'string_array', 'double',
'double_array', 'bool' or 'dynamic' (any type, checked by the core). A ``limit`` (a double or
each item of a double array) is > 0 and finite, or ``.inf`` for off where its range takes it:
NaN and -inf are refused, never taken as off."""

HUGE = sys.float_info.max

_MODEL = (
    ParameterSpec('robot_name', 'string', 'Robot name; the hardware_id of the diagnostics.'),
    ParameterSpec('convention', 'string', "DH convention: 'standard' or 'modified'. Required."),
    ParameterSpec('joints', 'string_array', 'Joint names as in joint_states, base to tip. '
                  'Required; fixed at start-up.', read_only=True),
    ParameterSpec('links', 'string_array', 'Child frame name of each joint (default link1...).'),
    ParameterSpec('world_frame', 'string', "Parent of the base transform (default 'world'); "
                  'never prefixed.'),
    ParameterSpec('base_frame', 'string', "Frame 0 of the chain (default 'base_link')."),
    ParameterSpec('tool_frame', 'string', "Tool frame after the last link (default 'tool0')."),
    ParameterSpec('gravity', 'double_array', 'Gravity in the world frame, m/s^2 '
                  '(default [0, 0, -9.81]).'),
    ParameterSpec('base.xyz', 'double_array', 'Base position in the world frame, m.'),
    ParameterSpec('base.rpy', 'double_array', 'Base roll, pitch, yaw (fixed axes), rad.'),
    ParameterSpec('tool.xyz', 'double_array', 'Tool position in the last link frame, m.'),
    ParameterSpec('tool.rpy', 'double_array', 'Tool roll, pitch, yaw (fixed axes), rad.'),
    ParameterSpec('payload.mass', 'double', 'Payload fixed to the tool frame (a gripper, a '
                  'part), kg (default 0).', minimum=0.0, maximum=HUGE),
    ParameterSpec('payload.com', 'double_array', "Payload's centre of mass in the tool frame, "
                  'm.'),
    ParameterSpec('payload.inertia', 'double_array', "Payload's inertia about its centre of "
                  'mass, tool-frame axes, kg m^2: 3, 6 or 9 values, as a joint I.'),
)

_JOINT = (
    ParameterSpec('type', 'string', "Joint type: 'revolute' or 'prismatic'. Required."),
    ParameterSpec('a', 'double', 'DH link length a, m. Required.'),
    ParameterSpec('alpha', 'double', 'DH link twist alpha, rad. Required.'),
    ParameterSpec('beta', 'double', "Hayati's rotation about the link's y axis after alpha, "
                  'rad, for nearly parallel axes (default 0).'),
    ParameterSpec('d', 'double', 'DH offset d, m. Required for revolute joints; 0 for '
                  'prismatic ones.'),
    ParameterSpec('theta', 'double', 'DH angle theta, rad. Required for prismatic joints; 0 '
                  'for revolute ones.'),
    ParameterSpec('offset', 'double', 'Added to the joint value, rad or m (default 0).'),
    ParameterSpec('flip', 'bool', 'The joint moves in the opposite direction (default false).'),
    ParameterSpec('qlim', 'double_array', '[lower, upper] joint limits, rad or m; unset for '
                  'none.'),
    ParameterSpec('m', 'double', 'Link mass, kg (default 0).', minimum=0.0, maximum=HUGE),
    ParameterSpec('r', 'double_array', 'Centre of mass in the link frame, m.'),
    ParameterSpec('I', 'double_array', 'Inertia about the centre of mass, kg m^2: [Ixx Iyy Izz],'
                  ' [Ixx Iyy Izz Ixy Iyz Ixz] or 9 values row-major.'),
    ParameterSpec('Jm', 'double', 'Motor inertia, motor side, kg m^2 (default 0).',
                  minimum=0.0, maximum=HUGE),
    ParameterSpec('G', 'double', 'Gear ratio, motor over link velocity; not 0 (default 1).'),
    ParameterSpec('B', 'double', 'Viscous friction, motor side, N m s/rad (default 0).',
                  minimum=0.0, maximum=HUGE),
    ParameterSpec('Tc', 'dynamic', 'Coulomb friction, motor side, N m: T for [T, -T], or '
                  '[Tc+, Tc-] (default 0).'),
    ParameterSpec('effort_limit', 'double', 'Largest joint torque or force, N m or N, for the '
                  'URDF; .inf when not known.'),
    ParameterSpec('velocity_limit', 'double', 'Largest joint speed, rad/s or m/s, for the URDF; '
                  '.inf when not known.'),
    ParameterSpec('acceleration_limit', 'double', 'Largest joint acceleration, rad/s^2 or '
                  'm/s^2; .inf when not known.'),
    ParameterSpec('deceleration_limit', 'double', 'Largest joint deceleration where it differs '
                  'from the acceleration limit, rad/s^2 or m/s^2; .inf for the same.'),
    ParameterSpec('jerk_limit', 'double', 'Largest joint jerk, rad/s^3 or m/s^3, judged from '
                  "the estimate of the message's velocities; .inf when not known."),
    ParameterSpec('soft_limits', 'double_array', '[lower, upper] soft position limits inside '
                  "qlim, rad or m (URDF's safety_controller, ros2_control's soft limiter); "
                  'unset for none.'),
    ParameterSpec('k_position', 'double', "The soft limiter's position gain, 1/s (default 0).",
                  minimum=0.0, maximum=HUGE),
    ParameterSpec('k_velocity', 'double', "The soft limiter's velocity gain, for the URDF "
                  '(ros2_control bounds the effort with it); not watched (default 0).',
                  minimum=0.0, maximum=HUGE),
    ParameterSpec('collision', 'double_array', 'Capsules on the link the joint moves, 7 numbers '
                  'each: [ax, ay, az, bx, by, bz, radius], the ends in the link frame and the '
                  "radius, m; unset for the default body's."),
)

_FRAME = (
    ParameterSpec('parent', 'string', 'The frame it hangs from: the world, base, a link, an axis '
                  'frame, the tool or another extra frame. Required.'),
    ParameterSpec('xyz', 'double_array', 'Its position in the parent frame, m.'),
    ParameterSpec('rpy', 'double_array', 'Its roll, pitch, yaw in the parent frame (fixed axes), '
                  'rad.'),
)
_MESH = (
    ParameterSpec('visual', 'string', "Visual mesh: a package:// or file:// URI ('' for none)."),
    ParameterSpec('collision', 'string', "Collision mesh: a package:// or file:// URI ('' for "
                  'none).'),
    ParameterSpec('xyz', 'double_array', "The meshes' origin in the frame, m."),
    ParameterSpec('rpy', 'double_array', "The meshes' roll, pitch, yaw in the frame, rad."),
    ParameterSpec('scale', 'double_array', 'Scale along x, y, z (default [1, 1, 1]).'),
)


def _in_order(specs, names):
    """Return ``specs`` in the order of ``names``; raise if they name anything else."""
    if sorted(spec.name for spec in specs) != sorted(names):
        raise ValueError(f'parameter specs {[spec.name for spec in specs]} do not match {names}')
    return tuple(sorted(specs, key=lambda spec: names.index(spec.name)))


MODEL = _in_order(_MODEL, MODEL_FIELDS)
JOINT = _in_order(_JOINT, JOINT_FIELDS)
FRAME = _in_order(_FRAME, FRAME_FIELDS)
MESH = _in_order(_MESH, MESH_FIELDS)

NODE = _in_order((
    ParameterSpec('frame_prefix', 'string', 'Prefix for every frame name except the world frame, '
                  "as in robot_state_publisher (e.g. 'left/').", default=''),
    ParameterSpec('diagnostics.warn_margin', 'double', 'WARN when a joint is this close to a '
                  'limit, rad or m.', default=0.05, minimum=0.0, maximum=HUGE),
    ParameterSpec('diagnostics.stale_timeout', 'double', 'STALE when a joint has no '
                  'joint_states for this long, s.', default=1.0, minimum=1e-3, maximum=3600.0),
    ParameterSpec('diagnostics.period', 'double', 'Diagnostics are published this often, s '
                  '(and on a level change, at most every 0.1 s).', default=1.0, minimum=0.02,
                  maximum=60.0),
    ParameterSpec('diagnostics.hysteresis', 'double', 'A level clears only once the joint is '
                  'back inside by this much, rad or m.', default=0.01, minimum=0.0,
                  maximum=HUGE),
    ParameterSpec('future_stamp_tolerance', 'double', 'joint_states stamped more than this '
                  "far ahead of the node's clock are dropped, s.", default=1.0, minimum=0.0,
                  maximum=86400.0),
    ParameterSpec('publish_robot_description', 'bool', 'Publish the URDF of the model on '
                  'robot_description (false where another node owns it).', default=True),
    ParameterSpec('ros2_control.plugin', 'string', 'Add a <ros2_control> block to the '
                  "published URDF for this hardware plugin: 'mock' "
                  "(mock_components/GenericSystem) or package/Class; '' for none.", default=''),
    ParameterSpec('ros2_control.initial_configuration', 'string', 'The named configuration '
                  "(configurations.<name>) the block's joints start at; '' for each joint's 0 "
                  'within its limits.', default=''),
    ParameterSpec('tf.max_rate', 'double', 'Publish /tf at most this often per joint, Hz, '
                  "always the newest message (robot_state_publisher's publish_frequency); 0 "
                  'publishes every message, else 0.001 to 1e6. The limits still see every '
                  'message.', default=0.0, minimum=0.0, maximum=1e6),
    ParameterSpec('monitors.block_period', 'double', 'Judge the joint_states that arrive '
                  "within this period together, s: the arm's state of the block measured at "
                  'once, every message still judged and published with its own stamp, up to '
                  'this much later; 0 judges each message as it arrives. At most 0.1: the '
                  'messages that come while a block is judged wait in the queue (depth 100).',
                  default=0.0, minimum=0.0, maximum=0.1),
    ParameterSpec('effort.warn', 'double_array', 'WARN when |measured - expected effort| of a '
                  'joint passes this, N m or N: 1 value (every joint) or 1 per joint; .inf '
                  'is off.', default=[math.inf], limit=True),
    ParameterSpec('effort.error', 'double_array', 'ERROR when |measured - expected effort| '
                  'passes this, N m or N; as effort.warn.', default=[math.inf], limit=True),
    ParameterSpec('effort.rest_speed', 'double', 'While every joint is slower than this, rad/s '
                  'or m/s, the arm is at rest and effort.rest_warn and effort.rest_error judge '
                  'instead of effort.warn and effort.error; 0 (the default): no rest phase.',
                  default=0.0, minimum=0.0, maximum=1e4),
    ParameterSpec('effort.rest_warn', 'double_array', 'effort.warn at rest (effort.rest_speed), '
                  'N m or N; as effort.warn.', default=[math.inf], limit=True),
    ParameterSpec('effort.rest_error', 'double_array', 'effort.error at rest '
                  '(effort.rest_speed), N m or N; as effort.warn.', default=[math.inf],
                  limit=True),
    ParameterSpec('effort.velocity_noise', 'double_array', 'The standard deviation of each '
                  "joint's measured velocity, rad/s or m/s (tune-contact measures it at rest): "
                  '1 value or 1 per joint; with effort.effort_noise, ~/external_wrench_deviation '
                  'says how far each axis of ~/external_wrench can be believed. .inf (the '
                  'default): not known, nothing published.', default=[math.inf], limit=True),
    ParameterSpec('effort.effort_noise', 'double_array', 'The standard deviation of each '
                  "joint's measured effort, N m or N; as effort.velocity_noise.",
                  default=[math.inf], limit=True),
    ParameterSpec('effort.hold', 'double', 'A residual must stay past a threshold this long '
                  'before the level rises, s.', default=0.1, minimum=0.0, maximum=60.0),
    ParameterSpec('effort.hysteresis', 'double', 'An effort level clears only once the '
                  'residual is below (1 - this) of its threshold.', default=0.2, minimum=0.0,
                  maximum=0.99),
    ParameterSpec('effort.acceleration_cutoff', 'double', 'Cut-off of the low-pass filter on '
                  'the joint accelerations for the expected efforts, Hz (lag about '
                  '1/(2 pi cutoff) s).', default=10.0, minimum=0.01, maximum=1e6),
    ParameterSpec('effort.estimator', 'string', "What the effort monitor judges: 'observer', "
                  'the external torque of a generalised-momentum observer, wherever joint_states '
                  "carries every joint's velocity and effort (else the residual), or "
                  "'acceleration', the residual measured - expected effort at the filtered "
                  'accelerations.', default='observer'),
    ParameterSpec('effort.observer_gain', 'double', "The observer's gain K, 1/s: its estimate "
                  'follows a step of external torque as 1 - exp(-K t).', default=50.0,
                  minimum=0.1, maximum=1e4),
    ParameterSpec('limits.warn_fraction', 'double', 'WARN when a velocity, acceleration or '
                  "effort passes this fraction of its joint's limit (ERROR beyond the limit).",
                  default=0.9, minimum=0.01, maximum=1.0),
    ParameterSpec('limits.hysteresis', 'double', 'A velocity, acceleration or effort level '
                  'clears only once the value is this fraction of the limit below the '
                  'threshold that raised it.', default=0.05, minimum=0.0, maximum=0.99),
    ParameterSpec('tool_speed_limit', 'double', "Largest linear speed of the tool frame's "
                  'origin, m/s (ISO 10218-1 reduced speed: 0.25); .inf is off.',
                  default=math.inf, limit=True),
    ParameterSpec('singularity.enabled', 'bool', 'Judge the condition number of the '
                  "Jacobian scaled by the arm's characteristic length (the wrist's, elbow's "
                  "and shoulder's singularities all) on every message.", default=False),
    ParameterSpec('singularity.warn', 'double', 'WARN above this condition number of the '
                  'scaled Jacobian (at most 5 % of random poses of the shipped arms reach '
                  'it).', default=500.0, minimum=1.0, maximum=HUGE),
    ParameterSpec('singularity.error', 'double', 'ERROR above this condition number of the '
                  'scaled Jacobian; not below singularity.warn.', default=1000.0, minimum=1.0,
                  maximum=HUGE),
    ParameterSpec('singularity.hysteresis', 'double', 'A singularity level clears once the '
                  'condition number is this fraction below the threshold that raised it.',
                  default=0.1, minimum=0.0, maximum=0.99),
    ParameterSpec('safety.momentum_limit', 'double', "Largest size of the arm's linear "
                  'momentum, kg m/s (UR: 3 kg m/s accuracy); .inf is off.',
                  default=math.inf, limit=True),
    ParameterSpec('safety.kinetic_energy_limit', 'double', 'Largest kinetic energy of the arm '
                  'and its motors, 1/2 qd^T M qd, J; .inf is off.', default=math.inf, limit=True),
    ParameterSpec('safety.power_limit', 'double', 'Largest |sum effort x velocity| of the '
                  "joints, W, from joint_states' efforts; .inf is off.",
                  default=math.inf, limit=True),
    ParameterSpec('safety.stopping_time_limit', 'double', 'Largest time of a category-1 stop '
                  'on the path from the present state, each joint braking at most at its '
                  'deceleration limit, s; .inf is off.', default=math.inf, limit=True),
    ParameterSpec('safety.stopping_distance_limit', 'double', "Largest path of the tool frame's "
                  'origin during that stop, m; .inf is off.', default=math.inf, limit=True),
    ParameterSpec('safety.plane_frames', 'string_array', 'Frames whose origins are judged '
                  'against every plane of safety.planes.<name>.', default=['']),
    ParameterSpec('safety.plane_margin', 'double', 'WARN when a frame or tool sphere comes this '
                  'close to a plane, m (ERROR past it).', default=0.05, minimum=0.0,
                  maximum=HUGE),
    ParameterSpec('safety.tool_spheres', 'double_array', 'Spheres fixed on the tool judged '
                  'against the planes: x, y, z (tool frame) and radius per sphere, m; '
                  '[.inf] for none.', default=[math.inf]),
    ParameterSpec('safety.tool_direction.axis', 'double_array', "The direction the tool's z "
                  'axis keeps to, world frame.', default=[0.0, 0.0, -1.0]),
    ParameterSpec('safety.tool_direction.limit', 'double', "Largest angle between the tool's z "
                  'axis and safety.tool_direction.axis, rad; .inf is off.',
                  default=math.inf, limit=True),
    ParameterSpec('safety.contact.body_region', 'string', 'Judge the tool speed against the '
                  'speed at which it may meet this body region in a transient contact '
                  "(ISO/TS 15066 Annex A: hands_fingers, chest...); '' is off.", default=''),
    ParameterSpec('safety.self_collision.enabled', 'bool', 'Judge the distance between the '
                  "arm's link capsules (each joint's collision, else the default body's) on "
                  'every message.', default=False),
    ParameterSpec('safety.self_collision.ignore', 'string_array', 'Pairs of links never judged, '
                  "each 'linkA linkB' (dh_kinematics check proposes them).", default=['']),
    ParameterSpec('safety.self_collision.warn_distance', 'double', 'WARN when two capsules come '
                  'this close, m.', default=0.05, minimum=0.0, maximum=HUGE),
    ParameterSpec('safety.self_collision.error_distance', 'double', 'ERROR when two capsules '
                  'come this close, m; not above the warn distance.', default=0.01,
                  minimum=0.0, maximum=HUGE),
), NODE_SETTINGS)


def named_setting_specs(given):
    """
    Return the specs of the settings a node was given under a name of the user's.

    ``safety.frame_speed_limits.<frame>`` (a frame's speed limit, m/s) and
    ``safety.planes.<name>`` (a plane, [nx, ny, nz, offset]) for each such name in ``given``.
    """
    specs = []
    for name in sorted(given):
        if name.startswith(NAMED_SETTINGS[0]):
            specs.append(ParameterSpec(name, 'double', 'Largest linear speed of the frame '
                                       f'{name[len(NAMED_SETTINGS[0]):]!r}, m/s.',
                                       minimum=0.0, maximum=HUGE, limit=True))
        elif name.startswith(NAMED_SETTINGS[1]):
            specs.append(ParameterSpec(name, 'double_array', 'A safety plane n . x = offset, '
                                       '[nx, ny, nz, offset] (world frame, m): the side the '
                                       'normal points to is allowed.'))
    return tuple(specs)


SIM_ARM = _in_order((
    ParameterSpec('rate', 'double', 'Publishing rate, Hz.', default=100.0, minimum=0.1,
                  maximum=10000.0),
    ParameterSpec('period', 'double', 'Seconds per full sweep.', default=10.0, minimum=0.01,
                  maximum=3600.0),
    ParameterSpec('overshoot', 'double', 'How far past both limits to sweep, rad or m (0: stay '
                  'inside).', default=0.0, minimum=0.0, maximum=10.0),
    ParameterSpec('extra_payload.mass', 'double', 'A payload the model does not know, in the '
                  'published efforts only, kg.', default=0.0, minimum=0.0, maximum=1e6),
    ParameterSpec('extra_payload.com', 'double_array', "That payload's centre of mass in the "
                  'tool frame, m.', default=[0.0, 0.0, 0.0]),
    ParameterSpec('collision.joint', 'string', 'A joint that meets an obstacle: its effort gets '
                  "collision.effort added ('' for none).", default=''),
    ParameterSpec('collision.effort', 'double', "The motor's torque or force against the "
                  "obstacle, N m or N (the node's ~/external_torque reads it with the opposite "
                  'sign).', default=0.0, minimum=-1e6, maximum=1e6),
    ParameterSpec('collision.start', 'double', 'When the collision starts, s after sim_arm '
                  'starts.', default=5.0, minimum=0.0, maximum=1e6),
    ParameterSpec('collision.duration', 'double', 'How long each collision lasts, s.',
                  default=1.0, minimum=0.0, maximum=1e6),
    ParameterSpec('collision.every', 'double', 'Repeat the collision this often, s (0: once).',
                  default=0.0, minimum=0.0, maximum=1e6),
    ParameterSpec('trajectory', 'string', 'A CSV joint log to play over and over instead of '
                  "the sweep (dh_kinematics excite writes one; '' for the sweep).", default=''),
), SIM_ARM_SETTINGS)


def _block(name, specs):
    return tuple(spec._replace(name=f'{name}.{spec.name}', description=f'{name}: '
                               f'{spec.description}') for spec in specs)


def configuration_spec(name):
    """Return the parameter spec of a named configuration, ``configurations.<name>``."""
    return ParameterSpec(f'{CONFIGURATIONS}.{name}', 'double_array', 'A named configuration: '
                         'a value per joint, rad or m (fk, ik and plot --q-name; MoveIt group '
                         'states).')


def joint_specs(joint):
    """Return the parameter specs of one joint block, named ``<joint>.<field>``."""
    return _block(joint, JOINT)


def frame_specs(frame):
    """Return the parameter specs of one extra frame, named ``frames.<frame>.<field>``."""
    return _block(f'frames.{frame}', FRAME)


def mesh_specs(frame):
    """Return the parameter specs of one frame's meshes, named ``meshes.<frame>.<field>``."""
    return _block(f'meshes.{frame}', MESH)
