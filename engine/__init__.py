"""puzzlefleet's engine: pure computation, no I/O. Every random choice flows from a seed passed in.

Public API: `Rules`/`Board` values, `generate`, `count_solutions`, the puzz.link codec, typed errors;
Sudoku: `SudokuBoard`, `parse_sudoku_line`, `generate_sudoku`, `describe_sudoku` (engine.games.sudoku).
The compiled modules (`_search`) are private; this package maps options onto them.
"""

from engine.core.rng import derive_seed
from engine.errors import DeadlineExceeded, InvalidBoard, InvalidRules, PuzzleError
from engine.games.starbattle import (Board, Count, GenerationStats, Rules, Settings, count_solutions,
                                     generate)
from engine.games.starbattle.generator import describe
from engine.games.starbattle.grade import BANDS
from engine.games.starbattle.pzpr import from_url, to_url
from engine.games.sudoku import SudokuBoard
from engine.games.sudoku import describe as describe_sudoku
from engine.games.sudoku import generate as generate_sudoku
from engine.games.sudoku import parse_line as parse_sudoku_line
from engine.version import ENGINE_VERSION


GAMES = ("queens", "starbattle")

__all__ = ["BANDS", "ENGINE_VERSION", "GAMES", "Board", "Count", "DeadlineExceeded", "GenerationStats",
           "InvalidBoard", "InvalidRules", "PuzzleError", "Rules", "Settings", "SudokuBoard", "count_solutions",
           "derive_seed", "describe", "describe_sudoku", "from_url", "generate", "generate_sudoku",
           "parse_sudoku_line", "to_url"]
