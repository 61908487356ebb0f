"""Tango on the command line, as docs/games.md ("Tango") and docs/cli.md show it: generate, list, show, export in every format,
solve the published boards; and its bad input, each one line and a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.cli_support import exported, run

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "tango-linkedin-sample.jsonl"


def test_generate_show_and_export_tango(env: dict[str, str], tmp_path: Path) -> None:
    made = run(env, "generate", "--game", "tango", "--size", "6", "--count", "6", "--seed", "7")
    assert made.returncode == 0, made.stderr
    assert "accepted 6 of 6" in made.stdout
    boards = exported(env, "--game", "tango")
    assert len(boards) == 6 and all(board["game"] == "tango" for board in boards)
    again = run({**env, "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'again.db'}"},
                "generate", "--game", "tango", "--size", "6", "--count", "6", "--seed", "7")
    assert again.returncode == 0
    assert {b["id"] for b in exported({**env, "PUZZLEFLEET_DB": f"sqlite:///{tmp_path / 'again.db'}"})} == \
        {b["id"] for b in boards}, "the same seed makes the same boards"
    board = boards[0]
    shown = run(env, "show", board["id"])
    assert shown.returncode == 0 and shown.stdout.startswith(f"# {board['id']} tango 6x6")
    for form in ("svg", "png", "print", "text"):
        out = tmp_path / form
        result = run(env, "export", "--game", "tango", "--limit", "1", "--format", form, "--out", f"{out}/")
        assert result.returncode == 0, (form, result.stderr)
    (drawn,) = (tmp_path / "svg").glob("*-solution.svg")
    svg = drawn.read_text(encoding="utf-8")
    board = next(b for b in boards if drawn.name.startswith(b["id"]))
    assert svg.count('data-symbol="☀"') == svg.count('data-symbol="☾"') == 18
    assert svg.count('class="edge"') == len(board["clues"])


def test_solve_finds_every_published_sample_board_unique(env: dict[str, str]) -> None:
    lines = SAMPLE.read_text(encoding="utf-8")
    result = run(env, "solve", "-", stdin=lines)
    assert result.returncode == 0, result.stderr
    solved = [json.loads(line) for line in result.stdout.splitlines()]
    published = [json.loads(line) for line in lines.splitlines()]
    assert [s["status"] for s in solved] == ["unique"] * len(published)
    assert [s["solution"] for s in solved] == [p["solution"] for p in published]
    assert all("trial" not in {step["technique"] for step in s["steps"]} for s in solved)


def test_bad_tango_input_is_one_line_and_a_non_zero_exit(env: dict[str, str]) -> None:
    for args, words in ((["--size", "7"], "offers sizes 4, 6, 8, 10, 12, not 7"), (["--size", "14"], "12"), (["--size", "6", "--stars", "2"], "stars")):
        result = run(env, "generate", "--game", "tango", *args)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)
        assert words in result.stderr, (args, result.stderr)
    broken = {"game": "tango", "rules": {"size": 6}, "givens": "S" * 35, "clues": []}
    result = run(env, "solve", "-", stdin=json.dumps(broken))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    far = {"game": "tango", "rules": {"size": 4}, "givens": "." * 16, "clues": [{"cells": [[0, 0], [2, 0]], "kind": "same"}]}
    result = run(env, "solve", "-", stdin=json.dumps(far))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    open_board = {"game": "tango", "rules": {"size": 4}, "givens": "." * 16, "clues": []}
    result = run(env, "solve", "-", stdin=json.dumps(open_board))
    assert result.returncode == 3 and json.loads(result.stdout)["status"] == "several"
    assert exported(env) == [], "nothing stored by a failed command"
