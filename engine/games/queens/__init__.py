"""Queens (one star per row, column and region, no two touching) and classic-diagonal Queens (no
two on a diagonal either): Star Battle with one star, so the Star Battle package does the work."""

from engine.games.base import Options
from engine.games.starbattle.game import StarFamily

GAME = StarFamily("queens", "Queens", default_stars=1, options=Options(stars=False, diagonals=True))

__all__ = ["GAME"]
