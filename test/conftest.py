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

"""pytest's hooks for the suite: ROS kept on loopback, the seeded hypothesis profile, fixtures."""

import fcntl
import os
import subprocess
import tempfile

from dh_kinematics.cli import blas
blas.bound()  # as the executables do, before numpy loads: a busy machine is not a slow one
from helpers import chain_from_reference, load_reference, MODELS  # noqa: E402, I100
from hypothesis import settings  # noqa: E402
import processes  # noqa: E402
import pytest  # noqa: E402

DOMAINS = range(150, 230)
"""The ROS domains a run may take (Fast DDS's ports allow up to 232), never the user's."""


def _own_domain():
    """
    Take a domain no other run on this machine holds, nor the user's shell: return it.

    A lock file per domain, held for the run (the kernel lets it go when the process ends):
    two runs at once (CI's two distributions) never share a domain, and a user's own nodes on
    their ROS_DOMAIN_ID never answer a test.
    """
    users = os.environ.get('ROS_DOMAIN_ID', '0')
    for domain in DOMAINS:
        if str(domain) == users:
            continue
        lock = open(os.path.join(tempfile.gettempdir(), f'dh_kinematics-test-domain-{domain}'),
                    'a')
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        _HELD.append(lock)
        return domain
    raise RuntimeError(f'every ROS domain from {DOMAINS.start} to {DOMAINS.stop - 1} is held '
                       'by another test run on this machine')


_HELD = []
# Every node a test starts, in this process or another, talks on loopback only, on a domain of
# its own: never the one the user's shell gives (issue 71 (15): a user's own node answered a
# README test).
os.environ['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
os.environ['ROS_DOMAIN_ID'] = str(_own_domain())

# Property-based tests draw from a fixed seed: every run tries the same examples.
settings.register_profile('seeded', derandomize=True, database=None, print_blob=True)
settings.load_profile('seeded')


@pytest.fixture(params=MODELS)
def model(request):
    """Each reference model: (name, reference dict, chain)."""
    reference = load_reference(request.param)
    return request.param, reference, chain_from_reference(reference)


@pytest.fixture(autouse=True)
def _no_process_outlives_its_test():
    """Kill what a test started and left running (a failed one, typically)."""
    yield
    processes.reap()


@pytest.fixture(scope='session')
def ros2():
    """
    Return the ``ros2`` command, where dh_kinematics is built and sourced (``ros2_command``).

    The ros2 daemon a command started on this run's domain is stopped at the end.
    """
    from ros_fixtures import ros2_command
    command = ros2_command()
    yield command
    subprocess.run([command, 'daemon', 'stop'], capture_output=True, timeout=60)
