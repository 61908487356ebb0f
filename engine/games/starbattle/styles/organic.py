"""The organic style: regions grown freely from the answer's stars (the drawing of draw.py, unchanged:
the same RNG calls in the same order, so that a seed's organic board does not depend on the other styles)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.games.starbattle.shape import shape_score
from engine.games.base import Gates
from engine.games.starbattle.draw import draw_regions, pick_style
from engine.games.starbattle.gates import gates_for
from engine.games.starbattle.rules import Rules

NAME = "organic"
TUNE_STEPS = 0         # nothing to tune


def available(rules: Rules) -> bool:
    return True


def draw(rules: Rules, answer: tuple[int, ...], rng: random.Random, *, spread: float = 0.5,
         gifts: int = 0) -> list[int] | None:
    return draw_regions(rules, answer, rng, spread=spread, gifts=gifts, style=pick_style(rules, rng))


def score(rules: Rules, regions: Sequence[int]) -> int:
    return shape_score(rules.size, regions, rules.stars).score


def gates(rules: Rules) -> Gates:
    return gates_for(rules)


def tune(rules: Rules, regions: list[int], answer: tuple[int, ...], rng: random.Random,
         steps: int, drawn: Sequence[int], *, deadline: float = 0.0) -> list[int]:
    return regions        # growth has no look that repair breaks


def keep(rules: Rules, regions: Sequence[int], rng: random.Random, drawn: bool) -> bool:
    return True           # the growth is its own reference: no fitted likeness


def repair_keep(rules: Rules) -> int:
    return 2 * rules.stars        # repair's own rule: avoid leaving regions of 2k cells or fewer
