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

The ladder is the table at the end of this file (`_ENTRIES`, engine.ladder Techniques): one line per technique, in the order
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

Where the work is done: positions are Python ints used as bitsets, and every technique has one
finder. The rules live in one compiled core (_techniques.pyx, `Geometry.finders`, a Prober: the
search of _search.pyx loaded with a position), which finds for the techniques most grades spend
their time in and returns a `Finding` (finding.py) that the Python finder here or in blocks.py only
words: the basic rules (tier 1), tier 2 (confinement, shared neighbour, crowding) and the other
counting groups (`Prober.find`), the 2x2 bound, the squeeze, the windows' remainders and excesses
and their areas (`Prober.block_argument`, `Prober.window_areas`), the set differentials
(`Prober.differential`) and the block argument on a group of touching regions
(`Prober.cover_argument`, for region-pair and -triple, whose groups are listed here); also what a
position's stars rule out and whether a unit can still be completed (StarState.consequences,
.broken_unit). The footprint and pressured-cell finders choose their areas in Python and run their
enumerations compiled (`_ways`, `_agreement`, the per-cell loops of crowded-group, pressured-footprint
and pressured-lines / -remainder, the pressured-pair search). A trial's probe carries a position on
with rounds of the ladder's own basic steps, compiled (BASIC_PLAN, `Prober.basic_round`); the short
trials run whole compiled, a quick probe of every candidate and then the step-by-step course of the
one it stops at (TRIAL_PLAN, `Prober.trial`), whose end gives the sentence. Both plans come from the
table below, so the probe and the ladder cannot drift. The compiled module is required, and a build
older than its sources is refused on import (state.py). The plain Python versions of the compiled
finders live in tests/engine/test_engine_techniques_oracle.py, as oracles only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from typing import NamedTuple

from engine.ladder import Ladder, Step, Technique
from engine.ladder.table import in_order
from engine.games.starbattle._techniques import FINDERS, ROUND_ENDS
from engine.games.starbattle.blocks import (find_2x2_bound, find_differential, find_pressured, find_region_group, find_squeeze,
                                            find_window, window_areas)
from engine.games.starbattle.state import (Geometry, StarState, cells_of, cells_text, geometry, join_names,
                                           place_step, regions_first, stars_text)

# --------------------------------------------------------------------------------------------------
# tier 1


def find_star_neighbours(state: StarState, name: str, cost: int) -> Step | None:
    """The first star (in cell order) attacking candidates: they are empty (compiled: `Prober.find`;
    its Finding's count is the star's cell)."""
    found = state.geo.finders.find(FINDERS["star-neighbours"], state.cand, state.stars)
    if found is None:
        return None
    geo = state.geo
    return Step(name, cost, (), cells_of(found.eliminate), (),
                f"the star at {geo.cell_name[found.count]} rules out the cells it "
                + ("attacks" if geo.diagonals else "touches"))


def find_unit_full(state: StarState, name: str, cost: int) -> Step | None:
    """The first unit (regions, rows, columns) holding its stars with candidates left: they are empty
    (compiled: `Prober.find`)."""
    found = state.geo.finders.find(FINDERS["unit-full"], state.cand, state.stars)
    if found is None:
        return None
    geo, k = state.geo, state.geo.k
    unit = geo.unit_name[found.units[0]]
    return Step(name, cost, (), cells_of(found.eliminate), (unit,),
                f"{unit} already has its " + ("star" if k == 1 else f"{k} stars") + ", so its other cells are empty")


def find_last_free_cells(state: StarState, name: str, cost: int) -> Step | None:
    """The first unit (regions, rows, columns) with exactly as many candidates as stars still needed:
    they are its stars, with what they rule out (compiled: `Prober.find`; its Finding's need is the
    unit's)."""
    found = state.geo.finders.find(FINDERS["last-free-cells"], state.cand, state.stars)
    if found is None:
        return None
    geo, need = state.geo, found.need
    unit = geo.unit_name[found.units[0]]
    why = (f"{unit} has one free cell left" if need == 1 else
           f"{unit} needs {need} more stars and has exactly {need} free cells")
    return Step(name, cost, cells_of(found.place), cells_of(found.eliminate), (unit,), why)


# --------------------------------------------------------------------------------------------------
# counting: units inside other units (confinement, pigeonhole, fish)
#
# Let Y be a set of units of one kind (disjoint) and X the units of another kind (disjoint) that the
# candidates of Y touch. Every star Y still needs lies in X, so of the stars X still needs exactly
# need(Y) fall inside Y and need(X) - need(Y) outside. When the two needs are equal, the candidates of
# X outside Y are empty. (Taking complements, "Y inside X" is the same fact as "the other X-kind units
# inside the other Y-kind units", so groups up to n/2 cover every case.)

ROW, COL, REG = 0, 1, 2


def find_counting(state: StarState, name: str, cost: int, *, pairs: Sequence[tuple[int, int]],
                  sizes: Sequence[int]) -> Step | None:
    """For each group size in turn and each (kind inside, kind around) pair of unit kinds: the first
    group whose units around need exactly as many stars as it, with candidates outside it (compiled:
    `Prober.find`; its Finding holds the group, then the units around it)."""
    found = state.geo.finders.find(FINDERS["counting"], state.cand, state.stars, pairs, sizes)
    if found is None:
        return None
    size = found.count
    return _counting_step(state, name, cost, found.units[:size], found.units[size:], found.need, found.eliminate)


def _counting_step(state: StarState, name: str, cost: int, chosen: Sequence[int], xs: Sequence[int],
                   need_y: int, elim: int) -> Step:
    geo = state.geo
    ynames = geo.names(chosen)
    xnames = geo.names(xs)
    if geo.k == 1 and len(chosen) == 1 and len(xs) == 1:
        why = (f"the free cells of {ynames[0]} all lie in {xnames[0]}, so the star of "
               f"{xnames[0]} is in {ynames[0]}: the rest of {xnames[0]} is empty")
    else:
        verb = "needs" if len(xs) == 1 else "need"
        why = (f"{join_names(ynames)} must still place {stars_text(need_y)}, all within "
               f"{join_names(xnames)}, which {verb} exactly that many: the rest of "
               f"{join_names(xnames)} is empty")
    return Step(name, cost, (), cells_of(elim), ynames + xnames, why)


_LINE_LINE = ((ROW, COL), (COL, ROW))


# --------------------------------------------------------------------------------------------------
# shared neighbour and crowding


def find_shared_neighbour(state: StarState, name: str, cost: int) -> Step | None:
    """The first unit (regions, rows, columns) needing one more star whose free cells all attack some
    candidates: those are empty (compiled: `Prober.find`)."""
    found = state.geo.finders.find(FINDERS["shared-neighbour"], state.cand, state.stars)
    return None if found is None else _shared_neighbour_step(state, name, cost, found.units[0], found.eliminate)


def _shared_neighbour_step(state: StarState, name: str, cost: int, u: int, common: int) -> Step:
    geo = state.geo
    unit = geo.unit_name[u]
    return Step(name, cost, (), cells_of(common), (unit,),
                f"{unit} needs one more star and every free cell of it "
                + ("attacks" if geo.diagonals else "touches") + f" {cells_text(cells_of(common), geo)}")


def find_crowding(state: StarState, name: str, cost: int) -> Step | None:
    """A cell is empty if a star there (with the cells it rules out and the units it completes) would
    leave some unit unable to fit the stars it still needs: the first such unit, regions first
    (compiled: `Prober.find`)."""
    found = state.geo.finders.find(FINDERS["crowding"], state.cand, state.stars)
    return None if found is None else _crowding_step(state, name, cost, found.units[0], found.eliminate)


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
    needs = state.needs()
    tight = _short_of_room(geo, cand, needs)
    # compiled: for each pair, one of them cramped (a person looks where room is short), the cells
    # whose star takes room from both, each asked whether the two can still hold their stars
    found = geo.finders.pressured_pair(needs, cand, _pairs_near(geo), tight)
    return None if found is None else _pressured_pair_step(state, name, cost, *found)


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
    return state.geo.finders.ways(area, m, needs, cand, first_only, limit, budget, telling, FOOTPRINT_SLACK)


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
    found = state.geo.finders.agreement(area, m, needs, cand, limit, budget, FOOTPRINT_SLACK)
    return None if found is None else Agreement(*found)


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


def _first_way_crowders(state: StarState, area: int, group: Sequence[int], needs: Sequence[int], cand: int,
                        near: int, way: tuple[int, int] | None, tight: Sequence[int], budget: int) -> int:
    """The cells of `near` on which a star (with the cells it rules out: itself, what it attacks, the
    rest of its units that need one star) leaves the units of `group` (their candidates `area`) no way
    to hold the stars they still need; a search past `budget` partial placements (0: none) proves
    nothing. `way`: one way the group holds them, or None; a star that leaves it standing (checked
    against the units of `tight`) needs no search. Compiled (`Prober.first_way_crowders`)."""
    stars, ruled = way if way is not None else (-1, 0)
    return state.geo.finders.first_way_crowders(area, group, needs, cand, near, stars, ruled,
                                                tight if way is not None else (), budget, FOOTPRINT_SLACK)


def find_crowded_group(state: StarState, name: str, cost: int) -> Step | None:
    """Crowding on a group of units at once (see _crowded_groups): a cell is empty if a star there
    (with the cells it rules out and the units it completes) leaves the group no way to hold the stars
    it still needs, each unit its own count, no unit given more than it needs and every unit short of
    room kept with enough."""
    geo, cand = state.geo, state.cand
    unit_mask = geo.unit_mask
    needs = state.needs()
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
        crowders = _first_way_crowders(state, area, group, needs, cand, geo.finders.near(area, needs, cand),
                                       found[0], tight, GROUP_TRIES)
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
    for u in regions_first(geo):
        m = needs[u]
        free = cand & geo.unit_mask[u]
        if m < 1 or free.bit_count() > FOOTPRINT_CELLS - 2 * max(0, m - 2) or free.bit_count() < m:
            continue
        crowders = _first_way_crowders(state, free, (u,), needs, cand, geo.finders.near(free, needs, cand) & ~free,
                                       None, (), 0)
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


def probe(state: StarState, cell: int, extra: Sequence[Technique],
          budget: int = PROBE_BUDGET) -> tuple[bool, StarState, int]:
    """Assume a star on `cell` and carry the position on: a round of the basic steps (the ladder's
    tier 1, compiled: `Prober.basic_round`, BASIC_PLAN), then the first step of `extra` (in ladder
    order), again and again while `budget` allows.

    Returns (contradiction, the position reached, deductions used beyond the basic rules)."""
    return _assume(state, 1 << cell, extra, budget)


_BROKEN, _SOLVED = ROUND_ENDS["broken"], ROUND_ENDS["solved"]


def _assume(state: StarState, placed: int, extra: Sequence[Technique], budget: int) -> tuple[bool, StarState, int]:
    """`probe` for the stars `placed` at once."""
    s = state.copy()
    s.apply(Step("assume", 0, cells_of(placed), cells_of(s.consequences(placed) & ~placed)))
    finders = s.geo.finders
    used = 0
    while True:
        ended, cand, stars, broken = finders.basic_round(s.cand, s.stars, s.broken, BASIC_PLAN)
        s.reached(cand, stars, broken)
        if ended == _BROKEN:
            return True, s, used
        if ended == _SOLVED or used >= budget:
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
                    levels: Sequence[tuple[int, Callable[[], Sequence[Technique]] | None]],
                    budget: int = PROBE_BUDGET) -> Step | None:
    """A candidate is empty if a star on it leads to a contradiction (see `probe`). Each level names
    the techniques a probe may use beyond the basic rules; every candidate is tried at the first
    level before any at the next (the short, plain contradiction is the one a person finds).
    Levels 1 (basic rules only) and 2 (tier 2: TRIAL_PLAN, the ladder's own compiled finders) run
    compiled whole: the quick probe of every candidate (`Prober.first_contradiction`), then, for the
    one it stops at, the step-by-step course (`Prober.trial`), whose end (which unit broke, how many
    deductions it took) gives the sentence."""
    geo = state.geo
    order = _probe_order(state)
    if not order:
        return None
    nbytes = (geo.n * geo.n + 7) // 8
    for level, extra_of in levels:
        if level <= 2:
            cand = state.cand.to_bytes(nbytes, "little")
            stars = state.stars.to_bytes(nbytes, "little")
            plan = TRIAL_PLAN if level == 2 else ()
            start = 0
            while start < len(order):
                i = geo.finders.first_contradiction(cand, stars, order[start:], level, budget, plan)
                if i < 0:
                    break
                cell = order[start + i]
                found, bad, used = geo.finders.trial(state.cand, state.stars, state.broken, cell, level, budget,
                                                     BASIC_PLAN, plan)
                if found:
                    return _hypothesis_step(state, name, cost, cell, bad, used)
                start += i + 1          # not expected (the tests hold the two courses together)
            continue
        extra = extra_of()
        depth_budget = budget if level < 4 else LONG_PROBE_BUDGET
        for cell in order:
            found, reached, used = probe(state, cell, extra, depth_budget)
            if found:
                return _hypothesis_step(state, name, cost, cell, reached.broken_unit(), used)
    return None


def _hypothesis_step(state: StarState, name: str, cost: int, cell: int, bad: int | None, used: int) -> Step:
    geo = state.geo
    where = f": {geo.unit_name[bad]} could not be completed" if bad is not None else ""
    units = (geo.unit_name[bad],) if bad is not None else ()
    how = "the basic rules" if not used else (
        f"the basic rules and {used} further deduction" + ("s" if used != 1 else ""))
    return Step(name, cost, (), (cell,), units,
                f"a star at {geo.cell_name[cell]} leads, by {how}, to a contradiction{where}")


CASE_WAYS = 200      # a unit is split into cases only when it holds its stars in at most this many ways
CASE_PROBES = 2000   # ways carried on per search (a count, so grades never depend on the machine)


def find_cases(state: StarState, name: str, cost: int, *, extra: Callable[[], Sequence[Technique]]) -> Step | None:
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
    steps = extra()
    left = CASE_PROBES
    for _, u, ways in split:
        if len(ways) > left:
            break
        open_cells, common, alive = 0, geo.full, 0
        for tried, (chosen, _) in enumerate(ways, start=1):
            broken, reached, _ = _assume(state, chosen, steps, LONG_PROBE_BUDGET)
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

def _entry(name: str, tier: int, cost: int, finder: Callable[..., Step | None], options: dict | None = None, *,
           in_trials: bool = True, in_long_trial: bool = True) -> Technique:
    """One technique: its name, tier (the Queens difficulty level it belongs to), cost per step on the
    Star Battle scale (1 = a touching cell ... 3,840 = a long chain of trial), finder and the options
    the finder takes; `ladder_for` binds them, and gives the technique its place and its cost for the
    number of stars. The ladder tries the techniques in table order."""
    return Technique(name, 0, tier, cost, finder, options or {}, in_trials=in_trials, in_long_trial=in_long_trial)


_LINES_IN_REGIONS = ((ROW, REG), (COL, REG))
_REGIONS_IN_LINES = ((REG, ROW), (REG, COL))
_LARGE = tuple(range(4, 13))           # groups of 4 or more (at most n/2 are ever needed)

# Tier 1 is what a trial carries a position on with, and tier 2 what a short trial may use between its
# basic steps: each of their finders must be compiled (BASIC_PLAN, TRIAL_PLAN), since the compiled
# probe runs them.
_ENTRIES: tuple[Technique, ...] = in_order((
    _entry("star-neighbours", 1, 1, find_star_neighbours),
    _entry("unit-full", 1, 1, find_unit_full),
    _entry("last-free-cells", 1, 2, find_last_free_cells),
    _entry("region-in-line", 2, 6, find_counting, {"pairs": _REGIONS_IN_LINES, "sizes": (1,)}),
    _entry("line-in-region", 2, 8, find_counting, {"pairs": _LINES_IN_REGIONS, "sizes": (1,)}),
    _entry("shared-neighbour", 2, 12, find_shared_neighbour),
    _entry("crowding", 2, 20, find_crowding),
    _entry("2x2-bound", 3, 30, find_2x2_bound),
    _entry("undercount-2", 3, 40, find_counting, {"pairs": _REGIONS_IN_LINES, "sizes": (2,)}),
    _entry("overcount-2", 3, 45, find_counting, {"pairs": _LINES_IN_REGIONS, "sizes": (2,)}),
    _entry("region-footprint", 3, 50, find_footprint, {"units": "regions"}, in_trials=False),
    _entry("squeeze", 3, 60, find_squeeze),
    _entry("x-wing", 3, 60, find_counting, {"pairs": _LINE_LINE, "sizes": (2,)}),
    _entry("remainder-1", 3, 60, find_window, {"kind": "remainder", "sizes": (1,)}),
    _entry("line-footprint", 3, 70, find_footprint, {"units": "lines"}, in_trials=False),
    _entry("excess-1", 3, 70, find_window, {"kind": "excess", "sizes": (1,)}),
    _entry("region-pair", 3, 80, find_region_group, {"size": 2}, in_trials=False),
    _entry("undercount-3", 3, 90, find_counting, {"pairs": _REGIONS_IN_LINES, "sizes": (3,)}),
    _entry("overcount-3", 3, 100, find_counting, {"pairs": _LINES_IN_REGIONS, "sizes": (3,)}),
    _entry("remainder-2", 3, 120, find_window, {"kind": "remainder", "sizes": (2,)}, in_trials=False),
    _entry("swordfish", 3, 120, find_counting, {"pairs": _LINE_LINE, "sizes": (3,)}),
    _entry("excess-2", 3, 140, find_window, {"kind": "excess", "sizes": (2,)}, in_trials=False),
    _entry("differential-1", 3, 150, find_differential, {"sizes": (1,)}, in_trials=False),
    _entry("pressured-lines", 3, 160, find_pressured, {"areas": "lines"}, in_trials=False),
    _entry("pressured-pair", 3, 200, find_pressured_pair, in_trials=False),
    _entry("pressured-footprint", 3, 220, find_pressured_footprint, in_trials=False),
    _entry("region-triple", 3, 180, find_region_group, {"size": 3}, in_trials=False),
    _entry("undercount-large", 3, 200, find_counting, {"pairs": _REGIONS_IN_LINES, "sizes": _LARGE}, in_trials=False),
    _entry("overcount-large", 3, 220, find_counting, {"pairs": _LINES_IN_REGIONS, "sizes": _LARGE}, in_trials=False),
    _entry("fish-large", 3, 240, find_counting, {"pairs": _LINE_LINE, "sizes": _LARGE}, in_trials=False),
    _entry("remainder-3", 3, 240, find_window, {"kind": "remainder", "sizes": (3,)}, in_trials=False),
    _entry("excess-3", 3, 260, find_window, {"kind": "excess", "sizes": (3,)}, in_trials=False),
    _entry("differential-2", 3, 280, find_differential, {"sizes": (2,)}, in_trials=False),
    _entry("composite-footprint-1", 3, 300, find_composite_footprint, {"sizes": (1,)}, in_trials=False),
    _entry("pressured-remainder", 3, 320, find_pressured, {"areas": "remainders"}, in_trials=False),
    _entry("composite-footprint-2", 3, 360, find_composite_footprint, {"sizes": (2,)}, in_trials=False),
    _entry("remainder-large", 3, 400, find_window, {"kind": "remainder", "sizes": _LARGE}, in_trials=False),
    _entry("composite-footprint-3", 3, 420, find_composite_footprint, {"sizes": (3,)}, in_trials=False),
    _entry("excess-large", 3, 440, find_window, {"kind": "excess", "sizes": _LARGE}, in_trials=False),
    _entry("differential-3", 3, 480, find_differential, {"sizes": (3,)}, in_trials=False),
    _entry("differential-large", 3, 640, find_differential, {"sizes": _LARGE}, in_trials=False),
    _entry("composite-footprint-large", 3, 700, find_composite_footprint, {"sizes": _LARGE}, in_trials=False),
    _entry("crowded-group", 3, 760, find_crowded_group, in_trials=False, in_long_trial=False),
    _entry("trial-basic", 4, 400, find_hypothesis, {"levels": ("basic",)}),
    _entry("trial-short", 4, 960, find_hypothesis, {"levels": ("short",)}),
    _entry("trial-deep", 4, 1920, find_hypothesis, {"levels": ("deep",)}),
    _entry("trial-long", 4, 3840, find_hypothesis, {"levels": ("long",)}),
    _entry("trial-cases", 4, 3840, find_cases, {"level": "long"}),
))

_COMPILED = {find_star_neighbours: "star-neighbours", find_unit_full: "unit-full",
             find_last_free_cells: "last-free-cells", find_counting: "counting",
             find_shared_neighbour: "shared-neighbour", find_crowding: "crowding"}


def _plan(tier: int) -> tuple[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...]], ...]:
    """The finders of one tier in ladder order, as the compiled probe takes them: (code, pairs, sizes)."""
    plan = []
    for entry in _ENTRIES:
        if entry.tier != tier:
            continue
        if entry.find not in _COMPILED:
            raise ValueError(f"{entry.name}: a tier-{tier} technique needs a compiled finder (the probe runs it)")
        plan.append((FINDERS[_COMPILED[entry.find]], tuple(entry.options.get("pairs", ())),
                     tuple(entry.options.get("sizes", ()))))
    return tuple(plan)


BASIC_PLAN = _plan(1)       # the basic steps a trial carries a position on with, one at a time
TRIAL_PLAN = _plan(2)       # ... and the steps a short trial takes between rounds of them
QUEENS_TIER_COST = {1: 1, 2: 3, 3: 6, 4: 12}
TRIALS = tuple(entry.name for entry in _ENTRIES if entry.find in (find_hypothesis, find_cases))


@lru_cache(maxsize=8)
def ladder_for(stars: int) -> Ladder:
    """The technique table for k stars (Queens costs by tier, Star Battle per technique)."""
    entries: list[Technique] = []
    holder: dict[str, Ladder] = {}
    in_trials = {entry.name for entry in _ENTRIES if entry.in_trials}
    in_long_trial = {entry.name for entry in _ENTRIES if entry.in_long_trial}

    # what a probe may use beyond the basic rules, per trial level (1, 2: BASIC_PLAN and TRIAL_PLAN,
    # run compiled)
    levels = {
        "basic": (1, None),
        "short": (2, None),
        "deep": (3, lambda: tuple(x for x in holder["ladder"] if 2 <= x.tier <= 3 and x.name in in_trials)),
        # every technique but the broadest searches, and a short trial inside the trial: a board that
        # needs this lacks a technique
        "long": (4, lambda: tuple(x for x in holder["ladder"]
                                  if 2 <= x.tier <= 3 and x.name in in_long_trial or x.name == "trial-basic")),
    }
    for entry in _ENTRIES:
        cost = QUEENS_TIER_COST[entry.tier] if stars == 1 else entry.cost
        options = dict(entry.options)
        if entry.find is find_hypothesis:
            options = {"levels": tuple(levels[level] for level in options["levels"])}
        elif entry.find is find_cases:
            options = {"extra": levels[options["level"]][1]}
        find = partial(entry.find, name=entry.name, cost=cost, **options)
        entries.append(replace(entry, order=(entry.order + 1) * 10, cost=cost, find=find))
    holder["ladder"] = Ladder(entries)
    return holder["ladder"]


def technique_names() -> tuple[str, ...]:
    return tuple(entry.name for entry in _ENTRIES)


__all__ = ["BASIC_PLAN", "Geometry", "PROBE_BUDGET", "QUEENS_TIER_COST", "StarState", "TRIALS",
           "TRIAL_PLAN", "cells_of", "geometry", "ladder_for", "probe", "technique_names"]
