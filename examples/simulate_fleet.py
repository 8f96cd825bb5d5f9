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
Simulate a fleet's daily logs: what ``dh_kinematics health`` is tested and shown on.

Each arm gets friction on every joint (seeded, at the joint: viscous 0.1 to 0.5 N m s/rad,
Coulomb 0.2 to 0.6 N m each way, or N s/m and N) and a model file of it, with the contact
thresholds ``effort.warn`` and ``effort.error``; then a log a day
(:func:`examples.simulate_free_motion.free_motion`: the same task every day, noise of its
own), the efforts those of the arm as it is that day.
What can happen to a day's log:

- ``grow``: one joint's viscous and Coulomb friction grow by a fraction a log from a log on
  (the model file keeps the first day's: the drift ``health`` must find);
- ``pushes``: a force on the tool for half a second (the motors hold the motion: their torques
  less ``J^T F``);
- ``cut``: the file ends in the middle of a line, as a recorder killed while writing.

    python3 examples/simulate_fleet.py fleet --arms config/panda.yaml config/ur5.yaml --logs 12
"""

import argparse
import dataclasses
import importlib.util
import pathlib

from dh_kinematics import Chain
from dh_kinematics.logs.csv_log import write
import numpy as np
import yaml

START = 1.79e9
"""The first day's first stamp, s (December 2026)."""
DAY = 86400.0
"""The time between two logs of an arm, s."""
PUSH_S = 0.5
"""How long a push lasts, s."""
THRESHOLDS = {'effort.warn': [3.0], 'effort.error': [6.0]}
"""The contact thresholds the model files set, N m or N."""


def _free_motion():
    """Return :func:`free_motion` of the example beside this one."""
    path = pathlib.Path(__file__).with_name('simulate_free_motion.py')
    spec = importlib.util.spec_from_file_location('simulate_free_motion', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.free_motion


@dataclasses.dataclass(frozen=True)
class Push:
    """A force ``force`` (N, world frame) on the tool of ``arm``'s log ``log``, from ``at`` s."""

    arm: int
    log: int
    at: float
    force: tuple


def with_friction(chain, seed):
    """Return ``chain`` with seeded friction on every joint (the module's docstring)."""
    rng = np.random.default_rng(seed)
    return chain.replace(links=[link.replace(  # the model's values are the motor's
        B=float(rng.uniform(0.1, 0.5)) / link.G ** 2,
        Tc=[float(rng.uniform(0.2, 0.6)) / abs(link.G), -float(rng.uniform(0.2, 0.6)) / abs(
            link.G)]) for link in chain.links])


def grown(chain, joint, factor):
    """Return ``chain`` with joint ``joint``'s viscous and Coulomb friction times ``factor``."""
    links = list(chain.links)
    link = links[joint]
    links[joint] = link.replace(B=link.B * factor, Tc=[v * factor for v in link.Tc])
    return chain.replace(links=links)


def model_text(chain):
    """Return ``chain``'s model file with the contact thresholds (:data:`THRESHOLDS`)."""
    document = yaml.safe_load(chain.to_yaml())
    document['/**']['ros__parameters'].update(THRESHOLDS)
    return yaml.safe_dump(document, sort_keys=False)


def day_log(chain, day, seconds, rate, seed, dynamics=None, push=None):
    """
    Return one day's :class:`JointLog` of ``chain``: the task of ``seed``, noise of ``day``.

    ``dynamics(chain)`` returns the efforts function of :func:`free_motion` (the model's
    inverse dynamics where None); ``push`` a :class:`Push` to add.
    """
    log = _free_motion()(chain, seconds, seed * 1000 + day, rate=rate, motion=seed,
                         dynamics=None if dynamics is None else dynamics(chain))
    time = log.time - log.time[0] + START + day * DAY
    effort = log.effort
    if push is not None:
        on = (time - time[0] >= push.at) & (time - time[0] < push.at + PUSH_S)
        force = np.concatenate([push.force, np.zeros(3)])
        jacobians = chain.jacob0(log.position[on])
        effort = effort.copy()
        effort[on] -= np.einsum('kij,i->kj', jacobians, force)
    return dataclasses.replace(log, time=time, effort=effort, source=f'day {day}')


def fleet(folder, arms, logs, seconds=60.0, rate=500.0, grow=None, pushes=(), cut=None,
          dynamics=None):
    """
    Write a fleet's model files and logs into ``folder``; return the arms as simulated.

    Parameters
    ----------
    folder : path
        Gets ``<arm>.yaml`` per arm and ``<arm>/day-NN.csv`` per log.
    arms : sequence of (str, Chain)
        Each arm's name and model (its friction is replaced: :func:`with_friction`).
    logs : int
        Logs per arm, a day apart.
    seconds, rate : float
        Each log's length (s) and rate (Hz).
    grow : tuple, optional
        ``(arm, joint, first_log, fraction)``: from log ``first_log`` (0 is the first) on,
        that joint's friction is ``(1 + fraction) ** (log - first_log + 1)`` times the first.
    pushes : sequence of Push
        Forces on the tool.
    cut : tuple, optional
        ``(arm, log)``: that file is cut in the middle of a line past its middle.
    dynamics : callable, optional
        ``dynamics(chain)``: the efforts of the motion (``free_motion``'s ``dynamics``).

    Returns
    -------
    truth : dict
        ``(arm, log)`` to the chain each log was simulated with.

    """
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    truth = {}
    for a, (name, chain) in enumerate(arms):
        chain = with_friction(chain, a + 1)
        (folder / f'{name}.yaml').write_text(model_text(chain))
        (folder / name).mkdir(exist_ok=True)
        for day in range(logs):
            today = chain
            if grow is not None and grow[0] == a and day >= grow[2]:
                today = grown(chain, grow[1], (1.0 + grow[3]) ** (day - grow[2] + 1))
            truth[a, day] = today
            push = next((p for p in pushes if (p.arm, p.log) == (a, day)), None)
            log = day_log(today, day, seconds, rate, a + 1, dynamics, push)
            path = folder / name / f'day-{day + 1:02d}.csv'
            write(path, log)
            if cut == (a, day):
                data = path.read_bytes()
                end = data.index(b'\n', len(data) // 2) + len(data) // 200
                path.write_bytes(data[:end])
    return truth


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('folder', help='the folder to write')
    parser.add_argument('--arms', nargs='+', required=True, metavar='MODEL',
                        help='model files (the shipped config/*.yaml)')
    parser.add_argument('--logs', type=int, default=12, help='logs per arm (default: 12)')
    parser.add_argument('--seconds', type=float, default=60.0, help='s a log (default: 60)')
    parser.add_argument('--rate', type=float, default=500.0, help='Hz (default: 500)')
    args = parser.parse_args(argv)
    arms = [(pathlib.Path(path).stem, Chain.from_yaml(path)) for path in args.arms]
    grows, pushed = min(5, args.logs - 1), min(4, args.logs - 1)
    pushes = [Push(0, pushed, 0.5 * args.seconds, (0.0, 0.0, -40.0))]
    fleet(args.folder, arms, args.logs, args.seconds, args.rate,
          grow=(0, 1, grows, 0.05), pushes=pushes, cut=(len(arms) - 1, args.logs - 1))
    print(f'wrote {args.folder}: {len(arms)} arms, {args.logs} logs each '
          f'({args.seconds:g} s at {args.rate:g} Hz); the friction of joint 2 of '
          f'{arms[0][0]} grows 5 % a log from log {grows + 1}, a push on its tool in log '
          f'{pushed + 1}, the last log of {arms[-1][0]} cut short')


if __name__ == '__main__':
    main()
