"""Every file of published boards the project calibrates on (`../shared/calibration/`, beside the
repository) goes through `puzzlefleet solve` exactly as it is: the site's and publishers' own ids,
labels, book numbers and known solutions included. Each board is proved unique, keeps its id, and
where the file states the solution, `solve` finds that one.

Grading every board of the Star Battle and Killer Sudoku files takes far longer than a test may
(their graded runs are timed in BENCHMARKS.md), so those go through `solve --no-grade`; the Queens
file is graded whole as well."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_support import run

pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def _calibration() -> Path | None:
    """The shared calibration folder: PUZZLEFLEET_CALIBRATION if set, else `shared/calibration` beside
    this checkout or one of its parents, else the workplace's own (a CI clone may sit elsewhere)."""
    named = os.environ.get("PUZZLEFLEET_CALIBRATION")
    places = [Path(named)] if named else [parent / "shared" / "calibration" for parent in ROOT.parents]
    places.append(Path("/work/shared/calibration"))
    return next((folder for folder in places if folder.is_dir()), None)


CALIBRATION = _calibration()
FILES = sorted(CALIBRATION.glob("*.jsonl")) if CALIBRATION else []


def test_the_calibration_files_are_there() -> None:
    if CALIBRATION is None and not os.environ.get("CI"):
        pytest.skip("no shared/calibration folder beside this checkout")
    assert CALIBRATION is not None, f"no shared/calibration folder beside {ROOT}"
    assert {path.name for path in FILES} >= {"starbattle-labelled.jsonl", "queens-handmade.jsonl",
                                             "killer-sudoku-booklets.jsonl"}


def _check(path: Path, stdout: str) -> list[dict]:
    given = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    answers = [json.loads(line) for line in stdout.splitlines()]
    assert len(answers) == len(given)
    for board, answer in zip(given, answers):
        assert answer["id"] == board["id"] and answer["status"] == "unique", (board["id"], answer["status"])
        assert len(answer["board_id"]) == 16
        if "solution" in board:
            known = board["solution"]
            assert answer["solution"] == (sorted(known) if isinstance(known, list) else known), board["id"]
    return answers


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_every_calibration_board_is_proved_unique_with_its_own_id(env: dict[str, str], path: Path) -> None:
    result = run(env, "solve", "--no-grade", str(path))
    assert result.returncode == 0, result.stderr[-2000:]
    _check(path, result.stdout)


def test_the_hand_drawn_queens_are_graded_whole(env: dict[str, str]) -> None:
    if CALIBRATION is None:
        pytest.skip("no shared/calibration folder beside this checkout (the test above says so)")
    path = CALIBRATION / "queens-handmade.jsonl"
    result = run(env, "solve", str(path))
    assert result.returncode == 0, result.stderr[-2000:]
    for answer in _check(path, result.stdout):
        assert answer["difficulty"]["band"] and answer["steps"] and "fun" in answer["gates"]
        # the gates of the style the board looks most like: organic's shape gate is measured up to
        # 14x14; composed, interlocking and pictured have theirs at every size
        if answer["shape"]["style"] == "organic":
            assert ("shape" in answer["gates"]) == (answer["rules"]["size"] <= 14)
        else:
            assert answer["shape"]["style"] in ("composed", "interlocking", "pictured") and "shape" in answer["gates"]
