"""Generating a Killer Sudoku board: fill a random grid, grow cages over it, take the sums from the grid,
prove, repair, grade.

Cages (sizes 2 to 6, mostly 2 and 3, as published booklets draw them) grow from random seed cells into
random neighbouring free cells, never taking a digit the cage already holds; a cell left alone joins a
neighbouring cage that lacks its digit. engine.core.regions.grow is not used because it knows nothing
of the digits (a cage may not repeat one).

The counter looks for a solution other than the grid, trying the grid's digits first, so that it
meets the solutions that differ from the grid in a few cells first (an ambiguity is local); none,
searched through, proves the board. While it finds one, the cage holding the first cell where the two
differ is split: that cell leaves it (joining a small neighbouring cage that lacks its digit, or
alone), the pieces left become cages of their own, and a piece of one cell joins a neighbour. A split
that would bring back cages seen before (joining can go round in a circle) leaves every piece alone.
The board is then scored (grade.score) and kept when its band is the one asked (any band when none
is), and only then solved for the path shown; otherwise the whole grid is redrawn.

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
from engine.games.killer.grade import describe, grade, score
from engine.games.sudoku.count import monotonic
from engine.games.killer.rules import GENERATED
from engine.games.sudoku.fill import fill

# Cage sizes drawn and their weights. The cells growth leaves alone join a neighbouring cage, so the
# boards end near the published booklets' sizes (2 cells 58% against 59%, 3 28% / 23%, 4 8% / 10%,
# 5 4% / 5%, 6 2% / 3%, one cell 1% / none: a one-cell cage is a given in all but name), and land
# easy 9%, medium 16%, hard 43%, expert 32% (120 drawings, seeds 0-119).
SIZE_WEIGHTS = {2: 78, 3: 8, 4: 7, 5: 4, 6: 3}
MAX_HOST = 5                  # a cell left alone joins a neighbouring cage of at most this many cells
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


def _host(grid: str, cage_of: list[int], cell: int, avoid: set[int], rng: random.Random) -> int | None:
    """A neighbouring cage `cell` may join (not in `avoid`, at most MAX_HOST cells, without its digit):
    one of the smallest, or None."""
    sizes = Counter(cage_of)
    near = {cage_of[nb] for nb in orthogonal_neighbours(9)[cell]
            if cage_of[nb] not in avoid and sizes[cage_of[nb]] <= MAX_HOST - 1}
    if near:
        digit = grid[cell]
        near -= {cage_of[c] for c in range(81) if grid[c] == digit}     # the cages holding its digit
    hosts = sorted(near)
    if not hosts:
        return None
    smallest = min(sizes[host] for host in hosts)
    return rng.choice([host for host in hosts if sizes[host] == smallest])


def grow_cages(grid: str, rng: random.Random) -> list[int]:
    """A cage number per cell: connected cages of distinct digits, sized as SIZE_WEIGHTS draws; a cell
    that growth leaves alone joins a neighbouring cage where one can take it."""
    neighbours = orthogonal_neighbours(9)
    sizes, weights = zip(*SIZE_WEIGHTS.items())
    cage_of = [-1] * 81
    order = list(range(81))
    rng.shuffle(order)
    number = 0
    for start in order:
        if cage_of[start] >= 0:
            continue
        target = rng.choices(sizes, weights)[0]
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
    for cell, _ in _alone(cage_of):
        host = _host(grid, cage_of, cell, {cage_of[cell]}, rng)
        if host is not None:
            cage_of[cell] = host
    return cage_of


def _alone(cage_of: list[int]) -> list[tuple[int, int]]:
    """The cells that are a cage by themselves, with their cage numbers."""
    sizes = Counter(cage_of)
    return [(cell, number) for cell, number in enumerate(cage_of) if sizes[number] == 1]


def _partition(cage_of: list[int]) -> tuple[int, ...]:
    """The cages as a partition of the cells, whatever their numbers: each cell's cage's first cell."""
    first: dict[int, int] = {}
    return tuple(first.setdefault(number, cell) for cell, number in enumerate(cage_of))


def _cages(grid: str, cage_of: list[int]) -> tuple[Cage, ...]:
    cells: dict[int, list[int]] = {}
    for cell, number in enumerate(cage_of):
        cells.setdefault(number, []).append(cell)
    digits = [int(ch) for ch in grid]
    cages = [Cage(sum([digits[c] for c in group]), tuple(group)) for group in cells.values()]
    return tuple(sorted(cages, key=lambda cage: cage.cells[0]))


def _split(grid: str, cage_of: list[int], cell: int, rng: random.Random, *, join: bool = True) -> None:
    """Take `cell` out of its cage (into a small neighbouring cage lacking its digit, or alone), make
    each piece the cage falls into a cage of its own, and let a piece of one cell join a neighbour
    (with `join` false, nothing joins another cage: the cages only grow in number)."""
    old = cage_of[cell]
    host = _host(grid, cage_of, cell, {old}, rng) if join else None
    cage_of[cell] = host if host is not None else max(cage_of) + 1
    rest = {c for c in range(81) if cage_of[c] == old}
    pieces = []
    while rest:
        piece = reachable(9, rest, min(rest))
        rest -= piece
        pieces.append(piece)
    for piece in pieces[1:]:
        fresh = max(cage_of) + 1
        for c in piece:
            cage_of[c] = fresh
    for piece in pieces if join else ():
        if len(piece) == 1:
            (alone,) = piece
            host = _host(grid, cage_of, alone, {cage_of[alone], cage_of[cell]}, rng)
            if host is not None:
                cage_of[alone] = host


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
        seen = {_partition(cage_of)}
        for _ in range(MAX_REPAIRS):
            board = KillerBoard(_cages(grid, cage_of))
            # A solution other than the grid, or the proof that there is none.
            found = count_solutions(board, 1, deadline=deadline, other_than=grid)
            stats.counts += 1
            if not found.complete or not found.solutions:
                break
            other = found.solutions[0]
            where = next(c for c in range(81) if other[c] != grid[c])
            before = list(cage_of)
            _split(grid, cage_of, where, rng)
            if _partition(cage_of) in seen:
                # Joining went round in a circle: split alone this time, which always moves on.
                cage_of[:] = before
                _split(grid, cage_of, where, rng, join=False)
            seen.add(_partition(cage_of))
            stats.repairs += 1
        if not found.complete:
            continue
        if found.solutions:
            stats.rejected["unrepaired"] += 1
            continue
        candidate = board.with_solution(grid)
        scored = score(candidate, deadline=deadline)
        if scored.band is None:
            stats.rejected["unproved"] += 1
            continue
        if band is not None and scored.band != band:
            stats.rejected["wrong-band"] += 1
            continue
        graded = grade(candidate, deadline=deadline, scored=scored)
        if not graded.solved:
            stats.rejected["unproved"] += 1
            continue
        stats.seconds = time.perf_counter() - started
        proved = KillerBoard(board.cages, board.givens, grid, seed)
        extra: dict[str, Any] = describe(proved, graded)
        extra["generation"] = stats.to_json()
        return KillerBoard(board.cages, board.givens, grid, seed, extra), stats


__all__ = ["GENERATED", "GenerationStats", "check_band", "generate", "grow_cages"]
