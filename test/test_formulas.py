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
The formulas (``dh_kinematics.formulas``, SymPy) against the numeric core and the toolbox.

Every symbolic result, evaluated at seeded random joint values (and rates), equals the core's to
1e-12 on the shipped arms and 20 random ones (standard and modified, prismatic joints,
offsets, flips, Hayati's beta, base, tool, payload). The Puma 560's forward kinematics equals
roboticstoolbox-python's symbolic model's term by term (skipped where the toolbox is missing).
"""

import io
import re
import sys

from dh_kinematics import Chain, Link
from helpers import CHAINS, needs, optional, PACKAGE, run_cli
import numpy as np
import pytest

sympy = optional('sympy')
pytestmark = needs('sympy', 'pip install sympy, or apt install python3-sympy')
ARMS = [(name, chain) for name, chain in CHAINS if not name.startswith(('random', 'hayati'))]
ARMS += [(name, chain) for name, chain in CHAINS if name.startswith(('random', 'hayati'))][:20]


def _symbolic(chain, **options):
    from dh_kinematics.formulas import SymbolicChain
    return SymbolicChain(chain, **options)


@pytest.mark.slow  # SymPy builds a seven-joint arm's dynamics in up to a minute
@pytest.mark.parametrize('name, chain', ARMS, ids=[name for name, _ in ARMS])
def test_every_formula_evaluates_to_the_cores_numbers(name, chain):
    from dh_kinematics.formulas import to_function
    arm = _symbolic(chain, simplify=False)
    rng = np.random.default_rng(4700)
    links = [to_function(arm.A(j), arm.q) for j in range(chain.n)]
    poses = to_function(arm.fkine_all(), arm.q)
    tool = to_function(arm.fkine(), arm.q)
    jacobian = to_function(arm.jacob0(), arm.q)
    gravity = to_function(arm.gravload(), arm.q)
    torques = to_function(arm.rne(), arm.q, arm.qd, arm.qdd)
    for q in chain.random_q(3, rng):
        qd, qdd = rng.uniform(-1.0, 1.0, (2, chain.n))
        np.testing.assert_allclose([link(q) for link in links], chain.link_transforms(q),
                                   rtol=0, atol=1e-12)
        np.testing.assert_allclose(poses(q), chain.fkine_all(q), rtol=0, atol=1e-12)
        np.testing.assert_allclose(tool(q), chain.fkine(q), rtol=0, atol=1e-12)
        np.testing.assert_allclose(jacobian(q), chain.jacob0(q), rtol=0, atol=1e-12)
        expected = chain.gravload(q)
        np.testing.assert_allclose(np.ravel(gravity(q)), expected, rtol=1e-12,
                                   atol=1e-12 * max(1.0, np.abs(expected).max()))
        expected = chain.rne(q, qd, qdd)
        np.testing.assert_allclose(np.ravel(torques(q, qd, qdd)), expected, rtol=1e-12,
                                   atol=1e-12 * max(1.0, np.abs(expected).max()))


def test_a_two_link_arm_reads_as_the_lecture_writes_it():
    from dh_kinematics import Chain, Link
    arm = _symbolic(Chain([Link(a=1.0, name='shoulder'), Link(a=0.5, name='elbow')]))
    q1, q2 = arm.q
    T, J = arm.fkine(), arm.jacob0()
    assert str(T[0, 3]) == 'cos(q1) + 0.5*cos(q1 + q2)'  # sums of angles, not products
    assert str(T[1, 3]) == 'sin(q1) + 0.5*sin(q1 + q2)'
    assert T[0, 0] == sympy.cos(q1 + q2) and T[2, 2] == 1
    assert [sympy.nsimplify(value) for value in J[:, 1]] == [
        -sympy.sin(q1 + q2) / 2, sympy.cos(q1 + q2) / 2, 0, 0, 0, 1]


@pytest.mark.slow  # SymPy: 10 s
def test_pi_over_2_stays_exact_and_no_rounding_shows():
    arm = _symbolic(dict(CHAINS)['puma560'])
    A1 = arm.A(0)
    assert A1[1, 1] == 0 and A1[2, 1] == 1  # cos(pi/2), sin(pi/2)
    assert all(abs(number) > 1e-3 for matrix in (A1, arm.fkine())
               for number in matrix.atoms(sympy.Float))
    assert sympy.sstr(A1[2, 3], full_prec=False) == '0.67183'  # as the datasheet wrote it


def test_kept_parameters_are_symbols_where_each_length_enters():
    chain = dict(CHAINS)['puma560']
    arm = _symbolic(chain, keep=('a2', 'd4'), simplify=False)
    a2, d4 = arm.parameters['a2'], arm.parameters['d4']
    T = arm.fkine()
    assert {a2, d4} <= T.free_symbols
    assert a2 in arm.A(1).free_symbols and a2 not in arm.A(0).free_symbols
    q = np.array([0.1, -0.4, 0.3, 0.2, -0.5, 0.6])
    values = dict(zip(arm.q, q), a2=chain.links[1].a, d4=chain.links[3].d)
    numeric = np.array(T.subs({sympy.Symbol(k, real=True) if isinstance(k, str) else k: v
                               for k, v in values.items()}).evalf(), dtype=float)
    np.testing.assert_allclose(numeric, chain.fkine(q), atol=1e-12)
    L = sympy.Symbol('L', positive=True)
    assert L in _symbolic(chain, values={'a3': L}).A(2).free_symbols
    with pytest.raises(ValueError, match="keep: 'b2' is not a parameter of a joint 1 to 6"):
        _symbolic(chain, keep=('b2',))
    with pytest.raises(ValueError, match="keep: 'a7' is not a parameter"):
        _symbolic(chain, keep=('a7',))


@pytest.mark.parametrize('joints, keep', [('a', 'a2'), ('d', 'd1'), ('m', 'm3'),
                                          ('alpha', 'alpha2'), ('theta', 'theta6')])
def test_a_joint_variable_and_a_kept_parameter_are_never_one_symbol(joints, keep):
    # Issue 58 (7): --joints a --keep a2 made both one symbol (a2*cos(a2)), exit 0.
    chain = dict(CHAINS)['puma560']
    with pytest.raises(ValueError, match=rf"joints: '{joints}' names a joint variable {keep}, "
                       rf"as keep names '{keep}'"):
        _symbolic(chain, keep=(keep,), joints=joints)
    _, err = run_cli('show', PACKAGE / 'config' / 'puma560.yaml', '--symbolic', '--joints',
                     joints, '--keep', keep, code=1)
    assert err.count('\n') == 1 and 'one symbol for both' in err
    assert {str(s) for s in _symbolic(chain, keep=('a2', 'r2', 'I2'), joints='r').q} == {
        f'r{j}' for j in range(1, 7)}  # r2's symbols are r2x, r2y, r2z: no clash


def test_show_writes_each_entry_of_the_pose_once_it_is_simplified(tmp_path, monkeypatch):
    # Issue 58 (9): a 7-joint arm with parallel axes was silent for over a minute after the
    # link matrices: the whole pose was simplified before its first entry was written.
    from dh_kinematics.cli.main import main
    chain = Chain([Link(a=0.3, qlim=(-3.0, 3.0), name=f'j{k}') for k in range(4)])
    path = tmp_path / 'planar.yaml'
    chain.to_yaml(path)
    calls, seen = [], {}
    trigsimp = sympy.trigsimp
    monkeypatch.setattr(sympy, 'trigsimp', lambda e, **kw: calls.append(1) or trigsimp(e, **kw))

    class Out(io.StringIO):

        def write(self, text):
            if text.startswith(('\nT: ', 'r11 =', 'pz =')):
                seen[text[:3]] = len(calls)
            return super().write(text)

    assert main(['show', str(path), '--symbolic'], out=Out()) == 0
    before = seen['\nT:']  # the link matrices'
    assert seen == {'\nT:': before, 'r11': before + 1, 'pz ': before + 12}


@needs('roboticstoolbox', 'pip install roboticstoolbox-python (make bench installs it)')
def test_the_puma_matches_roboticstoolbox_pythons_symbolic_model():
    import roboticstoolbox as rtb
    ours = _symbolic(dict(CHAINS)['puma560'])
    theirs = rtb.models.DH.Puma560(symbolic=True).fkine(ours.q).A
    T = ours.fkine()
    for i in range(3):
        for j in range(4):
            difference = sympy.expand(sympy.expand_trig(T[i, j] - theirs[i, j]))
            assert all(abs(float(c)) < 1e-12
                       for c in difference.as_coefficients_dict().values()), (i, j, difference)


@pytest.mark.slow  # SymPy: 23 s
def test_show_prints_the_formulas_as_text_or_latex():
    path = PACKAGE / 'config' / 'puma560.yaml'
    out, _ = run_cli('show', path, '--symbolic', '--keep', 'a2,d4', '--joints', 'theta')
    assert out.startswith('puma560: 6 joints, standard DH, joint variables theta1, theta2')
    assert 'A2: link1 -> link2 (joint2)' in out and 'a₂⋅cos(θ₂)' in out
    assert 'T: world -> tool0' in out
    out, _ = run_cli('show', path, '--symbolic', '--latex')
    assert '\\cos{\\left(q_{1} \\right)}' in out and '0.67183' in out
    # Issue 57: the headings were plain text among the LaTeX. Now a comment, or an equation.
    lines = [line for line in out.splitlines() if line]
    assert all(re.match(r'% |[A-Za-z]_\{\w+\} = \S', line) for line in lines), lines
    assert 'A_{6} = ' in out and 'r_{11} = ' in out and 'p_{z} = ' in out
    _, err = run_cli('show', path, '--latex', code=1)
    assert '--latex, --keep and --joints: only with --symbolic' in err
    _, err = run_cli('show', path, '--symbolic', '--keep', 'z9', code=1)
    assert "keep: 'z9' is not a parameter" in err


@pytest.mark.slow  # SymPy: 5 to 11 s each
@pytest.mark.parametrize('name', ['panda', 'puma560'])
def test_show_prints_the_tool_pose_entry_by_entry_in_lines_a_terminal_holds(name):
    # Issue 57: the Panda's tool pose was one line of 3,379 characters, after 50 s of silence.
    out, _ = run_cli('show', PACKAGE / 'config' / f'{name}.yaml', '--symbolic')
    assert max(len(line) for line in out.splitlines()) <= 99
    pose = out.split('(rotation r11 .. r33, position px .. pz, m)\n', 1)[1]
    entries = re.findall(r'^(\w+) =\n(.*?)(?=^\w+ =\n|\Z)', pose, re.M | re.S)
    assert [entry for entry, _ in entries] == [
        'r11', 'r12', 'r13', 'px', 'r21', 'r22', 'r23', 'py', 'r31', 'r32', 'r33', 'pz']
    chain = dict(CHAINS)[name]
    q = np.random.default_rng(57).uniform(-1.0, 1.0, chain.n)
    names = {f'q{j + 1}': value for j, value in enumerate(q)}
    values = [float(sympy.sympify(' '.join(formula.split())).subs(names))
              for _, formula in entries]  # the printed text, read back
    np.testing.assert_allclose(np.reshape(values, (3, 4)), chain.fkine(q)[:3], atol=1e-12)


@pytest.mark.slow  # SymPy: 42 s
def test_only_parallel_joint_axes_are_worth_simplifying():
    # A pose is linear in each joint's sine and cosine: trigsimp can only form angle sums,
    # which need two revolute joints turning about parallel axes. The Panda has none.
    for name, sums in (('panda', False), ('puma560', True), ('ur5', True), ('stanford', False)):
        arm = _symbolic(dict(CHAINS)[name])
        unsimplified = _symbolic(dict(CHAINS)[name], simplify=False)
        assert (arm.fkine() != unsimplified.fkine()) == sums, name
        assert any(isinstance(argument, sympy.Add) for function in arm.fkine().atoms(
            sympy.cos) for argument in function.args) == sums, name


def test_show_without_sympy_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, 'dh_kinematics.formulas.chain', None)
    _, err = run_cli('show', PACKAGE / 'config' / 'puma560.yaml', '--symbolic', code=1)
    assert 'show --symbolic needs SymPy, which is not installed: pip install sympy' in err


def test_kept_dynamic_parameters_enter_the_torques():
    from dh_kinematics.formulas import to_function
    chain = dict(CHAINS)['puma560']
    arm = _symbolic(chain, keep=('r2', 'I2', 'Jm2', 'G2', 'B2', 'm3'), simplify=False)
    tau = arm.rne()
    names = {str(symbol) for symbol in tau.free_symbols}
    assert {'r2x', 'I2xy', 'I2zz', 'Jm2', 'G2', 'B2', 'm3'} <= names
    numeric, link = chain.dynamic_constants.rne_links, chain.links[1]
    values = dict(zip(arm.parameters['r2'], numeric[1].r))
    values.update(zip(arm.parameters['I2'], np.ravel(numeric[1].inertia)))
    values.update({arm.parameters['Jm2']: link.Jm, arm.parameters['G2']: link.G,
                   arm.parameters['B2']: link.B, arm.parameters['m3']: numeric[2].m})
    kept = list(values)
    torques = to_function(tau, arm.q, arm.qd, arm.qdd, kept)
    rng = np.random.default_rng(4701)
    q, qd, qdd = chain.random_q(1, rng)[0], *rng.uniform(-1.0, 1.0, (2, chain.n))
    np.testing.assert_allclose(np.ravel(torques(q, qd, qdd, [values[k] for k in kept])),
                               chain.rne(q, qd, qdd), rtol=1e-12, atol=1e-12)
