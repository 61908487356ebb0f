"""Region growth and connectivity on a square grid, shared by every game that draws regions.

Regions grow from seed cells by random frontier growth toward target sizes, so their edges come out
ragged rather than rectangular; cells left over when every region has met its target (or is walled in)
join the smallest neighbouring region.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from engine.core import _regions
from engine.core.grid import orthogonal_neighbours

UNASSIGNED = -1


def reachable(n: int, cells: set[int], start: int) -> set[int]:
    """The cells of `cells` joined to `start` through shared edges (start included)."""
    neighbours = orthogonal_neighbours(n)
    seen = {start}
    stack = [start]
    while stack:
        for nb in neighbours[stack.pop()]:
            if nb in cells and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen


def is_connected(n: int, cells: Iterable[int]) -> bool:
    """Whether the cells form one piece through shared edges (an empty set counts as connected)."""
    members = set(cells)
    return not members or len(reachable(n, members, next(iter(members)))) == len(members)


def labels_in_pieces(n: int, labels: Sequence[int]) -> list[int]:
    """The labels of a grid (row-major, n x n) whose cells form more than one piece through shared
    edges, least first: one pass over the grid, where checking each region apart walks it again."""
    neighbours = orthogonal_neighbours(n)
    seen = [False] * (n * n)
    pieces: dict[int, int] = {}
    for start in range(n * n):
        if seen[start]:
            continue
        label = labels[start]
        pieces[label] = pieces.get(label, 0) + 1
        seen[start] = True
        stack = [start]
        while stack:
            for nb in neighbours[stack.pop()]:
                if not seen[nb] and labels[nb] == label:
                    seen[nb] = True
                    stack.append(nb)
    return sorted(label for label, count in pieces.items() if count > 1)


def stays_connected_without(n: int, regions: Sequence[int], cells: Iterable[int]) -> bool:
    """Whether the region holding `cells` is still one piece (and not empty) once they leave it."""
    leaving = set(cells)
    label = regions[next(iter(leaving))]
    rest = [i for i, lab in enumerate(regions) if lab == label and i not in leaving]
    return bool(rest) and is_connected(n, rest)


def one_piece_without(n: int, regions: Sequence[int], cell: int, label: int) -> bool:
    """Whether region `label` stays one piece without `cell` (whether or not `cell` has been given
    away yet): a walk from one of the cell's neighbours in the region reaches the others. Local and
    cheap, for moves of one boundary cell (compiled: the styles' tunings ask it thousands of times a
    board)."""
    return _regions.one_piece_without(n, regions, cell, label)


def region_sizes(regions: Sequence[int], n: int) -> list[int]:
    """The number of cells of each of the n labels (unassigned cells not counted)."""
    sizes = [0] * n
    for label in regions:
        if label != UNASSIGNED:
            sizes[label] += 1
    return sizes


def grow(n: int, regions: list[int], targets: Sequence[int], rng: random.Random, *,
         closed: frozenset[int] = frozenset(), thin: float = 0.0, thin_from: int = 0,
         tries: int = 2) -> list[int]:
    """Grow labelled regions in place until every cell is assigned; returns `regions`.

    `regions` holds region numbers for seed cells and UNASSIGNED elsewhere; `targets[label]` is the size
    that region grows toward. Each step picks a region still short of its target, weighted by how short
    it is, and gives it one random cell of its frontier. With probability `thin` the step draws
    `tries` frontier cells instead and keeps, once the region has `thin_from` cells, the one touching
    fewest cells of the region (thinner, more ragged regions), before that the one touching most (small
    regions fill in). `thin` 0 grows blobs. `closed` regions take no left-over cells (a single cell or
    a stripe keeps its shape) unless a cell has no other neighbour.
    """
    neighbours = orthogonal_neighbours(n)
    sizes = [0] * len(targets)
    frontier: list[list[int]] = [[] for _ in targets]
    for cell, label in enumerate(regions):
        if label != UNASSIGNED:
            sizes[label] += 1
            frontier[label].extend(nb for nb in neighbours[cell] if regions[nb] == UNASSIGNED)
    growing = [label for label in range(len(targets)) if sizes[label] < targets[label]]
    while growing:
        label = rng.choices(growing, weights=[targets[g] - sizes[g] for g in growing])[0]
        edge = frontier[label]
        cell = _take_free(edge, regions, rng)
        if cell == UNASSIGNED:          # walled in: this region stops here
            growing.remove(label)
            continue
        if thin and rng.random() < thin:
            wander = sizes[label] >= thin_from        # small regions fill in, large ones wander
            for _ in range(tries - 1):
                other = _take_free(edge, regions, rng)
                if other == UNASSIGNED:
                    break
                inside = [sum(regions[nb] == label for nb in neighbours[c]) for c in (cell, other)]
                if (inside[1] < inside[0]) == wander and inside[1] != inside[0]:
                    cell, other = other, cell
                edge.append(other)
        regions[cell] = label
        sizes[label] += 1
        edge.extend(nb for nb in neighbours[cell] if regions[nb] == UNASSIGNED)
        if sizes[label] >= targets[label]:
            growing.remove(label)
    _absorb_leftovers(n, regions, sizes, rng, closed)
    return regions


def _take_free(edge: list[int], regions: list[int], rng: random.Random) -> int:
    """Remove and return a random unassigned cell of a frontier (UNASSIGNED when none is left)."""
    while edge:
        i = rng.randrange(len(edge))
        edge[i], edge[-1] = edge[-1], edge[i]
        candidate = edge.pop()
        if regions[candidate] == UNASSIGNED:
            return candidate
    return UNASSIGNED


def _absorb_leftovers(n: int, regions: list[int], sizes: list[int], rng: random.Random,
                      closed: frozenset[int]) -> None:
    """Give every unassigned cell to its smallest open neighbouring region, so no region starves."""
    neighbours = orthogonal_neighbours(n)
    left = [cell for cell, label in enumerate(regions) if label == UNASSIGNED]
    rng.shuffle(left)
    allow_closed = False        # only when a pass finds nothing else to do: a cell walled in by them
    while left:
        still = []
        for cell in left:
            labels = [regions[nb] for nb in neighbours[cell]
                      if regions[nb] != UNASSIGNED and (allow_closed or regions[nb] not in closed)]
            if not labels:
                still.append(cell)
                continue
            smallest = min(labels, key=lambda lab: (sizes[lab], lab))
            regions[cell] = smallest
            sizes[smallest] += 1
        allow_closed = len(still) == len(left)
        left = still


def target_sizes(total: int, minimums: Sequence[int], spread: float, rng: random.Random) -> list[int]:
    """Target sizes summing to about `total`, each at least its minimum.

    `spread` 0 gives equal sizes (interlocking regions, longer deductions); larger values give a wide
    mix of sprawling and tiny regions (a tiny region leaves its answer few places: easier boards).
    """
    weights = [rng.lognormvariate(0.0, spread) for _ in minimums]
    scale = total / sum(weights)
    return [max(minimum, round(w * scale)) for w, minimum in zip(weights, minimums)]


def touching_areas(areas: Sequence[Sequence[int]]) -> dict[int, set[int]]:
    """For each area label of a grid (given as rows of labels), the other areas it touches. Areas
    that meet only at a corner count as touching: two equal fills meeting at a corner read as one
    area running across it."""
    n = len(areas)
    touching: dict[int, set[int]] = {label: set() for row in areas for label in row}
    for r in range(n):
        for c in range(n):
            here = areas[r][c]
            # each pair of cells once: right, down-left, down, down-right
            for rr, cc in ((r, c + 1), (r + 1, c - 1), (r + 1, c), (r + 1, c + 1)):
                if 0 <= rr < n and 0 <= cc < n and areas[rr][cc] != here:
                    touching[here].add(areas[rr][cc])
                    touching[areas[rr][cc]].add(here)
    return touching


def colour_areas(areas: Sequence[Sequence[int]], colours: int, *, budget: int = 100_000) -> dict[int, int]:
    """A colour (0..colours-1) for each area label such that touching areas (`touching_areas`) never
    share one.

    DSatur order (the area with the fewest colours left first) with backtracking, preferring the
    colour used least so far, so the colours spread over the board. Deterministic. Raises ValueError
    when no such colouring exists, or none was found within `budget` tries (a bound on the time:
    the generator's region maps are coloured in a few tries)."""
    touching = touching_areas(areas)
    labels = sorted(touching)
    chosen: dict[int, int] = {}
    used = [0] * colours
    tries = 0

    def allowed(label: int) -> list[int]:
        banned = {chosen[other] for other in touching[label] if other in chosen}
        return [c for c in range(colours) if c not in banned]

    def search() -> bool:
        nonlocal tries
        if len(chosen) == len(labels):
            return True
        tries += 1
        if tries > budget:
            return False
        options = {label: allowed(label) for label in labels if label not in chosen}
        label = min(options, key=lambda lab: (len(options[lab]), -len(touching[lab]), lab))
        for colour in sorted(options[label], key=lambda c: (used[c], c)):
            chosen[label] = colour
            used[colour] += 1
            if search():
                return True
            used[colour] -= 1
            del chosen[label]
        return False

    if not search():
        raise ValueError(f"no colouring of the areas with {colours} colours found")
    return dict(sorted(chosen.items()))
