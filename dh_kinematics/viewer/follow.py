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
The page that follows a running system: its description, joint states and diagnostics.

The arm comes from ``robot_description`` (latched, as robot_state_publisher and the node
publish it), its joint values from ``joint_states``, each joint's level from the node's
statuses on ``/diagnostics`` (a button per joint, and the links it moves, in the level's
colour), and a plot shows the last seconds of a chosen quantity: the joints' velocities or
efforts (``joint_states``; velocities from the positions where a message carries none), the
effort residuals or the observer's external torques, the singularity measure and the tool's
speed (the node's statuses, where it watches them). :class:`FollowPage` takes plain values;
:func:`follow` wires it to rclpy.
"""

import math
import threading
import time

from dh_kinematics.core.display import format_number, joint_unit
from dh_kinematics.node_logic.monitors.levels import OK
from dh_kinematics.viewer.history import History
from dh_kinematics.viewer.scene import ArmScene, floor, LEVEL_COLOURS, load_urdf, look
import numpy as np

QUANTITIES = ('velocity', 'effort', 'effort residual', 'external torque', 'singularity',
              'tool speed')
"""What the plot can show, per joint or for the arm (SI units, condition number)."""
UNITS = {'velocity': 'rad/s (m/s: prismatic)', 'effort': 'N m (N: prismatic)',
         'effort residual': 'N m (N: prismatic)', 'external torque': 'N m (N: prismatic)',
         'singularity': 'condition number (no unit)',
         'tool speed': 'm/s'}
"""The unit of each plotted quantity: the plot's value axis says it."""
BUTTON_OK = (134, 142, 150)
"""A joint's button colour while OK; other levels take :data:`scene.LEVEL_COLOURS`."""
SERIES_COLOURS = ('#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
                  '#7f7f7f', '#bcbd22', '#17becf')


class FollowPage:
    """
    The page of a running system, fed with plain values (SI units, monotonic seconds).

    Parameters
    ----------
    server : viser.ViserServer
        The page's server.
    degrees : bool
        Revolute joint values in degrees (a joint is taken as revolute unless the URDF says
        prismatic).
    where : str
        What the page waits for, shown until the description comes.

    Attributes
    ----------
    scene : ArmScene or None
        The arm as drawn; None until a description comes.

    """

    def __init__(self, server, degrees, where):
        self._server, self._degrees = server, degrees
        self._lock = threading.Lock()
        self.scene = None
        self._buttons = {}
        self._prismatic = set()
        self.positions, self.levels = {}, {}
        self._previous = {}  # joint -> (t, position), for velocities a message lacks
        self.history = History()
        gui = server.gui
        self.status = gui.add_text('robot', f'waiting for {where}', multiline=True,
                                   disabled=True)
        self._joints = gui.add_folder('Joints')
        self.arm = gui.add_text('diagnostics', 'no statuses yet', multiline=True,
                                disabled=True)
        self.quantity = gui.add_dropdown('plot', QUANTITIES, initial_value='velocity')
        self._plot = None
        self._plotted = None  # (quantity, names) the plot was made for

    def describe(self, text):
        """
        Take a URDF (``robot_description``): draw the arm, a button per joint.

        A description the package would not read is refused on the page, naming why; the
        arm drawn before stays.
        """
        try:
            description = load_urdf(text)
        except ValueError as error:
            self.status.value = str(error)
            return
        urdf = description.urdf
        with self._lock:
            if self.scene is not None:
                self.scene.remove()
            for button in self._buttons.values():
                button.remove()
            links = [link for link in urdf.link_map if not link.endswith('_axis')]
            self.scene = ArmScene(self._server, description, links, 0.1)
            self.scene.show({})
            low, high = self.scene.bounds()
            low, high = np.minimum(low, 0.0), np.maximum(high, 0.0)  # the world's origin too
            extent = max(float(np.max(high - low)), 0.2)
            floor(self._server, extent)
            look(self._server, low, high)
            self.scene.axes(0.1 * extent)
            self._prismatic = {joint.name for joint in urdf.actuated_joints
                               if joint.type == 'prismatic'}
            with self._joints:
                self._buttons = {name: self._server.gui.add_button(name, color=BUTTON_OK)
                                 for name in urdf.actuated_joint_names}
            self.status.value = (f'{urdf.robot.name}: {len(self._buttons)} joints, '
                                 f'{len(urdf.link_map)} links')

    def joint_states(self, t, names, positions, velocities=(), efforts=()):
        """Take a joint_states message's values at monotonic time ``t``, s."""
        names = list(names)
        self.positions.update(zip(names, positions))
        if len(velocities) != len(names):
            velocities = [self._rate(t, name, value) for name, value in zip(names, positions)]
        for name, value in zip(names, positions):
            self._previous[name] = (t, value)
        self.history.add('velocity', t, names, velocities)
        if len(efforts) == len(names):
            self.history.add('effort', t, names, efforts)

    def _rate(self, t, name, value):
        before = self._previous.get(name)
        if before is None or t <= before[0]:
            return math.nan
        return (value - before[1]) / (t - before[0])

    def diagnostics(self, t, statuses):
        """
        Take the watched node's statuses: (task, level, message, values dict) each.

        A joint's task is its name; ``arm``, ``tool_speed`` and ``singularity`` are the arm's.
        """
        judged = {'effort residual': {}, 'external torque': {}}
        for task, level, message, values in statuses:
            if task == 'arm':
                self.arm.value = message
            elif task == 'tool_speed':
                self._add_value('tool speed', t, 'tool speed (m/s)', values.get('speed'))
            elif task == 'singularity':
                self._add_value('singularity', t, 'condition number',
                                values.get('condition_scaled'))
            elif task in self._buttons:
                self.levels[task] = min(level, 3)
                for quantity, values_by_joint in judged.items():
                    key = quantity.replace(' ', '_')
                    if key in values:
                        values_by_joint[task] = _number(values[key])
        for quantity, values_by_joint in judged.items():
            if values_by_joint:
                self.history.add(quantity, t, values_by_joint, list(values_by_joint.values()))

    def _add_value(self, quantity, t, name, text):
        value = _number(text)
        if value == value:
            self.history.add(quantity, t, (name,), (value,))

    def refresh(self, now):
        """Show the latest values: the arm's pose and colours, the buttons, the plot."""
        with self._lock:
            if self.scene is None:
                return
            self.scene.show(self.positions)
            self.scene.colour({name: self.levels.get(name, OK) for name in self._buttons})
            for name, button in self._buttons.items():
                level = self.levels.get(name, OK)
                button.color = LEVEL_COLOURS[level] if level else BUTTON_OK
                button.label = f'{name}: {self._shown(name)}'
        self._draw(now)

    def _shown(self, name):
        value = self.positions.get(name)
        if value is None:
            return 'no value yet'
        scale, unit = joint_unit(name in self._prismatic, self._degrees)
        return f'{format_number(value * scale, 4)} {unit}'

    def _draw(self, now):
        quantity = self.quantity.value
        names, t, values = self.history.series(quantity, now)
        if len(t) < 2:
            return
        gui = self._server.gui
        if self._plotted != (quantity, names):
            if self._plot is not None:
                self._plot.remove()
            series = ({'label': 't (s)'},) + tuple(
                {'label': name, 'stroke': SERIES_COLOURS[k % len(SERIES_COLOURS)], 'width': 1.5}
                for k, name in enumerate(names))
            self._plot = gui.add_uplot(data=(t,) + tuple(values), series=series,
                                       title=quantity, aspect=1.6,
                                       scales={'x': {'time': False}},
                                       axes=({'label': 't (s)'}, {'label': UNITS[quantity]}))
            self._plotted = (quantity, names)
        else:
            self._plot.data = (t,) + tuple(values)


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def follow(server, namespace, node_name, degrees, ready, signals):
    """
    Follow a running system on ``server``'s page until Ctrl-C or SIGTERM (rclpy).

    Parameters
    ----------
    server : viser.ViserServer
        The page's server.
    namespace : str
        The namespace of ``robot_description`` and ``joint_states``.
    node_name : str
        The node whose statuses colour the joints (``<namespace>/<node_name>``).
    degrees : bool
        Revolute joint values in degrees.
    ready : callable
        Called once the subscriptions are made (the command prints the address).
    signals : viewer.signals.Signals
        The command's SIGINT and SIGTERM: its loop runs until one comes.

    """
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.executors import ExternalShutdownException
    from rclpy.signals import SignalHandlerOptions
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import JointState
    from std_msgs.msg import String

    prefix = '/' + namespace.strip('/') if namespace.strip('/') else ''
    watched = f'{prefix}/{node_name}'
    page = FollowPage(server, degrees, f'{prefix}/robot_description')
    rclpy.init(args=['dh_kinematics_view'], signal_handler_options=SignalHandlerOptions.NO)
    node = rclpy.create_node('dh_kinematics_view')

    def on_diagnostics(message):
        statuses = []
        for status in message.status:
            owner, _, task = status.name.partition(': ')
            if owner == watched:
                statuses.append((task, status.level[0], status.message,
                                 {kv.key: kv.value for kv in status.values}))
        if statuses:
            page.diagnostics(time.monotonic(), statuses)

    node.create_subscription(String, f'{prefix}/robot_description',
                             lambda message: page.describe(message.data), QoSProfile(
                                 depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
    node.create_subscription(JointState, f'{prefix}/joint_states', lambda message: (
        page.joint_states(time.monotonic(), message.name, message.position, message.velocity,
                          message.effort)),
        QoSProfile(depth=10, reliability=ReliabilityPolicy.BEST_EFFORT))
    node.create_subscription(DiagnosticArray, '/diagnostics', on_diagnostics, 10)
    node.create_timer(0.1, lambda: page.refresh(time.monotonic()))
    ready()

    def spin(period):
        rclpy.spin_once(node, timeout_sec=period)
        return rclpy.ok()
    try:
        signals.run(spin)
    except ExternalShutdownException:
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
