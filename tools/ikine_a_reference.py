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
Write test/data/puma560_ikine_a.json: the toolbox's closed-form Puma 560 solutions.

Usage: .venv-bench/bin/python tools/ikine_a_reference.py (roboticstoolbox-python, which `make
bench` installs there). Targets are the toolbox's forward kinematics of seeded random
configurations within the Puma's limits; for each, ``Puma560.ikine_a`` is asked for its eight
configurations (l/r, u/d, n/f). The toolbox ignores the joint limits there, so the file holds
the whole set of each target.
"""

import itertools
import json
import pathlib
import sys
import warnings

import numpy as np

OUTPUT = pathlib.Path(__file__).parents[1] / 'test' / 'data' / 'puma560_ikine_a.json'
TARGETS = 40


def main():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        import roboticstoolbox

    puma = roboticstoolbox.models.DH.Puma560()
    rng = np.random.default_rng(2032)
    configs = [''.join(c) for c in itertools.product('lr', 'ud', 'nf')]
    targets = []
    for _ in range(TARGETS):
        q = rng.uniform(puma.qlim[0], puma.qlim[1])
        T = puma.fkine(q).A
        solutions = {}
        for config in configs:
            solution = puma.ikine_a(T, config=config)
            if solution.success:
                solutions[config] = list(solution.q)
        targets.append({'q': list(q), 'T': T.tolist(), 'solutions': solutions})
    OUTPUT.write_text(json.dumps({
        'source': f'roboticstoolbox-python {roboticstoolbox.__version__}, '
                  'models.DH.Puma560().ikine_a(T, config) for every config',
        'configs': configs, 'targets': targets}, indent=1) + '\n')
    print(f'wrote {OUTPUT}: {len(targets)} targets')
    return 0


if __name__ == '__main__':
    sys.exit(main())
