"""puzzlefleet's engine: pure computation, no I/O. Every random choice flows from a seed passed in.

Public API: `Rules`/`Board` values, `generate`, `count_solutions`, the puzz.link codec, typed errors.
The compiled modules (`_search`) are private; this package maps options onto them.
"""

from engine.core.rng import derive_seed
from engine.errors import DeadlineExceeded, InvalidBoard, InvalidRules, PuzzleError
from engine.games.starbattle import (Board, Count, GenerationStats, Rules, Settings, count_solutions,
                                     generate)
from engine.games.starbattle.generator import describe
from engine.games.starbattle.grade import BANDS
from engine.games.starbattle.pzpr import from_url, to_url
from engine.version import ENGINE_VERSION


GAMES = ("queens", "starbattle")

__all__ = ["BANDS", "ENGINE_VERSION", "GAMES", "Board", "Count", "DeadlineExceeded", "GenerationStats",
           "InvalidBoard", "InvalidRules", "PuzzleError", "Rules", "Settings", "count_solutions",
           "derive_seed", "describe", "from_url", "generate", "to_url"]
