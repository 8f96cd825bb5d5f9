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
``dh_kinematics monitor``: a live table of each joint's position, limit margin and level.

With the node's effort monitor on, a column shows what it judges of each joint: the momentum
observer's external torque (``external``), or the effort residual (``residual``: measured -
expected), N m or N.

For the operator without rqt: it reads the node's joint statuses from ``/diagnostics`` and the
positions from ``joint_states``, and redraws the table in place (or, when the output is not a
terminal, prints it anew). Each row's margin is computed from the position it shows; the level
and message come from the last status, whose age a column gives. The arm's summary heads the
table. The one command that needs ROS.
"""

import sys
import time

from dh_kinematics.cli import arguments
from dh_kinematics.cli.spinning import spin_until
from dh_kinematics.core.escaping import printable

LEVELS = ('OK', 'WARN', 'ERROR', 'STALE')
MAX_JOINTS = 256
"""The most joints shown: the first statuses' names; any other publisher's are ignored."""


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def margin(position, lower, upper):
    """Return the distance from ``position`` to the nearer limit (negative beyond it), or None."""
    if position is None or lower is None or upper is None:
        return None
    return min(position - lower, upper - position)


def table(joints, positions, now_s):
    """
    Return the table's text: a row per joint, each consistent in itself.

    Parameters
    ----------
    joints : dict
        Joint name -> its last status from /diagnostics: ``level``, ``message``, ``values``
        (key -> text) and ``received`` (when it arrived, s, the clock of ``now_s``).
    positions : dict
        Joint name -> its last position from joint_states, rad or m.
    now_s : float
        Now, s.

    Returns
    -------
    str
        The position and margin come from one source: the live position and the margin to
        the status's limits computed from it, or, before any joint_states, both from the
        status. The level and message are the status's, and ``age`` says how old it is.

    """
    keys = [key for key in ('external_torque', 'effort_residual')
            if any(key in status['values'] for status in joints.values())]
    efforts = bool(keys)
    rows = [('joint', 'position', 'lower', 'upper', 'margin') + (
        ('external' if keys[0] == 'external_torque' else 'residual',) if efforts else ()) + (
        'level', 'age', 'message')]
    for name, status in joints.items():
        values = status['values']
        position = positions.get(name)
        if position is None:
            shown, distance = values.get('position', '?'), values.get('distance_to_limit', '?')
        else:
            live = margin(position, _number(values.get('lower')), _number(values.get('upper')))
            shown, distance = f'{position:.6g}', '?' if live is None else f'{live:.6g}'
        rows.append((name, shown, values.get('lower', '?'), values.get('upper', '?'),
                     distance) + ((next((values[key] for key in keys if key in values), '-'),)
                                  if efforts else ()) + (
            LEVELS[min(status['level'], 3)], f'{max(now_s - status["received"], 0.0):.1f} s',
            status['message']))
    rows = [tuple(printable(cell) for cell in row) for row in rows]  # no control sequence runs
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return '\n'.join('  '.join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
                     for row in rows)


def add_parser(commands):
    """Add the ``monitor`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('monitor', help='live joint positions, margins and levels '
                                  'of a running node (ROS)')
    command.add_argument('--namespace', default='', help="the node's namespace")
    command.add_argument('--node', default='dh_kinematics', help="the node's name")
    command.add_argument('--period', type=arguments.period, default=0.5, help='refresh period, s')
    command.add_argument('--count', type=int, default=0, help='stop after this many '
                         'refreshes with data (0: until Ctrl-C)')
    return command


def run(args, out):
    """Show the live table until Ctrl-C, or for ``--count`` refreshes."""
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import JointState

    namespace = '/' + args.namespace.strip('/') if args.namespace.strip('/') else ''
    watched = f'{namespace}/{args.node}'
    joints, positions, shown, arm = {}, {}, [0], {}

    def on_diagnostics(message):
        for status in message.status:
            owner, _, task = status.name.partition(': ')
            if owner != watched:
                continue
            if task == 'arm':
                arm.update(level=status.level[0], message=status.message)
            elif task in joints or len(joints) < MAX_JOINTS:
                joints[task] = {'level': status.level[0], 'message': status.message,
                                'values': {kv.key: kv.value for kv in status.values},
                                'received': time.monotonic()}

    def on_joint_states(message):
        positions.update((name, position) for name, position in zip(
            message.name, message.position) if name in joints)

    def refresh():
        if not joints:
            text = f'waiting for /diagnostics from {watched} ...'
        else:
            summary = (f'arm: {LEVELS[min(arm["level"], 3)]}: {printable(arm["message"])}\n'
                       if arm else '')
            text = summary + table(joints, positions, time.monotonic())
            shown[0] += 1
        clear = '\x1b[H\x1b[J' if out.isatty() else ''
        out.write(f'{clear}{watched}\n{text}\n\n')
        out.flush()

    def setup(node):
        node.create_subscription(DiagnosticArray, '/diagnostics', on_diagnostics, 10)
        node.create_subscription(JointState, f'{namespace}/joint_states', on_joint_states,
                                 QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT))
        node.create_timer(args.period, refresh)

    spin_until('dh_kinematics_monitor', setup, lambda: args.count and shown[0] >= args.count)
    return 0


if __name__ == '__main__':  # pragma: no cover
    sys.exit('run it as: dh_kinematics monitor')
