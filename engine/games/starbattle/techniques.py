"""Star Battle family techniques: the human ladder for Queens (k = 1, with or without the chess
diagonals) and Star Battle (k = 2, 3).

Glossary. A *unit* is a row, a column or a region (numbered 0..3n-1 in that order, as in _search.pxd).
A *candidate* is a cell that is neither a star nor ruled out. A unit's *need* is k minus its stars.
Two cells *attack* each other when they touch (and, in classic-diagonal Queens, when they share a
diagonal). Cells are r * n + c; every set of cells is a Python int used as a bitset.

Each technique is a finder: it looks at a state and returns one Step (or None) without changing the
state. Steps that place stars also carry the bookkeeping a person does at once with the pencil: the
cells the new stars attack and the other cells of units the new stars complete.

Every technique must be sound on *any* position, not only on positions the ladder reaches: it may only
rule out cells that no solution extending the position uses, and only place stars that every such
solution has. The tests check each one against the compiled brute-force search.

The ladder (order = position; tier = Queens difficulty tier):

    tier 1  star-neighbours      cells attacked by a star are empty
            unit-full            a unit with k stars has no other star
            last-free-cells      a unit with exactly as many candidates as stars still needed
    tier 2  confinement          one region whose candidates lie in lines that need exactly as many
                                 stars as it does (or one line inside regions): the rest of those
                                 lines (regions) is empty
            shared-neighbour     a cell attacked by every candidate of a unit that needs one more star
            crowding             a star here would leave some unit too little room
    tier 3  2x2-bound            a unit's candidates covered by as many 2x2 blocks as it needs stars:
                                 each block holds exactly one
            pigeonhole           2-3 regions inside lines (lines inside regions) that need as many stars
            squeeze              2x2-bound on two adjacent rows or columns together
            fish                 2+ rows inside as many columns' worth of need (X-Wing at k = 1)
            pigeonhole-large     4..n/2 regions inside lines, or lines inside regions
    tier 4  hypothesis           a star here leads to a contradiction: the basic rules (tier 1) to a
                                 fixed point, with up to PROBE_BUDGET tier-2 steps in between
                                 (every candidate is tried with tier 1 alone before any with tier 2)
            deep-hypothesis      ... with tier-2 and tier-3 steps in between

Speed: positions are Python ints used as bitsets; the probes of the hypothetical steps, where nearly
all the time goes, are screened by a compiled twin (_techniques.pyx) whose every "contradiction" is
confirmed by the Python probe, so the recorded steps never depend on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache, partial

from engine.ladder import Ladder, Step, Technique, run
from engine.games.starbattle.blocks import find_2x2_bound, find_squeeze
from engine.games.starbattle.state import (Geometry, StarState, can_place, cells_of, cells_text, geometry,
                                           join_names, place_step, regions_first, stars_text)

# --------------------------------------------------------------------------------------------------
# tier 1


def find_star_neighbours(state: StarState, name: str, cost: int) -> Step | None:
    geo, cand = state.geo, state.cand
    stars = state.stars
    while stars:
        low = stars & -stars
        cell = low.bit_length() - 1
        stars ^= low
        elim = geo.attack[cell] & cand
        if elim:
            return Step(name, cost, (), cells_of(elim), (),
                        f"the star at {geo.cell_name[cell]} rules out the cells it "
                        + ("attacks" if geo.diagonals else "touches"))
    return None


def find_unit_full(state: StarState, name: str, cost: int) -> Step | None:
    geo, cand, stars, k = state.geo, state.cand, state.stars, state.geo.k
    for u in regions_first(geo):
        m = geo.unit_mask[u]
        if cand & m and (stars & m).bit_count() >= k:
            return Step(name, cost, (), cells_of(cand & m), (geo.unit_name[u],),
                        f"{geo.unit_name[u]} already has its " + ("star" if k == 1 else f"{k} stars")
                        + ", so its other cells are empty")
    return None


def find_last_free_cells(state: StarState, name: str, cost: int) -> Step | None:
    geo, cand, stars, k = state.geo, state.cand, state.stars, state.geo.k
    for u in regions_first(geo):
        m = geo.unit_mask[u]
        need = k - (stars & m).bit_count()
        if need > 0:
            free = cand & m
            if free and free.bit_count() == need:
                unit = geo.unit_name[u]
                why = (f"{unit} has one free cell left" if need == 1 else
                       f"{unit} needs {need} more stars and has exactly {need} free cells")
                return place_step(state, name, cost, free, 0, (u,), why)
    return None


# --------------------------------------------------------------------------------------------------
# counting: units inside other units (confinement, pigeonhole, fish)
#
# Let Y be a set of units of one kind (disjoint) and X the units of another kind (disjoint) that the
# candidates of Y touch. Every star Y still needs lies in X, so of the stars X still needs exactly
# need(Y) fall inside Y and need(X) - need(Y) outside. When the two needs are equal, the candidates of
# X outside Y are empty. (Taking complements, "Y inside X" is the same fact as "the other X-kind units
# inside the other Y-kind units", so groups up to n/2 cover every case.)

ROW, COL, REG = 0, 1, 2


def _span(geo: Geometry, mask: int, kind: int) -> int:
    """The units of `kind` (as a bitset of indices 0..n-1) that the cells of `mask` touch."""
    n = geo.n
    out = 0
    if kind == ROW:
        r = 0
        bits = geo.rowbits
        while mask:
            if mask & bits:
                out |= 1 << r
            mask >>= n
            r += 1
    elif kind == COL:
        bits = geo.rowbits
        while mask:
            out |= mask & bits
            mask >>= n
    else:
        reg = geo.region_of
        while mask:
            low = mask & -mask
            out |= 1 << reg[low.bit_length() - 1]
            mask ^= low
    return out


def _counting(state: StarState, name: str, cost: int, pairs: Sequence[tuple[int, int]],
              sizes: Sequence[int]) -> Step | None:
    geo, cand = state.geo, state.cand
    n, k = geo.n, geo.k
    needs = state.needs()
    for size in sizes:
        for ykind, xkind in pairs:
            ys = _spans(state, needs, ykind, xkind)
            if len(ys) < size:
                continue
            xbase = xkind * n
            xneeds = needs[xbase:xbase + n]
            # most that the units still to be picked can add to need(Y), for pruning
            top = sorted((y[2] for y in ys), reverse=True)
            room = [sum(top[:i]) for i in range(size + 1)]
            found = _group_dfs(ys, size, room, 0, 0, 0, 0, 0, 0, (), xneeds, xbase, geo, cand)
            if found is not None:
                chosen, span, elim, need_y = found
                xs = tuple(xbase + i for i in range(n) if span >> i & 1)
                ynames = geo.names(chosen)
                xnames = geo.names(xs)
                if k == 1 and size == 1 and len(xs) == 1:
                    why = (f"the free cells of {ynames[0]} all lie in {xnames[0]}, so the star of "
                           f"{xnames[0]} is in {ynames[0]}: the rest of {xnames[0]} is empty")
                else:
                    verb = "needs" if len(xs) == 1 else "need"
                    why = (f"{join_names(ynames)} must still place {stars_text(need_y)}, all within "
                           f"{join_names(xnames)}, which {verb} exactly that many: the rest of "
                           f"{join_names(xnames)} is empty")
                return Step(name, cost, (), cells_of(elim), ynames + xnames, why)
    return None


def _spans(state: StarState, needs: list[int], ykind: int, xkind: int) -> list:
    """The units of `ykind` still needing stars, each as (unit, candidates, need, span over `xkind`);
    kept on the state until it changes, since four techniques ask for the same lists."""
    key = (ykind, xkind)
    memo = state.memo
    if memo is not None and key in memo:
        return memo[key]
    if memo is None:
        memo = state.memo = {}
    geo, cand, n = state.geo, state.cand, state.geo.n
    ys = []
    for i in range(n):
        u = ykind * n + i
        cm = cand & geo.unit_mask[u]
        if cm and needs[u] > 0:
            ys.append((u, cm, needs[u], _span(geo, cm, xkind)))
    memo[key] = ys
    return ys


def _group_dfs(ys, size, room, start, depth, span, need_x, need_y, mask_y, chosen, xneeds, xbase, geo,
               cand):
    """Depth-first over groups of `size` (>= 1) units from `ys`: the first whose spanned units need
    exactly as many stars as the group and have candidates outside it. Prunes when the spanned units
    already need more than the group could ever reach."""
    left = size - depth
    unit_mask = geo.unit_mask
    for j in range(start, len(ys) - left + 1):
        u, cm, nd, sp = ys[j]
        new = sp & ~span
        nx = need_x
        while new:
            low = new & -new
            nx += xneeds[low.bit_length() - 1]
            new ^= low
        if left == 1:
            # the last unit of the group: the needs must match exactly
            if nx == need_y + nd:
                s = span | sp
                xmask = 0
                while s:
                    low = s & -s
                    xmask |= unit_mask[xbase + low.bit_length() - 1]
                    s ^= low
                elim = cand & xmask & ~(mask_y | unit_mask[u])
                if elim:
                    return chosen + (u,), span | sp, elim, need_y + nd
            continue
        if nx > need_y + nd + room[left - 1]:
            continue
        found = _group_dfs(ys, size, room, j + 1, depth + 1, span | sp, nx, need_y + nd,
                           mask_y | unit_mask[u], chosen + (u,), xneeds, xbase, geo, cand)
        if found is not None:
            return found
    return None


_REGION_LINE = ((REG, ROW), (REG, COL), (ROW, REG), (COL, REG))
_LINE_LINE = ((ROW, COL), (COL, ROW))


def find_confinement(state: StarState, name: str, cost: int) -> Step | None:
    return _counting(state, name, cost, _REGION_LINE, (1,))


def find_pigeonhole(state: StarState, name: str, cost: int) -> Step | None:
    return _counting(state, name, cost, _REGION_LINE, (2, 3))


def find_pigeonhole_large(state: StarState, name: str, cost: int) -> Step | None:
    return _counting(state, name, cost, _REGION_LINE, tuple(range(4, state.geo.n // 2 + 1)))


def find_fish(state: StarState, name: str, cost: int) -> Step | None:
    return _counting(state, name, cost, _LINE_LINE, tuple(range(2, state.geo.n // 2 + 1)))


# --------------------------------------------------------------------------------------------------
# shared neighbour and crowding


def find_shared_neighbour(state: StarState, name: str, cost: int) -> Step | None:
    geo, cand, stars, k = state.geo, state.cand, state.stars, state.geo.k
    attack = geo.attack
    for u in regions_first(geo):
        m = geo.unit_mask[u]
        if k - (stars & m).bit_count() != 1:
            continue
        free = cand & m
        if not free or free.bit_count() == 1:
            continue
        common = cand
        f = free
        while f and common:
            low = f & -f
            common &= attack[low.bit_length() - 1]
            f ^= low
        if common:
            unit = geo.unit_name[u]
            return Step(name, cost, (), cells_of(common), (unit,),
                        f"{unit} needs one more star and every free cell of it "
                        + ("attacks" if geo.diagonals else "touches") + f" {cells_text(cells_of(common), geo)}")
    return None


def _removed(state: StarState, needs: list[int]) -> list[int]:
    """For every cell x, the cells a star on x takes away: x itself, the cells it attacks, and the rest
    of each unit that needs just that one star. The relation is symmetric: y is in removed[x] exactly
    when x is in removed[y]."""
    geo = state.geo
    hit, unit_mask, cell_units = geo.hit, geo.unit_mask, geo.cell_units
    one = [unit_mask[u] if needs[u] == 1 else 0 for u in range(geo.nunits)]
    out = [0] * (geo.n * geo.n)
    c_mask = state.cand
    while c_mask:
        low = c_mask & -c_mask
        cell = low.bit_length() - 1
        c_mask ^= low
        a, b, c = cell_units[cell]
        out[cell] = hit[cell] | one[a] | one[b] | one[c]
    return out


def find_crowding(state: StarState, name: str, cost: int) -> Step | None:
    """A cell is empty if a star there (with the cells it rules out and the units it completes) would
    leave some unit unable to fit the stars it still needs."""
    geo, cand = state.geo, state.cand
    hit, unit_mask = geo.hit, geo.unit_mask
    needs = state.needs()
    removed = _removed(state, needs)
    fits_memo = geo.fits
    if len(fits_memo) > 200_000:
        fits_memo.clear()
    one_units = 0
    for u in range(geo.nunits):
        if needs[u] == 1:
            one_units |= unit_mask[u]
    for u in regions_first(geo):
        need = needs[u]
        if need <= 0:
            continue
        m = unit_mask[u]
        free = cand & m
        if not free:
            continue
        crowders = 0
        if need == 1:
            # the cells whose removal set swallows every free cell of the unit
            common = cand & ~m
            f = free
            while f and common:
                low = f & -f
                common &= removed[low.bit_length() - 1]
                f ^= low
            crowders = common
        else:
            # a star takes at most 9 cells by touching, plus whole units that need one star; with
            # more than 4(want - 1) cells left, `want` stars always fit
            size = free.bit_count()
            if size - 9 - (free & one_units).bit_count() > 4 * (need - 2):
                continue
            near = 0
            f = free
            while f:
                low = f & -f
                near |= removed[low.bit_length() - 1]
                f ^= low
            near &= cand
            while near:
                low = near & -near
                cell = low.bit_length() - 1
                near ^= low
                want = need - 1 if low & m else need
                if want <= 0:
                    continue
                rest = free & ~removed[cell]
                size = rest.bit_count()
                if size < want:
                    crowders |= low
                elif size <= 4 * want - 4:
                    key = (rest, want)
                    fits = fits_memo.get(key)
                    if fits is None:
                        fits = fits_memo[key] = can_place(rest, want, hit)
                    if not fits:
                        crowders |= low
        if crowders:
            unit = geo.unit_name[u]
            cells = cells_of(crowders)
            what = "a star" if len(cells) == 1 else "a star on any of them"
            return Step(name, cost, (), cells, (unit,),
                        f"{what} would leave {unit} no room for "
                        + ("its last star" if need == 1 else f"the {need} stars it still needs")
                        + f": {cells_text(cells, geo)} " + ("is" if len(cells) == 1 else "are") + " empty")
    return None



# --------------------------------------------------------------------------------------------------
# hypotheticals


def _probe_order(state: StarState) -> list[int]:
    """Candidates in the order a person would try them: cells of the tightest units first."""
    geo, cand = state.geo, state.cand
    needs = state.needs()
    best = {}
    for u, m in enumerate(geo.unit_mask):
        free = cand & m
        if needs[u] <= 0 or not free:
            continue
        slack = free.bit_count() - needs[u]
        for cell in cells_of(free):
            if slack < best.get(cell, 1 << 30):
                best[cell] = slack
    return sorted(best, key=lambda c: (best[c], c))


PROBE_BUDGET = 20         # deductions beyond the basic rules that one probe may use
USE_COMPILED_PROBE = True  # the compiled filter (tests switch it off to compare)


def probe(state: StarState, cell: int, extra: Sequence[Technique], basic: Ladder,
          budget: int = PROBE_BUDGET) -> tuple[bool, StarState, int]:
    """Assume a star on `cell` and carry the position on: the basic rules to a fixed point, then the
    first step of `extra` (in ladder order), again and again while `budget` allows.

    Returns (contradiction, the position reached, deductions used beyond the basic rules)."""
    s = state.copy()
    s.apply(Step("assume", 0, (cell,), cells_of(s.consequences(1 << cell))))
    used = 0
    while True:
        result = run(s, basic)
        if result.contradiction:
            return True, s, used
        if result.solved or used >= budget:
            return False, s, used
        for technique in extra:
            step = technique.find(s)
            if step is not None:
                break
        else:
            return False, s, used
        s.apply(step)
        used += 1


def _prober(geo: Geometry):
    prober = geo.prober
    if prober is None:
        try:
            from engine.games.starbattle._techniques import Prober
        except ImportError:          # the compiled module is an accelerator, never required
            prober = False
        else:
            prober = Prober(geo.n, geo.k, geo.diagonals, list(geo.regions))
        geo.prober = prober
    return prober


def find_hypothesis(state: StarState, name: str, cost: int, *,
                    levels: Sequence[tuple[int, Callable[[], Sequence[Technique]]]],
                    basic: Callable[[], Ladder], budget: int = PROBE_BUDGET) -> Step | None:
    """A candidate is empty if a star on it leads to a contradiction (see `probe`). Each level names
    the techniques a probe may use beyond the basic rules; every candidate is tried at the first
    level before any at the next (the short, plain contradiction is the one a person finds).
    Levels 1 (basic rules only) and 2 (tier 2) are first screened by the compiled prober; its
    answer is always confirmed here, and the Python probe's position gives the sentence."""
    geo = state.geo
    order = _probe_order(state)
    if not order:
        return None
    base = basic()
    prober = _prober(geo) if USE_COMPILED_PROBE else False
    nbytes = (geo.n * geo.n + 7) // 8
    for level, extra_of in levels:
        extra = extra_of()
        if prober and level <= 2:
            cand = state.cand.to_bytes(nbytes, "little")
            stars = state.stars.to_bytes(nbytes, "little")
            start = 0
            while start < len(order):
                i = prober.first_contradiction(cand, stars, order[start:], level, budget)
                if i < 0:
                    break
                cell = order[start + i]
                found, reached, used = probe(state, cell, extra, base, budget)
                if found:
                    return _hypothesis_step(state, name, cost, cell, reached, used)
                start += i + 1          # the compiled probe saw more than the ladder: not expected
            continue
        for cell in order:
            found, reached, used = probe(state, cell, extra, base, budget)
            if found:
                return _hypothesis_step(state, name, cost, cell, reached, used)
    return None


def _hypothesis_step(state: StarState, name: str, cost: int, cell: int, reached: StarState,
                     used: int) -> Step:
    geo = state.geo
    bad = reached.broken_unit()
    where = f": {geo.unit_name[bad]} could not be completed" if bad is not None else ""
    units = (geo.unit_name[bad],) if bad is not None else ()
    how = "the basic rules" if not used else (
        f"the basic rules and {used} further deduction" + ("s" if used != 1 else ""))
    return Step(name, cost, (), (cell,), units,
                f"a star at {geo.cell_name[cell]} leads, by {how}, to a contradiction{where}")


# --------------------------------------------------------------------------------------------------
# the table

# (name, finder, tier, Star Battle score). Queens charges by tier (1, 3, 6, 12 per step).
_ENTRIES: tuple[tuple[str, Callable, int, int], ...] = (
    ("star-neighbours", find_star_neighbours, 1, 1),
    ("unit-full", find_unit_full, 1, 1),
    ("last-free-cells", find_last_free_cells, 1, 2),
    ("confinement", find_confinement, 2, 8),
    ("shared-neighbour", find_shared_neighbour, 2, 12),
    ("crowding", find_crowding, 2, 20),
    ("2x2-bound", find_2x2_bound, 3, 30),
    ("pigeonhole", find_pigeonhole, 3, 40),
    ("squeeze", find_squeeze, 3, 60),
    ("fish", find_fish, 3, 80),
    ("pigeonhole-large", find_pigeonhole_large, 3, 100),
    ("hypothesis", find_hypothesis, 4, 400),
    ("deep-hypothesis", find_hypothesis, 4, 1500),
)

QUEENS_TIER_COST = {1: 1, 2: 3, 3: 6, 4: 12}
HYPOTHESES = ("hypothesis", "deep-hypothesis")
TRIALS = HYPOTHESES


@lru_cache(maxsize=8)
def ladder_for(stars: int) -> Ladder:
    """The technique table for k stars (Queens costs by tier, Star Battle per technique)."""
    entries: list[Technique] = []
    holder: dict[str, Ladder] = {}

    def sub(tier: int) -> Callable[[], Ladder]:
        def get() -> Ladder:
            key = f"upto{tier}"
            if key not in holder:
                holder[key] = Ladder(holder["ladder"].upto(tier))
            return holder[key]
        return get

    def only_tier(t: int) -> Callable[[], tuple[Technique, ...]]:
        return lambda: tuple(x for x in holder["ladder"] if x.tier == t)

    def tier_range(low: int, high: int) -> Callable[[], tuple[Technique, ...]]:
        return lambda: tuple(x for x in holder["ladder"] if low <= x.tier <= high)

    for order, (name, finder, tier, score) in enumerate(_ENTRIES, start=1):
        cost = QUEENS_TIER_COST[tier] if stars == 1 else score
        if name == "hypothesis":
            find = partial(finder, name=name, cost=cost, basic=sub(1),
                           levels=((1, lambda: ()), (2, only_tier(2))))
        elif name == "deep-hypothesis":
            find = partial(finder, name=name, cost=cost, basic=sub(1), levels=((3, tier_range(2, 3)),))
        else:
            find = partial(finder, name=name, cost=cost)
        entries.append(Technique(name, order * 10, tier, cost, find))
    holder["ladder"] = Ladder(entries)
    return holder["ladder"]


def technique_names() -> tuple[str, ...]:
    return tuple(entry[0] for entry in _ENTRIES)


__all__ = ["Geometry", "HYPOTHESES", "PROBE_BUDGET", "QUEENS_TIER_COST", "StarState", "can_place", "cells_of",
           "geometry", "ladder_for", "probe", "technique_names"]
