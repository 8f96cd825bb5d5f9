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
Each claim the README makes about what is checked where, and the tests that back it.

A claim reworded in the README, or a test renamed or removed, fails here: the list is kept
with both.
"""

import ast
import re

from helpers import PACKAGE
import pytest

CLAIMS = {
    "follow Peter Corke's Robotics Toolbox and are checked against roboticstoolbox-python and "
    'pinocchio': [
        'test_chain_reference::test_kinematics_single_and_batch',
        'test_chain_reference::test_rne_single_and_batch',
        'test_urdf::test_pinocchio_agrees_on_every_frame_and_the_dynamics'],
    'Check it exactly as the node will read it: one line naming the bad field, or OK': [
        'test_cli::test_check_says_ok_in_one_line_and_refuses_as_the_node_does',
        'test_one_verdict::test_every_door_before_a_node_starts_refuses_a_bad_setting_in_the_'
        'same_words',
        'test_one_verdict::test_every_door_of_a_running_system_refuses_it_in_the_same_words'],
    'warnings for units that look like degrees, millimetres or grams (`--strict` fails on '
    'them)': [
        'test_cli::test_check_strict_refuses_a_model_with_warnings',
        'test_model_params::test_a_new_arm_in_the_wrong_units_is_warned_about'],
    'a typo gets the name it was probably meant to be': [
        'test_cli::test_check_says_ok_in_one_line_and_refuses_as_the_node_does',
        'test_model_params::test_a_typo_in_joints_is_named_from_the_blocks',
        'test_launch::test_an_argument_a_launch_file_does_not_take_stops_it_naming_it'],
    'a value no arm has is refused (radians, metres)': [
        'test_model_params::test_bad_parameters_name_the_parameter',
        'test_node_parameters::test_a_file_mistake_stops_the_node_with_one_line'],
    'a `ros2 param set` is applied wholly or refused wholly': [
        'test_node_parameters::test_a_set_parameters_request_is_applied_wholly_or_not_at_all',
        'test_node_input::test_a_good_parameter_change_is_applied_atomically',
        'test_joint_states_flow::test_a_change_is_refused_as_a_whole_naming_the_parameter'],
    '`ros2 param load` a file as one change': [
        'test_node_parameters::test_param_load_takes_the_start_files_and_the_nodes_own_dump',
        'test_node_parameters::test_loading_another_arm_is_refused_wholly'],
    'Bad `joint_states` never crash the node nor reach `/tf`: each drop is counted in the '
    'diagnostics': [
        'test_node_input::test_dropped_messages_never_reach_tf_and_are_counted',
        'test_node_faults::test_random_messages_over_dds_never_break_tf_and_are_all_counted',
        'test_node_malformed::test_payloads_that_are_no_joint_state_are_counted_and_tf_stays_'
        'exact'],
    'Each argument and the model are checked before a process starts': [
        'test_launch_config::test_a_bad_user_argument_is_named',
        'test_launch_config::test_a_bad_model_file_stops_the_launch_naming_the_parameter',
        'test_launch::test_an_argument_a_launch_file_does_not_take_stops_it_naming_it',
        'test_one_verdict::test_every_door_before_a_node_starts_refuses_a_bad_setting_in_the_'
        'same_words'],
}
"""README text (whitespace and Markdown emphasis aside) -> the tests that back it."""


def _readme():
    text = (PACKAGE / 'README.md').read_text()
    return re.sub(r'\s+', ' ', text.replace('**', ''))


def _tests(module):
    tree = ast.parse((PACKAGE / 'test' / f'{module}.py').read_text())
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


@pytest.mark.parametrize('claim', list(CLAIMS), ids=[claim[:40] for claim in CLAIMS])
def test_each_claim_of_the_readme_about_checks_is_backed_by_tests(claim):
    assert claim in _readme(), f'the README no longer says: {claim}'
    for test in CLAIMS[claim]:
        module, name = test.split('::')
        assert name in _tests(module), f'{test} backs "{claim}" and is gone'
