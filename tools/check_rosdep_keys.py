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
Check that every dependency in package.xml is a rosdep key or a package of a distribution.

Usage: python3 tools/check_rosdep_keys.py ROSDISTRO [--distro jazzy kilted], where
ROSDISTRO is a checkout of https://github.com/ros/rosdistro. A key resolves when a
distribution's distribution.yaml releases a package of that name, or rosdep/*.yaml has
it for Ubuntu (or for every platform through pip). Prints one line per key; exit 1 if any key
does not resolve for a distribution.
"""

import argparse
import pathlib
import sys
import xml.etree.ElementTree as ElementTree

import yaml

DEPENDS = ('depend', 'build_depend', 'buildtool_depend', 'exec_depend', 'test_depend',
           'doc_depend')


def package_keys(path):
    """Return (tag, key) for every dependency of a package.xml."""
    root = ElementTree.parse(path).getroot()
    return [(element.tag, element.text.strip()) for tag in DEPENDS for element in root.iter(tag)]


def released_packages(rosdistro, distro):
    """Return the names of the packages a distribution releases."""
    with open(rosdistro / distro / 'distribution.yaml', encoding='utf-8') as stream:
        repositories = yaml.safe_load(stream)['repositories']
    names = set()
    for name, repository in repositories.items():
        release = repository.get('release')
        if release:
            names.update(release.get('packages') or [name])
    return names


def rosdep_rules(rosdistro):
    """Return every rule of rosdep/*.yaml: key -> its platforms, merged across files."""
    rules = {}
    for path in sorted((rosdistro / 'rosdep').glob('*.yaml')):
        with open(path, encoding='utf-8') as stream:
            for key, platforms in (yaml.safe_load(stream) or {}).items():
                if isinstance(platforms, dict):
                    rules.setdefault(key, {}).update(platforms)
    return rules


def resolution(key, packages, rules):
    """Say how a key resolves, or return None."""
    if key in packages:
        return 'a released package'
    rule = rules.get(key)
    if not isinstance(rule, dict):
        return None
    if 'ubuntu' in rule:
        return f'rosdep, ubuntu: {rule["ubuntu"]}'
    if '*' in rule:
        return f'rosdep, every platform: {rule["*"]}'
    return None


def main(argv=None):
    """Check the keys; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[1])
    parser.add_argument('rosdistro', type=pathlib.Path)
    parser.add_argument('--distro', nargs='+', default=['jazzy', 'kilted'])
    parser.add_argument('--package', type=pathlib.Path,
                        default=pathlib.Path(__file__).parents[1] / 'package.xml')
    args = parser.parse_args(argv)
    rules = rosdep_rules(args.rosdistro)
    missing = 0
    for distro in args.distro:
        packages = released_packages(args.rosdistro, distro)
        for tag, key in package_keys(args.package):
            how = resolution(key, packages, rules)
            missing += how is None
            print(f'{distro}: {tag} {key}: {how or "DOES NOT RESOLVE"}')
    print(f'{missing} key(s) do not resolve')
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
