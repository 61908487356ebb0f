"""What a one-process `generate` loads: its game's engine and the store, not the other games' generators
and ladders (their options still become flags), nor the process pool of --jobs N, nor the web API."""

from __future__ import annotations

import subprocess
import sys

# The command as installed (puzzlefleet.cli:console), then the modules it loaded, on stderr.
SCRIPT = ("import sys; from puzzlefleet.cli import console; sys.argv = ['puzzlefleet'] + sys.argv[1:]; code = console();"
          "print(' '.join(sorted(sys.modules)), file=sys.stderr); sys.exit(code)")

NOT_LOADED = ("multiprocessing", "engine.games.sudoku.generator", "engine.games.sudoku.grade",
              "engine.games.sudoku.count", "engine.games.killer.generator", "engine.games.killer.grade",
              "engine.games.killer.count", "fastapi", "celery", "alembic")


def test_a_queens_generate_loads_no_other_games_generator(env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, "generate", "--game", "queens", "--size", "6", "--count", "1",
                           "--seed", "3"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "accepted 1 of 1" in done.stdout
    loaded = set(done.stderr.split())
    assert "engine.games.starbattle.generator" in loaded and "engine.games.sudoku.game" in loaded
    assert [name for name in NOT_LOADED if name in loaded] == []


def test_a_sudoku_generate_still_loads_its_generator(env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, "generate", "--game", "sudoku", "--size", "9", "--count", "1",
                           "--seed", "3", "--band", "easy"], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "accepted 1 of 1" in done.stdout
    assert "engine.games.sudoku.generator" in set(done.stderr.split())
