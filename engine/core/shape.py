"""The shape score of a region map: ragged but deliberate regions score high; rectangles, straight
slivers and long tentacles score low (they read as machine-made, or give the board away).

Score 0..100, stored with its parts so a reader can see why a board was called ugly:
- rectangles: regions of 4+ cells that fill their bounding box;
- slivers: straight lines of 3+ cells (a single cell is a deliberate gift, not a sliver);
- tentacles: cells hanging on by one edge at the end of a corridor of 3+ such cells;
- raggedness: the mean of perimeter / least perimeter for the size; hand-drawn regions sit near 1.2-1.8.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.grid import orthogonal_neighbours


@dataclass(frozen=True, slots=True)
class Shape:
    score: int
    rectangles: int
    slivers: int
    tentacles: int
    raggedness: float

    def to_json(self) -> dict:
        return {"score": self.score, "rectangles": self.rectangles, "slivers": self.slivers,
                "tentacles": self.tentacles, "raggedness": round(self.raggedness, 3)}


@dataclass(frozen=True, slots=True)
class ShapeFeatures:
    """What a region map looks like, in the terms that tell published boards from raw drawings."""
    n: int
    sizes: tuple[int, ...]        # region sizes, smallest first
    tiny: int                     # regions of at most 3 cells
    straight: int                 # regions of 2+ cells in a single row or column
    boundary_per_row: float       # edges between two regions, per row
    perimeter_per_cell: float     # mean over regions of perimeter / size
    fill: float                   # mean over regions of size / bounding-box area
    interior_per_row: float       # cells whose four neighbours are all in their region, per row


def shape_features(n: int, regions: Sequence[int]) -> ShapeFeatures:
    """The features of a region map (`regions`: flat, n * n labels)."""
    cells: dict[int, list[int]] = {}
    for cell, label in enumerate(regions):
        cells.setdefault(label, []).append(cell)
    boundary = interior = 0
    for cell, label in enumerate(regions):
        r, c = divmod(cell, n)
        boundary += (c + 1 < n and regions[cell + 1] != label) + (r + 1 < n and regions[cell + n] != label)
        interior += (0 < r < n - 1 and 0 < c < n - 1
                     and all(regions[nb] == label for nb in (cell - 1, cell + 1, cell - n, cell + n)))
    straight = 0
    fills, perimeters = [], []
    for members in cells.values():
        rows = [cell // n for cell in members]
        cols = [cell % n for cell in members]
        height, width = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
        straight += len(members) >= 2 and (height == 1 or width == 1)
        fills.append(len(members) / (height * width))
        inside = set(members)
        edges = sum(4 - sum(nb in inside for nb in orthogonal_neighbours(n)[cell]) for cell in members)
        perimeters.append(edges / len(members))
    sizes = tuple(sorted(len(members) for members in cells.values()))
    return ShapeFeatures(n, sizes, sum(size <= 3 for size in sizes), straight, boundary / n,
                         sum(perimeters) / len(perimeters), sum(fills) / len(fills), interior / n)


def _least_perimeter(size: int) -> int:
    # the most compact polyomino of `size` cells has perimeter 2 * ceil(2 * sqrt(size))
    return 2 * math.ceil(2 * math.sqrt(size))


def shape_score(n: int, regions: Sequence[int]) -> Shape:
    neighbours = orthogonal_neighbours(n)
    cells: dict[int, list[int]] = {}
    for cell, label in enumerate(regions):
        cells.setdefault(label, []).append(cell)
    rectangles = slivers = tentacles = 0
    ratios = []
    for members in cells.values():
        size = len(members)
        rows = {c // n for c in members}
        cols = {c % n for c in members}
        if size >= 3 and (len(rows) == 1 or len(cols) == 1):
            slivers += 1
        elif size >= 4 and len(rows) * len(cols) == size:
            rectangles += 1
        inside = set(members)
        perimeter = sum(4 - sum(nb in inside for nb in neighbours[c]) for c in members)
        if size > 1:
            ratios.append(perimeter / _least_perimeter(size))
        tentacles += _tentacles(neighbours, inside)
    raggedness = sum(ratios) / len(ratios) if ratios else 1.0
    penalty = 14 * rectangles + 10 * slivers + 6 * tentacles
    if raggedness < 1.15:                        # blobs: too tidy
        penalty += round(150 * (1.15 - raggedness))
    elif raggedness > 1.8:                       # spaghetti: too stringy
        penalty += round(60 * (raggedness - 1.8))
    return Shape(max(0, 100 - penalty), rectangles, slivers, tentacles, raggedness)


def _tentacles(neighbours, inside: set[int]) -> int:
    """Dead-end corridors of 3+ cells: walk in from every cell with one neighbour in the region."""
    degree = {c: sum(nb in inside for nb in neighbours[c]) for c in inside}
    count = 0
    for tip, d in degree.items():
        if d != 1:
            continue
        length, prev, here = 1, -1, tip
        while True:
            onward = [nb for nb in neighbours[here] if nb in inside and nb != prev]
            if len(onward) != 1 or degree[onward[0]] != 2:
                break
            prev, here = here, onward[0]
            length += 1
        if length >= 3:
            count += 1
    return count
