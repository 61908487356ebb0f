"""The fun score of a solve path, 0..100, with its parts.

Hand-made boards put their hardest deduction early (about 17% into the solve; raw generated ones
about 37%), have a few "a-ha" steps (a hard step that releases a flood of easy ones; good boards about
4), keep 50-70% of the steps quick follow-ups, and never grind through a long run of hard steps.
Each part scores 0..1; the score is their weighted sum. The ramps are calibrated on the hand-made
boards of tests/data (the ladder's steps are finer than a person's moves: eliminations count as steps
too, so quick shares and hard runs read lower and longer than the figures above).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FLOOD = 3          # easier steps in a row after a hard one that make it an a-ha
WEIGHTS = {"climax": 0.30, "aha": 0.25, "quick": 0.25, "grind": 0.20}


@dataclass(frozen=True, slots=True)
class Fun:
    score: int
    climax_at: float          # where the hardest step falls, 0 = first step, 1 = last
    aha: int
    quick_share: float        # share of steps from the easiest tier
    longest_hard_run: int

    def to_json(self) -> dict:
        return {"score": self.score, "climax_at": round(self.climax_at, 3), "aha": self.aha,
                "quick_share": round(self.quick_share, 3), "longest_hard_run": self.longest_hard_run}


def fun_score(tiers: Sequence[int], *, hard_tier: int = 3) -> Fun:
    """Score a solve path given the tier of each step in order (1 = easiest); steps of `hard_tier` and
    above count as hard."""
    if not tiers:
        return Fun(0, 0.0, 0, 0.0, 0)
    top = max(tiers)
    climax_at = tiers.index(top) / max(1, len(tiers) - 1)
    aha = 0
    run = longest = 0
    for i, tier in enumerate(tiers):
        if tier >= hard_tier:
            run += 1
            longest = max(longest, run)
            follow = tiers[i + 1:i + 1 + FLOOD]
            if len(follow) == FLOOD and all(t < hard_tier for t in follow):
                aha += 1
        else:
            run = 0
    quick_share = sum(t == 1 for t in tiers) / len(tiers)
    parts = {
        "climax": _ramp(climax_at, 0.2, 0.7),
        "aha": min(aha, 4) / 4 if top >= hard_tier else 0.5,   # an all-easy path has no a-ha to give
        "quick": min(_ramp(-quick_share, -0.5, -0.1), _ramp(quick_share, 0.7, 1.0)),
        "grind": _ramp(longest / len(tiers), 0.15, 0.5),
    }
    score = round(100 * sum(WEIGHTS[k] * v for k, v in parts.items()))
    return Fun(score, climax_at, aha, quick_share, longest)


def _ramp(value: float, good: float, bad: float) -> float:
    """1 up to `good`, falling linearly to 0 at `bad` (good < bad)."""
    return 1.0 if value <= good else max(0.0, 1 - (value - good) / (bad - good))
