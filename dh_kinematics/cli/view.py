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
``dh_kinematics view``: the arm in a web browser, moved by hand or following a running robot.

``view MODEL [FILES]`` serves a page (viser) with a slider per joint, the tool's pose, each
joint's limit level, the singularity measure and the tool's speed, an IK gizmo at the tool and
the named configurations (:mod:`viewer.teach`); ``--path LOG`` draws a joint log's tool path
(``path``'s trajectory) with a slider of its time (:mod:`viewer.path`). ``view --follow
[NAMESPACE]`` shows a running system instead: its ``robot_description``, ``joint_states`` and
``/diagnostics`` (:mod:`viewer.follow`, needs rclpy). The page is served on loopback unless
``--host`` says otherwise; the address is printed. Needs the ``view`` extra (viser and yourdfpy).
"""

import contextlib
import io
import sys

from dh_kinematics.cli import arguments
from dh_kinematics.parameters import files

VIEWER_MISSING = ('view needs viser and yourdfpy, which are not installed: pip install '
                  '"dh_kinematics[view]" (or pip install viser yourdfpy)')


def add_parser(commands):
    """Add the ``view`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('view', help='the arm in a web browser: sliders, limits, '
                                  'singularity, an IK target; or --follow a running robot')
    command.add_argument('files', nargs='*', metavar='FILE', help='the model file, and more '
                         'parameter files merged over it as the node merges them')
    command.add_argument('--follow', nargs='?', const='/', metavar='NAMESPACE',
                         help='follow a running system (ROS): the namespace of its '
                         "robot_description and joint_states; '/' by default")
    command.add_argument('--path', metavar='LOG', help="a joint log (path's trajectory, a "
                         "recording; CSV or a bag): the tool's path drawn, and a slider of its "
                         'time that poses the arm')
    command.add_argument('--node', default='dh_kinematics', help='with --follow: the node '
                         'whose /diagnostics colour the joints')
    command.add_argument('--host', type=arguments.host, default='127.0.0.1', help='the '
                         'address to serve on (127.0.0.1 by default: this machine only; '
                         '0.0.0.0 for every interface, with no authentication: a warning '
                         'says so)')
    command.add_argument('--port', type=arguments.port, default=8080, help='the port (8080 '
                         'by default; the next free one when taken)')
    command.add_argument('--deg', action='store_true', help='revolute joint values and '
                         'angles in degrees')
    return command


def viser_server(host, port_number):
    """Start a viser server; a ValueError says what to install where viser is missing."""
    try:
        import viser
        import yourdfpy  # noqa: F401 (the scene's: refused here, in one line)
    except ImportError:
        raise ValueError(VIEWER_MISSING) from None
    from dh_kinematics.viewer.origin import is_loopback, own_origin_only
    try:
        with contextlib.redirect_stdout(io.StringIO()), own_origin_only(is_loopback(host)):
            server = viser.ViserServer(host=host, port=port_number, verbose=False)
    except OSError as error:
        raise ValueError(f'--host {host} --port {port_number}: cannot serve there: '
                         f'{error.strerror or error}') from None
    # No share button: it would offer the arm through viser's public tunnel.
    server.gui.configure_theme(control_width='large', show_share_button=False)
    return server


def run(args, out):
    """Serve the page until Ctrl-C (or SIGTERM); print its address first."""
    if args.follow is not None and args.files:
        raise ValueError('--follow takes no model file: the arm comes from robot_description')
    if args.follow is not None and args.path:
        raise ValueError('--path takes a model file: not with --follow')
    if args.follow is None and not args.files:
        raise ValueError('give a model file, or --follow a running system')
    from dh_kinematics.viewer.signals import Signals
    with Signals() as signals:  # before anything is imported or built: no signal is lost
        if args.follow is None:
            given, checked = files.read(args.files)  # its errors before a port is taken
            chain, settings = checked.chain, checked.settings
            if args.path:
                from dh_kinematics.logs import for_model, read
                log = for_model(read(args.path)[0], chain)
        server = viser_server(args.host, args.port)
        try:
            if args.follow is None:
                from dh_kinematics.viewer.teach import serve
                page = serve(server, chain, given, settings, args.deg, out)
                if args.path:
                    from dh_kinematics.viewer.path import PathLayer
                    PathLayer(server, page, chain, log)
                if not signals.stop.is_set():  # else Ctrl-C came while it was built
                    _say_where(server, args.host, out)
                signals.run(None)
            else:
                from dh_kinematics.viewer.follow import follow
                follow(server, args.follow, args.node, args.deg,
                       lambda: _say_where(server, args.host, out), signals)
        finally:
            with contextlib.redirect_stdout(io.StringIO()):
                server.stop()
    return 0


def _say_where(server, host, out):
    from dh_kinematics.viewer.origin import is_loopback
    loopback = is_loopback(host)
    shown = 'localhost' if loopback else f'[{host}]' if ':' in host else host
    port = server.get_port()
    out.write(f'serving the arm at http://{shown}:{port}/ (bound to {host}; Ctrl-C stops)\n')
    if not loopback:
        sys.stderr.write(f'warning: the page has no authentication: anyone who reaches port '
                         f'{port} of {host} sees the arm and moves its sliders; serve on '
                         '127.0.0.1 and reach it through an SSH tunnel (ssh -L) where others '
                         'share the network\n')
    out.flush()


if __name__ == '__main__':  # pragma: no cover
    sys.exit('run it as: dh_kinematics view')
