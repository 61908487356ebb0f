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

from collections.abc import Sequence
from dataclasses import dataclass

from engine.games.starbattle._shape import measure as _measure, region_corners as _region_corners


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
    """The features of a region map (`regions`: flat, n * n labels from 0)."""
    return measure(n, regions)[0]


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


def region_corners(n: int, regions: Sequence[int]) -> dict[int, int]:
    """The corners of each region's outline (holes included): 4 for a rectangle, 6 for an L, 8 for a
    T, 12 for a plus. A lattice point is a corner of a region holding 1 or 3 of the 4 cells around it,
    two corners of one holding 2 diagonal ones."""
    return _region_corners(n, regions)


def look(n: int, regions: Sequence[int]) -> Look:
    """The look features of a region map (`regions`: flat, n * n labels from 0)."""
    return measure(n, regions)[1]


def measure(n: int, regions: Sequence[int]) -> tuple[ShapeFeatures, Look]:
    """The shape features and the look of a map, from one walk of it (compiled: _shape.pyx beside
    this module; a likeness or a style score that needs both asks once)."""
    (sizes, tiny, straight, boundary, interior, perimeter, fill, largest, mirrored, corners, rectangles,
     geometric, count) = _measure(n, regions)
    return (ShapeFeatures(n, sizes, tiny, straight, boundary / n, perimeter, fill, interior / n),
            Look(largest / (n * n), mirrored / (n * (n - 1)), corners / n, rectangles / count,
                 geometric / count))
