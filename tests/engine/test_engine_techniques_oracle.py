"""The slow, obvious Python versions of the Star Battle finders the ladder runs compiled
(engine/games/starbattle/_techniques.pyx), the basic rules among them: test oracles only, never used by
the engine.

Each is written the plain way (Python ints as bitsets, one loop per idea) and answers exactly as the
compiled finder does: the same first unit, group or cell in the same order, the same cells, the same
counts and early stops. `PlainFinders` puts them behind the compiled `Prober`'s methods, so a test can
hand it to the ladder in place of the compiled one (`Geometry.finders`) and compare the steps;
test_engine_techniques.py does, on the pool of positions. Brute force (the compiled search) stays the
judge of soundness for both.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from engine.games.starbattle import techniques as T
from engine.games.starbattle._techniques import FINDERS, ROUND_ENDS
from engine.games.starbattle.finding import Finding
from engine.games.starbattle.state import Geometry, StarState, cells_of, regions_first

ROW, COL, REG = T.ROW, T.COL, T.REG

# --------------------------------------------------------------------------------------------------
# the basic rules: what a unit can still hold, what stars rule out, the ladder's tier-1 steps


def can_place(mask: int, m: int, hit: Sequence[int]) -> bool:
    """Whether m mutually non-attacking stars fit among the cells of `mask` (other units ignored)."""
    if m <= 0:
        return True
    if mask.bit_count() < m:
        return False
    if m == 1:
        return True
    if mask.bit_count() > 4 * m - 4:
        return True     # cells touching pairwise come at most 4 to a set (a 2x2 block): some m fit
    while mask:
        low = mask & -mask
        cell = low.bit_length() - 1
        if can_place(mask & ~hit[cell], m - 1, hit):
            return True
        mask ^= low
        if mask.bit_count() < m:
            return False
    return False


def taking_any(removed: list[int], cells: int) -> int:
    """The cells whose star would take some cell of `cells` (`removed`: removal_sets; by symmetry,
    the cells a star on some cell of `cells` would take)."""
    out = 0
    while cells:
        low = cells & -cells
        out |= removed[low.bit_length() - 1]
        cells ^= low
    return out


def removal_sets(state: StarState, needs: list[int]) -> list[int]:
    """For every cell x, the cells a star on x takes away: x itself, the cells it attacks, and the rest
    of each unit that needs just that one star. The relation is symmetric: y is in removed[x] exactly
    when x is in removed[y]."""
    geo = state.geo
    one = [geo.unit_mask[u] if needs[u] == 1 else 0 for u in range(geo.nunits)]
    out = [0] * (geo.n * geo.n)
    for cell in cells_of(state.cand):
        a, b, c = geo.cell_units[cell]
        out[cell] = geo.hit[cell] | one[a] | one[b] | one[c]
    return out


def apply(state: StarState, place: int, elim: int) -> None:
    """StarState.apply, on bitsets: a star on a cell that is not a candidate, or attacking another
    star, old or new, breaks the position."""
    geo = state.geo
    for cell in cells_of(place):
        if not state.cand >> cell & 1 or geo.attack[cell] & (state.stars | place):
            state.broken = True
    state.stars |= place
    state.cand &= ~place & ~elim
    state.memo = None


def solved(state: StarState) -> bool:
    geo = state.geo
    return not state.broken and all((state.stars & m).bit_count() == geo.k for m in geo.unit_mask)


def broken_unit(state: StarState) -> int | None:
    """The first unit that can no longer be completed (StarState.broken_unit), or None."""
    geo, k, cand, stars = state.geo, state.geo.k, state.cand, state.stars
    for u, m in enumerate(geo.unit_mask):
        need = k - (stars & m).bit_count()
        if need < 0:
            return u
        if need:
            free = cand & m
            if free.bit_count() < need or (need > 1 and not can_place(free, need, geo.hit)):
                return u
    return None


def consequences(state: StarState, placed: int) -> int:
    """StarState.consequences: the cells the stars `placed` attack, and the rest of the units they
    complete, among the candidates."""
    geo = state.geo
    out = 0
    touched = set()
    for cell in cells_of(placed):
        out |= geo.attack[cell]
        touched.update(geo.cell_units[cell])
    stars = state.stars | placed
    for u in touched:
        m = geo.unit_mask[u]
        if (stars & m).bit_count() >= geo.k:
            out |= m
    return out & state.cand & ~placed


def star_neighbours(state: StarState) -> Finding | None:
    for cell in cells_of(state.stars):
        elim = state.geo.attack[cell] & state.cand
        if elim:
            return Finding(0, elim, (), 0, cell)
    return None


def unit_full(state: StarState) -> Finding | None:
    geo, cand, stars = state.geo, state.cand, state.stars
    for u in regions_first(geo):
        m = geo.unit_mask[u]
        if cand & m and (stars & m).bit_count() >= geo.k:
            return Finding(0, cand & m, (u,))
    return None


def last_free_cells(state: StarState) -> Finding | None:
    geo, cand, stars = state.geo, state.cand, state.stars
    for u in regions_first(geo):
        m = geo.unit_mask[u]
        need = geo.k - (stars & m).bit_count()
        if need > 0 and (cand & m).bit_count() == need:
            return Finding(cand & m, consequences(state, cand & m), (u,), need)
    return None


BASIC = (star_neighbours, unit_full, last_free_cells)


def basic_round(state: StarState) -> int:
    """The ladder run with the basic steps on `state` (changed in place), one step at a time: how it
    ended (ROUND_ENDS)."""
    while True:
        if state.broken or broken_unit(state) is not None:
            return ROUND_ENDS["broken"]
        if solved(state):
            return ROUND_ENDS["solved"]
        for finder in BASIC:
            found = finder(state)
            if found is not None:
                break
        else:
            return ROUND_ENDS["stalled"]
        apply(state, found.place, found.eliminate)


def trial(finders: PlainFinders, state: StarState, cell: int, level: int, budget: int, plan) -> tuple[bool, int | None, int]:
    """A probe's course (Prober.trial): the star on `cell` with its consequences, then rounds of the
    basic steps and, at level 2, the first of `plan`'s finders between them while `budget` allows."""
    s = state.copy()
    apply(s, 1 << cell, consequences(s, 1 << cell))
    used = 0
    while True:
        ended = basic_round(s)
        if ended == ROUND_ENDS["broken"]:
            return True, broken_unit(s), used
        if ended == ROUND_ENDS["solved"] or used >= budget or level < 2:
            return False, None, used
        for code, pairs, sizes in plan:
            found = finders.find(code, s.cand, s.stars, pairs, sizes)
            if found is not None:
                break
        else:
            return False, None, used
        apply(s, 0, found.eliminate)
        used += 1


# --------------------------------------------------------------------------------------------------
# counting: units of one kind inside units of another


def _span(geo: Geometry, mask: int, kind: int) -> int:
    """The units of `kind` (as a bitset of indices 0..n-1) that the cells of `mask` touch."""
    n = geo.n
    out = 0
    while mask:
        low = mask & -mask
        cell = low.bit_length() - 1
        mask ^= low
        out |= 1 << (geo.cell_units[cell][kind] - kind * n)
    return out


def counting(state: StarState, pairs: Sequence[tuple[int, int]], sizes: Sequence[int]) -> Finding | None:
    geo, cand = state.geo, state.cand
    n = geo.n
    needs = state.needs()
    for size in sizes:
        if size >= 4 and size > n // 2:
            break               # a larger group is the complement of a smaller one
        for ykind, xkind in pairs:
            xbase = xkind * n
            ys = []
            for i in range(n):
                u = ykind * n + i
                cm = cand & geo.unit_mask[u]
                if cm and needs[u] > 0:
                    ys.append((u, cm, needs[u], _span(geo, cm, xkind)))
            if len(ys) < size:
                continue
            xneeds = needs[xbase:xbase + n]
            top = sorted((y[2] for y in ys), reverse=True)
            room = [sum(top[:i]) for i in range(size + 1)]
            found = _group_dfs(ys, size, room, 0, 0, 0, 0, 0, 0, (), xneeds, xbase, geo, cand)
            if found is not None:
                chosen, span, elim, need_y = found
                xs = tuple(xbase + i for i in range(n) if span >> i & 1)
                return Finding(0, elim, chosen + xs, need_y, size)
    return None


def _group_dfs(ys, size, room, start, depth, span, need_x, need_y, mask_y, chosen, xneeds, xbase, geo, cand):
    """Depth-first over groups of `size` units from `ys`: the first whose spanned units need exactly
    as many stars as the group and have candidates outside it."""
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


# --------------------------------------------------------------------------------------------------
# shared neighbour and crowding


def shared_neighbour(state: StarState) -> Finding | None:
    geo, cand, stars, k = state.geo, state.cand, state.stars, state.geo.k
    for u in regions_first(geo):
        m = geo.unit_mask[u]
        if k - (stars & m).bit_count() != 1:
            continue
        free = cand & m
        if not free or free.bit_count() == 1:
            continue
        common = cand
        for cell in cells_of(free):
            common &= geo.attack[cell]
        if common:
            return Finding(0, common, (u,))
    return None


def crowding(state: StarState) -> Finding | None:
    geo, cand = state.geo, state.cand
    hit, unit_mask = geo.hit, geo.unit_mask
    needs = state.needs()
    removed = removal_sets(state, needs)
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
            common = cand & ~m
            for cell in cells_of(free):
                common &= removed[cell]
            crowders = common
        else:
            if free.bit_count() - 9 - (free & one_units).bit_count() > 4 * (need - 2):
                continue
            for cell in cells_of(taking_any(removed, free) & cand):
                low = 1 << cell
                want = need - 1 if low & m else need
                if want <= 0:
                    continue
                rest = free & ~removed[cell]
                size = rest.bit_count()
                if size < want or (size <= 4 * want - 4 and not can_place(rest, want, hit)):
                    crowders |= low
        if crowders:
            return Finding(0, crowders, (u,), need)
    return None


# --------------------------------------------------------------------------------------------------
# pressured areas and pairs


def pressure_crowders(geo: Geometry, cells: int, m: int, cand: int, removed: list[int]) -> int:
    """The candidates on which a star leaves `cells` (which must hold m more stars) too few cells or a
    cover by fewer 2x2 blocks than the stars still wanted."""
    crowders = 0
    for cell in cells_of(taking_any(removed, cells) & cand):
        low = 1 << cell
        want = m - 1 if low & cells else m
        if want <= 0:
            continue
        rest = cells & ~removed[cell]
        if rest.bit_count() < want or _cover(geo, rest, want - 1) is not None:
            crowders |= low
    return crowders


def _keeps_room(geo: Geometry, units: Sequence[int], needs: Sequence[int], cand: int, chosen: int,
                gone: int) -> bool:
    for v in units:
        mask = geo.unit_mask[v]
        want = needs[v] - (chosen & mask).bit_count()
        if want > 0 and (cand & mask & ~gone & ~chosen).bit_count() < want:
            return False
    return True


def _pair_fits(geo: Geometry, a: int, b: int, wa: int, wb: int, needs: Sequence[int], cand: int,
               units: Sequence[int]) -> bool:
    """Whether exactly `wa` more stars fit among `a` and `wb` among `b` (a shared cell counting for
    both), no two attacking, no unit over its need, every unit of `units` keeping room."""
    unit_mask, hit, cell_units = geo.unit_mask, geo.hit, geo.cell_units

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
            if (now & unit_mask[v]).bit_count() >= needs[v]:
                gone |= unit_mask[v]
        return (fits(a & ~gone, b & ~gone, wa - bool(a & low), wb - bool(b & low), now, blocked | gone)
                or fits(a & ~low, b & ~low, wa, wb, chosen, blocked))

    return fits(a, b, wa, wb, 0, 0)


def pair_crowders(geo: Geometry, fu: int, fv: int, u: int, v: int, needs: Sequence[int], cand: int,
                  near: int, units: Sequence[int], removed: list[int]) -> int:
    crowders = 0
    for cell in cells_of(near):
        after = list(needs)
        left = units
        for w in geo.cell_units[cell]:
            after[w] -= 1
            if after[w] <= 0:
                left = [x for x in units if after[x] > 0]
        keep = ~removed[cell]
        if not _pair_fits(geo, fu & keep, fv & keep, after[u], after[v], after, cand & keep, left):
            crowders |= 1 << cell
    return crowders


def pressured_pair(state: StarState, needs: Sequence[int], pairs: Sequence[tuple[int, int]],
                   tight: Sequence[int]) -> tuple[int, int, int] | None:
    geo, cand = state.geo, state.cand
    unit_mask = geo.unit_mask
    removed = removal_sets(state, needs)
    for u, v in pairs:
        nu, nv = needs[u], needs[v]
        if nu <= 0 or nv <= 0:
            continue
        fu, fv = cand & unit_mask[u], cand & unit_mask[v]
        if fu.bit_count() > 2 * nu + 2 and fv.bit_count() > 2 * nv + 2:
            continue
        near = taking_any(removed, fu) & taking_any(removed, fv) & cand
        if not near:
            continue
        crowders = pair_crowders(geo, fu, fv, u, v, needs, cand, near, [w for w in tight if w != u and w != v],
                                 removed)
        if crowders:
            return u, v, crowders
    return None


# --------------------------------------------------------------------------------------------------
# footprints: every way an area can hold its stars


def _short_of_room(geo: Geometry, cand: int, needs: Sequence[int], slack: int) -> list[int]:
    return [u for u in range(geo.nunits)
            if needs[u] > 0 and (cand & geo.unit_mask[u]).bit_count() - needs[u] <= slack]


def ways(state: StarState, area: int, m: int, needs: Sequence[int], cand: int, first_only: bool = False,
         limit: int = 0, budget: int = 0, telling: bool = False, slack: int = T.FOOTPRINT_SLACK
         ) -> list[tuple[int, int]] | None:
    """Every way to put m stars on `area` (Prober.ways)."""
    if m < 0:
        return []
    geo = state.geo
    cells = cells_of(area)
    out: list[tuple[int, int]] = []
    cell_units, attack, unit_mask = geo.cell_units, geo.attack, geo.unit_mask
    tight = _short_of_room(geo, cand, needs, slack)
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


def agreement(state: StarState, area: int, m: int, needs: Sequence[int], cand: int, limit: int = 0,
              budget: int = 0, slack: int = T.FOOTPRINT_SLACK) -> tuple[int, int, int, int] | None:
    found = ways(state, area, m, needs, cand, limit=limit, budget=budget, telling=True, slack=slack)
    if not found:
        return None
    every, used, ruled = state.geo.full, 0, cand
    for stars, removed in found:
        every &= stars
        used |= stars
        ruled &= removed
    return len(found), every, area & ~used, ruled & ~area


def _stands(way: tuple[int, int], cell: int, area: int, removed: list[int], needs: Sequence[int], cand: int,
            geo: Geometry, tight: Sequence[int]) -> bool:
    stars, ruled = way
    if stars >> cell & 1:
        return True
    if area >> cell & 1 or ruled >> cell & 1 or stars & removed[cell]:
        return False
    return _keeps_room(geo, tight, needs, cand, stars | 1 << cell, ruled | removed[cell])


def first_way_crowders(state: StarState, area: int, group: Sequence[int], needs: Sequence[int], cand: int,
                       near: int, way: tuple[int, int] | None, tight: Sequence[int], budget: int,
                       slack: int = T.FOOTPRINT_SLACK) -> int:
    """Prober.first_way_crowders the plain way."""
    geo = state.geo
    removed = removal_sets(state, needs)
    crowders = 0
    for cell in cells_of(near):
        if way is not None and _stands(way, cell, area, removed, needs, cand, geo, tight):
            continue
        keep = cand & ~removed[cell]
        after = list(needs)
        for w in geo.cell_units[cell]:
            after[w] -= 1
        if ways(state, area & keep, sum(after[u] for u in group), after, keep, first_only=True,
                budget=budget, slack=slack) == []:
            crowders |= 1 << cell
    return crowders


# --------------------------------------------------------------------------------------------------
# 2x2 blocks: the bound, the squeeze, windows' remainders and excesses, set differentials


_COVERS: dict[tuple[int, int, int], list[int] | None] = {}


@lru_cache(maxsize=32)
def _cell_blocks(n: int) -> tuple[tuple[int, ...], ...]:
    """For each cell, the 2x2 blocks (as bitsets) that hold it with it in their top row, or in their
    bottom row on the last row (a cover of cells taken lowest first needs no others)."""
    out = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        ar = r if r < n - 1 else r - 1
        anchors = [ar * n + cc for cc in (c - 1, c) if 0 <= cc <= n - 2]
        out.append(tuple((1 << a) | (1 << (a + 1)) | (1 << (a + n)) | (1 << (a + n + 1)) for a in anchors))
    return tuple(out)


def _cover(geo: Geometry, mask: int, m: int) -> list[int] | None:
    """Up to m 2x2 blocks covering the cells of `mask`, or None (remembered: the same areas come back
    position after position)."""
    if not mask:
        return []
    if m == 0 or mask.bit_count() > 4 * m:
        return None
    memo = _COVERS
    key = (geo.n, mask, m)
    if key in memo:
        return memo[key]
    # cells no two of which share a block each need a block of their own: a quick lower bound
    apart = 0
    rest = mask
    spread = 0
    while rest:
        low = rest & -rest
        cell = low.bit_length() - 1
        rest ^= low
        if not spread & low:
            apart += 1
            spread |= geo.hit[cell]
    found = None if apart > m else _cover_search(geo, mask, m)
    if len(memo) > 100_000:
        memo.clear()
    memo[key] = found
    return found


def _cover_search(geo: Geometry, mask: int, m: int) -> list[int] | None:
    if not mask:
        return []
    if m == 0 or mask.bit_count() > 4 * m:
        return None
    low = mask & -mask
    for block in _cell_blocks(geo.n)[low.bit_length() - 1]:
        rest = _cover_search(geo, mask & ~block, m - 1)
        if rest is not None:
            return [block] + rest
    return None


def _block_deductions(state: StarState, area: int, need: int, needs: Sequence[int]):
    """Placements and eliminations from covering the candidates of `area` (needing `need` more stars)
    with `need` 2x2 blocks; None when no such cover exists or it shows nothing."""
    geo, cand = state.geo, state.cand
    free = cand & area
    blocks = _cover(geo, free, need)
    if blocks is None or len(blocks) < need:
        return None
    seen = overlap = 0
    for b in blocks:
        part = b & free
        overlap |= seen & part
        seen |= part
    parts = [b & free & ~overlap for b in blocks]
    if not all(parts):
        return None
    place = 0
    elim = overlap & cand
    attack = geo.attack
    for b, part in zip(blocks, parts):
        elim |= b & cand & ~part
        if part.bit_count() == 1:
            place |= part
        common = cand
        p = part
        while p and common:
            low = p & -p
            common &= attack[low.bit_length() - 1]
            p ^= low
        elim |= common
    # units holding whole parts get a star from each: when that is all they need, the rest is empty
    union_parts = 0
    for p in parts:
        union_parts |= p
    for u, m in enumerate(geo.unit_mask):
        if needs[u] <= 0 or not m & union_parts:
            continue
        inside = 0
        count = 0
        for p in parts:
            if p & m == p:
                count += 1
                inside |= p
        if count and count == needs[u]:
            elim |= cand & m & ~inside
    elim &= ~place
    if not (place or elim):
        return None
    return blocks, place, elim


def _windows_of(geo: Geometry, needs: Sequence[int], size: int):
    """Every window of `size` adjacent rows, then of `size` adjacent columns: (its lines, its cells,
    the stars its lines still need)."""
    n = geo.n
    for base in (0, n):
        for start in range(n - size + 1):
            lines = tuple(range(base + start, base + start + size))
            yield lines, sum(geo.unit_mask[u] for u in lines), sum(needs[u] for u in lines)


def window_areas(state: StarState, needs: Sequence[int], size: int, kind: str) -> list[tuple[int, int, tuple[int, ...], int]]:
    """The remainder or excess of every window of `size` adjacent rows, then columns (Prober.window_areas):
    (the area's candidates, its exact need, the lines then the regions, the lines' need)."""
    geo, cand, n = state.geo, state.cand, state.geo.n
    if size >= 4 and size > n // 2:
        return []
    regions = [cand & geo.unit_mask[2 * n + r] for r in range(n)]
    out = []
    for lines, window, need in _windows_of(geo, needs, size):
        if need < 0 or not cand & window:
            continue
        inside = [r for r, rc in enumerate(regions) if rc & window and not rc & ~window]
        touching = [r for r, rc in enumerate(regions) if rc & window]
        if kind == "remainder":
            cells = cand & window
            for r in inside:
                cells &= ~regions[r]
            m = need - sum(needs[2 * n + r] for r in inside)
            if not cells or m < 0 or not inside:
                continue
            out.append((cells, m, lines + tuple(2 * n + r for r in inside), need))
        else:
            cells = 0
            for r in touching:
                cells |= regions[r]
            cells &= ~window
            m = sum(needs[2 * n + r] for r in touching) - need
            if not cells or m < 0:
                continue
            out.append((cells, m, lines + tuple(2 * n + r for r in touching), need))
    return out


def _area_deductions(state: StarState, cells: int, need: int, needs: Sequence[int]) -> tuple[int, int, int] | None:
    """(placements, eliminations, 2x2 blocks used) from an area (its cells `cells`) with an exact need."""
    geo, cand = state.geo, state.cand
    cells &= cand
    if not cells:
        return None
    if need == 0:
        return 0, cells, 0
    if need == 1:
        common = cand & ~cells
        for cell in cells_of(cells):
            common &= geo.attack[cell]
        if common:
            return 0, common, 0
    result = _block_deductions(state, cells, need, needs)
    if result is None:
        return None
    blocks, place, elim = result
    return place, elim, len(blocks)


def block_argument(state: StarState, needs: Sequence[int], what: str, sizes: Sequence[int] = ()) -> Finding | None:
    geo, n = state.geo, state.geo.n
    if what == "bound":
        for u in regions_first(geo):
            if needs[u] < 2:
                continue
            result = _block_deductions(state, geo.unit_mask[u], needs[u], needs)
            if result is not None:
                blocks, place, elim = result
                return Finding(place, elim, (u,), needs[u], 0, len(blocks))
        return None
    if what == "squeeze":
        for base in (0, n):
            for i in range(n - 1):
                a, b = base + i, base + i + 1
                if needs[a] <= 0 or needs[b] <= 0:
                    continue
                result = _block_deductions(state, geo.unit_mask[a] | geo.unit_mask[b], needs[a] + needs[b], needs)
                if result is not None:
                    blocks, place, elim = result
                    return Finding(place, elim, (a, b), needs[a] + needs[b], 0, len(blocks))
        return None
    for size in sizes:
        if size >= 4 and size > n // 2:
            break
        for cells, m, units, need in window_areas(state, needs, size, what):
            found = _area_deductions(state, cells, m, needs)
            if found is not None:
                place, elim, blocks = found
                return Finding(place, elim, units, need, m, blocks)
    return None


def differential(state: StarState, needs: Sequence[int], sizes: Sequence[int], parts: int) -> Finding | None:
    geo, cand, n = state.geo, state.cand, state.geo.n
    regions = [cand & geo.unit_mask[2 * n + r] for r in range(n)]
    for size in sizes:
        if size >= 4 and size > n // 2:
            break
        for lines, window, need_w in _windows_of(geo, needs, size):
            if need_w <= 0 or not cand & window:
                continue
            inside, partly = [], []
            for r, rc in enumerate(regions):
                if rc & window:
                    (partly if rc & ~window else inside).append(r)
            for count in range(1, min(parts, len(partly) - 1) + 1):
                for part in combinations(partly, count):
                    group = inside + list(part)
                    g_cells = 0
                    need_g = 0
                    for r in group:
                        g_cells |= regions[r]
                        need_g += needs[2 * n + r]
                    diff = need_w - need_g
                    w_only = cand & window & ~g_cells
                    g_only = g_cells & ~window
                    for more, fewer, m in ((w_only, g_only, diff), (g_only, w_only, -diff)):
                        if m < 0 or not fewer or more.bit_count() > 4 * m:
                            continue
                        if m == 0:
                            if more:
                                continue
                            result = ([], 0, 0)
                        else:
                            cover = _cover(geo, more, m)
                            if cover is None:
                                continue
                            result = _block_deductions(state, more, m, needs) or (cover, 0, 0)
                        blocks, place, elim = result
                        units = tuple(2 * n + r for r in group)
                        units = lines + units if more is w_only else units + lines
                        return Finding(place, elim | fewer, units, need_w, need_g, len(blocks))
    return None


# --------------------------------------------------------------------------------------------------
# the compiled Prober's methods, answered by the plain versions above


class PlainFinders:
    """Stands in for `_techniques.Prober` (`Geometry.finders`) with the plain versions: the same
    methods, the same answers; a trial's course is the plain one (`trial`, `basic_round`), its quick
    probe too."""

    def __init__(self, geo: Geometry):
        self.geo = geo

    def _state(self, cand: int, stars: int = 0) -> StarState:
        return StarState(self.geo, cand, stars)

    def find(self, code: int, cand: int, stars: int, pairs=(), sizes=()) -> Finding | None:
        state = self._state(cand, stars)
        if code == FINDERS["counting"]:
            return counting(state, pairs, sizes)
        if code == FINDERS["shared-neighbour"]:
            return shared_neighbour(state)
        if code == FINDERS["crowding"]:
            return crowding(state)
        if code == FINDERS["star-neighbours"]:
            return star_neighbours(state)
        if code == FINDERS["unit-full"]:
            return unit_full(state)
        if code == FINDERS["last-free-cells"]:
            return last_free_cells(state)
        raise ValueError(f"unknown finder {code}")

    def broken_unit(self, cand: int, stars: int) -> int | None:
        return broken_unit(self._state(cand, stars))

    def consequences(self, cand: int, stars: int, placed: int) -> int:
        return consequences(self._state(cand, stars), placed)

    def fits(self, cells: int, want: int) -> bool:
        return can_place(cells, want, self.geo.hit)

    def apply(self, cand: int, stars: int, broken: bool, place: int, elim: int) -> tuple[int, int, bool]:
        state = StarState(self.geo, cand, stars, broken)
        apply(state, place, elim)
        return state.cand, state.stars, state.broken

    def solved(self, cand: int, stars: int) -> bool:
        return solved(self._state(cand, stars))

    def near(self, cells: int, needs, cand: int) -> int:
        return taking_any(removal_sets(self._state(cand), needs), cells) & cand

    def basic_round(self, cand: int, stars: int, broken: bool, basic) -> tuple[int, int, int, bool]:
        state = StarState(self.geo, cand, stars, broken)
        ended = basic_round(state)
        return ended, state.cand, state.stars, state.broken

    def trial(self, cand, stars, broken, cell, level, budget, basic, plan=()) -> tuple[bool, int | None, int]:
        return trial(self, StarState(self.geo, cand, stars, broken), cell, level, budget, plan)

    def ways(self, area, m, needs, cand, first_only=False, limit=0, budget=0, telling=False, slack=5):
        return ways(self._state(cand), area, m, needs, cand, first_only, limit, budget, telling, slack)

    def agreement(self, area, m, needs, cand, limit=0, budget=0, slack=5):
        return agreement(self._state(cand), area, m, needs, cand, limit, budget, slack)

    def first_way_crowders(self, area, group, needs, cand, near, stars, ruled, tight, budget, slack=5):
        way = (stars, ruled) if stars >= 0 else None
        return first_way_crowders(self._state(cand), area, group, needs, cand, near, way, tight, budget, slack)

    def pressured_pair(self, needs, cand, pairs, tight):
        return pressured_pair(self._state(cand), needs, pairs, tight)

    def pressured_crowders(self, cells, m, needs, cand):
        state = self._state(cand)
        return pressure_crowders(self.geo, cells, m, cand, removal_sets(state, needs))

    def block_argument(self, cand, needs, what, sizes=()) -> Finding | None:
        return block_argument(self._state(cand), needs, what, sizes)

    def window_areas(self, cand, needs, size, kind):
        return window_areas(self._state(cand), needs, size, kind)

    def differential(self, cand, needs, sizes, parts) -> Finding | None:
        return differential(self._state(cand), needs, sizes, parts)

    def cover_argument(self, area, need, needs, cand) -> Finding | None:
        found = _block_deductions(self._state(cand), area, need, needs)
        if found is None:
            return None
        blocks, place, elim = found
        return Finding(place, elim, (), need, 0, len(blocks))

    def first_contradiction(self, cand: bytes, stars: bytes, cells, level, budget, plan=()) -> int:
        state = self._state(int.from_bytes(cand, "little"), int.from_bytes(stars, "little"))
        for i, cell in enumerate(cells):
            if trial(self, state, cell, level, budget, plan)[0]:
                return i
        return -1
