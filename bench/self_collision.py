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
Self-collision per message: the node's capsules against pinocchio and coal on the same ones.

The Panda (config/panda.yaml: 14 capsules of the default body, 44 pairs judged with its
ignored pairs, 60 without), along the sweep ``drive_joint_states.py`` sends at 1 kHz. Timed in
process, CPU µs per message (median of ``--rounds``):

- ``monitor``: :class:`SelfCollision`, ``update(q, qd)`` (the arm's state of the capsules'
  ends, the pairs' distances, the closing speed, the level);
- ``closing``: the arm's state of the capsules' ends alone and :meth:`LinkCapsules.moving`;
- ``batch``: :meth:`LinkCapsules.closest` on 1000 configurations at once, per configuration;
- ``rows``: :meth:`SelfCollision.measure` on 1000 rows of the arm's state at once (its
  capsules' ends, :meth:`ArmState.columns`, counted), per row: the figures of a block;
- ``node``: the node's callback with ``safety.self_collision.enabled`` and without it
  (``node_rate.py``'s ``dh_kinematics_self_collision`` and ``dh_kinematics`` targets), the
  first against the 150 µs target;
- ``pinocchio``: the peer, ``pin.computeDistances`` (pinocchio and coal in C++: the forward
  kinematics, the placements and each pair's capsule distance) on a GeometryModel of the same
  capsules and pairs, distances only (no closing speed).

    .venv/bin/python bench/self_collision.py [--rounds 5] [--json FILE]
"""

import argparse
import json
import pathlib
import statistics
import time

from dh_kinematics.core.rotations import z_along
from dh_kinematics.core.safety.link_capsules import LinkCapsules
from dh_kinematics.core.state import ArmState
from dh_kinematics.node_logic.monitors.self_collision import SelfCollision
from dh_kinematics.node_logic.sweep import sweep
from dh_kinematics.parameters.files import read
from drive_joint_states import CONFIGS
import numpy as np
from provenance import provenance, write_results
from rate_tools import PANDA
from short_ways import messages, per_message_us

COUNT = 3000
TARGET_US = 150.0  # the node's callback with self-collision on the Panda, at most (issue 63)


def _states(chain):
    prismatic = [link.isprismatic() for link in chain.links]
    table = [sweep(t, chain.qlim, prismatic, 10.0) for t in np.arange(CONFIGS) * 0.01]
    return [(q.tolist(), qd.tolist()) for q, qd, _ in table][:COUNT]


def _timed(function, states):
    start = time.process_time()
    for q, qd in states:
        function(q, qd)
    return (time.process_time() - start) / len(states) * 1e6


def _pinocchio(chain, capsules, states):
    """Return pinocchio's µs per configuration and its distances at the states."""
    import coal
    import pinocchio as pin
    urdf = chain.to_urdf()
    model = pin.buildModelFromXML(urdf)
    geometry = pin.GeometryModel()
    frames = capsules.frames
    for k, (link, ends, radius) in enumerate(zip(capsules.links, capsules.ends,
                                                 capsules.radii)):
        frame = model.frames[model.getFrameId(frames[link])]
        axis = ends[1] - ends[0]
        length = float(np.linalg.norm(axis))
        M_link_capsule = pin.SE3(z_along(axis), (ends[0] + ends[1]) / 2)
        geometry.addGeometryObject(pin.GeometryObject(
            f'capsule{k}', frame.parentJoint, frame.placement * M_link_capsule,
            coal.Capsule(float(radius), length)))
    for a, b in capsules.pairs:
        geometry.addCollisionPair(pin.CollisionPair(int(a), int(b)))
    data, geometry_data = model.createData(), pin.GeometryData(geometry)
    index = [model.joints[model.getJointId(name)].idx_q for name in chain.joint_names]
    configurations = []
    for q, _ in states:
        q_pin = pin.neutral(model)
        q_pin[index] = q
        configurations.append(q_pin)
    start = time.process_time()
    for q_pin in configurations:
        pin.computeDistances(model, data, geometry, geometry_data, q_pin)
    seconds = time.process_time() - start
    distances = [result.min_distance for result in geometry_data.distanceResults]
    return seconds / len(states) * 1e6, np.array(distances)


def main():
    """Time each way in rounds; print the medians, write them with ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--json', type=pathlib.Path)
    args = parser.parse_args()
    given, checked = read([PANDA])
    chain = checked.chain
    settings = dict(checked.settings, **{'safety.self_collision.enabled': True})
    states = _states(chain)
    results = {}
    data = messages(1000 + COUNT, 0.01)
    for label, ignore in (('panda, its ignored pairs', settings['safety.self_collision.ignore']),
                          ('panda, every pair', [''])):
        settings['safety.self_collision.ignore'] = ignore
        monitor = SelfCollision()
        monitor.configure(chain, settings)
        capsules = LinkCapsules(chain, [entry for entry in ignore if entry])
        state = ArmState(chain, capsules.points.links, capsules.points.offsets)

        def closing(q, qd):
            return capsules.moving(*state.points_at(q, qd))
        batch = np.array([q for q, _ in states[:1000]])
        rounds = {name: [] for name in ('monitor', 'closing', 'batch', 'rows', 'pinocchio')}
        rates = np.array([qd for _, qd in states[:1000]])
        for _ in range(args.rounds):
            rounds['monitor'].append(_timed(monitor.update, states))
            rounds['closing'].append(_timed(closing, states))
            start = time.process_time()
            capsules.closest(chain.fkine_all(batch))
            rounds['batch'].append((time.process_time() - start) / len(batch) * 1e6)
            start = time.process_time()
            monitor.measure(monitor.state.columns(batch, rates, monitor.parts))
            rounds['rows'].append((time.process_time() - start) / len(batch) * 1e6)
            seconds, theirs = _pinocchio(chain, capsules, states)
            rounds['pinocchio'].append(seconds)
        ours = closing(*states[-1])[0].distance
        results[label] = {name: round(statistics.median(values), 1)
                          for name, values in rounds.items()}
        results[label]['pairs'] = len(capsules.pairs)
        results[label]['largest difference from pinocchio (m)'] = float(
            np.abs(ours - theirs).max())
    node = {target: [] for target in ('dh_kinematics', 'dh_kinematics_self_collision')}
    for _ in range(args.rounds):
        for target in node:
            node[target].append(per_message_us(target, None, data))
    medians = {target: statistics.median(values) for target, values in node.items()}
    results['node'] = {'without (µs)': round(medians['dh_kinematics'], 1),
                       'with self-collision (µs)': round(
                           medians['dh_kinematics_self_collision'], 1),
                       'self-collision (µs)': round(medians['dh_kinematics_self_collision']
                                                    - medians['dh_kinematics'], 1)}
    import pinocchio
    results['peer'] = f'pinocchio {pinocchio.__version__} (coal), pin.computeDistances'
    print(json.dumps(dict(results, provenance=provenance()), indent=2, ensure_ascii=False))
    cost = results['node']['with self-collision (µs)']
    print(f'node with self-collision: {cost} µs per message (at most {TARGET_US:g}): '
          f'{"met" if cost <= TARGET_US else "MISSED"}')
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        write_results(args.json, **results)


if __name__ == '__main__':
    main()
