"""The `puzzlefleet` command with Sudoku: generate by technique and by clue band, solve 81-character
lines and Sudoku JSON, export as text, show; bad input gets one line and exit 2."""

from __future__ import annotations

import json

import pytest
from cli_support import exported, run

from engine.games.sudoku.reference import reference_solutions

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
NO_SOLUTION = "12345678." + "." * 8 + "9" + "." * 63


def test_generate_by_technique_band(env):
    result = run(env, "generate", "--game", "sudoku", "--size", "9", "--band", "hard", "--count", "4",
                 "--seed", "5", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert "sudoku 9 hard" in result.stdout and "accepted 4 of 4" in result.stdout
    boards = exported(env, "--game", "sudoku", "--band", "hard")
    assert len(boards) == 4 and len({b["id"] for b in boards}) == 4
    for board in boards:
        assert board["game"] == "sudoku" and board["rules"] == {"size": 9}
        assert board["difficulty"]["band"] == "hard" and board["difficulty"]["band_by"] == "technique"
        assert reference_solutions(board["givens"], 2) == [board["solution"]]
        assert board["steps"] and board["engine_version"]
    # the same seed again: the same boards, all refused as duplicates
    again = run(env, "generate", "--game", "sudoku", "--size", "9", "--band", "hard", "--count", "1",
                "--seed", "5")
    assert "duplicate" in again.stdout


def test_generate_by_clue_band(env):
    result = run(env, "generate", "--game", "sudoku", "--size", "9", "--band", "easy", "--band-by", "clues",
                 "--count", "3", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert "sudoku 9 by-clues easy" in result.stdout
    for board in exported(env, "--game", "sudoku"):
        clues = 81 - board["givens"].count(".")
        assert 36 <= clues <= 40 and board["difficulty"]["clues"] == clues
        assert board["difficulty"]["band"] == "easy" and board["difficulty"]["band_by"] == "clues"
        assert board["difficulty"]["technique_band"] in ("easy", "medium", "hard", "expert")


@pytest.mark.parametrize("args, message", [
    (["--size", "8"], "sudoku offers only 9×9, not 8"),
    (["--size", "9", "--stars", "2"], "no stars"),
    (["--size", "9", "--band-by", "clues", "--band", "expert"], "unknown band 'expert' by clues"),
    (["--size", "9", "--band-by", "vibes"], "invalid choice"),
])
def test_generate_refuses_bad_requests(env, args, message):
    result = run(env, "generate", "--game", "sudoku", *args)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    result = run(env, "generate", "--game", "queens", "--size", "8", "--band-by", "clues")
    assert result.returncode == 2 and "by technique only" in result.stderr


def test_solve_lines(env):
    lines = [PUZZLE, PUZZLE.replace(".", "0")]
    result = run(env, "solve", "-", stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    outs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(outs) == 2
    for out in outs:
        assert out["status"] == "unique" and out["solution"] == SOLUTION and out["givens"] == PUZZLE
        assert out["difficulty"]["band"] in ("easy", "medium", "hard", "expert", "beyond")
        assert out["steps"] and out["id"] == outs[0]["id"]
        assert {p[2] for s in out["steps"] for p in s["place"]} <= set(range(1, 10))


def test_solve_statuses(env):
    several = run(env, "solve", "-", stdin="." * 81 + "\n")
    assert several.returncode == 3 and json.loads(several.stdout)["status"] == "several"
    none = run(env, "solve", "-", stdin=NO_SOLUTION + "\n")
    assert none.returncode == 4 and json.loads(none.stdout)["status"] == "none"
    mixed = run(env, "solve", "-", stdin=PUZZLE + "\n" + "." * 81 + "\n")
    assert mixed.returncode == 3 and len(mixed.stdout.splitlines()) == 2


def test_solve_json_and_explain(env, tmp_path):
    board = {"game": "sudoku", "rules": {"size": 9}, "givens": PUZZLE}
    path = tmp_path / "b.json"
    path.write_text(json.dumps(board))
    result = run(env, "solve", "--explain", str(path))
    assert result.returncode == 0, result.stderr
    first, *explained = result.stdout.splitlines()
    assert json.loads(first)["solution"] == SOLUTION
    assert explained[0].startswith("difficulty ") and "has one place left" in result.stdout


@pytest.mark.parametrize("stdin, message", [
    ("55" + "." * 79 + "\n", "digit 5 appears twice in row 1"),
    ("1" * 80 + "\n", "81 characters, got 80"),
    ("." * 80 + "x\n", "expected a JSON board"),
    ('{"game": "sudoku", "givens": "12"}\n', "81 characters"),
    ('{"game": "sudoku", "givens": "' + PUZZLE + '", "solution": "' + SOLUTION[::-1] + '"}\n', "disagrees"),
])
def test_solve_refuses_bad_sudoku_with_one_line(env, stdin, message):
    result = run(env, "solve", "-", stdin=stdin)
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_export_text_and_show(env):
    assert run(env, "generate", "--game", "sudoku", "--size", "9", "--band", "easy", "--seed", "2").returncode == 0
    board = exported(env, "--game", "sudoku")[0]
    text = run(env, "export", "--game", "sudoku", "--format", "text").stdout.splitlines()
    assert text[0] == f"# {board['id']} sudoku 9x9 clues={81 - board['givens'].count('.')}"
    assert text[1] == " | ".join(" ".join(board["givens"][i:i + 3]) for i in (0, 3, 6))
    assert text[4] == "------+-------+------" and text[12] == "solution"
    assert text[13].replace(" ", "").replace("|", "") == board["solution"][:9]
    shown = run(env, "show", board["id"])
    assert shown.returncode == 0 and board["id"] in shown.stdout and "difficulty easy" in shown.stdout
