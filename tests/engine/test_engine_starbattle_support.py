"""Support for the Star Battle engine tests (no tests here): an independent validity check, an
independent pruned counter (the "oracle"), and random board builders.

Nothing here calls the compiled search, so it can judge it. The oracle is a row-by-row search over
bitmasks with two bounds (a column still short of stars must have room in the rows left; a region still
short must have enough cells in the rows left); it is checked against the plain reference counter in
test_engine_parity.py, and it is fast enough to prove 10x10 2-star and 12x12 3-star boards unique.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations

from engine.core.regions import UNASSIGNED, grow
from engine.games.starbattle.rules import Rules


def attacks(n: int, diagonals: bool, a: int, b: int) -> bool:
    """Whether stars on cells a and b would break the no-touching (or diagonal) rule."""
    dr, dc = abs(a // n - b // n), abs(a % n - b % n)
    return max(dr, dc) <= 1 or (diagonals and dr == dc)


def problems(rules: Rules, regions: Sequence[int], cells: Iterable[int]) -> list[str]:
    """What is wrong with `cells` as a solution of the board (empty list: it is a solution)."""
    n, k = rules.size, rules.stars
    cells = list(cells)
    out = []
    if len(cells) != n * k:
        out.append(f"{len(cells)} stars, expected {n * k}")
    if len(set(cells)) != len(cells):
        out.append("a cell is repeated")
    if cells != sorted(cells):
        out.append("cells are not sorted")
    if any(not isinstance(c, int) or not 0 <= c < n * n for c in cells):
        out.append("a cell is off the board")
        return out
    for name, key in (("row", lambda c: c // n), ("column", lambda c: c % n),
                      ("region", lambda c: regions[c])):
        counts = Counter(key(c) for c in cells)
        for unit in range(n):
            if counts.get(unit, 0) != k:
                out.append(f"{name} {unit} has {counts.get(unit, 0)} stars")
    for a, b in combinations(set(cells), 2):
        if attacks(n, rules.diagonals, a, b):
            out.append(f"stars {a} and {b} attack each other")
    return out


def assert_solution(rules: Rules, regions: Sequence[int], cells: Iterable[int]) -> None:
    found = problems(rules, regions, cells)
    assert not found, f"not a solution of {rules}: {found}"


def oracle_solutions(rules: Rules, regions: Sequence[int], limit: int = 10**9) -> list[tuple[int, ...]]:
    """Every solution (up to `limit`) by an independent pruned row-by-row search."""
    n, k, diagonals = rules.size, rules.stars, rules.diagonals
    row_choices = [(sum(1 << c for c in cs), cs) for cs in combinations(range(n), k)
                   if all(b - a >= 2 for a, b in zip(cs, cs[1:]))]
    label = [[regions[r * n + c] for c in range(n)] for r in range(n)]

    def row_room(r: int, region: int) -> int:
        room, last = 0, -2
        for c in range(n):
            if label[r][c] == region and c - last >= 2:
                room, last = room + 1, c
        return min(k, room)

    # room[r][R]: the most stars region R can still take in rows r..n-1
    room = [[0] * n for _ in range(n + 1)]
    for r in range(n - 1, -1, -1):
        for region in range(n):
            room[r][region] = room[r + 1][region] + row_room(r, region)
    column_count = [0] * n
    region_count = [0] * n
    sums: set[int] = set()
    diffs: set[int] = set()
    stars: list[int] = []
    found: list[tuple[int, ...]] = []

    def place(r: int, previous: int) -> bool:
        if r == n:
            found.append(tuple(sorted(stars)))
            return len(found) >= limit
        blocked = previous | (previous << 1) | (previous >> 1)
        column_room = (n - r) // 2          # stars a column can still take in rows r+1..n-1
        for mask, columns in row_choices:
            if mask & blocked:
                continue
            if diagonals and any(r + c in sums or r - c in diffs for c in columns):
                continue
            if any(column_count[c] >= k for c in columns):
                continue
            for c in columns:
                column_count[c] += 1
                region_count[label[r][c]] += 1
            stop = False
            if (all(region_count[g] <= k and k - region_count[g] <= room[r + 1][g] for g in range(n))
                    and all(k - column_count[c] <= column_room for c in range(n))):
                stars.extend(r * n + c for c in columns)
                if diagonals:
                    sums.update(r + c for c in columns)
                    diffs.update(r - c for c in columns)
                stop = place(r + 1, mask)
                del stars[-k:]
                if diagonals:
                    sums.difference_update(r + c for c in columns)
                    diffs.difference_update(r - c for c in columns)
            for c in columns:
                column_count[c] -= 1
                region_count[label[r][c]] -= 1
            if stop:
                return True
        return False

    place(0, 0)
    return found


def rows_as_regions(n: int) -> list[int]:
    """Regions = rows: switches the region rule off (a row already holds k stars)."""
    return [cell // n for cell in range(n * n)]


def region_cells(regions: Sequence[int]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for cell, label in enumerate(regions):
        out.setdefault(label, []).append(cell)
    return out


def connected(n: int, cells: Iterable[int]) -> bool:
    """Own flood fill (not engine.core.regions.is_connected, which is itself under test)."""
    members = set(cells)
    if not members:
        return False
    start = min(members)
    seen, stack = {start}, [start]
    while stack:
        cell = stack.pop()
        r, c = divmod(cell, n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            nb = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and nb in members and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen == members


def assert_regions_sound(rules: Rules, regions: Sequence[int], answer: Sequence[int] | None = None) -> None:
    """All n labels used, each region one piece, and (given an answer) k of its stars per region."""
    n, k = rules.size, rules.stars
    assert len(regions) == n * n
    cells = region_cells(regions)
    assert sorted(cells) == list(range(n)), f"labels used: {sorted(cells)}"
    for label, members in cells.items():
        assert connected(n, members), f"region {label} is not one piece: {members}"
    if answer is not None:
        per_region = Counter(regions[c] for c in answer)
        assert all(per_region[label] == k for label in range(n)), f"answer stars per region: {per_region}"


# ---- random boards -------------------------------------------------------------------------------

def grown_regions(n: int, rng: random.Random, seeds: Sequence[int] | None = None) -> list[int]:
    """Connected regions grown with engine.core.regions.grow from random (or given) seed cells."""
    regions = [UNASSIGNED] * (n * n)
    seeds = list(seeds) if seeds is not None else rng.sample(range(n * n), n)
    for label, cell in enumerate(seeds):
        regions[cell] = label
    targets = [rng.randint(1, 2 * n) for _ in range(n)]
    return grow(n, regions, targets, rng)


def random_labelling(n: int, rng: random.Random, answer: Sequence[int] | None = None, k: int = 1) -> list[int]:
    """Any labelling (regions need not be connected) that uses all n labels; given an answer, each
    label gets exactly k of its stars, so the answer stays a solution."""
    labels = [rng.randrange(n) for _ in range(n * n)]
    if answer is not None:
        per = [label for label in range(n) for _ in range(k)]
        rng.shuffle(per)
        for cell, label in zip(answer, per):
            labels[cell] = label
    else:
        for label, cell in enumerate(rng.sample(range(n * n), n)):
            labels[cell] = label
    return labels


@cache
def all_layouts(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Every valid answer with the region rule off, by the oracle (small boards only)."""
    return tuple(oracle_solutions(rules, rows_as_regions(rules.size)))


def random_layout(rules: Rules, rng: random.Random) -> tuple[int, ...]:
    """A random valid answer, drawn without the engine's plant()."""
    return rng.choice(all_layouts(rules))
