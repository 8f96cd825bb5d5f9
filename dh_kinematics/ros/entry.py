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
The executables' entry points, with SIGINT and SIGTERM handled from the first instruction.

Either signal ends an executable with code 0 and no traceback, whenever it comes. Only the
standard library is imported here, so the handler is in place before numpy or rclpy load. It
never raises: an exception raised from a signal handler inside an import (numpy's C
extensions turn it into an ImportError) or inside rclpy's C++ executor (which aborts) would be
worse than a short wait. It notes the signal; :func:`ros.main.run` checks for one before it
starts rclpy and once rclpy's own handler (which chains to this one) is in place, and that
handler shuts the context down, which ends the spin loop. A second signal is noted and
ignored; once ``main`` returns, both signals are ignored, as the interpreter would restore
their default action (death by signal) while it finalizes.
"""

import importlib
import signal
import sys
import threading

from dh_kinematics.cli import blas

_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_state = {'installed': False, 'received': []}


def _on_signal(number, frame):
    _state['received'].append(number)


def install():
    """Install the handler (main thread only; elsewhere, and a second time, nothing)."""
    if _state['installed'] or threading.current_thread() is not threading.main_thread():
        return
    for number in _SIGNALS:
        signal.signal(number, _on_signal)
    _state['installed'] = True


def signalled():
    """Tell whether SIGINT or SIGTERM has arrived since :func:`install`."""
    return bool(_state['received'])


def guarded(main, *args, **kwargs):
    """Return ``main(...)`` with the handler installed, then ignore the signals until exit."""
    try:
        install()
        return main(*args, **kwargs)
    finally:
        if _state['installed']:
            for number in _SIGNALS:
                signal.signal(number, signal.SIG_IGN)


def _run(module):
    blas.bound()  # before numpy loads

    def main():
        return importlib.import_module(module).main()
    sys.exit(guarded(main))


def node():
    """Run the dh_kinematics node: the ``dh_kinematics_node`` executable."""
    _run('dh_kinematics.ros.node')


def managed_node():
    """Run the dh_kinematics node as a managed node: ``dh_kinematics_managed_node``."""
    _run('dh_kinematics.ros.managed_node')


def sim_arm():
    """Run sim_arm."""
    _run('dh_kinematics.ros.sim_arm')
