"""The compiled dig against a plain one: remove each group of clues in turn, keep the removal when
the counter still finds one solution and (when a ladder is given) the capped ladder still solves the
board. The compiled dig takes shortcuts (clues forced by singles on the givens, unavoidable sets of two
digits, a search for a second solution instead of a count, ladder runs it can skip); none may change
which clues go or the path on the final board."""

from __future__ import annotations

import random

import pytest

from engine.games.sudoku._logic import dig
from engine.games.sudoku.count import count_solutions
from engine.games.sudoku.fill import fill
from engine.games.sudoku.grade import quick_grade
from engine.games.sudoku.techniques import TOP_OF_TIER, order_ids


def plain_dig(grid: str, groups, cap: str | None, floor: int = 0, target: int = 0) -> tuple[str, tuple[str, ...]]:
    cells = list(grid)
    clues = 81
    for group in groups:
        if target and clues <= target:
            break
        if clues - len(group) < floor:
            continue
        saved = [cells[c] for c in group]
        for c in group:
            cells[c] = "."
        line = "".join(cells)
        keep = count_solutions(line, 2).solutions == (grid,)
        if keep and cap is not None:
            keep = quick_grade(line, cap).status == 1
        if keep:
            clues -= len(group)
        else:
            for c, digit in zip(group, saved):
                cells[c] = digit
    line = "".join(cells)
    return line, (quick_grade(line, cap).used if cap is not None else ())


def groups_for(rng: random.Random, symmetric: bool) -> list[tuple[int, ...]]:
    groups = [(c, 80 - c) if c != 40 else (40,) for c in range(41)] if symmetric else [(c,) for c in range(81)]
    rng.shuffle(groups)
    return groups


@pytest.mark.parametrize("tier", [1, 2, 3, 4])
def test_compiled_dig_removes_what_the_plain_dig_removes(tier):
    from engine.games.sudoku.grade import NAME_OF
    cap = TOP_OF_TIER[tier]
    rng = random.Random(tier)
    for i in range(40):
        grid = fill(rng.getrandbits(64))
        groups = groups_for(rng, symmetric=i % 3 == 0)
        givens, used, runs, counts = dig(grid, groups, order_ids(cap))
        expected, path = plain_dig(grid, groups, cap)
        assert givens == expected, (grid, groups)
        assert tuple(NAME_OF[t] for t in used) == path
        assert counts == len(groups) and 0 <= runs <= counts


def test_compiled_dig_by_count_keeps_the_floor_and_the_target():
    rng = random.Random(5)
    for i in range(40):
        grid = fill(rng.getrandbits(64))
        groups = groups_for(rng, symmetric=i % 2 == 0)
        floor, target = 24, rng.randint(24, 40)
        givens, used, runs, _ = dig(grid, groups, (), floor, target)
        assert (givens, list(used), runs) == (plain_dig(grid, groups, None, floor, target)[0], [], 0)
