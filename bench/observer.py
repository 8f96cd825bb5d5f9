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
The momentum observer: its cost in process, and how soon it sees a contact against the residual.

1. Cost: :meth:`MomentumObserver.update` alone on the Panda (7 joints) against the 30 µs target,
   and the node's flow (:class:`JointStatesFlow`, serialized messages, the effort monitor on)
   with each estimator, µs per message, in alternating rounds.
2. Detection delay: the Panda of ``examples/simulate_contact.py`` (pinocchio 4.1.0's forward
   dynamics, a 20-bit encoder, 0.1 mrad/s and 0.05 N m of noise) runs 2 s without contact; each
   estimator's threshold per joint is its largest value there (so both have the same false-alarm
   rate on that run: none in 2000 messages). Then a step of 0.1 to 3 N m on each joint: the
   delay from the contact to the first message past the threshold, per estimator ('-': not
   seen in 0.3 s). And the time a 10 N m step takes to pass 5 N m, which the observer's gain
   sets (``ln 2 / K``). Both under a stiff controller (the measured efforts take a contact at
   once: the residual sees it at once) and a compliant one (the motion takes it: the residual
   waits for the filtered accelerations).

    .venv/bin/python bench/observer.py [--json bench/results/observer.json]
"""

import argparse
import importlib.util
import json
import math
import pathlib
import statistics
import time

from dh_kinematics import Chain
from dh_kinematics.node_logic.joint_states import JointStatesFlow, Wanted
from dh_kinematics.node_logic.momentum_observer import MomentumObserver
from dh_kinematics.parameters.specs import NODE
import numpy as np
import pinocchio
from provenance import provenance
from rclpy.serialization import serialize_message
from sensor_msgs.msg import JointState

ROOT = pathlib.Path(__file__).resolve().parents[1]
TARGET_US = 30.0
GAIN = 50.0
CONTACT = 0.2005
STEPS = (0.1, 0.3, 1.0, 3.0)
CONTROLLERS = {'stiff': 50.0, 'compliant': 5.0}
"""The simulated PD controller's natural frequency, rad/s: a position-controlled arm, a cobot."""
DEFAULTS = {spec.name: spec.default for spec in NODE}


def _example():
    path = ROOT / 'examples' / 'simulate_contact.py'
    spec = importlib.util.spec_from_file_location('simulate_contact', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _messages(chain, samples, start_ns):
    t, q, qd, effort, _ = samples
    data = []
    for k in range(len(t)):
        message = JointState(name=list(chain.joint_names), position=q[k].tolist(),
                             velocity=qd[k].tolist(), effort=effort[k].tolist())
        message.header.stamp.sec, message.header.stamp.nanosec = divmod(
            start_ns + int(round(t[k] * 1e9)), 1_000_000_000)
        data.append(bytes(serialize_message(message)))
    return data


def _flow(chain, estimator):
    flow = JointStatesFlow(chain.joint_names, None, print, 0)
    flow.configure(chain, dict(DEFAULTS, **{
        'effort.estimator': estimator, 'effort.observer_gain': GAIN,
        'effort.warn': [500.0], 'effort.error': [1000.0]}))
    return flow


def estimates(chain, samples, estimator):
    """Return each message's external torque estimate by ``estimator`` (NaN until known)."""
    flow = _flow(chain, estimator)
    flow.wanted = Wanted(False, False, estimator == 'acceleration', False, False,
                         external=estimator == 'observer')
    start = 1_790_000_000 * 10 ** 9
    rows = []
    for data, time_s in zip(_messages(chain, samples, start), samples[0]):
        stamp = start + int(round(time_s * 1e9))
        outcome = flow.handle(data, stamp, stamp)
        if estimator == 'observer':
            value = outcome.external[2] if outcome.external else None
        else:  # measured - expected: minus the external torque
            value = [-x for x in outcome.residual[2]] if outcome.residual else None
        rows.append(value if value is not None else [math.nan] * chain.n)
    return np.array(rows)


def costs(chain, samples, rounds):
    """Return µs per message: the observer alone, and the flow with each estimator."""
    t, q, qd, effort, _ = samples
    observer = MomentumObserver()
    observer.configure(chain, GAIN, 1.0)
    rows = [(int(round(x * 1e9)), a.tolist(), b.tolist(), c.tolist())
            for x, a, b, c in zip(t, q, qd, effort)]
    alone, flows = [], {'observer': [], 'acceleration': []}
    data = _messages(chain, samples, 1_790_000_000 * 10 ** 9)
    for _ in range(rounds):
        observer.restart()
        begin = time.process_time()
        for row in rows:
            observer.update(*row)
        alone.append((time.process_time() - begin) / len(rows) * 1e6)
        for estimator in flows:
            flow = _flow(chain, estimator)
            begin = time.process_time()
            for message, x in zip(data, t):
                stamp = 1_790_000_000 * 10 ** 9 + int(round(x * 1e9))
                flow.handle(message, stamp, stamp)
            flows[estimator].append((time.process_time() - begin) / len(data) * 1e6)
    return {'observer_us': alone, 'flow_us': flows}


def delays(simulate, chain, simulation, bandwidth):
    """Return the thresholds of each estimator and, per step size, each joint's delay (ms)."""
    quiet = simulation.run(2.0, 10.0, simulate.step_on(chain.n, 0, 0.0), seed=3,
                           bandwidth=bandwidth)
    thresholds = {estimator: np.nanmax(np.abs(estimates(chain, quiet, estimator)[5:]), axis=0)
                  for estimator in ('observer', 'acceleration')}
    found = {estimator: {size: [] for size in STEPS} for estimator in thresholds}
    for size in STEPS:
        for joint in range(chain.n):
            samples = simulation.run(0.5, CONTACT, simulate.step_on(chain.n, joint, size),
                                     seed=30 + joint, bandwidth=bandwidth)
            t = samples[0]
            for estimator, threshold in thresholds.items():
                value = np.abs(estimates(chain, samples, estimator)[:, joint])
                past = np.nonzero((t >= CONTACT) & (value > threshold[joint]))[0]
                found[estimator][size].append(
                    round((t[past[0]] - CONTACT) * 1e3, 1) if len(past) else math.nan)
    return thresholds, found


def half_way(simulate, chain, simulation, bandwidth, size=10.0):
    """Return per estimator each joint's time (ms) to pass half a ``size`` step."""
    found = {'observer': [], 'acceleration': []}
    for joint in range(chain.n):
        samples = simulation.run(0.5, CONTACT, simulate.step_on(chain.n, joint, size),
                                 seed=60 + joint, bandwidth=bandwidth)
        t = samples[0]
        for estimator, times in found.items():
            value = estimates(chain, samples, estimator)[:, joint]
            past = np.nonzero((t >= CONTACT) & (value >= 0.5 * size))[0]
            times.append(round((t[past[0]] - CONTACT) * 1e3, 1) if len(past) else math.nan)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--json', type=pathlib.Path)
    args = parser.parse_args()
    simulate = _example()
    chain = simulate.with_motors(Chain.from_yaml(ROOT / 'config' / 'panda.yaml'))
    simulation = simulate.Simulation(chain, pinocchio)
    samples = simulation.run(1.0, 10.0, simulate.step_on(chain.n, 0, 0.0), seed=1)
    cost = costs(chain, samples, args.rounds)
    alone = statistics.median(cost['observer_us'])
    flow = {name: statistics.median(values) for name, values in cost['flow_us'].items()}
    print(f'MomentumObserver.update, Panda (7 joints): {alone:.1f} µs per message, median of '
          f'{args.rounds} ({"met" if alone <= TARGET_US else "MISSED"}: at most {TARGET_US:g})')
    print(f'the flow with the effort monitor on, µs per message: observer {flow["observer"]:.1f}'
          f', acceleration residual {flow["acceleration"]:.1f}')
    results = {}
    for controller, bandwidth in CONTROLLERS.items():
        thresholds, found = delays(simulate, chain, simulation, bandwidth)
        half = half_way(simulate, chain, simulation, bandwidth)
        results[controller] = {
            'bandwidth': bandwidth, 'half_way_ms': half,
            'thresholds': {k: v.tolist() for k, v in thresholds.items()},
            'delays_ms': {k: {str(s): v for s, v in d.items()} for k, d in found.items()}}
        print(f'\n{controller} controller ({bandwidth:g} rad/s): thresholds, the largest of 2 s '
              'without contact (N m): ' + '; '.join(
                  f'{name} ' + ' '.join(f'{value:.3f}' for value in values)
                  for name, values in thresholds.items()))
        print('\n| step | estimator | delay per joint, ms | median ms |\n|---|---|---|---|')
        for size in STEPS:
            for estimator in thresholds:
                values = found[estimator][size]
                shown = ' '.join('-' if math.isnan(v) else f'{v:.1f}' for v in values)
                median = statistics.median(math.inf if math.isnan(v) else v for v in values)
                print(f'| {size:g} N m | {estimator} | {shown} | '
                      f'{"-" if math.isinf(median) else f"{median:.1f}"} |')
        print(f'\na 10 N m step passes 5 N m after, ms per joint (K = {GAIN:g}: ln 2 / K = '
              f'{math.log(2.0) / GAIN * 1e3:.1f} ms): ' + '; '.join(
                  f'{name} {" ".join(f"{v:.1f}" for v in values)}'
                  for name, values in half.items()))
    if args.json:
        args.json.write_text(json.dumps(dict(
            provenance(), target_us=TARGET_US, costs=cost, gain=GAIN, controllers=results),
            indent=1) + '\n')
        print(f'wrote {args.json}')


if __name__ == '__main__':
    main()
