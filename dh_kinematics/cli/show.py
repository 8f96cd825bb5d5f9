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
``dh_kinematics show``: the DH table as the toolbox prints it, and the dynamics.

With ``--symbolic`` (SymPy, the ``symbolic`` extra) it prints each link's transform and the
tool's pose, entry by entry, as formulas in the joint variables (:mod:`dh_kinematics.formulas`),
as text or LaTeX, with chosen parameters kept as symbols (``--keep a2,d4``) to show where each
length enters.
"""

from dh_kinematics.cli import arguments
from dh_kinematics.cli.models import load
from dh_kinematics.core import display

SYMPY_MISSING = ('show --symbolic needs SymPy, which is not installed: pip install sympy (or apt '
                 'install python3-sympy)')


def add_parser(commands):
    """Add the ``show`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('show', help='print the DH table as the toolbox does')
    command.add_argument('file', help=arguments.MODEL_FILE)
    command.add_argument('--deg', action='store_true', help='angles in degrees')
    command.add_argument('--dyn', action='store_true', help="each link's dynamics too")
    arguments.precision_argument(command, 6, 'the dynamics')
    command.add_argument('--symbolic', action='store_true', help="each link's transform and "
                         "the tool's pose as formulas (SymPy)")
    command.add_argument('--latex', action='store_true', help='with --symbolic: as LaTeX')
    command.add_argument('--joints', default='q', metavar='NAME', help='with --symbolic: the '
                         'joint variables are NAME1 .. NAMEn (q by default)')
    command.add_argument('--keep', default='', metavar='P,P', help='with --symbolic: '
                         'parameters kept as symbols, such as a2,d4 (a, alpha, d, theta, '
                         'offset, beta and the joint number)')
    return command


def run(args, out):
    """Print the DH table as the toolbox prints it; with --dyn, each link's dynamics."""
    chain = load(args.file)[0]
    if args.symbolic:
        return _formulas(chain, args, out)
    if args.latex or args.keep or args.joints != 'q':
        raise ValueError('--latex, --keep and --joints: only with --symbolic')
    out.write(display.chain_table(chain, args.deg) + '\n')
    if args.dyn:
        for name, link in zip(chain.joint_names, chain.links):
            out.write(f'\n{name}:\n{display.link_dynamics(link, args.precision)}\n')
    return 0


WIDTH = 99
"""Text formulas wrap at this many columns."""
ENTRIES = [[f'r{i}{j}' for j in (1, 2, 3)] + [f'p{axis}'] for i, axis in zip((1, 2, 3), 'xyz')]
"""The tool pose's entries as the textbooks name them: rotation r11 .. r33, position px .. pz."""


def _formulas(chain, args, out):
    """
    Print each link's A(q) as a matrix, then the tool's pose entry by entry, as it comes.

    A pose entry of a long arm runs to thousands of characters: one to a block, wrapped at
    :data:`WIDTH` columns (or one LaTeX equation a line), each written as soon as it is built.
    With ``--latex`` every line is LaTeX: the headings are comments (``%``).
    """
    try:
        from dh_kinematics.formulas.chain import SymbolicChain
        from dh_kinematics.formulas.export import text
    except ImportError:
        raise ValueError(SYMPY_MISSING) from None
    keep = [name.strip() for name in args.keep.split(',') if name.strip()]
    arm = SymbolicChain(chain, keep=keep, joints=args.joints)
    heading = '% ' if args.latex else ''
    convention = 'modified' if chain.mdh else 'standard'
    out.write(f'{heading}{chain.name or "arm"}: {chain.n} joints, {convention} DH, joint '
              f'variables {", ".join(map(str, arm.q))} (rad or m); lengths in m\n')
    frames = (chain.base_frame,) + chain.link_frames
    for j in range(chain.n):
        out.write(f'\n{heading}A{j + 1}: {frames[j]} -> {frames[j + 1]} '
                  f'({chain.joint_names[j]})\n')
        out.write((f'A_{{{j + 1}}} = ' if args.latex else '') + text(arm.A(j), args.latex)
                  + '\n')
    out.write(f'\n{heading}T: {chain.world_frame} -> {chain.tool_frame}, entry by entry '
              '(rotation r11 .. r33, position px .. pz, m)\n')
    out.flush()
    for i, j, entry in arm.fkine_entries():
        name = ENTRIES[i][j]
        if args.latex:
            out.write(f'{name[0]}_{{{name[1:]}}} = {text(entry, True)}\n')
        else:
            out.write(f'{name} =\n{text(entry, width=WIDTH)}\n')
        out.flush()
    return 0
