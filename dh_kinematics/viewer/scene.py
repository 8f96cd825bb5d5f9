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

from collections import namedtuple
import io

from dh_kinematics.core.urdf import reader
import numpy as np
from viser import transforms
import yourdfpy

LEVEL_COLOURS = (None, (245, 166, 35), (214, 39, 40), (150, 150, 150))
"""Mesh colour per level (OK, WARN, ERROR, STALE), RGB 0-255; None: the URDF's own."""
PLAIN = (170, 170, 170)
"""A visual's colour where the URDF gives none."""


Description = namedtuple('Description', 'urdf tree')
Description.__doc__ = """A URDF to draw: yourdfpy's (its visuals, meshes loaded) and the
package's :data:`core.urdf.reader.Tree` (its joints, checked), of the same text."""


def load_urdf(text, directory=None):
    """
    Read URDF ``text`` with its visuals into a :data:`Description`; raise ValueError naming why.

    The text is checked first as the package reads every URDF (:func:`reader.parse`: at most
    50 MB, a tree, every number finite, a visual's sizes too), so that no description, whoever
    publishes it, reaches the scene with a NaN or a loop. ``directory`` is where relative mesh
    paths start (the URDF file's folder).
    """
    try:
        tree = reader.parse(text)
    except ValueError as error:
        raise ValueError(f'robot_description: {error}') from None
    handler = (None if directory is None else
               (lambda name: yourdfpy.filename_handler_magic(name, dir=directory)))
    try:
        urdf = yourdfpy.URDF.load(io.StringIO(text), build_scene_graph=True, load_meshes=True,
                                  filename_handler=handler)
    except Exception as error:  # noqa: B902 (lxml's, yourdfpy's, trimesh's own errors)
        raise ValueError(f'robot_description: not a URDF yourdfpy can read: {error}') from None
    return Description(urdf, tree)


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
    """Return a scene node's pose in its parent's frame, shape (4, 4) (its quaternion unit)."""
    T = np.eye(4)
    wxyz = np.asarray(node.wxyz, dtype=float)
    T[:3, :3] = transforms.SO3(wxyz / np.linalg.norm(wxyz)).as_matrix()
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


def walk(tree):
    """
    Return the joints of a :data:`reader.Tree` parents first (names): one walk from its roots.

    A link's pose is then its parent's times its joint's motion, each computed once: the
    poses of every link cost time linear in the links.
    """
    order, links = [], [link for link in tree.links if link not in tree.parent_joint]
    while links:
        joints = [name for link in links for name in reader.children(tree, link)]
        order += joints
        links = [tree.joints[name].child for name in joints]
    return order


class ArmScene:
    """
    A URDF drawn under ``/arm`` in a viser server's scene.

    Parameters
    ----------
    server : viser.ViserServer
        Where to draw.
    description : Description
        The arm, loaded with its visuals (:func:`load_urdf`).
    named : sequence of str
        The links whose axes and names are shown (the model's frames).
    length : float
        The length of the shown axes, m.

    """

    def __init__(self, server, description, named, length):
        urdf, self._tree = description
        scene, graph = server.scene, urdf.scene.graph
        self._frames = {link: scene.add_frame(
            f'/arm/{link}', show_axes=link in named, axes_length=length,
            axes_radius=0.04 * length) for link in urdf.link_map}
        for link, text in label_groups(urdf, named):
            scene.add_label(f'/arm/{link}/name', text, font_screen_scale=0.7)
        self._meshes = {}  # link -> [(mesh handle, its own colour)]
        self._corners = {}  # link -> the corners of its visuals' box, link frame, shape (8, 4)
        for node in graph.nodes_geometry:
            link = graph.transforms.parents[node]
            T_link_visual, geometry = graph.get(frame_to=node, frame_from=link)  # one edge
            mesh = urdf.scene.geometry[geometry].copy()
            mesh.apply_transform(T_link_visual)
            colour = _colour_of(mesh)
            handle = scene.add_mesh_simple(
                f'/arm/{link}/{node}', np.asarray(mesh.vertices, dtype=np.float32),
                np.asarray(mesh.faces, dtype=np.uint32), color=colour)
            self._meshes.setdefault(link, []).append((handle, colour))
            if len(mesh.vertices):
                self._corners.setdefault(link, []).append(_corners(mesh.bounds))
        self._moved = moved_by(urdf)
        self.joint_names = tuple(urdf.actuated_joint_names)
        self._order = walk(self._tree)
        self._mimic = {joint.name: (joint.mimic.joint, joint.mimic.multiplier or 1.0,
                                    joint.mimic.offset or 0.0)
                       for joint in urdf.robot.joints if joint.mimic is not None}
        self._values = dict.fromkeys(self.joint_names, 0.0)
        self._poses = {}

    def axes(self, length):
        """Draw the shown axes ``length`` m long."""
        for frame in self._frames.values():
            frame.axes_length, frame.axes_radius = length, 0.04 * length

    def remove(self):
        """Take the arm out of the scene."""
        for frame in self._frames.values():
            frame.remove()

    def show(self, positions):
        """Pose every link for joint values by name (rad or m); a joint not given keeps its."""
        values = self._values
        values.update((name, positions[name]) for name in self.joint_names if name in positions)
        self._poses = poses = {link: np.eye(4) for link in self._tree.links
                               if link not in self._tree.parent_joint}
        for name in self._order:
            joint = self._tree.joints[name]
            q = values.get(name, 0.0)
            if name in self._mimic:
                leader, multiplier, offset = self._mimic[name]
                q = values.get(leader, 0.0) * multiplier + offset
            poses[joint.child] = poses[joint.parent] @ reader.joint_motion(joint, q)
        for link, frame in self._frames.items():
            place(frame, poses[link])

    def bounds(self):
        """
        Return the box the arm spans as shown, (low, high), root frame, m.

        Its visuals' corners; the links' origins where it has none.
        """
        points = [(self._poses[link] @ np.vstack(corners).T)[:3].T
                  for link, corners in self._corners.items()]
        if not points:
            points = [np.array([T[:3, 3] for T in self._poses.values()])]
        points = np.vstack(points)
        return points.min(axis=0), points.max(axis=0)

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


def _corners(bounds):
    """Return the 8 corners of an axis-aligned box ``[low, high]``, homogeneous, shape (8, 4)."""
    (x0, y0, z0), (x1, y1, z1) = bounds
    return np.array([[x, y, z, 1.0] for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)])


def _colour_of(mesh):
    """Return a visual's own colour (RGB 0-255): its material's, else :data:`PLAIN`."""
    try:
        colour = mesh.visual.main_color
    except AttributeError:
        return PLAIN
    return tuple(int(c) for c in colour[:3])
