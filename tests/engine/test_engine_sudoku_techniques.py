"""Sudoku techniques: soundness of every finder against brute force on thousands of positions,
known answers on hand-made positions, the table, and the compiled ladder loop against the shared one.

Soundness: random puzzles (unique ones dug with the counter, and clue sets cut at random, which
usually have several solutions), advanced by the ladder under a random cap, sometimes with random
true marks removed. For each position the counter lists every solution (up to 200); a step may never
rule out a mark some solution uses, nor place a digit not every solution has. The unique rectangle
assumes one solution, so it is checked on the positions that have exactly one.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

import pytest

from engine.games.sudoku._logic import IDS, Position
from engine.games.sudoku.count import ALL, count_solutions
from engine.games.sudoku.grade import BANDS, band_for, grade, quick_grade
from engine.games.sudoku.techniques import LADDER, TABLE, TOP_OF_TIER, UNIQUENESS, SudokuState, order_ids
from engine.ladder import run
from test_engine_sudoku_support import build_cases, check_step, marks_position, random_puzzle

# One xdist worker builds the pool of positions once and runs every test that reads it.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("sudoku-pool")]

MIN_FIRED = 50


@lru_cache(maxsize=1)
def pool():
    return build_cases(seed=20261130, puzzles=1500, per_puzzle=3)


def test_pool_is_varied():
    cases = pool()
    assert len(cases) >= 2000
    assert sum(c.solutions == 1 for c in cases) >= 1000
    assert sum(c.solutions > 1 for c in cases) >= 300


@pytest.mark.parametrize("name", [e.name for e in TABLE])
def test_technique_is_sound(name):
    tid = IDS[name]
    fired = 0
    for case in pool():
        if name in UNIQUENESS and case.solutions != 1:
            continue
        found = case.pos.find(tid)
        if found is None:
            continue
        fired += 1
        assert found[0] == tid
        problem = check_step(found, case)
        assert problem is None, f"{name} {problem} in {case.pos.values()} marks {case.pos.marks()}"
    assert fired >= MIN_FIRED, (name, fired)


def test_the_ladder_never_goes_wrong_on_unique_positions():
    """Whole solves: from each unique position the full ladder reaches the one solution."""
    for case in pool()[:600]:
        if case.solutions != 1:
            continue
        solution = count_solutions(case.pos.masks(), 1).solutions[0]
        pos = case.pos.copy()
        status, _ = pos.run(order_ids(None))
        assert status == 1 and pos.values() == solution


# --------------------------------------------------------------------------------------------------
# known answers on hand-made positions (every empty cell marked 1-9 except where a case says)

def cell(r: int, c: int) -> int:
    return r * 9 + c


def cands(*triples: tuple[int, int, int]) -> set[int]:
    return {cell(r, c) * 9 + d - 1 for r, c, d in triples}


def mask(*digits: int) -> int:
    return sum(1 << (d - 1) for d in digits)


def without(marks: dict[int, int], digit: int, cells) -> dict[int, int]:
    for c in cells:
        marks[c] = marks.get(c, ALL) & ~mask(digit)
    return marks


def row(r: int, *, but=()):
    return [cell(r, c) for c in range(9) if c not in but]


def col(c: int, *, but=()):
    return [cell(r, c) for r in range(9) if r not in but]


def find(name: str, pos: Position):
    found = pos.find(IDS[name])
    assert found is not None, name
    _, place, eliminate, units, cells, digits, kind = found
    return set(place), set(eliminate), kind


def test_full_house():
    pos = marks_position(values={cell(0, c): c + 1 for c in range(8)})
    assert find("full-house", pos)[0] == cands((0, 8, 9))


def test_naked_single():
    assert find("naked-single", marks_position(marks={cell(4, 4): mask(5)}))[0] == cands((4, 4, 5))


def test_hidden_single():
    box4 = [cell(r, c) for r in range(3, 6) for c in range(3, 6) if (r, c) != (4, 4)]
    assert find("hidden-single", marks_position(marks=without({}, 7, box4)))[0] == cands((4, 4, 7))


def test_locked_candidates_pointing():
    box0 = [cell(r, c) for r in range(3) for c in range(3) if (r, c) not in ((0, 0), (0, 1))]
    _, gone, kind = find("locked-candidates", marks_position(marks=without({}, 3, box0)))
    assert gone == cands(*[(0, c, 3) for c in range(3, 9)]) and kind == 0


def test_locked_candidates_claiming():
    marks = without({}, 3, row(4, but=(3, 4)))
    _, gone, kind = find("locked-candidates", marks_position(marks=marks))
    assert gone == cands(*[(r, c, 3) for r in (3, 5) for c in range(3, 6)]) and kind == 1


@pytest.mark.parametrize("name, cells_marks", [
    ("naked-pair", {(0, 0): (1, 2), (0, 4): (1, 2)}),
    ("naked-triple", {(0, 0): (1, 2), (0, 4): (2, 3), (0, 8): (1, 3)}),
    ("naked-quad", {(0, 0): (1, 2), (0, 3): (2, 3), (0, 5): (3, 4), (0, 8): (1, 4)}),
])
def test_naked_subsets(name, cells_marks):
    marks = {cell(r, c): mask(*ds) for (r, c), ds in cells_marks.items()}
    digits = {d for ds in cells_marks.values() for d in ds}
    _, gone, _ = find(name, marks_position(marks=marks))
    others = [c for c in range(9) if (0, c) not in cells_marks]
    assert gone == cands(*[(0, c, d) for c in others for d in digits])


@pytest.mark.parametrize("name, digits, cols", [
    ("hidden-pair", (1, 2), (0, 4)),
    ("hidden-triple", (1, 2, 3), (0, 4, 8)),
    ("hidden-quad", (1, 2, 3, 4), (0, 3, 5, 8)),
])
def test_hidden_subsets(name, digits, cols):
    marks: dict[int, int] = {}
    for d in digits:
        without(marks, d, row(0, but=cols))
    _, gone, _ = find(name, marks_position(marks=marks))
    assert gone == cands(*[(0, c, d) for c in cols for d in range(1, 10) if d not in digits])


@pytest.mark.parametrize("name, rows_cols", [
    ("x-wing", {1: (2, 6), 7: (2, 6)}),
    ("swordfish", {0: (1, 4), 4: (4, 7), 8: (1, 7)}),
    ("jellyfish", {0: (0, 2), 2: (2, 4), 4: (4, 6), 6: (0, 6)}),
])
def test_fish(name, rows_cols):
    marks: dict[int, int] = {}
    for r, cs in rows_cols.items():
        without(marks, 5, row(r, but=cs))
    cover = {c for cs in rows_cols.values() for c in cs}
    _, gone, _ = find(name, marks_position(marks=marks))
    assert gone == cands(*[(r, c, 5) for c in cover for r in range(9) if r not in rows_cols])


def test_skyscraper_and_x_chain():
    marks = without({}, 4, row(1, but=(0, 4)))
    without(marks, 4, row(6, but=(0, 5)))
    pos = marks_position(marks=marks)
    expected = cands((0, 5, 4), (2, 5, 4), (7, 4, 4), (8, 4, 4))
    assert find("skyscraper", pos)[1] == expected
    assert find("x-chain", pos)[1] == expected


def test_two_string_kite():
    marks = without({}, 6, row(0, but=(1, 6)))
    without(marks, 6, col(2, but=(1, 5)))
    assert find("2-string-kite", marks_position(marks=marks))[1] == cands((5, 6, 6))


def test_xy_wing():
    marks = {cell(4, 4): mask(1, 2), cell(4, 0): mask(1, 3), cell(0, 4): mask(2, 3)}
    assert find("xy-wing", marks_position(marks=marks))[1] == cands((0, 0, 3))


def test_xyz_wing():
    marks = {cell(4, 4): mask(1, 2, 3), cell(4, 3): mask(1, 3), cell(0, 4): mask(2, 3)}
    assert find("xyz-wing", marks_position(marks=marks))[1] == cands((3, 4, 3), (5, 4, 3))


def test_w_wing():
    marks = without({cell(0, 0): mask(1, 2), cell(8, 8): mask(1, 2)}, 1, row(4, but=(0, 8)))
    assert find("w-wing", marks_position(marks=marks))[1] == cands((0, 8, 2), (8, 0, 2))


def test_simple_colouring_trap():
    # 7: row 0 only at (0,1),(0,7); column 7 only at (0,7),(5,7); row 5 only at (5,7),(5,2)
    marks = without({}, 7, row(0, but=(1, 7)))
    without(marks, 7, col(7, but=(0, 5)))
    without(marks, 7, row(5, but=(2, 7)))
    _, gone, kind = find("simple-colouring", marks_position(marks=marks))
    assert kind == 0 and gone == cands((1, 2, 7), (2, 2, 7), (3, 1, 7), (4, 1, 7))


def test_simple_colouring_wrap():
    # 7: (0,0)a-(0,4)b row 0; (0,4)b-(4,4)a column 4; (4,4)a-(4,1)b row 4; (4,1)b-(1,1)a column 1:
    # (0,0) and (1,1) share box 0 and a colour, so that colour is false
    marks = without({}, 7, row(0, but=(0, 4)))
    without(marks, 7, col(4, but=(0, 4)))
    without(marks, 7, row(4, but=(1, 4)))
    without(marks, 7, col(1, but=(1, 4)))
    _, gone, kind = find("simple-colouring", marks_position(marks=marks))
    assert kind == 1 and gone == cands((0, 0, 7), (4, 4, 7), (1, 1, 7))


def test_unique_rectangle_type_1():
    marks = {cell(0, 0): mask(1, 2), cell(0, 1): mask(1, 2), cell(3, 0): mask(1, 2),
             cell(3, 1): mask(1, 2, 5, 6)}
    assert find("unique-rectangle-1", marks_position(marks=marks))[1] == cands((3, 1, 1), (3, 1, 2))
    # the same pattern inside one band and one stack spans four boxes... no: one box; not a rectangle
    marks = {cell(0, 0): mask(1, 2), cell(0, 1): mask(1, 2), cell(1, 0): mask(1, 2),
             cell(1, 1): mask(1, 2, 5)}
    assert marks_position(marks=marks).find(IDS["unique-rectangle-1"]) is None


def test_xy_chain_and_aic():
    marks = {cell(0, 0): mask(1, 2), cell(0, 4): mask(2, 3), cell(4, 4): mask(3, 4), cell(4, 8): mask(4, 1)}
    pos = marks_position(marks=marks)
    expected = cands((0, 8, 1), (4, 0, 1))
    assert find("xy-chain", pos)[1] == expected
    assert find("aic", pos)[1] == expected


def test_aic_mixing_both_kinds_of_link():
    # 1@(0,0) false => 2@(0,0) (bivalue) => not 2@(5,0) (column 0) => 2@(5,6) (row 5 has 2 twice)
    # => not 1@(5,6) (one cell) => 1@(0,6) (column 6 has 1 twice): so 1 is at (0,0) or (0,6)
    marks = {cell(0, 0): mask(1, 2)}
    without(marks, 2, row(5, but=(0, 6)))
    without(marks, 1, col(6, but=(0, 5)))
    pos = marks_position(marks=marks)
    assert pos.find(IDS["xy-chain"]) is None and pos.find(IDS["x-chain"]) is None
    _, gone, _ = find("aic", pos)
    assert gone == cands(*[(0, c, 1) for c in range(1, 9) if c != 6])


def test_als_xz():
    # (0,0) {1,2}, (4,0) {2,3}, (4,1) {1,3}: e.g. A = (0,0), B = (4,0),(4,1) (row 4), x = 2, z = 1;
    # the finder meets the pair A = (0,0),(4,0) (column 0), B = (4,1), x = 3, z = 1 first: the same 1s go
    marks = {cell(0, 0): mask(1, 2), cell(4, 0): mask(2, 3), cell(4, 1): mask(1, 3)}
    _, gone, kind = find("als-xz", marks_position(marks=marks))
    assert kind % 9 == 0
    assert gone == cands((0, 1, 1), (1, 1, 1), (2, 1, 1), (3, 0, 1), (5, 0, 1))


def test_forcing_chain_contradiction():
    # 1 at (0,0) leaves (0,1) and (0,2) both needing 3
    marks = {cell(0, 0): mask(1, 2), cell(0, 1): mask(1, 3), cell(0, 2): mask(1, 3)}
    _, gone, kind = find("forcing-chain", marks_position(marks=marks))
    assert gone == cands((0, 0, 1)) and kind == 0


def test_forcing_chain_verity():
    # (0,0) is 1 or 2. With 1, (0,1) {1,9} is 9 and (0,2) {2,9} is 2; with 2, (0,2) is 9 and (0,1)
    # is 1. Either way 1, 2 and 9 fill (0,0)-(0,2): they leave the rest of row 0 and of box 0.
    marks = {cell(0, 0): mask(1, 2), cell(0, 1): mask(1, 9), cell(0, 2): mask(2, 9)}
    place, gone, kind = find("forcing-chain", marks_position(marks=marks))
    assert kind == 1 and not place
    rest = [(0, c) for c in range(3, 9)] + [(r, c) for r in (1, 2) for c in range(3)]
    assert gone == cands(*[(r, c, d) for r, c in rest for d in (1, 2, 9)])


def test_trial_and_error():
    puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    solution = count_solutions(puzzle, 1).solutions[0]
    pos = Position.from_givens(puzzle)
    place, gone, _ = find("trial-and-error", pos)
    marks = pos.marks()
    target = min((bin(m).count("1"), c) for c, m in enumerate(marks) if m)[1]
    assert not place
    assert gone == {target * 9 + d for d in range(9) if marks[target] >> d & 1 and d + 1 != int(solution[target])}


# --------------------------------------------------------------------------------------------------
# the table and the two loops

def test_table_matches_the_compiled_ids_and_facts():
    assert set(IDS) == {e.name for e in TABLE} == set(LADDER.names)
    costs = {e.name: e.cost for e in TABLE}
    assert costs["full-house"] == costs["naked-single"] == 4 and costs["hidden-single"] == 14
    assert costs["locked-candidates"] == 50 and costs["x-wing"] == 140 and costs["xyz-wing"] == 180
    assert costs["forcing-chain"] == 500 and costs["trial-and-error"] == 10_000
    tiers = [e.tier for e in TABLE]
    assert tiers == sorted(tiers)
    assert TOP_OF_TIER == {1: "hidden-single", 2: "hidden-quad", 3: "xyz-wing", 4: "forcing-chain",
                           5: "trial-and-error"}


def test_band_ceilings():
    assert band_for(1, 800) == "easy" and band_for(1, 801) == "medium"
    assert band_for(1, 1001) == "hard" and band_for(2, 1601) == "expert"
    assert band_for(3, 10**6) == "expert" and band_for(5, 10_000) == "beyond"
    assert BANDS == ("easy", "medium", "hard", "expert", "beyond")


def test_compiled_loop_matches_the_shared_loop():
    rng = random.Random(5)
    for i in range(150):
        puzzle = random_puzzle(rng, True)
        cap = rng.choice((None, 1, 2, 3, 4, "x-wing"))
        slow = grade(puzzle, cap)
        quick = quick_grade(puzzle, cap)
        assert quick.solved == slow.solved
        assert quick.used == tuple(step.technique for step in slow.steps)
        assert (quick.band, quick.score, quick.hardest) == (slow.band, slow.score, slow.hardest)
        state = SudokuState.start(puzzle)
        result = run(state, LADDER, cap)
        assert result.steps == tuple(slow.steps)


def test_every_step_has_a_sentence():
    rng = random.Random(6)
    seen = Counter()
    for _ in range(60):
        graded = grade(random_puzzle(rng, True))
        for step in graded.steps:
            seen[step.technique] += 1
            assert step.why and "\n" not in step.why
    assert seen["hidden-single"] and seen["naked-single"]


def test_aic_through_a_conjugate_pair():
    # 1@(0,0) false => 2@(0,0) => not 2@(0,4) => 3@(0,4) => not 3@(4,4) => 1@(4,4): so 1 is at (0,0)
    # or (4,4), and (4,0), which sees both, is not 1 (column 0 has 1 only there and at (0,0))
    marks = {cell(0, 0): mask(1, 2), cell(0, 4): mask(2, 3), cell(4, 4): mask(1, 3)}
    without(marks, 1, col(0, but=(0, 4)))
    assert find("aic", marks_position(marks=marks))[1] == cands((4, 0, 1))


def test_forcing_chain_places_what_every_option_places():
    # (0,0)=1 makes (0,8) 5 and then (8,8) 9; (0,0)=2 makes (8,0) 5 and then (8,8) 9
    marks = {cell(0, 0): mask(1, 2), cell(0, 8): mask(1, 5), cell(8, 0): mask(2, 5), cell(8, 8): mask(5, 9)}
    place, gone, kind = find("forcing-chain", marks_position(marks=marks))
    assert place == cands((8, 8, 9)) and not gone and kind == 1
