"""puzzlefleet's engine: pure computation, no I/O. Every random choice flows from a seed passed in.

The public API is the game registry (`engine.games`): each game is a `Game` object that parses,
generates, solves, grades, describes and draws its boards; the layers above ask it instead of naming
games. Also here: the typed errors, `derive_seed` and the engine's version. The compiled modules
(`_search`, `_logic`, ...) are private to their game packages.
"""

from engine.core.rng import derive_seed
from engine.errors import DeadlineExceeded, InvalidBoard, InvalidRules, PuzzleError
from engine.games import (EdgeClue, Game, OptionSpec, Outline, all_games, bands, board_from_json, board_schema, board_schema_text,
                          board_type, check_style_filter, game_named, game_of, is_band, is_game, names, offer_table,
                          option_spec, option_specs, own_option_specs, parse_rules, recorded_option_specs, register, style_names,
                          unregister)
from engine.version import ENGINE_VERSION

__all__ = ["ENGINE_VERSION", "DeadlineExceeded", "EdgeClue", "Game", "InvalidBoard", "InvalidRules", "OptionSpec",
           "Outline", "PuzzleError",
           "all_games", "bands", "board_from_json", "board_schema", "board_schema_text", "board_type",
           "check_style_filter",
           "derive_seed", "game_named", "game_of", "is_band", "is_game", "names", "offer_table", "option_spec",
           "option_specs",
           "own_option_specs",
           "parse_rules", "recorded_option_specs", "register", "style_names", "unregister"]
