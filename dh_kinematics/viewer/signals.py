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
Ctrl-C and SIGTERM end the viewer, whenever they come and whatever the process inherited.

A process started in the background by a shell starts with SIGINT ignored, and Python then
raises no KeyboardInterrupt; and a KeyboardInterrupt raised while a library imports can be
caught there (some catch every exception of an optional import): the signal is lost, and the
viewer serves on. So the viewer sets its own handler for both signals before it imports or
builds anything (:class:`Signals`). Until the loop starts a signal is only noted (an exception
inside an import can turn into another error), and the loop then does not start; in the loop
a signal ends it at once: where a step is busy (drawing a large description on the main
thread), it is cut short by an exception the loop catches, so that nobody waits for it.
"""

import signal
import threading


class _Signalled(KeyboardInterrupt):
    """Raised by the handler in the loop, to end a busy step at once."""


class Signals:
    """
    SIGINT and SIGTERM within its ``with`` block: noted from its start, ending :meth:`run`.

    The previous handlers are put back at the block's end.
    """

    def __enter__(self):
        self.stop, self._cut = threading.Event(), False
        self._previous = {number: signal.signal(number, self._noted)
                          for number in (signal.SIGINT, signal.SIGTERM)}
        return self

    def __exit__(self, *exception):
        for number, handler in self._previous.items():
            signal.signal(number, handler)

    def _noted(self, number, frame):
        self.stop.set()
        if self._cut:  # once: a second signal is only noted
            self._cut = False
            raise _Signalled()

    def run(self, step, period=0.1):
        """
        Call ``step(period)`` until a signal comes (or came), or ``step`` returns False.

        ``step`` waits up to ``period`` seconds itself (a spin of the executor), or is None:
        the loop then only waits. A signal ends the loop at once, a busy ``step`` cut short.
        """
        try:
            self._cut = True
            while not self.stop.is_set():
                if step is None:
                    self.stop.wait(period)
                elif step(period) is False:
                    break
        except _Signalled:
            pass
        finally:
            self._cut = False
