"""`puzzlefleet enqueue` and `jobs` as real processes: bad parameters are refused in one line (exit 2)
before anything is written; an unreachable broker is one line too, and the job is kept, marked failed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.workers.conftest import free_port

pytestmark = [pytest.mark.fleet]

EXE = Path(sys.executable).with_name("puzzlefleet")


def run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    full = {**os.environ, "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'p.db'}",
            "PUZZLEFLEET_BROKER": f"redis://127.0.0.1:{free_port()}/0", **env}
    return subprocess.run([str(EXE), *args], env=full, cwd=tmp_path, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, message", [
    (["--size", "0"], "size 0 is out of range"),
    (["--size", "99"], "size 99 is out of range"),
    (["--size", "nine"], "'nine' is not a whole number"),
    (["--size", "8", "--band", "nonsense"], "invalid choice: 'nonsense'"),
    (["--size", "8", "--stars", "2"], "queens has 1 star per unit"),
    (["--size", "8", "--count", "0"], "0 is out of range"),
    (["--size", "8", "--timeout", "0"], "--timeout must be a positive number"),
    (["--size", "8", "--seed", "-1"], "a seed is a whole number"),
    (["--size", "8", "--style", "cubist"], "invalid choice: 'cubist'"),
])
def test_bad_parameters_are_refused_in_one_line_before_anything_is_written(tmp_path: Path, args: list[str],
                                                                           message: str) -> None:
    result = run(tmp_path, "enqueue", "--game", "queens", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzlefleet: error:") and message in lines[0], lines
    assert not (tmp_path / "p.db").exists()


@pytest.mark.parametrize("args, message", [
    (["--game", "starbattle", "--size", "10", "--stars", "2", "--style", "composed"],
     "no drawing style 'composed' for starbattle 10 2: expected one of"),
    (["--game", "sudoku", "--size", "9", "--style", "organic"], "sudoku has no drawing styles"),
])
def test_a_style_the_rules_do_not_take_is_refused_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = run(tmp_path, "enqueue", *args)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0], lines
    assert not (tmp_path / "p.db").exists()


def test_star_battle_sizes_are_checked_by_the_engine_rules(tmp_path: Path) -> None:
    result = run(tmp_path, "enqueue", "--game", "starbattle", "--size", "6", "--stars", "2")
    assert result.returncode == 2 and "size 6 is out of range for 2-star boards" in result.stderr


def test_a_bad_fleet_setting_is_one_line(tmp_path: Path) -> None:
    result = run(tmp_path, "enqueue", "--game", "queens", "--size", "8", PUZZLEFLEET_VISIBILITY_TIMEOUT="soon")
    assert result.returncode == 2
    assert result.stderr.strip() == "puzzlefleet: error: PUZZLEFLEET_VISIBILITY_TIMEOUT='soon' is not a number"
    result = run(tmp_path, "enqueue", "--game", "queens", "--size", "8", PUZZLEFLEET_VISIBILITY_TIMEOUT="60",
                 PUZZLEFLEET_TIME_LIMIT="90")
    assert result.returncode == 2 and "must be below PUZZLEFLEET_VISIBILITY_TIMEOUT" in result.stderr
    assert not (tmp_path / "p.db").exists()


def test_an_unreachable_broker_is_one_line_and_the_job_is_marked_failed(tmp_path: Path) -> None:
    port = free_port()
    broker = f"redis://:hunter2@127.0.0.1:{port}/0"
    result = run(tmp_path, "enqueue", "--game", "queens", "--size", "8", "--count", "3", PUZZLEFLEET_BROKER=broker)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("puzzlefleet: error: cannot send job 1 to the broker"), lines
    assert "hunter2" not in result.stderr
    shown = run(tmp_path, "jobs", "1", "--json")
    assert shown.returncode == 0, shown.stderr
    status = json.loads(shown.stdout)
    assert status["state"] == "failed" and status["error"].startswith("cannot send job 1")
    assert "hunter2" not in status["error"]


def test_jobs_with_no_jobs_and_a_missing_job(tmp_path: Path) -> None:
    assert run(tmp_path, "jobs").stdout.strip() == "no jobs"
    assert run(tmp_path, "jobs", "--json").stdout.strip() == ""
    missing = run(tmp_path, "jobs", "7")
    assert missing.returncode == 1 and missing.stderr.strip() == "puzzlefleet: no job with id 7"
    bad = run(tmp_path, "jobs", "x")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1
