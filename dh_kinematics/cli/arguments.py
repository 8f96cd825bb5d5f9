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

"""The command line's shared argument types and groups (argparse)."""

import argparse
import ipaddress
import os
import re

PROG = 'dh_kinematics'
MODEL_FILE = 'the model file (a ROS 2 parameter file)'


def size(text):
    """Return WIDTHxHEIGHT in pixels as (width, height), 16 to 8000 each."""
    try:
        width, height = (int(part) for part in text.lower().split('x'))
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r}: give WIDTHxHEIGHT in pixels, e.g. '
                                         '800x600') from None
    if not (16 <= width <= 8000 and 16 <= height <= 8000):
        raise argparse.ArgumentTypeError(f'{text!r}: 16 to 8000 pixels each way')
    return width, height


INPUTS = ('file', 'files', 'model', 'table', 'urdf', 'data', 'validate', 'logs')
"""The arguments that name files a command reads, by their ``dest``."""
OUTPUTS = (('output', '-o'), ('report', '--report'), ('write_tf', '--write-tf'))
"""The arguments that name a file or folder a command writes: (``dest``, option)."""


def _same_file(first, second):
    """Tell whether two paths name one file or folder (the second need not exist)."""
    try:
        return os.path.samefile(first, second)
    except OSError:
        return os.path.abspath(first) == os.path.abspath(second)


def check_outputs(args):
    """
    Refuse a file or folder to write that is one the command reads (:data:`OUTPUTS`, INPUTS).

    Compared by :func:`os.path.samefile` where both exist (a link, another spelling of the path),
    else by absolute path. Raises ValueError naming the option and the input.
    """
    for dest, option in OUTPUTS:
        output = getattr(args, dest, None)
        if output:
            refuse_input(output, option, args)


def refuse_input(output, option, args):
    """Refuse ``output`` (given by ``option``) where it is one of the files ``args`` read."""
    for dest in INPUTS:
        value = getattr(args, dest, None)
        for given in [] if value is None else [value] if isinstance(value, str) else value:
            if _same_file(given, output):
                raise ValueError(f'{option} {output}: is also an input of the command ({given}); '
                                 'write to another path: nothing was written')


MAX_SAMPLES = 100_000
"""The most configurations ``moveit --samples`` draws (1 MB of them for 7 joints)."""


def _whole(text, low, high, meaning):
    """Return the whole number ``text`` spells, ``low`` to ``high``; else say ``meaning``."""
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f'{text!r}: {meaning}')
    return value


def samples(text):
    """Return a count of sampled configurations, 0 to MAX_SAMPLES."""
    return _whole(text, 0, MAX_SAMPLES, f'0 to {MAX_SAMPLES} configurations')


_HOST_LABEL = re.compile(r'[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?')


def port(text):
    """Return a TCP port, 1 to 65535."""
    return _whole(text, 1, 65535, 'a port from 1 to 65535')


def host(text):
    """Return an address to serve on: an IP address or a host name, never empty."""
    name = text.strip()
    try:
        ipaddress.ip_address(name.strip('[]'))
        return name.strip('[]')
    except ValueError:
        pass
    labels = name.rstrip('.').split('.')
    if not name or len(name) > 253 or not all(_HOST_LABEL.fullmatch(label) for label in labels):
        raise argparse.ArgumentTypeError(
            f'{text!r}: not an address; give 127.0.0.1 (this machine only, the default), an '
            "address or name of this machine's interface, or 0.0.0.0 (every interface)")
    return name


def period(text):
    """Return a refresh period, 0.01 to 60 s."""
    value = float(text)
    if not 0.01 <= value <= 60.0:
        raise argparse.ArgumentTypeError(f'{text}: a refresh period of 0.01 to 60 s')
    return value


def precision(text):
    """Return significant digits, 1 to 17, or None for full."""
    if text == 'full':
        return None
    return _whole(text, 1, 17, '1 to 17 significant digits, or full')


def precision_argument(parser, default, what):
    """Add --precision: significant digits of ``what``."""
    parser.add_argument('--precision', type=precision, default=default, metavar='N',
                        help=f'significant digits of {what}: 1 to 17, or full (the shortest '
                        f'text that reads back as the same double); default {default}')


def configuration_arguments(parser):
    """Add Q ..., --q-name and --deg: a configuration of the model."""
    parser.add_argument('q', nargs='*', metavar='Q', help='joint values, rad or m (deg with '
                        '--deg); all 0 when none is given')
    parser.add_argument('--q-name', help='a named configuration of the file '
                        '(configurations.<name>)')
    parser.add_argument('--deg', action='store_true', help='revolute joint values and '
                        'printed angles in degrees')
