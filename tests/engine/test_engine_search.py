"""The compiled search (engine/games/starbattle/_search.pyx) visits the tree of its plain Python twin
(reference.ReferenceSearch) node for node: the same solutions in the same order, the same node counts
and the same random answers, on random maps of every star count, with and without the diagonal rule,
givens, node budgets and random branching."""

from __future__ import annotations

import random

import pytest

from engine.core.regions import UNASSIGNED, grow
from engine.games.starbattle._search import Search
from engine.games.starbattle.reference import ReferenceSearch


def random_map(n: int, rng: random.Random) -> list[int]:
    """Regions grown from random seeds toward lognormal sizes (even to very uneven maps)."""
    regions = [UNASSIGNED] * (n * n)
    for label, cell in enumerate(rng.sample(range(n * n), n)):
        regions[cell] = label
    spread = rng.choice([0.1, 0.5, 1.0])
    targets = [max(1, int(rng.lognormvariate(0, spread) * n)) for _ in range(n)]
    return grow(n, regions, targets, rng)


@pytest.mark.parametrize("seed", range(6))
def test_search_visits_the_reference_tree(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(30):
        k = rng.choice([1, 1, 2, 2, 3])
        n = rng.randint(max(4, 4 * k - 2), 10 if k < 3 else 12) if rng.random() < 0.9 else rng.randint(4 * k, 16 if k == 1 else 14)
        diagonals = k == 1 and rng.random() < 0.3
        regions = random_map(n, rng)
        old, new = ReferenceSearch(n, k, diagonals, regions), Search(n, k, diagonals, regions)
        for turn in range(3):
            if turn and rng.random() < 0.5:
                regions = random_map(n, rng)
                old.set_regions(regions)
                new.set_regions(regions)
            limit = rng.choice([1, 2, 9, 50])
            branching = rng.choice([0, rng.getrandbits(64) | 1])
            budget = rng.choice([200, 2000, 8000])
            stars = tuple(rng.sample(range(n * n), rng.choice([1, 2]))) if rng.random() < 0.3 else ()
            ruled_out = tuple(rng.sample(range(n * n), rng.choice([3, 10]))) if rng.random() < 0.3 else ()
            expected = old.solve(limit, stars, ruled_out, 0.0, branching, budget)
            assert new.solve(limit, stars, ruled_out, 0.0, branching, budget) == expected
            assert new.node_count == old.node_count
            answer_seed = rng.getrandbits(64)
            assert new.random_solution(answer_seed, 0.0, 5000) == old.random_solution(answer_seed, 0.0, 5000)
            assert new.node_count == old.node_count


def test_search_refuses_what_the_reference_refuses() -> None:
    good = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]
    for cls in (ReferenceSearch, Search):
        search = cls(4, 1, False, good)
        for bad in ([0] * 16, good[:-1] + [4], good[:-1]):
            with pytest.raises(ValueError):
                search.set_regions(bad)
        with pytest.raises(ValueError):
            search.solve(1, (16,))
        with pytest.raises(ValueError):
            search.solve(0)
        # a refused map leaves the one before
        assert search.solve(5) == ([(1, 7, 8, 14), (2, 4, 11, 13)], True)


@pytest.mark.parametrize("seed", range(30))
def test_moving_cells_leaves_the_search_as_set_regions_would(seed: int) -> None:
    """move_cells (repair's round: a region hands cells to a neighbour) against a search loaded with
    the moved map: the same solutions, in the same order, with the same node counts."""
    rng = random.Random(seed)
    n = rng.choice([5, 6, 8, 9, 10, 12])
    k = 1 if n < 8 else rng.choice([1, 2])
    diagonals = k == 1 and rng.random() < 0.3
    regions = random_map(n, rng)
    moved = Search(n, k, diagonals, regions)
    for _ in range(6):
        source = rng.randrange(n)
        cells = [cell for cell in range(n * n) if regions[cell] == source]
        if len(cells) < 2:
            continue
        target = rng.choice([label for label in range(n) if label != source])
        cells = rng.sample(cells, rng.randrange(1, len(cells)))
        moved.move_cells(cells, target)
        for cell in cells:
            regions[cell] = target
        fresh = Search(n, k, diagonals, regions)
        branching = rng.getrandbits(64) | 1
        assert moved.solve(9, (), (), 0.0, branching, 50000) == fresh.solve(9, (), (), 0.0, branching, 50000)
        assert moved.node_count == fresh.node_count


def test_moving_cells_refuses_what_would_empty_a_region() -> None:
    good = [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]
    search = Search(4, 1, False, good)
    for cells, target in (([8, 9, 12, 13], 3), ([0], 4), ([0], -1), ([16], 1)):
        with pytest.raises(ValueError):
            search.move_cells(cells, target)
    # a refused move leaves the map as it was
    assert search.solve(5) == ([(1, 7, 8, 14), (2, 4, 11, 13)], True)
