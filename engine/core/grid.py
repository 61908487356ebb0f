"""Square-grid geometry shared by every game: cells are numbered r * n + c, rows and columns from 0."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache


@cache
def orthogonal_neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    """For each cell, the cells sharing an edge with it (regions grow and connect through these)."""
    out = []
    for r in range(n):
        for c in range(n):
            out.append(tuple(rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                             if 0 <= rr < n and 0 <= cc < n))
    return tuple(out)


@cache
def lines(n: int) -> tuple[tuple[int, ...], ...]:
    """The rows, then the columns, each as its cells."""
    return (tuple(tuple(r * n + c for c in range(n)) for r in range(n))
            + tuple(tuple(r * n + c for r in range(n)) for c in range(n)))


def area_cells(areas: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """The cells of each area (a region, a box) of a grid given as rows of area labels, by label."""
    n = len(areas)
    cells: dict[int, list[int]] = {}
    for r, row in enumerate(areas):
        for c, label in enumerate(row):
            cells.setdefault(label, []).append(r * n + c)
    return tuple(tuple(group) for _, group in sorted(cells.items()))


def symmetries(n: int) -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the square as cell permutations: image[i] is where cell i goes."""
    return _symmetries(n)


@cache
def _symmetries(n: int) -> tuple[tuple[int, ...], ...]:
    def cell(r: int, c: int) -> int:
        return r * n + c
    maps = []
    for transpose in (False, True):
        for flip_r in (False, True):
            for flip_c in (False, True):
                image = []
                for r in range(n):
                    for c in range(n):
                        rr, cc = (c, r) if transpose else (r, c)
                        rr = n - 1 - rr if flip_r else rr
                        cc = n - 1 - cc if flip_c else cc
                        image.append(cell(rr, cc))
                maps.append(tuple(image))
    return tuple(maps)
