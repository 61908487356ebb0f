"""Grading a Tango board the way a person solves it: the ladder (techniques.py) from the givens, the
cheapest technique that moves first, restarting from the bottom after every step. That solve is the
path a player is shown, and the band is read from it.

The band is the tier of the hardest technique the path needs (pairs, sandwiches, clues and the
balance: easy; the = pairs and the pair counts: medium; the ways a line can be completed: hard;
two lines together, line links, chains and trial: expert), bumped up while the summed cost of the path passes the
band's ceiling (a long path of easy steps is more work than a short one). The ceilings were set on the
250 published LinkedIn boards of the calibration file (bench/bench_tango.py) so that their bands
spread 46 easy, 108 medium, 65 hard and 31 expert (18%, 43%, 26%, 12%); every one of them is
finished without trial, two need line-pair. The ceilings scale with the grid's area (the path's
length does). A board the ladder cannot finish gets no band.

The path is engine.ladder's loop over techniques.LADDER on a TangoPosition: the compiled rungs
(_ladder.pyx: pair to line-links) each find a step once and return what its sentence is built from;
chain and trial, above them, are Python. The generator grades without words (`words=False`) until a
board is kept. reference_grade runs the same loop over the Python twins of the compiled rungs
(reference.py), for the tests that hold the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.games.tango.board import TangoBoard
from engine.games.tango.techniques import BANDS, LADDER, TangoPosition, TangoState
from engine.ladder import Ladder, Step, run
from engine.ladder.fun import fun_score
from engine.ladder.grade import LadderGrade
from engine.version import ENGINE_VERSION

# The summed cost a 6x6 path may reach and keep its band (the published boards' spread, see above).
CEILINGS = {"easy": 34, "medium": 41, "hard": 50}
CALIBRATED_AREA = 36
HARD_TIER = 3          # steps of this tier and above are the fun score's hard ones


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade(LadderGrade):
    values: str                  # the grid the ladder reached ('.' where it stopped)


def band_for(hardest_tier: int, score: int, n: int = 6) -> str:
    """The band of a finished solve: the hardest tier's, bumped while the score passes its ceiling."""
    index = min(max(hardest_tier, 1), len(BANDS)) - 1
    scale = n * n / CALIBRATED_AREA
    while index < len(BANDS) - 1 and score > CEILINGS[BANDS[index]] * scale:
        index += 1
    return BANDS[index]


def grade(board: TangoBoard, cap: str | int | None = None, *, deadline: float = 0.0, words: bool = True) -> Grade:
    """Solve `board` with the ladder (techniques up to `cap`: a name, a tier or "tier N"; None for all)
    and grade the path. `deadline` (monotonic seconds, 0: none) bounds the solve, trial's included.
    With `words` false the compiled rungs' steps carry no units and no sentence (chain and trial word
    theirs as they find them); the path and the grade are the same."""
    return _graded(board, TangoPosition.start(board, words=words, deadline=deadline), LADDER, cap, deadline)


def reference_grade(board: TangoBoard, cap: str | int | None = None, *, deadline: float = 0.0) -> Grade:
    """The grade by the reference ladder (reference.REFERENCE_LADDER: the Python twins of the compiled
    rungs), for the tests."""
    from engine.games.tango.reference import REFERENCE_LADDER
    return _graded(board, TangoState.start(board, deadline=deadline), REFERENCE_LADDER, cap, deadline)


def _graded(board: TangoBoard, state: TangoPosition | TangoState, ladder: Ladder, cap: str | int | None,
            deadline: float) -> Grade:
    result = run(state, ladder, cap, deadline=deadline)
    band = band_for(result.hardest_tier, result.total_cost, board.n) if result.solved else None
    return Grade.measured(result, ladder, band, values=state.grid())


def steps_json(steps: list[Step], n: int) -> list[dict[str, Any]]:
    """Steps in the board JSON's form: each placement as [row, column, value], value 0 sun, 1 moon."""
    def triples(placed: tuple[int, ...]) -> list[list[int]]:
        return [[(x >> 1) // n, (x >> 1) % n, x & 1] for x in placed]
    return [{"technique": s.technique, "cost": s.cost, "place": triples(s.place), "eliminate": [],
             "units": list(s.units), "why": s.why} for s in steps]


def describe(board: TangoBoard, graded: Grade | None = None) -> dict[str, Any]:
    """The grade, fun and solve path of a proved board, as the board JSON's fields."""
    graded = graded or grade(board)
    return {"difficulty": graded.difficulty_json(), "fun": fun_score(graded.tiers, hard_tier=HARD_TIER).to_json(),
            "steps": steps_json(graded.steps, board.n), "engine_version": ENGINE_VERSION}


__all__ = ["CEILINGS", "HARD_TIER", "Grade", "band_for", "describe", "grade", "reference_grade", "steps_json"]
