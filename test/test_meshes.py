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

"""Meshes in place of a link's cylinders: in the URDF, loaded by pinocchio, checked by check."""

import os
import subprocess
import xml.etree.ElementTree as ET

from dh_kinematics import Chain
from helpers import CLI_COMMAND, needs_pin, PACKAGE, pin
import numpy as np
import pytest


PUMA = PACKAGE / 'config' / 'puma560.yaml'
# A tetrahedron, 0.1 m on a side along the axes.
STL = """solid tetra
facet normal 0 0 -1
outer loop
vertex 0 0 0
vertex 0.1 0 0
vertex 0 0.1 0
endloop
endfacet
facet normal 0 -1 0
outer loop
vertex 0 0 0
vertex 0 0 0.1
vertex 0.1 0 0
endloop
endfacet
facet normal -1 0 0
outer loop
vertex 0 0 0
vertex 0 0.1 0
vertex 0 0 0.1
endloop
endfacet
facet normal 1 1 1
outer loop
vertex 0.1 0 0
vertex 0 0 0.1
vertex 0 0.1 0
endloop
endfacet
endsolid tetra
"""


def _with_meshes(tmp_path, meshes):
    params = Chain.from_yaml(PUMA).to_params()
    params['meshes'] = meshes
    chain = Chain.from_params(params)
    path = tmp_path / 'puma_meshes.yaml'
    chain.to_yaml(path)
    return chain, path


def _package(tmp_path):
    """Return an AMENT_PREFIX_PATH with a package 'vendor_description' holding the mesh."""
    share = tmp_path / 'prefix' / 'share' / 'vendor_description' / 'meshes'
    share.mkdir(parents=True)
    (share / 'link2.stl').write_text(STL)
    return str(tmp_path / 'prefix')


def test_a_mesh_replaces_the_links_cylinders_in_the_urdf(tmp_path):
    chain, _ = _with_meshes(tmp_path, {'link2': {
        'visual': 'package://vendor_description/meshes/link2.dae',
        'collision': 'package://vendor_description/meshes/link2.stl',
        'xyz': [0.0, 0.0, 0.1], 'rpy': [0.0, 0.0, 1.0], 'scale': [0.001, 0.001, 0.001]}})
    root = ET.fromstring(chain.to_urdf('left/'))
    link = root.find("link[@name='left/link2']")
    visual, collision = link.find('visual'), link.find('collision')
    assert visual.find('geometry/mesh').attrib == {
        'filename': 'package://vendor_description/meshes/link2.dae', 'scale': '0.001 0.001 0.001'}
    assert collision.find('geometry/mesh').get('filename').endswith('link2.stl')
    assert visual.find('origin').attrib == {'xyz': '0.0 0.0 0.1', 'rpy': '0.0 0.0 1.0'}
    assert len(link.findall('visual')) == 1 and link.find('geometry/cylinder') is None
    # The axis frame moves with the link: its cylinders go too; other links keep theirs.
    assert root.find("link[@name='left/link2_axis']").find('visual') is None
    assert root.find("link[@name='left/link3_axis']").find('visual/geometry/cylinder') is not None
    assert Chain.from_params(chain.to_params()).to_urdf() == chain.to_urdf()


@needs_pin
def test_pinocchio_loads_the_mesh_where_the_model_puts_it(tmp_path):
    prefix = _package(tmp_path)
    chain, _ = _with_meshes(tmp_path, {'link2': {
        'collision': 'package://vendor_description/meshes/link2.stl', 'xyz': [0.0, 0.0, 0.1],
        'scale': [2.0, 2.0, 2.0]}})
    text = chain.to_urdf()
    model = pin.buildModelFromXML(text)
    geometry = pin.buildGeomFromUrdfString(model, text, pin.GeometryType.COLLISION,
                                           package_dirs=[os.path.join(prefix, 'share')])
    meshes = [item for item in geometry.geometryObjects
              if model.frames[item.parentFrame].name == 'link2']
    assert len(meshes) == 1 and meshes[0].meshPath.endswith('link2.stl')
    np.testing.assert_allclose(meshes[0].meshScale, [2.0, 2.0, 2.0])
    data, geometry_data = model.createData(), pin.GeometryData(geometry)
    q = np.array([0.3, -0.4, 0.5, 0.1, 0.2, 0.3])
    pin.updateGeometryPlacements(model, data, geometry, geometry_data, q)
    index = geometry.getGeometryId(meshes[0].name)
    expected = chain.fkine_all(q)[2].copy()
    expected[:3, 3] += expected[:3, 2] * 0.1
    np.testing.assert_allclose(geometry_data.oMg[index].homogeneous, expected, atol=1e-12)


def test_check_reports_a_mesh_file_it_cannot_find(tmp_path):
    _, path = _with_meshes(tmp_path, {'link2': {
        'visual': 'package://vendor_description/meshes/link2.stl',
        'collision': f'file://{tmp_path}/missing.stl'}})
    environment = dict(os.environ, AMENT_PREFIX_PATH=_package(tmp_path))
    result = subprocess.run(CLI_COMMAND + ['check', str(path)], capture_output=True, text=True,
                            env=environment, timeout=60)
    assert result.returncode == 0, result.stderr
    assert (f'warning: meshes.link2.collision: file://{tmp_path}/missing.stl: {tmp_path}/'
            'missing.stl does not exist\n') in result.stdout
    assert 'meshes.link2.visual' not in result.stdout  # found in the package
    assert 'OK with warnings' in result.stdout and 'meshes on link2' in result.stdout
    strict = subprocess.run(CLI_COMMAND + ['check', '--strict', str(path)], capture_output=True,
                            text=True, env=dict(environment, AMENT_PREFIX_PATH=''), timeout=60)
    assert strict.returncode == 1
    assert ('meshes.link2.visual: package://vendor_description/meshes/link2.stl: package '
            "'vendor_description' is not on AMENT_PREFIX_PATH") in strict.stdout


@pytest.mark.parametrize('mesh, message', [
    ({'visual': 'http://example.com/a.stl'}, 'meshes.link2.visual: must be a package://'),
    ({'visual': 'package:///a.stl'}, 'meshes.link2.visual: must name its package'),
    ({'collision': 'file://host/a.stl'}, 'meshes.link2.collision: must be file:///'),
    ({'xyz': [0.0, 0.0, 0.1]}, 'meshes.link2: must give a visual or a collision mesh'),
    ({'visual': 'file:///a.stl', 'scale': [1.0, 0.0, 1.0]}, 'meshes.link2.scale: must be 3 '
     'positive numbers'),
    ({'visual': 'file:///a.stl', 'colour': 'red'}, 'meshes.link2.colour: is not a field of a '
     'meshes block'),
])
def test_a_bad_mesh_is_refused_naming_its_field(mesh, message, tmp_path):
    with pytest.raises(ValueError, match=message.replace('.', r'\.').replace('/', '/')):
        _with_meshes(tmp_path, {'link2': mesh})


def test_a_mesh_must_belong_to_a_frame_of_the_model(tmp_path):
    with pytest.raises(ValueError, match=r'meshes\.link9: must name the base, a link, the tool'):
        _with_meshes(tmp_path, {'link9': {'visual': 'file:///a.stl'}})
