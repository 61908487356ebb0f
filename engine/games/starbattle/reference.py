"""Plain pure-Python twins of the compiled search: a solution counter, row by row, every way to put k
stars in the row (`reference_solutions`), and the compiled search itself, node for node
(`ReferenceSearch`).

Slow and obviously right; they exist so that parity tests keep the compiled search honest.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from itertools import combinations

from engine.games.starbattle.rules import Rules


def reference_solutions(rules: Rules, regions: Sequence[int], limit: int) -> list[tuple[int, ...]]:
    n, k = rules.size, rules.stars
    column_count = [0] * n
    region_count = [0] * n
    stars: list[tuple[int, int]] = []
    found: list[tuple[int, ...]] = []

    def attacks(a: tuple[int, int], b: tuple[int, int]) -> bool:
        dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
        return max(dr, dc) <= 1 or (rules.diagonals and dr == dc)

    def row_ways(r: int):
        for columns in combinations(range(n), k):
            if any(b - a < 2 for a, b in zip(columns, columns[1:])):
                continue
            yield columns

    def place_row(r: int) -> bool:
        if r == n:
            found.append(tuple(sorted(rr * n + cc for rr, cc in stars)))
            return len(found) >= limit
        for columns in row_ways(r):
            cells = [(r, c) for c in columns]
            if any(attacks(cell, other) for cell in cells for other in stars):
                continue
            if any(column_count[c] >= k for c in columns):
                continue
            labels = [regions[r * n + c] for c in columns]
            if any(region_count[lab] + labels.count(lab) > k for lab in labels):
                continue
            for c, lab in zip(columns, labels):
                column_count[c] += 1
                region_count[lab] += 1
            stars.extend(cells)
            stop = place_row(r + 1)
            del stars[-k:]
            for c, lab in zip(columns, labels):
                column_count[c] -= 1
                region_count[lab] -= 1
            if stop:
                return True
        return False

    place_row(0)
    return found


_WORD = (1 << 64) - 1


def _splitmix(state: int) -> tuple[int, int]:
    """splitmix64 (engine/core/_clock.pxd): the next state and its output."""
    state = (state + 0x9E3779B97F4A7C15) & _WORD
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _WORD
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _WORD
    return state, z ^ (z >> 31)


class ReferenceSearch:
    """The compiled search (_search.Search) in plain Python, with its interface and its very tree:
    the same propagation (a unit holding k stars loses its other candidates, a unit with as many
    candidates as stars still needed takes them all, on the units a change touched), the same branch
    (the unit with the least slack, then the fewest candidates, the first such; its pick-th candidate,
    pick drawn by splitmix64 when randomising; a star there, then none), so the same solutions in the
    same order and the same node counts. Sets of cells are Python sets; slow, a test oracle only."""

    def __init__(self, n: int, k: int, diagonals: bool, regions: Sequence[int]):
        self.n, self.k = n, k
        self.attacks = []
        for r in range(n):
            for c in range(n):
                self.attacks.append(frozenset(
                    rr * n + cc for rr in range(n) for cc in range(n)
                    if (rr, cc) != (r, c) and (max(abs(rr - r), abs(cc - c)) <= 1
                                               or diagonals and abs(rr - r) == abs(cc - c))))
        self.node_count = 0
        self.set_regions(regions)

    def set_regions(self, regions: Sequence[int]) -> None:
        n = self.n
        labels = list(regions)
        if len(labels) != n * n:
            raise ValueError("regions must list n*n cells")
        if any(not 0 <= label < n for label in labels):
            raise ValueError("region numbers must be 0..n-1")
        if len(set(labels)) != n:
            raise ValueError("every region number 0..n-1 must be used")
        self.units = ([frozenset(range(r * n, r * n + n)) for r in range(n)]
                      + [frozenset(range(c, n * n, n)) for c in range(n)]
                      + [frozenset(cell for cell in range(n * n) if labels[cell] == g) for g in range(n)])
        self.units_of = [(cell // n, n + cell % n, 2 * n + labels[cell]) for cell in range(n * n)]

    # -- the position: candidates and stars
    def _rule_out(self, cell: int, touched: set[int]) -> None:
        self.cand.discard(cell)
        touched.update(self.units_of[cell])

    def _star(self, cell: int, touched: set[int]) -> None:
        self._rule_out(cell, touched)
        self.stars.add(cell)
        for other in self.attacks[cell] & self.cand:
            self._rule_out(other, touched)

    def _room(self, unit: int) -> tuple[int, int]:
        """A unit's stars still needed and its candidates."""
        cells = self.units[unit]
        return self.k - len(cells & self.stars), len(cells & self.cand)

    def _holds(self, cells: Iterable[int]) -> bool:
        """No unit of these cells over k stars or short of candidates."""
        for cell in cells:
            for unit in self.units_of[cell]:
                need, free = self._room(unit)
                if need < 0 or free < need:
                    return False
        return True

    def _settle(self, touched: set[int]) -> bool:
        while touched:
            unit = touched.pop()
            need, free = self._room(unit)
            if need < 0 or free < need:
                return False
            if need == 0:
                for cell in self.units[unit] & self.cand:
                    self._rule_out(cell, touched)
            elif free == need:
                for cell in sorted(self.units[unit] & self.cand):
                    if cell in self.cand:
                        self._star(cell, touched)
        return True

    def _given(self, stars: Iterable[int], eliminated: Iterable[int]) -> bool:
        """The partial position, checked given by given (a cell off the board after a contradiction
        raises nothing)."""
        n = self.n
        self.cand, self.stars = set(range(n * n)), set()
        touched: set[int] = set()
        for cell in eliminated:
            if not 0 <= cell < n * n:
                raise ValueError(f"cell {cell} is off the board")
            if cell in self.stars:
                return False
            if cell in self.cand:
                self._rule_out(cell, touched)
                if not self._holds((cell,)):
                    return False
        for cell in stars:
            if not 0 <= cell < n * n:
                raise ValueError(f"cell {cell} is off the board")
            if cell in self.stars:
                continue
            if cell not in self.cand:
                return False
            hit = self.attacks[cell] & self.cand
            self._star(cell, touched)
            if not self._holds((cell, *hit)):
                return False
        return self._settle(touched)

    # -- the search
    def _branch(self) -> int:
        best = None
        for unit in range(3 * self.n):
            need, free = self._room(unit)
            if need and (best is None or (free - need, free) < best[0]):
                best = (free - need, free), unit
        unit = best[1]
        pick = 0
        if self.randomize:
            self.rng, draw = _splitmix(self.rng)
            pick = draw % best[0][1]
        return sorted(self.units[unit] & self.cand)[pick]

    def _node(self) -> bool:
        self.node_count += 1
        if self.max_nodes and self.node_count > self.max_nodes or (
                self.deadline > 0 and self.node_count % 1024 == 0 and time.monotonic() > self.deadline):
            self.timed_out = True
            return True
        if len(self.stars) == self.n * self.k:
            self.found.append(tuple(sorted(self.stars)))
            return len(self.found) >= self.limit
        cell = self._branch()
        for star in (True, False):
            saved = set(self.cand), set(self.stars)
            touched: set[int] = set()
            (self._star if star else self._rule_out)(cell, touched)
            stop = self._settle(touched) and self._node()
            self.cand, self.stars = saved
            if stop:
                return True
        return False

    def solve(self, limit: int, stars: Iterable[int] = (), eliminated: Iterable[int] = (), deadline: float = 0.0,
              seed: int = 0, max_nodes: int = 0) -> tuple[list[tuple[int, ...]], bool]:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        return self._run(limit, stars, eliminated, deadline, seed != 0, seed, max_nodes)

    def random_solution(self, seed: int, deadline: float = 0.0, max_nodes: int = 0) -> tuple[int, ...] | None:
        found, complete = self._run(1, (), (), deadline, True, seed, max_nodes)
        return found[0] if found and complete else None

    def _run(self, limit, stars, eliminated, deadline, randomize, seed, max_nodes):
        self.limit, self.deadline, self.randomize, self.rng, self.max_nodes = limit, deadline, randomize, seed, max_nodes
        self.found: list[tuple[int, ...]] = []
        self.node_count, self.timed_out = 0, False
        if self._given(tuple(stars), tuple(eliminated)):
            self._node()
        return list(self.found), not self.timed_out
