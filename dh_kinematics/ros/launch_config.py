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
import math
import os
import pathlib
import sys
import tempfile

from dh_kinematics.core.checks import InvalidFieldError
from dh_kinematics.core.model_file.params import suggestion
from dh_kinematics.parameters import files
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
    'joint_limits_file': ('', 'A second parameter file merged over the model as the node merges '
                          'them, such as a ros2_control or MoveIt joint_limits.yaml.'),
    'tf_max_rate': ('0.0', 'Publish /tf at most this often per joint, Hz (the tf.max_rate '
                    'parameter; 0 publishes every message).'),
    'xyz': ('', "Where the arm's base stands in the world, m: 'x y z' (base.xyz; the "
            "model's own when empty)."),
    'rpy': ('', "The base's orientation in the world, rad: 'roll pitch yaw' (base.rpy; the "
            "model's own when empty)."),
    'managed': ('false', 'Start the node as a managed (lifecycle) node, which publishes only '
                'once configured and activated (true or false).'),
}
"""Arguments of dh_kinematics.launch.py: name -> (default value, description)."""

DEMO_ARGUMENTS = {
    'rviz': ('false', 'Start RViz with config/dh_kinematics.rviz (true or false).'),
    'rate': ('100.0', 'Rate at which sim_arm publishes joint_states, Hz.'),
    'overshoot': ('0.05', 'How far sim_arm sweeps past both limits, rad or m (0: stay inside).'),
}
"""Arguments demo.launch.py adds: name -> (default value, description)."""

CONTROL_ARGUMENTS = {
    'plugin': ('mock', "The hardware plugin of the URDF's <ros2_control> block: mock "
               '(mock_components/GenericSystem) or package/Class.'),
    'initial_configuration': ('', 'The named configuration the joints start at '
                              "(configurations.<name>; each joint's 0 within its limits when "
                              'empty).'),
    'controller': ('joint_trajectory_controller', 'The controller spawned beside the '
                   'joint_state_broadcaster: joint_trajectory_controller or '
                   'forward_position_controller.'),
    'update_rate': ('100', "The controller manager's update rate, Hz."),
}
"""Arguments control.launch.py adds: name -> (default value, description)."""
CONTROLLERS = {
    'joint_trajectory_controller': 'joint_trajectory_controller/JointTrajectoryController',
    'forward_position_controller': 'forward_command_controller/ForwardCommandController',
}
"""The controllers control.launch.py can spawn, with their plugin types."""

LAUNCH_FILES = {
    'dh_kinematics.launch.py': NODE_ARGUMENTS,
    'demo.launch.py': dict(NODE_ARGUMENTS, **DEMO_ARGUMENTS),
    # The controller manager needs the description at once: no managed node.
    'control.launch.py': dict({name: value for name, value in NODE_ARGUMENTS.items()
                               if name != 'managed'}, **CONTROL_ARGUMENTS),
}
"""Every argument each launch file takes, its included file's among them: name -> (default
value, description). What a file declares and what it checks a command line against."""


def launch_arguments(launch_file):
    """Return the arguments ``launch_file`` (a path or a name) takes: :data:`LAUNCH_FILES`."""
    return LAUNCH_FILES[os.path.basename(str(launch_file))]


NodeSettings = namedtuple('NodeSettings', 'params_file chain frame_prefix namespace use_sim_time '
                          'params_files overrides managed')
NodeSettings.__doc__ = """The node's launch settings: the model's parameter file (Path), the
model (Chain, as the node builds it from every file and override), frame prefix, namespace
(str), use_sim_time (bool), every parameter file in order (Paths: the model's, then the joint
limits'), the parameters the arguments set (dict: ``tf.max_rate``, ``base.xyz``, ``base.rpy``
where given) and whether the node is managed (bool)."""


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


def check_arguments(argv, launch_file, command_line=None):
    """
    Refuse a ``name:=value`` argument of ``ros2 launch`` that ``launch_file`` does not take.

    ``argv`` is the launch's arguments (``LaunchContext.argv``); what the file takes is
    :func:`launch_arguments`, its included file's arguments among them. Launch itself ignores
    an unknown argument; this stops the launch with one line naming it. Only for the file
    ``ros2 launch`` was given (its name is on ``command_line``, ``sys.argv`` by default): a
    file another one includes sees the arguments of the file that includes it.
    """
    declared = launch_arguments(launch_file)
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


def node_settings(configurations, extra=None, names=None):
    """
    Resolve and check the node's launch arguments.

    Parameters
    ----------
    configurations : mapping of str to str
        The launch configurations (argument values as text); missing ones take their
        defaults from :data:`NODE_ARGUMENTS`.
    extra : dict, optional
        Further node parameters a launch file's own arguments set, checked with the rest.
    names : dict, optional
        Their launch arguments (parameter -> argument), to name in an error.

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
    namespace = value('namespace')
    paths, overrides = [path], {'frame_prefix': value('frame_prefix')}
    if value('joint_limits_file'):
        limits = pathlib.Path(value('joint_limits_file')).expanduser().absolute()
        if not limits.is_file():
            raise InvalidFieldError('joint_limits_file', value('joint_limits_file'),
                                    'no such file')
        paths.append(limits)
    rate = parse_float('tf_max_rate', value('tf_max_rate'), 0.0, 1e6)
    if rate:
        overrides['tf.max_rate'] = rate
    for argument, parameter in (('xyz', 'base.xyz'), ('rpy', 'base.rpy')):
        if value(argument).strip():
            overrides[parameter] = parse_vector(argument, value(argument))
    overrides.update(extra or {})
    chain = checked_chain(paths, namespace, overrides, names)
    overrides.pop('frame_prefix')
    return NodeSettings(path, chain, value('frame_prefix'), namespace,
                        parse_bool('use_sim_time', value('use_sim_time')), paths, overrides,
                        parse_bool('managed', value('managed')))


def checked_chain(paths, namespace, overrides, names=None):
    """
    Return the model as the node builds it from ``paths`` merged and ``overrides``.

    Read and checked by :func:`parameters.files.read`, as every door reads a model: the
    launch refuses what the node would, in its words. An error in an override names its
    launch argument (``names``: parameter -> argument).
    """
    try:
        return files.read(paths, node_name(namespace), overrides)[1].chain
    except InvalidFieldError as error:
        arguments = dict(ARGUMENT_NAMES, **(names or {}))
        if error.field in arguments and error.field in overrides:
            raise error.renamed(arguments[error.field]) from None
        raise


ARGUMENT_NAMES = {'base.xyz': 'xyz', 'base.rpy': 'rpy', 'tf.max_rate': 'tf_max_rate'}
"""The node's parameters that dh_kinematics.launch.py's arguments set: parameter -> argument."""
CONTROL_NAMES = {'ros2_control.plugin': 'plugin',
                 'ros2_control.initial_configuration': 'initial_configuration'}
"""The node's parameters that control.launch.py's arguments set: parameter -> argument."""


def node_parameters(settings):
    """
    Return the node's ``parameters`` for launch_ros: every file, then what the arguments set.

    The arguments' values go into a parameter file of their own (``/**``), written here:
    launch_ros writes a dict's lists as Python tuples, which rcl cannot read.
    """
    values = dict(settings.overrides, frame_prefix=settings.frame_prefix,
                  use_sim_time=settings.use_sim_time)
    with tempfile.NamedTemporaryFile('w', prefix='dh_kinematics_arguments_', suffix='.yaml',
                                     delete=False) as stream:
        stream.write(yaml_text({'/**': {'ros__parameters': values}}))
    return [str(path) for path in settings.params_files] + [stream.name]


def yaml_text(document):
    """Return a parameter file's text (PyYAML's safe dump: plain lists, no Python tags)."""
    import yaml
    return yaml.safe_dump(document, sort_keys=False)


def parse_vector(name, text):
    """
    Return the three numbers a launch argument spells: ``'x y z'``, ``'x,y,z'`` or ``'[x, y, z]'``.

    Raises
    ------
    ValueError
        Naming the argument ``name``, unless ``text`` holds three finite numbers.

    """
    parts = str(text).strip().strip('[]').replace(',', ' ').split()
    try:
        numbers = [float(part) for part in parts]
    except ValueError:
        numbers = []
    if len(numbers) != 3 or not all(math.isfinite(number) for number in numbers):
        raise InvalidFieldError(name, text, "must be three finite numbers, as '0.0 0.0 0.5'")
    return numbers


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


def control_settings(configurations):
    """
    Resolve and check everything control.launch.py needs before it starts any process.

    Returns
    -------
    settings : NodeSettings
        As :func:`node_settings`, with the node's ``ros2_control.*`` parameters in
        ``overrides``.
    controllers : dict
        The controller manager's and the controller's parameters (:func:`controllers`), by
        node key.
    controller : str
        The controller to spawn beside the joint_state_broadcaster.

    Raises
    ------
    ValueError
        Naming the argument that is wrong, or the packages ros2_control needs and lacks.

    """
    def value(name):
        return configurations.get(name, CONTROL_ARGUMENTS[name][0])

    settings = node_settings(configurations, {
        'ros2_control.plugin': value('plugin'),
        'ros2_control.initial_configuration': value('initial_configuration')}, CONTROL_NAMES)
    controller = value('controller')
    if controller not in CONTROLLERS:
        raise InvalidFieldError('controller', controller, f'must be one of '
                                f'{", ".join(CONTROLLERS)}')
    rate = parse_float('update_rate', value('update_rate'), 1.0, 10000.0)
    for package in ('controller_manager', 'joint_state_broadcaster',
                    CONTROLLERS[controller].split('/')[0]):
        if not installed(package):
            raise ValueError(f'control.launch.py needs the ROS package {package}, which is not '
                             'installed: apt install ros-$ROS_DISTRO-ros2-control '
                             'ros-$ROS_DISTRO-ros2-controllers')
    return settings, controllers(settings.chain, controller, rate), controller


def controllers(chain, controller, update_rate):
    """
    Return the controller manager's parameter file (as a dict) for ``chain``.

    The ``joint_state_broadcaster`` and ``controller`` (a key of :data:`CONTROLLERS`) on every
    joint's position; the trajectory controller also reads the velocities where every joint
    has a velocity state interface (a velocity limit).
    """
    joints = list(chain.joint_names)
    states = ['position'] + ['velocity'] * all(
        link.velocity_limit is not None for link in chain.links)
    if controller == 'joint_trajectory_controller':
        own = {'joints': joints, 'command_interfaces': ['position'],
               'state_interfaces': states}
    else:
        own = {'joints': joints, 'interface_name': 'position'}
    return {  # keys that reach the nodes in any namespace
        '/**/controller_manager': {'ros__parameters': {
            'update_rate': int(round(update_rate)),
            'joint_state_broadcaster': {
                'type': 'joint_state_broadcaster/JointStateBroadcaster'},
            controller: {'type': CONTROLLERS[controller]}}},
        f'/**/{controller}': {'ros__parameters': own},
    }


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
