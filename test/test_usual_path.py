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
The usual message's short way sends what the full path sends and leaves the same state.

Two flows take the same seeded streams, one with publishers (so that it takes the usual
message the short way, :meth:`JointStatesFlow._take_usual`) and one without (every message the
full way): usual messages mixed with every kind of unusual one (non-finite values, old,
repeated, future and zero stamps, other orders and layouts, excursions to WARN and ERROR, gaps
to STALE, a clock that jumps back or stops, overflowing values, changes of the wanted outputs
and of the model's settings). Every byte sent (the short way's own, the full path's outcome
serialized as the node does, with the same templates), every other outcome, every warning,
the cache, the levels and the published statuses must be equal; the short way must have
taken most of the usual messages. A stream whose frame_id changes in any pattern takes the
short way all the same, and builds nothing per message.
"""

import math

from dh_kinematics import Chain, Link
from dh_kinematics.core.model_file import parameter_file
from dh_kinematics.core.names import axis_frame_names, frame_names
from dh_kinematics.node_logic.frames import joint_children
from dh_kinematics.node_logic.joint_states import JointStatesFlow, Usual, Wanted
from dh_kinematics.parameters import validation
from dh_kinematics.parameters.specs import NODE
from dh_kinematics.ros.messages import SerializedMessages
from helpers import joint_state_cdr, PACKAGE
import numpy as np
import pytest

pytestmark = pytest.mark.ros

SECOND = 1_000_000_000
START_NS = 1_700_000_000 * SECOND
PANDA = validation.checked(parameter_file.node_parameters(
    str(PACKAGE / 'config' / 'panda.yaml'), 'dh_kinematics'), NODE)
SMALL = Chain([Link(a=0.3, qlim=(-1.0, 1.0), G=100.0, B=0.01, Tc=0.1, name='a'),
               Link(joint='prismatic', alpha=0.5, qlim=(0.0, 0.5), name='b'),
               Link(d=0.2, name='c')])  # no limits: infinite bounds; axis frames
DEFAULTS = {spec.name: spec.default for spec in NODE}
UNUSUAL = ('nan_position', 'inf_velocity', 'old_stamp', 'repeated_stamp', 'future_stamp',
           'zero_stamp', 'reordered', 'frame_id', 'no_velocity', 'efforts', 'warn', 'error',
           'gap', 'clock_back', 'no_clock', 'overflow', 'huge_velocity', 'wanted', 'subset',
           'unknown_name', 'tick', 'short_positions', 'short_velocities', 'short_efforts')
WANTED = [Wanted(False, False, False, True, True), Wanted(False, False, False, False, True),
          Wanted(False, False, False, True, False), Wanted(True, False, False, True, True),
          Wanted(False, True, True, True, True), Wanted(False, False, False, False, False)]


def _flow(chain, settings, warnings, serialized=None, templates=None):
    """Return a flow; with ``serialized``, one that serializes usual messages itself."""
    def undecodable(data):
        raise ValueError('undecodable')
    flow = JointStatesFlow(chain.joint_names, undecodable, warnings.append, 0)
    flow.configure(chain, settings)
    flow.wanted = WANTED[0]
    if serialized is not None:
        flow.templates = templates or serialized.templates
    return flow


def _serialized(chain):
    frames = frame_names(chain, '')
    return SerializedMessages(frames, chain.joint_names,
                              joint_children(frames, axis_frame_names(chain, '')))


def _sent(outcome, serialized, sent):
    """Serialize an outcome's TF and friction as the node does; return the rest of it."""
    if isinstance(outcome, Usual):  # serialized by the flow already
        sent += [(kind, data) for kind, data in zip(('tf', 'friction'), outcome)
                 if data is not None]
        return ()
    if outcome.tf is not None:
        sent.append(('tf', serialized.tf(*outcome.tf)))
    if outcome.friction is not None:
        sent.append(('friction', serialized.efforts(*outcome.friction)))
    return outcome[2:]


def _state(flow):
    cache = flow.cache
    arrays = [np.asarray(getattr(cache, name)).tolist() for name in (
        'positions', 'velocities', 'efforts', 'stamps_ns', 'received_ns', 'non_finite')]
    return (repr(arrays), dict(cache.counts), cache.received, cache.newest_ns,
            sorted(cache.unknown_names), flow.limits.levels, flow.limits.pending)


def _messages(chain, seed, count, unusual_every):
    """Yield (kind, data, clock step ns, wanted): usual messages, and unusual ones at times."""
    rng = np.random.default_rng(seed)
    names = list(chain.joint_names)
    low, high = np.nan_to_num(np.asarray(chain.qlim, dtype=float), posinf=2.0, neginf=-2.0).T
    middle, span = (low + high) / 2, (high - low) / 2
    stamp_ns = START_NS
    for k in range(count):
        kind = 'usual' if k % unusual_every else UNUSUAL[rng.integers(len(UNUSUAL))]
        q = middle + 0.5 * span * rng.uniform(-1, 1, len(names))
        qd, efforts = rng.normal(0, 0.5, len(names)), []
        step = clock = SECOND // 1000
        order, frame_id = names, ''
        j = rng.integers(len(names))
        if kind == 'nan_position':
            q[j] = math.nan
        elif kind == 'inf_velocity':
            qd[j] = math.inf
        elif kind in ('old_stamp', 'repeated_stamp', 'future_stamp'):
            step = {'old_stamp': -step, 'repeated_stamp': 0, 'future_stamp': 5 * SECOND}[kind]
        elif kind == 'reordered':
            order = names[::-1]
        elif kind == 'frame_id':
            frame_id = 'base'
        elif kind == 'no_velocity':
            qd = []
        elif kind == 'efforts':
            efforts = rng.normal(0, 10, len(names)).tolist()
        elif kind in ('warn', 'error'):
            q[j] = high[j] - 0.01 if kind == 'warn' else high[j] + 0.1
        elif kind == 'gap':
            clock = step = 2 * SECOND  # past the stale timeout
        elif kind == 'clock_back':  # a simulation restarted: the stamps follow the clock
            clock = step = -SECOND
        elif kind == 'no_clock':
            clock = None
        elif kind == 'overflow':
            q[j] = 1e300
        elif kind == 'huge_velocity':  # a friction torque overflows where G and B are given
            qd[j] = 1e308
        elif kind == 'subset':
            order = names[:-1]
        elif kind == 'unknown_name':
            order = names[:-1] + ['extra']
        rows = [names.index(name) if name in names else 0 for name in order]
        next_stamp = stamp_ns + step
        stamp = 0 if kind == 'zero_stamp' else next_stamp
        if kind not in ('old_stamp', 'repeated_stamp', 'future_stamp'):
            stamp_ns = next_stamp
        positions = q[rows].tolist()
        velocities = [qd[r] for r in rows] if len(qd) else []
        efforts = [efforts[r] for r in rows] if efforts else []
        if kind == 'short_positions':
            positions = positions[:-1]
        elif kind == 'short_velocities':
            velocities = velocities[:-1]
        elif kind == 'short_efforts':
            efforts = rng.normal(0, 10, len(names) - 1).tolist()
        data = joint_state_cdr(stamp, order, positions, velocities, efforts, frame_id)
        yield kind, data, clock, WANTED[rng.integers(len(WANTED))]


@pytest.mark.parametrize('seed', range(6))
@pytest.mark.parametrize('model', ['panda', 'small', 'small with efforts monitored',
                                   'small with velocity and effort limits'])
def test_both_paths_give_the_same_outcomes_and_state(model, seed):
    chain, settings = (PANDA.chain, PANDA.settings) if model == 'panda' else (SMALL, DEFAULTS)
    if model.endswith('limits'):  # watched on the usual path too, crossed now and then
        chain = Chain([SMALL.links[0].replace(velocity_limit=1.2),
                       SMALL.links[1].replace(effort_limit=20.0), SMALL.links[2]])
    if model.endswith('monitored'):
        settings = dict(settings, **{'effort.warn': [5.0], 'effort.error': [15.0]})
    warnings, sent = {'usual': [], 'full': []}, {'usual': [], 'full': []}
    serialized = _serialized(chain)  # one set of templates: the same padding bytes
    flows = {'usual': _flow(chain, settings, warnings['usual'], serialized),
             'full': _flow(chain, settings, warnings['full'])}
    now_ns, mono_ns, usual, taken = START_NS + SECOND // 2000, 0, 0, 0  # stamps 0.5 ms old
    for k, (kind, data, clock, wanted) in enumerate(_messages(chain, seed, 1500, 7)):
        mono_ns += SECOND // 1000
        now_ns = now_ns + clock if clock is not None else now_ns
        now = 0 if clock is None else now_ns
        for name, flow in flows.items():
            if kind == 'wanted':
                flow.wanted = wanted
            if kind == 'tick':
                flow.tick(now, mono_ns)
        outcomes = {name: flow.handle(data, now, mono_ns) for name, flow in flows.items()}
        dynamics = any(flows['usual'].wanted[:3])  # gravity, expected or residual: full path
        usual += kind == 'usual' and not dynamics
        took_usual = isinstance(outcomes['usual'], Usual)
        taken += took_usual
        assert not isinstance(outcomes['full'], Usual)
        if not took_usual:
            assert outcomes['usual'] == outcomes['full'], (k, kind)
        for name, outcome in outcomes.items():
            _sent(outcome, serialized, sent[name])
        assert sent['usual'] == sent['full'], (k, kind)
        if took_usual:  # the rest of the full path's outcome: nothing
            assert outcomes['full'][2:] == (None, None, None, False) + (None,) * 4 + (True,), (
                k, kind)
        sent['usual'].clear(), sent['full'].clear()
        if k % 50 == 0 or kind != 'usual':
            assert _state(flows['usual']) == _state(flows['full']), (k, kind)
        if k % 200 == 0:
            statuses = [repr(flow.statuses(now_ns, mono_ns)) for flow in flows.values()]
            assert statuses[0] == statuses[1], k
    assert warnings['usual'] == warnings['full']
    if model.endswith('monitored'):
        assert not taken  # the effort monitor needs the full path
    else:
        assert taken > 0.6 * usual, (taken, usual)


def test_a_stream_in_another_order_than_the_model_takes_the_full_path():
    serialized, sent = _serialized(PANDA.chain), {'usual': [], 'full': []}
    flows = {'usual': _flow(PANDA.chain, PANDA.settings, [], serialized),
             'full': _flow(PANDA.chain, PANDA.settings, [])}
    # Inside the limits read in either order: a wrong order would change no level, only TF.
    names, q = list(PANDA.chain.joint_names)[::-1], np.array([0.1, 0.5, 0.2, -1.5, 0.3, 0.5, 0.4])
    for k in range(20):
        data = joint_state_cdr(START_NS + k, names, (q + 0.01 * k)[::-1].tolist(), [0.1] * 7)
        for name, flow in flows.items():
            outcome = flow.handle(data, START_NS + SECOND, k)
            assert not isinstance(outcome, Usual)  # names not in model order: never the short way
            _sent(outcome, serialized, sent[name])
    assert sent['usual'] == sent['full'] and len(sent['full']) == 40
    assert _state(flows['usual']) == _state(flows['full'])


def test_a_level_is_unchanged_only_inside_the_limits_and_infinite_ones_never_bind():
    flow = _flow(SMALL, DEFAULTS, [])
    flow.handle(joint_state_cdr(START_NS, list(SMALL.joint_names), [0.0, 0.25, 0.0]), START_NS, 1)
    assert flow.limits.levels == [0, 0, 0]
    unchanged_by = flow.limits.unchanged_by
    assert unchanged_by((0.0, 0.25, 1e200), START_NS)
    assert not unchanged_by((0.0, 0.6, 0.0), START_NS)
    assert not unchanged_by((-1.0, 0.25, 0.0), START_NS)  # on the limit: within the margin


@pytest.mark.parametrize('pattern', ['pairs', 'random', 'every other'])
def test_a_changing_frame_id_takes_the_short_way_and_builds_nothing(pattern):
    rng = np.random.default_rng(11)
    frame_ids = {
        'pairs': ['a', 'a', 'bb', 'bb'] * 50,
        'random': [''.join(map(chr, rng.integers(97, 123, rng.integers(1, 300))))
                   for _ in range(200)],
        'every other': ['arm', 'other'] * 100}[pattern]
    serialized, sent, asked = _serialized(PANDA.chain), [], []

    def templates(joints):
        asked.append(joints)
        return serialized.templates(joints)
    flow = _flow(PANDA.chain, PANDA.settings, [], serialized, templates)
    assert len(asked) == 1  # once, when the templates were given
    names, q = list(PANDA.chain.joint_names), np.mean(PANDA.chain.qlim, axis=1).tolist()
    now_ns = START_NS + SECOND
    outcomes = [flow.handle(joint_state_cdr(START_NS + k, names, q, [0.0] * 7, [], frame_id,
                                            padding=rng), now_ns, k)
                for k, frame_id in enumerate(frame_ids)]
    for outcome in outcomes[1:]:
        _sent(outcome, serialized, sent)
    taken = [isinstance(outcome, Usual) for outcome in outcomes]
    assert taken[0] is False and all(taken[1:])  # the first sets the levels
    assert len(asked) == 1  # no template asked for again, none made per message
    assert [topic for topic, _ in sent] == ['tf', 'friction'] * (len(frame_ids) - 1)
