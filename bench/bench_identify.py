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
Identification of a 7-joint arm from 20 s of a 1 kHz log: seconds in all, and the regressor's.

The log is the real Panda's (../shared/panda-log, Gaz et al. 2019; read, never copied) where
it is present, else the Panda simulated by examples/simulate_joint_log.py. The whole of
``identify`` is timed (target: at most 10 s), and the regressor of its prepared samples
against pinocchio's ``computeJointTorqueRegressor`` on the model's URDF over the same samples
(the fastest peer here: pinocchio's C++, one call a sample). Prints a table; ``--json PATH``
writes the results with their provenance.

    .venv/bin/python bench/bench_identify.py
"""

import argparse
import importlib.util
import sys
import time

from dh_kinematics import Chain
from dh_kinematics.core.dynamics import regressor
from dh_kinematics.identification import identify, signals
from dh_kinematics.logs import for_model, JointLog
import numpy as np

try:
    from provenance import ROOT, write_results
except ImportError:  # run as a module
    from bench.provenance import ROOT, write_results

PANDA_LOG = ROOT.parent / 'shared' / 'panda-log'
TARGET = 10.0
"""The most seconds for identifying 20 s of a 1 kHz 7-joint log (issue 60)."""


def panda_log(chain):
    """Return the real Panda's log where present, else a simulated one; and its name."""
    if PANDA_LOG.is_dir():
        n = chain.n
        columns = [np.loadtxt(PANDA_LOG / f'{name}.txt') for name in
                   ('time', 'positions', 'velocity', 'torques')]
        return JointLog(chain.joint_names, columns[0], *(c.reshape(-1, n) for c in columns[1:]),
                        'panda-log'), 'the real Panda log'
    path = ROOT / 'examples' / 'simulate_joint_log.py'
    spec = importlib.util.spec_from_file_location(path.stem, path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    rng = np.random.default_rng(1)
    arm = example.true_arm(chain, rng)
    t, q, qd, qdd = example.trajectory(chain, rng, 20.0)
    effort = arm.rne(q, qd, qdd) + rng.normal(0.0, 0.1, q.shape)
    return JointLog(chain.joint_names, t, q, qd, effort, 'simulated'), 'a simulated Panda log'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    parser.add_argument('--json', metavar='PATH', help='write the results here')
    parser.add_argument('--rounds', type=int, default=3, help='timed rounds (default: 3)')
    args = parser.parse_args(argv)
    chain = Chain.from_yaml(ROOT / 'config' / 'panda.yaml')
    log, source = panda_log(chain)
    log = for_model(log, chain)
    seconds, result = [], None
    for _ in range(args.rounds):
        start = time.perf_counter()
        result = identify(chain, [log])
        seconds.append(time.perf_counter() - start)
    prepared = signals.prepare(log)
    dyn = chain.dynamic_constants
    start = time.perf_counter()
    regressor.regressor(dyn, prepared.q, prepared.qd, prepared.qdd)
    ours = time.perf_counter() - start
    theirs, version = None, None
    try:
        import pinocchio as pin
    except ImportError:
        pin = None
    if pin is not None:
        model = pin.buildModelFromXML(chain.to_urdf())
        data = model.createData()
        model.gravity.linear = chain.gravity
        start = time.perf_counter()
        for q, qd, qdd in zip(prepared.q, prepared.qd, prepared.qdd):
            pin.computeJointTorqueRegressor(model, data, q, qd, qdd)
        theirs, version = time.perf_counter() - start, pin.__version__
    best = min(seconds)
    print(f'identify on {source}: {len(log.time)} samples, {log.time[-1] - log.time[0]:.1f} s')
    print(f'{"":<40} {"s":>8}')
    print(f'{"identify, best of " + str(args.rounds):<40} {best:>8.2f}  (target <= {TARGET:g} '
          f's: {"met" if best <= TARGET else "MISSED"})')
    print(f'{"regressor, " + str(len(prepared.q)) + " samples (ours)":<40} {ours:>8.3f}')
    if theirs is not None:
        print(f'{"regressor, pinocchio " + version:<40} {theirs:>8.3f}')
    print(f'held out: {result.held_out["identified"].total:.3%}; base parameters '
          f'{len(result.base.columns)}; cut-off {result.cutoff:.3g} Hz')
    if args.json:
        write_results(args.json, source=source, seconds=seconds, regressor_ours=ours,
                      regressor_pinocchio=theirs, pinocchio=version,
                      held_out=result.held_out['identified'].total)
    return 0 if best <= TARGET else 1


if __name__ == '__main__':
    sys.exit(main())
