"""The two make targets a newcomer runs besides `make test`, run for real in a copy of the repository:
`make run` leaves the user's puzzles.db alone (its demo has a store of its own), and `make clean`
removes every build product."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    return copy


@pytest.mark.slow
def test_make_run_keeps_the_users_store(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    with sqlite3.connect(copy / "puzzles.db") as conn:
        conn.execute("CREATE TABLE mine (x)")
        conn.execute("INSERT INTO mine VALUES ('keep me')")
    # This test's venv and engine stand in for the copy's own (-o: take them as already made).
    result = subprocess.run(["make", "-o", f"{VENV}/.installed", "-o", "build", "run", f"VENV={VENV}"], cwd=copy,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    with sqlite3.connect(copy / "puzzles.db") as conn:
        assert conn.execute("SELECT x FROM mine").fetchall() == [("keep me",)]
    with sqlite3.connect(copy / "demo.db") as conn:
        assert conn.execute("SELECT count(*) FROM puzzle").fetchone()[0] == 11
    assert "demo.db" in result.stdout


def test_make_clean_removes_every_build_product(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    products = [copy / "engine/games/sudoku/_logic.cpython-311-x86_64-linux-gnu.so",
                copy / "engine/games/starbattle/_search.cpython-311-x86_64-linux-gnu.so",
                copy / "engine/games/sudoku/_logic.c", copy / "engine/games/starbattle/_techniques.c",
                copy / "engine/games/sudoku/_table.pxi", copy / "build/lib/x.o", copy / "puzzlefleet.egg-info/PKG-INFO",
                copy / ".venv/bin/python"]
    for path in products:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("built")
    subprocess.run(["make", "clean"], cwd=copy, check=True, capture_output=True, timeout=60)
    assert [p for p in products if p.exists()] == []
    assert (copy / "engine/games/sudoku/_logic.pyx").exists() and (copy / "engine/games/sudoku/table.py").exists()
