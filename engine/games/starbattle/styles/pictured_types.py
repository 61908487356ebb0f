"""The records the pictured style's fitted numbers are written as (pictured_params.py by
bench/fit_pictured.py, pictured_fit.TEXTURE by bench/fit_likeness.py --texture)."""

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
