"""The styles' tune stops at the generation deadline: DeadlineExceeded before a uniqueness check past
it, never a map tuned only as far as the clock allowed (a seed must keep giving one board)."""

from __future__ import annotations

import random

import pytest

from engine.errors import DeadlineExceeded
from engine.games.starbattle import Rules, generate
from engine.games.starbattle.count import monotonic, new_search, only_solution
from engine.games.starbattle.styles import named

# Finished boards whose tune still moves cells (so it makes uniqueness checks): a finished 10x10
# two-star board is already as its tune leaves it.
CASES = [("queens 8", "composed"), ("starbattle 14 3", "interlocking")]


def _board(text: str, style: str) -> tuple[Rules, list[int], tuple[int, ...]]:
    rules = Rules.parse(text)
    board, _ = generate(rules, 3, style=style)
    return rules, list(board.regions), board.solution


@pytest.mark.parametrize("text,style", CASES)
def test_tune_past_its_deadline_raises(text: str, style: str) -> None:
    rules, regions, answer = _board(text, style)
    drawing = named(style)
    with pytest.raises(DeadlineExceeded):
        drawing.tune(rules, regions, answer, random.Random(1), 10 * rules.size, regions,
                     deadline=monotonic() - 1)
    # without a deadline (or one far off), the same draws give the same map, moved from the one given
    free = drawing.tune(rules, regions, answer, random.Random(1), 10 * rules.size, regions)
    far = drawing.tune(rules, regions, answer, random.Random(1), 10 * rules.size, regions,
                       deadline=monotonic() + 3600)
    assert free == far != regions


def test_only_solution_past_its_deadline_raises() -> None:
    rules, regions, answer = _board("queens 8", "composed")
    search = new_search(rules, regions)
    assert only_solution(search, regions, answer, 0, monotonic() + 3600)
    with pytest.raises(DeadlineExceeded):
        only_solution(search, regions, answer, 0, monotonic() - 1)
