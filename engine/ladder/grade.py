"""What every game's grade holds: the solve path the ladder took and the measurement made of it.

A game's Grade subclasses LadderGrade, adding the position the ladder reached (and its own helpers);
its band rule stays in the game's grade module."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from engine.ladder.loop import SolveResult
from engine.ladder.step import Step
from engine.ladder.table import Ladder

G = TypeVar("G", bound="LadderGrade")


@dataclass(frozen=True, slots=True, kw_only=True)
class LadderGrade:
    steps: list[Step]            # the solve path the grade was computed from, whole
    solved: bool
    hardest: str | None          # the hardest technique used (highest tier, latest on the ladder)
    hardest_tier: int            # 0 when no step was taken
    score: int                   # summed cost of every step
    band: str | None             # the game's band; None when not solved
    contradiction: bool = False  # the ladder reached an impossible position (the board has no solution)
    tiers: tuple[int, ...] = ()  # the tier of each step, in order (what the fun score reads)

    @classmethod
    def measured(cls: type[G], result: SolveResult, ladder: Ladder, band: str | None, **reached: Any) -> G:
        """The grade of a ladder run; `reached` names the game's own fields (the position reached)."""
        return cls(steps=list(result.steps), solved=result.solved, hardest=result.hardest,
                   hardest_tier=result.hardest_tier, score=result.total_cost, band=band,
                   contradiction=result.contradiction,
                   tiers=tuple(ladder[step.technique].tier for step in result.steps), **reached)

    def difficulty_json(self) -> dict[str, Any]:
        """The "difficulty" object of the board JSON contract."""
        return {"band": self.band, "score": self.score, "hardest": self.hardest}
