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

"""One reader for every joint log: a rosbag2 folder or a CSV file, told apart by what it is."""

import os

from dh_kinematics.logs import bag, csv_log


def read(path, topic='/joint_states'):
    """
    Return ``(log, notes)``: the :class:`JointLog` of ``path`` and what reading it left out.

    ``path`` is a rosbag2 folder (``topic``'s ``sensor_msgs/JointState`` messages) or a CSV
    file (:mod:`logs.csv_log`). Raises ValueError naming the path and what is wrong.
    """
    if os.path.isdir(path):
        log, left_out = bag.read(path, topic)
        notes = [f'{path}: {left_out} messages on {topic} lacked one of the joints '
                 f'{", ".join(log.names)} and were left out'] if left_out else []
        return log, notes
    return csv_log.read(path), []
