"""A plain pure-Python solution counter: row by row, every way to put k stars in the row.

Slow and obviously right; it exists so that a parity test keeps the compiled search honest.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine.games.starbattle.rules import Rules


def reference_solutions(rules: Rules, regions: Sequence[int], limit: int) -> list[tuple[int, ...]]:
    n, k = rules.size, rules.stars
    column_count = [0] * n
    region_count = [0] * n
    stars: list[tuple[int, int]] = []
    found: list[tuple[int, ...]] = []

    def attacks(a: tuple[int, int], b: tuple[int, int]) -> bool:
        dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
        return max(dr, dc) <= 1 or (rules.diagonals and dr == dc)

    def row_ways(r: int):
        for columns in combinations(range(n), k):
            if any(b - a < 2 for a, b in zip(columns, columns[1:])):
                continue
            yield columns

    def place_row(r: int) -> bool:
        if r == n:
            found.append(tuple(sorted(rr * n + cc for rr, cc in stars)))
            return len(found) >= limit
        for columns in row_ways(r):
            cells = [(r, c) for c in columns]
            if any(attacks(cell, other) for cell in cells for other in stars):
                continue
            if any(column_count[c] >= k for c in columns):
                continue
            labels = [regions[r * n + c] for c in columns]
            if any(region_count[lab] + labels.count(lab) > k for lab in labels):
                continue
            for c, lab in zip(columns, labels):
                column_count[c] += 1
                region_count[lab] += 1
            stars.extend(cells)
            stop = place_row(r + 1)
            del stars[-k:]
            for c, lab in zip(columns, labels):
                column_count[c] -= 1
                region_count[lab] -= 1
            if stop:
                return True
        return False

    place_row(0)
    return found
