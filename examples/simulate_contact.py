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
Simulate an arm that meets a contact, in pinocchio: what an external-torque estimate is tested on.

The arm is the model's URDF in pinocchio (``pip install pin``), its motors' ``G^2 Jm`` as
pinocchio's armature and the model's friction added to the joint torques; a joint whose motor
inertia is under 0.01 kg m^2 gets that much (:func:`with_motors`: a massless wrist leaves no
forward dynamics), and ``--truth`` writes that model. A PD controller, run every 0.1 ms and
compensating gravity and the model's friction at the wanted velocity, moves each joint through
the middle of its limits at 0.1 to 0.3 rad/s or m/s, never at rest (so that Coulomb friction
does not turn over). From ``--contact`` seconds on, an external torque acts: a step of
``--torque`` on ``--joint``, or a force ``--force FX FY FZ`` (N, world frame) at the tool point
(``tau_ext = J^T F``). Pinocchio's forward dynamics (``aba``) is integrated with RK4 at 10 kHz
and sampled at 1 kHz: positions through a 20-bit encoder, velocities and efforts (the motor
torques) with seeded noise. The log is a CSV of ``dh_kinematics identify``'s kind.

    python3 examples/simulate_contact.py config/panda.yaml -o contact.csv --joint panda_joint4
"""

import argparse
import math

from dh_kinematics import Chain
from dh_kinematics.logs import JointLog
from dh_kinematics.logs.csv_log import write
import numpy as np

ENCODER = 2.0 * math.pi / 2 ** 20
"""A 20-bit encoder's step, rad: positions are rounded to it."""
VELOCITY_NOISE, EFFORT_NOISE = 1e-4, 0.05
"""Standard deviations of the noise on velocities (rad/s or m/s) and efforts (N m or N)."""
BANDWIDTH = 50.0
"""The PD controller's natural frequency by default, rad/s (critically damped, per joint)."""


def with_motors(chain, least=0.01):
    """
    Return ``chain`` with each joint's ``G^2 Jm`` at least ``least`` (kg m^2 or kg).

    A joint about which nothing has inertia (a massless wrist) leaves the joint-space inertia
    singular, which forward dynamics cannot take; a real joint always has its motor's.
    """
    links = [link if link.G ** 2 * link.Jm >= least else link.replace(Jm=least / link.G ** 2)
             for link in chain.links]
    return chain.replace(links=links)


class Simulation:
    """
    The arm in pinocchio, and what acts on it.

    Parameters
    ----------
    chain : Chain
        The model.
    pin : module
        pinocchio.

    """

    def __init__(self, chain, pin):
        self.chain, self.pin = chain, pin
        self.model = pin.buildModelFromXML(chain.to_urdf())
        self.model.gravity.linear = np.asarray(chain.gravity, dtype=float)
        self.model.armature = np.asarray(chain.dynamic_constants.motor_inertia, dtype=float)
        self.data = self.model.createData()
        self.ids = [self.model.getJointId(name) for name in chain.joint_names]
        # A continuous joint has (cos, sin) in pinocchio: none here, the test arms have limits.
        assert self.model.nq == chain.n, 'every joint must have limits (no continuous joint)'

    def jacobian(self, q):
        """Return the tool point's Jacobian [v; w] in the world frame (pinocchio's), (6, n)."""
        pin, model, data = self.pin, self.model, self.data
        frame = model.getFrameId(self.chain.tool_frame)
        return pin.computeFrameJacobian(model, data, q, frame, pin.LOCAL_WORLD_ALIGNED)

    def acceleration(self, q, qd, tau):
        """Return qdd under joint torques ``tau``, the model's friction included."""
        friction = self.chain.friction(qd)
        return self.pin.aba(self.model, self.data, q, qd, tau + friction)

    def run(self, duration, contact_s, external, centre=None, speed=0.2, rate=1000.0,
            substeps=10, seed=1, bandwidth=BANDWIDTH):
        """
        Return ``(t, q, qd, effort, tau_ext)``: the samples, arrays of (m, n) but ``t``.

        ``external(q)`` is the external joint torque (n,) from ``contact_s`` on; ``tau_ext``
        holds the true one at each sample. The joints pass ``centre`` (the middle of their
        limits by default) half-way, at ``speed`` (rad/s or m/s) +- 50 %, under a PD
        controller of natural frequency ``bandwidth`` (rad/s): stiff, it takes a contact in
        the measured efforts at once; compliant, in the motion.
        """
        pin, n = self.pin, self.chain.n
        rng = np.random.default_rng(seed)
        dt = 1.0 / (rate * substeps)
        if centre is None:
            centre = np.asarray(self.chain.qlim, dtype=float).mean(axis=1)
        centre = np.asarray(centre, dtype=float)
        speed = speed * rng.choice([-1.0, 1.0], n)
        phase = rng.uniform(0.0, 2.0 * math.pi, n)
        inertia = np.diag(pin.crba(self.model, self.data, centre)).copy()
        kp, kd = inertia * bandwidth ** 2, inertia * 2.0 * bandwidth
        w = 2.0 * math.pi * 0.5

        def wanted(t):  # never at rest: no Coulomb friction turning over
            return (centre + speed * (t - 0.5 * duration - 0.5 / w * (
                np.cos(w * t + phase) - np.cos(phase))),
                speed * (1.0 + 0.5 * np.sin(w * t + phase)))

        def control(t, q, qd):
            target, rate_target = wanted(t)
            gravity = pin.computeGeneralizedGravity(self.model, self.data, q)
            friction = self.chain.friction(rate_target)
            return gravity - friction + kp * (target - q) + kd * (rate_target - qd)

        q, qd = wanted(0.0)
        samples = []
        steps = int(round(duration * rate * substeps))
        for step in range(steps + 1):
            t = step * dt
            tau = control(t, q, qd)
            ext = external(q) if t >= contact_s - 0.5 * dt else np.zeros(n)
            if step % substeps == 0:
                samples.append((t, q.copy(), qd.copy(), tau.copy(), ext.copy()))
            if step == steps:
                break
            # RK4 with the torques held over the step
            k1q, k1v = qd, self.acceleration(q, qd, tau + ext)
            k2q = qd + 0.5 * dt * k1v
            k2v = self.acceleration(q + 0.5 * dt * k1q, k2q, tau + ext)
            k3q = qd + 0.5 * dt * k2v
            k3v = self.acceleration(q + 0.5 * dt * k2q, k3q, tau + ext)
            k4q = qd + dt * k3v
            k4v = self.acceleration(q + dt * k3q, k4q, tau + ext)
            q = q + dt / 6.0 * (k1q + 2.0 * k2q + 2.0 * k3q + k4q)
            qd = qd + dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v)
        t, q, qd, tau, ext = (np.array(column) for column in zip(*samples))
        q = np.round(q / ENCODER) * ENCODER
        qd = qd + rng.normal(0.0, VELOCITY_NOISE, qd.shape)
        tau = tau + rng.normal(0.0, EFFORT_NOISE, tau.shape)
        return t, q, qd, tau, ext


def step_on(n, joint, torque):
    """Return ``external(q)``: ``torque`` (N m or N) on joint index ``joint``."""
    value = np.zeros(n)
    value[joint] = torque
    return lambda q: value


def force_at_tool(simulation, force):
    """Return ``external(q)``: the joint torques of ``force`` (N, world frame) at the tool."""
    wrench = np.concatenate([np.asarray(force, dtype=float), np.zeros(3)])
    return lambda q: simulation.jacobian(q).T @ wrench


def main(argv=None):
    import pinocchio

    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('model', help='the model file')
    parser.add_argument('-o', '--output', required=True, help='the log (CSV) to write')
    parser.add_argument('--duration', type=float, default=1.0, help='s (default: 1)')
    parser.add_argument('--contact', type=float, default=0.5, help='s (default: 0.5)')
    parser.add_argument('--joint', help='the joint the torque acts on (default: the last)')
    parser.add_argument('--torque', type=float, default=10.0, help='N m or N (default: 10)')
    parser.add_argument('--force', type=float, nargs=3, help='N at the tool, world frame')
    parser.add_argument('--seed', type=int, default=1, help='the motion and the noise')
    parser.add_argument('--truth', metavar='YAML', help='also write the simulated arm')
    args = parser.parse_args(argv)
    chain = with_motors(Chain.from_yaml(args.model))
    simulation = Simulation(chain, pinocchio)
    if args.force:
        external = force_at_tool(simulation, args.force)
    else:
        joint = chain.joint_names.index(args.joint) if args.joint else chain.n - 1
        external = step_on(chain.n, joint, args.torque)
    t, q, qd, effort, _ = simulation.run(args.duration, args.contact, external, seed=args.seed)
    write(args.output, JointLog(chain.joint_names, t, q, qd, effort))
    if args.truth:
        chain.to_yaml(args.truth)
    print(f'wrote {args.output}: {len(t)} samples, contact from {args.contact} s')


if __name__ == '__main__':
    main()
