"""Grading a Star Battle family board the way a person solves it.

The ladder (techniques.py) solves the empty board with the cheapest technique that makes progress,
restarting from the bottom after every step; the grade is that measurement, nothing else:

Queens (k = 1, with or without the diagonals), four tiers charged 1, 3, 6 and 12 per step:
    easy     tiers 1-2 finish it with a low total (at most 2n + 4)
    medium   tiers 1-2 finish it
    hard     a tier-3 technique (counting, blocks, footprints, pressured cells) is needed
    expert   a trial is needed

Star Battle (k >= 2): the sum of per-technique costs (1 .. 3,840), cut at 400 / 1,800 / 8,000. The
cuts sit where the labelled 14x14 boards of bench/bench_calibration.py put them: most of one site's
"medium" boards fall in medium, most of its "hard" ones in hard or expert (BENCHMARKS.md has the mix).

A board the capped ladder cannot finish gets `solved=False` and no band (it needs more than the cap
allows, or more than the ladder knows).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.games.starbattle.board import Board
from engine.games.starbattle.techniques import StarState, ladder_for
from engine.ladder import Step, run
from engine.ladder.grade import LadderGrade

BANDS = ("easy", "medium", "hard", "expert")
STARBATTLE_CUTS = (400, 1800, 8000)          # upper bounds (exclusive) of easy, medium, hard


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade(LadderGrade):
    stars: tuple[int, ...]       # the stars the ladder placed (the solution when solved)


def band_for(k: int, n: int, score: int, hardest_tier: int) -> str:
    """The band of a finished solve."""
    if k >= 2:
        low, mid, high = STARBATTLE_CUTS
        return "easy" if score < low else "medium" if score < mid else "hard" if score < high else "expert"
    if hardest_tier >= 4:
        return "expert"
    if hardest_tier == 3:
        return "hard"
    if score <= 2 * n + 4:
        return "easy"
    return "medium"


def grade(board: Board, cap: str | int | None = None, *, deadline: float = 0.0) -> Grade:
    """Solve `board` with the ladder (techniques up to `cap`: a technique name, or a tier number or
    "tier N"; None allows all) and grade the solve path. Raises DeadlineExceeded once
    time.monotonic() passes `deadline` (0: none)."""
    rules = board.rules
    state = StarState.start(rules, board.regions)
    ladder = ladder_for(rules.stars)
    result = run(state, ladder, cap, deadline=deadline)
    band = None
    if result.solved:
        band = band_for(rules.stars, rules.size, result.total_cost, result.hardest_tier)
    return Grade.measured(result, ladder, band, stars=state.star_cells())


def steps_json(steps: Sequence[Step], n: int) -> list[dict[str, Any]]:
    """Steps in the board JSON contract form, cells as [row, column] pairs."""
    return [{"technique": s.technique, "cost": s.cost,
             "place": [[c // n, c % n] for c in s.place],
             "eliminate": [[c // n, c % n] for c in s.eliminate],
             "units": list(s.units), "why": s.why} for s in steps]


__all__ = ["BANDS", "STARBATTLE_CUTS", "Grade", "band_for", "grade", "steps_json"]
