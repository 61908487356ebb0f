"""Rules and Board values: text and JSON round trips, and one clear line for every bad input."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import DeadlineExceeded, InvalidBoard, InvalidRules, PuzzleError
from engine.games.starbattle import Board, Rules, generate
from engine.games.starbattle.rules import DIAGONAL_SIZE_RANGE, SIZE_RANGE

VALID = ([Rules(n) for n in range(SIZE_RANGE[1][0], SIZE_RANGE[1][1] + 1)]
         + [Rules(n, 1, True) for n in range(DIAGONAL_SIZE_RANGE[0], DIAGONAL_SIZE_RANGE[1] + 1)]
         + [Rules(n, k) for k in (2, 3) for n in range(SIZE_RANGE[k][0], SIZE_RANGE[k][1] + 1)])


def one_line(exc: BaseException) -> None:
    text = str(exc)
    assert text.strip(), "empty message"
    assert "\n" not in text and "\r" not in text, f"message spans lines: {text!r}"
    assert "Traceback" not in text


# ---- Rules ---------------------------------------------------------------------------------------

def test_errors_are_value_errors() -> None:
    assert issubclass(InvalidRules, PuzzleError) and issubclass(InvalidBoard, PuzzleError)
    assert issubclass(PuzzleError, ValueError)
    assert not issubclass(DeadlineExceeded, ValueError)


@pytest.mark.parametrize("rules", VALID, ids=str)
def test_rules_text_and_json_round_trip(rules: Rules) -> None:
    assert Rules.parse(str(rules)) == rules
    assert str(Rules.parse(str(rules))) == str(rules)
    from engine.games.starbattle.model import StarRules
    assert Rules(**StarRules.model_validate(json.loads(json.dumps(rules.to_json()))).model_dump()) == rules
    assert rules.stars_total == rules.size * rules.stars
    assert rules.game == ("queens" if rules.stars == 1 else "starbattle")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(VALID), st.sampled_from(["", " ", "  ", "\t"]))
def test_rules_parse_tolerates_spacing(rules: Rules, pad: str) -> None:
    text = pad + str(rules).replace(" ", " " + pad) + pad
    assert Rules.parse(text) == rules


def test_rules_text_forms() -> None:
    assert str(Rules(8)) == "queens 8"
    assert str(Rules(10, 1, True)) == "queens 10 diagonals"
    assert str(Rules(10, 2)) == "starbattle 10 2"
    assert Rules.parse("starbattle 9 1") == Rules(9)          # 1-star Star Battle is Queens
    assert Rules(8) == Rules(8, 1, False) and hash(Rules(8)) == hash(Rules(8, 1, False))
    assert Rules(8) != Rules(8, 1, True)
    assert Rules(12, 2) != Rules(12, 3)


@pytest.mark.parametrize("args", [
    (0,), (99,), (3,), (-1,), (21,), (8, 4), (8, 0), (8, -1), (10, 2, True), (12, 3, True), (7, 2), (17, 2),
    (10, 3), (17, 3), (17, 1, True), (3, 1, True), (8.0,), ("8",), (True,), (None,), (8, "2"), (8, 2.5),
], ids=repr)
def test_bad_rules_raise_invalid_rules(args) -> None:
    with pytest.raises(InvalidRules) as caught:
        Rules(*args)
    assert isinstance(caught.value, ValueError)
    one_line(caught.value)


@pytest.mark.parametrize("text", [
    "", "queens", "queens 0", "queens 99", "queens 3", "queens 8 diagonal", "queens 8 diagonals x",
    "starbattle 8", "starbattle 8 4", "starbattle 10 2 diagonals", "starbattle 7 2", "sudoku 9",
    "queens eight", "queens 8.0", "QUEENS 8", "queens\n8\nx", "starbattle 8 two", "queens 8 2",
])
def test_bad_rules_text_raises_invalid_rules(text: str) -> None:
    with pytest.raises(InvalidRules) as caught:
        Rules.parse(text)
    one_line(caught.value)


@pytest.mark.parametrize("stars", [True, 1.0,
                                   [1], {},
                                   2.0, "1", None, "two"], ids=repr)
def test_rules_stars_must_be_a_whole_number(stars) -> None:
    with pytest.raises(InvalidRules) as caught:
        Rules(8, stars)
    one_line(caught.value)


# ---- Board ---------------------------------------------------------------------------------------

def _board_json(rules: Rules, seed: int = 1) -> dict:
    board, _ = generate(rules, seed)
    return board.to_json()


@pytest.fixture(scope="module")
def sample() -> dict:
    return _board_json(Rules(6))


@pytest.mark.parametrize("rules", [Rules(6), Rules(8), Rules(9, 1, True), Rules(10, 2), Rules(12, 3)],
                         ids=str)
def test_board_json_round_trip(rules: Rules) -> None:
    board, _ = generate(rules, 7)
    data = board.to_json()
    assert Board.from_json(data) == board
    through_text = json.loads(json.dumps(data))
    back = Board.from_json(through_text)
    assert back == board and back.to_json()["regions"] == data["regions"]
    assert back.fingerprint == board.fingerprint and back.id == data["id"]
    assert data["rules"] == rules.to_json()
    assert len(data["regions"]) == rules.size and all(len(row) == rules.size for row in data["regions"])
    n = rules.size
    assert [r * n + c for r, c in data["solution"]] == list(board.solution)


def test_board_without_solution_or_seed() -> None:
    data = {"game": "queens", "rules": {"size": 4}, "regions": [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3],
                                                                 [2, 2, 3, 3]]}
    board = Board.from_json(data)
    assert board.solution == () and board.seed is None and board.rules == Rules(4)
    assert Board.from_json(board.to_json()) == board
    assert "seed" not in board.to_json()


def _broken(sample: dict, path: tuple, value) -> dict:
    data = copy.deepcopy(sample)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


_DELETE = object()

BAD_BOARDS = {
    "size 0": (("rules", "size"), 0),
    "size 99": (("rules", "size"), 99),
    "size 3 at k=1": (("rules", "size"), 3),
    "size as text": (("rules", "size"), "6"),
    "size as bool": (("rules", "size"), True),
    "no size": (("rules", "size"), _DELETE),
    "stars 4": (("rules", "stars"), 4),
    "stars 2 in a queens board": (("rules", "stars"), 2),
    "diagonals not a bool": (("rules", "diagonals"), "yes"),
    "rules not an object": (("rules",), [6, 1]),
    "no rules": (("rules",), _DELETE),
    "unknown game": (("game",), "sudoku"),
    "no game": (("game",), _DELETE),
    "regions missing": (("regions",), _DELETE),
    "regions not a list": (("regions",), "000000"),
    "regions too few rows": (("regions",), [[0] * 6] * 5),
    "regions too many rows": (("regions",), [[0] * 6] * 7),
    "regions short row": (("regions", 2), [0, 1, 2, 3, 4]),
    "regions long row": (("regions", 2), [0, 1, 2, 3, 4, 5, 0]),
    "regions row not a list": (("regions", 2), "012345"),
    "label 6 on a 6x6": (("regions", 0, 0), 6),
    "label -1": (("regions", 0, 0), -1),
    "label float": (("regions", 0, 0), 1.0),
    "label text": (("regions", 0, 0), "1"),
    "label None": (("regions", 0, 0), None),
    "label bool": (("regions", 0, 0), True),
    "label False": (("regions", 0, 0), False),
    "solution row off board": (("solution", 0), [6, 0]),
    "solution column off board": (("solution", 0), [0, 6]),
    "solution negative": (("solution", 0), [-1, 0]),
    "solution pair too short": (("solution", 0), [0]),
    "solution pair too long": (("solution", 0), [0, 1, 2]),
    "solution pair a string": (("solution", 0), "ab"),
    "solution pair of floats": (("solution", 0), [0.0, 1.0]),
    "solution a string": (("solution",), "ab"),
}


@pytest.mark.parametrize("case", sorted(BAD_BOARDS))
def test_bad_board_raises_invalid_board(sample: dict, case: str) -> None:
    path, value = BAD_BOARDS[case]
    with pytest.raises(InvalidBoard) as caught:
        Board.from_json(_broken(sample, path, value))
    assert isinstance(caught.value, ValueError)
    one_line(caught.value)


def test_a_missing_region_label_is_refused(sample: dict) -> None:
    n = 6
    data = copy.deepcopy(sample)
    data["regions"] = [[min(label, n - 2) for label in row] for row in data["regions"]]   # label 5 gone
    with pytest.raises(InvalidBoard) as caught:
        Board.from_json(data)
    one_line(caught.value)
    assert "5" in str(caught.value) or "regions" in str(caught.value)


def test_diagonals_with_two_stars_is_refused() -> None:
    data = _board_json(Rules(10, 2))
    data["rules"]["diagonals"] = True
    with pytest.raises(InvalidBoard) as caught:
        Board.from_json(data)
    one_line(caught.value)


@pytest.mark.parametrize("data", [None, [], [1, 2], "queens 8", 8, 8.5, True, b"{}"], ids=repr)
def test_non_object_input_is_refused(data) -> None:
    with pytest.raises(InvalidBoard) as caught:
        Board.from_json(data)
    one_line(caught.value)


@pytest.mark.parametrize("solution", [5, 1.5, True], ids=repr)
def test_solution_not_a_list_is_refused(sample: dict, solution) -> None:
    with pytest.raises(InvalidBoard):
        Board.from_json(_broken(sample, ("solution",), solution))


def test_solution_pair_of_bools_is_refused(sample: dict) -> None:
    with pytest.raises(InvalidBoard):
        Board.from_json(_broken(sample, ("solution", 0), [True, 0]))


@pytest.mark.parametrize("stars", [[2], {"n": 2}], ids=repr)
def test_unhashable_stars_is_refused(stars) -> None:
    data = _board_json(Rules(10, 2))
    data["rules"]["stars"] = stars
    with pytest.raises(InvalidBoard):
        Board.from_json(data)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False) | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=7) | st.dictionaries(st.text(max_size=8), inner,
                                                                                max_size=5),
                    max_leaves=60))
def test_arbitrary_json_is_a_board_or_one_invalid_board_line(data) -> None:
    try:
        board = Board.from_json(data)
    except InvalidBoard as exc:
        one_line(exc)
        return
    assert Board.from_json(board.to_json()) == board


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["game", "rules", "regions", "solution"]),
       st.none() | st.integers() | st.text(max_size=5) | st.lists(st.integers(-2, 8), max_size=8))
def test_mutated_real_board_is_a_board_or_one_invalid_board_line(key: str, value) -> None:
    data = _sample_cache()
    data = copy.deepcopy(data)
    data[key] = value
    try:
        Board.from_json(data)
    except InvalidBoard as exc:
        one_line(exc)


_SAMPLE: dict = {}


def _sample_cache() -> dict:
    if not _SAMPLE:
        _SAMPLE.update(_board_json(Rules(6)))
    return _SAMPLE
