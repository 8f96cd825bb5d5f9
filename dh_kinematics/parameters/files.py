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
What reaches a node from parameter files and overrides, read and checked the one way.

The node itself gets its parameters from rcl, which reads its ``--params-file`` arguments and
``-p`` overrides; everything else that must judge them before a node starts (the command
line, the launch files, the viewer, the demo) calls :func:`read`, which merges the files as rcl
does for the node's name, puts the overrides over them and checks the whole as the node does
(:func:`validation.checked`): one verdict, in the same words, whichever door a model comes
through.
"""

import os

from dh_kinematics.core.model_file import parameter_file
from dh_kinematics.parameters import startup
from dh_kinematics.parameters.specs import NODE
from dh_kinematics.parameters.validation import checked, NoModelError

NODE_NAME = '/dh_kinematics'
"""The node's fully qualified name when no namespace is given."""


def read(paths, node_name=NODE_NAME, overrides=None, setting_specs=NODE,
         executable='dh_kinematics_node'):
    """
    Read parameter files as rcl does for ``node_name``, put ``overrides`` over them, check all.

    Parameters
    ----------
    paths : path or sequence of paths
        The ``--params-file`` arguments, in order: a later file's value wins, as in rcl.
    node_name : str
        The node's fully qualified name: the blocks that reach it are merged.
    overrides : dict, optional
        Parameter values set after the files (``-p``, launch arguments), by name.
    setting_specs : sequence of ParameterSpec
        The node's settings.
    executable : str
        The node's executable, for the message when no model reaches it.

    Returns
    -------
    given : dict
        The parameters as given, merged, by name.
    parameters : validation.Parameters
        The checked record the node would build.

    Raises
    ------
    ValueError
        The node's own message: a file rcl cannot read (its line), a parameter refused (its
        name), or no model reaching the node (which blocks the files have).

    """
    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    documents = [(path, parameter_file.read(path)) for path in paths]  # as the node's start
    given = dict(parameter_file.merged(documents, node_name), **(overrides or {}))
    try:
        return given, checked(given, setting_specs, node_name)
    except NoModelError:
        argv = ['--ros-args'] + [arg for path in paths for arg in ('--params-file', str(path))]
        raise ValueError(startup.no_model_message(node_name, argv, executable)) from None
