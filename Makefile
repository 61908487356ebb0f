# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-slow test-fast build bench bench-fleet bench-report schema deploy-files clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# The build tools live in the venv too, so that `build` can recompile the engine in place.
$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(BIN)/pip install --quiet 'Cython>=3.0.10' 'setuptools>=68' wheel
	$(BIN)/pip install --quiet --no-build-isolation -e '.[all,test]'
	touch $(STAMP)

# Rebuild the compiled engine whenever a .pyx/.pxd changed (cheap when nothing did), and write the
# bytecode of our own modules as pip does for installed packages: with PYTHONDONTWRITEBYTECODE set
# (as on some CI machines) every command would otherwise compile them again, about 40 ms a start.
build: $(STAMP)
	$(BIN)/python setup.py --quiet build_ext --inplace
	$(BIN)/python -m compileall -q engine store jobs workers puzzlefleet

# The demo writes to a store of its own (demo.db, made afresh), so a user's puzzles.db is never touched.
DEMO := PUZZLEFLEET_DB=sqlite:///demo.db

run: build
	rm -f demo.db demo.db-wal demo.db-shm
	$(DEMO) $(BIN)/puzzlefleet generate --game queens --size 8 --count 4 --seed 1
	$(DEMO) $(BIN)/puzzlefleet generate --game queens --size 10 --diagonals --count 2 --seed 2
	$(DEMO) $(BIN)/puzzlefleet generate --game starbattle --size 10 --stars 2 --count 3 --seed 3
	$(DEMO) $(BIN)/puzzlefleet generate --game sudoku --size 9 --band hard --count 2 --seed 4
	$(DEMO) $(BIN)/puzzlefleet list
	$(DEMO) $(BIN)/puzzlefleet export --game queens --size 8 --limit 1 --format text
	$(DEMO) $(BIN)/puzzlefleet export --game queens --size 10 --limit 1 --format text
	$(DEMO) $(BIN)/puzzlefleet export --game starbattle --limit 1 --format text
	$(DEMO) $(BIN)/puzzlefleet export --game sudoku --limit 1 --format text
	@echo "The demo boards are in demo.db: PUZZLEFLEET_DB=sqlite:///demo.db .venv/bin/puzzlefleet list"

# Tests on pytest-xdist workers: one more than the machine has cores, since the fleet tests spend
# much of their time waiting on the processes they start (at most six: each worker takes a Redis
# database of its own); tests that share a fleet, a browser, a built package or a pool run in one group,
# handed out in collection order (tests/conftest.py puts the longest groups first).
PYTEST_WORKERS := $(shell $(PY) -c "import os; print(min(6, (os.cpu_count() or 1) + 1))")
PYTEST_XDIST := -n $(PYTEST_WORKERS) --dist loadgroup --no-loadscope-reorder

# The default lane: the import contracts and every test but the `slow` ones, each of which has a
# quicker twin here (the slowest are listed in BENCHMARKS.md, "Tests").
test: build
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q $(PYTEST_XDIST) -m "not slow"

# The slow lane (CI runs it after `make test`): the long sweeps against brute force, the fault scenarios,
# the package build, the calibration files.
test-slow: build
	$(BIN)/python -m pytest -q $(PYTEST_XDIST) -m slow

# The quick lane between two edits: the engine, store and command-line tests without the fleet,
# the browser and the slow ones; nothing here waits on other processes, so a worker per core.
test-fast: build
	$(BIN)/python -m pytest -q -n auto --dist loadgroup -m "not fleet and not browser and not slow" tests/engine tests/store tests/cli

bench: build
	$(BIN)/python bench/bench_starbattle.py

# Needs the Redis at 127.0.0.1:6379 (database 6 is flushed).
bench-fleet: build
	$(BIN)/python bench/bench_fleet.py

# BENCHMARKS.md from its skeleton (bench/BENCHMARKS.in.md) and the figures the bench scripts wrote
# to bench/results/ (a test checks that the committed file matches them).
bench-report: $(BIN)/python
	$(BIN)/python bench/report.py

# The published board JSON Schema (a test checks that the file matches the models).
schema: build
	$(BIN)/python -c "import engine; print(engine.board_schema_text(), end='')" > docs/board.schema.json

# The per-queue parts of deploy/ (a worker, scalers, scrape targets... per game's queue), from the game
# registry (a test checks that the files match it).
deploy-files: build
	$(BIN)/python deploy/generate.py

# Every build product: the venv, setuptools' folders, and the compiled engine beside its sources.
clean:
	rm -rf $(VENV) build dist *.egg-info
	find engine -name '*.so' -delete
	find engine -name '*.pyx' | sed 's/\.pyx$$/.c/' | xargs rm -f
	rm -f engine/games/sudoku/_table.pxi
