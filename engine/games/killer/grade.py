"""Grading a Killer Sudoku board the way a person solves it: the ladder (techniques.py) from the
givens, the cheapest technique that moves first, restarting from the bottom after every step.

The band is the tier of the hardest technique used, bumped up while the summed cost exceeds the
band's ceiling (as Sudoku's). The ceilings are calibrated on the published booklets
(bench/bench_killer_calibration.py): a Killer's cage arithmetic makes many more small steps than a
Sudoku's singles, so they sit far above Sudoku's. A board the ladder cannot finish gets no band.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.games.killer.board import KillerBoard
from engine.games.killer.techniques import BANDS, LADDER, KillerState
from engine.games.sudoku.grade import steps_json
from engine.ladder import run
from engine.ladder.fun import fun_score
from engine.ladder.grade import LadderGrade
from engine.version import ENGINE_VERSION

CEILINGS: dict[str, int | None] = {"easy": 2000, "medium": 3000, "hard": 4500, "expert": None, "beyond": None}


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade(LadderGrade):
    values: str                  # the grid the ladder reached ('.' where it stopped)


def band_for(hardest_tier: int, score: int) -> str:
    """The band of a finished solve: the hardest tier, bumped while the score exceeds its ceiling."""
    index = max(hardest_tier, 1) - 1
    while True:
        ceiling = CEILINGS[BANDS[index]]
        if ceiling is None or score <= ceiling or BANDS[index + 1] == "beyond":
            return BANDS[index]
        index += 1


def grade(board: KillerBoard, cap: str | int | None = None, *, deadline: float = 0.0) -> Grade:
    """Solve `board` with the ladder (techniques up to `cap`: a name, a tier or "tier N"; None for all)."""
    state = KillerState.start(board)
    result = run(state, LADDER, cap, deadline=deadline)
    band = band_for(result.hardest_tier, result.total_cost) if result.solved else None
    return Grade.measured(result, LADDER, band, values=state.values())


def describe(board: KillerBoard, graded: Grade | None = None) -> dict[str, Any]:
    """The grade, fun and solve path of a proved board, as the board JSON's fields."""
    graded = graded or grade(board)
    return {"difficulty": graded.difficulty_json(), "fun": fun_score(graded.tiers).to_json(),
            "steps": steps_json(graded.steps), "engine_version": ENGINE_VERSION}


__all__ = ["CEILINGS", "Grade", "band_for", "describe", "grade"]
