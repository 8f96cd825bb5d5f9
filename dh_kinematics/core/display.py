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

"""Human-readable summaries of links and chains (lengths in m, angles in rad)."""

import math

from dh_kinematics.core.rotations import is_identity, matrix_to_rpy


def format_number(value, digits=6):
    """
    Format a number with ``digits`` significant digits (6, as the toolbox prints them).

    ``digits=None`` gives the shortest text that reads back as the same double.
    """
    return repr(float(value)) if digits is None else f'{value:.{digits}g}'


def format_angle(value, degrees=False):
    """Format an angle given in rad: as rad, or in degrees with a ``°``."""
    return f'{math.degrees(value):.6g}°' if degrees else format_number(value)


def joint_unit(prismatic, degrees=False):
    """
    Return (scale, unit) of a joint value as shown: m for a prismatic joint; deg or rad.

    The one rule for every printed or displayed joint value: the value in SI units times
    ``scale`` is in ``unit``.
    """
    if prismatic:
        return 1.0, 'm'
    return (180.0 / math.pi, 'deg') if degrees else (1.0, 'rad')


def joint_expression(link, degrees=False):
    """Return how the joint value enters, e.g. ``'q'``, ``'-q'`` or ``'q + 0.1'``."""
    variable = '-q' if link.flip else 'q'
    if link.offset == 0.0:
        return variable
    sign = '-' if link.offset < 0 else '+'
    offset = format_angle(abs(link.offset), degrees and link.isrevolute())
    return f'{variable} {sign} {offset}'


def _theta_and_d(link, degrees=False):
    """Return the theta and d cells of a link: the joint expression in the one it replaces."""
    if link.isrevolute():
        return joint_expression(link, degrees), format_number(link.d)
    return format_angle(link.theta, degrees), joint_expression(link)


def link_summary(link):
    """One line: kind, name and the four DH parameters of a link."""
    kind = ('Revolute' if link.isrevolute() else 'Prismatic') + ('MDH' if link.mdh else 'DH')
    name = f' {link.name}' if link.name else ''
    theta, d = _theta_and_d(link)
    a, alpha = format_number(link.a), format_number(link.alpha)
    beta = f', β={format_number(link.beta)}' if link.beta else ''
    return f'{kind}{name}: θ={theta}, d={d}, a={a}, ⍺={alpha}{beta}'


def link_dynamics(link, digits=2):
    """
    Multi-line dynamic summary in the toolbox's layout.

    ``digits`` significant digits per number: 2 (``%8.2g``) is the toolbox's; more to
    proof-read a datasheet; None for every digit (the shortest text of each double).
    """
    r, inertia, (tc_pos, tc_neg) = link.r, link.I, link.Tc

    width = 24 if digits is None else digits + 6

    def cell(value):
        return format_number(value, digits).rjust(width)

    def row(values):
        return ' '.join(cell(v) for v in values)

    qlim = ('none'.rjust(width) if link.qlim is None
            else f'{cell(link.qlim[0])} to {cell(link.qlim[1])}')
    return (f'm     =  {cell(link.m)} \n'
            f'r     =  {row(r)} \n'
            f'        | {row(inertia[0])} | \n'
            f'I     = | {row(inertia[1])} | \n'
            f'        | {row(inertia[2])} | \n'
            f'Jm    =  {cell(link.Jm)} \n'
            f'B     =  {cell(link.B)} \n'
            f'Tc    =  {cell(tc_pos)}(+) {cell(tc_neg)}(-) \n'
            f'G     =  {cell(link.G)} \n'
            f'qlim  =  {qlim}')


def transform_line(label, T, degrees=False, digits=6):
    """Return ``label: xyz=[...] m, rpy=[...] rad`` (or deg) for a transform."""
    return f'{label}: {pose_text(T, degrees, digits)}'


def pose_text(T, degrees=False, digits=6):
    """Return ``xyz=[...] m, rpy=[...] rad`` (or deg) for a transform."""
    xyz = ', '.join(format_number(v, digits) for v in T[:3, 3])
    rpy = ', '.join(format_number(math.degrees(v) if degrees else v, digits)
                    for v in matrix_to_rpy(T[:3, :3]))
    return f'xyz=[{xyz}] m, rpy=[{rpy}] {"deg" if degrees else "rad"}'


def chain_table(chain, degrees=False):
    """Return a DH table of the chain, one row per joint, like the toolbox's (angles in rad)."""
    kinds = ''.join(link.RP for link in chain.links)
    convention = 'modified' if chain.mdh else 'standard'
    title = f'Chain {chain.name!r}: ' if chain.name else 'Chain: '
    joints = f'{chain.n} joint' + ('s' if chain.n != 1 else '')
    unit = 'deg' if degrees else 'rad'
    lines = [f'{title}{joints} ({kinds}), {convention} DH (lengths m, angles {unit})']
    hayati = any(link.beta for link in chain.links)  # a β column only where there is one
    header = ('joint', 'θ', 'd', 'a', '⍺') + (('β',) if hayati else ()) + ('q⁻', 'q⁺')
    rows = []
    for name, link in zip(chain.joint_names, chain.links):
        theta, d = _theta_and_d(link, degrees)
        limit = degrees and link.isrevolute()
        lower, upper = ('-', '-') if link.qlim is None else (
            format_angle(value, limit) for value in link.qlim)
        beta = (format_angle(link.beta, degrees),) if hayati else ()
        rows.append((name, theta, d, format_number(link.a), format_angle(link.alpha, degrees))
                    + beta + (lower, upper))
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]

    def fmt(cells):
        return '| ' + ' | '.join(c.rjust(w) for c, w in zip(cells, widths)) + ' |'

    rule = '+' + '+'.join('-' * (w + 2) for w in widths) + '+'
    lines += [rule, fmt(header), rule] + [fmt(r) for r in rows] + [rule]
    if not is_identity(chain.base):
        lines.append(transform_line('base', chain.base, degrees))
    if not is_identity(chain.tool):
        lines.append(transform_line('tool', chain.tool, degrees))
    payload = chain.payload
    if payload.mass or payload.inertia.any():
        com = ', '.join(format_number(v) for v in payload.com)
        lines.append(f'payload: {format_number(payload.mass)} kg at [{com}] m in the tool frame')
    return '\n'.join(lines)
