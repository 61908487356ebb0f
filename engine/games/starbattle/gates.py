"""The bars a Star Battle family board must clear to be kept: the fun of its solve path and the shape of
its regions. One table for the generator and for `solve` (`StarFamily.gates`).

Calibrated on published boards (bench/bench_gates.py, BENCHMARKS.md "Gates and region shape"): 95-97%
of Queens 8x8 and Star Battle 10x10 boards pass both; re-run that bench whenever the ladder or the
scores change, since the fun score stands on the ladder's tiers.
"""

from __future__ import annotations

from dataclasses import replace

from engine.games.base import Gates
from engine.games.starbattle.rules import Rules

# Fun: about the 7th percentile of published boards of that star count (the ladder's tiers; boards it
# does not finish are left out, their paths being partial); for one star, of the daily Queens boards,
# whose hardest step often comes past the middle of the solve (a bar of 55 called 7-14% of them dull).
# Shape: 70, where one gift (some published boards have one) passes with little else wrong.
_BY_STARS = {1: Gates(min_fun=42, min_shape=70), 2: Gates(min_fun=60, min_shape=70),
             3: Gates(min_fun=60, min_shape=70)}

# The shape bounds come from published boards of 8x8 to 14x14 (the calibration file's sizes) and do not
# carry to larger maps: raw 20x20 drawings leave them on every count, and the gate turned nearly every
# drawing away (Queens 20x20 took minutes or timed out). Larger boards have no shape gate; their shape
# score is still measured and stored.
SHAPE_MEASURED_UP_TO = 14


def gates_for(rules: Rules) -> Gates:
    """The gates for boards of these rules (by star count; more stars than measured take the last; no
    shape gate beyond the sizes the shape was measured on)."""
    gates = _BY_STARS.get(rules.stars, _BY_STARS[max(_BY_STARS)])
    if rules.size > SHAPE_MEASURED_UP_TO:
        return replace(gates, min_shape=None)
    return gates


__all__ = ["SHAPE_MEASURED_UP_TO", "gates_for"]
