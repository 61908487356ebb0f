"""Queens (one star per row, column and region, no two touching) and classic-diagonal Queens (no
two on a diagonal either): Star Battle with one star, so the Star Battle package does the work."""

from engine.games.queens.reach import UNREACHABLE
from engine.games.starbattle.game import QueensOptions, StarFamily

GAME = StarFamily("queens", "Queens", default_stars=1, options=QueensOptions, unreachable=UNREACHABLE)

__all__ = ["GAME"]
