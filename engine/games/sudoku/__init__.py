"""Sudoku 9x9: fill a grid, dig clues (capped by the technique ladder or by clue count), count,
grade like a person, fingerprint up to the Sudoku symmetries.

Importing the package loads the game's object alone (GAME: what the registry asks for when it lists
every game's options); the other names load their modules on first use (PEP 562: the package's
`__getattr__`)."""

from __future__ import annotations

from engine.core.exports import on_first_use
from engine.games.sudoku.game import GAME

# The other names the package exports -> the submodule that defines each, imported on first use.
_DEFINED_IN = {"SudokuBoard": "board", "parse_line": "board", "Count": "count",
               "count_solutions": "count", "CLUE_BANDS": "generator", "GenerationStats": "generator",
               "describe": "generator", "generate": "generator", "Grade": "grade",
               "BANDS": "rules"}

__all__ = ["GAME", "BANDS", "CLUE_BANDS", "Count", "GenerationStats", "Grade", "SudokuBoard", "count_solutions",
           "describe", "generate", "parse_line"]


__getattr__, __dir__ = on_first_use(__name__, _DEFINED_IN, __all__)
