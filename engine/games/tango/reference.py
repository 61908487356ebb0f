"""Plain pure-Python references for the compiled Tango code, slow and obviously right; they exist so
that parity and soundness tests have an oracle that shares nothing with the engine:
- reference_solutions: every solution of a position, by backtracking over the cells in reading order,
  each cell trying S then M and checked against the rules the moment it is filled (a line's counts, three
  alike ending at it, the clue to its left and the clue above it);
- reference_valid_lines: the valid lines of length n, by listing every string of S and M.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from engine.games.tango.board import Clue


def reference_valid_lines(n: int) -> list[str]:
    """Every line of n symbols with n/2 suns, never three alike side by side."""
    out = []
    for symbols in product("SM", repeat=n):
        text = "".join(symbols)
        if text.count("S") * 2 == n and "SSS" not in text and "MMM" not in text:
            out.append(text)
    return out


def reference_solutions(n: int, values: str, clues: Sequence[Clue], limit: int = 10**9) -> list[str]:
    """Up to `limit` solutions of the partial grid `values` (S, M or '.' per cell) under `clues`, in
    the order of the search (S before M in reading order)."""
    left = {(c.first, c.second): c.same for c in clues if c.second == c.first + 1}
    above = {(c.first, c.second): c.same for c in clues if c.second == c.first + n}
    grid = [""] * (n * n)
    found: list[str] = []

    def fits(cell: int) -> bool:
        r, col = divmod(cell, n)
        row = grid[r * n:r * n + col + 1]
        column = [grid[k * n + col] for k in range(r + 1)]
        for line in (row, column):
            if line.count("S") > n // 2 or line.count("M") > n // 2:
                return False
            if len(line) >= 3 and line[-1] == line[-2] == line[-3]:
                return False
        if col > 0 and (cell - 1, cell) in left and (grid[cell - 1] == grid[cell]) != left[cell - 1, cell]:
            return False
        if r > 0 and (cell - n, cell) in above and (grid[cell - n] == grid[cell]) != above[cell - n, cell]:
            return False
        return True

    def search(cell: int) -> bool:
        if cell == n * n:
            found.append("".join(grid))
            return len(found) >= limit
        for symbol in ("S", "M"):
            if values[cell] != "." and values[cell] != symbol:
                continue
            grid[cell] = symbol
            if fits(cell) and search(cell + 1):
                return True
        grid[cell] = ""
        return False

    search(0)
    return found


__all__ = ["reference_solutions", "reference_valid_lines"]
