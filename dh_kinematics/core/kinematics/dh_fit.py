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
DH parameters of a chain of joint axes: the frames either convention places on them.

A moving joint is a line at the zero configuration, an :data:`Axis` in the world frame. Given
the lines, in order, and the pose of the tool, :func:`fit` places the DH frames on them and
returns the parameters of each link and the base and tool transforms, so that the model's
zero configuration is the lines' and the model's tool is the given pose, exactly.

Choices where the conventions leave one free, each the one that keeps the numbers small, unless
a hint frame (a URDF link's, say) settles it:

- **z directions**: a hint frame's z where it lies along the axis; else along the axis with the
  sign that keeps the twist within +-pi/2 (the first axis: towards the world's +z). A joint
  whose z points against its axis gets ``flip``.
- **frame 0**: on the first axis, at the point nearest the world origin, its x the world's x
  projected (the base transform is the identity when the first axis is the world's z).
- **common normals**: unique for skew axes, pointing from one to the next (``a >= 0``) unless
  the hint frame's x points the other way (``a < 0``). Intersecting axes (``a = 0``): x on the
  hint's side, else the previous x's, for an offset within +-pi/2. Parallel axes, whose normal
  may slide along them: the one that gives ``d = 0``, as Universal Robots' tables have it.
  Coincident axes: ``a = d = 0``.
- **the last frame**: on the last axis at the point nearest the hint frame's origin (else the
  tool's), its x the hint's (the tool's) x projected (standard DH: ``a = alpha = 0``).

Axes within ``HAYATI`` (0.05 rad) of parallel are joined as Hayati does: the normal square
to the first axis that reaches the second (``d = 0``), then ``alpha`` and ``beta`` (a tilt
about y) turn onto it, exactly. Plain DH would need their common normal ``distance / angle``
away: 400 m for axes 1 mrad apart, 0.4 m from each other. Without beta (``hayati=False``),
axes within ``parallel_tolerance`` rad of parallel are taken as parallel, the model then
differing from the lines by about that angle (said in a note), and a common normal farther
than the bounds allow (:mod:`core.bounds`) is refused with the angle and the tolerance that
would take the axes as parallel.
"""

from collections import namedtuple
import math

from dh_kinematics.core import bounds
from dh_kinematics.core.kinematics.dh_transforms import dh_transforms, fixed_transforms
import numpy as np

Axis = namedtuple('Axis', 'point direction revolute')
Axis.__doc__ = """A joint's line at the zero configuration, in the world frame: a point on it
(m), a unit direction, shape (3,), and True for a revolute joint (False: prismatic, moving along
the direction)."""

Fit = namedtuple('Fit', 'links base tool frames notes')
Fit.__doc__ = """What :func:`fit` returns. ``links``: per joint a dict of Link fields (``a``,
``alpha``, ``d``, ``theta``, ``offset``, ``flip``); ``base``: T_world_base (4, 4); ``tool``:
T_last_tool (4, 4); ``frames``: T_world_frame of frames 0 to n at the zero configuration,
shape (n+1, 4, 4); ``notes``: what was chosen where the geometry left a choice (str)."""

PARALLEL_TOLERANCE = 1e-9
"""Without Hayati's beta, axes closer than this to parallel (rad) are taken as parallel."""
HAYATI = 0.05
"""Axes closer than this to parallel (rad) are joined with Hayati's beta (a tilt about y)."""
_SAME = 1e-12
"""Lengths (m) below which two lines meet."""
_ALONG = 1e-9
"""Direction cosines within this of 0 (of 1) make two directions square (alike)."""
_SQUARE = 1e-6
"""Direction cosines below which two axes are square (rounded pi/2s in a URDF stay square)."""


def _perpendicular(v, z):
    """Return the unit part of ``v`` perpendicular to ``z``, or None when it is nearly 0."""
    w = v - (v @ z) * z
    norm = np.linalg.norm(w)
    return w / norm if norm > 1e-6 else None


def _x_like(T_world_hint, z):
    """Return the unit x perpendicular to ``z`` nearest the hint frame's x (else its y's)."""
    x = _perpendicular(T_world_hint[:3, 0], z)
    return x if x is not None else np.cross(_perpendicular(T_world_hint[:3, 1], z), z)


def _transform(theta, d, a, alpha, beta, modified):
    """Return one link's transform, as :func:`.dh_transforms.dh_transforms` gives it."""
    fixed = fixed_transforms(np.array([a]), np.array([alpha]), np.array([beta]))
    return dh_transforms(np.array([theta]), np.array([d]), fixed, modified)[0]


def _angle(u, v, about):
    """Return the angle from ``u`` to ``v`` about ``about`` (rad, within +-pi)."""
    return math.atan2(float(np.cross(u, v) @ about), float(u @ v))


def _across(origin, z, axis, x_hint):
    """
    Return Hayati's normal from the line (origin, z) to the nearly parallel line of ``axis``.

    It lies in the plane through ``origin`` square to ``z`` (``d = 0``) and goes to where the
    other line crosses that plane. Returns ``(x, a, kind)``: its unit direction, its length
    (m), and 'parallel' or 'coincident'.
    """
    gap = axis.point - origin
    crossing = gap - (gap @ z) / (axis.direction @ z) * axis.direction
    a = float(np.linalg.norm(crossing))
    if a > _SAME:
        return crossing / a, a, 'parallel'
    return _perpendicular(x_hint, z), 0.0, 'coincident'


def _common_normal(origin, z, axis, x_hint, tolerance):
    """
    Return the common normal from the line (origin, z) to the line of ``axis``.

    Returns
    -------
    t : float
        Where it starts on the first line: ``origin + t z`` (m).
    x : array, shape (3,)
        Its unit direction, perpendicular to z.
    a : float
        Its length (m).
    kind : str
        'skew', 'intersecting', 'parallel' or 'coincident'.

    """
    direction, gap = axis.direction, axis.point - origin
    cross = np.cross(z, direction)
    sine = float(np.linalg.norm(cross))
    if sine > tolerance:
        b = float(z @ direction)
        t = (gap @ z - b * (gap @ direction)) / sine ** 2
        u = (b * (gap @ z) - gap @ direction) / sine ** 2
        x = cross / sine
        a = float((axis.point + u * direction - origin - t * z) @ x)
        if abs(a) <= _SAME:
            return t, (-x if x @ x_hint < 0.0 else x), 0.0, 'intersecting'
        return t, (-x if a < 0.0 else x), abs(a), 'skew'
    across = gap - (gap @ z) * z
    a = float(np.linalg.norm(across))
    if a > _SAME:
        return 0.0, across / a, a, 'parallel'
    return 0.0, _perpendicular(x_hint, z), 0.0, 'coincident'


def clean(values):
    """Return ``values`` (a float or an array) with rounding noise, below 1e-14, set to 0."""
    if np.ndim(values) == 0:
        return 0.0 if abs(values) < 1e-14 else float(values)
    return np.where(np.abs(values) < 1e-14, 0.0, values)


def _hinted_sign(direction, z, hint):
    """Return the sign of an axis: the hint frame's z where it lies along it, else _sign's."""
    if hint is not None and abs(hint[:3, 2] @ direction) > 1.0 - _ALONG:
        return 1.0 if hint[:3, 2] @ direction > 0.0 else -1.0
    return _sign(direction, z)


def _sign(direction, z):
    """Return +1 or -1: the sign that turns ``direction`` towards ``z`` (+1 when square)."""
    return -1.0 if direction @ z < -_SQUARE else 1.0


def fit(axes, T_world_tool, modified=False, parallel_tolerance=PARALLEL_TOLERANCE,
        joint_names=None, hints=None, hayati=True):
    """
    Place DH frames on a chain of joint axes; see the module docstring for the choices.

    Parameters
    ----------
    axes : sequence of Axis
        The joints' lines at the zero configuration, in the world frame, base to tool.
    T_world_tool : array-like, shape (4, 4)
        The tool's pose at the zero configuration.
    modified : bool
        Modified DH (frame i on joint i) instead of standard DH (frame i on joint i+1).
    parallel_tolerance : float
        Axes closer than this to parallel (rad) are taken as parallel.
    joint_names : sequence of str, optional
        For the notes and errors; ``q1`` ... by default.
    hints : sequence of array-like, shape (4, 4), or None, optional
        Per link, a frame on its body at the zero configuration (a URDF link's) that the DH
        frame follows where the convention leaves a choice: the sign of z and x, and for the
        last frame its place and x. The DH frame is that frame wherever the frame is a DH
        frame; the defaults of the module docstring elsewhere.
    hayati : bool
        Join axes within HAYATI of parallel with Hayati's beta (exact, ``d = 0``); without,
        plain DH, with ``parallel_tolerance``.

    Returns
    -------
    fit : Fit

    Raises
    ------
    ValueError
        For a common normal farther than +-1000 m (nearly parallel axes), naming the joints,
        their angle and the tolerance that would take them as parallel.

    """
    n = len(axes)
    names = list(joint_names or [f'q{j + 1}' for j in range(n)])
    hints = list(hints or [None] * n)
    T_world_tool = np.asarray(T_world_tool, dtype=float)
    # on_axis[k]: the hint of the frame whose z is axis k, frame k (standard DH; frame 0's is
    # the world) or k+1 (modified).
    on_axis = [np.eye(4)] + hints if not modified else hints + [None]
    signs = [_hinted_sign(axes[0].direction, np.array([0.0, 0.0, 1.0]), on_axis[0])]
    z = signs[0] * axes[0].direction
    origin = axes[0].point - (axes[0].point @ z) * z  # nearest the world origin
    T = np.eye(4)
    T[:3, :3] = np.column_stack([_x_like(np.eye(4), z), np.cross(z, _x_like(np.eye(4), z)), z])
    T[:3, 3] = origin
    frames, links, notes = [T], [], []
    twist = (0.0, 0.0, 0.0)  # modified DH: (a, alpha, beta) to the next axis, from the last frame
    for j in range(n):
        # Standard DH: frame j is on axis j and the link goes to axis j+1. Modified: the
        # twist to axis j comes first, then frame j+1 on axis j goes towards axis j+1.
        M = frames[-1] @ _transform(0.0, 0.0, *twist, True) if modified else frames[-1]
        z, origin, x_before = M[:3, 2], M[:3, 3], M[:3, 0]
        hint = hints[j]  # frame j+1's
        if j + 1 < n:
            signs.append(_hinted_sign(axes[j + 1].direction, z, on_axis[j + 1]))
            following = axes[j + 1]._replace(direction=signs[-1] * axes[j + 1].direction)
            x_hint = hint[:3, 0] if hint is not None and abs(hint[:3, 0] @ z) < _ALONG else \
                x_before
            joined = hayati and float(np.linalg.norm(np.cross(z, following.direction))) < HAYATI
            if joined:
                t, (x, a, kind) = 0.0, _across(origin, z, following, x_hint)
            else:
                t, x, a, kind = _common_normal(origin, z, following, x_hint,
                                               parallel_tolerance)
                _check_reach(names[j], names[j + 1], t, abs(a), z, following.direction,
                             parallel_tolerance)
            if hint is not None and hint[:3, 0] @ x < _ALONG - 1.0:  # the link frame's side
                x, a = -x, -a
            alpha, beta = _angle(z, following.direction, x), 0.0
            if joined:  # Rx(alpha) Ry(beta) z is the next axis
                u, v, w = (following.direction @ axis for axis in (x, np.cross(z, x), z))
                alpha, beta = math.atan2(-v, w), math.asin(max(-1.0, min(1.0, u)))
            notes += _note(names[j], names[j + 1], kind, abs(a), z, following.direction,
                           beta, hayati)
        else:
            last = T_world_tool if hint is None else hint
            t = float((last[:3, 3] - origin) @ z)
            x, a, alpha, beta = _x_like(last, z), 0.0, 0.0, 0.0
        theta = _angle(x_before, x, z)
        link = dict(zip(('a', 'alpha', 'beta'), twist if modified else (a, alpha, beta)))
        if axes[j].revolute:
            link.update(theta=0.0, d=t, offset=theta)
        else:
            link.update(theta=theta, d=0.0, offset=t)
        links.append(dict({key: clean(value) for key, value in link.items()},
                          flip=bool(signs[j] < 0.0)))
        if modified:
            frames.append(M @ _transform(theta, t, 0.0, 0.0, 0.0, False))
            twist = (a, alpha, beta)
        else:
            frames.append(M @ _transform(theta, t, a, alpha, beta, False))
    return Fit(links, clean(frames[0]), clean(np.linalg.inv(frames[-1]) @ T_world_tool),
               np.array(frames), notes)


def _check_reach(name, following, t, a, z, direction, tolerance):
    if abs(t) <= bounds.LENGTH_MAX and a <= bounds.LENGTH_MAX:
        return
    angle = math.asin(min(1.0, float(np.linalg.norm(np.cross(z, direction)))))
    raise ValueError(
        f'joints {name!r} and {following!r}: their axes are {angle:.3g} rad from parallel, so '
        f'their DH common normal lies {max(abs(t), a):.3g} m away, beyond +-'
        f'{bounds.LENGTH_MAX:g} m; to take them as parallel (a model off by about that '
        f'angle), raise the parallel tolerance ({tolerance:g} rad) above {angle:.2g}')


def _note(name, following, kind, a, z, direction, beta, exact):
    """Return the note for a pair of axes where the convention left a choice, or []."""
    if kind in ('skew', 'intersecting'):
        return []
    angle = math.asin(min(1.0, float(np.linalg.norm(np.cross(z, direction)))))
    if abs(beta) >= 1e-14 and angle > 0.0:
        return [f'{name}, {following}: axes {angle:.2g} rad from parallel, {a:.6g} m apart: '
                f'held by beta = {beta:.3g} rad with d = 0 (plain DH would need their common '
                f'normal {a / angle:.3g} m away)']
    within = f' (within {angle:.2g} rad, taken as parallel)' if angle > 1e-15 and not exact \
        else ''
    d = f'd of {name}'
    if kind == 'coincident':
        return [f'{name}, {following}: axes coincide{within}; a = 0 and {d} = 0']
    return [f'{name}, {following}: axes parallel{within}, {a:.6g} m apart; the common normal '
            f'is taken where {d} = 0']
