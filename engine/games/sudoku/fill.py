"""A random complete grid from a seed: the compiled search on an empty grid, trying the digits of
every branch in an order drawn from the seed. Same seed, same grid (the draw is a splitmix64 stream,
not Python's random, so it does not depend on the Python version)."""

from __future__ import annotations

from engine.games.sudoku._count import solve
from engine.games.sudoku.count import ALL

SEED_MASK = (1 << 64) - 1


def fill(seed: int) -> str:
    """A complete valid grid as 81 digits."""
    found, _, _ = solve([ALL] * 81, 1, 0.0, True, seed & SEED_MASK)
    return found[0]
