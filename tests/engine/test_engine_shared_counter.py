"""The one solution counter of Sudoku and Killer Sudoku (engine/games/sudoku/_count.pyx), the cages its
option: a Sudoku board is a count with no cages, a Killer board a count with its cages. Both through
that counter against their plain references (sudoku/reference.py, killer/reference.py), the cages
that tell nothing changing nothing, a solution to avoid for either game, and the one geometry and the
one technique record the two games share."""

from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

import pytest

from engine.games.killer import GAME as KILLER
from engine.games.killer.count import count_solutions as count_killer
from engine.games.killer.reference import reference_solutions as killer_reference
from engine.games.killer.techniques import LADDER as KILLER_LADDER, TABLE as KILLER_TABLE
from engine.games.sudoku import geometry
from engine.games.sudoku._count import solve
from engine.games.sudoku.count import ALL, count_solutions, masks_of, monotonic
from engine.games.sudoku.reference import reference_solutions as sudoku_reference
from engine.games.sudoku.techniques import LADDER as SUDOKU_LADDER
from engine.ladder import Technique
from test_engine_sudoku_support import random_puzzle

DATA = Path(__file__).resolve().parents[1] / "data" / "killer_booklets_sample.jsonl"
ROWS_AS_CAGES = (tuple(cell // 9 for cell in range(81)), (45,) * 9)     # each row a cage adding up to 45


@lru_cache(maxsize=1)
def booklet() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text().splitlines()]


def killer_board(data: dict):
    return KILLER.board_from_json({k: v for k, v in data.items() if k != "solution"})


def narrowed(rng: random.Random, solution: str) -> list[int]:
    """Some cells given from the solution, a few others narrowed to random digits (with or without the
    true one): positions with none, one or several solutions."""
    masks = [ALL] * 81
    for cell in rng.sample(range(81), rng.randrange(30, 55)):
        masks[cell] = 1 << (int(solution[cell]) - 1)
    for cell in rng.sample(range(81), 6):
        masks[cell] = rng.randrange(1, 512)
    return masks


# --------------------------------------------------------------------------------------------------
# Sudoku and Killer through the one counter, against their references

def test_sudoku_through_the_shared_counter_is_the_reference() -> None:
    rng = random.Random(11)
    several = 0
    for _ in range(40):
        puzzle = random_puzzle(rng, rng.random() < 0.5)
        reference = sudoku_reference(puzzle, 20)
        found = count_solutions(puzzle, 20)
        assert found.complete and found.count == len(reference)
        if len(reference) < 20:
            assert set(found.solutions) == set(reference), puzzle
        several += len(reference) > 1
    assert several >= 5


def test_killer_through_the_shared_counter_is_the_reference() -> None:
    rng = random.Random(12)
    checked = 0
    for data in booklet()[:30]:
        board = killer_board(data)
        masks = narrowed(rng, data["solution"])
        reference = killer_reference(board.cage_of, board.sums, masks, 5)
        # the Killer front and the shared counter called with the cages as its option: one answer
        for found in (count_killer(board, 5, masks=masks),
                      count_solutions(masks, 5, cages=(board.cage_of, board.sums))):
            assert found.complete and found.count == len(reference)
            if len(reference) < 5:
                assert sorted(found.solutions) == sorted(reference)
        checked += 1
    assert checked == 30


def test_a_published_killer_board_has_its_one_solution_and_no_cages_have_many() -> None:
    data = booklet()[0]
    board = killer_board(data)
    assert count_solutions(board.givens, 2, cages=(board.cage_of, board.sums)).solutions == (data["solution"],)
    assert count_solutions(board.givens, 2).count == 2           # the same empty grid without its cages


def test_cages_that_tell_nothing_change_nothing() -> None:
    """Each row a cage adding up to 45 says no more than Sudoku's rules: the same solutions, in the same
    order, with the same search."""
    rng = random.Random(13)
    for _ in range(30):
        puzzle = random_puzzle(rng, rng.random() < 0.5)
        plain = count_solutions(puzzle, 10)
        caged = count_solutions(puzzle, 10, cages=ROWS_AS_CAGES)
        assert caged == plain


def test_a_solution_to_avoid_for_either_game() -> None:
    rng = random.Random(14)
    # Sudoku: the other solutions of a board with several
    for _ in range(20):
        puzzle = random_puzzle(rng, False)
        reference = sudoku_reference(puzzle, 9)
        if len(reference) < 2:
            continue
        others = count_solutions(puzzle, 8, other_than=reference[0])
        assert others.complete and reference[0] not in others.solutions
        assert others.count == min(len(reference) - 1, 8)
        if len(reference) < 9:
            assert set(others.solutions) == set(reference[1:])
    # Killer: a published board's own solution avoided leaves none, proved
    data = booklet()[1]
    found = count_killer(killer_board(data), 1, other_than=data["solution"])
    assert found.complete and found.count == 0


def test_drawing_a_grid_is_the_counter_from_an_empty_grid() -> None:
    grid = solve([ALL] * 81, 1, 0.0, True, 99)[0][0]
    assert sorted(grid[:9]) == list("123456789")
    assert solve([ALL] * 81, 1, 0.0, True, 99)[0][0] == grid             # seeded
    assert solve(masks_of(grid), 2)[0] == [grid]


def test_a_past_deadline_stops_either_game_incomplete() -> None:
    past = monotonic() - 1.0
    assert not count_solutions("." * 81, 10**6, deadline=past).complete
    assert not count_solutions("." * 81, 10**6, deadline=past, cages=ROWS_AS_CAGES).complete


@pytest.mark.parametrize("cage_of, sums, message", [
    ((0,) * 80, (45,), "81 cells"),
    ((0,) * 81, (405,), "malformed cages"),                   # one cage of 81 cells
    (tuple(cell // 9 for cell in range(81)), (45,) * 8, "malformed cages"),   # cage 8 has no sum
    (tuple(cell // 9 for cell in range(81)), (46,) + (45,) * 8, "malformed cages"),
])
def test_malformed_cages_are_refused_in_one_line(cage_of, sums, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        solve([ALL] * 81, 1, cage_of=cage_of, sums=sums)
    with pytest.raises(ValueError, match="both"):
        solve([ALL] * 81, 1, cage_of=cage_of)


# --------------------------------------------------------------------------------------------------
# one geometry, one technique record

def test_the_geometry_is_the_grid() -> None:
    assert [len(cells) for cells in geometry.UNIT_CELLS] == [9] * 27
    for cell in range(81):
        r, c = divmod(cell, 9)
        peers = {x for x in range(81) if x != cell and (x // 9 == r or x % 9 == c or
                                                       (x // 27 == cell // 27 and x % 9 // 3 == c // 3))}
        assert set(geometry.PEERS[cell]) == peers and len(peers) == 20
        assert all(cell in geometry.UNIT_CELLS[u] for u in geometry.CELL_UNITS[cell])
        assert all(geometry.sees(cell, x) == (x in peers) for x in range(81))
    assert geometry.cand_name(4 * 9 + 2) == "3@r1c5" and geometry.digits_text(0b101) == "{1,3}"
    assert [geometry.unit_name(u) for u in (0, 9, 26)] == ["row 1", "column 1", "box 9"]


def test_killer_takes_sudokus_techniques_as_sudoku_declares_them() -> None:
    assert all(isinstance(t, Technique) for t in KILLER_TABLE)
    assert [t.order for t in KILLER_TABLE] == list(range(len(KILLER_TABLE)))
    # trial-and-error is Killer's own (the counter with the cages tries each candidate), of Sudoku's tier and cost
    shared = [t for t in KILLER_TABLE if t.name in SUDOKU_LADDER.by_name and t.name != "trial-and-error"]
    assert len(shared) == 24
    for technique in shared:
        sudoku = SUDOKU_LADDER[technique.name]
        assert (technique.tier, technique.cost, technique.find) == (sudoku.tier, sudoku.cost, sudoku.find)
    assert "unique-rectangle-1" not in KILLER_LADDER.by_name          # Sudoku's uniqueness technique is left out
    assert KILLER_LADDER.top_of_tier[5] == "trial-and-error"
