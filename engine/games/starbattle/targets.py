"""Shape targets: where the published boards of one kind sit, in the features a classifier reads.

A likeness (engine/games/starbattle/likeness.py) can only keep or refuse maps; a style that can still
move cells (the interlocking style's `tune`, after repair) can instead pull a map toward the published
boards of its kind. A Target is the mean and spread of each feature over one kind of published board (fitted
by bench/fit_targets.py); the distance of a map to it is the sum of squared standardised gaps, the
sorted region sizes counting together as much as SIZE_SHARE of the other features (n of them would
otherwise outweigh the outline). Pure evaluation: the tables live in the style's own data module.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.games.starbattle.shape import Look, ShapeFeatures, measure

# The features after the sorted region sizes (each size / n), in order; a fitted table repeats them.
SCALARS = ("boundary_per_row", "perimeter_per_cell", "fill", "interior_per_row", "largest_share",
           "mirrored", "corners_per_row", "rectangles", "geometric")
SIZE_SHARE = 0.5             # the n size gaps together weigh as much as half the scalars


def names(n: int) -> tuple[str, ...]:
    """The feature names of an n x n map: size1 (the smallest region / n) .. size<n>, then SCALARS."""
    return tuple(f"size{i + 1}" for i in range(n)) + SCALARS


def features(n: int, regions: Sequence[int]) -> list[float]:
    """The sorted region sizes / n, then SCALARS (the features bench/bench_shape_classifier.py reads,
    less the counts of tiny and straight regions, which published 3-star boards all but never have)."""
    return features_of(n, *measure(n, regions))


def features_of(n: int, shape: ShapeFeatures, seen: Look) -> list[float]:
    """`features` from a map's measure (engine.games.starbattle.shape.measure), for a caller that has
    it."""
    return ([size / n for size in shape.sizes]
            + [shape.boundary_per_row, shape.perimeter_per_cell, shape.fill, shape.interior_per_row,
               seen.largest_share, seen.mirrored, seen.corners_per_row, seen.rectangles, seen.geometric])


@dataclass(frozen=True, slots=True)
class Target:
    """One kind of published board: each feature's mean and standard deviation (names(n) order), and
    the lower Cholesky factor of the correlation of the standardised features (row by row), so that
    a point can be drawn as the kind's boards spread (`sample`)."""
    names: tuple[str, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    factor: tuple[tuple[float, ...], ...] = ()

    def sample(self, rng: random.Random) -> Target:
        """A point drawn from the normal fitted to the kind's boards (the same scales): pulled toward
        it, maps spread as the published boards do, where the mean alone would bunch them up."""
        noise = [rng.gauss(0.0, 1.0) for _ in self.names]
        point = tuple(mean + scale * sum(f * z for f, z in zip(row, noise))
                      for mean, scale, row in zip(self.means, self.scales, self.factor))
        return Target(self.names, point, self.scales)

    def distance(self, n: int, regions: Sequence[int]) -> float:
        """Sum of squared standardised gaps of the map's features to the means (sizes weighted so
        that all n of them count SIZE_SHARE of the scalars)."""
        return self.distance_of(n, features(n, regions))

    def distance_of(self, n: int, values: Sequence[float]) -> float:
        """`distance` from the map's `features`."""
        if self.names != names(n):
            raise ValueError("the fitted target table was made for other features: refit it")
        size_weight = SIZE_SHARE * len(SCALARS) / n
        total = 0.0
        for index, (value, mean, scale) in enumerate(zip(values, self.means, self.scales)):
            gap = (value - mean) / scale
            total += gap * gap * (size_weight if index < n else 1.0)
        return total


def nearest(targets: dict[str, Target], n: int, regions: Sequence[int]) -> str:
    """The kind whose target the map lies closest to (ties: the first name in sorted order)."""
    return min(sorted(targets), key=lambda kind: targets[kind].distance(n, regions))


__all__ = ["SCALARS", "SIZE_SHARE", "Target", "features", "features_of", "names", "nearest"]
