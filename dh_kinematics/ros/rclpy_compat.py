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
Every use of rclpy's private API, in one place, each with what happens without it.

rclpy has no public way to do four things the nodes need: read the parameters a node was given
before declaring them, catch a /clock message that would end the process, publish bytes
without the type check of every call, and take a ``set_parameters`` request as a whole. Each
function below names the private attributes it uses, the rclpy versions it was checked on
(:data:`CHECKED_ON`), and what it does where they are missing: the public API where one exists,
else a logged degradation or a clear error. ``test/test_rclpy_compat.py`` checks each on
Jazzy and Kilted, and fails when a private attribute is gone, so that an upgrade shows here.
"""

import weakref

from rcl_interfaces.msg import SetParametersResult
from rclpy.parameter import Parameter
from rclpy.parameter_service import ParameterService

CHECKED_ON = {'jazzy': '7.1.6', 'kilted': '9.1.2'}
"""The rclpy version of each ROS 2 distribution this module was checked on."""


def parameter_overrides(node):
    """
    Return the parameters given to ``node`` (parameter files and ``-p``): name to Parameter.

    Private: ``Node._parameter_overrides`` (rclpy 7.1 and 9.1). The public API gives them only
    once declared, each with the type of its value, which would refuse what the checks must
    name instead (a list where a number belongs, an unknown name). Without it: RuntimeError.
    """
    overrides = getattr(node, '_parameter_overrides', None)
    if overrides is None:
        raise RuntimeError('this rclpy has no Node._parameter_overrides; dh_kinematics was '
                           f'checked on rclpy {CHECKED_ON}')
    return dict(overrides)


def wrap_clock_callback(node, wrap):
    """
    Replace the callback of the node's /clock subscription by ``wrap(callback)``.

    Covers the subscription made when ``use_sim_time`` is set later as well. Returns whether
    it could. Private: ``Node._time_source`` and ``TimeSource._clock_sub`` (rclpy 7.1 and 9.1);
    the public ``TimeSource.clock_callback`` is what the subscription calls. Without them:
    False, and the node runs with rclpy's own callback.
    """
    source = getattr(node, '_time_source', None)
    if source is None or not hasattr(source, '_clock_sub'):
        return False
    callback = source.clock_callback = wrap(source.clock_callback)
    if source._clock_sub is not None:
        source._clock_sub.callback = callback
    return True


def raw_publish(publisher):
    """
    Return a function publishing serialized bytes on ``publisher``, as directly as rclpy allows.

    ``Publisher.publish`` takes bytes too, but checks the type and holds the publisher's handle
    for each call; for a publisher that lives as long as the node, the handle's own
    ``publish_raw`` does the same work with less Python around it. Private: ``publish_raw`` of
    the C extension's publisher, reached through the public ``Publisher.handle`` (rclpy 7.1
    and 9.1). Without it: ``Publisher.publish``.
    """
    return getattr(getattr(publisher, 'handle', None), 'publish_raw', publisher.publish)


def whole_parameter_services(node):
    """
    Start rclpy's parameter services for ``node``, with ``set_parameters`` taken as a whole.

    rclpy sets each parameter of a ``set_parameters`` request on its own, so that loading
    another arm's file half-succeeds (92 set, 3 refused: a hybrid arm). Here the request goes
    to ``node.set_parameters_atomically`` at once: applied wholly or refused wholly, with one
    reason for every parameter. Give the node ``start_parameter_services=False``. Private:
    ``ParameterService._set_parameters_callback``, overridden (rclpy 7.1 and 9.1). Without it:
    rclpy's own services, and a warning that requests are applied parameter by parameter.
    Returns the service object (keep it as long as the node).
    """
    if not callable(getattr(ParameterService, '_set_parameters_callback', None)):
        node.get_logger().warning(
            'this rclpy has no ParameterService._set_parameters_callback: set_parameters '
            'requests are applied parameter by parameter, as rclpy does')
        return ParameterService(node)
    return _WholeParameterService(node)


class _WholeParameterService(ParameterService):
    """rclpy's parameter services, with ``set_parameters`` given to the node as one change."""

    def __init__(self, node):
        self._node_of_service = weakref.ref(node)
        super().__init__(node)

    def _set_parameters_callback(self, request, response):
        node = self._node_of_service()
        parameters = [Parameter.from_parameter_msg(p) for p in request.parameters]
        result = node.set_parameters_atomically(parameters) if parameters else None
        response.results = [SetParametersResult(successful=result.successful,
                                                reason=result.reason) for _ in parameters]
        return response
