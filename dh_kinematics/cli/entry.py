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
The ``dh_kinematics`` executable: Ctrl-C at any moment ends it with code 130 and one line.

A reader that leaves early (``dh_kinematics show ... | head``) ends it quietly, with code 141
as ``cat`` would.

Only the standard library is imported here (and :mod:`blas`, which bounds numpy's threads
before it loads); the command (and numpy with it) is imported inside
the guard, so that an interrupt while it loads is one line too, as while it runs. A file being
written when the interrupt comes is left as it was (:mod:`core.files`).
"""

import os
import signal
import sys

from dh_kinematics.cli import blas

INTERRUPTED = 128 + signal.SIGINT
"""The exit code after Ctrl-C, as a shell gives it."""
READER_GONE = 128 + signal.SIGPIPE
"""The exit code when the output's reader has gone (``| head``), as ``cat`` gives it."""


def main(argv=None):
    """Run the command line; return its exit code (130 after Ctrl-C)."""
    blas.bound()  # before numpy loads
    try:
        from dh_kinematics.cli.main import main as run

        return run(argv)
    except KeyboardInterrupt:
        command = next((arg for arg in (sys.argv[1:] if argv is None else argv)
                        if not str(arg).startswith('-')), '')
        sys.stderr.write(f'dh_kinematics{" " + str(command) if command else ""}: '
                         'interrupted\n')
        return INTERRUPTED
    except BrokenPipeError:  # show ... | head: the reader has what it wanted; no error line
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # none at exit either
        return READER_GONE


def run():
    """Run the command line and exit with its code: the console script."""
    sys.exit(main())
