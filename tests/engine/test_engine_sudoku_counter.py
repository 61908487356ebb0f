"""The Sudoku counter: parity with the pure-Python reference on hundreds of puzzles (unique, several
solutions, none) and pencil-mark positions; limits, the deadline, and drawing complete grids."""

from __future__ import annotations

import random

import pytest

from engine.games.sudoku.count import ALL, count_solutions, is_unique, masks_of, monotonic
from engine.games.sudoku.fill import fill
from engine.games.sudoku.reference import reference_solutions
from test_engine_sudoku_support import random_puzzle

HARD_17 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD_17_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def valid_grid(grid: str) -> bool:
    rows = [set(grid[r * 9:(r + 1) * 9]) for r in range(9)]
    cols = [set(grid[c::9]) for c in range(9)]
    boxes = [set(grid[r * 9 + c] for r in range(br, br + 3) for c in range(bc, bc + 3))
             for br in (0, 3, 6) for bc in (0, 3, 6)]
    return len(grid) == 81 and all(unit == set("123456789") for unit in rows + cols + boxes)


def no_solution_puzzle(rng: random.Random) -> str:
    """Givens that break no unit rule directly but admit no grid: a unique puzzle with one given
    changed to a digit its peers do not show (or, failing that, an extra given of that kind)."""
    while True:
        puzzle = list(random_puzzle(rng, True))
        cells = [c for c in range(81) if puzzle[c] != "."]
        c = rng.choice(cells)
        r, k = divmod(c, 9)
        peers = {puzzle[x] for x in range(81) if x != c and (x // 9 == r or x % 9 == k or
                 (x // 27 == c // 27 and x % 9 // 3 == k // 3))}
        options = [d for d in "123456789" if d not in peers and d != puzzle[c]]
        if options:
            puzzle[c] = rng.choice(options)
            line = "".join(puzzle)
            if not reference_solutions(line, 1):
                return line


def test_known_puzzle():
    found = count_solutions(HARD_17, 2)
    assert found.complete and found.solutions == (HARD_17_SOLUTION,)
    assert is_unique(HARD_17)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["unique", "several", "none"])
def test_parity_with_reference(kind):
    rng = random.Random({"unique": 1, "several": 2, "none": 3}[kind])
    totals = []
    for _ in range(120 if kind != "none" else 40):
        if kind == "none":
            puzzle = no_solution_puzzle(rng)
        else:
            puzzle = random_puzzle(rng, kind == "unique")
        reference = reference_solutions(puzzle, 60)
        got = count_solutions(puzzle, 60)
        assert got.complete
        assert got.count == len(reference)
        if got.count < 60:                   # the whole set (beyond the limit each finds its own 60)
            assert set(got.solutions) == set(reference), puzzle
        assert len(set(got.solutions)) == got.count
        for solution in got.solutions:
            assert valid_grid(solution)
            assert all(g in (".", s) for g, s in zip(puzzle, solution))
        total = len(reference)
        for limit in {1, 2, rng.randint(1, 45)}:
            assert count_solutions(puzzle, limit).count == min(limit, total)
        totals.append(total)
    if kind == "unique":
        assert set(totals) == {1}
    elif kind == "none":
        assert set(totals) == {0}
    else:
        assert max(totals) > 1


@pytest.mark.slow
def test_parity_on_pencil_mark_positions():
    """Positions given as candidate masks: some true marks kept, others removed at random."""
    rng = random.Random(4)
    several = 0
    for _ in range(150):
        puzzle = random_puzzle(rng, rng.random() < 0.5)
        masks = masks_of(puzzle)
        for c in range(81):
            if masks[c] == ALL and rng.random() < 0.3:
                masks[c] &= ~(1 << rng.randrange(9))
        reference = reference_solutions(masks, 30)
        got = count_solutions(masks, 30)
        assert got.count == len(reference)
        if got.count < 30:
            assert set(got.solutions) == set(reference)
        several += len(reference) > 1
        for solution in got.solutions:
            assert all(masks[c] >> (int(ch) - 1) & 1 for c, ch in enumerate(solution))
    assert several > 10


def test_empty_and_contradictory_positions():
    assert count_solutions("." * 81, 7).count == 7
    assert count_solutions([0] + [ALL] * 80, 2).count == 0          # a cell with no candidate
    assert count_solutions("11" + "." * 79, 2).count == 0           # two equal givens in a row


def test_deadline_cuts_the_search_short():
    # every grid of an empty board, with a deadline already past: stops and says so
    got = count_solutions("." * 81, 10**6, deadline=monotonic() - 1.0)
    assert not got.complete
    assert got.count < 10**6


def test_fill_is_deterministic_and_valid():
    grids = [fill(seed) for seed in range(50)]
    assert all(valid_grid(g) for g in grids)
    assert grids == [fill(seed) for seed in range(50)]
    assert len(set(grids)) == 50
    assert fill(2**64 + 5) == fill(5)                    # seeds are read modulo 2^64
