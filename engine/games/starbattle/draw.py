"""Planting an answer and drawing regions around it.

The board is built back to front: first a random valid answer (k stars per row and column, none
touching), then regions grown around it so that each is one connected piece holding exactly k of the
answer's stars. The answer is then always a solution; repair.py makes it the only one.
"""

from __future__ import annotations

import random
from collections import deque

from engine.core.grid import orthogonal_neighbours
from engine.core.regions import UNASSIGNED, grow, target_sizes
from engine.errors import DeadlineExceeded
from engine.games.starbattle.count import monotonic, new_search
from engine.games.starbattle.rules import Rules

PLANT_NODE_BUDGET = 20_000     # a random layout is found in tens of nodes when the order is lucky


def plant(rules: Rules, rng: random.Random, deadline: float = 0.0) -> tuple[int, ...]:
    """A random answer, drawn by the compiled search with random branching and regions = rows
    (which switches the region rule off). Each try starts from a fresh random seed with a small node
    budget, so the answers spread over the whole space of layouts rather than its lexicographic corner,
    and an unlucky branching order is abandoned instead of searched to the end.

    Raises DeadlineExceeded when `deadline` (on `monotonic()`) passes first.
    """
    n = rules.size
    search = new_search(rules, [cell // n for cell in range(n * n)])
    while True:
        answer = search.random_solution(rng.getrandbits(64), deadline, PLANT_NODE_BUDGET)
        if answer is not None:
            return answer
        if deadline and monotonic() > deadline:
            raise DeadlineExceeded(f"no {rules} answer planted in time")


def draw_regions(rules: Rules, answer: tuple[int, ...], rng: random.Random, *,
                 spread: float = 0.5, gifts: int = 0) -> list[int] | None:
    """Regions (flat list of labels) for `answer`, or None when the stars could not be grouped.

    Each region starts from k of the answer's stars joined by a short path, then grows toward a target
    size drawn with `spread`. At k = 1, `gifts` regions are left as single cells (a free first move).
    """
    n, k = rules.size, rules.stars
    regions = [UNASSIGNED] * (n * n)
    if k == 1:
        for label, cell in enumerate(answer):
            regions[cell] = label
        cores = [1] * n
    else:
        grouped = _group_stars(n, k, answer, regions, rng)
        if grouped is None:
            return None
        cores = grouped
    targets = target_sizes(n * n, cores, spread, rng)
    closed: frozenset[int] = frozenset()
    if k == 1 and gifts:
        closed = frozenset(rng.sample(range(n), min(gifts, n - 1)))
        for label in closed:
            targets[label] = 1
    return grow(n, regions, targets, rng, closed=closed)


def _group_stars(n: int, k: int, answer: tuple[int, ...], regions: list[int],
                 rng: random.Random) -> list[int] | None:
    """Join the stars into n groups of k, each connected by shortest paths through free cells.

    Writes group labels into `regions` (stars and path cells) and returns each group's size; None when
    a group finds no free star within reach (the caller draws again).
    """
    neighbours = orthogonal_neighbours(n)
    is_star = set(answer)
    order = list(answer)
    rng.shuffle(order)
    sizes = []
    for start in order:
        if regions[start] != UNASSIGNED:
            continue
        label = len(sizes)
        regions[start] = label
        size = 1
        for _ in range(k - 1):
            path = _path_to_free_star(neighbours, regions, is_star, label, rng)
            if path is None:
                return None
            for cell in path:
                regions[cell] = label
            size += len(path)
        sizes.append(size)
    return sizes


def _path_to_free_star(neighbours, regions: list[int], is_star: set[int], label: int,
                       rng: random.Random) -> list[int] | None:
    """Breadth-first from the whole group through unassigned non-star cells to the nearest free star;
    returns the new cells (path and star), or None when none is reachable."""
    frontier = [cell for cell, lab in enumerate(regions) if lab == label]
    rng.shuffle(frontier)
    parent: dict[int, int] = {cell: -1 for cell in frontier}
    queue = deque(frontier)
    while queue:
        cell = queue.popleft()
        steps = list(neighbours[cell])
        rng.shuffle(steps)
        for nb in steps:
            if nb in parent or regions[nb] != UNASSIGNED:
                continue
            parent[nb] = cell
            if nb in is_star:
                path = []
                while regions[nb] == UNASSIGNED:
                    path.append(nb)
                    nb = parent[nb]
                return path
            queue.append(nb)
    return None
