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
The inverse kinematics solvers ``bench_ik.py`` compares, each behind one call.

Every solver is built from the arm's URDF by its own loader where it has one
(roboticstoolbox-python's ``URDF_read``, TRAC-IK's urdfdom), or from the URDF's joints as
``kdl_parser`` builds a KDL chain, or (EAIK) from the joint axes at q = 0. A solver is made for
an arm and a tolerance and answers ``solve(T, q0)`` with a configuration or None; the caller
checks every answer with this package's forward kinematics. A solver whose package is missing
is left out, and the table says so.
"""

import math
import pathlib
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

from dh_kinematics.core.rotations import rotation_to_quaternion
import numpy as np

# Debian's python3-pykdl installs here, for the distribution's Python 3.
DEBIAN_PYTHON = '/usr/lib/python3/dist-packages'


def versions():
    """Return {solver package: version} of the packages found."""
    from importlib import metadata
    found = {}
    for name in ('roboticstoolbox-python', 'pytracik', 'eaik', 'numpy'):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    kdl = _kdl()
    if kdl is not None:
        found['python3-pykdl'] = getattr(kdl, '__version__', None) or _debian_version(
            'python3-pykdl')
    return found


def _debian_version(package):
    status = pathlib.Path('/var/lib/dpkg/status')
    if not status.exists():
        return 'unknown'
    match = re.search(rf'Package: {package}\n(?:.*\n)*?Version: (\S+)', status.read_text())
    return match.group(1) if match else 'unknown'


def _kdl():
    if DEBIAN_PYTHON not in sys.path and pathlib.Path(DEBIAN_PYTHON).exists():
        sys.path.append(DEBIAN_PYTHON)
    try:
        import PyKDL
    except ImportError:
        return None
    return PyKDL


def stripped(urdf):
    """Return the URDF without visual and collision elements (no meshes to resolve)."""
    return re.sub(r'<(visual|collision)\b.*?</\1>', '', urdf, flags=re.S)


class Toolbox:
    """roboticstoolbox-python's C++ ``ik_LM`` on the ETS its URDF loader builds."""

    name = 'ik_LM (C++)'

    def __init__(self, urdf, base, tip, tol):
        from roboticstoolbox.models.URDF.URDFRobot import URDF_read
        import roboticstoolbox as rtb
        with tempfile.TemporaryDirectory() as folder:
            path = pathlib.Path(folder) / 'arm.urdf'
            path.write_text(urdf)
            links, name, _ = URDF_read(str(path), patch=stripped)
        robot = rtb.Robot(links, name=name)
        # A link's ETS holds the joint into it: start at base's child on the way to tip, so
        # that a joint into base (Fetch's torso lift) stays out.
        first = robot.link_dict[tip]
        while first.parent.name != base:
            first = first.parent
        # Its joints keep the robot's indices (Baxter's right arm: 1 to 7), which ik_LM reads
        # q with: number them from 0, as the chain's.
        elements, k = [], 0
        for element in robot.ets(start=first, end=tip):
            if element.isjoint:
                element.jindex, k = k, k + 1
            elements.append(element)
        self.ets = rtb.ETS(elements)
        """The ETS from base to tip: ``ets.ik_LM(T, q0=...)``."""
        # ik_LM's tol bounds E = 0.5 e^T e: |e| <= tol in position and angle together.
        self._tol = 0.5 * tol * tol

    def solve(self, T, q0):
        solution = self.ets.ik_LM(T, q0=q0, ilimit=30, slimit=100, tol=self._tol,
                                  joint_limits=True)
        return solution.q if solution.success else None


class TracIK:
    """TRAC-IK (``pytracik``), Speed mode, with its timeout."""

    name = 'TRAC-IK'

    def __init__(self, urdf, base, tip, tol, timeout=0.005):
        import pytracik
        self._ik = pytracik.ik
        self._solver = pytracik.TRAC_IK(base, tip, stripped(urdf), timeout, tol,
                                        pytracik.SolveType.Speed)

    def solve(self, T, q0):
        qx, qy, qz, qw = rotation_to_quaternion(T[:3, :3])
        answer = self._ik(self._solver, q0, T[0, 3], T[1, 3], T[2, 3], qx, qy, qz, qw)
        return answer[1:] if answer[0] >= 0 else None


class KDL:
    """KDL's ``ChainIkSolverPos_LMA`` or ``ChainIkSolverPos_NR_JL`` from the seed alone."""

    def __init__(self, urdf, base, tip, tol, kind):
        kdl = self._kdl = _kdl()
        self.name = f'KDL {kind}'
        self._chain, lower, upper = kdl_chain(kdl, urdf, base, tip)
        n = self._chain.getNrOfJoints()
        self._q0, self._q = kdl.JntArray(n), kdl.JntArray(n)
        if kind == 'LMA':
            # Its error weights rotation by 0.01 (its default L; giving L from numpy 2 crashes
            # Debian's build): eps = tol / 100 bounds the angle by tol too.
            self._solver = kdl.ChainIkSolverPos_LMA(self._chain, eps=0.01 * tol, maxiter=500)
        else:
            q_min, q_max = kdl.JntArray(n), kdl.JntArray(n)
            for j in range(n):
                q_min[j], q_max[j] = lower[j], upper[j]
            self._fk = kdl.ChainFkSolverPos_recursive(self._chain)
            self._vel = kdl.ChainIkSolverVel_pinv(self._chain)
            self._solver = kdl.ChainIkSolverPos_NR_JL(self._chain, q_min, q_max, self._fk,
                                                      self._vel, maxiter=100, eps=tol)

    def solve(self, T, q0):
        kdl = self._kdl
        for j, value in enumerate(q0):
            self._q0[j] = value
        frame = kdl.Frame(kdl.Rotation(*T[:3, :3].ravel()), kdl.Vector(*T[:3, 3]))
        if self._solver.CartToJnt(self._q0, frame, self._q) < 0:
            return None
        return np.array([self._q[j] for j in range(self._q.rows())])


def kdl_chain(kdl, urdf, base, tip):
    """
    Return the KDL chain from ``base`` to ``tip`` as kdl_parser builds it, and the limits.

    Each joint rotates (or slides) about its axis, turned into the parent's frame, through its
    origin; the segment ends at the joint's origin frame.
    """
    joints = {joint.find('child').get('link'): joint  # the robot's, not a transmission's
              for joint in ET.fromstring(urdf).findall('joint')}
    path, link = [], tip
    while link != base:
        path.append(joints[link])
        link = joints[link].find('parent').get('link')
    chain, lower, upper = kdl.Chain(), [], []
    for joint in reversed(path):
        origin = joint.find('origin')
        xyz = [float(v) for v in (origin.get('xyz', '0 0 0') if origin is not None
                                  else '0 0 0').split()]
        rpy = [float(v) for v in (origin.get('rpy', '0 0 0') if origin is not None
                                  else '0 0 0').split()]
        frame = kdl.Frame(kdl.Rotation.RPY(*rpy), kdl.Vector(*xyz))
        kind = joint.get('type')
        if kind == 'fixed':
            chain.addSegment(kdl.Segment(joint.get('name'), kdl.Joint(kdl.Joint.Fixed), frame))
            continue
        axis_element = joint.find('axis')
        axis = kdl.Vector(*[float(v) for v in (axis_element.get('xyz') if axis_element is not None
                                               else '1 0 0').split()])
        motion = kdl.Joint.TransAxis if kind == 'prismatic' else kdl.Joint.RotAxis
        chain.addSegment(kdl.Segment(joint.get('name'), kdl.Joint(
            joint.get('name'), frame.p, frame.M * axis, motion), frame))
        limit = joint.find('limit')
        bounded = kind != 'continuous' and limit is not None
        lower.append(float(limit.get('lower')) if bounded else -math.pi)
        upper.append(float(limit.get('upper')) if bounded else math.pi)
    return chain, lower, upper


class EAIK:
    """
    EAIK's closed forms (``eaik``), from the joint axes and points at q = 0.

    Its pose is the tool's position and its rotation relative to the tool's at q = 0 (the
    product of exponentials with ``R6T = I``); :meth:`target` turns a tool pose into it.
    Every solution it returns is a candidate; the first within the limits and the tolerance
    counts.
    """

    name = 'EAIK'

    def __init__(self, chain, tol):
        from eaik.IK_HP import HPRobot
        q = np.zeros(chain.n)
        frames, J = chain.fkine_all(q), chain.jacob0(q)
        axes_frames = frames[1:] if chain.mdh else frames[:-1]
        points = [frame[:3, 3] for frame in axes_frames] + [chain.fkine(q)[:3, 3]]
        P = np.diff(np.vstack([np.zeros(3)] + points), axis=0)
        self._robot = HPRobot(J[3:].T.copy(), P)
        self._R_tool_zero = chain.fkine(q)[:3, :3]
        self._chain, self._tol = chain, tol
        self.fits = bool(self._robot.hasKnownDecomposition()) and not any(
            link.isprismatic() for link in chain.links)

    def target(self, T):
        """Return EAIK's pose for the tool pose T."""
        pose = T.copy()
        pose[:3, :3] = T[:3, :3] @ self._R_tool_zero.T
        return pose

    def solve_all(self, pose):
        """Return every solution EAIK gives for its pose (k, n), least-squares ones left out."""
        solution = self._robot.IK(pose)
        Q = np.asarray(solution.Q)
        return Q[~np.asarray(solution.is_LS, dtype=bool)] if len(Q) else Q
