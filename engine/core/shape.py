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
