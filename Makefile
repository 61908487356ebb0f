# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test build bench bench-fleet schema clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# The build tools live in the venv too, so that `build` can recompile the engine in place.
$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(BIN)/pip install --quiet 'Cython>=3.0.10' 'setuptools>=68' wheel
	$(BIN)/pip install --quiet --no-build-isolation -e '.[all,test]'
	touch $(STAMP)

# Rebuild the compiled engine whenever a .pyx/.pxd changed (cheap when nothing did).
build: $(STAMP)
	$(BIN)/python setup.py --quiet build_ext --inplace

run: build
	rm -f puzzles.db puzzles.db-wal puzzles.db-shm
	$(BIN)/puzzlefleet generate --game queens --size 8 --count 4 --seed 1 --jobs 2
	$(BIN)/puzzlefleet generate --game queens --size 10 --diagonals --count 2 --seed 2
	$(BIN)/puzzlefleet generate --game starbattle --size 10 --stars 2 --count 3 --seed 3 --jobs 2
	$(BIN)/puzzlefleet generate --game sudoku --size 9 --band hard --count 2 --seed 4
	$(BIN)/puzzlefleet export --game queens --size 8 --limit 1 --format text
	$(BIN)/puzzlefleet export --game queens --size 10 --limit 1 --format text
	$(BIN)/puzzlefleet export --game starbattle --limit 1 --format text
	$(BIN)/puzzlefleet export --game sudoku --limit 1 --format text

test: build
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q

bench: build
	$(BIN)/python bench/bench_starbattle.py

# Needs the Redis at 127.0.0.1:6379 (database 6 is flushed).
bench-fleet: build
	$(BIN)/python bench/bench_fleet.py

# The published board JSON Schema (a test checks that the file matches the models).
schema: build
	$(BIN)/python -c "import engine; print(engine.board_schema_text(), end='')" > docs/board.schema.json

clean:
	rm -rf $(VENV) build *.egg-info engine/**/*.so engine/**/*.c
