"""Sudoku 9x9: fill a grid, dig clues (capped by the technique ladder or by clue count), count,
grade like a person, fingerprint up to the Sudoku symmetries.

Importing the package loads the game's object alone (GAME: what the registry asks for when it lists
every game's options); the other names load their modules on first use (PEP 562: the package's
`__getattr__`)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engine.games.sudoku.game import GAME

# The other names the package exports -> the submodule that defines each, imported on first use.
_DEFINED_IN = {"SudokuBoard": "board", "parse_line": "board", "Count": "count",
               "count_solutions": "count", "CLUE_BANDS": "generator", "GenerationStats": "generator",
               "describe": "generator", "generate": "generator", "Grade": "grade",
               "BANDS": "rules"}

__all__ = ["GAME", "BANDS", "CLUE_BANDS", "Count", "GenerationStats", "Grade", "SudokuBoard", "count_solutions",
           "describe", "generate", "parse_line"]


def __getattr__(name: str) -> Any:
    """A name the package exports but has not loaded yet: imported from its submodule (PEP 562)."""
    module = _DEFINED_IN.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
