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
``dh_kinematics plot``: a 3-D picture of the arm at a configuration (ROS-free; matplotlib).

Like the toolbox's ``robot.plot(q)``: the links as a polyline through the frame origins, each
frame drawn as x (red), y (green) and z (blue) axes, and each joint labelled. With ``limits``,
each revolute joint's range is drawn as an arc about its axis, and each prismatic one's as a
segment along it.
"""

import io
import math

from dh_kinematics.cli import arguments, models
import numpy as np

MATPLOTLIB_MISSING = ('{} needs matplotlib, which is not installed: pip install matplotlib '
                      '(or apt install python3-matplotlib)')


def pyplot(needed_by='plot'):
    """Return matplotlib's pyplot, drawing to files; a ValueError names ``needed_by``."""
    try:
        import matplotlib
    except ImportError:
        raise ValueError(MATPLOTLIB_MISSING.format(needed_by)) from None
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return plt


def _axes_frames(chain, T):
    """World poses of each joint's axis frame: where its z is the joint axis."""
    if chain.mdh:
        return T[1:]
    return T[:-1]


def plot(chain, q, path, size=(800, 600), limits=False, title=None):
    """
    Render ``chain`` at ``q`` (rad or m) to a PNG of ``size`` pixels (width, height).

    Raises ValueError when matplotlib is missing or the file cannot be written.
    """
    plt = pyplot()
    T = chain.fkine_all(q)
    tool = chain.fkine(q)
    origins = np.vstack([T[:, :3, 3], tool[None, :3, 3]])
    reach = max(float(np.ptp(origins, axis=0).max()), 0.2)
    scale = 0.12 * reach
    dpi = 100
    figure = plt.figure(figsize=(size[0] / dpi, size[1] / dpi), dpi=dpi)
    axes = figure.add_subplot(projection='3d')
    axes.plot(*origins.T, color='0.35', linewidth=4, solid_capstyle='round')
    for pose in list(T) + [tool]:
        for k, color in enumerate(('tab:red', 'tab:green', 'tab:blue')):
            end = pose[:3, 3] + scale * pose[:3, k]
            axes.plot(*np.stack([pose[:3, 3], end]).T, color=color, linewidth=1.5)
    for j, (name, pose) in enumerate(zip(chain.joint_names, _axes_frames(chain, T))):
        axes.scatter(*pose[:3, 3], color='black', s=18)
        axes.text(*(pose[:3, 3] + 0.3 * scale * pose[:3, 0]), name, fontsize=8)
        if limits and chain.links[j].qlim is not None:
            _draw_limits(axes, chain.links[j], q[j], pose, scale, turned=chain.mdh)
    axes.text(*tool[:3, 3], chain.tool_frame, fontsize=8, color='tab:purple')
    centre = (origins.max(axis=0) + origins.min(axis=0)) / 2.0
    half = 0.6 * reach
    axes.set_xlim(centre[0] - half, centre[0] + half)
    axes.set_ylim(centre[1] - half, centre[1] + half)
    axes.set_zlim(centre[2] - half, centre[2] + half)
    axes.set_box_aspect((1, 1, 1))
    axes.set_xlabel('x (m)')
    axes.set_ylabel('y (m)')
    axes.set_zlabel('z (m)')
    axes.set_title(title or chain.name or 'arm')
    save_png(plt, figure, path, dpi, 'picture')


def save_png(plt, figure, path, dpi, what, close=True):
    """Write ``figure`` as a PNG to ``path``, whole or not at all, and close it (``close``)."""
    from dh_kinematics.cli.models import write

    picture = io.BytesIO()
    try:
        figure.savefig(picture, dpi=dpi, format='png')
    except BaseException:
        plt.close(figure)
        raise
    if close:
        plt.close(figure)
    write(path, picture.getvalue(), what)


def _draw_limits(axes, link, q, pose, scale, turned):
    """
    Draw a joint's range about its axis: an arc (revolute) or a segment (prismatic).

    ``pose`` is the frame whose z is the joint axis: the link's own frame in modified DH
    (``turned``: it already includes the joint's rotation), the parent's in standard DH.
    """
    lower, upper = link.qlim
    sign = -1.0 if link.flip else 1.0
    if link.isrevolute():
        lower, upper = max(lower, q - math.pi), min(upper, q + math.pi)  # at most one turn
        values = np.linspace(lower, upper, 48)
        angles = sign * (values - q) if turned else sign * values + link.offset
        points = [pose[:3, 3] + 0.8 * scale * (math.cos(a) * pose[:3, 0]
                                               + math.sin(a) * pose[:3, 1])
                  for a in angles]
        axes.plot(*np.array(points).T, color='tab:orange', linewidth=2)
    else:
        along = [sign * (value - q) if turned else sign * value + link.offset
                 for value in (lower, upper)]
        ends = [pose[:3, 3] + distance * pose[:3, 2] for distance in along]
        axes.plot(*np.array(ends).T, color='tab:orange', linewidth=2)


def add_parser(commands):
    """Add the ``plot`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('plot', help='a 3-D picture of the arm (PNG; matplotlib)')
    command.add_argument('file', help=arguments.MODEL_FILE)
    arguments.configuration_arguments(command)
    command.add_argument('-o', '--output', required=True, help='the PNG to write')
    command.add_argument('--limits', action='store_true', help="draw each joint's range")
    command.add_argument('--size', type=arguments.size, default=(800, 600),
                         help='WIDTHxHEIGHT pixels')
    return command


def run(args, out):
    """Draw the arm at a configuration into a PNG."""
    chain, _, given = models.load(args.file)
    q = models.configuration(chain, given, args.q, args.q_name, args.deg)
    plot(chain, q, args.output, args.size, args.limits)
    out.write(f'wrote {args.output} ({args.size[0]}x{args.size[1]})\n')
    return 0
