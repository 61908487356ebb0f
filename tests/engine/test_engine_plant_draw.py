"""Planting an answer and drawing regions around it (engine.games.starbattle.draw)."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.regions import is_connected, labels_in_pieces
from engine.games.starbattle import Rules, count_solutions
from engine.games.starbattle.draw import draw_regions, plant
from test_engine_starbattle_support import (assert_regions_sound, assert_solution, region_cells,
                                            rows_as_regions)

PLANT_RULES = ([Rules(n) for n in (4, 5, 6, 7, 8, 9, 10, 12, 16, 20)]
               + [Rules(n, 1, True) for n in (4, 5, 6, 8, 10, 12, 16)]
               + [Rules(n, 2) for n in (8, 9, 10, 11, 12, 16)]
               + [Rules(n, 3) for n in (12, 13, 14)])

DRAW_RULES = ([Rules(n) for n in (5, 6, 7, 8, 9, 10, 12, 14)]
              + [Rules(n, 1, True) for n in (6, 8, 10)]
              + [Rules(n, 2) for n in (8, 9, 10, 12)]
              + [Rules(n, 3) for n in (12, 14)])


# ---- plant ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", PLANT_RULES, ids=str)
def test_plant_returns_a_valid_layout(rules: Rules) -> None:
    for seed in range(12):
        answer = plant(rules, random.Random(seed))
        assert isinstance(answer, tuple)
        assert_solution(rules, rows_as_regions(rules.size), answer)


@pytest.mark.parametrize("rules", PLANT_RULES, ids=str)
def test_plant_same_seed_same_answer(rules: Rules) -> None:
    for seed in (0, 1, 99, 2**40 + 7):
        first = plant(rules, random.Random(seed))
        random.seed(seed + 1)          # the global RNG must play no part
        assert plant(rules, random.Random(seed)) == first


def test_plant_consumes_only_its_own_rng() -> None:
    rng_a, rng_b = random.Random(5), random.Random(5)
    plant(Rules(9), rng_a)
    plant(Rules(9), rng_b)
    assert rng_a.random() == rng_b.random()


@pytest.mark.parametrize("rules,minimum", [(Rules(8), 45), (Rules(10), 48), (Rules(12, 1, True), 45),
                                           (Rules(10, 2), 48), (Rules(14, 3), 40)], ids=str)
def test_plant_breadth(rules: Rules, minimum: int) -> None:
    """50 seeds give (nearly) 50 different answers, not a lexicographic corner of the space."""
    answers = [plant(rules, random.Random(seed)) for seed in range(50)]
    assert len(set(answers)) >= minimum
    n = rules.size
    first_columns = Counter(answers[i][0] % n for i in range(50))
    assert len(first_columns) >= n // 2, f"first star's column only in {sorted(first_columns)}"
    assert max(first_columns.values()) <= 20, f"first star's column piles up: {first_columns}"
    # every cell of the grid is used by some answer's stars at the sizes where that is likely
    used = Counter(cell for answer in answers for cell in answer)
    assert len(used) >= 0.75 * n * n, f"only {len(used)} of {n * n} cells ever get a star"


def test_plant_breadth_over_few_layouts() -> None:
    """8x8 with the diagonal rule has 92 layouts: 60 seeds should meet a good share of them."""
    answers = {plant(Rules(8, 1, True), random.Random(seed)) for seed in range(60)}
    assert len(answers) >= 30


def test_plant_of_the_only_layouts() -> None:
    """8x8 with 2 stars has exactly two layouts (mirror images); plant must find both."""
    everything = set(count_solutions(Rules(8, 2), rows_as_regions(8), 100).solutions)
    assert len(everything) == 2
    assert {plant(Rules(8, 2), random.Random(seed)) for seed in range(40)} == everything


# ---- draw_regions --------------------------------------------------------------------------------

def _draw(rules: Rules, seed: int, **kwargs):
    rng = random.Random(seed)
    answer = plant(rules, rng)
    for _ in range(50):
        regions = draw_regions(rules, answer, rng, **kwargs)
        if regions is not None:
            return answer, regions
    raise AssertionError(f"{rules}: 50 drawings in a row failed")


@pytest.mark.parametrize("rules", DRAW_RULES, ids=str)
def test_draw_regions_sound(rules: Rules) -> None:
    n = rules.size
    for seed in range(25):
        answer, regions = _draw(rules, seed, spread=random.Random(seed).uniform(0.0, 1.5))
        assert isinstance(regions, list)
        assert all(isinstance(label, int) for label in regions)
        assert_regions_sound(rules, regions, answer)
        for members in region_cells(regions).values():
            assert is_connected(n, members)
        # the answer is a solution of the drawn board
        assert_solution(rules, regions, answer)
        assert count_solutions(rules, regions, 2, stars=answer).solutions == (answer,)


@pytest.mark.parametrize("rules", [Rules(8, 2), Rules(10, 2), Rules(12, 3), Rules(14, 3)], ids=str)
def test_draw_regions_rarely_fails(rules: Rules) -> None:
    rng = random.Random(3)
    failed = 0
    for _ in range(60):
        answer = plant(rules, rng)
        failed += draw_regions(rules, answer, rng) is None
    assert failed <= 30, f"{failed} of 60 drawings failed"


def test_draw_regions_same_seed_same_regions() -> None:
    for rules in (Rules(9), Rules(10, 2), Rules(12, 3)):
        for seed in range(5):
            assert _draw(rules, seed) == _draw(rules, seed)
        assert len({tuple(_draw(rules, seed)[1]) for seed in range(10)}) == 10


def test_draw_regions_does_not_mutate_the_answer() -> None:
    rules = Rules(10, 2)
    answer = plant(rules, random.Random(1))
    copy = tuple(answer)
    draw_regions(rules, answer, random.Random(2))
    assert answer == copy


def test_spread_controls_size_variety() -> None:
    """spread 0 gives near-equal regions; a large spread gives a wide mix of sizes."""
    def mean_spread(spread: float) -> float:
        values = []
        for seed in range(40):
            _, regions = _draw(Rules(10), seed, spread=spread)
            values.append(statistics.pstdev(Counter(regions).values()))
        return statistics.mean(values)
    even, wild = mean_spread(0.0), mean_spread(2.0)
    assert even < wild, (even, wild)


@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(DRAW_RULES[:10]), seed=st.integers(0, 2**64 - 1),
       spread=st.floats(0.0, 3.0), gifts=st.integers(0, 3))
def test_draw_regions_sound_for_any_settings(rules: Rules, seed: int, spread: float, gifts: int) -> None:
    rng = random.Random(seed)
    answer = plant(rules, rng)
    regions = draw_regions(rules, answer, rng, spread=spread, gifts=gifts)
    if regions is None:
        assert rules.stars > 1, "a 1-star drawing can always be grown"
        return
    assert_regions_sound(rules, regions, answer)


def _single_cell_regions(regions) -> int:
    return sum(1 for size in Counter(regions).values() if size == 1)


def test_gifts_zero_rarely_makes_single_cells() -> None:
    singles = sum(_single_cell_regions(_draw(Rules(9), seed, gifts=0)[1]) > 0 for seed in range(40))
    assert singles <= 10


@pytest.mark.parametrize("gifts", [1, 2, 3])
def test_gifts_make_single_cell_regions(gifts: int) -> None:
    for n in (6, 8, 10):
        for seed in range(20):
            answer, regions = _draw(Rules(n), seed, gifts=gifts)
            assert_regions_sound(Rules(n), regions, answer)
            assert _single_cell_regions(regions) >= gifts, f"n={n} seed={seed}: {sorted(Counter(regions).values())}"
            for label, members in region_cells(regions).items():
                if len(members) == 1:
                    assert members[0] in answer


def test_gifts_keep_the_drawing_sound() -> None:
    """Whatever becomes of the gifts, the drawing stays sound (this part holds today)."""
    for n in (6, 8, 10):
        for seed in range(15):
            for gifts in (1, 2, n):
                answer, regions = _draw(Rules(n), seed, gifts=gifts)
                assert_regions_sound(Rules(n), regions, answer)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.integers(0, 3), min_size=n * n,
                                                                        max_size=n * n))))
def test_labels_in_pieces_agrees_with_checking_each_region(grid: tuple[int, list[int]]) -> None:
    n, labels = grid
    cells: dict[int, list[int]] = {}
    for cell, label in enumerate(labels):
        cells.setdefault(label, []).append(cell)
    expected = sorted(label for label, members in cells.items() if not is_connected(n, members))
    assert labels_in_pieces(n, labels) == expected
