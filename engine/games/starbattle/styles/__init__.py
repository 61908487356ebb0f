"""Drawing styles: how the regions around a planted answer are drawn, one module per style.

Every style module exposes the same small interface:
- NAME: str; TUNE_STEPS: int, the boundary nudges per row `tune` is given;
- available(rules) -> bool: whether it draws boards of these rules;
- draw(rules, answer, rng, *, spread, gifts) -> flat region labels, or None when this try failed
  (each region one connected piece holding exactly k of the answer's stars);
- score(rules, regions) -> int: 0-100, how well the map has the style's look (the shape gate's score);
- repair_keep(rules) -> int: repair prefers moves leaving a region more cells than this;
- gates(rules) -> Gates: the bars a board of this style must clear (shape bound on `score`);
- tune(rules, regions, answer, rng, steps, drawn, *, deadline) -> regions: after repair, nudges that
  bring the look back (toward the style's range, or the map as `drawn` before repair) while the board
  stays unique (a style with nothing to restore returns `regions` unchanged); DeadlineExceeded when
  `deadline` (on `monotonic()`, 0 for none) passes first, never a map cut short by the clock;
- a style that finds its answer in its own drawing (PLANTS = True) has draw_planted(rules, rng, *,
  spread, gifts, deadline) -> (regions, answer), or None, in place of draw;
- keep(rules, regions, rng, drawn) -> bool: whether to go on with a map (`drawn`: the drawing, before
  repair; else the finished map), with the probability its fitted likeness gives at that stage
  (engine/games/starbattle/likeness.py), so that the maps kept are distributed as the style's published boards
  are (a style with no fitted likeness keeps every one);
- optional, repair_stall(rules) -> int: repair's `stall` (give a drawing up after that many rounds
  without a count finding fewer solutions than every one before; 0, the default: the round cap alone);
- optional, repair_roomy(rules) -> bool: repair's `roomy` (look among all the impostors for a move
  that leaves its region more than repair_keep cells; False, the default: among the most shared).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from engine.errors import InvalidRules
from engine.games.starbattle.rules import Rules
from engine.games.starbattle.styles import composed, interlocking, organic, pictured

_STYLES: dict[str, ModuleType] = {module.NAME: module for module in (organic, composed, interlocking, pictured)}


def names() -> tuple[str, ...]:
    """Every style's name (which is the default depends on the rules: `default_for`)."""
    return tuple(_STYLES)


def named(name: str) -> ModuleType:
    """The style module called `name` (InvalidRules, one line, when there is none)."""
    try:
        return _STYLES[name]
    except KeyError:
        raise InvalidRules(f"unknown style {name!r}: expected one of {', '.join(_STYLES)}") from None


def default_for(rules: Rules) -> ModuleType:
    """The style boards of these rules get when none is asked for: the style people play at that
    size. Queens at the daily boards' sizes: pictured, fitted on them; other one-star boards
    (classic-diagonal Queens, other sizes): composed, as hand-drawn Queens boards are; two and three
    stars: interlocking, as the published Star Battle site draws them."""
    if pictured.fitted(rules):
        return pictured
    return composed if composed.available(rules) else interlocking


def closest(rules: Rules, regions: Sequence[int]) -> ModuleType:
    """The style a map looks most like: of the styles that draw these rules, the one whose shape gate
    it clears by the widest margin (ties: the default). `solve` reports that style's gates."""
    default = default_for(rules)
    candidates = [default] + [style for style in _STYLES.values() if style is not default and style.available(rules)]

    def margin(style: ModuleType) -> int:
        return style.score(rules, regions) - (style.gates(rules).min_shape or 0)

    return max(candidates, key=margin)       # max keeps the first of equals: the default


def for_rules(rules: Rules, name: str | None) -> ModuleType:
    """The style `name` (None: the default) checked against the rules (InvalidRules, one line)."""
    style = default_for(rules) if name is None else named(name)
    if not style.available(rules):
        raise InvalidRules(f"style {style.NAME!r} draws only one-star boards, not {rules}")
    return style


__all__ = ["closest", "default_for", "for_rules", "named", "names"]
