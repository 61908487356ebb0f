"""Star Battle rules: n x n, k stars per row, column and region, no two touching; Queens is k = 1,
and classic-diagonal Queens adds the chess diagonals at k = 1.

Text form: "queens 8", "queens 10 diagonals", "starbattle 10 2" (size, then stars); `Rules.parse(str(r))
== r`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidRules

# Sizes with a valid layout, up to what generation does in practical time (see BENCHMARKS.md).
SIZE_RANGE = {1: (4, 20), 2: (8, 16), 3: (12, 16)}
DIAGONAL_SIZE_RANGE = (4, 16)


@dataclass(frozen=True, slots=True)
class Rules:
    size: int
    stars: int = 1
    diagonals: bool = False

    def __post_init__(self) -> None:
        if type(self.size) is not int:
            raise InvalidRules(f"size must be a whole number, not {self.size!r}")
        if type(self.stars) is not int or self.stars not in SIZE_RANGE:
            raise InvalidRules(f"stars must be 1, 2 or 3, not {self.stars!r}")
        if self.diagonals and self.stars != 1:
            raise InvalidRules("the diagonal rule is for Queens (1 star) only")
        low, high = DIAGONAL_SIZE_RANGE if self.diagonals else SIZE_RANGE[self.stars]
        if not low <= self.size <= high:
            kind = "diagonal Queens" if self.diagonals else f"{self.stars}-star boards"
            raise InvalidRules(f"size {self.size} is out of range for {kind}: {low}..{high}")

    @property
    def game(self) -> str:
        return "queens" if self.stars == 1 else "starbattle"

    @property
    def stars_total(self) -> int:
        return self.size * self.stars

    def __str__(self) -> str:
        if self.stars == 1:
            return f"queens {self.size}" + (" diagonals" if self.diagonals else "")
        return f"starbattle {self.size} {self.stars}"

    @classmethod
    def parse(cls, text: str) -> Rules:
        words = text.split()
        try:
            if words and words[0] == "queens" and len(words) in (2, 3):
                if len(words) == 3 and words[2] != "diagonals":
                    raise InvalidRules(f"unknown Queens option {words[2]!r}")
                return cls(int(words[1]), 1, len(words) == 3)
            if words and words[0] == "starbattle" and len(words) == 3:
                return cls(int(words[1]), int(words[2]))
        except ValueError as exc:
            if isinstance(exc, InvalidRules):
                raise
            raise InvalidRules(f"cannot read rules from {text!r}") from None
        raise InvalidRules(f"cannot read rules from {text!r}")

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size, "stars": self.stars, "diagonals": self.diagonals}
