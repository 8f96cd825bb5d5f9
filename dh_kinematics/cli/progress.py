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

"""A long command's progress on stderr: a line every few seconds, none for a short run."""

import sys
import time

__all__ = ['reported']

EVERY_S = 5.0
"""Seconds between two progress lines (the first after as long)."""


def reported(items, describe, every_s=EVERY_S, stream=None, clock=time.monotonic):
    """
    Yield ``items`` as they are; every ``every_s`` s, write ``describe(item, count)`` as a line.

    ``count`` is how many items have passed, the one given included; the line goes to
    ``stream`` (stderr), so stdout keeps only the command's result.
    """
    stream = sys.stderr if stream is None else stream
    due = clock() + every_s
    for count, item in enumerate(items, 1):
        yield item
        if clock() >= due:
            stream.write(describe(item, count) + '\n')
            stream.flush()
            due = clock() + every_s
