"""The numbers the pictured style draws its pictures with, per size; written by

    .venv/bin/python bench/fit_pictured.py --sizes 7 8 9 10 11 --write

from the shared daily Queens boards (bench/fit_pictured.py says what each number is). Refit after
changing what it measures."""

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Params:
    symmetries: tuple[str, ...]          # "lr", "ud", "half", "diag", "anti", "none"
    symmetry_odds: tuple[float, ...]     # how often each is drawn
    largest: tuple[float, ...]           # quantiles (0, 0.1, ..., 1) of the largest region's share
    spread: tuple[float, ...]            # quantiles of the other regions' size spread (sd / mean)


@dataclass(frozen=True, slots=True)
class Texture:
    """A fitted log density ratio (published over ours) on the boundary texture of a finished map
    (_pictured.TEXTURE_NAMES: how its lines meet, run and mirror), and the cap above which a map is
    always kept (bench/fit_likeness.py --texture fits it; pictured_fit.TEXTURE holds one per size)."""
    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    intercept: float
    log_cap: float

    def keep_probability(self, values: list[float]) -> float:
        ratio = self.intercept + sum(w * (v - m) / s for w, v, m, s in zip(self.weights, values, self.means, self.scales))
        return math.exp(min(0.0, ratio - self.log_cap))


PARAMS: dict[int, Params] = {
    7: Params(('lr', 'ud', 'half', 'diag', 'anti', 'none'),
              (0.3953, 0.093, 0.2326, 0.186, 0.0233, 0.0698),
              (0.2245, 0.2449, 0.2653, 0.298, 0.3061, 0.3265, 0.3673, 0.3755, 0.4204, 0.5592, 0.7551),
              (0.0, 0.3187, 0.3953, 0.4366, 0.5024, 0.5359, 0.5637, 0.6052, 0.6352, 0.726, 1.0578)),
    8: Params(('lr', 'ud', 'half', 'diag', 'anti', 'none'),
              (0.2857, 0.0804, 0.1607, 0.1607, 0.1071, 0.2054),
              (0.2031, 0.2359, 0.2656, 0.2969, 0.3125, 0.3438, 0.375, 0.4328, 0.4813, 0.5625, 0.6875),
              (0.0, 0.1943, 0.3003, 0.347, 0.4219, 0.4542, 0.503, 0.5787, 0.6432, 0.6956, 0.9973)),
    9: Params(('lr', 'ud', 'half', 'diag', 'anti', 'none'),
              (0.3469, 0.1327, 0.2143, 0.102, 0.051, 0.1531),
              (0.1852, 0.2222, 0.2469, 0.2728, 0.2963, 0.3086, 0.358, 0.3951, 0.4272, 0.4938, 0.6543),
              (0.0, 0.2492, 0.3944, 0.451, 0.4791, 0.5481, 0.5951, 0.6264, 0.694, 0.8202, 1.3236)),
    10: Params(('lr', 'ud', 'half', 'diag', 'anti', 'none'),
              (0.2703, 0.0811, 0.0811, 0.1081, 0.0541, 0.4054),
              (0.16, 0.21, 0.22, 0.268, 0.314, 0.34, 0.384, 0.46, 0.486, 0.566, 0.71),
              (0.0, 0.0893, 0.2919, 0.4546, 0.4833, 0.5164, 0.6263, 0.6689, 0.7264, 0.8889, 1.2374)),
    11: Params(('lr', 'ud', 'half', 'diag', 'anti', 'none'),
              (0.4286, 0.0714, 0.0, 0.0, 0.0714, 0.4286),
              (0.1983, 0.2174, 0.2331, 0.2545, 0.2579, 0.3017, 0.405, 0.5711, 0.5818, 0.5868, 0.5868),
              (0.0, 0.0, 0.0692, 0.3316, 0.3858, 0.5316, 0.6043, 0.6123, 0.6638, 0.6879, 0.8195)),
}
