"""The Killer Sudoku technique ladder: one table of techniques, the cage arithmetic first, then Sudoku's
own ladder run on the same candidate grid, then trial.

Glossary. A *candidate* is a digit still possible in an empty cell; in a Step it is the number
cell * 9 + (digit - 1), cells r * 9 + c from 0. A cage's *combinations* are the sets of distinct
digits with its sum that its cells can still hold (cages.cage_support). The *rule of 45*: a row,
column or box holds 1..9 once, so it adds up to 45; over a set of adjacent units (a region) the cages
wholly inside account for part of 45 per unit, and the cells of the cages that cross the region's
edge make up the rest: the *innies* (their cells inside) add up to what the inside cages leave, the
*outies* (their cells outside) to what the crossing cages bring beyond it, and a mix of innies and
outies to a known difference.

The position is Sudoku's compiled Position (placed digits and pencil marks), so Sudoku's compiled
finders read it unchanged; placing a digit also removes it from its cage mates, as it does from the
cell's row, column and box (bookkeeping, not a step). Sudoku's uniqueness techniques are left out: a
deadly pattern of Sudoku need not be one of Killer, whose sums can tell its two ways apart.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import accumulate
from typing import NamedTuple

from engine.games.killer._count import Cages, Layout, apart_bits, losses, region_sides
from engine.games.killer.board import Cage, KillerBoard
from engine.games.killer.cages import COMBOS, bits, cage_support
from engine.games.killer.count import count_solutions
from engine.games.sudoku._logic import Position
from engine.games.sudoku.geometry import CELL_UNITS, UNIT_CELLS, cand_name, cell_name, digits_text, unit_name
from engine.games.sudoku.techniques import LADDER as SUDOKU_LADDER, compiled_step
from engine.games.killer.rules import BANDS
from engine.ladder import Ladder, Step, Technique
from engine.ladder.table import in_order

GROUP_LIMIT = 4           # a signed or not all-distinct sum group is searched up to this many cells


# the words of every candidate (cell * 9 + digit - 1) and of every digit set, looked up by the steps' sentences
_CAND_NAMES = tuple(cand_name(x) for x in range(729))
_DIGITS_TEXTS = tuple(digits_text(m) for m in range(512))


def _gone(eliminate: Sequence[int]) -> str:
    return ", ".join([_CAND_NAMES[x] for x in eliminate])


# ------------------------------------------------------------------------------------------------
# regions for the rule of 45: one unit, or adjacent units together

class Region(NamedTuple):
    name: str                    # "row 3", "rows 1-2", "boxes 1 and 2"
    units: int                   # how many units: the region adds up to 45 times this
    cells: frozenset[int]


def _regions() -> tuple[tuple[Region, ...], tuple[Region, ...]]:
    single = tuple(Region(unit_name(u), 1, frozenset(UNIT_CELLS[u])) for u in range(27))
    several = []
    for first in range(9):                          # 2 to 4 adjacent rows, then columns
        for count in (2, 3, 4):
            if first + count <= 9:
                several.append(Region(f"rows {first + 1}-{first + count}", count,
                                      frozenset(c for u in range(first, first + count) for c in UNIT_CELLS[u])))
    for first in range(9):
        for count in (2, 3, 4):
            if first + count <= 9:
                several.append(Region(f"columns {first + 1}-{first + count}", count,
                                      frozenset(c for u in range(9 + first, 9 + first + count) for c in UNIT_CELLS[u])))
    boxes = []
    for b in range(9):                              # two boxes side by side or one above the other
        if b % 3 < 2:
            boxes.append((b, b + 1))
        if b < 6:
            boxes.append((b, b + 3))
    for b in (0, 1, 3, 4):                          # four boxes in a square
        boxes.append((b, b + 1, b + 3, b + 4))
    for group in boxes:
        numbers = [str(b + 1) for b in group]
        several.append(Region(f"boxes {', '.join(numbers[:-1])} and {numbers[-1]}", len(group),
                              frozenset(c for b in group for c in UNIT_CELLS[18 + b])))
    return single, tuple(several)


SINGLE_REGIONS, SEVERAL_REGIONS = _regions()
REGIONS = SINGLE_REGIONS + SEVERAL_REGIONS      # the compiled Layout's regions, by their place here
# each region as 81 flags, 1 for its cells, as region_sides reads it
_REGION_FLAGS = {region: bytes(c in region.cells for c in range(81)) for region in REGIONS}
_LAYOUT_REGIONS = tuple((_REGION_FLAGS[region], region.units) for region in REGIONS)


class Sides(NamedTuple):
    """How the cages meet a region: the sum of those wholly inside, and each crossing cage with its
    cells inside and outside."""
    inside_total: int
    crossing: tuple[tuple[Cage, tuple[int, ...], tuple[int, ...]], ...]


class SumGroup:
    """A sum group of the rule of 45 on one region: its cells, each counted with its sign, add up to
    `total`. Fixed by the cages, so made once per board. (The techniques read the compiled Layout's
    copy of the groups; these are the plain reading the tests hold it to.)"""

    __slots__ = ("how", "cells", "signs", "total", "_cage_of", "_apart")

    def __init__(self, how: str, cells: Sequence[int], signs: Sequence[int], total: int, cage_of: bytes):
        self.how = how                    # "innies", "outies" or "innies and outies"
        self.cells = tuple(cells)
        self.signs = tuple(signs)
        self.total = total
        self._cage_of = cage_of           # each of the 81 cells' cage number
        self._apart: tuple[int, ...] | None = None

    @property
    def apart(self) -> tuple[int, ...]:
        """Bit j of apart[i]: cells i and j are known distinct (they share a row, column, box or cage).
        Worked out on first use: a large group is not asked until few of its cells are open."""
        if self._apart is None:
            self._apart = apart_bits(self.cells, self._cage_of)
        return self._apart


def _screen_of(board: KillerBoard) -> Cages:
    """A position's own screen (it holds the position it was loaded with)."""
    return Cages(board.cage_of, board.sums)


class CageLayout:
    """How a board's cages meet each region (Sides, and the rule of 45's sum groups), worked out the
    first time a region is asked; `compiled` holds every region's groups at once (the compiled Layout,
    in REGIONS' order), which the rule-of-45 screen and the rounds read."""

    def __init__(self, cages: tuple[Cage, ...]):
        self.cages = cages
        self.cage_of = [0] * 81
        for number, cage in enumerate(cages):
            for cell in cage.cells:
                self.cage_of[cell] = number
        self._cage_bytes = bytes(self.cage_of)
        self.known: dict[Region, Sides] = {}
        # the cages' cells one after another and where each cage ends there, for the compiled region_sides
        self._cells = bytes(c for cage in cages for c in cage.cells)
        self._ends = bytes(accumulate(len(cage.cells) for cage in cages))
        self._totals = tuple(cage.total for cage in cages)
        self.known_groups: dict[Region, tuple[SumGroup, ...]] = {}
        self.compiled = Layout(self._cage_bytes, self._cells, self._ends, self._totals, _LAYOUT_REGIONS)

    def sides(self, region: Region) -> Sides:
        found = self.known.get(region)
        if found is None:
            where = _REGION_FLAGS.get(region) or bytes(c in region.cells for c in range(81))
            inside, crossing = region_sides(self._cells, self._ends, self._totals, where)
            found = self.known[region] = Sides(inside, tuple((self.cages[number], inner, outer)
                                                             for number, inner, outer in crossing))
        return found

    def groups(self, region: Region) -> tuple[SumGroup, ...]:
        """The region's sum groups: its innies, its outies, and (when the two signs mix) the smaller
        side of each crossing cage, its innies or its outies less the cage's sum. None without a
        crossing cage."""
        found = self.known_groups.get(region)
        if found is None:
            side = self.sides(region)
            found = ()
            if side.crossing:
                rest = 45 * region.units - side.inside_total
                innies = [c for _, inner, _ in side.crossing for c in inner]
                outies = [c for _, _, outer in side.crossing for c in outer]
                crossing_total = sum(cage.total for cage, _, _ in side.crossing)
                groups = [SumGroup("innies", innies, [1] * len(innies), rest, self._cage_bytes),
                          SumGroup("outies", outies, [1] * len(outies), crossing_total - rest, self._cage_bytes)]
                mixed_cells, mixed_signs, mixed_total = [], [], rest
                for cage, inner, outer in side.crossing:
                    if len(outer) < len(inner):
                        mixed_cells += outer
                        mixed_signs += [-1] * len(outer)
                        mixed_total -= cage.total
                    else:
                        mixed_cells += inner
                        mixed_signs += [1] * len(inner)
                if 1 in mixed_signs and -1 in mixed_signs:
                    groups.append(SumGroup("innies and outies", mixed_cells, mixed_signs, mixed_total, self._cage_bytes))
                found = tuple(groups)
            self.known_groups[region] = found
        return found


@lru_cache(maxsize=8)
def cage_layout(cages: tuple[Cage, ...]) -> CageLayout:
    """How these cages meet the rule of 45's regions; one per board, shared by its solves."""
    return CageLayout(cages)


# ------------------------------------------------------------------------------------------------
# the position

class KillerState:
    """A position for the shared ladder loop: Sudoku's compiled Position plus the cages."""

    __slots__ = ("pos", "board", "cages", "cage_of", "words", "_screen", "_scan", "_masks", "_values")

    def __init__(self, board: KillerBoard, pos: Position, *, words: bool = True):
        self.pos = pos
        # whether its steps are worded (units' names, a sentence): a solve that is only scored needs none
        self.words = words
        self.board = board
        self.cages = board.cages
        self.cage_of = board.cage_of
        # the compiled screen, loaded with the position once and then kept in step by `apply`
        self._screen = _screen_of(board)
        self._screen.load(pos.marks(), pos.values())
        self._scan: tuple[int, bool] | None = None
        self._masks: list[int] | None = None
        self._values: str | None = None

    @classmethod
    def start(cls, board: KillerBoard, *, words: bool = True) -> KillerState:
        state = cls(board, Position.from_givens(board.givens), words=words)
        mates = [x * 9 + (int(board.givens[x]) - 1) for x in range(81) if board.givens[x] != "."]
        state._clear_cage_mates(mates)
        return state

    def copy(self) -> KillerState:
        return KillerState(self.board, self.pos.copy(), words=self.words)

    def screen(self) -> Cages:
        """The compiled cage screens, holding this position (the position's changes go through `apply`,
        which makes them on both). The screen also remembers the rule of 45's groups that taught nothing,
        with their cells then: asked again with those unchanged, a group is passed over."""
        return self._screen

    def scan(self) -> tuple[int, bool]:
        """(the first cage with a digit no completion uses, or -1; whether some cage is dead)."""
        if self._scan is None:
            self._scan = self._screen.scan()
        return self._scan

    def _changed(self) -> None:
        self._masks = self._values = self._scan = None

    def masks(self) -> list[int]:
        """Every cell as a mask, a placed digit as its single bit."""
        if self._masks is None:
            self._masks = self.pos.masks()
        return self._masks

    def values(self) -> str:
        if self._values is None:
            self._values = self.pos.values()
        return self._values

    def _clear_cage_mates(self, placed: Sequence[int]) -> None:
        gone = self._screen.mates_gone(placed)
        if gone:
            self.pos.apply((), gone)
            self._screen.apply((), gone)
        self._changed()

    def apply(self, step: Step) -> None:
        self.pos.apply(step.place, step.eliminate)
        self._screen.apply(step.place, step.eliminate)
        self._changed()
        if step.place:
            self._clear_cage_mates(step.place)

    def is_solved(self) -> bool:
        return self.pos.is_solved() and not self.is_contradiction()

    def is_contradiction(self) -> bool:
        if self.pos.is_contradiction():
            return True
        return self.scan()[1]

    def find(self, tid: int) -> Step | None:
        """The step of Sudoku's compiled finder `tid` (its id in Sudoku's table) in this position."""
        return compiled_step(self.pos, tid, words=self.words)


# ------------------------------------------------------------------------------------------------
# the killer finders: each looks at a state and returns a Step or None

def _step(technique: str, place: tuple[int, ...], eliminate: tuple[int, ...], units: tuple[str, ...], why: str,
          cost: int | None = None) -> Step:
    """A step of the killer technique named, at its table cost unless the step has its own (`cost`)."""
    return Step(technique, LADDER[technique].cost if cost is None else cost, place, eliminate, units, why)


def _combos_text(live: Sequence[int]) -> str:
    return " or ".join([_DIGITS_TEXTS[m] for m in live])


# A cage-combinations step costs its table cost (a cage with one way to make its sum) and this much more
# per halving of the ways the solver sifts: the sets of distinct digits that make the cage's remaining
# sum in its open cells (9 and 10 in two cells: four ways, two halvings). Fitted on the booklets' volumes
# 1-3 (bench/bench_killer_calibration.py).
COMBINATION_BIT_COST = 160


def combinations_cost(cage: Cage, values: str) -> int:
    """The cost of working `cage` out from its combinations in a position (`values`, '.' for open)."""
    open_cells = sum(1 for c in cage.cells if values[c] == ".")
    rest = cage.total - sum(int(values[c]) for c in cage.cells if values[c] != ".")
    return _combinations_cost(open_cells, rest)


def _combinations_cost(open_cells: int, rest: int) -> int:
    """combinations_cost of a cage whose open cells (`open_cells` of them) must make `rest`."""
    ways = len(COMBOS[open_cells][rest]) if 0 <= rest <= 45 else 1
    return _COMBINATIONS_COST + round(COMBINATION_BIT_COST * math.log2(max(1, ways)))


def cage_combinations(state: KillerState) -> Step | None:
    """A cage's cells keep only the digits of the combinations they can still make."""
    number, dead = state.scan()
    if number >= 0 and not dead:
        cage = state.cages[number]
        old, new, live, open_cells, rest = state.screen().combination(number)
        if live:
            gone = losses(cage.cells, old, new)
            cost = _combinations_cost(open_cells, rest)
            if not state.words:
                return _step("cage-combinations", (), gone, (), "", cost)
            return _step("cage-combinations", (), gone, (cage.name,),
                         f"{cage.name} makes {cage.total} in {len(cage.cells)} cells only as {_combos_text(live)}"
                         f" here, so not {_gone(gone)}", cost)
    return None


def cage_pointing(state: KillerState) -> Step | None:
    """A digit every combination of a cage holds, whose places in the cage lie in one unit, leaves the
    rest of that unit. (The compiled screen finds the first such cage, digit and unit.)"""
    found = state.screen().pointing()
    if found is None:
        return None
    number, d, u = found
    masks = state.masks()
    cage = state.cages[number]
    gone = tuple(c * 9 + d for c in UNIT_CELLS[u] if masks[c] >> d & 1 and state.cage_of[c] != number)
    if not state.words:
        return _step("cage-pointing", (), gone, (), "")
    _, live = cage_support(cage.total, [masks[c] for c in cage.cells])
    return _step("cage-pointing", (), gone, (cage.name, unit_name(u)),
                 f"{cage.name} must hold {d + 1} ({_combos_text(live)}), and only in {unit_name(u)}: so not "
                 f"elsewhere in {unit_name(u)}: {_gone(gone)}")


def cage_claiming(state: KillerState) -> Step | None:
    """A digit whose places in a unit all lie in one cage: that cage holds it there, so nowhere else in the
    cage, and only the combinations with it are left. (The compiled screen finds the first such unit,
    digit and cage that teaches the cage something.)"""
    found = state.screen().claiming()
    if found is None:
        return None
    u, d, number = found
    masks = state.masks()
    cage = state.cages[number]
    bit = 1 << d
    old = tuple(masks[c] for c in cage.cells)
    new, live = cage_support(cage.total, [m if u in CELL_UNITS[c] else m & ~bit for c, m in zip(cage.cells, old)], bit)
    gone = losses(cage.cells, old, new)
    if not state.words:
        return _step("cage-claiming", (), gone, (), "")
    return _step("cage-claiming", (), gone, (unit_name(u), cage.name),
                 f"{d + 1} lies only in {cage.name} within {unit_name(u)}, so that cage holds it there "
                 f"({_combos_text(live)}): not {_gone(gone)}")


_HOW = ("innies", "outies", "innies and outies")      # the compiled Layout's numbers for SumGroup.how


def _group_step(region: Region, how: str, cells: Sequence[int], signs: Sequence[int], news: tuple, technique: str,
                words: bool) -> Step | None:
    """The eliminations (or the placement) a sum group of the rule of 45 gives (its `how`, `cells` and
    `signs`, as SumGroup has them): `news` is what group_news found on it (the open cells' places in
    the group, the total they make, their masks and their new masks); worded when `words`."""
    at, total, old, new = news
    open_cells = [cells[i] for i in at]
    if not words:
        if len(at) == 1:
            return _step(technique, (open_cells[0] * 9 + new[0].bit_length() - 1,), (), (), "")
        return _step(technique, (), losses(open_cells, old, new), (), "")
    open_signs = [signs[i] for i in at]
    terms = "".join((" + " if s > 0 else " - ") + cell_name(c) for c, s in zip(open_cells, open_signs))
    terms = terms[3:] if open_signs[0] > 0 else "-" + terms[3:]
    place: tuple[int, ...] = ()
    gone = losses(open_cells, old, new)
    if len(at) == 1:
        place, gone = (open_cells[0] * 9 + new[0].bit_length() - 1,), ()
        what = f"place {cand_name(place[0])}"
    else:
        what = f"not {_gone(gone)}"
    return _step(technique, place, gone, (region.name,),
                 f"rule of 45 on {region.name} ({how}): {terms} = {total}, so {what}")


def _rule_of_45(state: KillerState, first: int, end: int, technique: str) -> Step | None:
    """The first group of the regions REGIONS[first:end], in order, that teaches something (the compiled
    screen asks group_news of each, and words the one found from the compiled layout's group, which is
    CageLayout.groups's)."""
    layout = cage_layout(state.cages).compiled
    found = state.screen().rule_of_45(layout, first, end, GROUP_LIMIT)
    if found is None:
        return None
    number, place, news = found
    how, cells, signs, _ = layout.group(number, place)
    return _group_step(REGIONS[number], _HOW[how], cells, signs, news, technique, state.words)


def rule_of_45(state: KillerState) -> Step | None:
    """Innies, outies or their difference on one row, column or box."""
    return _rule_of_45(state, 0, len(SINGLE_REGIONS), "rule-of-45")


def rule_of_45_several(state: KillerState) -> Step | None:
    """Innies, outies or their difference on two to four adjacent rows or columns, or adjacent boxes."""
    return _rule_of_45(state, len(SINGLE_REGIONS), len(REGIONS), "rule-of-45-several")


def trial(state: KillerState) -> Step | None:
    """Try each candidate of the open cell with fewest: the counter shows which leave no solution."""
    masks = state.masks()
    values = state.values()
    open_cells = [c for c in range(81) if values[c] == "."]
    if not open_cells:
        return None
    cell = min(open_cells, key=lambda c: (masks[c].bit_count(), c))
    gone = []
    for bit in bits(masks[cell]):
        tried = list(masks)
        tried[cell] = bit
        if not count_solutions(state.board, 1, masks=tried).count:
            gone.append(cell * 9 + bit.bit_length() - 1)
    if not gone or len(gone) == masks[cell].bit_count():
        return None
    return _step("trial-and-error", (), tuple(gone), (),
                 f"trying each candidate of {cell_name(cell)}: with {_gone(gone)} the board has no solution")


# ------------------------------------------------------------------------------------------------
# the table

# A killer technique's tier is 1 easy, 2 medium, 3 hard, 4 expert, 5 beyond; its cost per step is on
# HoDoKu's scale as Sudoku's table. The cage techniques' costs are set so the score follows the
# booklets' order (bench_killer_calibration.py); cage-combinations' is its least: a step costs more with
# more ways to sift. Sudoku's techniques come with Sudoku's tier, cost and compiled finder (which asks
# the state's find(tid): KillerState.find). Sudoku's uniqueness techniques are left out (see above).

def _own(name: str, tier: int, cost: int, find: Callable[[KillerState], Step | None]) -> Technique:
    """A technique of Killer's own (in_order gives it its place on the ladder)."""
    return Technique(name, 0, tier, cost, find)


TABLE: tuple[Technique, ...] = in_order((
    SUDOKU_LADDER["full-house"],
    SUDOKU_LADDER["naked-single"],
    SUDOKU_LADDER["hidden-single"],
    _own("cage-combinations", 1, 40, cage_combinations),
    _own("cage-pointing", 2, 40, cage_pointing),
    _own("cage-claiming", 2, 60, cage_claiming),
    SUDOKU_LADDER["locked-candidates"],
    _own("rule-of-45", 2, 150, rule_of_45),
    SUDOKU_LADDER["naked-pair"],
    SUDOKU_LADDER["hidden-pair"],
    SUDOKU_LADDER["naked-triple"],
    SUDOKU_LADDER["hidden-triple"],
    _own("rule-of-45-several", 3, 200, rule_of_45_several),
    SUDOKU_LADDER["naked-quad"],
    SUDOKU_LADDER["hidden-quad"],
    SUDOKU_LADDER["skyscraper"],
    SUDOKU_LADDER["x-wing"],
    SUDOKU_LADDER["2-string-kite"],
    SUDOKU_LADDER["swordfish"],
    SUDOKU_LADDER["w-wing"],
    SUDOKU_LADDER["simple-colouring"],
    SUDOKU_LADDER["xy-wing"],
    SUDOKU_LADDER["jellyfish"],
    SUDOKU_LADDER["xyz-wing"],
    SUDOKU_LADDER["x-chain"],
    SUDOKU_LADDER["xy-chain"],
    SUDOKU_LADDER["aic"],
    SUDOKU_LADDER["als-xz"],
    SUDOKU_LADDER["forcing-chain"],
    _own("trial-and-error", 5, 10_000, trial),
))
LADDER = Ladder(TABLE)
_COMBINATIONS_COST = LADDER["cage-combinations"].cost
IDS = {t.name: t.order for t in TABLE}
TOP_OF_TIER = LADDER.top_of_tier


def finder(name: str) -> Callable[[KillerState], Step | None]:
    """The finder of one technique, as the ladder calls it."""
    return LADDER[name].find


__all__ = ["BANDS", "COMBINATION_BIT_COST", "IDS", "LADDER", "REGIONS", "SEVERAL_REGIONS", "SINGLE_REGIONS", "TABLE",
           "TOP_OF_TIER", "CageLayout", "KillerState", "Region", "SumGroup", "cage_layout", "cand_name", "combinations_cost", "finder"]
