"""Grading a Killer Sudoku board the way a person solves it: the ladder (techniques.py) from the
givens, the cheapest technique that moves first, restarting from the bottom after every step. That
solve is the path a player is shown.

The score measures the effort of a second solve, the *scoring solve*: the same ladder without the
moves a player makes by scanning (SCANNING: hidden singles, a cage's digit pointing out of it or
claimed by it, locked candidates). Those moves come cheaply to every solver and in every puzzle; with
them left out the path shows the arithmetic a board asks for (the combinations of its cages, the rule
of 45, naked singles), which is what the booklets' order follows. The score has three parts:
- the path: every step's cost, where a cage-combinations step costs more the more ways its open cells
  can make the cage's remaining sum (COMBINATION_BIT_COST per halving: two cells making 10 have four
  ways to sift, making 3 one), and every other technique its table cost;
- the opening: what the cage sums alone leave to find. After the opening cage pass (every cage keeps
  only the digits of its combinations) each open cell still holds some digits; the bits of that
  (log2 of the digits left, summed over the cells) are the candidate information the rest of the solve
  must produce, OPENING_BIT_COST each. On a board without givens this depends only on the cages' sizes
  and sums (cages whose sums sit in the middle of their range, 9 to 11 in two cells, tell a solver
  little);
- the depth: ROUND_COST for each round of basic deductions the board needs when every one available is
  made at once each round (singles, each cage's combinations, and the sums of innies or outies of at
  most 5 cells over a row, column or box or a run of 2-4 adjacent ones), until they finish it or stop
  (rounds). A deduction that needs another's result waits a round, so the rounds count how long the
  chain of dependent deductions is, however the ladder orders them.
In one sentence: the arithmetic the solve takes, plus the candidate information the cage sums leave
to find, plus how many dependent rounds of basic deductions it takes.
The costs were fitted on the published booklets' volumes 1-3 and checked on volumes 4-5, and the
other way round (fitted on 4-5, checked on 1-3: bench/fit_killer_score.py --fit-volumes 4,5;
bench/bench_killer_calibration.py; BENCHMARKS.md has the figures and the measures that did not help).

Nearly every published Killer needs a tier-2 step (a cage confined to a unit, the rule of 45), so the
band is read from the score, with ceilings at the booklets' score quantiles (25%, 55%, 85%), and
raised to the scoring solve's hardest tier from tier 3 up. The band comes from the scoring solve
alone, so that a generator can turn a board of the wrong band away before the shown solve. A board
the ladder cannot finish gets no band.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from engine.games.killer._count import run_rounds_c
from engine.games.killer.board import KillerBoard
from engine.games.killer.cages import cage_support
from engine.games.killer.techniques import (BANDS, LADDER,
                                            KillerState, cage_layout)
from engine.games.sudoku.grade import steps_json
from engine.ladder import Ladder, run
from engine.ladder.fun import fun_score
from engine.ladder.grade import LadderGrade
from engine.version import ENGINE_VERSION

# The cost of each bit of candidate information left to find after the opening cage pass (opening_bits):
# fitted with ROUND_COST on the booklets' volumes 1-3, over the scoring solve's path (bench/fit_killer_score.py).
OPENING_BIT_COST = 160

# The cost of each round of basic deductions the board needs (rounds): fitted on volumes 1-3.
ROUND_COST = 500

# The moves the scoring solve leaves out (see above).
SCANNING = ("hidden-single", "cage-pointing", "cage-claiming", "locked-candidates")
SCORING = Ladder(technique for technique in LADDER if technique.name not in SCANNING)

# The rule of 45's sum groups that rounds uses: innies or outies of at most this many cells.
ROUND_GROUP_CELLS = 5

# Score ceilings of easy, medium and hard, at the booklets' score quantiles (25%, 55%, 85%; fit_killer_score.py).
CEILINGS = {"easy": 65900, "medium": 70400, "hard": 75700}


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade(LadderGrade):
    """A Killer grade: the shown solve's path; the score and band of the scoring solve (see above)."""
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


def round_groups(state: KillerState) -> list[tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]]:
    """The rule of 45's sum groups a solver can add up from the cages alone: for every row, column and
    box, and every run of 2-4 adjacent rows, columns or boxes, its innies and its outies when they are
    1 to ROUND_GROUP_CELLS cells (cells, total, the pairs of them known distinct). From the compiled
    layout (reference.reference_round_groups is its plain twin), made once per board."""
    return cage_layout(state.cages).compiled.round_groups(ROUND_GROUP_CELLS)


def rounds(state: KillerState) -> int:
    """How many rounds of basic deductions the board needs (see run_rounds)."""
    return run_rounds(state)[0]


def run_rounds(state: KillerState) -> tuple[int, list[int]]:
    """How many rounds of basic deductions, every one available made at once in each round, the board
    needs before they finish it or stop: singles (naked and hidden), each cage's combinations, and the
    sums of the rule of 45's small innie and outie groups (round_groups). The depth of the solve: a
    deduction that needs the result of another waits a round. Returns the rounds and the masks left
    (`state` is not changed)."""
    return run_rounds_c(state.cage_of, state.board.sums, state.masks(), round_groups(state))


@dataclass(frozen=True, slots=True)
class Score:
    """What the scoring solve measures: the score, the band (None when the solve did not finish)."""
    score: int
    band: str | None


def score(board: KillerBoard, *, deadline: float = 0.0) -> Score:
    """The score and band of `board` (see the module's words): the scoring solve, the opening and the rounds."""
    state = KillerState.start(board, words=False)     # its steps are only counted, never shown
    opening = round(OPENING_BIT_COST * opening_bits(state))
    depth = ROUND_COST * rounds(state)               # before the ladder changes `state`
    result = run(state, SCORING, deadline=deadline)
    total = result.total_cost + opening + depth
    return Score(total, band_for(result.hardest_tier, total) if result.solved else None)


def grade(board: KillerBoard, cap: str | int | None = None, *, deadline: float = 0.0,
          scored: Score | None = None) -> Grade:
    """Solve `board` with the ladder (techniques up to `cap`: a name, a tier or "tier N"; None for all),
    scored as `score` measures it (`scored`, when the caller has it already). The cap limits the
    shown solve only: a board it stops gets no band."""
    scored = scored or score(board, deadline=deadline)
    state = KillerState.start(board)
    result = run(state, LADDER, cap, deadline=deadline)
    band = scored.band if result.solved else None
    return replace(Grade.measured(result, LADDER, band, values=state.values()), score=scored.score)


def describe(board: KillerBoard, graded: Grade | None = None) -> dict[str, Any]:
    """The grade, fun and solve path of a proved board, as the board JSON's fields."""
    graded = graded or grade(board)
    return {"difficulty": graded.difficulty_json(), "fun": fun_score(graded.tiers).to_json(),
            "steps": steps_json(graded.steps), "engine_version": ENGINE_VERSION}


__all__ = ["CEILINGS", "OPENING_BIT_COST", "ROUND_COST", "SCANNING", "SCORING", "Grade", "Score", "band_for", "describe", "grade",
           "opening_bits", "round_groups", "rounds", "run_rounds", "score"]
