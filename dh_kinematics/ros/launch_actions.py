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

"""Launch actions shared by the launch files (imports launch; the checks are launch_config)."""

import signal

from launch.actions import Shutdown

STOPPED_BY_LAUNCH = (0, -signal.SIGINT, -signal.SIGTERM)
"""Exit codes of a process that the launch's own shutdown ended: no failure."""


def end_launch(event, context):
    """
    ``on_exit`` of a required process: when it ends, the launch ends, with its outcome.

    An exit code other than 0 makes ``ros2 launch`` exit with code 1 (launch's code for a
    failure); code 0 ends the launch normally. Once the launch is shutting down (Ctrl-C), a
    process that the launch's SIGINT or SIGTERM ended (one still starting, before its own
    handler was in) has not failed either.
    """
    name = event.action.process_details['name']
    code = event.returncode
    if code != 0 and not (context.is_shutdown and code in STOPPED_BY_LAUNCH):
        raise RuntimeError(f'{name} exited with code {code}; the launch ends')
    return [Shutdown(reason=f'{name} ended')]
