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

"""Capsule distances and closest points against coal's (hpp-fcl), pair by pair and batched."""

from dh_kinematics.core import configurations
from dh_kinematics.core.safety.capsules import closest_points
from helpers import (
    capsules_closing, CHAINS, coal_capsule, coal_distance, for_each_arm, needs, needs_pin, pin,
    pin_configuration)
import numpy as np
import pytest

needs_coal = needs('coal', 'pip install coal')


def _pairs(rng, count, spread):
    """
    Return ``count`` random pairs of capsules: (4, 3) ends and (2,) radii each.

    Every fifth pair has parallel segments, every seventh a first segment that is a point,
    every eleventh a second that is one.
    """
    pairs = []
    for k in range(count):
        ends, radii = rng.uniform(-spread, spread, (4, 3)), rng.uniform(0.01, 0.3, 2)
        if k % 5 == 0:
            ends[3] = ends[2] + (ends[1] - ends[0]) * rng.uniform(-2.0, 2.0)
        if k % 7 == 0:
            ends[1] = ends[0]
        if k % 11 == 0:
            ends[3] = ends[2]
        pairs.append((ends, radii))
    return pairs


@needs_coal
@pytest.mark.parametrize('spread', [1.0, 0.3])  # mostly apart; mostly overlapping
def test_each_distance_and_closest_points_are_coals(spread):
    import coal
    rng = np.random.default_rng(63)
    overlapping = 0
    for ends, radii in _pairs(rng, 600, spread):
        shape_a, placement_a = coal_capsule(ends[0], ends[1], radii[0])
        shape_b, placement_b = coal_capsule(ends[2], ends[3], radii[1])
        result = coal.DistanceResult()
        theirs = coal.distance(shape_a, placement_a, shape_b, placement_b,
                               coal.DistanceRequest(), result)
        ours = closest_points(ends[0], ends[1], radii[0], ends[2], ends[3], radii[1])
        assert float(ours.distance) == pytest.approx(theirs, abs=1e-9), (ends, radii)
        if theirs > 1e-6:  # apart: the closest points are one pair (but along parallels)
            gap = np.linalg.norm(ours.point_b - ours.point_a)
            assert gap == pytest.approx(theirs, abs=1e-9)
            if np.linalg.norm(np.cross(ends[1] - ends[0], ends[3] - ends[2])) > 1e-3:
                np.testing.assert_allclose(ours.point_a, result.getNearestPoint1(), atol=1e-9)
                np.testing.assert_allclose(ours.point_b, result.getNearestPoint2(), atol=1e-9)
        else:
            overlapping += 1
    assert overlapping > (300 if spread < 1.0 else 10)


def test_a_batch_is_its_pairs_one_by_one():
    rng = np.random.default_rng(64)
    pairs = _pairs(rng, 200, 1.0)
    ends = np.array([ends for ends, _ in pairs])
    radii = np.array([radii for _, radii in pairs])
    batch = closest_points(ends[:, 0], ends[:, 1], radii[:, 0], ends[:, 2], ends[:, 3],
                           radii[:, 1])
    for k, (ends_k, radii_k) in enumerate(pairs):
        one = closest_points(ends_k[0], ends_k[1], radii_k[0], ends_k[2], ends_k[3], radii_k[1])
        for batched, single in zip(batch, one):
            np.testing.assert_array_equal(batched[k], single)


def test_parallel_segments_meet_in_the_middle_of_their_overlap():
    # Two rods side by side, 1 m apart, overlapping from x = 0.5 to 1: the points move
    # smoothly with the rods, not to an end.
    found = closest_points([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.1, [0.5, 1.0, 0.0],
                           [2.0, 1.0, 0.0], 0.1)
    assert float(found.distance) == pytest.approx(0.8, abs=1e-15)
    np.testing.assert_allclose(found.point_a, [0.75, 0.1, 0.0], atol=1e-15)
    np.testing.assert_allclose(found.point_b, [0.75, 0.9, 0.0], atol=1e-15)


def _their_capsules(pin, chain, q, spheres=None):
    """
    Return pinocchio's placement of each collision cylinder of ``chain``'s URDF at ``q``.

    Each as a capsule: its ends and radius in the world (the URDF's cylinder, read by
    pinocchio's own loader; coal's cylinder is its half length either side of its origin).
    Each sphere's centre and radius go into the list ``spheres`` where given.
    """
    urdf = chain.to_urdf()
    model = pin.buildModelFromXML(urdf)
    geometry = pin.buildGeomFromUrdfString(model, urdf, pin.GeometryType.COLLISION)
    data, geometry_data = model.createData(), geometry.createData()
    pin.updateGeometryPlacements(model, data, geometry, geometry_data,
                                 pin_configuration(pin, model, chain.joint_names, q))
    found = []
    for k, shape in enumerate(geometry.geometryObjects):
        M = geometry_data.oMg[k]
        if not hasattr(shape.geometry, 'halfLength'):  # a sphere
            if spheres is not None:
                spheres.append((M.translation.copy(), shape.geometry.radius))
            continue
        half = shape.geometry.halfLength
        found.append((M.act(np.array([0.0, 0.0, -half])), M.act(np.array([0.0, 0.0, half])),
                      shape.geometry.radius))
    return found


def with_capsules(chain, rng):
    """Return ``chain`` with 1 to 3 random capsules on about half its links (m)."""
    links = []
    for link in chain.links:
        if rng.random() < 0.5:
            count = int(rng.integers(1, 4))
            capsules = np.hstack([rng.uniform(-0.3, 0.3, (count, 6)),
                                  rng.uniform(0.01, 0.08, (count, 1))])
            link = link.replace(collision=capsules)
        links.append(link)
    return chain.replace(links=links)


def _coal_distances(theirs, match, pairs):
    """Return coal's distance of each pair of ours (``pairs``) on ``theirs`` (``match``)."""
    return np.array([coal_distance(theirs[match[a]], theirs[match[b]]) for a, b in pairs])


def _matched(theirs, ours, radii):
    """Return the index in ``theirs`` of each of ``ours``: the same ends and radius, 1e-12."""
    match = []
    for (start, end), radius in zip(ours, radii):
        gaps = [min(np.abs(start - a).max() + np.abs(end - b).max(),
                    np.abs(start - b).max() + np.abs(end - a).max()) + abs(radius - r)
                for a, b, r in theirs]
        match.append(int(np.argmin(gaps)))
        assert min(gaps) <= 1e-12, (start, end, radius)
    assert len(set(match)) == len(match)
    return match


@needs_coal
@needs_pin
@for_each_arm(CHAINS[:25] + [arm for arm in CHAINS if arm[0].startswith('hayati')][:5])
def test_the_arms_capsules_and_their_distances_are_pinocchios_and_coals(name, chain):
    from dh_kinematics.core.safety.link_capsules import LinkCapsules
    capsules = LinkCapsules(chain)
    rng = np.random.default_rng(63)
    for q in configurations.uniform(chain, 3, rng):
        theirs = _their_capsules(pin, chain, q)
        ours = capsules.placed(chain.fkine_all(q))
        assert len(theirs) == len(ours)
        # Each capsule is one of the URDF's cylinders, where pinocchio places it.
        match = _matched(theirs, ours, capsules.radii)
        # Each pair's distance is coal's on pinocchio's placements.
        np.testing.assert_allclose(capsules.closest(chain.fkine_all(q)).distance,
                                   _coal_distances(theirs, match, capsules.pairs), atol=1e-9,
                                   err_msg=name)
    links = capsules.links
    assert all(abs(links[a] - links[b]) >= 2 for a, b in capsules.pairs)
    assert len(capsules.pairs) == sum(1 for a in range(len(links)) for b in range(a + 1, len(
        links)) if abs(links[a] - links[b]) >= 2)


@needs_coal
@needs_pin
@for_each_arm(CHAINS[:25])
def test_the_closing_speed_is_the_rate_of_coals_distance(name, chain):
    from dh_kinematics.core.safety.link_capsules import LinkCapsules
    capsules = LinkCapsules(chain)
    rng = np.random.default_rng(630)
    q, qd = configurations.uniform(chain, 1, rng)[0], rng.uniform(-1.0, 1.0, chain.n)
    theirs = _their_capsules(pin, chain, q)
    ours = capsules.placed(chain.fkine_all(q))
    match = _matched(theirs, ours, capsules.radii)
    step = 1e-6  # s along q + t qd: the differences' error ~1e-10 m/s, far below 1e-6

    def their_distances(t):
        return _coal_distances(_their_capsules(pin, chain, q + t * qd), match, capsules.pairs)
    expected = -(their_distances(step) - their_distances(-step)) / (2 * step)
    closest, speed = capsules_closing(capsules, q, qd)
    np.testing.assert_allclose(speed, expected, atol=1e-6, err_msg=name)
    np.testing.assert_allclose(closest.distance, their_distances(0.0), atol=1e-9, err_msg=name)


@needs_coal
@needs_pin
@for_each_arm(CHAINS[:25])
def test_a_models_own_capsules_are_the_urdfs_cylinders_and_spheres(name, chain):
    # Random capsules on half the links: the URDF draws each as a cylinder between its ends
    # and a sphere on each end, where pinocchio places them; the distances are coal's.
    from dh_kinematics.core.safety.link_capsules import LinkCapsules
    rng = np.random.default_rng(6300)
    chain = with_capsules(chain, rng)
    capsules = LinkCapsules(chain)
    for q in configurations.uniform(chain, 2, rng):
        spheres = []
        theirs = _their_capsules(pin, chain, q, spheres)
        ours = capsules.placed(chain.fkine_all(q))
        assert len(theirs) == len(ours)
        match = _matched(theirs, ours, capsules.radii)
        given = [k for k in range(len(ours)) if chain.links[capsules.links[k] - 1].collision
                 is not None and capsules.links[k] > 0]
        for k in given:  # its two spheres, at its ends
            for end in ours[k]:
                assert min(np.abs(centre - end).max() + abs(radius - capsules.radii[k])
                           for centre, radius in spheres) <= 1e-12
        assert len(spheres) == 2 * len(given)
        np.testing.assert_allclose(capsules.closest(chain.fkine_all(q)).distance,
                                   _coal_distances(theirs, match, capsules.pairs), atol=1e-9,
                                   err_msg=name)


@for_each_arm(CHAINS[:25])
def test_capsules_stay_on_the_arm_in_the_other_convention(name, chain):
    from dh_kinematics.core.safety.link_capsules import LinkCapsules
    rng = np.random.default_rng(6301)
    chain = with_capsules(chain, rng)
    other = chain.to_modified() if not chain.mdh else chain.to_standard()
    q = configurations.uniform(chain, 3, rng)
    ours = [LinkCapsules(arm) for arm in (chain, other)]
    for a, b in zip(*(capsules.placed(arm.fkine_all(q))
                      for capsules, arm in zip(ours, (chain, other)))):
        given = [k for k, link in enumerate(ours[0].links)
                 if link > 0 and chain.links[link - 1].collision is not None]
        theirs = [k for k, link in enumerate(ours[1].links)
                  if link > 0 and other.links[link - 1].collision is not None]
        np.testing.assert_allclose(a[given], b[theirs], atol=1e-9, err_msg=name)
