"""Grading a Killer Sudoku board the way a person solves it: the ladder (techniques.py) from the
givens, the cheapest technique that moves first, restarting from the bottom after every step.

The score measures the effort of that solve in two parts, both read from the solve:
- the path: every step's cost, where a cage-combinations step costs more the more ways its open cells
  can make the cage's remaining sum (COMBINATION_BIT_COST per halving: two cells making 10 have four
  ways to sift, making 3 one), and every other technique its table cost;
- the opening: what the cage sums alone leave to find. After the opening cage pass (every cage keeps
  only the digits of its combinations) each open cell still holds some digits; the bits of that
  (log2 of the digits left, summed over the cells) are the candidate information the rest of the solve
  must produce, OPENING_BIT_COST each. On a board without givens this depends only on the cages' sizes
  and sums: it is a property of the puzzle's layout that makes the solve harder (cages whose sums sit in
  the middle of their range, 9 to 11 in two cells, tell a solver little), and it carries most of the
  score's agreement with the booklets.
The two costs were fitted on the published booklets' volumes 1-3 and checked on volumes 4-5
(bench/bench_killer_calibration.py; BENCHMARKS.md has the figures and the measures that did not help).

Nearly every published Killer needs a tier-2 step (a cage confined to a unit, the rule of 45), so the
band is read from the score, with ceilings at the booklets' score quantiles (25%, 55%, 85%), and
raised to the hardest technique's tier from tier 3 up. A board the ladder cannot finish gets no band.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from engine.games.killer.board import KillerBoard
from engine.games.killer.cages import cage_support
from engine.games.killer.techniques import BANDS, LADDER, KillerState
from engine.games.sudoku.grade import steps_json
from engine.ladder import run
from engine.ladder.fun import fun_score
from engine.ladder.grade import LadderGrade
from engine.version import ENGINE_VERSION

# The cost of each bit of candidate information left to find after the opening cage pass (opening_bits):
# fitted on the booklets' volumes 1-3 with the cage-combination cost (bench/bench_killer_calibration.py).
OPENING_BIT_COST = 480

# Score ceilings of easy, medium and hard, near the quartiles of the booklets' scores (25%, 55%, 85%).
CEILINGS = {"easy": 126800, "medium": 132200, "hard": 138000}


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade(LadderGrade):
    """A Killer grade; its score is the path's summed cost plus the opening's (see above)."""
    values: str                  # the grid the ladder reached ('.' where it stopped)


def band_for(hardest_tier: int, score: int) -> str:
    """The band of a finished solve: by score, but at least the band of the hardest technique's tier
    (a tier-3 technique makes it hard, a chain expert, trial beyond)."""
    by_score = next((band for band, ceiling in CEILINGS.items() if score <= ceiling), "expert")
    by_tier = BANDS[min(max(hardest_tier, 2), 5) - 1] if hardest_tier >= 3 else "easy"
    return max(by_score, by_tier, key=BANDS.index)


def opening_bits(state: KillerState) -> float:
    """What the cage sums alone leave to find: over the open cells, log2 of the digits each keeps once
    every cage keeps only the digits of its combinations (the position after the opening cage pass)."""
    masks = state.masks()
    values = state.values()
    total = 0.0
    for cage in state.cages:
        support, live = cage_support(cage.total, [masks[c] for c in cage.cells])
        if not live:
            continue
        total += sum(math.log2(m.bit_count()) for c, m in zip(cage.cells, support) if values[c] == ".")
    return total


def grade(board: KillerBoard, cap: str | int | None = None, *, deadline: float = 0.0) -> Grade:
    """Solve `board` with the ladder (techniques up to `cap`: a name, a tier or "tier N"; None for all)."""
    state = KillerState.start(board)
    opening = round(OPENING_BIT_COST * opening_bits(state))
    result = run(state, LADDER, cap, deadline=deadline)
    score = result.total_cost + opening
    band = band_for(result.hardest_tier, score) if result.solved else None
    return replace(Grade.measured(result, LADDER, band, values=state.values()), score=score)


def describe(board: KillerBoard, graded: Grade | None = None) -> dict[str, Any]:
    """The grade, fun and solve path of a proved board, as the board JSON's fields."""
    graded = graded or grade(board)
    return {"difficulty": graded.difficulty_json(), "fun": fun_score(graded.tiers).to_json(),
            "steps": steps_json(graded.steps), "engine_version": ENGINE_VERSION}


__all__ = ["CEILINGS", "OPENING_BIT_COST", "Grade", "band_for", "describe", "grade", "opening_bits"]
