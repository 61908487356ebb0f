"""The Star Battle family: Queens (k = 1), classic-diagonal Queens, and Star Battle with 2 or 3 stars."""

from engine.games.starbattle.board import Board
from engine.games.starbattle.count import Count, count_solutions
from engine.games.starbattle.generator import GenerationStats, Settings, generate
from engine.games.starbattle.rules import Rules
from engine.games.starbattle.game import GAME

__all__ = ["GAME", "Board", "Count", "GenerationStats", "Rules", "Settings", "count_solutions", "generate"]
