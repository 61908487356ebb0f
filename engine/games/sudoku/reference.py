"""A plain pure-Python Sudoku solution counter: backtracking, the cell with fewest candidates first.

Slow and obviously right; it exists so that a parity test keeps the compiled search honest. A
position is 81 candidate masks (bit d = digit d + 1): a cell may take any of its digits, and every
row, column and box must hold each digit once.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.sudoku.count import masks_of
from engine.games.sudoku.geometry import CELL_UNITS


def reference_solutions(position: str | Sequence[int], limit: int) -> list[str]:
    masks = masks_of(position) if isinstance(position, str) else list(position)
    used = [0] * 27                   # digits placed in each unit, as a bit mask
    grid = [0] * 81                   # 0 = not yet placed, else the digit 1..9
    found: list[str] = []

    def options(cell: int) -> int:
        taken = 0
        for u in CELL_UNITS[cell]:
            taken |= used[u]
        return masks[cell] & ~taken

    def search() -> bool:
        best, best_options, best_n = -1, 0, 10
        for cell in range(81):
            if grid[cell] == 0:
                opts = options(cell)
                n = bin(opts).count("1")
                if n < best_n:
                    best, best_options, best_n = cell, opts, n
        if best < 0:
            found.append("".join(map(str, grid)))
            return len(found) >= limit
        for d in range(9):
            if best_options >> d & 1:
                grid[best] = d + 1
                for u in CELL_UNITS[best]:
                    used[u] |= 1 << d
                stop = search()
                for u in CELL_UNITS[best]:
                    used[u] &= ~(1 << d)
                grid[best] = 0
                if stop:
                    return True
        return False

    search()
    return found
