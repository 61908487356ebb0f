"""Killer Sudoku 9x9: cages with sums over a Sudoku grid. Count with a compiled search that knows the
cage sums, grade like a person (cage combinations, the rule of 45, then Sudoku's own ladder),
fingerprint up to the Sudoku symmetries that keep the sums.

Importing the package loads the game's object alone (GAME: what the registry asks for when it lists
every game's options); the other names load their modules on first use."""

import sys
from importlib import import_module
from types import ModuleType
from typing import Any

from engine.games.killer.game import GAME

# name -> the module that defines it
_LAZY = {"Cage": "board", "KillerBoard": "board", "board_of": "board", "Count": "count",
         "count_solutions": "count", "Grade": "grade", "describe": "grade", "grade": "grade", "BANDS": "rules"}


# `grade` is a function here and a module beside it: as when it was imported eagerly, the package's
# `grade` stays the function when the import system loads the module later (it sets the package's
# attribute of the module's name).
_SHADOWED = frozenset({"grade"})


class _Package(ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


__all__ = ["GAME", "BANDS", "Cage", "Count", "Grade", "KillerBoard", "board_of", "count_solutions", "describe",
           "grade"]
