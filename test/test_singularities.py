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
The singularity monitor at the singular poses the textbooks name, with the node's defaults.

Each pose comes from a textbook condition on the arm's own table, not from the measure under
test: the wrist (axes 4 and 6 in line, q5 = 0), the elbow (the wrist centre in line with
joints 2 and 3: the Puma's ``a3 sin q3 + d4 cos q3 = 0``, the UR's ``sin q3 = 0``, an IRB's
from its URDF's link lengths), the shoulder (the wrist centre in the plane of axes 1 and 2:
the Puma's ``a2 c2 + a3 c23 - d4 s23 = 0`` (Craig), the UR's ``a2 c2 + a3 c23 + d5 s234 = 0``,
the Stanford arm's ``q2 = 0``, an IRB's wrist centre on axis 1), the Stanford arm's boom at
0 (the wrist centre on axis 2), the Panda upright (joints 1, 3 and 5 in line: Corke's Panda
article), a planar 3R arm, a SCARA and a 5-joint arm's planar shoulder-elbow pair stretched
(``a2 a3 sin q3 = 0``, Spong). pinocchio, from the URDF (the vendor's own for the IRB),
confirms each pose loses rank. There the monitor is at ERROR and names the kind where the
geometry tells it; on a path into the pose it passes WARN first; and over 2,000 random
configurations within the limits of each shipped arm at most 5 % reach WARN (the rates are in
doc/diagnostics.md).
"""

import math
import re

from dh_kinematics import Chain, Link
from dh_kinematics.core import configurations
from dh_kinematics.core.kinematics import manipulability
from dh_kinematics.core.urdf_import import from_urdf
from dh_kinematics.node_logic.monitors.arm import ArmLimits
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, WARN
from dh_kinematics.parameters.specs import NODE
from helpers import CHAINS, needs_pin, needs_vendor, PACKAGE, pin_jacobian, vendor_arm
import numpy as np
import pytest

SHIPPED = dict(CHAINS[:5])
DEFAULTS = dict({spec.name: spec.default for spec in NODE}, **{'singularity.enabled': True})


def _puma_poses():
    puma = SHIPPED['puma560']
    a2, a3, d4 = puma.links[1].a, puma.links[2].a, puma.links[3].d
    elbow = -math.atan2(d4, a3)  # a3 sin q3 + d4 cos q3 = 0, stretched
    q3 = -0.4
    c3, s3 = math.cos(q3), math.sin(q3)
    shoulder = math.atan2(a2 + a3 * c3 - d4 * s3, a3 * s3 + d4 * c3)  # a2c2 + a3c23 - d4s23 = 0
    return [('puma560', 'wrist', [0.3, 0.5, -0.4, 0.2, 0.0, 0.1], 4, 'rad'),
            ('puma560', 'elbow', [0.3, 0.5, elbow, 0.2, 0.6, 0.1], 2, 'rad'),
            ('puma560', 'shoulder', [0.3, shoulder, q3, 0.2, 0.6, 0.1], 1, 'rad')]


def _ur5_poses():
    ur5 = SHIPPED['ur5']
    a2, a3, d5 = ur5.links[1].a, ur5.links[2].a, ur5.links[4].d
    q2, q3 = -math.pi / 2, 0.2
    s234 = -(a2 * math.cos(q2) + a3 * math.cos(q2 + q3)) / d5  # a2c2 + a3c23 + d5s234 = 0
    q4 = math.asin(s234) - q2 - q3
    return [('ur5', 'wrist', [0.3, -1.0, 1.2, -0.8, 0.0, 0.4], 4, 'rad'),
            ('ur5', 'elbow', [0.3, -1.0, 0.0, -0.8, 0.9, 0.4], 2, 'rad'),
            ('ur5', 'shoulder', [0.3, q2, q3, q4, 0.9, 0.4], 1, 'rad')]


def _stanford_poses():
    return [('stanford', 'wrist', [0.3, 0.5, 0.6, 0.2, 0.0, 0.1], 4, 'rad'),
            # The boom at 0 puts the wrist centre on axis 2, which meets axis 1 (d2 runs along
            # axis 2 itself): so it is in the plane of axes 1 and 2 too, a shoulder singularity
            # as well, and both are named, whichever measure rounds smaller.
            ('stanford', 'elbow, shoulder', [0.3, 0.5, 0.0, 0.2, 0.6, 0.1], 2, 'm'),
            ('stanford', 'shoulder', [0.3, 0.0, 0.6, 0.2, 0.6, 0.1], 1, 'rad')]


PLANAR = Chain([Link(a=0.5, name='shoulder'), Link(a=0.4, name='elbow'),
                Link(a=0.1, name='wrist')], name='planar3')
SCARA = Chain([Link(a=0.4, d=0.3, name='j1'), Link(a=0.3, alpha=math.pi, name='j2'),
               Link(joint='prismatic', name='j3', qlim=(-0.2, 0.2)), Link(name='j4')],
              name='scara')
FIVE = Chain([Link(d=0.3, alpha=math.pi / 2, name='base'), Link(a=0.4, name='shoulder'),
              Link(a=0.35, name='elbow'), Link(alpha=math.pi / 2, name='pitch'),
              Link(d=0.1, name='roll')], name='arm5')  # axes 2, 3 and 4 parallel
OTHERS = {'planar3': PLANAR, 'scara': SCARA, 'arm5': FIVE}
POSES = (_puma_poses() + _ur5_poses() + _stanford_poses() + [
    ('panda', None, [0.0] * 7, 3, 'rad'),  # upright: joints 1, 3 and 5 in line
    ('planar3', 'elbow', [0.3, 0.0, 0.4], 1, 'rad'),
    ('scara', 'elbow', [0.3, 0.0, 0.1, 0.4], 1, 'rad'),
    ('arm5', 'elbow', [0.3, 0.5, 0.0, 0.7, 0.6], 2, 'rad')])


def _chain(name):
    return SHIPPED.get(name) or OTHERS[name]


def _monitor(chain):
    limits = ArmLimits()
    limits.configure(chain, DEFAULTS)
    return limits


def _status(limits, q):
    limits.update(np.asarray(q, dtype=float))
    status, = limits.statuses()
    return status


def _assert_singular_by_pinocchio(urdf_text, joint_names, q, frame, rank):
    s = np.linalg.svd(pin_jacobian(urdf_text, joint_names, q, frame), compute_uv=False)
    assert s[rank - 1] < 1e-9 * s[0], s


@needs_pin
@pytest.mark.parametrize('name, kind, q, joint, unit', POSES,
                         ids=[f'{p[0]}-{(p[1] or "rank").replace(", ", "+")}' for p in POSES])
def test_each_textbook_singularity_is_an_error_named_by_its_kind(name, kind, q, joint, unit):
    chain = _chain(name)
    rank = manipulability.generic_ranks(chain)[2]
    _assert_singular_by_pinocchio(chain.to_urdf(), chain.joint_names, q, chain.tool_frame, rank)
    status = _status(_monitor(chain), q)
    assert status.level == ERROR, status.message
    if kind is None:
        assert status.message.startswith('near a singularity: condition number ')
    else:
        kinds = kind.split(', ')
        sentences = status.message.split('; ')
        assert [sentence.split(' singularity: ')[0] for sentence in sentences] == kinds
        assert dict(status.values)['kind'] == kind
        if kinds[0] != 'shoulder':
            assert status.message.startswith(
                f'{kinds[0]} singularity: {chain.joint_names[joint]} at {q[joint]:.4g} {unit}')


@pytest.mark.parametrize('name, kind, q, joint, unit', POSES,
                         ids=[f'{p[0]}-{(p[1] or "rank").replace(", ", "+")}' for p in POSES])
def test_on_a_path_into_a_singularity_warn_comes_before_error(name, kind, q, joint, unit):
    chain = _chain(name)
    limits = _monitor(chain)
    moved = 0.3 if unit == 'rad' else 0.1
    levels = []
    for t in np.linspace(0.0, 1.0, 401):
        path = np.array(q, dtype=float)
        path[joint] += (1.0 - t) * moved
        levels.append(_status(limits, path).level)
    assert levels[0] == OK and levels[-1] == ERROR
    first_warn, first_error = levels.index(WARN), levels.index(ERROR)
    assert first_warn < first_error
    assert levels == sorted(levels)  # never back on the way in


@needs_pin
@needs_vendor
def test_an_irb_from_its_vendors_urdf_names_its_wrist_elbow_and_shoulder():
    text, entry = vendor_arm('abb_irb2400.urdf')
    chain = from_urdf(text, entry['base'], entry['tip']).chain
    # From the URDF's joint origins: joint 3 is 0.705 m above joint 2 and the wrist centre
    # (joint 5) 0.755 m ahead of joint 3 and 0.135 m above it; joint 2 is 0.1 m off axis 1.
    elbow = math.atan2(-0.755, 0.135)  # the forearm in line with the upper arm

    def off_axis_1(q2, q3=0.5):  # the wrist centre's distance from axis 1, m
        return (0.1 + 0.705 * math.sin(q2) + 0.755 * math.cos(q2 + q3)
                + 0.135 * math.sin(q2 + q3))
    low, high = -1.2, -1.0
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if off_axis_1(middle) < 0 else (low, middle)
    limits = _monitor(chain)
    for kind, q in (('wrist', [0.3, 0.2, 0.4, 0.5, 0.0, 0.1]),
                    ('elbow', [0.3, 0.2, elbow, 0.5, 0.6, 0.1]),
                    ('shoulder', [0.3, low, 0.5, 0.5, 0.6, 0.1])):
        _assert_singular_by_pinocchio(text, chain.joint_names, q, entry['tip'], 6)
        status = _status(limits, q)
        assert status.level == ERROR and status.message.startswith(f'{kind} singularity: ')


def test_the_scaled_measure_does_not_change_with_the_unit_of_length():
    puma = SHIPPED['puma560']
    params = puma.to_params()
    for joint in puma.joint_names:  # the same arm in millimetres
        params[joint]['a'] *= 1000.0
        params[joint]['d'] *= 1000.0
    millimetres = Chain.from_params(params)
    q = puma.random_q(20, np.random.default_rng(2))
    metres = manipulability.Conditioning(puma)
    scaled = manipulability.Conditioning(millimetres)
    assert scaled.length == pytest.approx(1000.0 * metres.length, rel=1e-12)
    for row in q:
        ours = metres.measures(puma.jacob0(row))
        theirs = scaled.measures(millimetres.jacob0(row))
        assert theirs[7] == pytest.approx(ours[7], rel=1e-9)
        assert theirs[5] != pytest.approx(ours[5], rel=1e-3)  # the unscaled whole's does


def test_the_characteristic_length_is_the_rms_distance_of_the_tool_from_the_axes():
    puma = SHIPPED['puma560']
    q = configurations.spread(puma, manipulability.SAMPLES)
    distances = []
    for row in q:
        T = puma.fkine_all(row)
        tool = puma.fkine(row)[:3, 3]
        for frame in T[:-1]:  # joint j turns about frame j-1's z axis
            lever = tool - frame[:3, 3]
            distances.append(np.linalg.norm(lever - (lever @ frame[:3, 2]) * frame[:3, 2]))
    assert manipulability.characteristic_length(puma) == pytest.approx(
        np.sqrt(np.mean(np.square(distances))), rel=1e-12)


def _documented_rates():
    """Return {arm: percent at WARN or worse} from doc/diagnostics.md's table."""
    text = (PACKAGE / 'doc' / 'diagnostics.md').read_text(encoding='utf-8')
    return {arm: float(rate) for arm, rate in re.findall(
        r'^\| `(\w+)` \| [\d.]+ \| ([\d.]+) % \|', text, re.MULTILINE)}


FALSE_ALARM_SAMPLES = 2000


@pytest.mark.parametrize('name', sorted(SHIPPED))
def test_random_poses_within_the_limits_rarely_warn_and_the_docs_say_how_rarely(name):
    chain = SHIPPED[name]
    conditioning = manipulability.Conditioning(chain)
    q = chain.random_q(FALSE_ALARM_SAMPLES, np.random.default_rng(0))
    condition = np.array([conditioning.measures(J)[7] for J in chain.jacob0(q)])
    rate = 100.0 * float(np.mean(condition > DEFAULTS['singularity.warn']))
    assert rate <= 5.0
    assert _documented_rates()[name] == pytest.approx(rate, abs=0.05)
