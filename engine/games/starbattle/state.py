"""The Star Battle family position the ladder works on: the board's fixed geometry, the candidates and
stars of a position (Python ints used as bitsets, cells r * n + c), and the words steps are written in.

A *unit* is a row, a column or a region (numbered 0..3n-1 in that order, as in _search.pxd). A
*candidate* is a cell that is neither a star nor ruled out. A unit's *need* is k minus its stars. Two
cells *attack* each other when they touch (and, in classic-diagonal Queens, when they share a diagonal).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from functools import lru_cache

from engine.ladder import Step
from engine.games.starbattle._search import Search
from engine.games.starbattle._techniques import BUILT_FROM, Prober, __file__ as _TECHNIQUES_FILE
from engine.games.starbattle.board import region_letter
from engine.games.starbattle.built import source_digest
from engine.games.starbattle.rules import Rules

if BUILT_FROM != source_digest():
    raise ImportError(f"{_TECHNIQUES_FILE} was built from other sources than those beside it: rebuild it "
                      "(make build)")

# --------------------------------------------------------------------------------------------------
# geometry (fixed per board) and state (candidates and stars)


class Geometry:
    """Everything about a board that never changes while it is solved: unit masks, attack masks,
    and the compiled finders (`finders`). Built once per board (cached) and shared by every
    state and probe; the parts that depend only on the size and the diagonal rule come from one `Frame`
    shared by every board."""

    __slots__ = ("n", "k", "diagonals", "regions", "full", "rowbits", "unit_mask", "unit_name",
                 "cell_units", "attack", "hit", "region_of", "nunits", "cell_name", "_finders")

    def __init__(self, n: int, k: int, diagonals: bool, regions: Sequence[int]):
        self.n, self.k, self.diagonals = n, k, diagonals
        self.regions = tuple(regions)
        if len(self.regions) != n * n:
            raise ValueError("regions must list n*n cells")
        frame = _frame(n, diagonals)
        self.full, self.rowbits = frame.full, frame.rowbits
        regs = [0] * n
        for cell, label in enumerate(self.regions):
            regs[label] |= 1 << cell
        self.unit_mask = frame.lines + regs
        self.nunits = 3 * n
        self.unit_name = frame.unit_name
        self.region_of = self.regions
        self.cell_units = tuple((c // n, n + c % n, 2 * n + self.regions[c]) for c in range(n * n))
        self.cell_name = frame.cell_name
        self.attack, self.hit = frame.attack, frame.hit
        # A Prober per thread: it holds the position it works on in its own buffers and releases the GIL
        # while it searches, so two threads grading one board (the same cached Geometry) must not share one.
        self._finders = threading.local()

    def names(self, units: Iterable[int]) -> tuple[str, ...]:
        return tuple(self.unit_name[u] for u in units)

    @property
    def finders(self) -> Prober:
        """The board's compiled finders and probe (`_techniques.Prober`), made on first use in each thread."""
        prober = getattr(self._finders, "prober", None)
        if prober is None:
            prober = self._finders.prober = Prober(self.n, self.k, self.diagonals, list(self.regions))
        return prober


class Frame:
    """What a Geometry takes from the size and the diagonal rule alone."""

    def __init__(self, n: int, diagonals: bool):
        self.full = (1 << (n * n)) - 1
        self.rowbits = (1 << n) - 1
        self.lines = ([self.rowbits << (r * n) for r in range(n)]
                      + [sum(1 << (r * n + c) for r in range(n)) for c in range(n)])
        # Words for people: rows and columns from 1, regions by the letter the grid shows.
        self.unit_name = ([f"row {i + 1}" for i in range(n)] + [f"column {i + 1}" for i in range(n)]
                          + [f"region {region_letter(i)}" for i in range(n)])
        self.cell_name = tuple(f"r{c // n + 1}c{c % n + 1}" for c in range(n * n))
        # the attacks are the compiled search's (any map: rows as regions)
        attack = Search(n, 1, diagonals, [cell // n for cell in range(n * n)]).attacks()
        self.attack = attack
        self.hit = tuple(a | (1 << cell) for cell, a in enumerate(attack))


@lru_cache(maxsize=32)
def _frame(n: int, diagonals: bool) -> Frame:
    return Frame(n, diagonals)


@lru_cache(maxsize=64)
def geometry(n: int, k: int, diagonals: bool, regions: tuple[int, ...]) -> Geometry:
    return Geometry(n, k, diagonals, regions)


def cells_of(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


class StarState:
    """A position: the candidate cells and the stars (bitsets), on a fixed Geometry.

    `broken` records a placement on a cell that was not a candidate, or two stars attacking each other
    (only a step that places several stars at once can do that, and only in a position with no
    solution)."""

    __slots__ = ("geo", "cand", "stars", "broken", "memo")

    def __init__(self, geo: Geometry, cand: int | None = None, stars: int = 0, broken: bool = False):
        self.geo = geo
        self.memo: dict | None = None     # facts derived from this exact position, dropped on change
        self.cand = geo.full & ~stars if cand is None else cand
        self.stars = stars
        self.broken = broken

    @classmethod
    def start(cls, rules: Rules, regions: Sequence[int], stars: Iterable[int] = (),
              eliminated: Iterable[int] = ()) -> StarState:
        """A position from a board and a partial solution (stars placed, cells ruled out) as given:
        nothing is deduced (the attacked neighbours of given stars stay candidates)."""
        geo = geometry(rules.size, rules.stars, rules.diagonals, tuple(regions))
        state = cls(geo, geo.full, 0)
        state.apply(Step("given", 0, tuple(stars), tuple(eliminated)))
        return state

    def copy(self) -> StarState:
        return StarState(self.geo, self.cand, self.stars, self.broken)

    # -- reading
    def need(self, unit: int) -> int:
        return self.geo.k - (self.stars & self.geo.unit_mask[unit]).bit_count()

    def needs(self) -> list[int]:
        k, stars = self.geo.k, self.stars
        return [k - (stars & m).bit_count() for m in self.geo.unit_mask]

    def star_cells(self) -> tuple[int, ...]:
        return cells_of(self.stars)

    def eliminated_cells(self) -> tuple[int, ...]:
        return cells_of(self.geo.full & ~self.cand & ~self.stars)

    def consequences(self, placed: int) -> int:
        """The candidates a person crosses off on placing the stars `placed`: the cells they attack
        and the rest of every unit they complete (compiled: `Prober.consequences`)."""
        return self.geo.finders.consequences(self.cand, self.stars, placed)

    # -- the ladder's state protocol
    def apply(self, step: Step) -> None:
        """Place the step's stars (one on a cell that is not a candidate, or attacking another star,
        breaks the position) and rule out its cells (compiled: `Prober.apply`)."""
        placed = elim = 0
        for cell in step.place:
            placed |= 1 << cell
        for cell in step.eliminate:
            elim |= 1 << cell
        self.cand, self.stars, self.broken = self.geo.finders.apply(self.cand, self.stars, self.broken, placed, elim)
        self.memo = None

    def is_solved(self) -> bool:
        """k stars in every unit, none breaking the position (compiled: `Prober.solved`)."""
        return not self.broken and self.geo.finders.solved(self.cand, self.stars)

    def is_contradiction(self) -> bool:
        return self.broken_unit() is not None or self.broken

    def broken_unit(self) -> int | None:
        """A unit that can no longer be completed (too many stars, too few candidates, or candidates
        on which its stars cannot all fit), the first in unit order, or None (compiled:
        `Prober.broken_unit`)."""
        return self.geo.finders.broken_unit(self.cand, self.stars)

    def reached(self, cand: int, stars: int, broken: bool) -> None:
        """Move to the position a compiled run of steps ended in (`Prober.basic_round`)."""
        self.cand, self.stars, self.broken = cand, stars, broken
        self.memo = None

    def __repr__(self) -> str:
        return f"StarState(stars={self.star_cells()}, candidates={self.cand.bit_count()})"

    def picture(self) -> str:
        """The position as text: * star, . ruled out, region digit for a candidate."""
        n = self.geo.n
        rows = []
        for r in range(n):
            row = ""
            for c in range(n):
                cell = r * n + c
                row += "*" if self.stars >> cell & 1 else (
                    _ALPHABET[self.geo.regions[cell]] if self.cand >> cell & 1 else ".")
            rows.append(row)
        return "\n".join(rows)


_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


# --------------------------------------------------------------------------------------------------
# words


def cells_text(cells: Iterable[int], geo: Geometry) -> str:
    return ", ".join(geo.cell_name[c] for c in cells)


def stars_text(count: int) -> str:
    return f"{count} star" + ("" if count == 1 else "s")


def join_names(names: Sequence[str]) -> str:
    """'region B', 'regions B and E', 'rows 3, 4 and 5'."""
    if len(names) == 1:
        return names[0]
    kind = names[0].split()[0]
    nums = [name.split()[1] for name in names]
    plural = kind + ("s" if not kind.endswith("s") else "")
    return f"{plural} {', '.join(nums[:-1])} and {nums[-1]}"


def place_step(state: StarState, name: str, cost: int, placed: int, extra_elim: int,
                units: Sequence[int], why: str) -> Step:
    elim = (state.consequences(placed) | extra_elim) & state.cand & ~placed
    return Step(name, cost, cells_of(placed), cells_of(elim), state.geo.names(units), why)



@lru_cache(maxsize=64)
def _regions_first_order(n: int) -> tuple[int, ...]:
    return tuple(range(2 * n, 3 * n)) + tuple(range(2 * n))


def regions_first(geo: Geometry) -> tuple[int, ...]:
    """Every unit, regions first (a person looks at the coloured shapes before the lines)."""
    return _regions_first_order(geo.n)
