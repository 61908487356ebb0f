"""Killer Sudoku 9x9: cages with sums over a Sudoku grid. Count with a compiled search that knows the
cage sums, grade like a person (cage combinations, the rule of 45, then Sudoku's own ladder),
fingerprint up to the Sudoku symmetries that keep the sums.

Importing the package loads the game's object alone (GAME: what the registry asks for when it lists
every game's options); the other names load their modules on first use (PEP 562: the package's
`__getattr__`)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engine.games.killer.game import GAME

# The other names the package exports -> the submodule that defines each, imported on first use.
_DEFINED_IN = {"Cage": "board", "KillerBoard": "board", "board_of": "board", "Count": "count",
               "count_solutions": "count", "Grade": "grade", "describe": "grade",
               "BANDS": "rules"}

__all__ = ["GAME", "BANDS", "Cage", "Count", "Grade", "KillerBoard", "board_of", "count_solutions", "describe"]


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
