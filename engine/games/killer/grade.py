"""Grading a Killer Sudoku board the way a person solves it: the ladder (techniques.py) from the
givens, the cheapest technique that moves first, restarting from the bottom after every step. That
solve is the path a player is shown.

The score measures the effort of a second solve, the *scoring solve*: the same ladder without the
moves a player makes by scanning (SCANNING: hidden singles, a cage's digit pointing out of it or
claimed by it, locked candidates). Those moves come cheaply to every solver and in every puzzle; with
them left out the path shows the arithmetic a board asks for (the combinations of its cages, the rule
of 45, naked singles), which is what the booklets' order follows. The score adds five measures, each
read from the board or that solve:
- the path: every step's cost, where a cage-combinations step costs more the more ways its open cells
  can make the cage's remaining sum (COMBINATION_BIT_COST per halving: two cells making 10 have four
  ways to sift, making 3 one), and every other technique its table cost;
- the rule of 45: RULE_OF_45_COST for each step of the path that adds up innies or outies (rule-of-45
  and rule-of-45-several), on top of its table cost: how often the solve has to look past the cages
  at a whole row, column, box or run of them;
- the slack of the sums: SLACK_COST for each cage, times how near its sum sits to the middle of the
  sums its size can make (cage_slack: 1 there, 0 at the least or greatest sum, where one combination
  is left). A middling sum tells a solver little, so the board leaves more to find;
- the opening: OPENING_BIT_COST for each bit of candidate information the cage sums leave to find.
  After the opening cage pass (every cage keeps only the digits of its combinations) each open cell
  still holds some digits; the bits of that (log2 of the digits left, summed over the cells:
  opening_bits) are what the rest of the solve must produce. The slack counts cages, the bits cells:
  a big cage with a middling sum leaves many;
- the depth: ROUND_COST for each round of basic deductions the board needs when every one available is
  made at once each round (singles, each cage's combinations, and the sums of innies or outies of at
  most 5 cells over a row, column or box or a run of 2-4 adjacent ones), until they finish it or stop
  (rounds). A deduction that needs another's result waits a round, so the rounds count how long the
  chain of dependent deductions is, however the ladder orders them.
In one sentence: the arithmetic the solve takes, how often it needs the rule of 45, how little the
cage sums give away, and how many dependent rounds of basic deductions it takes.
The four weights are a least-squares fit of the book number on the five measures over the published
booklets' five shared volumes. Fitted on some volumes and measured on the others (1-3 against 4-5
both ways, each volume held out alone: bench/fit_killer_score.py) they keep their signs and order of
size, and Spearman's correlation with the book on the held-back volumes is at least 0.5 on every fold
(BENCHMARKS.md has each fold's figures).

Nearly every published Killer needs a tier-2 step (a cage confined to a unit, the rule of 45), so the
band is read from the score, with ceilings at the booklets' score quantiles (25%, 55%, 85%), and
raised to the scoring solve's hardest tier from tier 3 up. The band comes from the scoring solve
alone, so that a generator can turn a board of the wrong band away before the shown solve. A board
the ladder cannot finish gets no band.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.games.killer._count import run_rounds_c
from engine.games.killer.board import KillerBoard
from engine.games.killer.cages import cage_support
from engine.games.killer.techniques import (BANDS, LADDER,
                                            KillerState, cage_layout)
from engine.games.sudoku.grade import steps_json
from engine.ladder import Ladder, Step, run
from engine.ladder.fun import fun_score
from engine.ladder.grade import LadderGrade
from engine.version import ENGINE_VERSION

# The weights of the score's measures besides the path, in the path's cost units (see above): a least-squares
# fit of the book number on the five measures over the booklets' volumes 1-5 (bench/fit_killer_score.py).
RULE_OF_45_COST = 330          # per rule-of-45 step of the scoring solve
SLACK_COST = 1600              # per cage at full slack (cage_slack)
OPENING_BIT_COST = 320         # per bit the opening cage pass leaves to find (opening_bits)
ROUND_COST = 1200              # per round of basic deductions (rounds)

# The rule of 45's techniques, whose steps RULE_OF_45_COST counts.
RULE_OF_45 = ("rule-of-45", "rule-of-45-several")

# The moves the scoring solve leaves out (see above).
SCANNING = ("hidden-single", "cage-pointing", "cage-claiming", "locked-candidates")
SCORING = Ladder(technique for technique in LADDER if technique.name not in SCANNING)

# The rule of 45's sum groups that rounds uses: innies or outies of at most this many cells.
ROUND_GROUP_CELLS = 5

# Score ceilings of easy, medium and hard, at the booklets' score quantiles (25%, 55%, 85%; fit_killer_score.py).
CEILINGS = {"easy": 143200, "medium": 151500, "hard": 161600}


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


def cage_slack(board: KillerBoard) -> float:
    """How little the cage sums give away: over the cages, how near each sum sits to the middle of the
    sums distinct digits can make in its cells (1 at the middle, 0 at either end, where one combination
    is left; a cage of 9 cells has one sum and no slack)."""
    total = 0.0
    for cage in board.cages:
        size = len(cage.cells)
        least, most = size * (size + 1) // 2, size * (19 - size) // 2
        if most > least:
            total += 1 - abs(2 * cage.total - least - most) / (most - least)
    return total


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


def rule_of_45_steps(steps: Sequence[Step]) -> int:
    """How many of `steps` add up innies or outies (the rule of 45's techniques)."""
    return sum(1 for step in steps if step.technique in RULE_OF_45)


@dataclass(frozen=True, slots=True)
class Measures:
    """The five measures the score adds (see above), and how the scoring solve ended."""
    path: int                    # the scoring solve's path cost
    rule_of_45: int              # its rule-of-45 steps
    slack: float                 # cage_slack
    opening: float               # opening_bits
    rounds: int
    hardest_tier: int
    solved: bool

    @property
    def total(self) -> int:
        """The score: the path plus the other measures at their weights."""
        return self.path + RULE_OF_45_COST * self.rule_of_45 + round(SLACK_COST * self.slack) \
            + round(OPENING_BIT_COST * self.opening) + ROUND_COST * self.rounds


@dataclass(frozen=True, slots=True)
class Score:
    """What the scoring solve measures: the score, the band (None when the solve did not finish)."""
    score: int
    band: str | None

    @classmethod
    def of(cls, measured: Measures) -> Score:
        total = measured.total
        return cls(total, band_for(measured.hardest_tier, total) if measured.solved else None)


def measure(board: KillerBoard, *, deadline: float = 0.0) -> Measures:
    """The score's measures of `board`: the scoring solve, the slack of its sums, the opening and the rounds."""
    state = KillerState.start(board, words=False)     # its steps are only counted, never shown
    bits, depth = opening_bits(state), rounds(state)  # before the ladder changes `state`
    result = run(state, SCORING, deadline=deadline)
    return Measures(result.total_cost, rule_of_45_steps(result.steps), cage_slack(board), bits, depth,
                    result.hardest_tier, result.solved)


def score(board: KillerBoard, *, deadline: float = 0.0) -> Score:
    """The score and band of `board` (see the module's words)."""
    return Score.of(measure(board, deadline=deadline))


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


__all__ = ["CEILINGS", "OPENING_BIT_COST", "ROUND_COST", "RULE_OF_45", "RULE_OF_45_COST", "SCANNING", "SCORING",
           "SLACK_COST", "Grade", "Measures", "Score", "band_for", "cage_slack", "describe", "grade", "measure",
           "opening_bits", "round_groups", "rounds", "rule_of_45_steps", "run_rounds", "score"]
