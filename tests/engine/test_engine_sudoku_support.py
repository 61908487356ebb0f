"""Shared helpers for the Sudoku tests: random puzzles and positions, the truth of a position by brute
force, and the check that a step is sound (no test functions here)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.games.sudoku._logic import IDS, Position
from engine.games.sudoku.count import ALL, count_solutions
from engine.games.sudoku.fill import fill
from engine.games.sudoku.techniques import LADDER, order_ids

TRUTH_LIMIT = 200          # positions with more solutions than this are not used


@dataclass
class Case:
    pos: Position
    truth: list[int]       # per cell: the digits (mask) some solution puts there
    solutions: int         # how many solutions (at most TRUTH_LIMIT)
    origin: str


def random_puzzle(rng: random.Random, unique: bool) -> str:
    """A grid with clues removed at random: unique ones dug with the counter, others cut to 18-34 clues
    without looking (those usually have several solutions)."""
    grid = fill(rng.getrandbits(64))
    cells = list(range(81))
    rng.shuffle(cells)
    givens = list(grid)
    if not unique:
        for c in cells[:rng.randint(47, 63)]:
            givens[c] = "."
        return "".join(givens)
    target = rng.randint(22, 34)
    clues = 81
    for c in cells:
        if clues <= target:
            break
        givens[c] = "."
        if count_solutions("".join(givens), 2).count == 1:
            clues -= 1
        else:
            givens[c] = grid[c]
    return "".join(givens)


def truth_of(pos: Position) -> tuple[list[int], int] | None:
    found = count_solutions(pos.masks(), TRUTH_LIMIT + 1)
    if not found.complete or found.count > TRUTH_LIMIT:
        return None
    truth = [0] * 81
    for solution in found.solutions:
        for c, ch in enumerate(solution):
            truth[c] |= 1 << (int(ch) - 1)
    return truth, found.count


def random_position(rng: random.Random, puzzle: str) -> Position:
    """The puzzle advanced by the ladder under a random cap for a random number of steps (sometimes
    to a stall), then a few random true-looking eliminations (checked against the truth later)."""
    pos = Position.from_givens(puzzle)
    tier = rng.choice((1, 2, 3, 3, 4, 4))
    pos.run(order_ids(tier), rng.choice((rng.randint(0, 40), 1000)))
    return pos


def add_true_eliminations(rng: random.Random, pos: Position, truth: list[int], count: int) -> Position:
    """Remove `count` random marks that no solution uses."""
    marks = pos.marks()
    off = [c * 9 + d for c in range(81) for d in range(9) if marks[c] >> d & 1 and not truth[c] >> d & 1]
    chosen = rng.sample(off, min(count, len(off)))
    for x in chosen:
        marks[x // 9] &= ~(1 << (x % 9))
    return Position.from_marks(pos.values(), marks)


def build_cases(seed: int, puzzles: int, per_puzzle: int) -> list[Case]:
    rng = random.Random(seed)
    cases = []
    for i in range(puzzles):
        unique = i % 3 != 0
        puzzle = random_puzzle(rng, unique)
        for _ in range(per_puzzle):
            pos = random_position(rng, puzzle)
            if pos.is_contradiction() or pos.empty == 0:
                continue
            known = truth_of(pos)
            if known is None or known[1] == 0:
                continue
            truth, n = known
            if rng.random() < 0.5:
                pos = add_true_eliminations(rng, pos, truth, rng.randint(1, 12))
                known = truth_of(pos)
                if known is None or known[1] == 0:
                    continue
                truth, n = known
            cases.append(Case(pos, truth, n, "unique" if unique else "random"))
    return cases


def check_step(found: tuple, case: Case) -> str | None:
    """Why the step is unsound or makes no progress, or None."""
    _, place, eliminate, *_ = found
    marks = case.pos.marks()
    if not place and not eliminate:
        return "makes no progress"
    for x in eliminate:
        c, d = divmod(x, 9)
        if not marks[c] >> d & 1:
            return f"rules out {d + 1} at {divmod(c, 9)}, which is not a mark"
        if case.truth[c] >> d & 1:
            return f"rules out {d + 1} at {divmod(c, 9)}, which a solution uses"
    for x in place:
        c, d = divmod(x, 9)
        if case.truth[c] != 1 << d:
            return f"places {d + 1} at {divmod(c, 9)}, which not every solution has"
    return None


def marks_position(values: dict[int, int] | None = None, marks: dict[int, int] | None = None) -> Position:
    """A hand-made position: every empty cell marked with all nine digits except where `marks` says
    (cell -> mask); `values` places digits (cell -> 1..9). Nothing is deduced."""
    vals = [0] * 81
    for c, v in (values or {}).items():
        vals[c] = v
    m = [ALL] * 81
    for c, mask in (marks or {}).items():
        m[c] = mask
    return Position.from_marks(vals, m)


__all__ = ["ALL", "Case", "IDS", "LADDER", "add_true_eliminations", "build_cases", "check_step",
           "marks_position", "random_position", "random_puzzle", "truth_of"]
