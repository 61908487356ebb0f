"""The technique table: every technique of a game as one ordered list of Technique records (Tatham's
DIFFLIST, HoDoKu's step table). A record carries its place on the ladder (`order`), its tier (the
difficulty level it belongs to), its cost per step, and a finder that looks at a state and returns a
Step or None.

Every game writes its table in this one record type. What only some games need has a field of its own
with a default that means "nothing special": the finder's options (Star Battle declares one finder
for several techniques), whether Star Battle's trials may use the technique, the compiled call and
the sentence of Sudoku's table (which setup.py reads before anything is compiled), and whether the
technique is sound only on a board with one solution.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.ladder.step import Step

Finder = Callable[[Any], "Step | None"]


@dataclass(frozen=True, slots=True)
class Technique:
    name: str
    order: int          # position on the ladder: lower is tried first
    tier: int           # difficulty level: 1 is the easiest
    cost: int           # charged once per step the technique takes
    find: Finder | None = None   # state -> Step | None; never changes the state. In a table the game
                                 # binds before the ladder asks it (Star Battle's, Sudoku's), the
                                 # finder `options` are given to, or None
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)
                                 # what the finder takes beyond the state, where one finder serves
                                 # several techniques (Star Battle's counting sizes, trial levels)
    in_trials: bool = True       # whether a trial may take it between its basic steps (Star Battle)
    in_long_trial: bool = True   # whether the long trial may: a search too broad to repeat in every
                                 # probe may not (Star Battle)
    compiled: str = ""           # the compiled finder's call, "f_fish(s, o, 2)" (Sudoku: setup.py
                                 # generates the dispatch from it)
    sentence: str = ""           # the function that words its steps (Sudoku)
    needs_unique: bool = False   # sound only where the position has at most one solution

    def __repr__(self) -> str:
        return f"Technique({self.name!r}, order={self.order}, tier={self.tier}, cost={self.cost})"


class Ladder:
    """An ordered technique table with lookup by name and capping by tier or technique."""

    def __init__(self, techniques: Iterable[Technique]):
        self.techniques: tuple[Technique, ...] = tuple(sorted(techniques, key=lambda t: t.order))
        self.by_name = {t.name: t for t in self.techniques}
        if len(self.by_name) != len(self.techniques):
            raise ValueError("technique names must be unique")

    def __iter__(self):
        return iter(self.techniques)

    def __len__(self) -> int:
        return len(self.techniques)

    def __getitem__(self, name: str) -> Technique:
        return self.by_name[name]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.techniques)

    def capped(self, cap: str | int | None) -> tuple[Technique, ...]:
        """The techniques allowed under `cap`: None for all; an int tier (that tier and below); a
        technique name (that technique and every one before it on the ladder); or "tier N"."""
        if cap is None:
            return self.techniques
        if isinstance(cap, str) and cap.startswith("tier"):
            try:
                cap = int(cap[4:].strip(" -_:"))
            except ValueError:
                raise ValueError(f"unknown cap {cap!r}") from None
        if isinstance(cap, int) and not isinstance(cap, bool):
            return tuple(t for t in self.techniques if t.tier <= cap)
        if isinstance(cap, str):
            if cap not in self.by_name:
                raise ValueError(f"unknown technique {cap!r}; known: {', '.join(self.names)}")
            top = self.by_name[cap].order
            return tuple(t for t in self.techniques if t.order <= top)
        raise ValueError(f"unknown cap {cap!r}")

    def upto(self, tier: int) -> tuple[Technique, ...]:
        return tuple(t for t in self.techniques if t.tier <= tier)

    def tier_of(self, name: str) -> int:
        return self.by_name[name].tier

    @property
    def top_of_tier(self) -> dict[int, str]:
        """Each tier's last technique on the ladder (the cap that allows that tier and those below)."""
        return {t.tier: t.name for t in sorted(self.techniques, key=lambda t: (t.tier, t.order))}


def hardest(techniques: Iterable[Technique]) -> Technique | None:
    """The technique of the highest tier among these, the latest on the ladder on ties; None for none."""
    return max(techniques, key=lambda t: (t.tier, t.order), default=None)


def in_order(techniques: Iterable[Technique]) -> tuple[Technique, ...]:
    """The techniques, each given its place on the ladder (`order`) where it stands: a table written
    as a list, the cheapest first, whose rows may be another game's techniques."""
    return tuple(replace(t, order=place) for place, t in enumerate(techniques))


def ladder_of(techniques: Sequence[Technique] | Ladder) -> Ladder:
    return techniques if isinstance(techniques, Ladder) else Ladder(techniques)
