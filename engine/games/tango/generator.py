"""Generating a Tango board: plant a random solution, draw a layout of givens and clues the way the
published boards are laid out, prove it unique, make it minimal, grade.

The layout is drawn by the compiled drawer (_generate.pyx) from a model fitted on the published
boards (layout.py says what it holds; published.py is the one fitted on the 250 boards of the
calibration file; bench/fit_tango_layout.py fits it). A drawing takes a published board's *recipe*:
its symmetry group (the cells given and the edges clued of most published boards map onto themselves
under a half turn, a mirror, a diagonal or a group of these; the symbols and the clue kinds need not
follow) and its *pieces*: groups of given cells side by side (one cell, two, a 2x2 block, a
staircase ...) and groups of clues touching or side by side, each with how many images it has under
the group. Each piece is turned and placed anywhere it fits with all its images (an *orbit*): givens
first, apart from the givens drawn, then clues, apart from the clues and (in all but 6% of the
drawings) off the given cells, more readily far from the givens and on `=` edges by fitted weights.
Pieces from any recipe are then added until the board is unique (the compiled counter, to 2), then
the orbits are taken away again in a random order wherever the board stays unique without them: the
board is minimal within its symmetry, every orbit left is needed. The givens' symbols and the clues'
kinds are the planted solution's. At 6x6 a finished layout is then kept with its bin's acceptance
(its given count, its clue count and how far its clues sit from the givens: the published boards'
share of the bin over the drawer's), and never outside the published envelope (2 to 20 givens, 1 to
20 clues), else it is `unlike-published`; a drawing that stays ambiguous is `draw-failed`, one whose
counts take the counter more than 200,000 search nodes (12x12 drawings now and then) `slow-count`.

Grading: the ladder without its last rung (trial) must finish the board (else `unsolvable`), the band
must be the asked one (else `wrong-band`), and the fun score must clear the gate (else `dull`). A
drawing is graded without words; the kept board is graded again with them (the same path).

Same seed, same board: every random choice comes from one splitmix64 stream seeded with the seed
(the drawer's; the planted solution is drawn from it too).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.errors import DeadlineExceeded, InvalidRules
from engine.games.tango.board import Clue, TangoBoard
from engine.games.tango.count import monotonic
from engine.games.tango.grade import HARD_TIER, describe, grade
from engine.games.tango.layout import GROUPS, LayoutModel
from engine.games.tango.rules import BANDS, MIN_FUN, TangoRules
from engine.ladder.fun import fun_score

_MASK = (1 << 64) - 1
# the compiled drawer's outcomes (_generate.pyx)
DRAWN, FAILED, LATE, UNLIKE, SLOW = 0, 1, 2, 3, 4


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


def published_model() -> LayoutModel:
    """The layout model fitted on the published boards (published.py)."""
    from engine.games.tango.published import MODEL
    return MODEL


def draw(n: int, rng: random.Random, stats: GenerationStats, deadline: float = 0.0, *,
         model: LayoutModel | None = None, look: bool = False) -> Layout | None:
    """A minimal unique layout over a fresh planted solution (see the module notes), its randomness
    from `rng`; None when the drawing failed (or, with `look`, was set aside as unlike the published
    ones); DeadlineExceeded when the deadline passes."""
    outcome, _, counts, solution, orbits, group = (model or published_model()).drawer(n).draw(
        rng.getrandbits(64), deadline, look)
    stats.counts += counts
    if outcome == LATE:
        raise DeadlineExceeded("the tango drawer ran out of time")
    if outcome != DRAWN:
        return None                     # draw-failed, slow-count or unlike-published
    return Layout(solution, orbits, GROUPS[group])


def check_band(band: str | None) -> None:
    if band is not None and band not in BANDS:
        raise InvalidRules(f"unknown band {band!r}: expected one of {', '.join(BANDS)}")


def generate(rules: TangoRules, seed: int, *, band: str | None = None, timeout: float | None = None,
             model: LayoutModel | None = None) -> tuple[TangoBoard, GenerationStats]:
    """A proved-unique, minimal, graded board of the asked band (any when None). DeadlineExceeded
    (with the stats in args[1]) when `timeout` seconds pass first. `model`: the layout model (by
    default the one fitted on the published boards)."""
    check_band(band)
    started = time.perf_counter()
    deadline = monotonic() + timeout if timeout else 0.0
    stats = GenerationStats()
    n = rules.size
    drawer = (model or published_model()).drawer(n)
    state = seed & _MASK
    while True:
        if deadline and monotonic() > deadline:
            stats.seconds = time.perf_counter() - started
            raise DeadlineExceeded(f"no {band or 'unique'} tango board within {timeout} s", stats)
        try:
            outcome, state, drawings, failed, unlike, slow, counts, solution, orbits, group = drawer.layout(
                state, deadline)
            stats.drawings += drawings
            stats.counts += counts
            for reason, times in (("draw-failed", failed), ("unlike-published", unlike), ("slow-count", slow)):
                if times:
                    stats.rejected[reason] += times
            if outcome == LATE:
                raise DeadlineExceeded("the tango drawer ran out of time")
            board = board_from(n, solution, orbits, seed).with_solution(solution)
            found = grade(board, "chain", deadline=deadline, words=False)
            if not found.solved:
                stats.rejected["unsolvable"] += 1
                continue
            if band is not None and found.band != band:
                stats.rejected["wrong-band"] += 1
                continue
            if fun_score(found.tiers, hard_tier=HARD_TIER).score < MIN_FUN:
                stats.rejected["dull"] += 1
                continue
            graded = grade(board, "chain", deadline=deadline)
        except DeadlineExceeded:
            stats.rejected["timeout"] += 1
            stats.seconds = time.perf_counter() - started
            raise DeadlineExceeded(f"no {band or 'unique'} tango board within {timeout} s", stats) from None
        described = describe(board, graded)
        stats.seconds = time.perf_counter() - started
        stats.symmetry = len(GROUPS[group])
        described["generation"] = stats.to_json()
        return TangoBoard(n, board.givens, board.clues, solution, seed, described), stats


__all__ = ["MIN_FUN", "GenerationStats", "Layout", "board_from", "check_band", "draw", "generate",
           "published_model"]
