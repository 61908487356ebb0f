"""Tango (LinkedIn's daily binary puzzle): fill an even n x n grid with suns and moons, n/2 of each in
every row and column, never three alike side by side, the = and × clues between neighbours obeyed.
Count with a compiled row-mask search, grade like a person (pairs, sandwiches, clues, the balance,
clue pairs, the ways a line can be completed, two lines together, chains, then trial), fingerprint up
to the symmetries of the square and swapping suns and moons.

Importing the package loads the game's object alone (GAME: what the registry asks for when it lists
every game's options); the other names load their modules on first use (PEP 562: the package's
`__getattr__`)."""

from __future__ import annotations

from engine.core.exports import on_first_use
from engine.games.tango.game import GAME

# The other names the package exports -> the submodule that defines each, imported on first use.
_DEFINED_IN = {"Clue": "board", "TangoBoard": "board", "board_of": "board", "Count": "count",
               "count_solutions": "count", "Grade": "grade", "describe": "grade",
               "generate": "generator", "TangoRules": "rules", "BANDS": "rules",
               "TangoState": "techniques", "LADDER": "techniques"}

__all__ = ["BANDS", "GAME", "LADDER", "Clue", "Count", "Grade", "TangoBoard", "TangoRules", "TangoState", "board_of",
           "count_solutions", "describe", "generate"]


__getattr__, __dir__ = on_first_use(__name__, _DEFINED_IN, __all__)
