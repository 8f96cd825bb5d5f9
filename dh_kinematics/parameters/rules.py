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
The node's settings' rules that one value's range cannot say: between settings, or with the model.

A value's own rule (its type, its range, a limit's ``.inf`` for off) is on its
:class:`ParameterSpec`; what is here needs another setting or the model. :func:`check` is run by
:func:`validation.checked` on every change, whichever door it came through; the monitors then
take the settings as they are and refuse nothing. Each rule raises :class:`InvalidFieldError`
naming the setting.
"""

import math

from dh_kinematics.core import names
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.model_file.params import file_fields, NAMED_SETTINGS
from dh_kinematics.core.safety import contact
from dh_kinematics.core.safety.link_capsules import ignored_pairs
from dh_kinematics.core.safety.planes import check_plane
from dh_kinematics.core.safety.points import check_frame
from dh_kinematics.parameters.specs import NODE

MIN_TF_RATE, MAX_TF_RATE = 1e-3, 1e6
"""``tf.max_rate`` but 0, Hz: one /tf message in 1000 s (below, the interval overflows) to 1 us."""
ESTIMATORS = ('observer', 'acceleration')
"""The values of ``effort.estimator``: what the effort monitor judges, the default first."""
FRAME_SPEEDS, PLANES = NAMED_SETTINGS
"""The prefixes of the settings whose last part the user names: a frame, a plane."""


def check(chain, settings):
    """Refuse settings that do not hold together or do not fit ``chain``; see the module."""
    if 'frame_prefix' in settings:  # the names published with it: ROS's rule, no two alike
        with file_fields():
            names.check_prefixed(chain, settings['frame_prefix'])
    if 'tf.max_rate' in settings:
        check_tf_rate(settings['tf.max_rate'])
    if 'effort.warn' in settings:
        effort_thresholds(settings, chain.n)
    if settings.get('effort.estimator', ESTIMATORS[0]) not in ESTIMATORS:
        raise InvalidFieldError('effort.estimator', settings['effort.estimator'],
                                f"must be one of {', '.join(map(repr, ESTIMATORS))}")
    if 'limits.warn_fraction' in settings:
        if not settings['limits.hysteresis'] < settings['limits.warn_fraction']:
            raise InvalidFieldError('limits.hysteresis', settings['limits.hysteresis'],
                                    'must be within [0, limits.warn_fraction)')
    if 'singularity.error' in settings:
        if settings['singularity.error'] < settings['singularity.warn']:
            raise InvalidFieldError('singularity.error', settings['singularity.error'],
                                    f'must not be below singularity.warn '
                                    f'{settings["singularity.warn"]!r}: ERROR must not come '
                                    'before WARN')
    if 'safety.momentum_limit' in settings:
        safety(chain, settings)


def check_tf_rate(max_rate):
    """Refuse a ``tf.max_rate`` (Hz) that is neither 0 nor within [MIN, MAX]_TF_RATE."""
    if max_rate != 0.0 and not MIN_TF_RATE <= max_rate <= MAX_TF_RATE:
        raise InvalidFieldError('tf.max_rate', max_rate, f'must be 0 (every message) or within '
                                f'[{MIN_TF_RATE:g}, {MAX_TF_RATE:g}] Hz')


def per_joint(values, n):
    """Return ``values`` (1 for every joint, or 1 per joint) as n values."""
    return list(values) * n if len(values) == 1 else list(values)


def effort_thresholds(settings, n):
    """
    Refuse effort thresholds (and noises) not 1 or ``n`` values, or an ERROR below its WARN.

    With a rest phase (``effort.rest_speed`` > 0), a joint watched in motion is watched at
    rest too: its rest threshold must be finite where its motion one is. The sensors' noises
    are known for every joint or none, both or neither.
    """
    phases = (('effort.warn', 'effort.error'), ('effort.rest_warn', 'effort.rest_error'))
    noises = ('effort.velocity_noise', 'effort.effort_noise')
    for name in sum(phases, noises):
        if len(settings[name]) not in (1, n):
            raise InvalidFieldError(name, len(settings[name]), f'must hold 1 value (every '
                                    f'joint) or {n} (one per joint)')
    for pair in phases:
        warn, error = (per_joint(settings[name], n) for name in pair)
        for j, (low, high) in enumerate(zip(warn, error)):
            if high < low:
                raise InvalidFieldError(pair[1], high, f'for joint {j + 1} must not be below '
                                        f'its {pair[0]} {low!r}: ERROR must not come before '
                                        'WARN')
    known = [any(map(math.isfinite, settings[name])) for name in noises]
    for name, given in zip(noises, known):
        if given and not all(map(math.isfinite, settings[name])):
            raise InvalidFieldError(name, settings[name], 'must be known for every joint, or '
                                    'for none (.inf)')
    if known[0] != known[1]:
        missing, given = (noises[1], noises[0]) if known[0] else noises
        raise InvalidFieldError(missing, settings[missing], f'is needed with {given}: the tool '
                                "wrench's deviation takes both")
    if not settings['effort.rest_speed'] > 0.0:
        return
    for moving, resting in zip(*phases):
        for j, (motion, rest) in enumerate(zip(per_joint(settings[moving], n),
                                               per_joint(settings[resting], n))):
            if math.isfinite(motion) and not math.isfinite(rest):
                raise InvalidFieldError(resting, rest, f'for joint {j + 1}: a joint watched in '
                                        f'motion ({moving} {motion!r}) is watched at rest too '
                                        '(effort.rest_speed > 0): give its threshold at rest')


def named(settings, prefix):
    """Return the settings under ``prefix`` by their last part, in name order."""
    return {name[len(prefix):]: value for name, value in sorted(settings.items())
            if name.startswith(prefix)}


def tool_spheres(values):
    """Return the tool spheres' ``[x, y, z, radius]`` rows (m) of ``safety.tool_spheres``."""
    values = [] if list(values) == [math.inf] else list(values)  # [.inf]: none
    if len(values) % 4:
        raise InvalidFieldError('safety.tool_spheres', values, 'must be x, y, z, radius per '
                                'sphere (m, tool frame): a multiple of 4 values')
    rows = [values[k:k + 4] for k in range(0, len(values), 4)]
    if not all(math.isfinite(value) for value in values) or any(row[3] < 0.0 for row in rows):
        raise InvalidFieldError('safety.tool_spheres', values, 'must be finite, each radius '
                                '>= 0')
    return rows


def decelerations(chain):
    """Return each joint's deceleration limit (its acceleration limit where none is given)."""
    limits = []
    for name, link in zip(chain.joint_names, chain.links):
        limit = link.deceleration_limit if link.deceleration_limit is not None and math.isfinite(
            link.deceleration_limit) else link.acceleration_limit
        if limit is None or not math.isfinite(limit):
            raise InvalidFieldError(f'{name}.deceleration_limit', limit, 'is needed for the '
                                    'stopping time and distance (or acceleration_limit): a '
                                    'stop brakes each joint at most at it')
        limits.append(limit)
    return limits


def ignored(settings):
    """Return the entries of ``safety.self_collision.ignore`` (``['']``: none)."""
    return [entry for entry in settings['safety.self_collision.ignore'] if entry]


def self_collision(chain, settings):
    """Refuse an ignore entry that is not two links, an error distance above the warning's."""
    ignored_pairs((chain.base_frame,) + tuple(chain.link_frames), ignored(settings),
                  'safety.self_collision.ignore')
    warn, error = (settings[f'safety.self_collision.{name}_distance']
                   for name in ('warn', 'error'))
    if error > warn:
        raise InvalidFieldError('safety.self_collision.error_distance', error,
                                f'must not be above safety.self_collision.warn_distance {warn!r}'
                                ': ERROR must not come before WARN')


def setting_warnings(settings):
    """
    Return a sentence for each setting that is given but has no effect, as the settings stand.

    Self-collision thresholds other than their defaults while ``safety.self_collision.enabled``
    is false: the thresholds judge nothing.
    """
    defaults = {spec.name: spec.default for spec in NODE}
    notes = []
    if not settings.get('safety.self_collision.enabled', True):
        changed = [name for name in ('safety.self_collision.warn_distance',
                                     'safety.self_collision.error_distance')
                   if name in settings and settings[name] != defaults[name]]
        if changed:
            notes.append(f'{" and ".join(changed)} set, but safety.self_collision.enabled is '
                         'false: no self-collision is judged (set it true)')
    return notes


def stopping_on(settings):
    """Tell whether the stop is watched (its time or its distance has a finite limit)."""
    return any(math.isfinite(settings[f'safety.stopping_{name}_limit'])
               for name in ('time', 'distance'))


def safety(chain, settings):
    """Refuse safety settings the model cannot judge: a frame, a plane, a region, a limit."""
    for frame in named(settings, FRAME_SPEEDS):
        check_frame(chain, frame, FRAME_SPEEDS + frame)
    planes = named(settings, PLANES)
    for name, value in planes.items():
        if len(value) != 4:
            raise InvalidFieldError(PLANES + name, value, 'must be [nx, ny, nz, offset]: the '
                                    'normal of the side allowed and the offset along it, m')
        check_plane(name, value[:3], value[3], 'safety.planes')
    frames = [frame for frame in settings['safety.plane_frames'] if frame]  # ['']: none
    if planes:
        for frame in frames:
            check_frame(chain, frame, 'safety.plane_frames')
    spheres = tool_spheres(settings['safety.tool_spheres'])
    if planes and not frames and not spheres:
        raise InvalidFieldError('safety.plane_frames', settings['safety.plane_frames'],
                                f'must name a frame (or safety.tool_spheres a sphere) to judge '
                                f'against safety.planes.{next(iter(planes))}: no point is '
                                'judged against a plane otherwise')
    if math.isfinite(settings['safety.tool_direction.limit']):
        check_plane('tool_direction', settings['safety.tool_direction.axis'], 0.0, 'safety')
    region = settings['safety.contact.body_region']
    if region:
        contact.check_body_region(region)
    if stopping_on(settings):
        decelerations(chain)
    self_collision(chain, settings)
    if not sum(link.m for link in chain.dynamic_constants.rne_links) > 0.0:
        for name, value in (('momentum_limit', settings['safety.momentum_limit']),
                            ('kinetic_energy_limit', settings['safety.kinetic_energy_limit']),
                            ('contact.body_region', region or None)):
            if value is not None and value != math.inf:
                raise InvalidFieldError(f'safety.{name}', value, "needs the links' masses: "
                                        "every link's m is 0")
