# dh_kinematics: `make demo` and `make test` work on a fresh clone; each creates .venv when it
# is missing (or when its requirements changed) and is quick when it is already there.

PYTHON ?= python3
# Which ROS 2 wheels the venv gets: kilted (.venv) by default, or jazzy (.venv-jazzy) with
# `make test ROS_DISTRO=jazzy`. Only a command-line value counts: the ROS_DISTRO that a sourced
# ROS install exports does not switch the venv.
ifeq ($(origin ROS_DISTRO),command line)
DISTRO := $(ROS_DISTRO)
else
DISTRO := kilted
endif
ifeq ($(DISTRO),kilted)
VENV := .venv
ROS_REQUIREMENTS := requirements/ros.txt
else ifeq ($(DISTRO),jazzy)
VENV := .venv-jazzy
ROS_REQUIREMENTS := requirements/ros-jazzy.txt
else
$(error ROS_DISTRO=$(DISTRO): the wheels are pinned for kilted and jazzy only)
endif
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.requirements-installed
# --no-compile: Python compiles what is imported, when it is; compiling every installed module
# up front (pinocchio's and boost's included) was a third of a venv's making.
PIP_FLAGS := --disable-pip-version-check --quiet --no-compile

.PHONY: all venv demo test test-all test-ros docs bench bench-node soak clean

all: test

# The venv: test tools, ROS 2 wheels of $(DISTRO), tf2_msgs built from its interface definition
# (PyPI has no wheel for it), and this package installed in editable mode (console scripts on
# PATH).
$(STAMP): requirements/test.txt requirements/test-nodeps.txt $(ROS_REQUIREMENTS) \
		tools/build_tf2_msgs.py setup.py
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install $(PIP_FLAGS) -r requirements/test.txt -r $(ROS_REQUIREMENTS)
	$(VPY) -m pip install $(PIP_FLAGS) --no-deps -r requirements/test-nodeps.txt
	$(VPY) tools/build_tf2_msgs.py
	$(VPY) -m pip install $(PIP_FLAGS) --no-deps --no-build-isolation -e .
	@# setup.cfg puts the console scripts where ROS looks (lib/dh_kinematics); a venv's PATH
	@# is its bin.
	@for script in $(VENV)/lib/dh_kinematics/*; do ln -sf ../lib/dh_kinematics/$${script##*/} \
		$(VENV)/bin/; done
	@touch $@

# The venv alone (CI makes both before running the two distributions' tests at once).
venv: $(STAMP)

# The node and sim_arm on the Puma 560 with a live summary; DURATION=0 runs until Ctrl-C.
DURATION ?= 15
demo: $(STAMP)
	$(VPY) -m dh_kinematics.ros.demo --duration $(DURATION)

# make test: the inner loop, every test but the slow ones (a signal sweep, the churn, the demo;
# pytest.ini's markers). make test-all: every test. make test-ros: the tests that touch ROS
# (rclpy, the messages, the nodes, launch) but the slow ones, which CI runs on the second
# distribution (the slow ones run once, in make test-all).
test: $(STAMP)
	@echo "make test: ROS 2 $(DISTRO) wheels in $(VENV), slow tests left out (make test-all)"
	$(VPY) -m pytest test -m "not slow"

test-all: $(STAMP)
	@echo "make test-all: ROS 2 $(DISTRO) wheels in $(VENV)"
	$(VPY) -m pytest test

test-ros: $(STAMP)
	@echo "make test-ros: ROS 2 $(DISTRO) wheels in $(VENV), the tests that touch ROS, not slow"
	$(VPY) -m pytest test -m "ros and not slow"

# The documentation (Sphinx with myst; rosdoc2 builds the same doc/ on the ROS docs site):
# the parameter and command-line tables are regenerated from the code, warnings are errors.
DOCS_VENV := .venv-docs
DOCS_STAMP := $(DOCS_VENV)/.requirements-installed
$(DOCS_STAMP): requirements/docs.txt
	@test -x $(DOCS_VENV)/bin/python || $(PYTHON) -m venv $(DOCS_VENV)
	$(DOCS_VENV)/bin/python -m pip install $(PIP_FLAGS) -r requirements/docs.txt
	@touch $@

docs: $(DOCS_STAMP)
	$(DOCS_VENV)/bin/python -m sphinx -W --keep-going -q -b html doc doc/_build/html
	@echo "make docs: doc/_build/html/index.html"

# Optional: times the core against roboticstoolbox-python and pinocchio, and its inverse
# kinematics against the compiled solvers: ik_LM, TRAC-IK, EAIK, KDL (see bench/README.md).
$(BENCH_STAMP): requirements/bench.txt
	@test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install $(PIP_FLAGS) -r requirements/bench.txt
	@touch $@

bench: $(BENCH_STAMP) $(STAMP)
	PYTHONPATH=. $(BENCH_VENV)/bin/python bench/bench_core.py
	PYTHONPATH=. $(BENCH_VENV)/bin/python bench/bench_ik.py
	PYTHONPATH=. $(BENCH_VENV)/bin/python bench/cartesian_path.py
	PYTHONPATH=. $(VPY) bench/bench_identify.py
	PYTHONPATH=. $(VPY) bench/bench_replay.py

# The node against a minimal rclpy baseline at 100 Hz, 1 kHz and flat out; prints a table and
# writes bench/results/node_rate.json (see README); then the momentum observer's cost and
# detection delays (bench/observer.py); then self-collision per message against pinocchio
# (bench/self_collision.py). About 16 minutes.
bench-node: $(STAMP)
	$(VPY) bench/node_rate.py
	$(VPY) bench/observer.py
	$(VPY) bench/self_collision.py

# The node at 1 kHz for 10 minutes: memory growth and loss; writes bench/results/soak.json.
soak: $(STAMP)
	$(VPY) bench/soak.py

clean:
	rm -rf .venv .venv-jazzy $(BENCH_VENV) $(DOCS_VENV) doc/_build build install log .pytest_cache
