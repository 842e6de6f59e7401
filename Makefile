# The two commands of the quick start: `make play` and `make test`.
# Both create or refresh .venv and build the native core in place.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build play test typecheck sim simnet soak bench clean

# Each step says in one line what it does; pip and setuptools print only warnings and errors.
$(BIN)/python:
	@echo "mq: creating the virtual environment $(VENV) ($(PY))"
	@$(PY) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml setup.py
	@echo "mq: installing mq and its dependencies into $(VENV) (the first time takes a minute or two)"
	@$(BIN)/pip install -q --upgrade pip
	@$(BIN)/pip install -q 'Cython>=3.0' 'setuptools>=68' wheel
	@$(BIN)/pip install -q --no-build-isolation -e '.[test]'
	@touch $(STAMP)

# Rebuild the extension whenever the .pyx changes (pip -e built it once).
mq/_core.so.stamp: mq/_core.pyx $(STAMP)
	@echo "mq: building the native core (mq/_core.pyx)"
	@$(BIN)/python setup.py -q build_ext --inplace
	@touch $@
	@echo "mq: ready: make play (a game against bots), make test (the test suite)"

# Bytecode compiled ahead: every peer process of `make play` then loads it instead of compiling
# the sources again (which it would on every start where PYTHONDONTWRITEBYTECODE is set).
build: $(STAMP) mq/_core.so.stamp
	@$(BIN)/python -m compileall -q mq net > /dev/null

play: build
	$(BIN)/mq play

# The packages mypy checks (configuration: pyproject.toml [tool.mypy]); a package joins when clean.
TYPED := mq/rules mq/classic net

typecheck: build
	$(BIN)/mypy $(TYPED)

test: build typecheck
	$(BIN)/ruff check mq net bench tests
	$(BIN)/python -m pytest -n 2
	MQ_PUREPYTHON=1 $(BIN)/python -m pytest -n 2

sim: build
	$(BIN)/mq sim --players 4 --games 50 --seed 1

# The protocol simulation's large run (net/sim.py): many seeds of faults, counts at the end.
simnet: build
	$(BIN)/python -m net.sim --seeds 5000

# The rule invariants (mq/rules/invariants.py) after every step of many bot games, in both core
# modes; per invariant the games that broke it, then games, steps and seconds (mq/soak.py).
soak: build
	$(BIN)/python -m mq.soak --games 1000 --seed 1
	MQ_PUREPYTHON=1 $(BIN)/python -m mq.soak --games 1000 --seed 1

bench: build
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info mq/_core.c mq/_core*.so mq/_core.so.stamp
