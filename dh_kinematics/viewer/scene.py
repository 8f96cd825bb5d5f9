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
A URDF in a viser scene: each link a frame posed from the joint values, its visuals meshes.

The arm is drawn from a URDF (the model's own, as the node publishes it, or the one a running
system publishes), loaded with yourdfpy: its cylinders, boxes and spheres, and its meshes where
they resolve. Each link is a scene node ``/arm/<link>`` posed in the URDF's root frame; the
named frames show their axes and names. Each joint colours the links it moves (up to the next
joint) by its level: as the URDF draws them while OK, amber at WARN, red at ERROR, grey when
STALE.
"""

import io

import numpy as np
from viser import transforms
import yourdfpy

LEVEL_COLOURS = (None, (245, 166, 35), (214, 39, 40), (150, 150, 150))
"""Mesh colour per level (OK, WARN, ERROR, STALE), RGB 0-255; None: the URDF's own."""
PLAIN = (170, 170, 170)
"""A visual's colour where the URDF gives none."""


def load_urdf(text, directory=None):
    """
    Read URDF ``text`` with its visuals; raise ValueError naming what is wrong.

    ``directory`` is where relative mesh paths start (the URDF file's folder).
    """
    handler = (None if directory is None else
               (lambda name: yourdfpy.filename_handler_magic(name, dir=directory)))
    try:
        return yourdfpy.URDF.load(io.StringIO(text), build_scene_graph=True, load_meshes=True,
                                  filename_handler=handler)
    except Exception as error:  # noqa: B902 (lxml's, yourdfpy's, trimesh's own errors)
        raise ValueError(f'robot_description: not a URDF yourdfpy can read: {error}') from None


def look(server, low, high):
    """
    Point the page's camera (every client's, and a new one's) at the box ``low`` .. ``high``.

    The box (world, m) is what the arm spans; the camera looks at it from the front right and
    above, as near as lets the box fill most of the view left of the page's panel (the right
    third of a wide window): the point it looks at lies right of the box's middle.
    """
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    size = max(float(np.linalg.norm(high - low)), 0.2)
    middle = 0.5 * (low + high)
    away = np.array([0.9, -0.9, 0.6])  # from the box to the camera
    right = np.cross(-away, [0.0, 0.0, 1.0])
    look_at = middle + 0.25 * size * right / np.linalg.norm(right)
    position = tuple(look_at + 0.9 * size * away)
    server.initial_camera.position, server.initial_camera.look_at = position, tuple(look_at)
    for client in server.get_clients().values():
        client.camera.position, client.camera.look_at = position, tuple(look_at)


def floor(server, length):
    """Draw the world's grid under an arm of ``length`` m: cells of 0.1 m (0.5 m past 2 m)."""
    server.scene.add_grid('/world', width=2.0 * length, height=2.0 * length,
                          cell_size=0.1 if length < 2.0 else 0.5)


def label_groups(urdf, named):
    """
    Return one label per place among the ``named`` links: (the link it hangs on, its text).

    Links joined by a joint with no translation share their origin at every configuration
    (a DH link with a = d = 0, a frame such as ``flange`` at ``tool0``): one label names them
    all (``link4, link5``), so no two labels are drawn over each other.
    """
    joint_of = {joint.child: joint for joint in urdf.joint_map.values()}
    groups = {}
    for link in named:
        if link not in urdf.link_map:
            continue
        place, joint = link, joint_of.get(link)
        while joint is not None and np.allclose(joint.origin[:3, 3], 0.0, atol=1e-12):
            place, joint = joint.parent, joint_of.get(joint.parent)
        groups.setdefault(place, []).append(link)
    return [(links[0], ', '.join(links)) for links in groups.values()]


def place(node, T):
    """Pose a scene node (a frame, a gizmo) at ``T``, shape (4, 4), in its parent's frame."""
    node.wxyz = transforms.SO3.from_matrix(T[:3, :3]).wxyz
    node.position = T[:3, 3]


def pose_of(node):
    """Return a scene node's pose in its parent's frame, shape (4, 4)."""
    T = np.eye(4)
    T[:3, :3] = transforms.SO3(np.asarray(node.wxyz)).as_matrix()
    T[:3, 3] = node.position
    return T


def moved_by(urdf):
    """Return, per actuated joint name, the links it moves up to the next actuated joint."""
    joint_of = {joint.child: joint for joint in urdf.joint_map.values()}
    actuated = set(urdf.actuated_joint_names)
    moved = {name: [] for name in urdf.actuated_joint_names}
    for link in urdf.link_map:
        joint = joint_of.get(link)
        while joint is not None and joint.name not in actuated:
            joint = joint_of.get(joint.parent)
        if joint is not None:
            moved[joint.name].append(link)
    return moved


class ArmScene:
    """
    A URDF drawn under ``/arm`` in a viser server's scene.

    Parameters
    ----------
    server : viser.ViserServer
        Where to draw.
    urdf : yourdfpy.URDF
        The arm, loaded with its visuals (:func:`load_urdf`).
    named : sequence of str
        The links whose axes and names are shown (the model's frames).
    length : float
        The length of the shown axes, m.

    """

    def __init__(self, server, urdf, named, length):
        self.urdf = urdf
        scene, graph = server.scene, urdf.scene.graph
        self._frames = {link: scene.add_frame(
            f'/arm/{link}', show_axes=link in named, axes_length=length,
            axes_radius=0.04 * length) for link in urdf.link_map}
        for link, text in label_groups(urdf, named):
            scene.add_label(f'/arm/{link}/name', text, font_screen_scale=0.7)
        self._meshes = {}  # link -> [(mesh handle, its own colour)]
        for node in graph.nodes_geometry:
            link = graph.transforms.parents[node]
            T_link_visual = graph.get(frame_to=node, frame_from=link)[0]
            mesh = urdf.scene.geometry[graph[node][1]].copy()
            mesh.apply_transform(T_link_visual)
            colour = _colour_of(mesh)
            handle = scene.add_mesh_simple(
                f'/arm/{link}/{node}', np.asarray(mesh.vertices, dtype=np.float32),
                np.asarray(mesh.faces, dtype=np.uint32), color=colour)
            self._meshes.setdefault(link, []).append((handle, colour))
        self._moved = moved_by(urdf)
        self.joint_names = tuple(urdf.actuated_joint_names)

    def remove(self):
        """Take the arm out of the scene."""
        for frame in self._frames.values():
            frame.remove()

    def show(self, positions):
        """Pose every link for joint values by name (rad or m); a joint not given keeps its."""
        urdf = self.urdf
        cfg = urdf.cfg.copy()
        for k, name in enumerate(self.joint_names):
            if name in positions:
                cfg[k] = positions[name]
        urdf.update_cfg(cfg)
        for link, frame in self._frames.items():
            place(frame, urdf.get_transform(link))

    def colour(self, levels):
        """Colour the links each joint moves by its level (joint name -> 0 to 3)."""
        for joint, level in levels.items():
            for link in self._moved.get(joint, ()):
                for mesh, own in self._meshes.get(link, ()):
                    mesh.color = LEVEL_COLOURS[level] or own

    def pose(self, link):
        """Return a link's pose as drawn (root frame), shape (4, 4)."""
        return pose_of(self._frames[link])

    def colours(self, joint):
        """Return the set of RGB colours, 0-255, that the visuals a joint moves are drawn in."""
        return {tuple(int(c) for c in mesh.color) for link in self._moved.get(joint, ())
                for mesh, _ in self._meshes.get(link, ())}


def _colour_of(mesh):
    """Return a visual's own colour (RGB 0-255): its material's, else :data:`PLAIN`."""
    try:
        colour = mesh.visual.main_color
    except AttributeError:
        return PLAIN
    return tuple(int(c) for c in colour[:3])
