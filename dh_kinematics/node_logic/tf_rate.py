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
The TF rate cap (``tf.max_rate``): at most so many /tf messages a second, always the newest.

As robot_state_publisher's ``publish_frequency``: a message's joints go on /tf when the one of
them published longest ago (by message stamp) was published at least ``1 / max_rate`` s before
this message's stamp; otherwise the message's TF is skipped, and a later message carries the
newer configuration. Each joint keeps its own time, so joints that arrive in separate messages
(an arm and a gripper) are each published at the rate. Only /tf is capped: the limit monitor,
the torques and the diagnostics still take every message. 0 Hz publishes every message.
"""

NEVER = -2 ** 63
"""The stamp (ns) of a joint not yet published: before any stamp."""


class TfRate:
    """
    Which messages' TF to publish under a rate cap, from the messages' stamps.

    Parameters
    ----------
    n : int
        Number of joints.

    """

    def __init__(self, n):
        self._n = n
        self._interval_ns = 0
        self._last = [NEVER] * n

    @property
    def capped(self):
        """Tell whether a cap is set (``max_rate`` > 0)."""
        return self._interval_ns > 0

    def configure(self, max_rate):
        """Set the cap, Hz (0: none; else checked: :func:`parameters.rules.check_tf_rate`)."""
        self._interval_ns = round(1e9 / max_rate) if max_rate > 0.0 else 0
        self.reset()

    def reset(self):
        """Forget the stamps published so far (the clock jumped back, or a new model)."""
        self._last = [NEVER] * self._n

    def due(self, joints, stamp_ns):
        """Tell whether the TF of ``joints`` (indices) stamped ``stamp_ns`` goes out now."""
        if not self._interval_ns:
            return True
        last = self._last
        return min([last[j] for j in joints]) + self._interval_ns <= stamp_ns

    def published(self, joints, stamp_ns):
        """Record that the TF of ``joints`` went out stamped ``stamp_ns``."""
        if self._interval_ns:
            last = self._last
            for j in joints:
                last[j] = stamp_ns
