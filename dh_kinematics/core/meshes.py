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
Meshes of a chain's links: a vendor's visual and collision geometry in place of the cylinders.

A :data:`Mesh` belongs to one frame (the base, a link, the tool or an extra frame, by its
unprefixed name) and holds a visual and a collision mesh, each a ``package://`` or ``file://``
URI or '' for none, their common origin in that frame, ``T_frame_mesh`` (m), and a scale per
axis. The URDF writes them as that link's ``<visual>`` and ``<collision>`` instead of its
cylinders (:mod:`core.urdf.writer`). A URI is checked when the model is built; whether its file
exists is checked by :func:`missing_files` (``dh_kinematics check``), as RViz would resolve it: a
``package://<package>/<path>`` under ``share/<package>`` of a prefix on ``AMENT_PREFIX_PATH``.
:func:`vertices` reads a mesh's points (STL, binary or ASCII, and OBJ), for its bounds.
"""

from collections import namedtuple
import os
import pathlib
from urllib.parse import unquote, urlsplit

from dh_kinematics.core import bounds, files
from dh_kinematics.core.checks import check_array, check_transform, InvalidFieldError
from dh_kinematics.core.rotations import xyz_rpy_to_transform
import numpy as np

MAX_MESH_BYTES = 64 << 20
"""The largest mesh file read for its vertices (a vendor's arm link: a few MB at most)."""
SCHEMES = ('package', 'file')
"""The URI schemes a mesh may use: those RViz, Gazebo and MoveIt all resolve."""
Mesh = namedtuple('Mesh', 'visual collision T_frame_mesh scale')
Mesh.__doc__ = """A frame's meshes: visual and collision URIs ('' for none), their origin in the
frame, a (4, 4) transform in m, and their scale along x, y and z (an array of 3)."""


def mesh(visual='', collision='', xyz=(0.0, 0.0, 0.0), rpy=(0.0, 0.0, 0.0),
         scale=(1.0, 1.0, 1.0)):
    """Return a :data:`Mesh` with its origin at ``xyz`` (m), ``rpy`` (rad) in its frame."""
    return Mesh(visual, collision, xyz_rpy_to_transform(xyz, rpy), scale)


def check_uri(field, uri):
    """Check a mesh URI: '' or ``package://<package>/<path>`` or ``file:///<path>``."""
    if not isinstance(uri, str):
        raise InvalidFieldError(field, uri, 'must be a string: a package:// or file:// URI, '
                                "or '' for none")
    if not uri:
        return uri
    parts = urlsplit(uri)
    if parts.scheme not in SCHEMES or not parts.path.strip('/') or not uri.isprintable():
        raise InvalidFieldError(field, uri, 'must be a package://<package>/<path> or '
                                'file:///<absolute path> URI')
    if parts.scheme == 'package' and not parts.netloc:
        raise InvalidFieldError(field, uri, 'must name its package: package://<package>/<path>')
    if parts.scheme == 'file' and parts.netloc:
        raise InvalidFieldError(field, uri, 'must be file:///<absolute path> (three slashes; '
                                f'{parts.netloc!r} reads as a host)')
    return uri


def check_meshes(meshes, frames):
    """
    Check a chain's meshes; return them as a dict, frame name to :data:`Mesh`.

    Parameters
    ----------
    meshes : mapping of str to Mesh
        Keyed by the unprefixed name of the frame each belongs to.
    frames : collection of str
        The frames that may carry a mesh: base, links, tool and extra frames.

    Raises
    ------
    InvalidFieldError
        Naming ``meshes.<frame>`` or its field.

    """
    if not isinstance(meshes, dict) or not all(
            isinstance(value, Mesh) for value in meshes.values()):
        raise InvalidFieldError('meshes', meshes, 'must be a dict of frame name to Mesh')
    checked = {}
    for frame, value in meshes.items():
        field = f'meshes.{frame}'
        if frame not in frames:
            raise InvalidFieldError(field, frame, 'must name the base, a link, the tool or an '
                                    f'extra frame ({", ".join(frames)})')
        visual = check_uri(f'{field}.visual', value.visual)
        collision = check_uri(f'{field}.collision', value.collision)
        if not (visual or collision):
            raise InvalidFieldError(field, value, 'must give a visual or a collision mesh')
        T = check_transform(field, value.T_frame_mesh)
        bounds.check_magnitude(f'{field}.xyz', T[:3, 3], bounds.LENGTH_MAX, 'm')
        scale = check_array(f'{field}.scale', value.scale, [(3,)])
        if not (scale > 0.0).all():
            raise InvalidFieldError(f'{field}.scale', scale.tolist(), 'must be 3 positive '
                                    'numbers')
        for array in (T, scale):
            array.flags.writeable = False
        checked[frame] = Mesh(visual, collision, T, scale)
    return checked


def resolve(uri, environ=None):
    """
    Return the file a mesh URI names, as RViz finds it, or raise FileNotFoundError saying why.

    ``package://<package>/<path>`` is looked for under ``share/<package>`` of each prefix on
    ``AMENT_PREFIX_PATH`` (from ``environ``, the process's environment by default).
    """
    environ = os.environ if environ is None else environ
    parts = urlsplit(uri)
    path = unquote(parts.path)
    if parts.scheme == 'file':
        found = pathlib.Path(path)
        if not found.is_file():
            raise FileNotFoundError(f'{path} does not exist')
        return found
    prefixes = [prefix for prefix in environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep)
                if prefix]
    shares = [pathlib.Path(prefix) / 'share' / parts.netloc for prefix in prefixes]
    shares = [share for share in shares if share.is_dir()]
    if not shares:
        raise FileNotFoundError(f'package {parts.netloc!r} is not on AMENT_PREFIX_PATH '
                                '(source the workspace that has it)')
    for share in shares:
        found = share / path.lstrip('/')
        if found.is_file():
            return found
    raise FileNotFoundError(f'{path.lstrip("/")} is not in {shares[0]}')


def missing_files(meshes, environ=None):
    """Return ``(field, uri, reason)`` for each mesh whose file cannot be found."""
    missing = []
    for frame, value in meshes.items():
        for kind in ('visual', 'collision'):
            uri = getattr(value, kind)
            if uri:
                try:
                    resolve(uri, environ)
                except FileNotFoundError as error:
                    missing.append((f'meshes.{frame}.{kind}', uri, str(error)))
    return missing


def vertices(path):
    """
    Return the vertices of an STL (binary or ASCII) or OBJ mesh file, shape (k, 3).

    In the file's units (URDF: m). Raises ValueError naming the file for another format, a
    file that holds no vertex, or one larger than :data:`MAX_MESH_BYTES`.
    """
    path = pathlib.Path(path)
    data = files.read_bytes(path, 'mesh', MAX_MESH_BYTES)
    suffix = path.suffix.lower()
    if suffix == '.stl':
        count = int.from_bytes(data[80:84], 'little') if len(data) >= 84 else -1
        if count >= 0 and len(data) == 84 + 50 * count:  # binary: 12 floats and 2 bytes each
            rows = np.frombuffer(data, dtype=np.dtype([('f', '<f4', 12), ('a', '<u2')]),
                                 count=count, offset=84)
            points = rows['f'][:, 3:].reshape(-1, 3).astype(float)
        else:
            points = _text_vertices(data, b'vertex')
    elif suffix == '.obj':
        points = _text_vertices(data, b'v')
    else:
        raise ValueError(f'{path}: cannot read a {suffix or "suffixless"} mesh (STL and OBJ only)')
    if not len(points) or not np.isfinite(points).all():
        raise ValueError(f'{path}: holds no vertices, or vertices not finite')
    return points


def _text_vertices(data, word):
    """Return the three numbers after ``word`` on each line that starts with it."""
    points = []
    for line in data.splitlines():
        parts = line.split()
        if parts and parts[0] == word:
            points.append([float(value) for value in parts[1:4]])
    return np.array(points, dtype=float).reshape(-1, 3)
