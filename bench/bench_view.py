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
``view --follow`` on long descriptions: drawing one and refreshing its pose, against yourdfpy.

A chain of N links (a cylinder each, as ``Chain.to_urdf`` writes them) is described to a
:class:`FollowPage` on a loopback viser server, then posed at new joint values; the same pose is
asked of yourdfpy (``update_cfg`` and ``get_transform`` of every link, the way the page posed
links before issue 58). Prints seconds per description and per refresh at each N, and the
targets: a refresh of 250 links within 0.5 s, a description within 5 s (issue 58: 70 s).

    .venv/bin/python bench/bench_view.py
"""

import argparse
import io
import time

from dh_kinematics import Chain, Link
from dh_kinematics.cli.view import viser_server
from dh_kinematics.viewer.follow import FollowPage
import numpy as np
import yourdfpy

PEER_UP_TO = 120
"""yourdfpy's way is timed up to this many links (it took 70 s a refresh at 250)."""


def _arm(n):
    return Chain([Link(a=0.05, alpha=0.3, d=0.01, name=f'j{k}') for k in range(n)])


def _seconds(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--links', type=int, nargs='+', default=[30, 60, 120, 250])
    args = parser.parse_args()
    server = viser_server('127.0.0.1', 8765)
    rng = np.random.default_rng(58)
    rows, met = [], True
    try:
        for n in args.links:
            chain = _arm(n)
            text = chain.to_urdf()
            page = FollowPage(server, False, 'bench')
            describe = _seconds(lambda: page.describe(text))
            q = rng.uniform(-1.0, 1.0, n)
            page.joint_states(1.0, chain.joint_names, q)
            refresh = _seconds(lambda: page.refresh(1.0))
            peer = float('nan')
            if n <= PEER_UP_TO:
                urdf = yourdfpy.URDF.load(io.StringIO(text))
                cfg = dict(zip(chain.joint_names, q))
                peer = _seconds(lambda: (urdf.update_cfg(cfg), [
                    urdf.get_transform(link) for link in urdf.link_map]))
            rows.append((n, len(text), describe, refresh, peer))
            if n >= 250:
                met = met and refresh <= 0.5 and describe <= 5.0
    finally:
        server.stop()
    print(f'yourdfpy {yourdfpy.__version__}')
    print('| links | URDF chars | describe (s) | refresh (s) | yourdfpy pose (s) |')
    print('|---|---|---|---|---|')
    for n, chars, describe, refresh, peer in rows:
        print(f'| {n} | {chars} | {describe:.3f} | {refresh:.3f} | {peer:.3f} |')
    print('targets (250 links: refresh <= 0.5 s, describe <= 5 s):', 'met' if met else 'MISSED')
    return 0 if met else 1


if __name__ == '__main__':
    raise SystemExit(main())
