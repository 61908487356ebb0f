"""Grading a Sudoku board the way a person solves it.

The ladder (techniques.py) solves the board from its givens with the cheapest technique that makes
progress, restarting from the bottom after every step; the grade is that measurement. HoDoKu style:
the band is the tier of the hardest technique used, bumped up while the summed cost exceeds the band's
ceiling. Ceilings: easy 800, medium 1,000, hard 1,600 (HoDoKu's); expert has none (HoDoKu's "unfair"
and "extreme" are one band here), and beyond (trial and error, 10,000 a step) is reached only by
needing trial and error, never by score.

A board the capped ladder cannot finish gets `solved=False` and no band.

Two ways to run the same ladder: `grade` goes through the shared loop (engine.ladder.run) and records
every step with its sentence; `quick_grade` runs the compiled twin of that loop (same finders, same
order) and returns only the band, score and hardest technique: it is what the generator calls dozens
of times per board. A test keeps the two in step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.games.sudoku._logic import Position
from engine.games.sudoku.board import SudokuBoard
from engine.games.sudoku.techniques import BANDS, LADDER, NAME_OF, UNIQUENESS, SudokuState, order_ids
from engine.ladder import Step, run
from engine.ladder.table import hardest
from engine.ladder.grade import LadderGrade

CEILINGS: dict[str, int | None] = {"easy": 800, "medium": 1000, "hard": 1600, "expert": None, "beyond": None}


@dataclass(frozen=True, slots=True, kw_only=True)
class Grade(LadderGrade):
    values: str                  # the grid the ladder reached ('.' where it stopped)

    @property
    def uses_uniqueness(self) -> bool:
        return any(step.technique in UNIQUENESS for step in self.steps)


@dataclass(frozen=True, slots=True)
class QuickGrade:
    status: int                  # 1 solved, 2 contradiction, 0 stalled
    used: tuple[str, ...]        # the technique of each step, in order
    hardest: str | None
    hardest_tier: int
    score: int
    band: str | None

    @property
    def solved(self) -> bool:
        return self.status == 1

    @property
    def uses_uniqueness(self) -> bool:
        return any(name in UNIQUENESS for name in self.used)


def band_for(hardest_tier: int, score: int) -> str:
    """The band of a finished solve: the hardest tier, bumped while the score exceeds its ceiling."""
    index = max(hardest_tier, 1) - 1
    while True:
        ceiling = CEILINGS[BANDS[index]]
        if ceiling is None or score <= ceiling or BANDS[index + 1] == "beyond":
            return BANDS[index]
        index += 1


def _givens(board: SudokuBoard | str) -> str:
    return board.givens if isinstance(board, SudokuBoard) else board


def grade(board: SudokuBoard | str, cap: str | int | None = None) -> Grade:
    """Solve `board` (or a givens line) with the ladder (techniques up to `cap`: a technique name, a
    tier number or "tier N"; None allows all) and grade the solve path."""
    state = SudokuState.start(_givens(board))
    result = run(state, LADDER, cap)
    band = band_for(result.hardest_tier, result.total_cost) if result.solved else None
    return Grade.measured(result, LADDER, band, values=state.values())


def quick_grade(board: SudokuBoard | str, cap: str | int | None = None) -> QuickGrade:
    """The same solve as `grade`, in compiled code, without the step records."""
    status, used_ids = Position.from_givens(_givens(board)).run(order_ids(cap))
    return quick_from_ids(status, used_ids)


_BY_ID = {tid: LADDER[name] for tid, name in NAME_OF.items()}


def quick_from_ids(status: int, used_ids: Sequence[int]) -> QuickGrade:
    """The grade of a compiled run from its status and the technique ids it used."""
    techniques = [_BY_ID[t] for t in used_ids]
    top = hardest(techniques)           # the shared loop's rule (engine.ladder.table.hardest)
    name, tier = (top.name, top.tier) if top else (None, 0)
    score = sum(t.cost for t in techniques)
    return QuickGrade(status, tuple(t.name for t in techniques), name, tier, score,
                      band_for(tier, score) if status == 1 else None)


def steps_json(steps: Sequence[Step]) -> list[dict[str, Any]]:
    """Steps in the board JSON contract form, candidates as [row, column, digit] triples."""
    def triples(cands: Sequence[int]) -> list[list[int]]:
        return [[x // 81, x // 9 % 9, x % 9 + 1] for x in cands]
    return [{"technique": s.technique, "cost": s.cost, "place": triples(s.place),
             "eliminate": triples(s.eliminate), "units": list(s.units), "why": s.why} for s in steps]


__all__ = ["BANDS", "CEILINGS", "Grade", "QuickGrade", "band_for", "grade", "quick_from_ids", "quick_grade", "steps_json"]
