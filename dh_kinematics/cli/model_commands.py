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

"""The commands that read a model file: check, show, fk and urdf (ROS-free)."""

import math

from dh_kinematics.core import bounds, display, params
from dh_kinematics.core import parameter_file
from dh_kinematics.node_logic import node_parameters as checks
from dh_kinematics.node_logic import startup
from dh_kinematics.node_logic.param_specs import NODE
import numpy as np

NODE_NAME = '/dh_kinematics'
NODE_EXECUTABLE = 'dh_kinematics_node'


def load(path):
    """
    Read and check a model file exactly as the node does; return (chain, warnings, values).

    The node's path: the file read as rcl reads it (one-line errors), the block that reaches
    ``/dh_kinematics``, then every parameter checked as a whole (:func:`checks.checked`).
    Raises ValueError with the node's message.
    """
    document = parameter_file.read(path)  # what startup.check_params_files does
    reached = parameter_file.node_keys(document, NODE_NAME)
    given = parameter_file.node_parameters(path, NODE_NAME, document) if reached else {}
    try:
        checked = checks.checked(given, NODE, NODE_NAME)
    except checks.NoModelError:
        argv = ['--ros-args', '--params-file', str(path)]
        raise ValueError(startup.no_model_message(NODE_NAME, argv, NODE_EXECUTABLE)) from None
    warnings = [f'unusual model value: {note}' for note in bounds.model_warnings(checked.chain)]
    return checked.chain, warnings, given


def check(args, out):
    """Validate a model file as the node will; print its warnings and a one-line summary."""
    chain, warnings, _ = load(args.file)
    for line in warnings:
        out.write(f'warning: {line}\n')
    kinds = ''.join(link.RP for link in chain.links)
    convention = 'modified' if chain.mdh else 'standard'
    out.write(f'{args.file}: OK: {chain.name or "arm"}, {chain.n} joints ({kinds}, {convention} '
              f'DH), frames {chain.world_frame} -> {chain.base_frame} .. {chain.tool_frame}\n')
    return 0


def show(args, out):
    """Print the DH table as the toolbox prints it; with --dyn, each link's dynamics."""
    chain = load(args.file)[0]
    out.write(display.chain_table(chain, args.deg) + '\n')
    if args.dyn:
        for name, link in zip(chain.joint_names, chain.links):
            out.write(f'\n{name}:\n{link.dyn()}\n')
    return 0


def configuration(chain, given, values, name, degrees):
    """Return the joint values from the command line (rad or m; deg for revolute with --deg)."""
    if name is not None:
        named = params.configurations(given, chain.n)
        if name not in named:
            raise ValueError(f'--q-name: no configuration {name!r} in the file (it has '
                             f'{", ".join(sorted(named)) or "none"}; add configurations.{name})')
        return named[name]
    if not values:
        return np.zeros(chain.n)
    if len(values) != chain.n:
        raise ValueError(f'Q: {chain.n} joint values expected, got {len(values)}')
    q = np.array([_number('Q', value) for value in values])
    if degrees:
        revolute = np.array([link.isrevolute() for link in chain.links])
        q = np.where(revolute, np.radians(q), q)
    return q


def _number(field, text):
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f'{field}: {text!r} is not a number') from None
    if not math.isfinite(value):
        raise ValueError(f'{field}: {text!r} is not finite')
    return value


def fk(args, out):
    """Print each frame's pose in the world (xyz, rpy), the tool last; --jacobian adds J."""
    chain, _, given = load(args.file)
    q = configuration(chain, given, args.q, args.q_name, args.deg)
    names = (chain.base_frame,) + chain.link_frames
    for name, T in zip(names, chain.fkine_all(q)):
        out.write(display.transform_line(name, T, args.deg) + '\n')
    out.write(display.transform_line(chain.tool_frame, chain.fkine(q), args.deg) + '\n')
    if args.jacobian:
        out.write('jacobian (world frame; rows vx vy vz m/s, wx wy wz rad/s per unit rate):\n')
        for row in chain.jacob0(q):
            out.write('  ' + ' '.join(f'{value:10.6g}' for value in row) + '\n')
    return 0


def urdf(args, out):
    """Write the model's URDF to -o, or print it."""
    chain = load(args.file)[0]
    text = chain.to_urdf(args.prefix)
    if args.output is None:
        out.write(text)
    else:
        write(args.output, text, 'URDF')
        out.write(f'wrote {args.output}\n')
    return 0


def write(path, text, what):
    """Write ``text`` to the file ``path``; a ValueError names it and why it cannot be."""
    try:
        with open(path, 'w', encoding='utf-8') as stream:
            stream.write(text)
    except OSError as error:
        raise ValueError(f'{path}: cannot write the {what}: {error.strerror}') from None
