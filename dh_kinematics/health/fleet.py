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
A fleet's logs found and judged: here, in a Dask ``LocalCluster``, or on a running cluster.

:func:`find` turns the paths given into logs (bag folders and CSV files, folders searched);
:func:`judged` yields each log's :class:`LogHealth` as it is done, one task a log
(:func:`judge.judge`). With one worker and no scheduler the logs are judged here, in order,
and Dask is not needed; otherwise on ``dask.distributed`` (the ``fleet`` extra): a
``LocalCluster`` of ``workers`` processes of one thread each, or the cluster whose scheduler
is at ``scheduler``, whose workers must read the logs at the paths given. A log's result is the
same wherever it ran: the CSVs of a run are byte for byte those of a serial one.

The ``LocalCluster``'s workers watch themselves less often than Dask's defaults
(:data:`WORKER_CONFIG`); a running cluster's are its own.

The logs are sent as the workers have threads, no more (a worker never holds a log it does not
judge), the next as one is done. A worker lost while it judged a log (killed, out of memory)
loses that log's task: it is sent once more, and a second loss is that log's row
(:data:`LOST`). The ``LocalCluster`` is started with Dask's ``allowed-failures`` at 0, so that
this is the whole rule; a running cluster's scheduler applies its own (Dask's default: 3) to
each of the two tries.
"""

import collections
import os
import pathlib

from dh_kinematics.health.judge import judge, LogHealth

__all__ = ['check', 'default_workers', 'find', 'judged', 'INSTALL', 'LOST']

INSTALL = ("judging on Dask needs dask.distributed: pip install 'dask[distributed]' "
           '(apt: python3-distributed)')
LOST = 'its worker was lost twice while judging it (killed, or out of memory?)'
"""The row of a log whose task lost its worker on both tries."""
SUFFIXES = ('.csv',)
WORKERS_TIMEOUT_S = 120.0
"""How long the run waits for its workers (the LocalCluster's all, a cluster's first), s."""
SCHEDULER_TIMEOUT_S = 10.0
"""How long a scheduler's address is tried before it is said to answer no, s."""
WORKER_CONFIG = {'distributed.worker.profile.enabled': False,
                 'distributed.admin.tick.interval': '1s',
                 'distributed.admin.system-monitor.interval': '5s',
                 'distributed.worker.memory.monitor-interval': '1s'}
"""The LocalCluster's workers watch themselves less often than Dask's defaults: its profiler
(every 10 ms), tick (20 ms) and memory monitor (100 ms) took the task's thread's GIL, a log
judged in 2.8 to 3.1 s against 2.43 s here; 2.57 to 2.62 s with these (a minute of the Panda at
500 Hz with its report, 2026-11-30)."""
"""The files searched for in a folder, besides bag folders."""


def default_workers():
    """Return the machine's cores where dask.distributed is installed, else None."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return None
    return os.cpu_count() or 1


def check(workers=1, scheduler=None):
    """Raise ValueError naming what to install, where a run of ``workers`` would need it."""
    try:
        import scipy  # noqa: F401 (the friction fit's filter)
    except ImportError:
        raise ValueError('health needs SciPy: pip install scipy (apt: python3-scipy)') from None
    if scheduler is not None or workers > 1:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise ValueError(INSTALL) from None


def _is_bag(folder):
    return (folder / 'metadata.yaml').is_file()


def find(paths):
    """
    Return the logs of ``paths``: ``[(path, name)]`` in the order given, folders searched.

    A bag folder (it has ``metadata.yaml``) is a log; another folder is searched, in name
    order, for bag folders and CSV files. A path that does not exist is kept: its row says so.
    ``name`` is the log's report folder's name: its path from the folder that holds all the
    logs, ``/`` as ``--``, the suffix dropped (``panda--day-01``); a second log of that name
    gets ``-2``, ...
    """
    found = []
    for given in paths:
        path = pathlib.Path(given)
        if path.is_dir() and not _is_bag(path):
            for root, folders, files in os.walk(path):
                root = pathlib.Path(root)
                folders.sort()
                for folder in [f for f in folders if _is_bag(root / f)]:
                    folders.remove(folder)
                    found.append(root / folder)
                found += [root / file for file in sorted(files) if file.endswith(SUFFIXES)]
        else:
            found.append(path)
    if not found:
        return []
    common = pathlib.Path(os.path.commonpath([os.path.abspath(path.parent) for path in found]))
    logs, names = [], set()
    for path in found:
        relative = pathlib.Path(os.path.abspath(path)).relative_to(common)
        if relative.suffix in SUFFIXES:
            relative = relative.with_suffix('')
        stem = '--'.join(relative.parts)
        name, k = stem, 1
        while name in names:
            k += 1
            name = f'{stem}-{k}'
        names.add(name)
        logs.append((str(path), name))
    return logs


def judged(logs, models, topic='/joint_states', workers=1, scheduler=None, report=None):
    """
    Yield ``(k, LogHealth)`` of each log ``logs[k]`` (:func:`find`'s) as it is done.

    ``workers`` (1: here, in order) or ``scheduler`` (a Dask scheduler's address) as in the
    module's docstring; ``report`` as :func:`judge.judge`'s (sent by reference: a module's
    function). Closing the generator (Ctrl-C) cancels what is not done.
    """
    if scheduler is None and workers == 1:
        for k, (path, name) in enumerate(logs):
            yield k, judge(path, name, models, topic, report)
        return
    try:
        import dask
        from distributed import as_completed, Client, LocalCluster
        from distributed.scheduler import KilledWorker
    except ImportError:
        raise ValueError(INSTALL) from None
    cluster = None
    if scheduler is None:
        with dask.config.set(dict(WORKER_CONFIG, **{
                'distributed.scheduler.allowed-failures': 0})):
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   host='127.0.0.1', dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT_S)
        except (OSError, ValueError) as error:
            raise ValueError(f'--scheduler {scheduler}: no Dask scheduler answers there '
                             f'({error})') from None
    try:
        try:
            client.wait_for_workers(1 if cluster is None else workers, timeout=WORKERS_TIMEOUT_S)
        except (OSError, TimeoutError):
            raise ValueError(f'no Dask worker came within {WORKERS_TIMEOUT_S:g} s' + (
                f' to the cluster at {scheduler}' if scheduler else '')) from None
        waiting = collections.deque((k, 1) for k in range(len(logs)))
        tries, pending = {}, as_completed()

        def fill():
            """Send as many logs as the workers have threads: none waits on a worker."""
            free = max(sum(client.nthreads().values()), 1) - len(tries)
            while free > 0 and waiting:
                k, attempt = waiting.popleft()
                path, name = logs[k]
                future = client.submit(judge, path, name, models, topic, report, pure=False,
                                       key=f'health-{k}-{name}-try-{attempt}')
                tries[future.key] = (k, attempt)
                pending.add(future)
                free -= 1

        fill()
        for future in pending:
            k, attempt = tries.pop(future.key)
            try:
                result = future.result()
            except KilledWorker:
                result = None if attempt == 1 else LogHealth(*logs[k], '', problem=LOST)
                if result is None:
                    waiting.appendleft((k, 2))
            except Exception as error:  # noqa: B902 (a worker's fault: that log's row)
                result = LogHealth(*logs[k], '', problem=f'failed on its worker: '
                                   f'{type(error).__name__}: {error}')
            future.release()
            fill()
            if result is not None:
                yield k, result
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
