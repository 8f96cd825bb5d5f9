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
Joint velocities and accelerations from a joint_states stream, for the expected efforts.

Per joint, at each new position stamped ``t`` (s):

- the velocity is the message's, when it carries one; otherwise the backward difference of the
  positions, ``(q - q_prev) / dt``, which is the velocity at the middle of the interval (half a
  sample late);
- the smoothed velocity (:attr:`RateEstimate.qd_smooth`, for the velocity limits) is the
  message's, or the differenced one through the low-pass filter below: differencing turns an
  encoder's quantisation and the stamps' jitter into noise that would trip a limit;
- the raw acceleration is the difference of two successive velocities over the time between
  the instants they belong to;
- the acceleration used is that raw value through a first-order low-pass filter of cut-off
  ``fc`` (Hz): ``a += (1 - exp(-2 pi fc dt)) (raw - a)``, started at the first raw value;
- the jerk is the rate of change of that filtered acceleration through the same filter: it
  lags the acceleration by as much again.

The lag, for a signal slow against ``fc``, at a sample time ``dt``: the filter delays by
``dt / (exp(2 pi fc dt) - 1)``, which tends to ``1 / (2 pi fc)`` at high rates (15.9 ms at
10 Hz); the difference of velocities adds half a sample, and differencing positions another
half: 16.4 ms at 10 Hz and 1 kHz with velocities given, 21.4 ms at 100 Hz from positions
(``bench/qdd_filter.py`` measures these on sim_arm's sweep). A joint restarts (no velocity
or acceleration until two or three new samples) after a gap of more than ``MAX_GAP_S``, a
non-finite position, a clock that jumped back, or a velocity (given or differenced) that is
not finite or beyond ``MAX_RATE``: no joint moves that fast, and one such value would leave the
filtered acceleration at inf or NaN for good. :meth:`RateEstimate.update` returns such
joints, for the node to count (``implausible_rate``). Pure Python floats: a handful of joints
per message.
"""

from collections import namedtuple
from math import exp, pi

MAX_GAP_S = 0.5
MAX_GAP_NS = int(MAX_GAP_S * 1e9)
MAX_RATE = 1e4
"""The fastest joint believed, rad/s or m/s (95,000 rpm); a faster one restarts the joint."""
Rates = namedtuple('Rates', 'qd qdd qddd qd_smooth')
Rates.__doc__ = """The estimate after one message, kept (:meth:`RateEstimate.rates`): copies of
:class:`RateEstimate`'s lists of the same names."""


class RateEstimate:
    """
    The velocity and filtered acceleration of every joint, from the stream.

    Parameters
    ----------
    n : int
        Number of joints.

    Attributes
    ----------
    qd, qdd, qddd : list of (float or None)
        Per joint, rad/s or m/s, rad/s^2 or m/s^2 and rad/s^3 or m/s^3; None until known.
    qd_smooth : list of (float or None)
        Per joint, the message's velocity, or the differenced one low-pass filtered, rad/s or
        m/s; None until known.

    """

    def __init__(self, n):
        self._n = n
        self._rate = 2.0 * pi * 10.0
        self.reset()

    def configure(self, cutoff_hz):
        """Take the filter's cut-off frequency, Hz."""
        self._rate = 2.0 * pi * cutoff_hz

    def reset(self, joints=None):
        """Forget what is known of ``joints`` (all by default)."""
        if joints is None:
            n = self._n
            self.qd, self.qdd, self.qd_smooth = [None] * n, [None] * n, [None] * n
            self.qddd = [None] * n
            self._t, self._q = [None] * n, [None] * n
            self._v_t = [None] * n
            return
        for j in joints:
            self.qd[j] = self.qdd[j] = self._t[j] = self._q[j] = self._v_t[j] = None
            self.qd_smooth[j] = self.qddd[j] = None

    def rates(self):
        """Return the estimate as it is now, kept: a :data:`Rates`."""
        return Rates(self.qd.copy(), self.qdd.copy(), self.qddd.copy(), self.qd_smooth.copy())

    def ready(self):
        """Tell whether every joint has a velocity and an acceleration."""
        return None not in self.qdd

    def update(self, joints, q, stamp_ns, given):
        """
        Take the new positions of ``joints`` (rad or m) stamped ``stamp_ns``.

        ``given`` maps joint index to the velocity the message carried for it (rad/s or m/s),
        or is the sequence of the velocities of ``joints``, in order, when it carried all;
        the others are differenced from positions. Times are differenced as integers (ns), so
        that stamps far from 0 lose no precision. Return the joints restarted because their
        velocity was not finite or beyond MAX_RATE (a list, usually empty).
        """
        qd, qdd, qddd = self.qd, self.qdd, self.qddd
        times, positions, v_times = self._t, self._q, self._v_t
        smooth, rate = self.qd_smooth, self._rate
        twice = 2 * stamp_ns  # the velocities' instants, in half nanoseconds: integers
        last_dt = gain = None  # the filter's gain for the last dt: most joints share one
        implausible = []
        if isinstance(given, dict):
            given = [given.get(j) for j in joints]
        for j, value, v in zip(joints, q, given):
            if v is not None and not -MAX_RATE <= v <= MAX_RATE:  # given; NaN included
                implausible.append(j)
                self.reset((j,))
                continue
            last_t, last_q = times[j], positions[j]
            times[j], positions[j] = stamp_ns, value
            if last_t is None or stamp_ns - last_t > MAX_GAP_NS:
                qd[j], qdd[j], qddd[j] = v, None, None
                v_times[j], smooth[j] = None if v is None else twice, v
                continue
            dt = (stamp_ns - last_t) * 1e-9
            if dt != last_dt:
                last_dt, gain = dt, 1.0 - exp(-rate * dt)
            if v is None:
                v, v_t = (value - last_q) / dt, stamp_ns + last_t
                if not -MAX_RATE <= v <= MAX_RATE:  # differenced; NaN included
                    implausible.append(j)
                    self.reset((j,))
                    continue
                s = smooth[j]
                smooth[j] = v if s is None else s + gain * (v - s)
            else:
                v_t = twice
                smooth[j] = v
            last_v, last_v_t = qd[j], v_times[j]
            qd[j], v_times[j] = v, v_t
            if last_v is None:
                continue
            v_dt = (v_t - last_v_t) * 0.5e-9
            raw = (v - last_v) / v_dt
            a = qdd[j]
            if a is None:
                qdd[j] = raw
                continue
            qdd[j] = a + gain * (raw - a)
            raw = (qdd[j] - a) / v_dt  # the jerk: the filtered acceleration's rate, filtered
            jerk = qddd[j]
            qddd[j] = raw if jerk is None else jerk + gain * (raw - jerk)
        return implausible
