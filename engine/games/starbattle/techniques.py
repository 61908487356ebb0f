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

The ladder is the table at the end of this file (`_ENTRIES`): one line per technique, in the order
the ladder tries them, with its tier (the Queens difficulty level), its cost per step on the Star
Battle scale (1 for a touching cell up to 3,840 for the longest trial) and its finder's options. The
families, in the words of human Star Battle guides:

    basic rules        star-neighbours, unit-full, last-free-cells
    confinement        region-in-line, line-in-region: one unit's candidates inside one other unit
    one-unit logic     shared-neighbour (every candidate attacks a cell), crowding (a star here leaves a
                       unit no room), footprints (every way a unit can hold its stars agrees on a cell)
    counting           undercount-N (N regions inside N lines), overcount-N (N lines inside N
                       regions), x-wing / swordfish / fish-large (lines inside lines)
    2x2 blocks         2x2-bound (one unit), squeeze (two adjacent lines), region-pair/-triple
                       (touching regions together), remainder-N and excess-N (what the regions leave
                       of N adjacent lines, and what they spill outside them: blocks.py),
                       differential-N (N lines against regions partly inside them)
    composite regions  composite-footprint-N: what the regions leave of N adjacent lines (or spill
                       outside them) holds an exact number of stars, so its footprint is read like a
                       region's
    pressured cells    a star here leaves two adjacent lines, a remainder, or two units that cross or
                       touch, too little room (pressured-lines, -remainder, -pair)
    trial              a star here leads to a contradiction, by depth: the basic rules alone
                       (trial-basic), with confinement/one-unit steps (trial-short), with the cheaper
                       counting and block steps (trial-deep), with everything and a short trial inside
                       (trial-long); last, case analysis on one unit (trial-cases: every way it
                       can hold its stars carried on as the long trial does). Trials come last and
                       only when nothing else moves.

Speed: positions are Python ints used as bitsets; the probes of the trials, where much of the
time goes, are screened by a compiled twin (_techniques.pyx) whose every "contradiction" is
confirmed by the Python probe, so the recorded steps never depend on it. The same module runs what
most grades spend their time in (crowding, the counting groups, pressured areas, and the
enumerations: `_ways` and `_agreement` for footprints, the per-cell loops of crowded-group and
pressured-footprint, the pair search of pressured-pair) step for step as the Python code does
(`state.compiled_finders`), and screens the 2x2-block arguments and the
set differentials (whether any argument holds; the Python finder then finds and words the first); the
Python code stays as the fallback and as the reference parity tests hold the compiled one to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import NamedTuple

from engine.ladder import Ladder, Step, Technique, run
from engine.games.starbattle.blocks import (find_2x2_bound, find_differential, find_pressured, find_region_group, find_squeeze,
                                            find_window, window_areas)
from engine.games.starbattle.state import (Geometry, StarState, can_place, cells_of, cells_text, geometry,
                                           join_names, place_step, regions_first, removal_sets, taking_any,
                                           compiled_finders, stars_text)

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


def _counting(state: StarState, name: str, cost: int, *, pairs: Sequence[tuple[int, int]],
              sizes: Sequence[int]) -> Step | None:
    geo, cand = state.geo, state.cand
    n, k = geo.n, geo.k
    needs = state.needs()
    compiled = compiled_finders(geo)
    for size in sizes:
        if size >= 4 and size > n // 2:
            break               # a larger group is the complement of a smaller one
        for ykind, xkind in pairs:
            xbase = xkind * n
            if compiled:
                found = compiled.counting_group(cand, needs, ykind, xkind, size)
            else:
                ys = _spans(state, needs, ykind, xkind)
                if len(ys) < size:
                    continue
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


def find_crowding(state: StarState, name: str, cost: int) -> Step | None:
    """A cell is empty if a star there (with the cells it rules out and the units it completes) would
    leave some unit unable to fit the stars it still needs."""
    geo, cand = state.geo, state.cand
    compiled = compiled_finders(geo)
    if compiled:
        nbytes = (geo.n * geo.n + 7) // 8
        found = compiled.crowding(cand.to_bytes(nbytes, "little"), state.stars.to_bytes(nbytes, "little"))
        return None if found is None else _crowding_step(state, name, cost, *found)
    hit, unit_mask = geo.hit, geo.unit_mask
    needs = state.needs()
    removed = removal_sets(state, needs)
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
            near = taking_any(removed, free) & cand
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
            return _crowding_step(state, name, cost, u, crowders)
    return None


def _crowding_step(state: StarState, name: str, cost: int, u: int, crowders: int) -> Step:
    geo = state.geo
    need = state.need(u)
    unit = geo.unit_name[u]
    cells = cells_of(crowders)
    what = "a star" if len(cells) == 1 else "a star on any of them"
    return Step(name, cost, (), cells, (unit,),
                f"{what} would leave {unit} no room for "
                + ("its last star" if need == 1 else f"the {need} stars it still needs")
                + f": {cells_text(cells, geo)} " + ("is" if len(cells) == 1 else "are") + " empty")



def _pair_crowders(geo: Geometry, fu: int, fv: int, u: int, v: int, needs: Sequence[int], cand: int,
                   near: int, units: Sequence[int], removed: list[int]) -> int:
    """The cells of `near` on which a star (with the cells it rules out, `removed`: removal_sets)
    leaves units u and v (their candidates `fu`, `fv`) unable to hold their stars together, every unit
    of `units` keeping room for what it needs; a bitset. find_pressured_pair's Python path; the
    compiled search (Prober.pressured_pair) looks at each pair as Prober.pair_crowders does, which a
    parity test holds to this."""
    crowders = 0
    while near:
        low = near & -near
        cell = low.bit_length() - 1
        near ^= low
        after = list(needs)
        left = units
        for w in geo.cell_units[cell]:
            after[w] -= 1
            if after[w] <= 0:           # a unit the star completes needs no more room
                left = [x for x in units if after[x] > 0]
        keep = ~removed[cell]
        if not _pair_fits(geo, fu & keep, fv & keep, after[u], after[v], after, cand & keep, left):
            crowders |= low
    return crowders


def _keeps_room(geo: Geometry, units: Sequence[int], needs: Sequence[int], cand: int, chosen: int,
                gone: int) -> bool:
    """Whether, with the stars `chosen` placed and the cells `gone` ruled out, every unit of `units`
    keeps room among `cand` for the stars it still needs."""
    unit_mask = geo.unit_mask
    for v in units:
        mask = unit_mask[v]
        want = needs[v] - (chosen & mask).bit_count()
        if want > 0 and (cand & mask & ~gone & ~chosen).bit_count() < want:
            return False
    return True


def _pair_fits(geo: Geometry, a: int, b: int, wa: int, wb: int, needs: Sequence[int], cand: int,
               units: Sequence[int]) -> bool:
    """Whether exactly `wa` more stars fit among the cells `a` and exactly `wb` among `b` (the sets may
    share cells, a star there counting for both): no two stars attacking, no unit given more than
    `needs` allows, and every unit of `units` left room among `cand` for what it needs."""
    unit_mask, hit, cell_units = geo.unit_mask, geo.hit, geo.cell_units

    # `chosen`: the stars picked so far; `blocked`: the cells they rule out. Each branch either
    # stars the lowest open cell or drops it, so no state is reached twice.
    def fits(a: int, b: int, wa: int, wb: int, chosen: int, blocked: int) -> bool:
        if wa < 0 or wb < 0:
            return False
        if wa == 0 and wb == 0:
            return _keeps_room(geo, units, needs, cand, chosen, blocked)
        if a.bit_count() < wa or b.bit_count() < wb:
            return False
        pick = a if wa else b
        low = pick & -pick
        cell = low.bit_length() - 1
        gone = hit[cell]
        now = chosen | low
        for v in cell_units[cell]:
            mask = unit_mask[v]
            if (now & mask).bit_count() >= needs[v]:
                gone |= mask
        return (fits(a & ~gone, b & ~gone, wa - bool(a & low), wb - bool(b & low), now, blocked | gone)
                or fits(a & ~low, b & ~low, wa, wb, chosen, blocked))

    return fits(a, b, wa, wb, 0, 0)


def _pairs_near(geo: Geometry) -> tuple[tuple[int, int], ...]:
    return _pairs_of(geo.n, geo.regions)


@lru_cache(maxsize=64)
def _pairs_of(n: int, regions: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Pairs of units a person weighs together: any two that cross or touch (a cell of one on or
    next to a cell of the other)."""
    units_near: list[set[int]] = [set() for _ in range(3 * n)]
    for cell in range(n * n):
        r, c = divmod(cell, n)
        mine = (r, n + c, 2 * n + regions[cell])
        for rr in range(max(0, r - 1), min(n, r + 2)):
            for cc in range(max(0, c - 1), min(n, c + 2)):
                theirs = (rr, n + cc, 2 * n + regions[rr * n + cc])
                for u in mine:
                    units_near[u].update(theirs)
    return tuple((u, v) for u in range(3 * n) for v in sorted(units_near[u]) if v > u)


def find_pressured_pair(state: StarState, name: str, cost: int) -> Step | None:
    """Crowding on two units at once: a cell is empty if a star there (with the cells it rules out and
    the units it completes) leaves two units that cross or touch unable to hold their stars together."""
    geo, cand = state.geo, state.cand
    unit_mask = geo.unit_mask
    needs = state.needs()
    tight = _short_of_room(geo, cand, needs)
    compiled = compiled_finders(geo)
    if compiled:
        found = compiled.pressured_pair(needs, cand, _pairs_near(geo), tight)
        return None if found is None else _pressured_pair_step(state, name, cost, *found)
    removed = removal_sets(state, needs)
    for u, v in _pairs_near(geo):
        nu, nv = needs[u], needs[v]
        if nu <= 0 or nv <= 0:
            continue
        fu, fv = cand & unit_mask[u], cand & unit_mask[v]
        if fu.bit_count() > 2 * nu + 2 and fv.bit_count() > 2 * nv + 2:
            continue                    # neither is cramped: a person looks where room is short
        # the cells whose star takes room from both (or sits in one and takes room from the other)
        near = taking_any(removed, fu) & taking_any(removed, fv) & cand
        if not near:
            continue
        crowders = _pair_crowders(geo, fu, fv, u, v, needs, cand, near, [w for w in tight if w != u and w != v],
                                  removed)
        if crowders:
            return _pressured_pair_step(state, name, cost, u, v, crowders)
    return None


def _pressured_pair_step(state: StarState, name: str, cost: int, u: int, v: int, crowders: int) -> Step:
    geo = state.geo
    cells = cells_of(crowders)
    pair = f"{geo.unit_name[u]} and {geo.unit_name[v]}"
    return Step(name, cost, (), cells, geo.names((u, v)),
                f"a star at {' or '.join(geo.cell_name[c] for c in cells)} would leave {pair} no room "
                f"for the stars they still need, so " + ("it is" if len(cells) == 1 else "they are") + " empty")


# --------------------------------------------------------------------------------------------------
# footprints: the ways a unit can still hold the stars it needs


GROUP_STARS = 6           # the most stars a crowded group is weighed for (three units of two)
GROUP_TRIES = 5000        # partial placements a crowded-group check may try before giving up
FOOTPRINT_CELLS = 12      # units with more free cells than this have too many ways to list by eye
FOOTPRINT_SLACK = 5       # a way is checked against the units with at most this many spare cells


def _short_of_room(geo: Geometry, cand: int, needs: Sequence[int]) -> list[int]:
    """The units with at most FOOTPRINT_SLACK spare cells: only these can be emptied by a few stars,
    so a way is checked against them (a looser check is still sound)."""
    unit_mask = geo.unit_mask
    return [u for u in range(geo.nunits)
            if needs[u] > 0 and (cand & unit_mask[u]).bit_count() - needs[u] <= FOOTPRINT_SLACK]


def _placements(state: StarState, u: int, needs: Sequence[int], cand: int | None = None,
                first_only: bool = False, limit: int = 0) -> list[tuple[int, int]]:
    """Every way to put the stars unit u still needs on its candidates: no two attacking, no unit
    given more than it needs, and no unit left with fewer candidates than it needs. Each way is
    (its stars, the candidates it rules out elsewhere). `cand` overrides the position's candidates;
    `first_only` stops at the first way found; with `limit`, more ways than that give none."""
    if cand is None:
        cand = state.cand
    return _ways(state, cand & state.geo.unit_mask[u], needs[u], needs, cand, first_only, limit) or []


def _ways(state: StarState, area: int, m: int, needs: Sequence[int], cand: int, first_only: bool = False,
          limit: int = 0, budget: int = 0, telling: bool = False) -> list[tuple[int, int]] | None:
    """Every way to put m stars on the cells of `area`, checked as in `_placements`; None when there
    are more than `limit` ways or the search tries more than `budget` partial placements (0: no
    limit). Both are counts, not times, so a grade never depends on the machine. `telling`: the ways
    are wanted only for what they all agree on (see `_agreement`), so the search stops with
    no ways as soon as those found agree on nothing."""
    if m < 0:                   # a unit with more stars than it may hold: no way at all
        return []
    geo = state.geo
    compiled = compiled_finders(geo)
    if compiled:
        return compiled.ways(area, m, needs, cand, first_only, limit, budget, telling, FOOTPRINT_SLACK)
    cells = cells_of(area)
    out: list[tuple[int, int]] = []
    cell_units, attack, unit_mask = geo.cell_units, geo.attack, geo.unit_mask
    tight = _short_of_room(geo, cand, needs)
    # rest[i]: the area's cells from the i-th on, so a branch stops when too few of them are open
    rest = [0] * (len(cells) + 1)
    for i in range(len(cells) - 1, -1, -1):
        rest[i] = rest[i + 1] | 1 << cells[i]
    got = [0] * geo.nunits
    placed: list[int] = []
    too_many = hopeless = False
    tried = 0
    every, used, ruled = area, 0, cand & ~area

    def extend(start: int, chosen: int, blocked: int, left: int) -> None:
        nonlocal too_many, hopeless, tried, every, used, ruled
        tried += 1
        if budget and tried > budget:
            too_many = True
            return
        if left == 0:
            removed = blocked
            for cell in placed:
                for v in cell_units[cell]:
                    if got[v] == needs[v]:
                        removed |= unit_mask[v]
            removed &= cand & ~chosen
            for v in tight:
                if unit_mask[v] & removed:
                    want = needs[v] - got[v]
                    if want > 0 and (cand & unit_mask[v] & ~removed & ~chosen).bit_count() < want:
                        return
            out.append((chosen, removed))
            too_many = bool(limit) and len(out) > limit
            if telling:
                every &= chosen
                used |= chosen
                ruled &= removed
                hopeless = not every and used == area and not ruled
            return
        if (first_only and out) or too_many or hopeless or (rest[start] & ~blocked).bit_count() < left:
            return
        for i in range(start, len(cells) - left + 1):
            cell = cells[i]
            if blocked >> cell & 1:
                continue
            row, column, region = cell_units[cell]
            if got[row] >= needs[row] or got[column] >= needs[column] or got[region] >= needs[region]:
                continue
            got[row] += 1
            got[column] += 1
            got[region] += 1
            placed.append(cell)
            extend(i + 1, chosen | 1 << cell, blocked | attack[cell], left - 1)
            placed.pop()
            got[row] -= 1
            got[column] -= 1
            got[region] -= 1
            if too_many or hopeless:
                return

    extend(0, 0, 0, m)
    return None if too_many else [] if hopeless else out


class Agreement(NamedTuple):
    """What every way to fill an area agrees on."""
    ways: int           # how many ways there are
    every: int          # the cells every way stars
    unused: int         # the area's cells no way uses
    ruled: int          # the cells outside the area every way rules out


def _agreement(state: StarState, area: int, m: int, needs: Sequence[int], cand: int, limit: int = 0,
               budget: int = 0) -> Agreement | None:
    """What the ways to put m stars on `area` (as `_ways` finds them) agree on; None when there is no
    way, when those found already agree on nothing, or past `limit` ways or `budget` tries."""
    compiled = compiled_finders(state.geo)
    if compiled:
        found = compiled.agreement(area, m, needs, cand, limit, budget, FOOTPRINT_SLACK)
        return None if found is None else Agreement(*found)
    ways = _ways(state, area, m, needs, cand, limit=limit, budget=budget, telling=True)
    if not ways:
        return None
    every, used, ruled = state.geo.full, 0, cand
    for stars, removed in ways:
        every &= stars
        used |= stars
        ruled &= removed
    return Agreement(len(ways), every, area & ~used, ruled & ~area)


def _footprint_parts(state: StarState, agreed: Agreement) -> list[str]:
    """The words for what every way of filling an area agrees on."""
    geo = state.geo
    parts = []
    if agreed.every:
        parts.append(f"every one puts a star on {cells_text(cells_of(agreed.every), geo)}")
    if agreed.unused:
        parts.append(f"none uses {cells_text(cells_of(agreed.unused), geo)}")
    if agreed.ruled:
        parts.append(f"each rules out {cells_text(cells_of(agreed.ruled), geo)}")
    return parts


def find_footprint(state: StarState, name: str, cost: int, *, units: str) -> Step | None:
    """Every way a unit can still hold its stars puts a star on some cell (a star), leaves some of its
    cells unused (empty), or rules out some cell outside it (empty): the shapes with a known star
    footprint (1xn, L, T, plus) and the kissing shapes. `units`: "regions" or "lines"."""
    geo, cand, n = state.geo, state.cand, state.geo.n
    needs = state.needs()
    order = range(2 * n, 3 * n) if units == "regions" else range(2 * n)
    for u in order:
        m = needs[u]
        free = cand & geo.unit_mask[u]
        if m < 2 or free.bit_count() > FOOTPRINT_CELLS - 2 * (m - 2) or free.bit_count() <= m:
            continue
        agreed = _agreement(state, free, m, needs, cand)
        if agreed is None or not (agreed.every or agreed.unused or agreed.ruled):
            continue
        unit = geo.unit_name[u]
        why = (f"{unit} needs {stars_text(m)} and there are {agreed.ways} ways to fit them in its free cells: "
               + "; ".join(_footprint_parts(state, agreed)))
        if agreed.every:
            return place_step(state, name, cost, agreed.every, agreed.unused | agreed.ruled, (u,), why)
        return Step(name, cost, (), cells_of(agreed.unused | agreed.ruled), (unit,), why)
    return None


COMPOSITE_CELLS = 24      # a composite region's footprint is read on at most this many free cells
COMPOSITE_WAYS = 400      # ... and at most this many ways
COMPOSITE_TRIES = 4000    # ... found in at most this many partial placements (keeps grading fast)


def find_composite_footprint(state: StarState, name: str, cost: int, *, sizes: tuple[int, ...]) -> Step | None:
    """Footprints of composite regions: what the regions leave of a window of adjacent lines (or
    spill outside it) must hold an exact number of stars, like a region of its own; every way to fit
    them agrees on a star, leaves a cell unused, or rules out a cell outside."""
    geo, cand = state.geo, state.cand
    needs = state.needs()
    for size in sizes:
        if size >= 4 and size > geo.n // 2:
            break
        for kind in ("remainder", "excess"):
            for area in window_areas(state, needs, size, kind):
                free = area.cells & cand
                m = area.need
                if m < 1 or free.bit_count() <= m or free.bit_count() > COMPOSITE_CELLS - 2 * max(0, m - 2):
                    continue
                agreed = _agreement(state, free, m, needs, cand, limit=COMPOSITE_WAYS, budget=COMPOSITE_TRIES)
                if agreed is None or not (agreed.every or agreed.unused or agreed.ruled):
                    continue
                why = (f"{area.because}, so {area.what} hold exactly {stars_text(m)}; there are {agreed.ways} "
                       f"ways to fit them: " + "; ".join(_footprint_parts(state, agreed)))
                if agreed.every:
                    return place_step(state, name, cost, agreed.every, agreed.unused | agreed.ruled, area.units, why)
                return Step(name, cost, (), cells_of(agreed.unused | agreed.ruled), geo.names(area.units), why)
    return None


@lru_cache(maxsize=64)
def _crowded_groups(n: int, regions: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Groups of units a person weighs together, each holding an exact number of stars: two or three
    adjacent rows or columns, two regions that touch, and three regions one of which touches the
    other two (no two units of a group share a cell)."""
    lines = [tuple(base + i + j for j in range(width))
             for width in (2, 3) for base in (0, n) for i in range(n - width + 1)]
    touching = {(u, v) for u, v in _pairs_of(n, regions) if u >= 2 * n and v >= 2 * n}
    near: dict[int, set[int]] = {}
    for u, v in touching:
        near.setdefault(u, set()).add(v)
        near.setdefault(v, set()).add(u)
    triples = {tuple(sorted((hub, a, b))) for hub, others in near.items() for a in others for b in others if a < b}
    return (*lines, *sorted(touching), *sorted(triples))


def _stands(way: tuple[int, int], cell: int, area: int, removed: list[int], needs: Sequence[int], cand: int,
            geo: Geometry, tight: Sequence[int]) -> bool:
    """Whether a star on `cell` leaves this way of a group standing: the cell is one of its stars, or
    lies outside the group, clear of what the way rules out and of its stars (removal sets are
    symmetric), and every unit short of room keeps enough."""
    stars, ruled = way
    if stars >> cell & 1:
        return True
    if area >> cell & 1 or ruled >> cell & 1 or stars & removed[cell]:
        return False
    return _keeps_room(geo, tight, needs, cand, stars | 1 << cell, ruled | removed[cell])


def _first_way_crowders(state: StarState, area: int, group: Sequence[int], needs: Sequence[int], cand: int,
                        near: int, way: tuple[int, int] | None, tight: Sequence[int], budget: int,
                        removed: list[int]) -> int:
    """The cells of `near` on which a star (with the cells it rules out: `removed`, removal_sets)
    leaves the units of `group` (their candidates `area`) no way to hold the stars they still need; a
    search past `budget` partial placements (0: none) proves nothing. `way`: one way the group holds
    them, or None; a star that leaves it standing (checked against the units of `tight`) needs no
    search. Runs compiled when built (Prober.first_way_crowders, the same answer: a parity test)."""
    geo = state.geo
    compiled = compiled_finders(geo)
    if compiled:
        stars, ruled = way if way is not None else (-1, 0)
        return compiled.first_way_crowders(area, group, needs, cand, near, stars, ruled,
                                           tight if way is not None else (), budget, FOOTPRINT_SLACK)
    crowders = 0
    for cell in cells_of(near):
        if way is not None and _stands(way, cell, area, removed, needs, cand, geo, tight):
            continue                    # a star there leaves the known way standing
        keep = cand & ~removed[cell]
        after = list(needs)
        for w in geo.cell_units[cell]:
            after[w] -= 1
        if _ways(state, area & keep, sum(after[u] for u in group), after, keep, first_only=True,
                 budget=budget) == []:  # None: gave up counting, which proves nothing
            crowders |= 1 << cell
    return crowders


def find_crowded_group(state: StarState, name: str, cost: int) -> Step | None:
    """Crowding on a group of units at once (see _crowded_groups): a cell is empty if a star there
    (with the cells it rules out and the units it completes) leaves the group no way to hold the stars
    it still needs, each unit its own count, no unit given more than it needs and every unit short of
    room kept with enough."""
    geo, cand = state.geo, state.cand
    unit_mask = geo.unit_mask
    needs = state.needs()
    removed = removal_sets(state, needs)
    tight = _short_of_room(geo, cand, needs)
    for group in _crowded_groups(geo.n, geo.regions):
        if any(needs[u] <= 0 for u in group):
            continue
        area = 0
        for u in group:
            area |= unit_mask[u]
        area &= cand
        m = sum(needs[u] for u in group)
        if m > GROUP_STARS or area.bit_count() > 4 * m + 2:
            continue                    # too many stars to weigh at once, or room for a 2x2 block each and more
        found = _ways(state, area, m, needs, cand, first_only=True, budget=GROUP_TRIES)
        if not found:                   # None: gave up counting; []: no way at all, a contradiction
            continue
        crowders = _first_way_crowders(state, area, group, needs, cand, taking_any(removed, area) & cand,
                                       found[0], tight, GROUP_TRIES, removed)
        if crowders:
            cells = cells_of(crowders)
            return Step(name, cost, (), cells, geo.names(group),
                        f"a star at {' or '.join(geo.cell_name[c] for c in cells)} would leave "
                        f"{join_names(geo.names(group))} no way to hold the stars they still need together, so "
                        + ("it is" if len(cells) == 1 else "they are") + " empty")
    return None


def find_pressured_footprint(state: StarState, name: str, cost: int) -> Step | None:
    """A cell is empty if, with a star there, some unit close by has no way left to hold its stars
    (no two attacking, no unit over its count, no unit left without room)."""
    geo, cand = state.geo, state.cand
    needs = state.needs()
    removed = removal_sets(state, needs)
    for u in regions_first(geo):
        m = needs[u]
        free = cand & geo.unit_mask[u]
        if m < 1 or free.bit_count() > FOOTPRINT_CELLS - 2 * max(0, m - 2) or free.bit_count() < m:
            continue
        crowders = _first_way_crowders(state, free, (u,), needs, cand, taking_any(removed, free) & cand & ~free,
                                       None, (), 0, removed)
        if crowders:
            cells = cells_of(crowders)
            unit = geo.unit_name[u]
            return Step(name, cost, (), cells, (unit,),
                        f"with a star at {' or '.join(geo.cell_name[c] for c in cells)}, {unit} would have no "
                        f"way left to hold its {stars_text(m)} without leaving some row, column or region too "
                        f"little room, so " + ("it is" if len(cells) == 1 else "they are") + " empty")
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


LONG_PROBE_BUDGET = 60     # ... and a probe of the last rung
PROBE_BUDGET = 20         # deductions beyond the basic rules that one probe may use
USE_COMPILED_PROBE = True  # the compiled filter (tests switch it off to compare)


def probe(state: StarState, cell: int, extra: Sequence[Technique], basic: Ladder,
          budget: int = PROBE_BUDGET) -> tuple[bool, StarState, int]:
    """Assume a star on `cell` and carry the position on: the basic rules to a fixed point, then the
    first step of `extra` (in ladder order), again and again while `budget` allows.

    Returns (contradiction, the position reached, deductions used beyond the basic rules)."""
    return _assume(state, 1 << cell, extra, basic, budget)


def _assume(state: StarState, placed: int, extra: Sequence[Technique], basic: Ladder,
            budget: int) -> tuple[bool, StarState, int]:
    """`probe` for the stars `placed` at once."""
    s = state.copy()
    s.apply(Step("assume", 0, cells_of(placed), cells_of(s.consequences(placed) & ~placed)))
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
    prober = geo.compiled() if USE_COMPILED_PROBE else False
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
        depth_budget = budget if level < 4 else LONG_PROBE_BUDGET
        for cell in order:
            found, reached, used = probe(state, cell, extra, base, depth_budget)
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


CASE_WAYS = 200      # a unit is split into cases only when it holds its stars in at most this many ways
CASE_PROBES = 2000   # ways carried on per search (a count, so grades never depend on the machine)


def find_cases(state: StarState, name: str, cost: int, *, extra: Callable[[], Sequence[Technique]],
               basic: Callable[[], Ladder]) -> Step | None:
    """Case analysis on one unit: list every way it can hold the stars it still needs and carry each
    on as a long trial does; a way that leads to a contradiction is out, and what every other way
    agrees on holds (a cell none of them leaves open is empty, a star all of them place is a star).
    Units with the fewest ways are split first (the cases a person can keep in mind)."""
    geo, cand = state.geo, state.cand
    needs = state.needs()
    split = []
    for u in regions_first(geo):
        if needs[u] > 0:
            ways = _placements(state, u, needs, limit=CASE_WAYS)
            if ways:
                split.append((len(ways), u, ways))
    split.sort(key=lambda item: item[0])
    steps, base = extra(), basic()
    left = CASE_PROBES
    for _, u, ways in split:
        if len(ways) > left:
            break
        open_cells, common, alive = 0, geo.full, 0
        for tried, (chosen, _) in enumerate(ways, start=1):
            broken, reached, _ = _assume(state, chosen, steps, base, LONG_PROBE_BUDGET)
            if not broken:
                alive += 1
                open_cells |= reached.cand | reached.stars
                common &= reached.stars
                if not cand & ~open_cells and not common & cand:
                    break       # the ways carried on so far agree on nothing: the rest cannot help
        left -= tried
        if not alive:
            continue            # a position with no solution: nothing worth saying about it
        placed = common & cand
        elim = cand & ~open_cells & ~placed
        if not placed and not elim:
            continue
        unit, need = geo.unit_name[u], needs[u]
        held = ("its star" if geo.k == 1 else
                "the star it still needs" if need == 1 else f"the {need} stars it still needs")
        out = len(ways) - alive
        why = (f"{unit} can hold {held} in {len(ways)} ways"
               + (f"; {out} of them lead to a contradiction" if out else "")
               + (", and every way left" if out else ", and every one of them")
               + (f" puts a star at {cells_text(cells_of(placed), geo)}" if placed else "")
               + (" and" if placed and elim else "")
               + (f" leaves {cells_text(cells_of(elim), geo)} empty" if elim else ""))
        return place_step(state, name, cost, placed, elim, (u,), why)
    return None


# --------------------------------------------------------------------------------------------------
# the table

@dataclass(frozen=True, slots=True)
class Entry:
    """One technique: its name, tier (the Queens difficulty level it belongs to), cost per step on the
    Star Battle scale (1 = a touching cell ... 3,840 = a long chain of trial), finder and the options
    the finder takes. The ladder tries entries in table order."""
    name: str
    tier: int
    cost: int
    finder: Callable[..., Step | None]
    options: dict = field(default_factory=dict)
    in_trials: bool = True      # whether the deep trial may use it between its basic steps
    in_long_trial: bool = True  # whether the long trial may (a search too broad to repeat in every probe may not)


_LINES_IN_REGIONS = ((ROW, REG), (COL, REG))
_REGIONS_IN_LINES = ((REG, ROW), (REG, COL))
_LARGE = tuple(range(4, 13))           # groups of 4 or more (at most n/2 are ever needed)

# Tier 2 is what the compiled probe mirrors (level 2 of a trial): change it in both or in neither.
_ENTRIES: tuple[Entry, ...] = (
    Entry("star-neighbours", 1, 1, find_star_neighbours),
    Entry("unit-full", 1, 1, find_unit_full),
    Entry("last-free-cells", 1, 2, find_last_free_cells),
    Entry("region-in-line", 2, 6, _counting, {"pairs": _REGIONS_IN_LINES, "sizes": (1,)}),
    Entry("line-in-region", 2, 8, _counting, {"pairs": _LINES_IN_REGIONS, "sizes": (1,)}),
    Entry("shared-neighbour", 2, 12, find_shared_neighbour),
    Entry("crowding", 2, 20, find_crowding),
    Entry("2x2-bound", 3, 30, find_2x2_bound),
    Entry("undercount-2", 3, 40, _counting, {"pairs": _REGIONS_IN_LINES, "sizes": (2,)}),
    Entry("overcount-2", 3, 45, _counting, {"pairs": _LINES_IN_REGIONS, "sizes": (2,)}),
    Entry("region-footprint", 3, 50, find_footprint, {"units": "regions"}, in_trials=False),
    Entry("squeeze", 3, 60, find_squeeze),
    Entry("x-wing", 3, 60, _counting, {"pairs": _LINE_LINE, "sizes": (2,)}),
    Entry("remainder-1", 3, 60, find_window, {"kind": "remainder", "sizes": (1,)}),
    Entry("line-footprint", 3, 70, find_footprint, {"units": "lines"}, in_trials=False),
    Entry("excess-1", 3, 70, find_window, {"kind": "excess", "sizes": (1,)}),
    Entry("region-pair", 3, 80, find_region_group, {"size": 2}, in_trials=False),
    Entry("undercount-3", 3, 90, _counting, {"pairs": _REGIONS_IN_LINES, "sizes": (3,)}),
    Entry("overcount-3", 3, 100, _counting, {"pairs": _LINES_IN_REGIONS, "sizes": (3,)}),
    Entry("remainder-2", 3, 120, find_window, {"kind": "remainder", "sizes": (2,)}, in_trials=False),
    Entry("swordfish", 3, 120, _counting, {"pairs": _LINE_LINE, "sizes": (3,)}),
    Entry("excess-2", 3, 140, find_window, {"kind": "excess", "sizes": (2,)}, in_trials=False),
    Entry("differential-1", 3, 150, find_differential, {"sizes": (1,)}, in_trials=False),
    Entry("pressured-lines", 3, 160, find_pressured, {"areas": "lines"}, in_trials=False),
    Entry("pressured-pair", 3, 200, find_pressured_pair, in_trials=False),
    Entry("pressured-footprint", 3, 220, find_pressured_footprint, in_trials=False),
    Entry("region-triple", 3, 180, find_region_group, {"size": 3}, in_trials=False),
    Entry("undercount-large", 3, 200, _counting, {"pairs": _REGIONS_IN_LINES, "sizes": _LARGE}, in_trials=False),
    Entry("overcount-large", 3, 220, _counting, {"pairs": _LINES_IN_REGIONS, "sizes": _LARGE}, in_trials=False),
    Entry("fish-large", 3, 240, _counting, {"pairs": _LINE_LINE, "sizes": _LARGE}, in_trials=False),
    Entry("remainder-3", 3, 240, find_window, {"kind": "remainder", "sizes": (3,)}, in_trials=False),
    Entry("excess-3", 3, 260, find_window, {"kind": "excess", "sizes": (3,)}, in_trials=False),
    Entry("differential-2", 3, 280, find_differential, {"sizes": (2,)}, in_trials=False),
    Entry("composite-footprint-1", 3, 300, find_composite_footprint, {"sizes": (1,)}, in_trials=False),
    Entry("pressured-remainder", 3, 320, find_pressured, {"areas": "remainders"}, in_trials=False),
    Entry("composite-footprint-2", 3, 360, find_composite_footprint, {"sizes": (2,)}, in_trials=False),
    Entry("remainder-large", 3, 400, find_window, {"kind": "remainder", "sizes": _LARGE}, in_trials=False),
    Entry("composite-footprint-3", 3, 420, find_composite_footprint, {"sizes": (3,)}, in_trials=False),
    Entry("excess-large", 3, 440, find_window, {"kind": "excess", "sizes": _LARGE}, in_trials=False),
    Entry("differential-3", 3, 480, find_differential, {"sizes": (3,)}, in_trials=False),
    Entry("differential-large", 3, 640, find_differential, {"sizes": _LARGE}, in_trials=False),
    Entry("composite-footprint-large", 3, 700, find_composite_footprint, {"sizes": _LARGE}, in_trials=False),
    Entry("crowded-group", 3, 760, find_crowded_group, in_trials=False, in_long_trial=False),
    Entry("trial-basic", 4, 400, find_hypothesis, {"levels": ("basic",)}),
    Entry("trial-short", 4, 960, find_hypothesis, {"levels": ("short",)}),
    Entry("trial-deep", 4, 1920, find_hypothesis, {"levels": ("deep",)}),
    Entry("trial-long", 4, 3840, find_hypothesis, {"levels": ("long",)}),
    Entry("trial-cases", 4, 3840, find_cases, {"level": "long"}),
)

QUEENS_TIER_COST = {1: 1, 2: 3, 3: 6, 4: 12}
TRIALS = tuple(entry.name for entry in _ENTRIES if entry.finder in (find_hypothesis, find_cases))


@lru_cache(maxsize=8)
def ladder_for(stars: int) -> Ladder:
    """The technique table for k stars (Queens costs by tier, Star Battle per technique)."""
    entries: list[Technique] = []
    holder: dict[str, Ladder] = {}
    in_trials = {entry.name for entry in _ENTRIES if entry.in_trials}
    in_long_trial = {entry.name for entry in _ENTRIES if entry.in_long_trial}

    def basic() -> Ladder:
        if "basic" not in holder:
            holder["basic"] = Ladder(holder["ladder"].upto(1))
        return holder["basic"]

    # what a probe may use beyond the basic rules, per trial level (1, 2: screened by the compiled probe)
    levels = {
        "basic": (1, lambda: ()),
        "short": (2, lambda: tuple(x for x in holder["ladder"] if x.tier == 2)),
        "deep": (3, lambda: tuple(x for x in holder["ladder"] if 2 <= x.tier <= 3 and x.name in in_trials)),
        # every technique but the broadest searches, and a short trial inside the trial: a board that
        # needs this lacks a technique
        "long": (4, lambda: tuple(x for x in holder["ladder"]
                                  if 2 <= x.tier <= 3 and x.name in in_long_trial or x.name == "trial-basic")),
    }
    for order, entry in enumerate(_ENTRIES, start=1):
        cost = QUEENS_TIER_COST[entry.tier] if stars == 1 else entry.cost
        options = dict(entry.options)
        if entry.finder is find_hypothesis:
            options = {"levels": tuple(levels[level] for level in options["levels"]), "basic": basic}
        elif entry.finder is find_cases:
            options = {"extra": levels[options["level"]][1], "basic": basic}
        find = partial(entry.finder, name=entry.name, cost=cost, **options)
        entries.append(Technique(entry.name, order * 10, entry.tier, cost, find))
    holder["ladder"] = Ladder(entries)
    return holder["ladder"]


def technique_names() -> tuple[str, ...]:
    return tuple(entry.name for entry in _ENTRIES)


__all__ = ["Entry", "Geometry", "PROBE_BUDGET", "QUEENS_TIER_COST", "StarState", "TRIALS", "can_place",
           "cells_of", "geometry", "ladder_for", "probe", "technique_names"]
