"""`pip install .` alone (no extras) gives a working generate, solve and export on SQLite, and a verb
that needs an extra says which, in one line. Built and installed for real into a fresh venv."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("packaging")]

ROOT = Path(__file__).resolve().parents[2]
EXTRA_MODULES = ("celery", "kombu", "redis", "flower", "prometheus_client", "pydantic_settings", "fastapi", "uvicorn",
                 "psycopg")


def _run(argv: list[str]) -> None:
    result = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{' '.join(argv)}:\n{result.stderr[-3000:]}"


@pytest.fixture(scope="session")
def core(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh venv holding only the core install, built once (the xdist group keeps
    this module's tests on one worker, which may run other tests between them)."""
    tmp = tmp_path_factory.mktemp("core")
    # The wheel is built with this venv's Cython (no download); the install takes the core's
    # dependencies from the package index, as a user's `pip install .` would.
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
          "-w", str(tmp / "dist"), str(ROOT)])
    venv.EnvBuilder(with_pip=True).create(tmp / "venv")
    bin_dir = tmp / "venv" / "bin"
    wheel = next((tmp / "dist").glob("puzzlefleet-*.whl"))
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)])
    return bin_dir


def run(core: Path, env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(core / "puzzlefleet"), *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=core.parent, timeout=300)


def test_the_core_install_pulls_no_extra(core: Path) -> None:
    found = subprocess.run([str(core / "python"), "-c", "import importlib.util, sys; print(' '.join(m for m in "
                            f"{EXTRA_MODULES!r} if importlib.util.find_spec(m)))"],
                           capture_output=True, text=True, check=True)
    assert found.stdout.split() == []


def test_generate_solve_and_export_work_on_sqlite(core: Path, tmp_path: Path) -> None:
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'p.db'}"}
    made = run(core, env, "generate", "--game", "queens", "--size", "8", "--count", "2", "--seed", "1", "--jobs", "2")
    assert made.returncode == 0 and "accepted 2 of 2" in made.stdout, made.stderr
    assert run(core, env, "generate", "--game", "sudoku", "--size", "9", "--count", "1", "--seed", "2").returncode == 0
    boards = [json.loads(line) for line in run(core, env, "export").stdout.splitlines()]
    assert sorted(b["game"] for b in boards) == ["queens", "queens", "sudoku"]
    solved = run(core, env, "solve", "-", stdin=json.dumps({k: boards[0][k] for k in ("game", "rules", "regions")}))
    assert solved.returncode == 0 and json.loads(solved.stdout)["solution"] == boards[0]["solution"]
    for fmt in ("svg", "png"):
        out = run(core, env, "export", "--format", fmt, "--out", str(tmp_path / "pictures"))
        assert out.returncode == 0, out.stderr
    assert len(list((tmp_path / "pictures").iterdir())) == 3 * 2 * 2      # puzzle and solution, svg and png
    assert run(core, env, "jobs").returncode == 0


@pytest.mark.parametrize("args, extra", [
    (("enqueue", "--game", "queens", "--size", "8"), "fleet"),
    (("serve",), "api"),
])
def test_a_verb_that_needs_an_extra_says_which(core: Path, tmp_path: Path, args: tuple[str, ...], extra: str) -> None:
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'p.db'}"}
    result = run(core, env, *args)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        result.stderr.strip()] and f"pip install 'puzzlefleet[{extra}]'" in result.stderr


def test_a_postgresql_store_says_which_extra(core: Path, tmp_path: Path) -> None:
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PUZZLEFLEET_DB": "postgresql://postgres@127.0.0.1/test"}
    for args in (("export",), ("jobs",)):
        result = run(core, env, *args)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
        assert "puzzlefleet[postgres]" in result.stderr, result.stderr
