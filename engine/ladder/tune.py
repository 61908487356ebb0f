"""Tuning a board toward a difficulty band, written once for every game.

A drawn board that lands near the asked band can be nudged into it: apply one small change the game
offers (a region boundary cell handed to the neighbouring region, a given moved...), measure the
result, and keep the change only when the board is still proved unique and its measured difficulty
lies closer to the band than before; otherwise the change is undone (the loop simply goes on from the
board it had). It stops once the board is in the band, or when its budget of changes is spent.

The game supplies the two halves as callables, so the loop knows nothing of boards:
    nudge(board, rng) -> board | None      one changed copy (None: this try found no change to make)
    distance(board) -> Distance | None     how far its measured difficulty lies from the band, 0 (or
                                           a tuple starting 0) when in it; None when the board is not
                                           unique or cannot be graded (never kept)
Distances compare as tuples do: (band gap, how far the score lies from the band's edge), say.

Every random choice comes from the `rng` passed in, so a seed gives one result.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from time import monotonic
from typing import Any, Generic, TypeVar

from engine.errors import DeadlineExceeded

B = TypeVar("B")
Distance = Any          # an int or a tuple of numbers, compared as Python compares them


def in_band(distance: Distance) -> bool:
    """Whether a distance says the board is in the band (0, or a tuple whose first part is 0)."""
    return (distance[0] if isinstance(distance, tuple) else distance) == 0


def closer(candidate: Distance | None, current: Distance) -> bool:
    """The keep rule: a change is kept only when the changed board is measured (unique and graded)
    and lies strictly closer to the band than the board it came from."""
    return candidate is not None and candidate < current


@dataclass(frozen=True, slots=True)
class Tuned(Generic[B]):
    board: B
    distance: Distance
    tried: int          # changes tried (nudges the game made)
    measured: int       # changed boards measured
    kept: int           # changes kept

    @property
    def in_band(self) -> bool:
        return in_band(self.distance)

    def to_json(self) -> dict[str, int | bool]:
        return {"tried": self.tried, "measured": self.measured, "kept": self.kept, "in_band": self.in_band}


def tune(board: B, distance: Distance, *, nudge: Callable[[B, random.Random], B | None],
         measure: Callable[[B], Distance | None], rng: random.Random, budget: int,
         deadline: float = 0.0) -> Tuned[B]:
    """Nudge `board` (whose measured `distance` is given) toward its band for at most `budget` tries,
    keeping each change the keep rule (`closer`) accepts. Raises DeadlineExceeded once
    time.monotonic() passes `deadline` (0: none): a result is never cut short by the clock, so a
    seed always gives the same board."""
    tried = measured = kept = 0
    while tried < budget and not in_band(distance):
        if deadline and monotonic() > deadline:
            raise DeadlineExceeded(f"tuning ran out of time after {tried} changes")
        tried += 1
        candidate = nudge(board, rng)
        if candidate is None:
            continue
        measured += 1
        found = measure(candidate)
        if closer(found, distance):
            board, distance, kept = candidate, found, kept + 1
    return Tuned(board, distance, tried, measured, kept)


__all__ = ["Distance", "Tuned", "closer", "in_band", "tune"]
