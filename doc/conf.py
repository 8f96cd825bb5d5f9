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

"""Sphinx configuration of the dh_kinematics documentation (``make docs``; rosdoc2 too)."""

import pathlib
import sys

DOC = pathlib.Path(__file__).resolve().parent
if (DOC.parent / 'dh_kinematics').is_dir():  # make docs; rosdoc2 runs this file from a copy
    sys.path.insert(0, str(DOC.parent))  # the package itself, for autodoc and the tables
    from dh_kinematics.cli import reference

    reference.write(DOC / 'generated')  # the parameter and command-line tables, from the code

project = 'dh_kinematics'
author = 'The dh_kinematics authors'
copyright = '2026, The dh_kinematics authors'  # noqa: A001
release = version = '0.1.0'

extensions = ['myst_parser', 'sphinx.ext.autodoc', 'sphinx.ext.autosummary',
              'sphinx.ext.napoleon', 'sphinx.ext.mathjax', 'sphinx.ext.viewcode']
source_suffix = {'.md': 'markdown', '.rst': 'restructuredtext'}
myst_enable_extensions = ['dollarmath']
myst_heading_anchors = 3
exclude_patterns = ['_build', 'README.md']
napoleon_numpy_docstring = True
napoleon_google_docstring = False
autodoc_member_order = 'bysource'
autodoc_default_options = {'members': True, 'show-inheritance': False}
nitpicky = False
html_theme = 'sphinx_rtd_theme'
