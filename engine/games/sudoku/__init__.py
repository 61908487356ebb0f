"""Sudoku 9x9: fill a grid, dig clues (capped by the technique ladder or by clue count), count,
grade like a person, fingerprint up to the Sudoku symmetries."""

from engine.games.sudoku.board import SudokuBoard, parse_line
from engine.games.sudoku.count import Count, count_solutions
from engine.games.sudoku.generator import CLUE_BANDS, GenerationStats, describe, generate
from engine.games.sudoku.grade import Grade, grade
from engine.games.sudoku.techniques import BANDS
from engine.games.sudoku.game import GAME

__all__ = ["GAME", "BANDS", "CLUE_BANDS", "Count", "GenerationStats", "Grade", "SudokuBoard", "count_solutions",
           "describe", "generate", "grade", "parse_line"]
