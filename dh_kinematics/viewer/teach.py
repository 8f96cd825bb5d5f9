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
The page that moves a model by hand: the seeds' ``teach``, in a browser.

A slider per joint within its limits (deg with ``degrees`` for revolute joints), the tool's
pose and the joint values as the CLI prints them, each joint's limit level on the links it
moves, the singularity measure and the tool's speed while a slider moves (:mod:`readout`); a
gizmo at the tool that solves inverse kinematics from the present configuration where it is
dragged; a button per named configuration; a button that prints the present joint values as a
line to paste under ``configurations:``; the arm's capsules, the closest pair coloured by its
self-collision level (:mod:`capsules`).
"""

import math
import threading
import time

from dh_kinematics.core.display import joint_unit, pose_text
from dh_kinematics.core.model_file import params
from dh_kinematics.node_logic.monitors.levels import LEVEL_NAMES
from dh_kinematics.viewer.capsules import CapsuleLayer
from dh_kinematics.viewer.readout import joint_text, Readout, yaml_line
from dh_kinematics.viewer.scene import ArmScene, floor, load_urdf, look, place, pose_of
import numpy as np

UNLIMITED = {'R': (-math.pi, math.pi), 'P': (-1.0, 1.0)}
"""A slider's range for a joint without limits: a turn, or a metre either way."""


def reach(chain):
    """Return a length the arm spans, m: its links' lengths and offsets and the tool's."""
    lengths = sum(abs(link.a) + abs(link.d) for link in chain.links)
    return max(lengths + float(np.linalg.norm(chain.tool[:3, 3])), 0.2)


class TeachPage:
    """
    The controls and numbers of the page, wired to a scene and a readout.

    Parameters
    ----------
    server : viser.ViserServer
        The page's server.
    readout : Readout
        Judges each configuration.
    scene : ArmScene
        The arm drawn.
    configurations : dict
        Named configurations (name -> joint values, rad or m).
    degrees : bool
        Revolute joints in degrees on the page (the CLI's ``--deg``).
    out : file
        Where the YAML line is printed.
    capsules : CapsuleLayer or None
        The capsules drawn, the closest pair coloured at each configuration.

    """

    def __init__(self, server, readout, scene, configurations, degrees, out, capsules=None):
        chain = readout.chain
        self.chain, self._readout, self.scene, self._out = chain, readout, scene, out
        self.capsules = capsules
        self._lock = threading.Lock()
        self._busy = False  # the page sets its own sliders: no echo
        self._setting = {}  # while busy, what the page sets each slider to
        self._pending = {}  # a user's slider moves that came while busy: applied after
        self._scale = np.array([joint_unit(link.isprismatic(), degrees)[0]
                                for link in chain.links])
        self._degrees = degrees
        gui = server.gui
        with gui.add_folder('Joints'):
            self.sliders = [self._slider(gui, name, link, scale)
                            for name, link, scale in zip(chain.joint_names, chain.links,
                                                         self._scale)]
        self._shown = [slider.value for slider in self.sliders]  # the last values judged
        with gui.add_folder('Readout'):
            self.tool = gui.add_text(chain.tool_frame, '', multiline=True, disabled=True)
            self.joints = gui.add_text('joints', '', multiline=True, disabled=True)
            self.levels = gui.add_text('limits', '', multiline=True, disabled=True)
            self.singularity = gui.add_text('singularity', '', multiline=True, disabled=True)
            self.speed = gui.add_text('tool speed', '', disabled=True)
            self.self_collision = gui.add_text('self-collision', '', multiline=True,
                                               disabled=True)
            self.ik = gui.add_text('IK', 'drag the gizmo at the tool', multiline=True,
                                   disabled=True)
        if configurations:
            with gui.add_folder('Configurations'):
                for name, q in configurations.items():
                    button = gui.add_button(name)
                    button.on_click(lambda _, q=np.array(q, dtype=float): self.move(q))
        self.yaml = gui.add_text('YAML', '', multiline=True, disabled=True)
        gui.add_button('Print the joint values as YAML').on_click(lambda _: self.print_yaml())
        self.target = server.scene.add_transform_controls(
            '/ik_target', scale=0.25 * reach(chain), disable_sliders=True)
        self.target.on_update(lambda _: self._solve())
        for k, slider in enumerate(self.sliders):
            slider.on_update(lambda event, k=k: self._moved(k, event.target.value))
        self.reading = None

    def _slider(self, gui, name, link, scale):
        lower, upper = UNLIMITED[link.RP] if link.qlim is None else link.qlim
        unit = joint_unit(link.isprismatic(), self._degrees)[1]
        step = 0.1 if unit == 'deg' else 0.001
        initial = min(max(0.0, lower), upper) * scale
        low, high = lower * scale, upper * scale
        return gui.add_slider(f'{name} ({unit})', min=low, max=high, step=step,
                              initial_value=initial, marks=((low, f'{low:.4g}'),
                                                            (high, f'{high:.4g}')))

    @property
    def q(self):
        """Return the sliders' joint values, rad or m."""
        return np.array([slider.value for slider in self.sliders]) / self._scale

    def move(self, q, follow_tool=True):
        """
        Set the sliders to ``q`` (rad or m), a jump, and show it; the gizmo to the tool too.

        A user's slider move that comes while the page sets the sliders (a gizmo's solve) is
        applied after it, as a move of its own, not dropped.
        """
        with self._lock:
            self._set(dict(enumerate(float(value) for value in np.asarray(q) * self._scale)))
            self._show(follow_tool, None)
            pending, self._pending = self._pending, {}
            if pending:
                self._set(pending)
                self._within_range()
                self._show(True, time.monotonic())

    def _moved(self, k=None, value=None):
        if self._busy:  # the page's own setting's echo, or a user's move: kept for after it
            if k is not None and value != self._setting.get(k):
                self._pending[k] = value
            return
        with self._lock:
            self._within_range()
            self._show(True, time.monotonic())

    def _set(self, values):
        """Set sliders by index to ``values`` (the sliders' units); their echoes are no move."""
        self._setting, self._busy = values, True
        try:
            for k, value in values.items():
                self.sliders[k].value = value
        finally:
            self._setting, self._busy = {}, False

    def _within_range(self):
        """
        Put every slider back within its range: what a client sends is not trusted.

        A value past the range is clamped to it; one not finite keeps the slider's last value.
        The page then shows what is judged.
        """
        kept = {}
        for k, slider in enumerate(self.sliders):
            value = float(slider.value)
            within = (min(max(value, slider.min), slider.max) if math.isfinite(value)
                      else self._shown[k])
            if within != value:
                kept[k] = within
        if kept:
            self._set(kept)

    def _show(self, follow_tool, seconds):
        chain, reading = self.chain, self._readout.update(self.q, seconds)
        self.reading = reading
        self._shown = [slider.value for slider in self.sliders]
        self.scene.show(dict(zip(chain.joint_names, reading.q)))
        self.scene.colour(dict(zip(chain.joint_names, reading.levels)))
        T = reading.T_world_tool
        self.tool.value = pose_text(T, self._degrees)
        self.joints.value = joint_text(chain, reading.q, self._degrees)
        named = [f'{name} {LEVEL_NAMES[level]}'
                 for name, level in zip(chain.joint_names, reading.levels) if level]
        self.levels.value = ', '.join(named) or 'every joint OK'
        self.singularity.value = reading.singularity
        # To the millimetre per second: the rate of a slider moved by a rounding is no speed.
        speed = ('-' if reading.speed != reading.speed
                 else f'{reading.speed:.3f} m/s')
        if reading.speed_level is not None:
            speed += f' ({LEVEL_NAMES[reading.speed_level]})'
        self.speed.value = speed
        if self.capsules is not None:
            self.self_collision.value = self.capsules.show(reading.q)
        if follow_tool:
            place(self.target, T)

    def _solve(self):
        wxyz, position = np.asarray(self.target.wxyz), np.asarray(self.target.position)
        if not (np.isfinite(wxyz).all() and np.isfinite(position).all()
                and np.linalg.norm(wxyz) > 1e-6):
            with self._lock:
                place(self.target, self.reading.T_world_tool)  # back at the tool
            self.ik.value = ('no target: its position or orientation is not finite, or its '
                             'quaternion is 0; the gizmo is back at the tool')
            return
        q, message = self._readout.solve(pose_of(self.target), self.q)
        if q is not None:
            self.move(q, follow_tool=False)
        self.ik.value = message  # last: the page has moved when it says so

    def print_yaml(self):
        """Show and print the present joint values as a line for ``configurations:``."""
        line = yaml_line(self.q)
        self.yaml.value = line
        self._out.write(line + '\n')
        self._out.flush()


def serve(server, chain, given, settings, degrees, out):
    """
    Put a model on ``server``'s page: the world, the arm from its URDF, the controls.

    Parameters
    ----------
    server : viser.ViserServer
        The page's server.
    chain : Chain
        The model.
    given : dict
        The model file's parameters (its named configurations).
    settings : dict
        The node's settings (SI units).
    degrees : bool
        Revolute joints in degrees.
    out : file
        Where the YAML line is printed.

    Returns
    -------
    page : TeachPage

    """
    length = reach(chain)
    description = load_urdf(chain.to_urdf())
    named = ((chain.world_frame, chain.base_frame) + chain.link_frames + (chain.tool_frame,)
             + tuple(frame.name for frame in chain.frames))
    floor(server, length)
    scene = ArmScene(server, description, named, 0.12 * length)
    page = TeachPage(server, Readout(chain, settings), scene,
                     params.configurations(given, chain.n), degrees, out,
                     CapsuleLayer(server, chain, settings))
    page.move(page.q)
    points = np.vstack([chain.fkine_all(page.q)[:, :3, 3], chain.fkine(page.q)[:3, 3],
                        np.zeros(3)])  # the arm where it starts, and the world's origin
    look(server, points.min(axis=0), points.max(axis=0))
    return page
