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
``dh_kinematics record``: a running system's ``joint_states`` as the CSV joint log (ROS).

The columns are the first message's joints; a message without one of them (another
publisher's) is left out and counted. Each row's time is the message's stamp (where a
publisher left it zero, the time it arrived). It stops after ``--duration`` seconds of stamps,
``--count`` messages or Ctrl-C, and writes the file whole, or nothing when no message came.
"""

from array import array
import sys
import time

from dh_kinematics.cli import models
from dh_kinematics.cli.spinning import spin_until
from dh_kinematics.logs import JointLog
from dh_kinematics.logs.csv_log import check_names, text
import numpy as np

MAX_SAMPLES = 3_600_000
"""The most messages recorded: an hour at 1 kHz (about 200 MB for 7 joints)."""


def add_parser(commands):
    """Add the ``record`` command to ``commands`` (argparse's subparsers); return its parser."""
    command = commands.add_parser('record', help="a running system's joint_states as a CSV "
                                  'joint log, for identify (ROS)')
    command.add_argument('-o', '--output', required=True, help='the log to write (CSV)')
    command.add_argument('--topic', default='/joint_states', help='default: %(default)s')
    command.add_argument('--duration', type=float, default=0.0, metavar='S', help='stop after '
                         'S seconds of stamps (0: at Ctrl-C or --count)')
    command.add_argument('--count', type=int, default=0, help='stop after this many messages '
                         f'(0: at Ctrl-C or --duration; at most {MAX_SAMPLES})')
    return command


def run(args, out):
    """Record until the duration, the count or Ctrl-C; write the log."""
    if not (args.duration >= 0.0 and args.duration < float('inf')):
        raise ValueError(f'--duration: {args.duration!r} must be 0 or a positive number of s')
    if not 0 <= args.count <= MAX_SAMPLES:
        raise ValueError(f'--count: {args.count} must be from 0 to {MAX_SAMPLES}')
    from rclpy.qos import QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import JointState

    limit = args.count or MAX_SAMPLES
    state = {'names': None, 'first': None, 'left_out': 0, 'done': False}
    stamps, values = array('d'), array('d')

    def on_joint_states(message):
        names = list(message.name)
        if state['names'] is None:
            try:  # a name no CSV column holds: said now, not after an hour of recording
                check_names(names, f'{args.topic}: joint name')
            except ValueError as error:
                state['error'], state['done'] = error, True
                return
            state['names'] = names
        order = [names.index(name) if name in names else -1 for name in state['names']]
        fields = [message.position, message.velocity, message.effort]
        if -1 in order or len(fields[0]) != len(names):
            state['left_out'] += 1
            return
        stamp = message.header.stamp.sec + message.header.stamp.nanosec * 1e-9 or time.time()
        if state['first'] is None:
            state['first'] = stamp
            state['fields'] = [k for k, f in enumerate(fields) if len(f) == len(names)]
        if any(len(fields[k]) != len(names) for k in state['fields']):
            state['left_out'] += 1
            return
        stamps.append(stamp)
        for k in state['fields']:
            values.extend(fields[k][i] for i in order)
        state['done'] = len(stamps) >= limit or (
            args.duration > 0.0 and stamp - state['first'] >= args.duration)

    def setup(node):
        node.create_subscription(JointState, args.topic, on_joint_states,
                                 QoSProfile(depth=1000,
                                            reliability=ReliabilityPolicy.BEST_EFFORT))
        sys.stderr.write(f'recording {args.topic} into {args.output} (Ctrl-C ends it)\n')

    spin_until('dh_kinematics_record', setup, lambda: state['done'])
    if 'error' in state:
        raise ValueError(f'{state["error"]}: nothing written')
    if not stamps:
        raise ValueError(f'{args.topic}: no sensor_msgs/JointState message came; nothing '
                         'written')
    names, fields = state['names'], state['fields']
    table = np.frombuffer(values, dtype=float).reshape(len(stamps), len(fields), len(names))
    columns = {field: table[:, fields.index(k)] if k in fields else None
               for k, field in enumerate(('position', 'velocity', 'effort'))}
    log = JointLog(tuple(names), np.frombuffer(stamps, dtype=float), columns['position'],
                   columns['velocity'], columns['effort'])

    models.write(args.output, text(log), 'joint log')
    left = f'; {state["left_out"]} messages without those joints left out' \
        if state['left_out'] else ''
    out.write(f'wrote {args.output}: {len(stamps)} messages of {", ".join(names)} over '
              f'{stamps[-1] - stamps[0]:.3f} s{left}\n')
    return 0
