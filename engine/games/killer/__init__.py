"""Killer Sudoku 9x9: cages with sums over a Sudoku grid. Count with a compiled search that knows the
cage sums, grade like a person (cage combinations, the rule of 45, then Sudoku's own ladder),
fingerprint up to the Sudoku symmetries that keep the sums.

Importing the package loads the game's object alone (GAME: what the registry asks for when it lists
every game's options); the other names load their modules on first use (PEP 562: the package's
`__getattr__`)."""

from __future__ import annotations

from engine.core.exports import on_first_use
from engine.games.killer.game import GAME

# The other names the package exports -> the submodule that defines each, imported on first use.
_DEFINED_IN = {"Cage": "board", "KillerBoard": "board", "board_of": "board", "Count": "count",
               "count_solutions": "count", "Grade": "grade", "describe": "grade",
               "BANDS": "rules"}

__all__ = ["GAME", "BANDS", "Cage", "Count", "Grade", "KillerBoard", "board_of", "count_solutions", "describe"]


__getattr__, __dir__ = on_first_use(__name__, _DEFINED_IN, __all__)
