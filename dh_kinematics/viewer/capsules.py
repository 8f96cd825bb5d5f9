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
The arm's capsules over its links, the closest judged pair coloured by its level.

Each capsule of :class:`core.safety.link_capsules.LinkCapsules` is drawn see-through on its
link's scene node; at each configuration the two capsules of the closest pair take the colour
of the level the node would give (``safety.self_collision.warn_distance`` and
``error_distance``: amber at WARN, red at ERROR, blue while OK) and show through the links,
the others stay grey and faint; a segment in the same colour joins the pair's closest points
(a dot on each), where the two capsules are nearest, or deepest in each other.
"""

from dh_kinematics.core.rotations import z_along
from dh_kinematics.core.safety.link_capsules import LinkCapsules
from dh_kinematics.node_logic.monitors.levels import ERROR, LEVEL_NAMES, OK, WARN
import numpy as np
import trimesh

GREY, CLOSEST = (200, 200, 200), {OK: (60, 120, 220), WARN: (245, 166, 35),
                                  ERROR: (214, 39, 40)}
"""The capsules' colours, RGB 0-255: the others', and the closest pair's per level."""


def capsule_mesh(start, end, radius):
    """Return a trimesh capsule from ``start`` to ``end`` (m) of ``radius``."""
    start, end = np.asarray(start, float), np.asarray(end, float)
    axis = end - start
    length = float(np.linalg.norm(axis))
    mesh = trimesh.creation.capsule(height=length, radius=radius, count=[12, 12])
    T = np.eye(4)
    if length > 0.0:
        T[:3, :3] = z_along(axis)
    T[:3, 3] = (start + end) / 2.0
    mesh.apply_transform(T)
    return mesh


class CapsuleLayer:
    """
    The capsules of a model on its scene.

    Parameters
    ----------
    server : viser.ViserServer
    chain : Chain
    settings : dict
        The node's settings: the ignored pairs and the distances.

    """

    def __init__(self, server, chain, settings):
        ignore = [entry for entry in settings['safety.self_collision.ignore'] if entry]
        self.capsules = LinkCapsules(chain, ignore, 'safety.self_collision.ignore')
        self._near = tuple(settings[f'safety.self_collision.{name}_distance']
                           for name in ('warn', 'error'))
        self.handles = []
        for k, (link, ends, radius) in enumerate(zip(self.capsules.links, self.capsules.ends,
                                                     self.capsules.radii)):
            mesh = capsule_mesh(ends[0], ends[1], radius)
            self.handles.append(server.scene.add_mesh_simple(
                f'/arm/{self.capsules.frames[link]}/capsule{k}',
                np.asarray(mesh.vertices, dtype=np.float32),
                np.asarray(mesh.faces, dtype=np.uint32), color=GREY, opacity=0.35))
        dot = 0.8 * float(self.capsules.radii.min()) if len(self.capsules.radii) else 0.01
        self.dots = [server.scene.add_icosphere(f'/self_collision/{end}', dot, GREY)
                     for end in ('a', 'b')]
        self.line = server.scene.add_line_segments('/self_collision/line', np.zeros((1, 2, 3)),
                                                   GREY, thickness=0.5 * dot)

    def show(self, q):
        """Colour the closest pair at ``q`` (rad or m); return a line naming it, how near."""
        capsules = self.capsules
        if not len(capsules.pairs):
            return 'no pair judged'
        closest = capsules.closest(capsules.chain.fkine_all(np.asarray(q, dtype=float)))
        pair = int(np.argmin(closest.distance))
        distance = float(closest.distance[pair])
        warn, error = self._near
        level = ERROR if distance < error else WARN if distance < warn else OK
        for handle in self.handles:
            handle.color, handle.opacity = GREY, 0.35
        for k in capsules.pairs[pair]:
            self.handles[k].color, self.handles[k].opacity = CLOSEST[level], 0.9
        ends = np.array([closest.point_a[pair], closest.point_b[pair]])
        for dot, point in zip(self.dots, ends):
            dot.position, dot.color = point, CLOSEST[level]
        self.line.points = ends[None].astype(np.float32)
        self.line.colors = np.broadcast_to(np.array(CLOSEST[level], dtype=np.uint8), (1, 2, 3))
        names = capsules.pair_name(pair).replace(' ', ' and ')
        return f'{LEVEL_NAMES[level]}: {names} {distance:.3f} m apart'
