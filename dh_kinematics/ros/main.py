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

"""Run one node until Ctrl-C or SIGTERM; exit 1 with one clear message when its model is bad."""

import ctypes
import functools
import os
import sys
import threading

from dh_kinematics.parameters import startup
from dh_kinematics.parameters.validation import NoModelError
from dh_kinematics.ros import entry, rclpy_compat
import rclpy
from rclpy.exceptions import NotInitializedException, ParameterException
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor

try:  # rclpy 7.1.4 (Jazzy) and later
    from rclpy.experimental import EventsExecutor
except ImportError:
    EventsExecutor = None

SPIN_TIMEOUT_S = 0.1


def make_executor(context=None):
    """
    Return rclpy's EventsExecutor where this rclpy has it, else a SingleThreadedExecutor.

    The EventsExecutor dispatches in C++ and takes about a third less CPU per message. Spin it
    with ``spin_once`` in a loop (see :func:`spin`): its ``spin()`` busy-waits in some builds.
    """
    if EventsExecutor is None:
        return SingleThreadedExecutor(context=context)
    return EventsExecutor(context=context)


def spin(executor, context=None):
    """
    Spin until the context shuts down (Ctrl-C, SIGTERM or ``rclpy.shutdown``).

    Also stop once :mod:`entry`'s handler has seen a signal, should rclpy's own handler not
    have shut the context down (a belt to its braces: in the signal sweep under load, one run
    in about 2,000 did not exit within 60 s, for a reason not yet found).
    """
    try:
        while rclpy.ok(context=context) and not entry.signalled():
            executor.spin_once(timeout_sec=SPIN_TIMEOUT_S)
    except ExternalShutdownException:
        pass
    except RuntimeError:  # rclpy's RCLError when a signal shuts the context down mid-call
        if rclpy.ok(context=context):
            raise


def quiet_at_shutdown(callback):
    """
    Wrap a node callback so that a shutdown during it ends it quietly.

    Ctrl-C, SIGTERM or a test may shut the context down while a callback runs; its next publish
    then raises rclpy's RCLError (a RuntimeError). That one ends the callback without a FATAL
    log; any error while the context is still up propagates as before.
    """
    @functools.wraps(callback)
    def wrapper(node, *args):
        try:
            return callback(node, *args)
        except RuntimeError:
            if node.context.ok():
                raise
    return wrapper


def guard_clock(node):
    """
    Make ``node`` ignore /clock messages with a negative time instead of dying of them.

    rclpy's TimeSource raises ValueError for such a message inside the executor, which ends the
    process. The guarded callback drops it and logs once; it also covers a /clock subscription
    made later, when ``use_sim_time`` is set at run time.
    """
    warned = []

    def guarded(take):
        def clock_callback(message):
            if message.clock.sec < 0:
                if not warned:
                    warned.append(True)
                    node.get_logger().warning(
                        f'/clock: ignored a negative time ({message.clock.sec} s); '
                        'further ones are ignored silently')
                return
            take(message)
        return clock_callback
    if not rclpy_compat.wrap_clock_callback(node, guarded):
        node.get_logger().warning('this rclpy gives no access to the /clock callback: a '
                                  'negative /clock time will end the node')


TEARDOWN_S = 10.0


def _exit_if_stuck():
    """After a signal, end the process with code 0 should its teardown take TEARDOWN_S."""
    watchdog = threading.Timer(TEARDOWN_S, os._exit, args=(0,))
    watchdog.daemon = True
    watchdog.start()


def keep_until_exit(executor):
    """
    Never destroy ``executor``: the process is about to exit, and the OS reclaims it.

    After a SIGINT or SIGTERM, the destructor of rclpy's EventsExecutor (the PyPI build of
    rclpy 9.1.2) aborted the process in about 1 exit in 100 (14 in 1,600 runs of the node),
    even once the executor was shut down and held nothing. An executor that is never freed
    cannot: 0 aborts in 2,150 runs of the node and sim_arm. Only for the process's own context;
    a node run in a thread (tests) frees its executor as usual.
    """
    if not isinstance(executor, SingleThreadedExecutor):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(executor))


def run(factory, name, args=None, context=None, executable=None):
    """
    Build the node with ``factory(context=context)`` and spin it; return the exit code.

    0 after Ctrl-C or SIGTERM, at any point once rclpy is initialised (no traceback), or once
    ``context`` is shut down; 1, with one clear message, when a parameter file cannot be read
    or the factory refuses the model. ``context`` (default: rclpy's global one, with its signal
    handlers) lets a test run a node exactly this way in a thread of its own. ``executable``
    (default ``name``) is named in the usage line.
    """
    argv = sys.argv if args is None else args
    logger = rclpy.logging.get_logger(name)
    try:
        startup.check_params_files(argv)
    except ValueError as error:
        logger.fatal(f'invalid parameters: {error}')
        return 1
    if entry.signalled():
        return 0
    try:
        rclpy.init(args=args, context=context)
    except RuntimeError as error:  # rclpy's RCLError: an argument rcl cannot parse
        logger.fatal(f'invalid arguments: {startup.rcl_error_message(str(error))}')
        return 1
    node = executor = None
    try:
        if entry.signalled():  # before rclpy's handler, which shuts the context down, was in
            return 0
        try:
            node = factory(context=context)
        except NoModelError as error:
            logger.fatal(startup.no_model_message(str(error.args[1]), argv, executable or name))
            return 1
        except (ValueError, ParameterException) as error:
            if not rclpy.ok(context=context):  # a signal during start-up
                return 0
            logger.fatal(f'invalid parameters: {error}')
            return 1
        except (RuntimeError, NotInitializedException):  # rclpy's, once a signal shut it down
            if rclpy.ok(context=context):
                raise
            return 0
        executor = make_executor(context)
        executor.add_node(node)
        spin(executor, context)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except (RuntimeError, NotInitializedException):  # rclpy's, once a signal shut it down
        if rclpy.ok(context=context):
            raise
    finally:
        if context is None and entry.signalled():
            _exit_if_stuck()
        if executor is not None:
            executor.shutdown()
            if context is None:
                keep_until_exit(executor)
            # Freed here, while the node exists: an EventsExecutor being freed may still run a
            # callback it had queued.
            executor = None
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown(context=context)
    return 0
