"""Planting an answer and drawing regions around it.

The board is built back to front: first a random valid answer (k stars per row and column, none
touching), then regions grown around it so that each is one connected piece holding exactly k of the
answer's stars. The answer is then always a solution; repair.py makes it the only one.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from engine.core.grid import orthogonal_neighbours
from engine.core.regions import UNASSIGNED, grow, target_sizes
from engine.errors import DeadlineExceeded
from engine.games.starbattle.count import monotonic, new_search
from engine.games.starbattle.rules import Rules

PLANT_NODE_BUDGET = 20_000     # a random layout is found in tens of nodes when the order is lucky


@dataclass(frozen=True, slots=True)
class Style:
    """How a drawing's regions look, after the boards people play (published boards have thinner,
    more ragged regions than free growth makes, some straight stripes, now and then one large region).

    thin: the share of growth steps that compare `tries` frontier cells: a region of at least
    `thin_from` cells takes the one touching fewest of its cells (it wanders), a smaller one the one
    touching most (it fills in);
    stripes: regions (k = 1 only) drawn first as straight runs through their star, 2 to n cells;
    large: one region grown to about `large` times the mean size (0: none).
    """
    thin: float = 0.0
    thin_from: int = 0
    tries: int = 2
    stripes: int = 0
    large: float = 0.0


PLAIN = Style()          # free growth: the drawing before styles


def pick_style(rules: Rules, rng: random.Random) -> Style:
    """A style for one drawing, drawn by the seeded RNG, as measured on published boards
    (bench/bench_shape_classifier.py): at k = 1 small regions are compact and large ones wander, with
    a stripe or two on most boards; at k >= 2 every region wanders, more so with 3 stars; about one
    board in four has a large region."""
    large = rng.uniform(1.8, 2.4) if rng.random() < 0.25 else 0.0
    if rules.stars == 1:
        return Style(thin=rng.uniform(0.8, 1.0), thin_from=rules.size,
                     stripes=rng.choice((0, 1, 2, 2, 3)), large=large)
    # published boards grow more ragged with the stars: 14x14 3-star regions wander most
    return Style(thin=rng.uniform(0.4 if rules.stars == 2 else 0.8, 1.0), tries=4, large=large)


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
                 spread: float = 0.5, gifts: int = 0, style: Style = PLAIN) -> list[int] | None:
    """Regions (flat list of labels) for `answer`, or None when the stars could not be grouped.

    Each region starts from k of the answer's stars joined by a short path, then grows toward a target
    size drawn with `spread`, in the given `style`. At k = 1, `gifts` regions are left as single cells
    (a free first move).
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
    # a region aims for at least 2k cells, the smallest published regions (fewer are gifts: their
    # stars are forced; single cells at k = 1 are asked for below)
    targets = target_sizes(n * n, [max(2 * k, core) for core in cores], spread, rng)
    if style.large:
        _enlarge_one(targets, cores, style.large, rng)
    closed: set[int] = set()
    if k == 1 and gifts:
        closed.update(rng.sample(range(n), min(gifts, n - 1)))
        for label in closed:
            targets[label] = 1
    if k == 1 and style.stripes:
        for label in rng.sample(sorted(set(range(n)) - closed), min(style.stripes, n - len(closed))):
            targets[label] = _stripe(n, regions, answer[label], label, rng)
            closed.add(label)
    return grow(n, regions, targets, rng, closed=frozenset(closed), thin=style.thin,
                thin_from=style.thin_from, tries=style.tries)


def _enlarge_one(targets: list[int], minimums: list[int], factor: float, rng: random.Random) -> None:
    """Make one region about `factor` times the mean size, shrinking the others to keep the total."""
    total = sum(targets)
    mean = total / len(targets)
    big = rng.randrange(len(targets))
    targets[big] = max(targets[big], round(factor * mean))
    rest = total - targets[big]
    others = sum(t for i, t in enumerate(targets) if i != big)
    for i, t in enumerate(targets):
        if i != big:
            targets[i] = max(minimums[i], round(t * rest / others))


def _stripe(n: int, regions: list[int], star: int, label: int, rng: random.Random) -> int:
    """Claim a straight run of free cells through `star` (along its row or its column, 2 to n cells
    long) for `label`; returns the run's length."""
    r, c = divmod(star, n)
    step = 1 if rng.random() < 0.5 else n
    along = c if step == 1 else r
    length = rng.randint(2, n)
    low = high = star
    while high - low + step <= (length - 1) * step:
        ends = []
        if along - (star - low) // step > 0 and regions[low - step] == UNASSIGNED:
            ends.append(low - step)
        if along + (high - star) // step < n - 1 and regions[high + step] == UNASSIGNED:
            ends.append(high + step)
        if not ends:
            break
        end = rng.choice(ends)
        low, high = min(low, end), max(high, end)
    for cell in range(low, high + 1, step):
        regions[cell] = label
    return (high - low) // step + 1


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
