"""What a Sudoku generation request names: the size (always 9) and how bands are measured.

Text form (what a job or a worker passes around, as Star Battle's `Rules` text): "sudoku 9" for bands
by technique, "sudoku 9 by-clues" for bands by clue count. `parse(str(r)) == r`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import InvalidRules

# Here rather than beside the generator and the ladder (which import them from here), so that the
# game's object and its request options load without either: a command making other boards lists
# Sudoku's options without importing its generator.
BANDS = ("easy", "medium", "hard", "expert", "beyond")     # the technique bands, easiest first
BAND_BY = ("technique", "clues")                               # how a request's band is measured
GENERATED = BANDS[:-1]                  # technique bands a board can be generated for
CLUE_BANDS = {"easy": (36, 40), "medium": (30, 35), "hard": (24, 29)}      # givens, by clue band


@dataclass(frozen=True, slots=True)
class SudokuRules:
    size: int = 9
    band_by: str = "technique"

    game = "sudoku"

    def __post_init__(self) -> None:
        if self.size != 9:
            raise InvalidRules(f"sudoku is 9x9 only, not {self.size}x{self.size}")
        if self.band_by not in BAND_BY:
            raise InvalidRules(f"unknown band_by {self.band_by!r}: expected one of {', '.join(BAND_BY)}")

    def __str__(self) -> str:
        return f"sudoku {self.size}" + (" by-clues" if self.band_by == "clues" else "")

    def to_json(self) -> dict[str, int]:
        return {"size": self.size}

    @classmethod
    def parse(cls, text: str) -> SudokuRules:
        words = text.split()
        if not words or words[0] != "sudoku" or len(words) > 3 or (len(words) == 3 and words[2] != "by-clues"):
            raise InvalidRules(f"expected 'sudoku 9' or 'sudoku 9 by-clues', got {text!r}")
        try:
            size = int(words[1]) if len(words) > 1 else 9
        except ValueError:
            raise InvalidRules(f"{words[1]!r} is not a size") from None
        return cls(size, "clues" if len(words) == 3 else "technique")
