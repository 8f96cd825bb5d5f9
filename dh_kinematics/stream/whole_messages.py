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
How :class:`JointStateCache` takes a message that names every joint: the usual case.

The cache's general :meth:`JointStateCache.update` matches names, checks every stamp and value
and notes what it drops. A message naming every joint, newer than all, with finite values,
needs only :meth:`WholeMessages.newest` and :meth:`WholeMessages.take_all`; the steady path
(:mod:`steady_path`) writes both into its generated code (:meth:`WholeMessages.whole_source`).
"""

# A stamp must fit builtin_interfaces/Time once normalised: int32 seconds.
STAMP_RANGE_NS = (-2 ** 31 * 1_000_000_000, 2 ** 31 * 1_000_000_000)


class WholeMessages:
    """The whole-message half of :class:`JointStateCache` (a mixin: it uses the cache's state)."""

    def newest(self, stamp_ns, now_ns):
        """Tell whether a stamp is newer than all, in range, at most the tolerance ahead."""
        return (self._newest_ns < stamp_ns < STAMP_RANGE_NS[1]
                and 0 < stamp_ns <= now_ns + self.future_tolerance_ns)

    def in_model_order(self, names):
        """Return the :meth:`take_all` index if ``names`` (the last's) is every joint in order."""
        full = self._full
        if names is self._full_names and full is not None and full[0] is None:
            return full[2]
        return None

    def take_all(self, index, q, qd, effort, stamp_ns, now_ns):
        """
        Take a message that :meth:`update` would take whole, as it would, once checked as it.

        That is: ``index`` from :meth:`in_model_order`, the stamp :meth:`newest`, finite
        ``q``, and ``qd`` and ``effort`` for every joint or empty.
        """
        self.received += 1
        self._set_later(index, q, qd, effort, stamp_ns, now_ns)
        self._newest_ns = stamp_ns
        self.counts['accepted'] += 1

    def whole_source(self, namespace):
        """
        Return :meth:`newest` and :meth:`take_all` as code, for a generated function.

        Returns ``(newest, take_all)``: an expression of ``stamp_ns`` and ``now_ns`` that is
        :meth:`newest` with the tolerance in place, and the statements of :meth:`take_all`
        (a list) for ``index``, ``q``, ``qd``, ``effort``, ``stamp_ns`` and ``now_ns``. The
        names they use go into ``namespace`` (each starting with ``cache``); the code holds
        until the tolerance changes.
        """
        namespace.update(cache=self, cache_set_later=self._set_later,
                         cache_counts=self.counts)
        return (f'cache._newest_ns < stamp_ns < {STAMP_RANGE_NS[1]} and 0 < stamp_ns <= now_ns'
                f' + {self.future_tolerance_ns}',
                ['cache.received += 1',
                 'cache_set_later(index, q, qd, effort, stamp_ns, now_ns)',
                 'cache._newest_ns = stamp_ns',
                 "cache_counts['accepted'] += 1"])
