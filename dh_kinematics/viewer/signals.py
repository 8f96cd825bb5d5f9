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
Ctrl-C and SIGTERM end the viewer's loop, whatever the process inherited, even while it is busy.

A process started in the background by a shell starts with SIGINT ignored, and Python then
raises no KeyboardInterrupt; so the viewer sets its own handler for both signals. The handler
ends the loop at once: where a step is busy (drawing a large description on the main thread),
it is cut short by an exception the loop catches, so that nobody waits for it.
"""

import signal
import threading


class _Signalled(Exception):
    """Raised by the handler, to end a busy step at once."""


def run_until_signalled(step, period=0.1):
    """
    Call ``step(period)`` until SIGINT or SIGTERM comes, or ``step`` returns False.

    ``step`` waits up to ``period`` seconds itself (a spin of the executor), or is None: the
    loop then only waits. A signal ends the loop at once, a busy ``step`` cut short. The
    previous handlers are put back at the end.
    """
    stop = threading.Event()

    def handler(number, frame):
        stop.set()
        raise _Signalled()

    previous = {}
    try:
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(number, handler)
        while not stop.is_set():
            if step is None:
                stop.wait(period)
            elif step(period) is False:
                break
    except _Signalled:
        pass
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
