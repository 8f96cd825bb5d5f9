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
``dh_kinematics health``: a simulated fleet judged, here and on Dask; its faults.

The fleet (examples/simulate_fleet.py) is pinocchio's: each log's efforts are ``rnea`` of its
motion (the exact inverse of the ``aba`` a simulation integrates) with the package's friction,
seeded noise on the velocities and efforts. Its truths are the simulation's: the friction each
log was made with, the pushes' stamps, the file cut short.
"""

import csv
import os
import signal
import subprocess

from dh_kinematics import Chain
from helpers import (CLI_COMMAND, example, needs, needs_matplotlib, needs_pin, PACKAGE,
                     pin_dynamics, random_arm, run_cli, run_cli_without)
import numpy as np
from processes import spawn
import pytest

needs_dask = needs('distributed', "pip install 'dask[distributed]', or apt install "
                   'python3-distributed')
DAY_S = 86400.0
GROWN = (0, 1, 5, 0.05)
"""The Panda's second joint: its friction grows 5 % a log from the sixth on."""


def _arms():
    contact = example('simulate_contact')
    return [('panda', contact.with_motors(Chain.from_yaml(PACKAGE / 'config' / 'panda.yaml'))),
            ('ur5', contact.with_motors(Chain.from_yaml(PACKAGE / 'config' / 'ur5.yaml'))),
            # seven joints, one prismatic, modified DH, one of 0.2 rad of range
            ('random', contact.with_motors(random_arm(np.random.default_rng(151))))]


def _fleet(folder, logs, seconds, pushes=True):
    """Write the fleet; return (the module, its truth, the pushes)."""
    simulate = example('simulate_fleet')
    found = [simulate.Push(1, 2, 0.5 * seconds, (0.0, 0.0, -40.0)),
             simulate.Push(2, logs - 4, 0.5 * seconds, (30.0, 0.0, 0.0))] if pushes else []
    truth = simulate.fleet(folder, _arms(), logs, seconds, 250.0, grow=GROWN, pushes=found,
                           cut=(2, logs - 1), dynamics=pin_dynamics)
    return simulate, truth, found


def _models(folder):
    return [folder / f'{name}.yaml' for name in ('panda', 'ur5', 'random')]


def _rows(path):
    with open(path, newline='') as stream:
        return list(csv.DictReader(stream))


@pytest.fixture(scope='module')
def big_fleet(tmp_path_factory):
    """Three arms, twelve logs of a minute each, judged here: (folder, report, stdout, truth)."""
    folder = tmp_path_factory.mktemp('fleet')
    simulate, truth, pushes = _fleet(folder / 'logs', 12, 60.0)
    out, _ = run_cli('health', *_models(folder / 'logs'), folder / 'logs', '--report',
                     folder / 'report', '--workers', '1')
    return folder, out, truth, pushes, simulate


@pytest.mark.slow  # 36 logs of a minute: 3 min
@needs_pin
@needs_matplotlib
def test_the_joint_that_drifts_the_contacts_and_the_cut_log_are_found(big_fleet):
    folder, out, truth, pushes, simulate = big_fleet
    report = folder / 'report'
    logs, joints = _rows(report / 'logs.csv'), _rows(report / 'joints.csv')
    assert len(logs) == 36 and [row['arm'] for row in logs] == ['panda'] * 12 + [
        'random'] * 12 + ['ur5'] * 12  # the folders' order
    # The drift: exactly the grown joint, first at the log where the truth's change passes
    # 4 standard deviations of the fits (the log's and the baseline's mean).
    grown = [row for row in joints if row['joint'] == 'panda_joint2']
    columns = (('viscous (N m s/rad)', 'viscous std'), ('Coulomb + (N m)', 'Coulomb + std'),
               ('Coulomb - (N m)', 'Coulomb - std'))
    std = np.array([[float(row[s]) for _, s in columns] for row in grown])
    baseline_std = 1.0 / np.sqrt(np.sum(1.0 / std[:5] ** 2, axis=0))
    first = truth[0, 0].links[1]
    expected = None
    for k in range(5, 12):
        link = truth[0, k].links[1]
        change = np.array([link.B, *link.Tc]) - [first.B, *first.Tc]
        if (np.abs(change) / np.hypot(std[k], baseline_std) > 4.0).any():
            expected = k
            break
    drift = [line for line in out.splitlines() if line.startswith('drift:')]
    log = folder / 'logs' / 'panda' / f'day-{expected + 1:02d}.csv'
    assert len(drift) == 1 and drift[0].startswith(f'drift: panda panda_joint2 from {log} ')
    # The pushes: an ERROR each, at the push (the observer's estimate needs a few ms).
    errors = [line for line in out.splitlines() if line.startswith('ERROR:')]
    assert len(errors) == len(pushes) == 2
    for push, row in zip(pushes, [row for row in logs if row['first ERROR stamp (s)']]):
        start = float(row['first stamp (s)']) + push.at
        assert start <= float(row['first ERROR stamp (s)']) <= start + simulate.PUSH_S
    # The cut log: judged up to its cut, said; the others whole.
    cut = [row for row in logs if row['problem']]
    assert [row['path'] for row in cut] == [str(folder / 'logs' / 'random' / 'day-12.csv')]
    assert 'judged up to where it stopped' in cut[0]['problem']
    assert 7000 < int(cut[0]['messages']) < 15000
    assert all(int(row['messages']) == 15000 for row in logs if not row['problem'])
    # The frictions against the truth: about 700 values, of which a normal tail holds 0.27 %
    # past 3 standard deviations; none past 4.
    z = []
    for row in joints:
        a = ('panda', 'ur5', 'random').index(row['arm'])
        k = int(row['path'][-6:-4]) - 1
        j = [link.name for link in truth[a, k].links].index(row['joint'])
        link = truth[a, k].links[j]
        z += [(float(row[v]) - t) / float(row[s])
              for (v, s), t in zip(columns, (link.B, *link.Tc))]
    z = np.abs(z)
    assert len(z) > 650 and np.mean(z > 3.0) < 0.01 and z.max() < 4.0


@pytest.mark.slow
@needs_pin
@needs_matplotlib
def test_the_page_links_every_log_and_shows_the_flagged_joint_first(big_fleet):
    folder, _, _, _, _ = big_fleet
    report = folder / 'report'
    page = (report / 'index.html').read_text()
    for row in _rows(report / 'logs.csv'):
        assert f'href="{row["report"]}"' in page
        assert (report / row['report']).is_file()
    pictures = [part.split('"')[0] for part in page.split('<img src="')[1:]]
    assert pictures[0] == 'joints/panda--panda_joint2.png'
    assert len(pictures) == 7 + 6 + 7 and all((report / p).is_file() for p in pictures)


@pytest.fixture(scope='module')
def small_fleet(tmp_path_factory):
    """Three arms, four logs of 8 s each, with a push and a cut log."""
    folder = tmp_path_factory.mktemp('small')
    _fleet(folder, 4, 8.0)
    return folder


def _same_reports(first, second):
    for name in ('logs.csv', 'joints.csv'):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    for log in (first / 'logs').iterdir():
        for name in ('transitions.csv', 'maxima.csv'):
            assert (log / name).read_bytes() == (second / 'logs' / log.name / name
                                                 ).read_bytes()


@needs_dask
@needs_pin
@needs_matplotlib
def test_a_run_on_dask_writes_the_same_bytes_as_a_serial_one(small_fleet, tmp_path):
    from distributed import LocalCluster

    models = _models(small_fleet)
    run_cli('health', *models, small_fleet, '--report', tmp_path / 'serial', '--workers', '1')
    run_cli('health', *models, small_fleet, '--report', tmp_path / 'two', '--workers', '2')
    with LocalCluster(n_workers=2, threads_per_worker=1, host='127.0.0.1',
                      dashboard_address=None) as cluster:
        run_cli('health', *models, small_fleet, '--report', tmp_path / 'cluster',
                '--scheduler', cluster.scheduler_address)
    _same_reports(tmp_path / 'serial', tmp_path / 'two')
    _same_reports(tmp_path / 'serial', tmp_path / 'cluster')
    logs = _rows(tmp_path / 'serial' / 'logs.csv')
    assert len(logs) == 12 and sum(bool(row['first ERROR stamp (s)']) for row in logs) == 2


class _Killer:
    """A Dask worker plugin: the worker dies as it starts a log's task (test only)."""

    def __init__(self, doomed):
        self.doomed = doomed  # a log's report name -> the tries it dies on

    def setup(self, worker):
        pass

    def teardown(self, worker):
        pass

    def transition(self, key, start, finish, **kwargs):
        if finish != 'executing':
            return
        for name, tries in self.doomed.items():
            if f'-{name}-try-' in key and int(key.rsplit('-', 1)[1]) in tries:
                os._exit(1)


@needs_dask
@needs_pin
@needs_matplotlib
def test_a_log_whose_worker_is_lost_is_tried_again_once_then_reported(small_fleet, tmp_path):
    import dask
    from distributed import Client, LocalCluster, WorkerPlugin

    killer = type('Killer', (_Killer, WorkerPlugin), {})(
        {'panda--day-02': (1,), 'ur5--day-01': (1, 2)})
    with dask.config.set({'distributed.scheduler.allowed-failures': 0}), LocalCluster(
            n_workers=2, threads_per_worker=1, host='127.0.0.1',
            dashboard_address=None) as cluster, Client(cluster) as client:
        client.register_plugin(killer)
        out, _ = run_cli('health', *_models(small_fleet), small_fleet / 'panda',
                         small_fleet / 'ur5', '--report', tmp_path / 'r', '--scheduler',
                         cluster.scheduler_address)
    logs = {row['report'] or row['path']: row for row in _rows(tmp_path / 'r' / 'logs.csv')}
    assert logs['logs/panda--day-02/index.html']['problem'] == ''  # lost once, done again
    lost = logs[str(small_fleet / 'ur5' / 'day-01.csv')]
    assert lost['problem'].startswith('its worker was lost twice') and lost['messages'] == '0'
    assert f'problem: {small_fleet / "ur5" / "day-01.csv"}: its worker was lost twice' in out
    assert len(logs) == 8


@needs_pin
@needs_matplotlib
def test_ctrl_c_leaves_the_logs_done_whole_and_their_summary(small_fleet, tmp_path):
    report = tmp_path / 'r'
    process = spawn(CLI_COMMAND + ['health'] + [str(p) for p in _models(small_fleet)] + [
        str(small_fleet), '--report', str(report), '--workers', '1'],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = next(line for line in process.stderr if line.startswith('health: ['))  # a log done
    assert ' 1/12 logs' in line, line
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert '(interrupted)' in out
    logs = _rows(report / 'logs.csv')
    assert 1 <= len(logs) < 12
    for row in logs:
        assert (report / row['report']).is_file()
    assert sorted(p.name for p in (report / 'logs').iterdir()) == sorted(
        row['report'].split('/')[1] for row in logs)  # nothing half-written
    assert not list(report.rglob('.*'))


@needs_pin
@needs_matplotlib
def test_a_foreign_an_unreadable_and_a_missing_log_are_a_row_each(small_fleet, tmp_path):
    garbage = tmp_path / 'garbage.csv'
    garbage.write_bytes(b'\x00\xff' * 100)
    missing = tmp_path / 'missing.csv'
    out, _ = run_cli('health', small_fleet / 'panda.yaml', small_fleet / 'panda' / 'day-01.csv',
                     small_fleet / 'ur5' / 'day-01.csv', garbage, missing, '--report',
                     tmp_path / 'r', '--workers', '1')
    rows = _rows(tmp_path / 'r' / 'logs.csv')
    assert [row['problem'] == '' for row in rows] == [True, False, False, False]
    assert 'are none of the model' in rows[1]['problem']
    assert 'not UTF-8' in rows[2]['problem']
    assert 'missing.csv' in rows[3]['problem']
    assert out.count('problem: ') == 3


@needs_pin
def test_what_cannot_run_is_refused_in_one_line(small_fleet, tmp_path):
    model = small_fleet / 'panda.yaml'
    taken, empty = tmp_path / 'taken', tmp_path / 'empty'
    taken.mkdir()
    empty.mkdir()
    (taken / 'file').write_text('')
    for args, said in (
            ([model, small_fleet, '--report', taken], 'exists and is not an empty folder'),
            ([model, '--report', tmp_path / 'r'], 'give the logs after the model files'),
            ([small_fleet / 'panda' / 'day-01.csv', '--report', tmp_path / 'r'],
             'give the model file (.yaml) first'),
            ([model, empty, '--report', tmp_path / 'r'], 'no logs in'),
            ([model, small_fleet, '--report', tmp_path / 'r', '--workers', '0'],
             '--workers 0: give 1 or more'),
            ([model, small_fleet, '--report', tmp_path / 'r', '--baseline', '0'],
             '--baseline 0: give 1 or more logs'),
            ([model, small_fleet, '--report', tmp_path / 'r', '--drift-sigma', 'nan'],
             '--drift-sigma nan: give a number above 0')):
        _, err = run_cli('health', *args, code=1)
        assert said in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / 'r').exists()
    assert sorted(p.name for p in taken.iterdir()) == ['file']


@needs_dask
@needs_pin
def test_a_scheduler_that_does_not_answer_is_said_and_leaves_nothing(small_fleet, tmp_path):
    import socket

    with socket.socket() as unused:  # a port nobody listens on
        unused.bind(('127.0.0.1', 0))
        address = f'tcp://127.0.0.1:{unused.getsockname()[1]}'
    _, err = run_cli('health', small_fleet / 'panda.yaml', small_fleet / 'panda', '--report',
                     tmp_path / 'r', '--scheduler', address, code=1)
    assert f'--scheduler {address}: no Dask scheduler answers there' in err
    assert not (tmp_path / 'r').exists()


@needs_pin
def test_dask_missing_is_said_with_what_to_install(small_fleet, tmp_path):
    _, err = run_cli_without('distributed', 'health', small_fleet / 'panda.yaml',
                             small_fleet / 'panda', '--report', tmp_path / 'r', '--workers',
                             '2', code=1)
    assert "pip install 'dask[distributed]'" in err
    assert not (tmp_path / 'r').exists()
    # Without --workers: here, one log at a time, said.
    _, err = run_cli_without('distributed', 'health', small_fleet / 'panda.yaml',
                             small_fleet / 'panda' / 'day-01.csv', '--report', tmp_path / 'r')
    assert 'note: judging one log at a time' in err and (tmp_path / 'r' / 'logs.csv').is_file()


@needs('rosbags', 'pip install rosbags')
@needs_pin
@needs_matplotlib
def test_a_bag_names_its_arm_by_its_robot_description(small_fleet, tmp_path):
    from dh_kinematics.logs import csv_log
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import get_typestore, Stores

    log = csv_log.read(small_fleet / 'panda' / 'day-01.csv')
    store = get_typestore(Stores.ROS2_JAZZY)
    JointState, String = (store.types[name] for name in (
        'sensor_msgs/msg/JointState', 'std_msgs/msg/String'))
    Header, Time = store.types['std_msgs/msg/Header'], store.types['builtin_interfaces/msg/Time']
    bag = tmp_path / 'cell' / 'cell-3'
    bag.parent.mkdir()
    with Writer(bag, version=9) as writer:
        description = writer.add_connection('/robot_description', String.__msgtype__,
                                            typestore=store)
        joints = writer.add_connection('/joint_states', JointState.__msgtype__,
                                       typestore=store)
        stamp = int(log.time[0] * 1e9)
        writer.write(description, stamp, store.serialize_cdr(
            String('<robot name="cell-3-panda"/>'), String.__msgtype__))
        for k, time in enumerate(log.time):
            stamp = int(round(time * 1e9))
            message = JointState(Header(Time(*divmod(stamp, 10 ** 9)), ''), list(log.names),
                                 *(np.ascontiguousarray(values[k]) for values in (
                                     log.position, log.velocity, log.effort)))
            writer.write(joints, stamp, store.serialize_cdr(message, JointState.__msgtype__))
    run_cli('health', small_fleet / 'panda.yaml', tmp_path / 'cell', small_fleet / 'panda' /
            'day-01.csv', '--report', tmp_path / 'r', '--workers', '1')
    bag_row, csv_row = _rows(tmp_path / 'r' / 'logs.csv')
    assert (bag_row['arm'], csv_row['arm']) == ('cell-3-panda', 'panda')
    assert bag_row['report'].endswith('--cell--cell-3/index.html')
    # The same messages, the same figures.
    assert {k: v for k, v in bag_row.items() if k not in ('path', 'report', 'arm')} == {
        k: v for k, v in csv_row.items() if k not in ('path', 'report', 'arm')}
