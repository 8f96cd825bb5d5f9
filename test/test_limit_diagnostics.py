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

"""When limit diagnostics are published: hysteresis, rate limit, STALE deadline, period."""

from dh_kinematics import Chain, Link
from dh_kinematics.node_logic import schedule as sch
from dh_kinematics.node_logic.joint_state_cache import JointStateCache
from dh_kinematics.node_logic.limit_diagnostics import LimitDiagnostics
from dh_kinematics.node_logic.monitors import levels as lm
from dh_kinematics.node_logic.schedule import CHANGE_INTERVAL_S, Schedule, TICK_S
from dh_kinematics.parameters.specs import NODE
import numpy as np
import pytest

MS = 1_000_000
CHAIN = Chain([Link(a=0.3, qlim=(-1.0, 1.0), name='a'),
               Link(joint='prismatic', qlim=(0.0, 0.5), name='b')])
MARGIN, BAND, TIMEOUT, PERIOD = 0.05, 0.01, 1.0, 60.0
SETTINGS = {spec.name: spec.default for spec in NODE}


class Feed:
    """A cache, the diagnostics and a clock; counts what would be published."""

    def __init__(self, band=BAND):
        self.cache = JointStateCache(CHAIN.joint_names)
        self.diagnostics = LimitDiagnostics(self.cache)
        self.diagnostics.configure(CHAIN, dict(SETTINGS, **{
            'diagnostics.warn_margin': MARGIN, 'diagnostics.hysteresis': band,
            'diagnostics.stale_timeout': TIMEOUT, 'diagnostics.period': PERIOD}))
        self.now_ns = 1_000 * MS
        self.published = []

    def send(self, a, b=0.25, step_ns=MS):
        self.now_ns += step_ns
        update = self.cache.update(['a', 'b'], [a, b], [], self.now_ns, self.now_ns)
        if self.diagnostics.after_message(update.positions, update.q, update.notes,
                                          self.now_ns, self.now_ns):
            self.publish()

    def tick(self):
        if self.diagnostics.on_tick(self.now_ns, self.now_ns):
            self.publish()

    def publish(self):
        statuses = self.diagnostics.statuses(self.now_ns, self.now_ns)
        self.published.append([status.level for status in statuses])


def _dither(feed, centre, count=200, amplitude=1e-3):
    rng = np.random.default_rng(7)
    for value in centre + rng.uniform(-amplitude, amplitude, count):
        feed.send(value, step_ns=10 * MS)
        feed.tick()


@pytest.mark.parametrize('threshold', [1.0 - MARGIN, 1.0])
def test_dithering_around_a_threshold_publishes_once(threshold):
    feed = Feed()
    feed.send(0.0)
    feed.tick()
    _dither(feed, threshold)
    assert len(feed.published) == 2, feed.published  # the first levels, then one change
    without = Feed(band=0.0)
    without.send(0.0)
    _dither(without, threshold)
    assert len(without.published) > 10  # at most one per 0.1 s, but many


def test_a_level_clears_only_back_inside_by_the_band():
    feed = Feed()
    feed.send(1.01)
    assert feed.diagnostics.levels[0] == lm.ERROR
    feed.send(0.995, step_ns=200 * MS)  # inside, but by less than the band
    assert feed.diagnostics.levels[0] == lm.ERROR
    feed.send(0.985, step_ns=200 * MS)
    assert feed.diagnostics.levels[0] == lm.WARN
    feed.send(0.945, step_ns=200 * MS)  # out of the margin, but by less than the band
    assert feed.diagnostics.levels[0] == lm.WARN
    feed.send(0.935, step_ns=200 * MS)
    assert feed.diagnostics.levels[0] == lm.OK
    feed.send(1.5, step_ns=200 * MS)  # a worse level is immediate
    assert feed.diagnostics.levels[0] == lm.ERROR


def test_a_level_the_band_holds_says_why_and_until_where():
    # Issue 71 (11): a joint held at ERROR after an overshoot said "within limits".
    feed = Feed()

    def message():
        return feed.diagnostics.statuses(feed.now_ns, feed.now_ns)[0].message
    feed.send(1.01)
    assert message() == 'above upper limit by 0.01'
    feed.send(0.995, step_ns=200 * MS)
    assert message() == ('back 0.005 inside its upper limit; ERROR holds until 0.01 inside it '
                         '(diagnostics.hysteresis)')
    feed.send(0.975, step_ns=200 * MS)
    assert message() == 'within 0.05 of upper limit'
    feed.send(0.945, step_ns=200 * MS)
    assert message() == ('0.055 from its upper limit; WARN holds until 0.06 from it '
                         '(diagnostics.hysteresis)')
    feed.send(0.935, step_ns=200 * MS)
    assert message() == 'within limits'


@pytest.mark.parametrize('margin, band', [(MARGIN, BAND), (0.0, BAND), (MARGIN, 0.0),
                                          (-MARGIN, 0.0)])
def test_the_fast_path_and_the_full_check_agree_with_hysteresis(margin, band):
    cache = JointStateCache(CHAIN.joint_names)
    lower, upper = CHAIN.qlim.T
    thresholds = lm.Thresholds(lower, upper, margin, band)
    rng = np.random.default_rng(3)
    previous = np.array([lm.OK, lm.OK])
    for k, (a, b) in enumerate(zip(rng.uniform(-1.1, 1.1, 500), rng.uniform(-0.1, 0.6, 500))):
        assert cache.update(['a', 'b'], [a, b], [], k + 1, k + 1).dropped is None
        full = lm.joint_levels(cache, lower, upper, margin, TIMEOUT, k + 1, previous, band)
        assert thresholds.levels((0, 1), (a, b), previous) == full.tolist()
        previous = full


@pytest.mark.parametrize('margin', [MARGIN, 0.0, -MARGIN])
def test_quiet_keeps_ok_only_where_the_levels_do_and_infinite_limits_never_bind(margin):
    inf = np.inf
    lower, upper = np.array([-1.0, -inf, 0.0, -inf, inf]), np.array([1.0, 0.5, inf, inf, -inf])
    thresholds = lm.Thresholds(lower, upper, margin)
    rng = np.random.default_rng(5)
    quiet = 0
    for q in rng.uniform(-1.5, 1.5, (2000, 5)).tolist():
        if thresholds.quiet(q):
            quiet += 1
            assert thresholds.levels(range(5), q, [lm.OK] * 5) == [lm.OK] * 5
    assert quiet == 0  # the last joint: a lower limit of +inf, never quiet
    thresholds = lm.Thresholds(lower[:4], upper[:4], margin)
    ok = [q for q in rng.uniform(-1.5, 1.5, (2000, 4)).tolist() if thresholds.quiet(q)]
    assert len(ok) > 100
    assert all(thresholds.levels(range(4), q, [lm.OK] * 4) == [lm.OK] * 4 for q in ok)
    assert thresholds.quiet([0.0, -1e300, 1e300, 1e300])  # infinite limits bind nowhere


def test_the_tick_is_at_most_tick_s_and_never_longer_than_the_period():
    assert sch.tick_s(1.0) == TICK_S and sch.tick_s(0.05) == 0.05 and TICK_S <= 0.1


def test_changes_are_published_at_most_every_interval_and_none_is_lost():
    feed = Feed(band=0.0)
    feed.send(0.0)
    values = [1.5, 0.0] * 20 + [1.5]  # a change every 10 ms, ending in ERROR
    for value in values:
        feed.send(value, step_ns=10 * MS)
        feed.tick()
    times = []
    for _ in range(int(CHANGE_INTERVAL_S / TICK_S) + 1):  # the node's timer goes on ticking
        feed.now_ns += int(TICK_S * 1e9)
        before = len(feed.published)
        feed.tick()
        if len(feed.published) > before:
            times.append(feed.now_ns)
    assert len(feed.published) <= 2 + len(values) * 10 * MS / (CHANGE_INTERVAL_S * 1e9)
    assert feed.published[-1][0] == lm.ERROR  # the last change was published


def test_stale_is_published_at_the_joint_deadline():
    feed = Feed()
    feed.send(0.0)
    feed.tick()
    sent_ns, count = feed.now_ns, len(feed.published)
    while len(feed.published) == count:
        feed.now_ns += int(TICK_S * 1e9)
        feed.tick()
    age_s = (feed.now_ns - sent_ns) / 1e9
    assert TIMEOUT < age_s <= TIMEOUT + TICK_S + 1e-9  # not at the next period (60 s)
    assert feed.published[-1] == [lm.STALE, lm.STALE, lm.STALE]


def test_the_period_publishes_without_changes():
    feed = Feed()
    feed.send(0.0)
    feed.tick()
    count = len(feed.published)
    for _ in range(10):
        feed.send(0.0, step_ns=int(PERIOD * 1e9 / 10))
        feed.tick()
    assert len(feed.published) - count >= 1


def test_a_publication_held_for_want_of_a_subscriber_is_due_at_the_next_tick():
    schedule = Schedule(period=60.0)
    schedule.published(0)
    assert not schedule.due(MS) and not schedule.pending
    schedule.hold()  # the node found no /diagnostics subscriber
    assert schedule.pending and schedule.due(2 * MS)
    schedule.published(2 * MS)
    assert not schedule.pending and not schedule.due(3 * MS)
