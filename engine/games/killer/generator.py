"""Generating a Killer Sudoku board: fill a random grid, grow cages over it, take the sums from the grid,
prove, repair, grade.

Cages (sizes 1 to 6, mostly 2 to 4) grow from random seed cells into random neighbouring free cells,
never taking a digit the cage already holds; engine.core.regions.grow is not used because it knows
nothing of the digits (a cage may not repeat one). The counter (stopping at 2) proves the board; while
it finds a second solution, the cage holding the first cell where the two differ is split: that cell
leaves it (becoming a cage of its own, or joining a neighbouring small cage that lacks its digit), and
the cage's cells left in pieces become cages of their own. The board is then graded by the ladder and
kept when its band is the one asked (any band when none is); otherwise the whole grid is redrawn.

Same seed, same board: every random choice comes from one `random.Random(seed)`; the grid comes from
Sudoku's seeded fill.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.core.grid import orthogonal_neighbours
from engine.core.regions import reachable
from engine.errors import DeadlineExceeded, InvalidRules
from engine.games.killer.board import Cage, KillerBoard
from engine.games.killer.count import count_solutions
from engine.games.killer.grade import describe, grade
from engine.games.sudoku.count import monotonic
from engine.games.sudoku.fill import fill

GENERATED = ("easy", "medium", "hard", "expert")
SIZES = (1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6)      # cage sizes drawn, 1 to 6, mostly 2 to 4
MAX_REPAIRS = 40


@dataclass(slots=True)
class GenerationStats:
    grids: int = 0                    # complete grids drawn
    repairs: int = 0                  # cages split to remove a second solution
    counts: int = 0                   # counter calls
    rejected: Counter = field(default_factory=Counter)   # reason -> grids rejected
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"grids": self.grids, "repairs": self.repairs, "counts": self.counts,
                "rejected": dict(self.rejected), "seconds": round(self.seconds, 6)}


def check_band(band: str | None) -> None:
    if band is not None and band not in GENERATED:
        raise InvalidRules(f"the {band} band is graded, not generated: expected one of {', '.join(GENERATED)}")


def grow_cages(grid: str, rng: random.Random) -> list[int]:
    """A cage number per cell: connected cages of distinct digits."""
    neighbours = orthogonal_neighbours(9)
    cage_of = [-1] * 81
    order = list(range(81))
    rng.shuffle(order)
    number = 0
    for start in order:
        if cage_of[start] >= 0:
            continue
        target = rng.choice(SIZES)
        cells = [start]
        digits = {grid[start]}
        cage_of[start] = number
        while len(cells) < target:
            free = [nb for cell in cells for nb in neighbours[cell] if cage_of[nb] < 0 and grid[nb] not in digits]
            if not free:
                break
            cell = rng.choice(free)
            cage_of[cell] = number
            cells.append(cell)
            digits.add(grid[cell])
        number += 1
    return cage_of


def _cages(grid: str, cage_of: list[int]) -> tuple[Cage, ...]:
    cells: dict[int, list[int]] = {}
    for cell, number in enumerate(cage_of):
        cells.setdefault(number, []).append(cell)
    cages = [Cage(sum(int(grid[c]) for c in group), tuple(group)) for group in cells.values()]
    return tuple(sorted(cages, key=lambda cage: cage.cells[0]))


def _split(grid: str, cage_of: list[int], cell: int, rng: random.Random) -> None:
    """Take `cell` out of its cage (into a small neighbouring cage lacking its digit, or alone), and make
    each piece the cage falls into a cage of its own."""
    old = cage_of[cell]
    fresh = max(cage_of) + 1
    neighbours = orthogonal_neighbours(9)
    sizes = Counter(cage_of)
    hosts = [cage_of[nb] for nb in neighbours[cell] if cage_of[nb] != old and sizes[cage_of[nb]] < 4
             and all(grid[c] != grid[cell] for c in range(81) if cage_of[c] == cage_of[nb])]
    cage_of[cell] = rng.choice(hosts) if hosts and rng.random() < 0.5 else fresh
    rest = {c for c in range(81) if cage_of[c] == old}
    while rest:
        piece = reachable(9, rest, min(rest))
        rest -= piece
        if rest:
            fresh = max(cage_of) + 1
            for c in rest:
                cage_of[c] = fresh


def generate(seed: int, *, band: str | None = None, timeout: float | None = None) -> tuple[KillerBoard, GenerationStats]:
    """A proved-unique, graded board of the asked band (any when None). DeadlineExceeded (with the stats
    in args[1]) when `timeout` seconds pass first."""
    check_band(band)
    started = time.perf_counter()
    deadline = monotonic() + timeout if timeout else 0.0
    rng = random.Random(seed)
    stats = GenerationStats()
    while True:
        if deadline and monotonic() > deadline:
            stats.seconds = time.perf_counter() - started
            raise DeadlineExceeded(f"no {band or 'unique'} killer board within {timeout} s", stats)
        grid = fill(rng.getrandbits(64))
        stats.grids += 1
        cage_of = grow_cages(grid, rng)
        for _ in range(MAX_REPAIRS):
            board = KillerBoard(_cages(grid, cage_of))
            found = count_solutions(board, 2, deadline=deadline)
            stats.counts += 1
            if not found.complete or len(found.solutions) < 2:
                break
            other = next(s for s in found.solutions if s != grid)
            _split(grid, cage_of, next(c for c in range(81) if other[c] != grid[c]), rng)
            stats.repairs += 1
        if not found.complete:
            continue
        if found.solutions != (grid,):
            stats.rejected["unrepaired"] += 1
            continue
        graded = grade(board.with_solution(grid), deadline=deadline)
        if not graded.solved:
            stats.rejected["unproved"] += 1
            continue
        if band is not None and graded.band != band:
            stats.rejected["wrong-band"] += 1
            continue
        stats.seconds = time.perf_counter() - started
        proved = KillerBoard(board.cages, board.givens, grid, seed)
        extra: dict[str, Any] = describe(proved, graded)
        extra["generation"] = stats.to_json()
        return KillerBoard(board.cages, board.givens, grid, seed, extra), stats


__all__ = ["GENERATED", "GenerationStats", "check_band", "generate", "grow_cages"]
