"""Block arguments: a 2x2 block holds at most one star (its four cells touch each other), so m blocks
covering the candidates of an area bound its stars by m. When the area must still hold exactly m stars,
each block holds exactly one of them: no star sits where two blocks overlap, a block's cells outside the
area are empty, and the cells every candidate of a block's part attacks are empty.

The compiled finders (`Geometry.finders`: `block_argument`, `differential`, `cover_argument`) find
these arguments and return a `Finding`; the finders here word it. Region-pair and -triple list their
groups of touching regions here and ask the compiled cover for each. The windows' areas
(`window_areas`, `Area`) are also listed here for the pressured-remainder and composite-footprint
finders, which judge them with compiled enumerations.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial

from engine.ladder import Step
from engine.games.starbattle.finding import Finding
from engine.games.starbattle.state import (Geometry, StarState, cells_of, join_names, place_step,
                                           cells_text, stars_text)



def _finding_step(state: StarState, name: str, cost: int, found: Finding, units: tuple[int, ...], why: str) -> Step:
    """A block argument's step: its stars (with what they rule out) or the cells it rules out."""
    if found.place:
        return place_step(state, name, cost, found.place, found.eliminate, units, why)
    return Step(name, cost, (), cells_of(found.eliminate & state.cand), state.geo.names(units), why)


def _block_step(state: StarState, name: str, cost: int, found: Finding) -> Step:
    names = state.geo.names(found.units)
    what = join_names(names) if len(names) > 1 else names[0]
    why = (f"the free cells of {what} fit in {found.blocks} 2x2 blocks and {what} "
           f"{'need' if len(names) > 1 else 'needs'} {stars_text(found.need)}, so each block holds exactly one")
    return _finding_step(state, name, cost, found, found.units, why)


def find_2x2_bound(state: StarState, name: str, cost: int) -> Step | None:
    """The first unit (regions first) needing 2 or more stars whose candidates fit in as many 2x2 blocks
    (compiled: `Prober.block_argument`)."""
    found = state.geo.finders.block_argument(state.cand, state.needs(), "bound")
    return None if found is None else _block_step(state, name, cost, found)


def find_squeeze(state: StarState, name: str, cost: int) -> Step | None:
    """The first two adjacent lines (rows first) whose candidates fit in as many 2x2 blocks as the
    stars they still need (compiled: `Prober.block_argument`)."""
    found = state.geo.finders.block_argument(state.cand, state.needs(), "squeeze")
    return None if found is None else _block_step(state, name, cost, found)


# --------------------------------------------------------------------------------------------------
# areas with an exact need: windows of adjacent lines and what the regions leave of them
#
# Take W, a window of adjacent rows (or columns). The regions whose candidates all lie inside W put all
# the stars they still need inside W, so the rest of W (its *remainder*) must hold exactly
# need(W) - need(those regions). And every candidate of W lies in some region touching W, so the cells
# of those regions outside W (their *excess*) must hold exactly need(touching regions) - need(W).
# An area with an exact need m is empty when m = 0, gives one star to each of m 2x2 blocks covering it,
# and rules out every cell that all its candidates attack when m = 1.


class Area:
    """A set of candidates that must hold exactly `need` more stars, with the words that say why.

    The words (`what` the area is, `because` of what its need is exact) are written only when a step
    uses them: most areas a finder looks at give nothing, and their sentences cost more than the look.
    `words` returns them; it is called at most once."""

    __slots__ = ("cells", "need", "units", "_words")

    def __init__(self, cells: int, need: int, units: tuple[int, ...], words: Callable[[], tuple[str, str]]):
        self.cells, self.need, self.units, self._words = cells, need, units, words

    def _said(self) -> tuple[str, str]:
        words = self._words
        if callable(words):
            words = self._words = words()
        return words

    @property
    def what(self) -> str:
        return self._said()[0]

    @property
    def because(self) -> str:
        return self._said()[1]


def _area_words(geo: Geometry, kind: str, units: tuple[int, ...], size: int, need: int, m: int) -> tuple[str, str]:
    """What a window's remainder ("remainder") or excess is, and why it holds exactly `m` stars: `units`
    are the window's `size` lines, then the regions inside it (remainder) or touching it (excess);
    `need` is the lines' need."""
    names = join_names(geo.names(units[:size]))
    regions = units[size:]
    regs = join_names(geo.names(regions))
    if kind == "remainder":
        one = len(regions) == 1
        return (f"the other cells of {names}",
                f"{names} must still hold {stars_text(need)} and {regs}, which "
                f"{'lies' if one else 'lie'} inside, {'needs' if one else 'need'} {need - m}")
    return (f"the cells of {regs} outside {names}",
            f"every free cell of {names} lies in {regs}, which must still hold {stars_text(need + m)}, "
            f"and {names} take {need}")


def _pair_words(geo: Geometry, a: int, b: int, need: int) -> tuple[str, str]:
    pair = join_names(geo.names((a, b)))
    return pair, f"{pair} must still hold {stars_text(need)}"


def _region_candidates(state: StarState) -> list[int]:
    memo = state.memo
    if memo is None:
        memo = state.memo = {}
    found = memo.get("region-candidates")
    if found is None:
        geo, cand, n = state.geo, state.cand, state.geo.n
        found = memo["region-candidates"] = [cand & geo.unit_mask[2 * n + r] for r in range(n)]
    return found


def window_areas(state: StarState, needs: list[int], size: int, kind: str) -> list[Area]:
    """The remainder ("remainder") or the excess ("excess") of every window of `size` adjacent rows
    and of `size` adjacent columns, when it still has candidates (`needs`: the state's), found by the
    compiled `Prober.window_areas` (the block argument's own areas). Kept on the state until it
    changes: several techniques ask for the same windows."""
    memo = state.memo
    if memo is None:
        memo = state.memo = {}
    key = ("windows", size, kind)
    found = memo.get(key)
    if found is None:
        geo = state.geo
        found = memo[key] = [Area(cells, m, units, partial(_area_words, geo, kind, units, size, need, m))
                             for cells, m, units, need in geo.finders.window_areas(state.cand, needs, size, kind)]
    return found


def find_window(state: StarState, name: str, cost: int, *, kind: str, sizes: tuple[int, ...]) -> Step | None:
    """The remainder or excess of a window of adjacent lines, as an area with an exact need: the first
    window (by size, rows then columns) whose area shows something (compiled: `Prober.block_argument`;
    its Finding holds the lines, then the regions, the lines' need and the area's)."""
    geo = state.geo
    n = geo.n
    found = geo.finders.block_argument(state.cand, state.needs(), kind, sizes)
    if found is None:
        return None
    m = found.count
    what, because = _area_words(geo, kind, found.units, sum(u < 2 * n for u in found.units), found.need, m)
    if m == 0:
        tail = f"so {what} hold no star"
    elif not found.blocks:
        verb = "attacks" if geo.diagonals else "touches"
        tail = (f"so {what} hold exactly one star, and each of them {verb} "
                f"{cells_text(cells_of(found.eliminate), geo)}")
    else:
        tail = (f"so {what} hold exactly {stars_text(m)}; they fit in "
                f"{found.blocks} 2x2 blocks, so each block holds exactly one")
    return _finding_step(state, name, cost, found, found.units, f"{because}, {tail}")


def find_region_group(state: StarState, name: str, cost: int, *, size: int) -> Step | None:
    """`size` touching regions together, as one area that must hold the sum of their needs (a block
    argument on their union, when no single region gives one)."""
    geo, n = state.geo, state.geo.n
    needs = state.needs()
    regions = _region_candidates(state)
    live = [r for r in range(n) if regions[r] and needs[2 * n + r] > 0]
    touching = _touching_regions(geo)
    groups: list[tuple[int, ...]] = [(r,) for r in live]
    for _ in range(size - 1):
        groups = [g + (r,) for g in groups for r in live
                  if r > g[-1] and any(r in touching[x] for x in g)]
    for group in groups:
        cells = 0
        need = 0
        for r in group:
            cells |= regions[r]
            need += needs[2 * n + r]
        if cells.bit_count() > 4 * need:
            continue
        found = geo.finders.cover_argument(cells, need, needs, state.cand)
        if found is not None:
            units = tuple(2 * n + r for r in group)
            regs = join_names(geo.names(units))
            why = (f"{regs} must still hold {stars_text(need)} together, and their free cells fit in "
                   f"{found.blocks} 2x2 blocks, so each block holds exactly one")
            return _finding_step(state, name, cost, found, units, why)
    return None


def _touching_regions(geo: Geometry) -> tuple[frozenset[int], ...]:
    return _touching_of(geo.n, geo.regions)


@lru_cache(maxsize=64)
def _touching_of(n: int, regions: tuple[int, ...]) -> tuple[frozenset[int], ...]:
    """For each region, the regions it shares an edge with."""
    found: list[set[int]] = [set() for _ in range(n)]
    for cell in range(n * n):
        r, c = divmod(cell, n)
        for rr, cc in ((r + 1, c), (r, c + 1)):
            if rr < n and cc < n:
                a, b = regions[cell], regions[rr * n + cc]
                if a != b:
                    found[a].add(b)
                    found[b].add(a)
    return tuple(frozenset(s) for s in found)


# --------------------------------------------------------------------------------------------------
# pressured cells: a star here would leave an area with an exact need too little room


def find_pressured(state: StarState, name: str, cost: int, *, areas: str) -> Step | None:
    """A cell is empty if a star there (with every cell it rules out, and the rest of each unit that
    needs just that star) leaves an area fewer 2x2 blocks than the stars it must still hold.
    `areas`: "lines" (two adjacent rows or columns) or "remainders" (what regions leave of windows
    of one or two lines, and what they spill outside them)."""
    geo, cand = state.geo, state.cand
    needs = state.needs()
    candidates: list[Area] = []
    if areas == "lines":
        n = geo.n
        for base in (0, n):
            for i in range(n - 1):
                a, b = base + i, base + i + 1
                if needs[a] > 0 and needs[b] > 0:
                    candidates.append(Area(cand & (geo.unit_mask[a] | geo.unit_mask[b]), needs[a] + needs[b],
                                           (a, b), partial(_pair_words, geo, a, b, needs[a] + needs[b])))
    else:
        for size in (1, 2):
            for kind in ("remainder", "excess"):
                candidates.extend(a for a in window_areas(state, needs, size, kind) if a.need >= 1)
    for area in candidates:
        cells = area.cells & cand
        m = area.need
        if m < 1 or cells.bit_count() > 4 * m + 4:
            continue
        # compiled: the candidates on which a star leaves the area too few cells, or a cover by fewer
        # 2x2 blocks than the stars it still wants
        crowders = geo.finders.pressured_crowders(cells, m, needs, cand)
        if crowders:
            found = cells_of(crowders)
            return Step(name, cost, (), found, geo.names(area.units),
                        f"{area.because}; a star at {' or '.join(geo.cell_name[c] for c in found)} would leave "
                        f"room for fewer (its free cells would fit in fewer 2x2 blocks), so "
                        + ("it is" if len(found) == 1 else "they are") + " empty")
    return None


# --------------------------------------------------------------------------------------------------
# set differentials: a window of adjacent lines against a set of regions
#
# For a window W and any set G of regions, stars(W outside G) - stars(G outside W) = need(W) - need(G)
# (both sides count the stars of W and G minus those they share). With the regions inside W and some
# of those only partly inside as G, when the cells of W outside G fit in exactly need(W) - need(G)
# 2x2 blocks, they hold that many stars at most, so the cells of G outside W hold none; and the other
# way round. (G = the regions inside W is the remainder; G = every touching region is the excess.)

DIFFERENTIAL_PARTS = 2      # regions only partly inside the window that one argument may take


def find_differential(state: StarState, name: str, cost: int, *, sizes: tuple[int, ...]) -> Step | None:
    """The first window of `sizes` adjacent lines whose set differential against a group of regions
    empties one side (compiled: `Prober.differential`; its Finding names the side the blocks bound
    first, and holds the lines' need and the group's)."""
    geo, n = state.geo, state.geo.n
    found = geo.finders.differential(state.cand, state.needs(), sizes, DIFFERENTIAL_PARTS)
    if found is None:
        return None
    lines = tuple(u for u in found.units if u < 2 * n)
    group = tuple(u for u in found.units if u >= 2 * n)
    need_w, need_g = found.need, found.count
    names = join_names(geo.names(lines))
    regs = join_names(geo.names(group))
    if found.units[0] < 2 * n:          # the window's cells outside the group are bounded
        why = (f"{names} need {need_w} more stars and {regs} need {need_g}: the cells "
               f"of {names} outside {regs} fit in {found.blocks} 2x2 blocks, so they "
               f"hold at most {need_w - need_g}, and the cells of {regs} outside {names} hold none")
    else:
        why = (f"{regs} need {need_g} more stars and {names} need {need_w}: the cells "
               f"of {regs} outside {names} fit in {found.blocks} 2x2 blocks, so they "
               f"hold at most {need_g - need_w}, and the cells of {names} outside {regs} hold none")
    return _finding_step(state, name, cost, found, lines + group, why)
