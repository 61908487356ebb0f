"""The ladder loop, shared by every game.

Repeatedly ask the allowed techniques, cheapest first, for a step; apply the first one found and start
again from the bottom of the ladder (a careful person never reaches for a sledgehammer while a thumbtack
works). Stop when the state is solved, when it contradicts itself (some unit can no longer be
completed: the position had no solution, which for a proved board means a technique is unsound), or
when no allowed technique finds anything (a stall: the board needs more than the cap allows).

The state is the game's object and must provide:
    apply(step)           make the step's placements and eliminations
    is_solved() -> bool
    is_contradiction() -> bool
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from time import monotonic
from typing import Any, Protocol

from engine.errors import DeadlineExceeded
from engine.ladder.step import Step
from engine.ladder.table import Ladder, Technique, hardest


class State(Protocol):
    def apply(self, step: Step) -> None: ...
    def is_solved(self) -> bool: ...
    def is_contradiction(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class SolveResult:
    steps: tuple[Step, ...]
    solved: bool
    contradiction: bool
    hardest: str | None          # the technique of the highest tier used (latest on the ladder on ties)
    hardest_tier: int            # 0 when no step was taken
    total_cost: int

    @property
    def stalled(self) -> bool:
        return not self.solved and not self.contradiction


class NoProgress(RuntimeError):
    """A finder returned a step that changes nothing (a bug: the loop would never end)."""


def run(state: Any, techniques: Sequence[Technique] | Ladder, cap: str | int | None = None, *,
        max_steps: int | None = None, deadline: float = 0.0) -> SolveResult:
    """Solve `state` in place with the techniques allowed under `cap` (see Ladder.capped).

    Raises DeadlineExceeded once time.monotonic() passes `deadline` (0: none), checked before each
    technique is asked, so a caller with a time limit never waits on a whole slow solve."""
    ladder = techniques if isinstance(techniques, Ladder) else Ladder(techniques)
    allowed = ladder.capped(cap)
    steps: list[Step] = []
    solved = contradiction = False
    while True:
        if state.is_contradiction():
            contradiction = True
            break
        if state.is_solved():
            solved = True
            break
        if max_steps is not None and len(steps) >= max_steps:
            break
        for technique in allowed:
            if deadline and monotonic() > deadline:
                raise DeadlineExceeded(f"the ladder ran out of time after {len(steps)} steps")
            step = technique.find(state)
            if step is not None:
                break
        else:
            break                               # stalled: nothing allowed makes progress
        if not step.progress:
            raise NoProgress(f"{technique.name} returned a step that changes nothing")
        state.apply(step)
        steps.append(step)
    return summarize(steps, ladder, solved, contradiction)


def summarize(steps: Sequence[Step], ladder: Ladder, solved: bool, contradiction: bool) -> SolveResult:
    top = hardest(t for t in (ladder.by_name.get(step.technique) for step in steps) if t is not None)
    return SolveResult(tuple(steps), solved, contradiction, top.name if top else None,
                       top.tier if top else 0, sum(step.cost for step in steps))
