"""Killer Sudoku 9x9: cages with sums over a Sudoku grid. Count with a compiled search that knows the
cage sums, grade like a person (cage combinations, the rule of 45, then Sudoku's own ladder),
fingerprint up to the Sudoku symmetries that keep the sums."""

from engine.games.killer.board import Cage, KillerBoard, board_of
from engine.games.killer.count import Count, count_solutions
from engine.games.killer.grade import Grade, describe, grade
from engine.games.killer.techniques import BANDS
from engine.games.killer.game import GAME

__all__ = ["GAME", "BANDS", "Cage", "Count", "Grade", "KillerBoard", "board_of", "count_solutions", "describe",
           "grade"]
