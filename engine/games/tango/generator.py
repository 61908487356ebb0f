"""Generating a Tango board: plant a random solution, draw a layout of givens and clues the way the
published boards are drawn, prove it unique, make it minimal, grade.

The layout. Most published boards (184 of the 250 in the calibration file) are symmetric as a layout:
the cells given and the edges clued map onto themselves under a half turn (124 boards), a mirror, a
diagonal, or a group of these; the symbols and the clue kinds need not follow. A drawing picks a
symmetry group with the published frequencies (SYMMETRIES), then adds *pieces* one at a time, each
with every image of it under the group (an *orbit*): a given cell, two given cells side by side, a
clue on one edge, two clues side by side, two clues in a line. Givens come in pieces of two about as
often as published ones stand next to each other; a clue keeps off the given cells (235 of the 250
boards have no clue touching a given), and `=` clues are drawn more readily than the solution's edges
offer them (published clues are 40% `=`, a solution's edges 29% alike). Pieces are added until the
board is unique (the compiled counter, to 2), then the orbits are taken away again in a random order
wherever the board stays unique without them: the board is minimal within its symmetry, every orbit
left is needed. The givens' symbols and the clues' kinds are the planted solution's.

Grading: the ladder without its last rung (trial) must finish the board (else `unsolvable`), the band
must be the asked one (else `wrong-band`), and the fun score must clear the gate (else `dull`).

Same seed, same board: every random choice comes from one `random.Random(seed)`; the planted solution
comes from the compiled search seeded from it.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.core.grid import orthogonal_neighbours, symmetries
from engine.errors import DeadlineExceeded, InvalidRules
from engine.games.tango.board import Clue, TangoBoard
from engine.games.tango.count import count, monotonic, random_solution
from engine.games.tango.grade import describe, grade
from engine.games.tango.rules import BANDS, MIN_FUN, TangoRules

# Symmetry groups of the layout, as indexes into engine.core.grid.symmetries (0 identity, 1 mirror
# left-right, 2 mirror top-bottom, 3 half turn, 4 transpose, 5 and 6 quarter turns, 7 anti-transpose),
# with how many of the 250 published boards have exactly that group.
SYMMETRIES: tuple[tuple[tuple[int, ...], int], ...] = (
    ((0,), 66),                 # none
    ((0, 3), 75),               # half turn
    ((0, 1), 23),               # mirror left-right
    ((0, 3, 4, 7), 21),         # both diagonals
    ((0, 1, 2, 3), 16),         # both mirrors
    ((0, 7), 15),               # anti-diagonal
    ((0, 4), 13),               # diagonal
    ((0, 2), 9),                # mirror top-bottom
    ((0, 1, 2, 3, 4, 5, 6, 7), 8),
    ((0, 3, 5, 6), 4),          # quarter turns
)

# The pieces a layout is drawn from, with their weights.
PIECES = {"given": 28, "given-pair": 22, "given-block": 3, "clue": 40, "clue-pair": 24, "clue-line": 8}
SAME_WEIGHT = 1.3             # an = edge is drawn this much more readily than an x edge
TOUCH_GIVEN = 0.03            # the chance a clue may touch a given cell
NEAR_GIVEN = 0.6              # the chance a clue may stand right beside a given cell (published clues
                              # keep further from the givens than a free draw puts them)
MAX_PIECES = 1000             # pieces drawn before a layout is given up (`draw-failed`)


@dataclass(slots=True)
class GenerationStats:
    drawings: int = 0                 # layouts drawn (each on a fresh planted solution)
    counts: int = 0                   # counter calls
    rejected: Counter = field(default_factory=Counter)   # reason -> drawings rejected
    seconds: float = 0.0
    symmetry: int = 1                 # the size of the kept layout's symmetry group

    def to_json(self) -> dict[str, Any]:
        return {"drawings": self.drawings, "counts": self.counts, "rejected": dict(self.rejected),
                "seconds": round(self.seconds, 6), "symmetry": self.symmetry}


@dataclass(frozen=True, slots=True)
class Layout:
    """A drawn, proved layout: the orbits kept (each a set of given cells and clue edges)."""
    solution: str
    orbits: tuple[tuple[frozenset[int], frozenset[tuple[int, int]]], ...]
    group: tuple[int, ...]

    def board(self, n: int, seed: int | None = None) -> TangoBoard:
        return board_from(n, self.solution, self.orbits, seed)


def board_from(n: int, solution: str, orbits: Any, seed: int | None = None) -> TangoBoard:
    """The board of these orbits over a planted solution: its symbols at the given cells, its kinds on
    the clued edges."""
    givens = ["."] * (n * n)
    clues = []
    for cells, edges in orbits:
        for cell in cells:
            givens[cell] = solution[cell]
        clues += [Clue(a, b, solution[a] == solution[b]) for a, b in edges]
    return TangoBoard(n, "".join(givens), tuple(sorted(clues)), "", seed)


def _edges(n: int) -> list[tuple[int, int]]:
    return [(r * n + c, r * n + c + 1) for r in range(n) for c in range(n - 1)] + \
           [(r * n + c, (r + 1) * n + c) for r in range(n - 1) for c in range(n)]


class _Drawing:
    """One layout being drawn over a planted solution."""

    def __init__(self, n: int, solution: str, group: tuple[int, ...], rng: random.Random):
        self.n, self.solution, self.rng = n, solution, rng
        maps = symmetries(n)
        self.maps = [maps[i] for i in group]
        self.givens: set[int] = set()
        self.clued: set[tuple[int, int]] = set()
        self.neighbours = orthogonal_neighbours(n)
        self.beside: set[int] = set()          # the cells beside a given one
        self.orbits: list[tuple[frozenset[int], frozenset[tuple[int, int]]]] = []
        self.edges = _edges(n)
        # an = edge drawn SAME_WEIGHT times as readily as an x one
        self.weights = [SAME_WEIGHT if solution[a] == solution[b] else 1.0 for a, b in self.edges]

    def _orbit(self, cells: list[int], edges: list[tuple[int, int]]) -> tuple[frozenset[int], frozenset[tuple[int, int]]]:
        image_cells = frozenset(m[c] for m in self.maps for c in cells)
        image_edges = frozenset(tuple(sorted((m[a], m[b]))) for m in self.maps for a, b in edges)
        return image_cells, image_edges   # type: ignore[return-value]



    def piece(self) -> tuple[frozenset[int], frozenset[tuple[int, int]]] | None:
        """A random piece's orbit, disjoint from the orbits drawn, or None when the draw misses."""
        n, rng = self.n, self.rng
        kind = rng.choices(tuple(PIECES), tuple(PIECES.values()))[0]
        if not self.givens and not kind.startswith("given"):
            kind = "given"            # clues alone never tell suns from moons: a board needs a given
        cells: list[int] = []
        edges: list[tuple[int, int]] = []
        if kind.startswith("given"):
            cell = rng.randrange(n * n)
            cells = [cell]
            r, c = divmod(cell, n)
            if kind == "given-pair":
                near = [x for x, ok in ((cell + 1, c < n - 1), (cell + n, r < n - 1)) if ok]
                if not near:
                    return None           # the bottom-right corner has no right or lower neighbour
                cells.append(rng.choice(near))
            elif kind == "given-block":       # two by two
                if r == n - 1 or c == n - 1:
                    return None
                cells += [cell + 1, cell + n, cell + n + 1]
        else:
            a, b = self.rng.choices(self.edges, self.weights)[0]      # a clued one is turned away below
            edges = [(a, b)]
            across = b == a + 1
            if kind == "clue-pair":           # the parallel edge beside it
                step = n if across else 1
                if (across and a + n < n * n) or (not across and b % n < n - 1):
                    edges.append((a + step, b + step))
            elif kind == "clue-line":         # the next edge in the same line
                step = 1 if across else n
                if (across and b % n < n - 1) or (not across and b + n < n * n):
                    edges.append((b, b + step))
        orbit = self._orbit(cells, edges)
        if orbit[0] & self.givens or orbit[1] & self.clued:
            return None                           # overlapping an orbit drawn: drawn again
        given = self.givens | orbit[0]
        clued = self.clued | orbit[1]
        touching = any(a in given or b in given for a, b in clued)
        if touching and rng.random() >= TOUCH_GIVEN:
            return None
        beside = self.beside | {x for cell in orbit[0] for x in self.neighbours[cell]}
        if any(a in beside or b in beside for a, b in clued) and rng.random() >= NEAR_GIVEN:
            return None
        return orbit

    def add(self, orbit: tuple[frozenset[int], frozenset[tuple[int, int]]]) -> None:
        self.orbits.append(orbit)
        self.givens |= orbit[0]
        self.clued |= orbit[1]
        self.beside |= {x for cell in orbit[0] for x in self.neighbours[cell]}


def _solutions(n: int, solution: str, orbits: Any, limit: int, deadline: float, stats: GenerationStats) -> int:
    """How many solutions (up to `limit`) the orbits leave (DeadlineExceeded when the deadline passes)."""
    values = bytearray(b"\x02" * (n * n))
    clues = []
    for cells, edges in orbits:
        for cell in cells:
            values[cell] = 1 if solution[cell] == "M" else 0
        clues += [(a, b, solution[a] == solution[b]) for a, b in edges]
    stats.counts += 1
    found, complete, _ = count(n, bytes(values), clues, limit, deadline)
    if not complete:
        raise DeadlineExceeded("the tango counter ran out of time")
    return len(found)


def draw(n: int, rng: random.Random, stats: GenerationStats, deadline: float = 0.0) -> Layout | None:
    """A minimal unique layout over a fresh planted solution (see the module notes); None when no
    piece is left to add and the board is still not unique; DeadlineExceeded when the deadline passes."""
    solution = random_solution(n, rng.getrandbits(64))
    groups, weights = zip(*SYMMETRIES)
    group = rng.choices(groups, weights)[0]
    drawing = _Drawing(n, solution, group, rng)
    for _ in range(MAX_PIECES):
        orbit = drawing.piece()
        if orbit is None:
            continue
        drawing.add(orbit)
        if _solutions(n, solution, drawing.orbits, 2, deadline, stats) == 1:
            break
    else:
        return None
    # Minimal within the symmetry: every orbit whose removal keeps the board unique goes.
    kept = list(drawing.orbits)
    for orbit in rng.sample(kept, len(kept)):
        trial = [o for o in kept if o is not orbit]
        if _solutions(n, solution, trial, 2, deadline, stats) == 1:
            kept = trial
    return Layout(solution, tuple(kept), group)


def check_band(band: str | None) -> None:
    if band is not None and band not in BANDS:
        raise InvalidRules(f"unknown band {band!r}: expected one of {', '.join(BANDS)}")


def generate(rules: TangoRules, seed: int, *, band: str | None = None,
             timeout: float | None = None) -> tuple[TangoBoard, GenerationStats]:
    """A proved-unique, minimal, graded board of the asked band (any when None). DeadlineExceeded
    (with the stats in args[1]) when `timeout` seconds pass first."""
    check_band(band)
    started = time.perf_counter()
    deadline = monotonic() + timeout if timeout else 0.0
    rng = random.Random(seed)
    stats = GenerationStats()
    n = rules.size
    while True:
        if deadline and monotonic() > deadline:
            stats.seconds = time.perf_counter() - started
            raise DeadlineExceeded(f"no {band or 'unique'} tango board within {timeout} s", stats)
        stats.drawings += 1
        try:
            layout = draw(n, rng, stats, deadline)
            if layout is None:
                stats.rejected["draw-failed"] += 1
                continue
            board = layout.board(n, seed).with_solution(layout.solution)
            graded = grade(board, "chain", deadline=deadline)
        except DeadlineExceeded:
            stats.rejected["timeout"] += 1
            stats.seconds = time.perf_counter() - started
            raise DeadlineExceeded(f"no {band or 'unique'} tango board within {timeout} s", stats) from None
        if not graded.solved:
            stats.rejected["unsolvable"] += 1
            continue
        if band is not None and graded.band != band:
            stats.rejected["wrong-band"] += 1
            continue
        described = describe(board, graded)
        if described["fun"]["score"] < MIN_FUN:
            stats.rejected["dull"] += 1
            continue
        stats.seconds = time.perf_counter() - started
        stats.symmetry = len(layout.group)
        described["generation"] = stats.to_json()
        return TangoBoard(n, board.givens, board.clues, layout.solution, seed, described), stats


__all__ = ["MIN_FUN", "PIECES", "SYMMETRIES", "GenerationStats", "Layout", "board_from", "check_band", "draw",
           "generate"]
