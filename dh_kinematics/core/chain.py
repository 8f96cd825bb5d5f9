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
A serial arm as a chain of DH links: kinematics, limits, friction and inverse dynamics.

Every array method takes one configuration, shape (n,), or a batch, shape (m, n), and then
returns a leading m axis. The batch path is vectorised over configurations; from
:data:`core.kinematics.batch.MIN_BATCH` configurations the kinematics run compiled
(:mod:`core.kinematics.batch`), and the tool pose and Jacobian of one configuration run as
straight-line floats (:mod:`core.kinematics.unrolled`). Units are SI: rad and m for joints,
N m and N for torques and forces.
"""

from dh_kinematics.core import (
    configurations, conventions, display, fixed_frames, meshes as link_meshes, names)
from dh_kinematics.core.checks import (
    check_array, check_joint_array, check_transform, InvalidFieldError)
from dh_kinematics.core.dynamics import equations
from dh_kinematics.core.dynamics.payload import check_payload, NO_PAYLOAD, Payload
from dh_kinematics.core.ik import ikine as inverse_kinematics, path as ik_path
from dh_kinematics.core.kinematics import batch, unrolled
from dh_kinematics.core.kinematics.dh_table import DHTable
from dh_kinematics.core.link import Link
from dh_kinematics.core.model_file import params as model_file
from dh_kinematics.core.model_file.parameter_file import node_parameters
from dh_kinematics.core.urdf import writer
import numpy as np


class Chain:
    """
    A serial arm of DH links sharing one convention.

    Parameters
    ----------
    links : sequence of Link
        At least one link; all standard or all modified DH.
    base : array-like, shape (4, 4), optional
        ``T_world_base``: pose of the base frame (frame 0) in the world. Identity by default.
    tool : array-like, shape (4, 4), optional
        ``T_last_tool``: pose of the tool frame in the last link frame. Identity by default.
    gravity : array-like, shape (3,)
        Gravitational acceleration in the world frame, m/s^2.
    name : str
        Robot name.
    world_frame : str
        Name of the world frame, the parent of the base transform on TF.
    base_frame : str
        Name of the frame the chain starts from (frame 0), as published on TF.
    link_frames : sequence of str, optional
        Names of the n link frames; ``link1`` ... ``linkn`` by default.
    tool_frame : str
        Name of the tool frame.
    payload : Payload, optional
        A payload fixed to the tool frame (:mod:`core.dynamics.payload`), in the dynamics only.
    frames : sequence of FixedFrame, optional
        Extra fixed frames (:mod:`core.fixed_frames`): ``base``, ``flange``, a camera...
    meshes : dict of str to Mesh, optional
        Visual and collision meshes by frame name (:mod:`core.meshes`), for the URDF.

    Notes
    -----
    The joint names (each link's ``name``, ``q1`` ... by default) and the frame names follow
    the rule of :mod:`core.names`, and no two frames or URDF joints the chain publishes share
    a name; an InvalidFieldError names the one that does not.

    """

    def __init__(self, links, base=None, tool=None, gravity=(0.0, 0.0, -9.81), name='',
                 base_frame='base_link', link_frames=None, tool_frame='tool0',
                 world_frame='world', payload=None, frames=(), meshes=None):
        links = tuple(links)
        if not links or not all(isinstance(link, Link) for link in links):
            raise InvalidFieldError('links', links, 'must be a non-empty sequence of Link')
        conventions = {link.convention for link in links}
        if len(conventions) > 1:
            raise InvalidFieldError('links', [link.convention for link in links],
                                    'must all use one DH convention, not a mix')
        self._links = links
        self._base = check_transform('base', np.eye(4) if base is None else base)
        self._tool = check_transform('tool', np.eye(4) if tool is None else tool)
        self._gravity = check_array('gravity', gravity, [(3,)])
        self._name = names.check_robot_name('name', name)
        if payload is not None and not isinstance(payload, Payload):
            raise InvalidFieldError('payload', payload, 'must be a Payload (check_payload)')
        self._payload = NO_PAYLOAD if payload is None else payload
        n = len(links)
        link_frames = [f'link{i + 1}' for i in range(n)] if link_frames is None else link_frames
        if not isinstance(link_frames, (list, tuple)) or len(link_frames) != n:
            raise InvalidFieldError('link_frames', link_frames, f'must name {n} frames, one per '
                                    'link')
        self._frames = tuple(
            [names.check_name('base_frame', base_frame, 'frame')]
            + [names.check_name(f'link_frames[{j}]', frame, 'frame')
               for j, frame in enumerate(link_frames)]
            + [names.check_name('tool_frame', tool_frame, 'frame'),
               names.check_name('world_frame', world_frame, 'frame')])
        self._joint_names = tuple(names.check_name(f'joint_names[{j}]', link.name or f'q{j + 1}',
                                                   'joint') for j, link in enumerate(links))
        self._extra = ()
        self._extra = fixed_frames.check_frames(
            list(frames), [name.name for name in names.published_frames(self)])
        names.check_published(self)
        self._meshes = link_meshes.check_meshes(
            {} if meshes is None else meshes,
            self._frames[:-1] + tuple(frame.name for frame in self._extra))
        for array in (self._base, self._tool, self._gravity):
            array.flags.writeable = False
        self._precompute()

    def _precompute(self):
        links = self._links
        self._table = DHTable(links)
        self._unrolled = unrolled.Unrolled(self._table, self._base, self._tool)
        self._batch = batch.BatchKinematics(self._unrolled)
        self._base_rows = self._base[:3].tolist()
        self._lower = np.array([-np.inf if lk.qlim is None else lk.qlim[0] for lk in links])
        self._upper = np.array([np.inf if lk.qlim is None else lk.qlim[1] for lk in links])
        self._qlim = np.stack([self._lower, self._upper], axis=1)
        self._qlim.flags.writeable = False
        self._dynamics = equations.dynamics(links, self._table, self._base, self._gravity,
                                            self._payload, self._tool)
        self._ik = self._centres = None  # built on first use

    # Attributes -------------------------------------------------------------------------

    n = property(lambda self: len(self._links), doc='Number of joints.')
    links = property(lambda self: self._links, doc='The links, a tuple.')
    base = property(lambda self: self._base, doc='T_world_base, shape (4, 4).')
    tool = property(lambda self: self._tool, doc='T_last_tool, shape (4, 4).')
    gravity = property(lambda self: self._gravity, doc='Gravity in the world frame, m/s^2.')
    name = property(lambda self: self._name, doc='Robot name.')
    payload = property(lambda self: self._payload, doc='The payload at the tool (Payload).')
    dynamic_constants = property(lambda self: self._dynamics,
                                 doc='The constants of the dynamics '
                                 '(core.dynamics.equations.Dynamics).')
    mdh = property(lambda self: self._links[0].mdh, doc='True for modified DH.')
    joint_names = property(lambda self: self._joint_names, doc='Joint names, a tuple.')
    base_frame = property(lambda self: self._frames[0], doc='Name of frame 0.')
    link_frames = property(lambda self: self._frames[1:-2], doc='Names of the n link frames.')
    tool_frame = property(lambda self: self._frames[-2], doc='Name of the tool frame.')
    world_frame = property(lambda self: self._frames[-1], doc='Name of the world frame.')
    frames = property(lambda self: self._extra, doc='The extra fixed frames (FixedFrame), '
                      'parents first.')
    meshes = property(lambda self: dict(self._meshes), doc='Meshes by frame name (Mesh).')
    qlim = property(lambda self: self._qlim, doc='Joint limits, shape (n, 2): lower, upper '
                    'in rad or m; -inf and inf where a joint has none.')

    def __str__(self):
        return display.chain_table(self)

    def __repr__(self):
        return f'Chain(name={self._name!r}, n={self.n}, mdh={self.mdh})'

    def replace(self, **fields):
        """
        Return a copy with some of the constructor's arguments changed, checked as they are.

        Parameters
        ----------
        **fields
            Any of ``links``, ``base``, ``tool``, ``gravity``, ``name``, ``base_frame``,
            ``link_frames``, ``tool_frame``, ``world_frame``, ``payload``, ``frames`` and
            ``meshes``, as :class:`Chain` takes them.

        Examples
        --------
        >>> from dh_kinematics import Chain, Link
        >>> arm = Chain([Link(a=1.0, name='shoulder'), Link(a=0.5, name='elbow')])
        >>> arm.replace(name='left_arm', tool_frame='gripper').tool_frame
        'gripper'

        """
        arguments = {'links': self._links, 'base': self._base, 'tool': self._tool,
                     'gravity': self._gravity, 'name': self._name,
                     'base_frame': self.base_frame, 'link_frames': self.link_frames,
                     'tool_frame': self.tool_frame, 'world_frame': self.world_frame,
                     'payload': self._payload, 'frames': self._extra, 'meshes': self._meshes}
        for field, value in fields.items():
            if field not in arguments:
                raise InvalidFieldError(field, value, 'is not a Chain argument; choose from '
                                        + ', '.join(arguments))
        arguments.update(fields)
        return Chain(**arguments)

    def random_q(self, count, rng):
        """
        Return ``count`` configurations drawn uniformly within the joint limits.

        A joint without limits ranges over +-pi rad (revolute) or +-1 m (prismatic); ``rng``
        is a :class:`numpy.random.Generator`. Shape (count, n), rad or m.
        """
        return configurations.uniform(self, count, rng)

    def nofriction(self, coulomb=True, viscous=False):
        """Return a copy with Coulomb (default) and/or viscous friction removed."""
        return self.replace(links=[link.nofriction(coulomb, viscous) for link in self._links])

    def with_payload(self, mass=0.0, com=(0.0, 0.0, 0.0), inertia=(0.0, 0.0, 0.0)):
        """Return a copy carrying this payload (kg; m in the tool frame; kg m^2)."""
        return self.replace(payload=check_payload(mass, com, inertia))

    @classmethod
    def from_params(cls, params):
        """Build a chain from a ``ros__parameters`` dict (layout: :mod:`.model_file.params`)."""
        arguments = model_file.chain_arguments(params)
        with model_file.file_fields():
            return cls(**arguments)

    @classmethod
    def from_yaml(cls, path, node_name=None):
        """Build a chain from a parameter file: ``node_name``'s block, or ``/**``, or the only."""
        with model_file.in_file(path):
            return cls.from_params(node_parameters(path, node_name))

    def to_params(self):
        """Return the ``ros__parameters`` dict (plain Python) that :meth:`from_params` reads."""
        return model_file.to_params(self)

    def to_yaml(self, path=None):
        """Return the model as a parameter file (text, ``/**``); write it to ``path`` if given."""
        return model_file.to_yaml(self, path)

    def to_modified(self):
        """Return the same arm in modified DH (:mod:`.kinematics.conventions`); or itself."""
        return conventions.converted(self, 'modified')

    def to_standard(self):
        """Return the same arm in standard DH (:mod:`.kinematics.conventions`); or itself."""
        return conventions.converted(self, 'standard')

    def to_urdf(self, prefix='', path=None, xacro=False, control=None):
        """
        Return the URDF, or a xacro macro (text; :mod:`.urdf.writer`); write it to ``path``.

        ``control``: a :data:`~.urdf.ros2_control.Hardware` adds its ``<ros2_control>`` block.
        """
        return writer.to_urdf(self, prefix, path, xacro, control)

    # Kinematics -------------------------------------------------------------------------

    def link_transforms(self, q):
        """
        Each link's own transform A_i(q_i), as published on TF.

        Returns
        -------
        T_prev_link : array, shape (n, 4, 4) or (m, n, 4, 4)

        """
        q, single = check_joint_array('q', q, self.n)
        if len(q) >= batch.MIN_BATCH:
            return self._batch.transforms(q)
        A = self._table.transforms(q)
        return A[0] if single else A

    def link_poses(self, q):
        """
        Each link's own transform for one configuration, as a translation and a quaternion.

        Returns
        -------
        poses : array, shape (n, 7)
            Per link [x, y, z, qx, qy, qz, qw]: the translation of :meth:`link_transforms` in
            m and its rotation as a unit quaternion (ROS order, qw >= 0).

        """
        q, single = check_joint_array('q', q, self.n)
        if not single:
            raise ValueError(f'q: one configuration of shape ({self.n},) expected, '
                             f'got shape {q.shape}')
        return np.array(self._table.poses(range(self.n), q[0].tolist())).reshape(self.n, 7)

    def _fkine_all(self, q):
        if len(q) >= batch.MIN_BATCH:
            return self._batch.frame_poses(q)
        return self._table.frame_poses(q, self._base, self._base_rows)

    def fkine_all(self, q):
        """
        Poses of frame 0 to n in the world: [base, base A1, ..., base A1...An], no tool.

        Returns
        -------
        T_world_frames : array, shape (n+1, 4, 4) or (m, n+1, 4, 4)

        """
        q, single = check_joint_array('q', q, self.n)
        T = self._fkine_all(q)
        return T[0] if single else T

    def fkine(self, q):
        """
        Pose of the tool in the world: base A1...An tool.

        Returns
        -------
        T_world_tool : array, shape (4, 4) or (m, 4, 4)

        Examples
        --------
        A planar arm of two links, 1 m and 0.5 m, with the elbow at 90 degrees:

        >>> from dh_kinematics import Chain, Link
        >>> arm = Chain([Link(a=1.0, m=2.0, r=[-0.5, 0, 0], name='shoulder'),
        ...              Link(a=0.5, m=1.0, r=[-0.25, 0, 0], name='elbow')])
        >>> T = arm.fkine([0.0, 1.5707963267948966])
        >>> T[:3, 3].round(6)
        array([1. , 0.5, 0. ])

        """
        q, single = check_joint_array('q', q, self.n)
        if single:
            T = np.empty(16)
            T[:12], T[12:] = self._unrolled.tool_pose(q[0].tolist()), (0.0, 0.0, 0.0, 1.0)
            return T.reshape(4, 4)
        if len(q) >= batch.MIN_BATCH:
            return self._batch.tool_poses(q)
        return self._fkine_all(q)[:, -1] @ self._tool

    def jacobian_function(self):
        """
        Return :meth:`jacob0` of one configuration as a function compiled for this arm.

        ``jacobian(q)`` takes a list of n floats (rad or m), which it does not check, and
        returns the 6 n entries of [v; w], row-major: for a caller that checks its
        configurations once and asks per message (the node's monitors).
        """
        return self._unrolled.jacobian_function()

    def batch_kinematics(self):
        """
        Return the arm's compiled kinematics for batches (:class:`batch.BatchKinematics`).

        Tool poses, frame poses and Jacobians of many configurations at once, compiled into the
        arm's one cache of compiled functions (shared with :meth:`jacobian_function`).
        """
        return self._batch

    def points_function(self, links, offsets):
        """
        Return ``points(q)``: points fixed on link frames and their Jacobians, compiled.

        ``links`` (0, the base, to n) and ``offsets`` (3 floats each, m, in those frames) place
        k points. ``points(q)`` takes a list of n floats (rad or m), which it does not check,
        and returns per point its position in the world (3), its link frame's rotation
        ``R_world_link`` (9) and its geometric Jacobian [v; w] (6 n), all row-major: the same
        source as :meth:`jacob0`'s.
        """
        return self._unrolled.points_function(links, offsets)

    def jacob0(self, q):
        """
        Geometric Jacobian [v; w] of the tool point, in the world frame.

        Returns
        -------
        J : array, shape (6, n) or (m, 6, n)
            Rows: linear velocity (m/s) then angular velocity (rad/s) per unit joint rate.

        Examples
        --------
        >>> from dh_kinematics import Chain, Link
        >>> arm = Chain([Link(a=1.0, m=2.0, r=[-0.5, 0, 0], name='shoulder'),
        ...              Link(a=0.5, m=1.0, r=[-0.25, 0, 0], name='elbow')])
        >>> arm.jacob0([0.0, 1.5707963267948966]).round(6)
        array([[-0.5, -0.5],
               [ 1. ,  0. ],
               [ 0. ,  0. ],
               [ 0. ,  0. ],
               [ 0. ,  0. ],
               [ 1. ,  1. ]])

        """
        q, single = check_joint_array('q', q, self.n)
        if single:
            return np.array(self._unrolled.jacobian(q[0].tolist())).reshape(6, self.n)
        return self._batch.jacobians(q)  # unrolled.point_jacobian: the one source

    def jacobe(self, q):
        """Geometric Jacobian [v; w] of the tool point in the tool frame, as :meth:`jacob0`."""
        q, single = check_joint_array('q', q, self.n)
        J, T_world_tool = self._batch.jacobians(q), self._batch.tool_poses(q)
        R_tool_world = T_world_tool[:, :3, :3].transpose(0, 2, 1)
        J = np.concatenate([R_tool_world @ J[:, :3], R_tool_world @ J[:, 3:]], axis=1)
        return J[0] if single else J

    def ikine(self, T, q0=None, mask=None, method='auto', all_solutions=False,
              tol=inverse_kinematics.TOLERANCE, restarts=inverse_kinematics.RESTARTS,
              max_iterations=inverse_kinematics.MAX_ITERATIONS, seed=0, free_axis=None):
        """
        Inverse kinematics: joint values within the limits that put the tool at ``T``.

        A closed form gives every solution where the table allows one (a spherical wrist, or
        three parallel axes as Universal Robots; either convention, any offsets, flips, base
        and tool); elsewhere a damped least-squares search runs from ``q0``, then from
        ``restarts`` random configurations within the limits (seeded). See
        :mod:`core.ik.ikine`.

        Parameters
        ----------
        T : array-like, shape (4, 4) or (m, 4, 4)
            ``T_world_tool``: the target pose of the tool in the world, or a batch of them.
        q0 : array-like, shape (n,) or (m, n), optional
            Where to start, and which solution to prefer (the nearest); 0 within the limits
            by default.
        mask : array-like, shape (6,), optional
            Weights of the error components [x y z rx ry rz] in the world frame; a 0 leaves
            that component free: ``[1, 1, 1, 0, 0, 0]`` asks for the position only (an arm of
            fewer than 6 joints), ``[0, 0, 0, 1, 1, 1]`` the orientation only. The weights
            trade metres against radians in the search (``[1, 1, 1, 0.1, 0.1, 0.1]``: a
            radian counts as 0.1 m, as pick_ik's rotation scale); a solution still holds
            ``tol`` in every kept component. A mask that drops a component rules the closed
            forms out.
        method : {'auto', 'analytic', 'numerical'}
            'auto' takes the closed form where there is one; 'analytic' refuses an arm
            without one.
        all_solutions : bool
            Numerical search: run every restart and keep every distinct solution, rather
            than stop at the first (a closed form always gives them all).
        tol : float
            Largest position error (m) and orientation error (rad) of a solution.
        restarts, max_iterations : int
            Random starts after ``q0``, and iterations per start.
        seed : int
            Seed of the random starts.
        free_axis : {None, 'x', 'y', 'z'}
            A tool axis the rotation about which is free (a torch, a suction cup, a drill:
            a 5-dof task): the tool's axis is put along the target's, at the target's
            position, turned about it as the arm allows. The orientation error is then the
            angle between the two axes. With a closed form, the solution is the one nearest
            ``q0`` over the whole family of turns (:mod:`core.ik.family`); elsewhere the
            numerical search's from ``q0``. The mask's three rotation weights must be equal.

        Returns
        -------
        result : IKResult or list of IKResult
            One per target (:class:`core.ik.result.IKResult`): ``q``, ``success``,
            ``position_error``, ``orientation_error``, ``iterations``, ``solutions``,
            ``method`` and ``note``.

        Examples
        --------
        The position of a planar arm's tool (two joints: the orientation left free):

        >>> from dh_kinematics import Chain, Link
        >>> arm = Chain([Link(a=1.0, m=2.0, r=[-0.5, 0, 0], name='shoulder'),
        ...              Link(a=0.5, m=1.0, r=[-0.25, 0, 0], name='elbow')])
        >>> result = arm.ikine(arm.fkine([0.0, 1.2]), mask=[1, 1, 1, 0, 0, 0])
        >>> result.success, result.method
        (True, 'numerical')
        >>> result.q.round(6) + 0.0
        array([0. , 1.2])

        """
        if self._ik is None:
            self._ik = inverse_kinematics.InverseKinematics(self)
        return self._ik.solve(T, q0, mask, method, all_solutions, tol, restarts, max_iterations,
                              seed, free_axis)

    # Limits and friction ----------------------------------------------------------------

    def cartesian_path(self, q_start, poses, max_step=0.001, max_angle_step=0.01,
                       max_deviation=1e-4, max_angle_deviation=1e-3, mask=None, free_axis=None,
                       velocity_limits=None, acceleration_limits=None, tool_speed=None,
                       tol=inverse_kinematics.TOLERANCE):
        """
        Straight lines of the tool from ``q_start`` through waypoints, on one branch, timed.

        Each line (position linear, orientation by slerp) is cut into steps of at most
        ``max_step`` (m) and ``max_angle_step`` (rad); each step is solved from the last one's
        joint values; the pose halfway between two steps (the joints moving linearly) must be
        within ``max_deviation`` (m) and ``max_angle_deviation`` (rad) of the line, or the
        step is halved. The path stops where a step has no solution on the branch, and says
        why. The joint path is then timed within the joints' velocity and acceleration limits
        (and ``tool_speed``), at rest at each waypoint. See :mod:`core.ik.path`.

        Parameters
        ----------
        q_start : array-like, shape (n,)
            Where the arm is (rad or m), within the limits; the path starts at its pose.
        poses : array-like, shape (4, 4) or (m, 4, 4)
            The waypoints, ``T_world_tool``.
        max_step, max_angle_step : float
            The longest step along a line, m and rad.
        max_deviation, max_angle_deviation : float
            How far a step's midpoint may be from the line, m and rad.
        mask, free_axis :
            As :meth:`ikine`'s, for every step and midpoint.
        velocity_limits, acceleration_limits : array-like, shape (n,), optional
            Each joint's limits, rad/s or m/s and rad/s^2 or m/s^2; the links'
            ``velocity_limit`` and ``acceleration_limit`` (the smaller with a
            ``deceleration_limit``) by default: a joint without one is refused.
        tool_speed : float, optional
            The tool's largest speed, m/s.
        tol : float
            Each step's tolerance, m and rad.

        Returns
        -------
        path : CartesianPath
            ``q``, ``T``, ``waypoints``, ``fraction``, ``stop``, ``reason``, ``t`` and the
            ``trajectory`` (``sample(t)``: joint values, velocities, accelerations).

        Examples
        --------
        A planar arm's tool 0.2 m along x in a straight line (position only):

        >>> import numpy as np
        >>> from dh_kinematics import Chain, Link
        >>> arm = Chain([Link(a=1.0, qlim=[-3, 3]), Link(a=0.5, qlim=[0.1, 3])])
        >>> q = [0.0, 1.2]
        >>> goal = arm.fkine(q)
        >>> goal[0, 3] += 0.2
        >>> path = arm.cartesian_path(q, goal, mask=[1, 1, 1, 0, 0, 0], velocity_limits=[1, 1],
        ...                           acceleration_limits=[2, 2])
        >>> path.complete, path.fraction, len(path.q)
        (True, 1.0, 201)
        >>> bool(path.trajectory.duration > 0.0)
        True

        """
        return ik_path.cartesian_path(self, q_start, poses, max_step, max_angle_step,
                                      max_deviation, max_angle_deviation, mask, free_axis,
                                      velocity_limits, acceleration_limits, tool_speed, tol)

    def islimit(self, q):
        """Per joint: -1 below the lower limit, +1 above the upper one, else 0 (int array)."""
        q, single = check_joint_array('q', q, self.n)
        state = (q > self._upper).astype(int) - (q < self._lower).astype(int)
        return state[0] if single else state

    def friction(self, qd):
        """Joint friction torques (N m) or forces (N), opposing motion, shape of ``qd``."""
        qd, single = check_joint_array('qd', qd, self.n)
        tau = equations.friction(self._dynamics, qd)
        return tau[0] if single else tau

    # Dynamics ---------------------------------------------------------------------------

    def rne(self, q, qd=None, qdd=None, gravity=None, fext=None):
        """
        Joint torques for a motion: recursive Newton-Euler inverse dynamics.

        Parameters
        ----------
        q, qd, qdd : array-like, shape (n,) or (m, n)
            Joint positions (rad, m), velocities and accelerations; qd and qdd default to 0.
        gravity : array-like, shape (3,), optional
            Gravitational acceleration in the world frame (m/s^2); the chain's by default.
        fext : array-like, shape (6,) or (m, 6), optional
            Wrench [Fx Fy Fz Mx My Mz] (N, N m) that the last link frame exerts on the
            environment, in that frame, about its origin.

        Returns
        -------
        tau : array, shape (n,) or (m, n)
            Joint torques (N m) or forces (N):
            rigid-body torque + G^2 Jm qdd - friction(qd).

        Examples
        --------
        The torques that accelerate the stretched arm's shoulder at 1 rad/s^2 (its inertia about
        the shoulder axis, 2 x 0.5^2 + 1 x 1.25^2 kg m^2, and the elbow's share):

        >>> from dh_kinematics import Chain, Link
        >>> arm = Chain([Link(a=1.0, m=2.0, r=[-0.5, 0, 0], name='shoulder'),
        ...              Link(a=0.5, m=1.0, r=[-0.25, 0, 0], name='elbow')])
        >>> arm.rne([0.0, 0.0], qdd=[1.0, 0.0]).round(6)
        array([2.0625, 0.3125])

        """
        return equations.rne(self._dynamics, q, qd, qdd, gravity, fext)

    def gravload(self, q, gravity=None):
        """Joint torques (N m) or forces (N) that hold the arm still, shape (n,) or (m, n)."""
        return equations.rne(self._dynamics, q, gravity=gravity)

    def inertia(self, q):
        """
        Joint-space inertia matrix, including the reflected motor inertia G^2 Jm.

        ``M = sum_k (m_k J_v,k^T J_v,k + J_w,k^T R_k I_k R_k^T J_w,k) + diag(G^2 Jm)``, from the
        compiled Jacobian of each link's centre of mass (:meth:`points_function`; the payload
        folded into the last link): 39 µs a configuration on the Panda, against 499 µs for the
        toolbox's n Newton-Euler passes (:meth:`rne` with a unit acceleration per joint, which
        the tests keep as a truth beside pinocchio's ``crba``), 2026-11-28. From
        :data:`batch.MIN_BATCH` configurations the centres' Jacobians are numpy columns
        (:meth:`BatchKinematics.points`, the same source) and the sums are taken at once: 19
        to 21 µs a configuration in a block of 1000, against 87 to 134 one after the other, in
        a slower hour (2026-11-29).

        Returns
        -------
        M : array, shape (n, n) or (m, n, n)
            In kg m^2 (revolute) or kg (prismatic) rows and columns.

        """
        links, centres = range(1, self.n + 1), [link.r for link in self._dynamics.rne_links]
        if self._centres is None:
            self._centres = self.points_function(links, centres)

        def at(Q):  # per configuration and centre: its point, R_world_link and Jacobian
            if len(Q) >= batch.MIN_BATCH:
                return self._batch.points(links, centres, Q)
            return np.array([self._centres(each) for each in Q.tolist()])
        return equations.inertia(self._dynamics, q, at)
