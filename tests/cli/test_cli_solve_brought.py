"""`puzzlefleet solve` on boards as users bring them: their own ids (any string of up to 200
characters, or an integer) come back unchanged as `id`, the store's id beside them as `board_id`, and
fields the board model does not know are ignored. Run as docs/cli.md ("solve") runs it."""

from __future__ import annotations

import json

import pytest
from cli_support import run

QUEENS = {"game": "queens", "rules": {"size": 7},           # a hand-drawn board with one solution
          "regions": [[0, 0, 0, 1, 2, 3, 3], [0, 1, 1, 1, 2, 3, 3], [0, 4, 4, 4, 2, 2, 3], [0, 4, 4, 2, 2, 3, 3],
                      [0, 4, 4, 2, 2, 3, 3], [0, 0, 0, 2, 5, 3, 3], [5, 5, 5, 5, 5, 5, 6]]}
SUDOKU = {"game": "sudoku", "rules": {"size": 9},
          "givens": "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"}
STARS = "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou"


def solved(env: dict[str, str], *boards: dict) -> list[dict]:
    result = run(env, "solve", "-", stdin="\n".join(json.dumps(board) for board in boards) + "\n")
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_the_users_ids_come_back_unchanged(env: dict[str, str]) -> None:
    long_id = "KD_Killer_IM6-B1-P1 " + "x" * 180
    boards = [{"id": "my-board-1", "label": "medium", **QUEENS}, {"id": 42, **QUEENS},
              {"id": long_id, "source": "a booklet", "book": 7, **SUDOKU}, {"id": "", **SUDOKU}, QUEENS]
    answers = solved(env, *boards)
    assert [answer["id"] for answer in answers[:4]] == ["my-board-1", 42, long_id, ""]
    assert all(answer["status"] == "unique" for answer in answers)
    # The id the store would give each board sits beside the user's; with no id given, it is the id.
    queens_id = answers[4]["id"]
    assert len(queens_id) == 16 and int(queens_id, 16) >= 0
    assert [answer["board_id"] for answer in answers] == [queens_id, queens_id, answers[2]["board_id"],
                                                          answers[2]["board_id"], queens_id]
    assert answers[2]["board_id"] != queens_id and len(answers[2]["board_id"]) == 16
    assert "label" not in answers[0] and "source" not in answers[2]   # ignored, not echoed


def test_a_known_solution_is_taken_as_a_claim(env: dict[str, str]) -> None:
    (plain,) = solved(env, QUEENS)
    (claimed,) = solved(env, {"id": "with-answer", **QUEENS, "solution": plain["solution"]})
    assert claimed["id"] == "with-answer" and claimed["solution"] == plain["solution"]


def test_the_users_ids_in_an_array_and_beside_a_url(env: dict[str, str]) -> None:
    result = run(env, "solve", "-", stdin=json.dumps([{"id": 7, **QUEENS}, {"id": "b", **SUDOKU}]))
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [7, "b"]
    mixed = run(env, "solve", "-", stdin=STARS + "\n" + json.dumps({"id": "mine", **QUEENS}) + "\n")
    first, second = (json.loads(line) for line in mixed.stdout.splitlines())
    assert first["id"] == first["board_id"] and second["id"] == "mine"


@pytest.mark.parametrize("bad_id, message", [
    ("x" * 201, "at most 200 characters"),
    (1.5, "id"),
    (True, "id"),
    (["a"], "id"),
    ({"a": 1}, "id"),
])
def test_an_id_of_another_kind_is_one_line(env: dict[str, str], bad_id: object, message: str) -> None:
    result = run(env, "solve", "-", stdin=json.dumps({"id": bad_id, **QUEENS}))
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.stderr, result.stderr
