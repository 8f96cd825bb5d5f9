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
What the launch files and ``make demo`` need: model files, the RViz config, argument values.

Pure Python (no launch or rclpy import), so it is tested without ROS. Built-in models are the
``config/*.yaml`` parameter files, found in the installed share folder or in this source tree.
"""

from collections import namedtuple
import os
import pathlib
import sys

from dh_kinematics.core.chain import Chain
from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.model_file.params import file_fields, suggestion
from dh_kinematics.core.names import check_prefixed
from dh_kinematics.parameters.specs import SIM_ARM

NODE_NAME = 'dh_kinematics'
_TRUE, _FALSE = ('true', '1', 'yes', 'on'), ('false', '0', 'no', 'off')

NODE_ARGUMENTS = {
    'robot': ('puma560', 'Built-in model, a file in config/: panda, puma560, puma560_mdh, '
              'stanford or ur5.'),
    'params_file': ('', 'Parameter file of your own (DH table, limits, dynamics, frames); '
                    'when given it replaces robot.'),
    'frame_prefix': ('', 'Prefix for every published frame name except the world frame, '
                     'as in robot_state_publisher (e.g. left/).'),
    'namespace': ('', 'Namespace of the node: it subscribes to <namespace>/joint_states.'),
    'use_sim_time': ('false', 'Use the /clock topic as the clock (true or false).'),
}
"""Arguments of dh_kinematics.launch.py: name -> (default value, description)."""

DEMO_ARGUMENTS = {
    'rviz': ('false', 'Start RViz with config/dh_kinematics.rviz (true or false).'),
    'rate': ('100.0', 'Rate at which sim_arm publishes joint_states, Hz.'),
    'overshoot': ('0.05', 'How far sim_arm sweeps past both limits, rad or m (0: stay inside).'),
}
"""Arguments demo.launch.py adds: name -> (default value, description)."""

NodeSettings = namedtuple('NodeSettings', 'params_file chain frame_prefix namespace use_sim_time')
NodeSettings.__doc__ = """The node's launch settings: parameter file (Path), model (Chain),
frame prefix, namespace (str) and use_sim_time (bool)."""


def config_dir():
    """Return the folder of the built-in model files and the RViz config."""
    source = pathlib.Path(__file__).resolve().parents[2] / 'config'
    try:
        from ament_index_python.packages import get_package_share_directory
        installed = pathlib.Path(get_package_share_directory('dh_kinematics'), 'config')
    except (ImportError, LookupError, OSError, ValueError):
        return source
    return installed if installed.is_dir() else source


NOT_MODELS = ('diagnostic_analyzers',)
"""Parameter files in config/ that are not robot models (nor are ``*_joint_limits.yaml`` and
``*_safety.yaml``: settings passed beside a model)."""


def builtin_models():
    """Return the names of the built-in models, sorted (``puma560``, ``panda``, ...)."""
    return sorted(path.stem for path in config_dir().glob('*.yaml') if path.stem not in
                  NOT_MODELS and not path.stem.endswith(('_joint_limits', '_safety')))


def model_file(robot, params_file=''):
    """
    Return the parameter file to load: ``params_file`` if given, else the built-in ``robot``.

    Parameters
    ----------
    robot : str
        Name of a built-in model; used when ``params_file`` is empty.
    params_file : str
        Path of a parameter file of your own; ``~`` is expanded.

    Returns
    -------
    path : pathlib.Path

    Raises
    ------
    ValueError
        If ``params_file`` is not a file, or ``robot`` is not a built-in model.

    """
    if params_file:
        path = pathlib.Path(params_file).expanduser()
        if not path.is_file():
            raise InvalidFieldError('params_file', params_file, 'must name a file that exists')
        return path
    if robot not in builtin_models():
        raise InvalidFieldError('robot', robot, f'must be a built-in model '
                                f'({", ".join(builtin_models())}), or give params_file')
    return config_dir() / f'{robot}.yaml'


def node_name(namespace=''):
    """Return the node's fully qualified name in ``namespace`` (``/left/dh_kinematics``)."""
    return '/'.join(['', *namespace.strip('/').split('/'), NODE_NAME]).replace('//', '/')


def load_model(path, namespace=''):
    """
    Read and check the model the node will load from ``path``; return the Chain.

    As the node reads it: the blocks that reach the node in ``namespace`` (``/**``,
    ``/**/dh_kinematics``, its full name), merged; a typo, a list rcl cannot read or a file keyed
    for another node is refused, naming the file.
    """
    return Chain.from_yaml(path, node_name=node_name(namespace))


def check_arguments(argv, declared, launch_file, command_line=None):
    """
    Refuse a ``name:=value`` argument of ``ros2 launch`` that ``launch_file`` does not declare.

    ``argv`` is the launch's arguments (``LaunchContext.argv``), ``declared`` the names the
    file declares. Launch itself ignores an unknown argument; this stops the launch with one
    line naming it. Only for the file ``ros2 launch`` was given (its name is on
    ``command_line``, ``sys.argv`` by default): a file another one includes sees the
    arguments of the file that includes it.
    """
    command_line = sys.argv if command_line is None else command_line
    if os.path.basename(launch_file) not in {os.path.basename(str(arg)) for arg in command_line}:
        return
    for arg in argv:
        name, assigned, value = str(arg).partition(':=')
        if assigned and name not in declared:
            hint = suggestion(name.replace('.', '_'), list(declared))
            raise InvalidFieldError(name, value, f'no such launch argument{hint}; '
                                    f'{os.path.basename(launch_file)} takes '
                                    f'{", ".join(declared)}')


def node_settings(configurations):
    """
    Resolve and check the node's launch arguments.

    Parameters
    ----------
    configurations : mapping of str to str
        The launch configurations (argument values as text); missing ones take their
        defaults from :data:`NODE_ARGUMENTS`.

    Returns
    -------
    settings : NodeSettings

    Raises
    ------
    ValueError
        Naming the argument or model parameter that is wrong.

    """
    def value(name):
        return configurations.get(name, NODE_ARGUMENTS[name][0])

    path = model_file(value('robot'), value('params_file'))
    chain = load_model(path, value('namespace'))
    with file_fields():
        prefix = check_prefixed(chain, value('frame_prefix'))
    return NodeSettings(path, chain, prefix, value('namespace'),
                        parse_bool('use_sim_time', value('use_sim_time')))


def demo_settings(configurations):
    """
    Resolve and check everything demo.launch.py needs before it starts any process.

    Returns
    -------
    settings : NodeSettings
        As :func:`node_settings`.
    sim_arm : dict
        The sim_arm parameters ``rate`` in Hz and ``overshoot`` in rad or m.
    rviz : list of str or None
        The RViz command-line arguments, or None when ``rviz`` is false.

    Raises
    ------
    ValueError
        Naming the argument that is wrong, or saying that RViz is asked for but not installed.

    """
    def value(name):
        return configurations.get(name, DEMO_ARGUMENTS[name][0])

    settings = node_settings(configurations)
    specs = {spec.name: spec for spec in SIM_ARM}
    sim_arm = {name: parse_float(name, value(name), specs[name].minimum, specs[name].maximum)
               for name in ('rate', 'overshoot')}
    rviz = None
    if parse_bool('rviz', value('rviz')):
        if not installed('rviz2'):
            raise InvalidFieldError('rviz', value('rviz'), 'needs the rviz2 package, which is '
                                    'not installed (apt install ros-$ROS_DISTRO-rviz2)')
        rviz = ['-d', str(rviz_config()),
                '-f', fixed_frame(settings.chain, settings.frame_prefix)]
    return settings, sim_arm, rviz


def installed(package):
    """Tell whether the ament index knows a ROS package: whether it is installed."""
    try:
        from ament_index_python.packages import get_package_prefix
        get_package_prefix(package)
    except (ImportError, LookupError, OSError, ValueError):
        return False
    return True


def rviz_config():
    """Return the RViz config file: a grid and the TF display."""
    return config_dir() / 'dh_kinematics.rviz'


def fixed_frame(chain, frame_prefix=''):
    """Return the frame RViz should fix: the prefixed base frame of ``chain``."""
    return frame_prefix + chain.base_frame


def parse_bool(name, text):
    """
    Return the boolean a launch argument spells (true/false, 1/0, yes/no, on/off).

    Raises
    ------
    ValueError
        Naming the argument ``name``, if ``text`` is none of those.

    """
    word = str(text).strip().lower()
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    raise InvalidFieldError(name, text, 'must be true or false')


def parse_float(name, text, minimum=None, maximum=None):
    """
    Return the number a launch argument spells, checked against [minimum, maximum].

    Raises
    ------
    ValueError
        Naming the argument ``name``, if ``text`` is not a finite number in range.

    """
    try:
        number = float(text)
    except (TypeError, ValueError):
        number = float('nan')
    if number != number or number in (float('inf'), float('-inf')):
        raise InvalidFieldError(name, text, 'must be a finite number')
    if minimum is not None and not minimum <= number <= maximum:
        raise InvalidFieldError(name, text, f'must be within [{minimum:g}, {maximum:g}]')
    return number
