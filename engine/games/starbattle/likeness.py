"""How much more often people draw a map like this one than a drawing style does: a fitted ratio.

A style's drawing code has its own habits (too many bars, a blobby background...) that no bound on
one feature removes: the classifier of bench/bench_shape_classifier.py sees them together. So a style
may keep each finished map with a probability proportional to the density ratio
p(published | features) / p(drawn | features), estimated by a logistic regression fitted (by
bench/fit_likeness.py, on the style's own unsampled output against its calibration corpus) on the
size-normalised features below. Kept this way, the maps a style stores are distributed, in these
features, as the corpus is (rejection sampling: the probability is the ratio over a cap, the ratio
of the cap-th quantile of the style's own maps, clipped at 1).

The model is a table of numbers in the style's module, a fit per star count and per size with enough
published boards (other sizes are not sampled); this module only evaluates it. A style may ask a
second table at the other stage (interlocking's FINISHED: the finished map, after a fit judged on the
drawing), for what the first one leaves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.games.starbattle.shape import measure

# The names of `features`, in order; the fitted table repeats them, so a change here fails loudly.
BASE = ("smallest", "second_smallest", "median_size", "second_largest", "largest", "tiny", "straight",
        "boundary", "perimeter_per_cell", "fill", "interior", "largest_share", "mirrored", "corners",
        "rectangles", "geometric")
NAMES = BASE + tuple(f"{name}*size" for name in BASE) + ("size",)
# With a split: each feature again times "ragged" (1 when the boundary per row lies at or above the
# split, else 0), then "ragged" itself, for a corpus drawn in two kinds (blocky and ragged boards):
# a ratio linear in the features cannot turn one hump into two, a ratio per kind can.
SPLIT_NAMES = NAMES + tuple(f"{name}*ragged" for name in BASE) + ("ragged",)


def features(n: int, regions: Sequence[int], low: int, high: int, split: float | None = None) -> list[float]:
    """The size-normalised features of a map, each also times the size term (how far n lies from 8,
    in units of 4, clamped to the fitted sizes low..high), then the size term itself; with a `split`,
    each also times the ragged indicator, then the indicator."""
    shape, seen = measure(n, regions)
    sizes = shape.sizes
    base = [sizes[0] / n, sizes[1] / n, sizes[len(sizes) // 2] / n, sizes[-2] / n, sizes[-1] / n,
            shape.tiny / n, shape.straight / n, shape.boundary_per_row / n, shape.perimeter_per_cell,
            shape.fill, shape.interior_per_row / n, seen.largest_share, seen.mirrored,
            seen.corners_per_row / n, seen.rectangles, seen.geometric]
    term = (min(max(n, low), high) - 8) / 4
    out = base + [value * term for value in base] + [term]
    if split is not None:
        ragged = float(base[BASE.index("boundary")] >= split)
        out += [value * ragged for value in base] + [ragged]
    return out


@dataclass(frozen=True, slots=True)
class Likeness:
    """A fitted logistic model (on standardised features) and the cap of its ratio per size."""
    names: tuple[str, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    log_caps: dict[int, float]     # size -> log of the ratio above which a map is always kept
    split: float | None = None     # boundary per row (/ n) from which a map counts as ragged
    # Judged on the drawing before repair (fitted to what drawings become), where turning one away
    # costs a drawing; else on the finished map, for styles whose repair moves too much for the
    # drawing to tell what the finished map will look like.
    drawn: bool = False

    def log_ratio(self, n: int, regions: Sequence[int]) -> float:
        """The model's log-odds that a map of this look is a published one."""
        if self.names != (NAMES if self.split is None else SPLIT_NAMES):
            raise ValueError("the fitted likeness table was made for other features: refit it")
        sizes = sorted(self.log_caps)
        values = features(n, regions, sizes[0], sizes[-1], self.split)
        return self.intercept + sum(w * (v - m) / s for w, v, m, s
                                    in zip(self.weights, values, self.means, self.scales))

    def keep_probability(self, n: int, regions: Sequence[int]) -> float:
        cap = self.log_caps[n]
        return math.exp(min(0.0, self.log_ratio(n, regions) - cap))

    def keep(self, n: int, regions: Sequence[int], rng: random.Random) -> bool:
        """Whether to keep this map (one draw of `rng`, always taken, so a seed gives one board)."""
        draw = rng.random()
        return draw < self.keep_probability(n, regions)


def keep(table: dict[int, Likeness], n: int, regions: Sequence[int], rng: random.Random, drawn: bool) -> bool:
    """Whether to keep a map (`drawn`: a drawing before repair, else a finished map) by the fit for its
    size, when that fit judges maps at this stage; a size without a fit of its own keeps every map (a
    neighbour's fit, with its cap, turned away 97% of Queens 12x12 maps: the ratio does not carry from
    one size to the next)."""
    fitted = table.get(n)
    return fitted is None or fitted.drawn != drawn or fitted.keep(n, regions, rng)


__all__ = ["BASE", "Likeness", "NAMES", "SPLIT_NAMES", "features", "keep"]
