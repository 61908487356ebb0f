"""The Sudoku board value: parsing and printing, the JSON contract, bad input, and the fingerprint's
invariance under the Sudoku symmetries (and its telling different puzzles apart)."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import InvalidBoard
from engine.games.sudoku.board import SudokuBoard, parse_line
from engine.games.sudoku.count import count_solutions
from test_engine_sudoku_support import random_puzzle

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def transform(line: str, rng: random.Random) -> str:
    """A random element of the Sudoku group applied to a line ('.' stays '.'): digits relabelled,
    maybe transposed, rows permuted within bands and bands permuted, likewise columns and stacks."""
    def order() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [3 * b + i for b in bands for i in rng.sample(range(3), 3)]
    rows, cols = order(), order()
    labels = dict(zip("123456789", rng.sample("123456789", 9)))
    labels["."] = "."
    grid = [line[rows[r] * 9 + cols[c]] for r in range(9) for c in range(9)]
    if rng.random() < 0.5:
        grid = [grid[(i % 9) * 9 + i // 9] for i in range(81)]
    return "".join(labels[ch] for ch in grid)


def test_parse_and_print_round_trip():
    board = parse_line(PUZZLE)
    assert str(board) == PUZZLE and board.clues == 17
    assert parse_line(str(board)) == board
    assert parse_line(PUZZLE.replace(".", "0")) == board
    assert parse_line("  " + PUZZLE + "\n") == board


def test_json_round_trip():
    board = SudokuBoard(PUZZLE, SOLUTION, seed=7, extra={"difficulty": {"band": "hard"}})
    data = board.to_json()
    assert data["game"] == "sudoku" and data["rules"] == {"size": 9}
    assert data["givens"] == PUZZLE and data["solution"] == SOLUTION and data["seed"] == 7
    assert data["id"] == board.fingerprint[:16]
    back = SudokuBoard.from_json(json.loads(json.dumps(data)))
    assert back == board
    assert SudokuBoard.from_json({"game": "sudoku", "rules": {"size": 9}, "givens": PUZZLE}).solution == ""


@pytest.mark.parametrize("line, message", [
    ("1" * 80, "81 characters, got 80"),
    ("." * 82, "81 characters, got 82"),
    ("x" + "." * 80, "character 'x' at position 1"),
    ("." * 40 + "a" + "." * 40, "position 41"),
    ("55" + "." * 79, "digit 5 appears twice in row 1"),
    ("7" + "." * 8 + "7" + "." * 71, "digit 7 appears twice in column 1"),
    ("3" + "." * 9 + "3" + "." * 70, "digit 3 appears twice in box 1"),
])
def test_bad_lines(line, message):
    with pytest.raises(InvalidBoard) as err:
        parse_line(line)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("data, message", [
    ([], "JSON object"),
    ({"game": "queens", "givens": PUZZLE}, "game: Input should be 'sudoku'"),
    ({"game": "sudoku", "rules": {"size": 4}, "givens": PUZZLE}, "rules.size: Input should be 9"),
    ({"game": "sudoku", "givens": 5}, "givens: Input should be a valid string"),
    ({"game": "sudoku", "givens": PUZZLE[:-1]}, "81 characters"),
    ({"game": "sudoku", "givens": PUZZLE, "solution": "12"}, '"solution" must be 81 digits'),
    ({"game": "sudoku", "givens": PUZZLE, "solution": "1" * 81}, "appears twice"),
    ({"game": "sudoku", "givens": PUZZLE, "solution": SOLUTION[1:] + SOLUTION[0]}, "appears twice"),
])
def test_bad_json(data, message):
    with pytest.raises(InvalidBoard) as err:
        SudokuBoard.from_json(data)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_solution_must_agree_with_givens():
    other = "".join(str(10 - int(ch)) for ch in SOLUTION)           # relabelled: a valid grid
    with pytest.raises(InvalidBoard, match="disagrees"):
        SudokuBoard.from_json({"game": "sudoku", "givens": PUZZLE, "solution": other})


def test_fingerprint_invariant_under_the_sudoku_group():
    rng = random.Random(11)
    for _ in range(40):
        puzzle = random_puzzle(rng, True)
        solution = count_solutions(puzzle, 1).solutions[0]
        board = SudokuBoard(puzzle, solution)
        for _ in range(5):
            seed = rng.random()
            moved = SudokuBoard(transform(puzzle, random.Random(seed)), transform(solution, random.Random(seed)))
            assert count_solutions(moved.givens, 2).solutions == (moved.solution,)
            assert moved.fingerprint == board.fingerprint
            assert SudokuBoard(moved.givens).fingerprint == board.fingerprint   # solved on demand


def test_fingerprint_tells_puzzles_apart():
    rng = random.Random(12)
    prints = set()
    puzzles = set()
    for _ in range(60):
        puzzle = random_puzzle(rng, True)
        puzzles.add(puzzle)
        prints.add(parse_line(puzzle).fingerprint)
    assert len(prints) == len(puzzles)
    # the same grid with one clue more is a different puzzle
    board = parse_line(PUZZLE)
    more = PUZZLE[:1] + SOLUTION[1] + PUZZLE[2:]
    assert parse_line(more).fingerprint != board.fingerprint
    assert len(board.id) == 16


def test_fingerprint_needs_one_solution():
    with pytest.raises(InvalidBoard, match="several solutions"):
        _ = parse_line("." * 81).fingerprint
    with pytest.raises(InvalidBoard, match="no solution"):
        _ = parse_line("12345678." + "." * 8 + "9" + "." * 63).fingerprint


def test_text_rendering():
    text = SudokuBoard(PUZZLE, SOLUTION).to_text()
    lines = text.splitlines()
    assert lines[0].startswith("# ") and "sudoku 9x9 clues=17" in lines[0]
    assert lines[1] == "4 . . | . . . | 8 . 5"
    assert lines[4] == "------+-------+------"
    assert len(lines) == 12
    solved = SudokuBoard(PUZZLE, SOLUTION).to_text(with_solution=True).splitlines()
    assert solved[:12] == lines and solved[12] == "solution" and solved[13] == "4 1 7 | 3 6 9 | 8 2 5"
    assert len(solved) == 24
