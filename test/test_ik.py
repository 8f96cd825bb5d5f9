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
Inverse kinematics: the closed forms against the toolbox, the search on every arm, failures.

Targets are forward kinematics of seeded random configurations within the limits. A solution
counts when its tool pose is within 1e-9 m and 1e-9 rad of the target (our forward
kinematics, checked against the toolbox elsewhere, and pinocchio on the URDF here) and it is
within the limits.
"""

import json
import math

from dh_kinematics import Chain, InvalidFieldError, Link
from dh_kinematics.core.ik import turns
from dh_kinematics.core.ik.ikine import pose_errors
from dh_kinematics.core.rotations import matrix_to_rpy
from helpers import (
    _rotation, CHAINS, closed_form_arm, DATA, for_each_arm, needs_pin, PACKAGE, pin,
    pin_configuration, pin_jacobian, run_cli)
import numpy as np
import pytest

EXACT = 1e-9
SHIPPED = {name: Chain.from_yaml(PACKAGE / 'config' / f'{name}.yaml')
           for name in ('puma560', 'puma560_mdh', 'stanford', 'ur5', 'panda')}


def _unlimited(chain):
    return Chain([link.replace(qlim=None) for link in chain.links], chain.base, chain.tool)


def _wrap(angles):
    return (np.asarray(angles) + math.pi) % (2.0 * math.pi) - math.pi


def _within_some_turn(chain, q):
    """Tell whether whole turns of the revolute joints bring ``q`` within the limits."""
    for value, link in zip(q, chain.links):
        turns = (-2, -1, 0, 1, 2) if link.isrevolute() else (0,)
        if link.qlim is not None and not any(
                link.qlim[0] <= value + k * 2.0 * math.pi <= link.qlim[1] for k in turns):
            return False
    return True


def _pose_arguments(chain, q):
    """Return ``--xyz X Y Z --rpy R P Y`` of the tool at ``q``, to the last bit."""
    T = chain.fkine(q)
    return (['--xyz'] + [f'{v:.17g}' for v in T[:3, 3]]
            + ['--rpy'] + [f'{v:.17g}' for v in matrix_to_rpy(T[:3, :3])])


def _assert_reaches(chain, T, solutions, mask=None):
    assert len(solutions)
    for q in solutions:
        position, angle = pose_errors(T, chain.fkine(q), mask)
        assert position <= EXACT and angle <= EXACT
        assert not chain.islimit(q).any()


CLOSED_FORM_ARMS = [(f'{kind}-{convention}-{k}', kind, closed_form_arm(
    np.random.default_rng(100 * k + len(kind)), kind, convention))
    for kind in ('wrist', 'parallel') for convention in ('standard', 'modified') for k in range(6)]

ARMS_BY_NAME = dict(CHAINS, **SHIPPED, **{name: chain for name, _, chain in CLOSED_FORM_ARMS})


def test_the_pumas_solutions_are_the_toolboxs_ikine_a():
    reference = json.loads((DATA / 'puma560_ikine_a.json').read_text())
    puma = SHIPPED['puma560']
    free = _unlimited(puma)
    for target in reference['targets']:
        T = np.array(target['T'])
        np.testing.assert_allclose(puma.fkine(target['q']), T, atol=1e-12)
        theirs = np.array(list(target['solutions'].values()))
        ours = free.ikine(T)
        assert ours.method == 'analytic' and ours.note == 'closed form (spherical wrist)'
        # The toolbox gives each of its 8 configurations, ours each distinct solution.
        distinct = {tuple(np.round(_wrap(s), 8)) for s in theirs}
        assert len(ours.solutions) == len(distinct)
        for solution in theirs:
            assert np.abs(_wrap(ours.solutions - solution)).max(axis=1).min() < 1e-9
        # With the limits: those of the toolbox's that some whole turn brings within them.
        within = puma.ikine(T)
        expected = [s for s in theirs if _within_some_turn(puma, s)]
        assert len(within.solutions) == len({tuple(np.round(_wrap(s), 8)) for s in expected})
        _assert_reaches(puma, T, within.solutions)


@pytest.mark.parametrize('name, kind, chain', CLOSED_FORM_ARMS,
                         ids=[name for name, _, _ in CLOSED_FORM_ARMS])
def test_a_closed_form_gives_every_solution(name, kind, chain):
    form = {'wrist': 'spherical wrist', 'parallel': 'three parallel axes'}[kind]
    rng = np.random.default_rng(len(name))
    for q in chain.random_q(4, rng):
        T = chain.fkine(q)
        result = chain.ikine(T, q0=q)
        assert result.method == 'analytic' and result.note == f'closed form ({form})'
        assert result.success and len(result.solutions) <= 8
        _assert_reaches(chain, T, result.solutions)
        np.testing.assert_allclose(result.q, q, atol=1e-9)  # the nearest is the one we made
    # A search from 60 starts finds none that the closed form missed (whole turns aside).
    search = chain.ikine(T, method='numerical', all_solutions=True, restarts=60)
    for solution in search.solutions:
        difference = np.where([link.isrevolute() for link in chain.links],
                              _wrap(result.solutions - solution), result.solutions - solution)
        assert np.abs(difference).max(axis=1).min() < 1e-6


@pytest.mark.parametrize('name', sorted(SHIPPED))
def test_the_shipped_arms_use_a_closed_form_where_they_have_one(name):
    chain = SHIPPED[name]
    forms = {'puma560': 'spherical wrist', 'puma560_mdh': 'spherical wrist',
             'stanford': 'spherical wrist', 'ur5': 'three parallel axes'}
    for q in chain.random_q(10, np.random.default_rng(3)):
        T = chain.fkine(q)
        result = chain.ikine(T)
        assert result.success
        _assert_reaches(chain, T, result.solutions)
        if name in forms:
            assert result.note == f'closed form ({forms[name]})'
        else:
            assert result.method == 'numerical' and result.note == (
                'numerical; no closed form (7 joints; the closed forms are for 6)')


@for_each_arm(CHAINS)
def test_the_search_reaches_targets_on_every_arm(name, chain):
    for q in chain.random_q(2, np.random.default_rng(11)):
        T = chain.fkine(q)
        result = chain.ikine(T, method='numerical')
        assert result.success and result.method == 'numerical'
        assert result.position_error <= EXACT and result.orientation_error <= EXACT
        _assert_reaches(chain, T, result.solutions)


@needs_pin
@pytest.mark.parametrize('name', ['puma560', 'stanford', 'ur5', 'panda', 'wrist-modified-1',
                                  'parallel-modified-2', 'random3', 'hayati5'])
def test_solutions_reach_the_target_in_pinocchio(name):
    chain = ARMS_BY_NAME[name]
    model = pin.buildModelFromXML(chain.to_urdf())
    data = model.createData()
    tool = model.getFrameId(chain.tool_frame)
    for q in chain.random_q(3, np.random.default_rng(5)):
        T = chain.fkine(q)
        for solution in chain.ikine(T, all_solutions=True, restarts=10).solutions:
            pin.framesForwardKinematics(model, data, pin_configuration(
                pin, model, chain.joint_names, solution))
            position, angle = pose_errors(T, data.oMf[tool].homogeneous)
            assert position <= EXACT and angle <= EXACT


def test_targets_beyond_the_reach_fail_with_the_closest_pose():
    bounded = [(name, chain) for name, chain in CHAINS[5:30] if all(
        link.qlim is not None for link in chain.links if link.isprismatic())]
    for name, chain in list(SHIPPED.items()) + bounded:
        # Farther from the base than every link, stroke and the tool laid end to end.
        reach = np.linalg.norm(chain.tool[:3, 3]) + sum(
            abs(link.a) + (np.abs(link.qlim).max() + abs(link.offset) if link.isprismatic()
                           else abs(link.d)) for link in chain.links)
        T = chain.fkine(np.clip(np.zeros(chain.n), *chain.qlim.T))
        T[:3, 3] = chain.base[:3, 3] + reach + 1.0
        result = chain.ikine(T, restarts=5)
        assert not result.success and len(result.solutions) == 0, name
        assert result.position_error > 1.0
        assert not chain.islimit(result.q).any()
        assert result.note.endswith('q is the closest pose the search reached')
        position, angle = pose_errors(T, chain.fkine(result.q))
        assert (position, angle) == pytest.approx(
            (result.position_error, result.orientation_error), abs=1e-12)


@pytest.mark.parametrize('name', ['puma560', 'wrist-standard-2', 'wrist-modified-4',
                                  'parallel-standard-3', 'parallel-modified-5'])
def test_targets_reachable_only_outside_the_limits_fail(name):
    chain = ARMS_BY_NAME[name]
    free = _unlimited(chain)
    rng = np.random.default_rng(8)
    lower = np.where(np.isfinite(chain.qlim[:, 0]), chain.qlim[:, 0], -math.pi)
    upper = np.where(np.isfinite(chain.qlim[:, 1]), chain.qlim[:, 1], math.pi)
    targets = []
    for q in rng.uniform(lower - 1.5, upper + 1.5, (200, chain.n)):
        T = chain.fkine(q)
        every = free.ikine(T)
        # Every solution (the closed form gives them all) is outside the limits.
        if every.success and not any(_within_some_turn(chain, s) for s in every.solutions):
            targets.append(T)
        if len(targets) == 3:
            break
    assert len(targets) == 3
    for T in targets:
        for method in ('auto', 'numerical'):
            result = chain.ikine(T, method=method, restarts=30)
            assert not result.success and len(result.solutions) == 0, method
            assert not chain.islimit(result.q).any()
        assert 'none within the joint limits' in chain.ikine(T, restarts=0).note


def test_a_mask_solves_an_arm_of_fewer_joints():
    planar = Chain([Link(a=0.4, qlim=(-2.0, 2.0)), Link(a=0.3, qlim=(-2.5, 2.5)),
                    Link(d=0.1, a=0.2, alpha=math.pi / 2)])
    rng = np.random.default_rng(4)
    for q in planar.random_q(5, rng):
        T = planar.fkine(q)
        T[:3, :3] = _rotation(rng)  # any orientation: only the position is asked for
        result = planar.ikine(T, mask=[1, 1, 1, 0, 0, 0])
        assert result.success and result.method == 'numerical'
        assert result.orientation_error == 0.0
        np.testing.assert_allclose(planar.fkine(result.q)[:3, 3], T[:3, 3], atol=EXACT)
    wrist5 = Chain(SHIPPED['puma560'].links[:5])
    for q in wrist5.random_q(5, rng):
        T = wrist5.fkine(q)
        result = wrist5.ikine(T, mask=[1, 1, 1, 1, 1, 0])
        assert result.success
        _assert_reaches(wrist5, T, result.solutions, mask=[1, 1, 1, 1, 1, 0])


def test_q_is_the_solution_nearest_q0_at_its_nearest_whole_turn():
    puma = _unlimited(SHIPPED['puma560'])
    T = puma.fkine([0.3, 0.5, -0.4, 0.6, 0.7, -0.2])
    every = puma.ikine(T).solutions
    assert len(every) == 8
    for solution in every:
        assert np.allclose(puma.ikine(T, q0=solution + 0.01).q, solution, atol=1e-12)
    ur5 = SHIPPED['ur5']  # limits of two turns: each solution comes at the turn nearest q0
    T = ur5.fkine([0.3, -1.0, 1.2, -0.4, 1.1, 0.5])
    nearest = ur5.ikine(T, q0=[0.3, -1.0, 1.2, -0.4, 1.1, 0.5 - 2.0 * math.pi]).q
    np.testing.assert_allclose(nearest, [0.3, -1.0, 1.2, -0.4, 1.1, 0.5 - 2.0 * math.pi],
                               atol=1e-9)


def test_a_batch_is_solved_in_one_call_as_each_alone():
    chain = SHIPPED['panda']
    Q = chain.random_q(4, np.random.default_rng(6))
    targets = chain.fkine(Q)
    batch = chain.ikine(targets, q0=Q + 0.05)
    assert len(batch) == 4
    for result, T, q in zip(batch, targets, Q):
        alone = chain.ikine(T, q0=q + 0.05)
        np.testing.assert_array_equal(result.q, alone.q)
        assert result.success and result.iterations == alone.iterations
    assert [r.success for r in SHIPPED['ur5'].ikine(SHIPPED['ur5'].fkine(Q[:, :6]))] == [
        True] * 4


@pytest.mark.parametrize('name', ['panda', 'ur5', 'puma560'])
def test_the_batched_search_answers_as_the_search_for_one_target(name):
    # One policy: from the same starts (q0 far from the answer, then the seeded draws), the
    # batch's answer for each target is the one-target search's, only its arithmetic differs.
    chain = SHIPPED[name]
    rng = np.random.default_rng(59)
    targets, starts = chain.fkine(chain.random_q(64, rng)), chain.random_q(64, rng)
    batch = chain.ikine(targets, q0=starts, method='numerical')
    for result, T, q0 in zip(batch, targets, starts):
        alone = chain.ikine(T, q0=q0, method='numerical')
        assert result.success and alone.success
        np.testing.assert_allclose(result.q, alone.q, atol=1e-6)


def test_the_search_collects_distinct_solutions_when_asked():
    chain = SHIPPED['panda']
    T = chain.fkine(chain.random_q(1, np.random.default_rng(9))[0])
    first = chain.ikine(T)
    every = chain.ikine(T, all_solutions=True, restarts=20)
    assert len(first.solutions) == 1 and len(every.solutions) > 1
    _assert_reaches(chain, T, every.solutions)
    gaps = [np.abs(a - b).max() for i, a in enumerate(every.solutions)
            for b in every.solutions[i + 1:]]
    assert min(gaps) > 1e-6


@pytest.mark.parametrize('arguments, field', [
    ({'T': np.eye(3)}, 'T'),
    ({'T': np.zeros((0, 4, 4))}, 'T'),
    ({'T': np.diag([1.0, 1.0, -1.0, 1.0])}, 'T'),
    ({'T': [np.eye(4), np.diag([2.0, 1.0, 1.0, 1.0])]}, 'T[1]'),
    ({'q0': [0.0, 0.0]}, 'q0'),
    ({'q0': np.zeros((3, 6))}, 'q0'),
    ({'mask': [1, 1, 1, -1, 0, 0]}, 'mask'),
    ({'mask': [0, 0, 0, 0, 0, 0]}, 'mask'),
    ({'mask': [1, 1, 1]}, 'mask'),
    ({'method': 'closed'}, 'method'),
    ({'tol': 0.0}, 'tol'),
    ({'restarts': -1}, 'restarts'),
    ({'max_iterations': 0}, 'max_iterations'),
])
def test_bad_input_is_refused_naming_the_field(arguments, field):
    chain = SHIPPED['ur5']
    arguments = {'T': chain.fkine(np.zeros(6)), **arguments}
    with pytest.raises(InvalidFieldError) as error:
        chain.ikine(**arguments)
    assert str(error.value).startswith(f'{field}:')


def test_the_analytic_method_is_refused_where_no_closed_form_applies():
    with pytest.raises(InvalidFieldError, match='method: .*no closed form applies: 7 joints; '
                       'the closed forms are for 6'):
        SHIPPED['panda'].ikine(np.eye(4), method='analytic')
    with pytest.raises(InvalidFieldError, match='the mask drops a pose component'):
        SHIPPED['puma560'].ikine(np.eye(4), method='analytic', mask=[1, 1, 1, 0, 0, 0])


def test_the_command_prints_the_solutions_and_the_limits_they_come_near():
    model, ur5 = str(PACKAGE / 'config' / 'ur5.yaml'), SHIPPED['ur5']
    q = [0.3, -1.0, 1.2, -0.4, 1.1, 0.5]
    text = run_cli('ik', model, *_pose_arguments(ur5, q), '--all')[0]
    assert 'ur5: closed form (three parallel axes)' in text
    rows = [line.split() for line in text.splitlines()[4:]]
    assert len(rows) == len(ur5.ikine(ur5.fkine(q)).solutions) > 1
    assert f'{len(rows)} solutions within the limits' in text
    for row in rows:
        assert float(row[7]) <= EXACT and float(row[8]) <= EXACT
    one = run_cli('ik', model, *_pose_arguments(ur5, q), '--q0', *map(str, q))[0]
    assert '(--all prints them); nearest the start:' in one
    assert [float(v) for v in one.splitlines()[-1].split()[1:7]] == pytest.approx(q, abs=1e-5)
    q[5] = 6.2  # 0.0832 rad from the upper limit, 2 pi
    near = run_cli('ik', model, *_pose_arguments(ur5, q), '--q0', *map(str, q))[0]
    assert near.splitlines()[-1].endswith('wrist_3_joint 0.0832 rad from upper')


@needs_pin
def test_a_redundant_arm_reaches_a_pose_along_a_continuum_and_the_command_says_so():
    # Issue 57: ik --all on the Panda printed "80 solutions": samples of its self-motion.
    panda = SHIPPED['panda']
    q = [0.1, -0.5, 0.2, -2.0, 0.1, 1.5, 0.7]
    text = run_cli('ik', PACKAGE / 'config' / 'panda.yaml', *_pose_arguments(panda, q),
                   '--all')[0]
    assert ('a continuum of solutions within the limits (1 degree of self-motion: 7 joints '
            'for 6 pose components); ') in text
    rows = [[float(v) for v in line.split()[1:10]] for line in text.splitlines()[4:]]
    assert len(rows) > 1
    urdf = panda.to_urdf()
    for row in rows:  # each reaches the pose where pinocchio's Jacobian leaves a joint free
        assert row[7] <= EXACT and row[8] <= EXACT
        s = np.linalg.svd(pin_jacobian(urdf, panda.joint_names, row[:7], panda.tool_frame),
                          compute_uv=False)
        assert len(s) == 7 - 1 and s[-1] > 1e-3 * s[0]  # rank 6 of 7 columns: a null space
    ur5 = run_cli('ik', PACKAGE / 'config' / 'ur5.yaml', '--xyz', '0.4', '0.1', '0.3')[0]
    assert 'continuum' not in ur5 and 'solutions within the limits' in ur5


def test_the_command_exits_1_without_a_solution_and_refuses_bad_input():
    model = str(PACKAGE / 'config' / 'puma560.yaml')
    failed, error = run_cli('ik', model, '--xyz', '5', '0', '0', code=1)
    assert error == 'dh_kinematics ik: no solution within the limits\n'
    assert 'closed form (spherical wrist): the pose is out of reach' in failed
    assert 'closest pose reached: ' in failed and len(failed.splitlines()) == 5
    refused = run_cli('ik', str(PACKAGE / 'config' / 'panda.yaml'), '--xyz', '0.4', '0', '0.4',
                      '--method', 'analytic', code=1)[1]
    assert refused.startswith('dh_kinematics ik: error: method:')
    assert 'expected, got 2' in run_cli('ik', model, '--xyz', '0.4', '0', '0.4', '--q0', '1',
                                        '2', code=1)[1]


@pytest.mark.parametrize('far', [1e5, 3e5, 9e5, 1e9, 1e15])
@pytest.mark.parametrize('method', ['analytic', 'numerical'])
def test_a_far_start_on_joints_without_limits_never_claims_a_miss_as_success(far, method):
    # Issue 41 (6): the turn toward q0 came after the tolerance check: success with errors of
    # 5e-8 m (q0 1e9) up to 5e-2 m (1e15). Beyond 1e6 rad q0 is refused.
    puma = SHIPPED['puma560']
    chain = Chain([link.replace(qlim=None) for link in puma.links], base=puma.base,
                  tool=puma.tool)
    rng = np.random.default_rng(41)
    for _ in range(5):
        q = rng.uniform(-math.pi, math.pi, 6)
        target = chain.fkine(q)
        if far > 1e6:
            with pytest.raises(InvalidFieldError, match=r'q0: must be within \+-1e\+06'):
                chain.ikine(target, q0=q + far, method=method)
            continue
        result = chain.ikine(target, q0=q + far, method=method)
        if result.success:
            position, angle = pose_errors(target, chain.fkine(result.q))
            assert position <= EXACT and angle <= EXACT, (position, angle, result.q)
            assert result.position_error <= EXACT and result.orientation_error <= EXACT


@pytest.mark.parametrize('name, max_iterations', [
    ('panda', 100), ('ur5', 100), ('panda', 12), ('puma560', 12)])
def test_a_large_batch_is_searched_at_once_and_every_solution_holds(name, max_iterations):
    # From 64 targets the search advances them together (vectorised), each target's starts
    # side by side once few are left; each answer is exact, within the limits, at its turn
    # nearest q0, and the one alone gives: the first of the same starts that converges (the
    # same to rounding, which may once in a few hundred targets lead to another solution).
    # 12 iterations per start: most targets need several starts.
    chain = SHIPPED[name]
    Q = chain.random_q(70, np.random.default_rng(8))
    targets = chain.fkine(Q)
    q0 = chain.random_q(1, np.random.default_rng(9))[0]
    batch = chain.ikine(targets, q0=q0, method='numerical', max_iterations=max_iterations)
    assert len(batch) == 70
    alone = [chain.ikine(T, q0=q0, method='numerical', max_iterations=max_iterations)
             for T in targets]
    assert [result.success for result in batch] == [result.success for result in alone]
    same = [np.abs(result.q - one.q).max() <= 1e-6 for result, one in zip(batch, alone)]
    assert sum(same) >= 69, np.nonzero(~np.array(same))
    for result, T in zip(batch, targets):
        assert result.method == 'numerical' and result.note == 'numerical'
        if result.success:
            _assert_reaches(chain, T, result.solutions)
            np.testing.assert_array_equal(result.q, result.solutions[0])
            for j, link in enumerate(chain.links):  # no other turn within the limits nearer q0
                for turn in (-2 * np.pi, 2 * np.pi):
                    other = result.q[j] + turn
                    assert (abs(other - q0[j]) >= abs(result.q[j] - q0[j]) - 1e-9
                            or not link.qlim[0] <= other <= link.qlim[1])
    assert sum(result.success for result in batch) >= 68


def test_the_whole_turn_rule_is_one_rule_for_floats_and_arrays():
    # Each answer's revolute joints come at the whole turn nearest q0 within the limits; the
    # closed forms (compiled, floats or arrays) and the search apply the same function.
    rng = np.random.default_rng(43)
    m = 2000
    value, start = rng.uniform(-30.0, 30.0, m), rng.uniform(-30.0, 30.0, m)
    lower = rng.uniform(-8.0, 2.0, m)
    upper = lower + rng.uniform(0.0, 9.0, m)
    value[:20], lower[20:40], upper[40:60] = np.nan, -np.inf, np.inf
    value[60:80] = upper[60:80] + 1e-13  # within the slack: clipped to the limit
    arrays = turns.turned_array(value, start, lower, upper)
    floats = [turns.turned(*args) for args in zip(*(a.tolist() for a in (
        value, start, lower, upper)))]
    np.testing.assert_array_equal(arrays, floats)
    found = ~np.isnan(arrays)
    assert not found[:20].any() and found[60:80].all()
    assert ((arrays[found] >= lower[found]) & (arrays[found] <= upper[found])).all()
    k = np.round((arrays[found] - value[found]) / turns.TURN)
    assert np.abs(arrays[found] - value[found] - k * turns.TURN).max() < 1e-9
    for shift in (-turns.TURN, turns.TURN):  # no other turn within the limits is nearer q0
        other = arrays + shift
        inside = (other >= lower) & (other <= upper)
        inside_start = (start >= lower) & (start <= upper)
        assert (np.abs(other - start) >= np.abs(arrays - start) - 1e-9)[
            found & inside & inside_start].all()
    missing = ~found[20:]  # no turn reaches inside: the limits are narrower than a turn
    assert (upper[20:][missing] - lower[20:][missing] < turns.TURN).all()


@pytest.mark.parametrize('start', [1e6, -1e6, 1e5, 12345.6])
def test_a_solution_far_out_is_as_good_as_it_says(start):
    # Issue 58 (9): from q0 = 1e6 the Puma without limits reported success and 3e-16 rad, but
    # the joint values given (near 1e6, where floats are 1.2e-10 apart) missed by 3.4e-10 rad.
    from helpers import plain_arm, plain_tool_poses
    chain = _unlimited(SHIPPED['puma560'])
    rng = np.random.default_rng(5809)
    targets = chain.fkine(chain.random_q(4, rng))
    q0 = np.full(chain.n, start)
    results = [chain.ikine(T, q0=q0) for T in targets] + chain.ikine(targets, q0=q0)
    for T, result in zip(np.concatenate([targets, targets]), results):
        assert result.success
        reached = plain_tool_poses(plain_arm(chain), result.q)[0]  # an independent model
        position = np.linalg.norm(reached[:3, 3] - T[:3, 3])
        angle = 2.0 * np.arcsin(np.linalg.norm(reached[:3, :3] - T[:3, :3]) / (2 * math.sqrt(2)))
        assert position <= 1e-10 and angle <= 1e-10, (position, angle)
        assert abs(result.position_error - position) < 1e-11
        assert abs(result.orientation_error - angle) < 1e-11
