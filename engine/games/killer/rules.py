"""What a Killer Sudoku generation request names: the size, always 9. Text form "killer 9"."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidRules

# Here rather than beside the ladder and the generator (which import them from here), so that the
# game's object loads without either: a command making other boards lists Killer's options without
# importing its generator.
BANDS = ("easy", "medium", "hard", "expert", "beyond")     # the graded bands, easiest first
GENERATED = ("easy", "medium", "hard", "expert")            # the bands a board can be generated for


@dataclass(frozen=True, slots=True)
class KillerRules:
    size: int = 9

    game = "killer"

    def __post_init__(self) -> None:
        if self.size != 9:
            raise InvalidRules(f"killer is 9x9 only, not {self.size}x{self.size}")

    def __str__(self) -> str:
        return f"killer {self.size}"

    def to_json(self) -> dict[str, int]:
        return {"size": self.size}

    @classmethod
    def parse(cls, text: str) -> KillerRules:
        words = text.split() if isinstance(text, str) else []
        if not words or words[0] != "killer" or len(words) > 2:
            raise InvalidRules(f"expected 'killer 9', got {text!r}")
        try:
            size = int(words[1]) if len(words) > 1 else 9
        except ValueError:
            raise InvalidRules(f"{words[1]!r} is not a size") from None
        return cls(size)
