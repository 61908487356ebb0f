"""A plain pure-Python Killer Sudoku solution counter: backtracking over cells in order, each cell
trying the digits its row, column, box and cage do not hold, a cage checked when its last cell is
filled and cut off when its partial sum leaves no room.

Slow and obviously right; it exists so that a parity test keeps the compiled search honest.
"""

from __future__ import annotations

from collections.abc import Sequence


def reference_solutions(cage_of: Sequence[int], sums: Sequence[int], masks: Sequence[int], limit: int) -> list[str]:
    size = [0] * len(sums)
    for cage in cage_of:
        size[cage] += 1
    filled = [0] * len(sums)          # cells of each cage filled so far
    total = [0] * len(sums)           # their digits' sum
    used = [0] * (27 + len(sums))     # digits held by each row, column, box and cage, as masks
    grid = [0] * 81
    found: list[str] = []

    def units(cell: int) -> tuple[int, ...]:
        r, c = divmod(cell, 9)
        return r, 9 + c, 18 + (r // 3) * 3 + c // 3, 27 + cage_of[cell]

    def search(cell: int) -> bool:
        if cell == 81:
            found.append("".join(map(str, grid)))
            return len(found) >= limit
        cage = cage_of[cell]
        left = size[cage] - filled[cage] - 1          # cells of the cage after this one
        for d in range(9):
            bit = 1 << d
            if not masks[cell] & bit or any(used[u] & bit for u in units(cell)):
                continue
            rest = sums[cage] - total[cage] - (d + 1)
            # the cells left must make `rest` with distinct digits: between 1+2+.. and 9+8+..
            if rest < left * (left + 1) // 2 or rest > left * (19 - left) // 2:
                continue
            grid[cell] = d + 1
            filled[cage] += 1
            total[cage] += d + 1
            for u in units(cell):
                used[u] |= bit
            stop = search(cell + 1)
            for u in units(cell):
                used[u] &= ~bit
            total[cage] -= d + 1
            filled[cage] -= 1
            grid[cell] = 0
            if stop:
                return True
        return False

    search(0)
    return found
