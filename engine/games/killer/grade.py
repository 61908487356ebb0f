"""Grading a Killer Sudoku board the way a person solves it: the ladder (techniques.py) from the
givens, the cheapest technique that moves first, restarting from the bottom after every step.

Nearly every published Killer needs a tier-2 step (a cage confined to a unit, the rule of 45), so the
band is read from the score (the summed cost of the path: a Killer's cage arithmetic makes many more
small steps than a Sudoku's singles), with ceilings calibrated on the published booklets
(bench/bench_killer_calibration.py), and raised to the hardest technique's tier from tier 3 up.
A board the ladder cannot finish gets no band.
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

# Score ceilings of easy, medium and hard, near the quartiles of the booklets' scores (25%, 55%, 85%).
CEILINGS = {"easy": 4200, "medium": 5000, "hard": 5800}


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade(LadderGrade):
    values: str                  # the grid the ladder reached ('.' where it stopped)


def band_for(hardest_tier: int, score: int) -> str:
    """The band of a finished solve: by score, but at least the band of the hardest technique's tier
    (a tier-3 technique makes it hard, a chain expert, trial beyond)."""
    by_score = next((band for band, ceiling in CEILINGS.items() if score <= ceiling), "expert")
    by_tier = BANDS[min(max(hardest_tier, 2), 5) - 1] if hardest_tier >= 3 else "easy"
    return max(by_score, by_tier, key=BANDS.index)


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
