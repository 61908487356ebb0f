"""The shape score of a region map: how much it looks like the boards people play.

Published boards (1,240 from one puzzle site, calibration file of BENCHMARKS.md "Gates and region
shape") and raw drawings differ in a few measurable ways; the score is 100 minus a penalty for each way a
map leaves the range of published boards (each bound lets about 97% of them through):
- gifts: regions whose stars are forced by size alone (at most 2k - 1 cells: a single cell at k = 1,
  a run of 3 at k = 2), 25 each; published boards have none;
- largest: the largest region beyond 2.5 times the mean size (n cells), 40 per mean size;
- blobby: interior cells (all four neighbours in the region) beyond 12% of the grid, 4 per percent;
- compact / stringy: region boundary edges per row below 0.6 n or above 0.85 n, 3 per 0.01 n;
- straight: regions in a single row or column beyond 3, 8 each (published boards use stripes often);
- tiny: regions of at most 3 cells beyond 3, 12 each.
Stored with its features, so a reader can see why a board was called ugly.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.grid import orthogonal_neighbours


@dataclass(frozen=True, slots=True)
class Shape:
    score: int
    gifts: int
    tiny: int
    straight: int
    largest: float                # the largest region / the mean size
    boundary_per_row: float
    interior_per_row: float
    fill: float
    perimeter_per_cell: float

    def to_json(self) -> dict:
        return {"score": self.score, "gifts": self.gifts, "tiny": self.tiny, "straight": self.straight,
                "largest": round(self.largest, 3), "boundary_per_row": round(self.boundary_per_row, 3),
                "interior_per_row": round(self.interior_per_row, 3), "fill": round(self.fill, 3),
                "perimeter_per_cell": round(self.perimeter_per_cell, 3)}


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


def gifts(features: ShapeFeatures, stars: int) -> int:
    """Regions so small that their stars are forced: at most 2k - 1 cells."""
    return sum(size <= 2 * stars - 1 for size in features.sizes)


def shape_penalties(features: ShapeFeatures, stars: int) -> dict[str, int]:
    """Each way the map leaves the range of published boards, and what it costs (module docstring)."""
    n = features.n
    boundary = features.boundary_per_row / n
    return {
        "gifts": 25 * gifts(features, stars),
        "largest": round(40 * max(0.0, features.sizes[-1] / n - 2.5)),
        "blobby": round(400 * max(0.0, features.interior_per_row / n - 0.12)),
        "compact": round(300 * max(0.0, 0.6 - boundary)),
        "stringy": round(300 * max(0.0, boundary - 0.85)),
        "straight": 8 * max(0, features.straight - 3),
        "tiny": 12 * max(0, features.tiny - 3),
    }


def shape_score(n: int, regions: Sequence[int], stars: int = 1) -> Shape:
    """The shape score (0-100) of a region map (`regions`: flat, n * n labels) for k = `stars`."""
    features = shape_features(n, regions)
    penalty = sum(shape_penalties(features, stars).values())
    return Shape(max(0, 100 - penalty), gifts(features, stars),
                 features.tiny, features.straight, features.sizes[-1] / n, features.boundary_per_row,
                 features.interior_per_row, features.fill, features.perimeter_per_cell)


@dataclass(frozen=True, slots=True)
class Look:
    """Size-normalised features of how a map is composed, in the terms that tell hand-drawn boards
    (level builders) from grown ones: a large background region, compact geometric pieces, mirrored
    boundaries."""
    largest_share: float          # the largest region / the board's cells
    mirrored: float               # share of vertical boundary bits equal to their left-right mirror
    corners_per_row: float        # polygon corners summed over regions, per row
    rectangles: float             # share of regions that are filled rectangles (bars included)
    geometric: float              # share of regions with at most 8 corners (rectangle, L, T, S/Z)

    def to_json(self) -> dict:
        return {name: round(getattr(self, name), 3) for name in self.__slots__}


def point_corners(n: int, regions: Sequence[int], i: int, j: int) -> list[tuple[int, int]]:
    """The outline corners at lattice point (i, j) (0..n each way), as (region, corners): a point is a
    corner of a region holding 1 or 3 of the 4 cells around it, two corners of one holding 2 diagonal
    ones."""
    # the four cells around the point, clockwise from the top left (-1: off the grid)
    up_row, down_row = (i - 1) * n, i * n
    a = regions[up_row + j - 1] if i > 0 and j > 0 else -1
    b = regions[up_row + j] if i > 0 and j < n else -1
    d = regions[down_row + j] if i < n and j < n else -1
    e = regions[down_row + j - 1] if i < n and j > 0 else -1
    if a == b == d == e:
        return []                                 # inside one region: no corner (the common case)
    out = []
    for label in {a, b, d, e}:
        if label == -1:
            continue
        in_a, in_d = a == label, d == label
        count = in_a + (b == label) + in_d + (e == label)
        if count == 1 or count == 3:
            out.append((label, 1))
        elif count == 2 and in_a == in_d:
            out.append((label, 2))
    return out


def region_corners(n: int, regions: Sequence[int]) -> dict[int, int]:
    """The corners of each region's outline (holes included): 4 for a rectangle, 6 for an L, 8 for a
    T, 12 for a plus (`point_corners` at every lattice point)."""
    corners: dict[int, int] = {}
    for i in range(n + 1):
        for j in range(n + 1):
            for label, count in point_corners(n, regions, i, j):
                corners[label] = corners.get(label, 0) + count
    return corners


def mirrored_bits(row: Sequence[int]) -> int:
    """How many of a row's vertical boundary bits (a border between c and c + 1?) equal the bit at
    their left-right mirror image."""
    bits = [row[c] != row[c + 1] for c in range(len(row) - 1)]
    return sum(map(operator.eq, bits, reversed(bits)))


def mirrored_share(n: int, regions: Sequence[int]) -> float:
    """The share of vertical boundary bits equal to the bit at their left-right mirror image."""
    return sum(mirrored_bits(regions[r * n:(r + 1) * n]) for r in range(n)) / (n * (n - 1))


def look(n: int, regions: Sequence[int]) -> Look:
    """The look features of a region map (`regions`: flat, n * n labels)."""
    sizes: dict[int, int] = {}
    boxes: dict[int, list[int]] = {}
    for cell, label in enumerate(regions):
        r, c = divmod(cell, n)
        sizes[label] = sizes.get(label, 0) + 1
        box = boxes.setdefault(label, [r, r, c, c])
        box[0], box[1], box[2], box[3] = min(box[0], r), max(box[1], r), min(box[2], c), max(box[3], c)
    corners = region_corners(n, regions)
    rectangles = sum(sizes[label] == (b[1] - b[0] + 1) * (b[3] - b[2] + 1) for label, b in boxes.items())
    count = len(sizes)
    return Look(max(sizes.values()) / (n * n), mirrored_share(n, regions), sum(corners.values()) / n,
                rectangles / count, sum(v <= 8 for v in corners.values()) / count)
