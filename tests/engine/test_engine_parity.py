"""Parity: the compiled counter against the pure-Python reference on thousands of random boards.

Boards: connected regions grown from random seed cells, connected regions grown around a known layout
(so there is at least one solution), and arbitrary labellings using all n labels (with and without a
planted layout). For every board: the exact set of solutions, every limit giving min(limit, total)
distinct solutions, and random partial positions keeping exactly the solutions that match them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games.starbattle import Rules, count_solutions
from engine.games.starbattle.count import new_search
from engine.games.starbattle.draw import draw_regions
from engine.games.starbattle.reference import reference_solutions
from test_engine_starbattle_support import (assert_solution, grown_regions, oracle_solutions,
                                            random_labelling, random_layout)

ALL = 10**7
KINDS = ("grown", "grown-around-answer", "labelled", "labelled-around-answer")
K1_RULES = [Rules(n, 1, d) for n in range(4, 8) for d in (False, True)]


def build(rules: Rules, kind: str, rng: random.Random) -> list[int]:
    n, k = rules.size, rules.stars
    if kind == "grown":
        return grown_regions(n, rng)
    if kind == "labelled":
        return random_labelling(n, rng)
    answer = random_layout(rules, rng)
    if kind == "labelled-around-answer":
        return random_labelling(n, rng, answer, k)
    if k == 1:
        return grown_regions(n, rng, seeds=answer)
    while True:
        regions = draw_regions(rules, answer, rng, spread=rng.uniform(0.0, 1.5))
        if regions is not None:
            return regions


def random_partials(rules: Rules, solutions: Sequence[tuple[int, ...]], rng: random.Random, count: int):
    """Partial positions: part of a real solution plus eliminations off it, or arbitrary cells."""
    cells = rules.size ** 2
    for i in range(count):
        if solutions and i % 2 == 0:
            base = rng.choice(solutions)
            stars = rng.sample(base, rng.randint(0, len(base)))
            off = [c for c in range(cells) if c not in base]
            eliminated = rng.sample(off, rng.randint(0, min(len(off), 2 * rules.size)))
        else:
            stars = rng.sample(range(cells), rng.randint(0, rules.stars * 2))
            eliminated = rng.sample(range(cells), rng.randint(0, rules.size))
        yield stars, eliminated


def check_board(rules: Rules, regions: Sequence[int], rng: random.Random, partials: int = 4) -> list:
    """Everything the parity test asserts about one board; returns the reference solutions."""
    reference = reference_solutions(rules, regions, ALL)
    expected = set(reference)
    assert len(expected) == len(reference)
    total = len(expected)

    full = count_solutions(rules, regions, total + 5)
    assert full.complete
    assert len(full.solutions) == total, f"compiled found {full.count}, reference {total}: {regions}"
    assert set(full.solutions) == expected, f"different solutions on {rules} {regions}"
    for solution in full.solutions:
        assert_solution(rules, regions, solution)

    for limit in {1, 2, rng.randint(1, total + 2), max(total, 1)}:
        got = count_solutions(rules, regions, limit)
        assert got.complete
        assert got.count == min(limit, total), (limit, total, regions)
        assert len(set(got.solutions)) == got.count
        assert set(got.solutions) <= expected

    # the same with randomised branching (what repair uses)
    search = new_search(rules, regions)
    found, complete = search.solve(total + 5, (), (), 0.0, rng.getrandbits(64) | 1, 0)
    assert complete and len(found) == total and set(found) == expected
    limit = rng.randint(1, total + 2)
    found, complete = search.solve(limit, (), (), 0.0, rng.getrandbits(64) | 1, 0)
    assert complete and len(found) == min(limit, total) == len(set(found)) and set(found) <= expected

    for i, (stars, eliminated) in enumerate(random_partials(rules, reference, rng, partials)):
        want = {s for s in expected if set(stars) <= set(s) and not set(eliminated) & set(s)}
        got = count_solutions(rules, regions, len(want) + 3, stars=stars, eliminated=eliminated)
        assert got.complete
        assert set(got.solutions) == want and got.count == len(want), (
            f"{rules} {regions} stars={stars} eliminated={eliminated}: "
            f"compiled {sorted(got.solutions)} reference {sorted(want)}")
        if i == 0:
            found, complete = search.solve(len(want) + 3, stars, eliminated, 0.0, rng.getrandbits(64) | 1, 0)
            assert complete and set(found) == want and len(found) == len(want)
    return reference


# ---- hypothesis ----------------------------------------------------------------------------------

@st.composite
def labellings(draw, n: int) -> list[int]:
    """Arbitrary labellings (shrinkable) that use all n labels."""
    labels = draw(st.lists(st.integers(0, n - 1), min_size=n * n, max_size=n * n))
    places = draw(st.permutations(range(n * n)))[:n]
    for label, cell in enumerate(places):
        labels[cell] = label
    return labels


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(K1_RULES), kind=st.sampled_from(KINDS), seed=st.integers(0, 2**64 - 1))
def test_k1_parity_on_random_boards(rules: Rules, kind: str, seed: int) -> None:
    rng = random.Random(seed)
    check_board(rules, build(rules, kind, rng), rng)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=st.sampled_from(K1_RULES))
def test_k1_parity_on_shrinkable_labellings(data, rules: Rules) -> None:
    regions = data.draw(labellings(rules.size))
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    check_board(rules, regions, rng)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=st.sampled_from(K1_RULES), kind=st.sampled_from(KINDS))
def test_k1_partial_positions_drawn_by_hypothesis(data, rules: Rules, kind: str) -> None:
    n = rules.size
    regions = build(rules, kind, random.Random(data.draw(st.integers(0, 2**32 - 1))))
    reference = set(reference_solutions(rules, regions, ALL))
    stars = data.draw(st.sets(st.integers(0, n * n - 1), max_size=3))
    eliminated = data.draw(st.sets(st.integers(0, n * n - 1), max_size=2 * n))
    want = {s for s in reference if stars <= set(s) and not eliminated & set(s)}
    got = count_solutions(rules, regions, len(want) + 2, stars=sorted(stars), eliminated=sorted(eliminated))
    assert got.complete
    assert set(got.solutions) == want and got.count == len(want)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**64 - 1))
def test_k2_parity_8x8(kind: str, seed: int) -> None:
    rng = random.Random(seed)
    rules = Rules(8, 2)
    check_board(rules, build(rules, kind, rng), rng)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**64 - 1))
def test_k2_parity_9x9(kind: str, seed: int) -> None:
    rng = random.Random(seed)
    rules = Rules(9, 2)
    check_board(rules, build(rules, kind, rng), rng)


# ---- seeded sweeps (the same boards on every run) -----------------------------------------------

@pytest.mark.slow
def test_k1_parity_seeded_sweep() -> None:
    rng = random.Random(20240601)
    boards = solved = 0
    for i in range(1600):
        rules = K1_RULES[i % len(K1_RULES)]
        kind = KINDS[(i // len(K1_RULES)) % len(KINDS)]
        reference = check_board(rules, build(rules, kind, rng), rng, partials=2)
        boards += 1
        solved += bool(reference)
    assert boards == 1600
    assert solved > 600, "too few boards with a solution: the sweep would prove little"


@pytest.mark.slow
@pytest.mark.parametrize("n,count", [(8, 60), (9, 8)])
def test_k2_parity_seeded_sweep(n: int, count: int) -> None:
    rng = random.Random(7000 + n)
    rules = Rules(n, 2)
    solved = 0
    for i in range(count):
        reference = check_board(rules, build(rules, KINDS[i % len(KINDS)], rng), rng)
        solved += bool(reference)
    assert solved >= count // 2


@pytest.mark.slow
def test_oracle_agrees_with_reference() -> None:
    """The independent oracle (used where the reference is too slow) is itself checked here."""
    rng = random.Random(99)
    for i in range(224):
        rules = K1_RULES[i % len(K1_RULES)] if i < 200 else Rules(9 if i % 6 == 0 else 8, 2)
        regions = build(rules, KINDS[i % len(KINDS)], rng)
        assert sorted(oracle_solutions(rules, regions)) == sorted(reference_solutions(rules, regions, ALL))
