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

"""Replay: a stream's level changes at the messages the documented thresholds say."""

from dh_kinematics import Chain, Link
from dh_kinematics.node_logic.monitors.levels import ERROR, OK, STALE, WARN
from dh_kinematics.parameters.specs import NODE
from dh_kinematics.replay import Replay
from helpers import joint_state_cdr

SECOND = 1_000_000_000
BASE = 1_790_000_000 * SECOND
DEFAULTS = {spec.name: spec.default for spec in NODE}


def test_a_joint_through_its_warn_band_past_its_limit_and_back_changes_where_it_should():
    chain = Chain([Link(a=0.3, qlim=(-1.0, 1.0), name='a')])
    # 0.9005 .. 1.1005 rad and back, 1 mrad a message, 1 ms apart: half a step off every
    # threshold, so that no tie decides.
    path = [(k + 0.5) / 1000 for k in range(900, 1101)] + [
        (k + 0.5) / 1000 for k in range(1099, 899, -1)]
    stream = [(BASE + k * SECOND // 1000, joint_state_cdr(BASE + k * SECOND // 1000, ['a'],
                                                          [q])) for k, q in enumerate(path)]
    found = [(t.status, (t.stamp_ns - BASE) * 1000 // SECOND, t.level)
             for t in Replay(chain, DEFAULTS).transitions(stream) if t.status.endswith(': a')]
    margin, band = DEFAULTS['diagnostics.warn_margin'], DEFAULTS['diagnostics.hysteresis']

    def index(predicate, start=0):
        return next(k for k in range(start, len(path)) if predicate(path[k]))

    warn_in = index(lambda q: q > 1.0 - margin)
    error_in = index(lambda q: q > 1.0)
    error_out = index(lambda q: q < 1.0 - band, error_in)
    warn_out = index(lambda q: q < 1.0 - margin - band, error_out)
    assert found == [('/dh_kinematics: a', 0, OK), ('/dh_kinematics: a', warn_in, WARN),
                     ('/dh_kinematics: a', error_in, ERROR),
                     ('/dh_kinematics: a', error_out, WARN),
                     ('/dh_kinematics: a', warn_out, OK)]
    assert STALE not in {level for _, _, level in found}


def test_a_gap_longer_than_the_stale_timeout_goes_stale_at_its_tick_and_back():
    chain = Chain([Link(a=0.3, qlim=(-1.0, 1.0), name='a')])
    stamps = [BASE + k * SECOND // 100 for k in range(10)]  # 10 ms apart, then 2.5 s of nothing
    stamps += [stamps[-1] + 5 * SECOND // 2 + k * SECOND // 100 for k in range(3)]
    stream = [(stamp, joint_state_cdr(stamp, ['a'], [0.25])) for stamp in stamps]
    found = [(t.stamp_ns, t.level) for t in Replay(chain, DEFAULTS).transitions(stream)
             if t.status.endswith(': a')]
    timeout = int(DEFAULTS['diagnostics.stale_timeout'] * SECOND)
    tick = SECOND // 10
    stale_at = -(-(stamps[9] + timeout) // tick) * tick  # the first tick past the deadline
    assert found == [(stamps[0], OK), (stale_at, STALE), (stamps[10], OK)]


def test_the_maxima_hold_the_worst_margin_and_speed_with_their_stamps():
    chain = Chain([Link(a=0.3, qlim=(-1.0, 1.0), velocity_limit=2.0, name='a')])
    path = [(k + 0.5) / 1000 for k in range(900, 1101)] + [
        (k + 0.5) / 1000 for k in range(1099, 899, -1)]
    stamps = [BASE + k * SECOND // 1000 for k in range(len(path))]
    replay = Replay(chain, DEFAULTS)
    for _ in replay.transitions((stamp, joint_state_cdr(stamp, ['a'], [q]))
                                for stamp, q in zip(stamps, path)):
        pass
    rows = {(subject, quantity): (value, stamp, limit)
            for subject, quantity, value, stamp, limit in replay.maxima.rows()}
    value, stamp, limit = rows['a', 'position margin']
    top = path.index(max(path))
    assert value == 1.0 - path[top] and stamp == stamps[top] * 1e-9 and limit == 0.0
    speed, _, limit = rows['a', 'velocity']
    assert abs(speed - 1.0) < 1e-6 and limit == 2.0  # 1 mrad a ms, differenced
