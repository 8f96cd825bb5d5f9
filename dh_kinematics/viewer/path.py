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
A joint log on the page: the tool's path drawn, and a slider that poses the arm along it.

``view MODEL --path LOG`` (a CSV joint log or a bag: ``path``'s trajectory, a recording): the
tool's position at every sample is drawn as one polyline in the world (straight lines where
``path`` wrote them), and a slider of the log's time (s from its first sample) poses the arm
at the samples' positions, interpolated linearly between them as ``sim_arm --trajectory``
plays them.
"""

import numpy as np

COLOUR = (31, 119, 180)
"""The tool's path: matplotlib's first colour, as ``path --plot`` draws it."""


class PathLayer:
    """
    A log's tool path on ``page``'s scene, and its time slider.

    Parameters
    ----------
    server : viser.ViserServer
    page : TeachPage
        The page whose arm the slider poses.
    chain : Chain
        The model.
    log : JointLog
        The log, in the model's joint order (:func:`logs.for_model`; ``view`` reads it).

    Attributes
    ----------
    time : array, shape (m,)
        The samples' time from the first, s.
    positions : array, shape (m, n)
        The joint values, rad or m, in the model's order.
    tool : array, shape (m, 3)
        The tool's position at each sample, m.

    """

    def __init__(self, server, page, chain, log):
        self.time = np.asarray(log.time, dtype=float) - float(log.time[0])
        self.positions = np.asarray(log.position, dtype=float)
        self.tool = chain.fkine(self.positions)[..., :3, 3].reshape(-1, 3)
        self._page = page
        segments = np.stack([self.tool[:-1], self.tool[1:]], axis=1) if len(self.tool) > 1 \
            else np.stack([self.tool, self.tool], axis=1)
        self.line = server.scene.add_line_segments('/path/tool', segments, COLOUR,
                                                   thickness=3.0, thickness_units='screen')
        duration = float(self.time[-1])
        self.slider = server.gui.add_slider(
            'path time (s)', min=0.0, max=max(duration, 1e-3),
            step=max(duration, 1e-3) / 1000.0, initial_value=0.0)
        self.slider.on_update(lambda event: self.pose(event.target.value))

    def at(self, t):
        """Return the joint values at ``t`` s from the first sample (clipped to the log)."""
        return np.array([np.interp(t, self.time, column) for column in self.positions.T])

    def pose(self, t):
        """Pose the page's arm at ``t`` s from the first sample."""
        self._page.move(self.at(t))
