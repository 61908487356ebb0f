"""What a Tango generation request names: the size of the square grid (even, 4 to 12; 6 as LinkedIn
publishes it). Text form "tango 6"; `TangoRules.parse(str(rules)) == rules`."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidRules

# Here rather than beside the ladder and the generator (which import them from here), so that the
# game's object loads without either.
BANDS = ("easy", "medium", "hard", "expert")       # the graded bands, easiest first
SIZES = range(4, 13, 2)                              # the sizes taken: even, 4 to 12
MIN_FUN = 35            # the generator's fun gate: 2 of the 250 published boards score under it


@dataclass(frozen=True, slots=True)
class TangoRules:
    size: int = 6

    game = "tango"

    def __post_init__(self) -> None:
        if type(self.size) is not int or self.size not in SIZES:
            raise InvalidRules(f"tango grids are even sizes {SIZES[0]} to {SIZES[-1]}, not {self.size!r}")

    @property
    def half(self) -> int:
        """How many suns (and moons) each row and column holds."""
        return self.size // 2

    def __str__(self) -> str:
        return f"tango {self.size}"

    def to_json(self) -> dict[str, int]:
        return {"size": self.size}

    @classmethod
    def parse(cls, text: str) -> TangoRules:
        words = text.split() if isinstance(text, str) else []
        if not words or words[0] != "tango" or len(words) != 2:
            raise InvalidRules(f"expected 'tango N' (N even, 4 to 12), got {text!r}")
        try:
            size = int(words[1])
        except ValueError:
            raise InvalidRules(f"{words[1]!r} is not a size") from None
        return cls(size)


__all__ = ["BANDS", "MIN_FUN", "SIZES", "TangoRules"]
