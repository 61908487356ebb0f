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

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, partial

from engine.ladder import Ladder, Step, Technique, run
from engine.games.starbattle.board import region_letter
from engine.games.starbattle.rules import Rules

# --------------------------------------------------------------------------------------------------
# geometry (fixed per board) and state (candidates and stars)


class Geometry:
    """Everything about a board that never changes while it is solved: unit masks, attack masks,
    2x2 blocks. Built once per board (cached) and shared by every state and probe."""

    __slots__ = ("n", "k", "diagonals", "regions", "full", "rowbits", "unit_mask", "unit_name",
                 "cell_units", "attack", "hit", "region_of", "cell_blocks", "nunits", "cell_name",
                 "fits", "prober")

    def __init__(self, n: int, k: int, diagonals: bool, regions: Sequence[int]):
        self.n, self.k, self.diagonals = n, k, diagonals
        self.regions = tuple(regions)
        if len(self.regions) != n * n:
            raise ValueError("regions must list n*n cells")
        self.full = (1 << (n * n)) - 1
        self.rowbits = (1 << n) - 1
        rows = [self.rowbits << (r * n) for r in range(n)]
        cols = [sum(1 << (r * n + c) for r in range(n)) for c in range(n)]
        regs = [0] * n
        for cell, label in enumerate(self.regions):
            regs[label] |= 1 << cell
        self.unit_mask = rows + cols + regs
        self.nunits = 3 * n
        # Words for people: rows and columns from 1, regions by the letter the grid shows.
        self.unit_name = ([f"row {i + 1}" for i in range(n)] + [f"column {i + 1}" for i in range(n)]
                          + [f"region {region_letter(i)}" for i in range(n)])
        self.region_of = self.regions
        self.cell_units = tuple((c // n, n + c % n, 2 * n + self.regions[c]) for c in range(n * n))
        self.cell_name = tuple(f"r{c // n + 1}c{c % n + 1}" for c in range(n * n))
        attack = []
        for cell in range(n * n):
            r, c = divmod(cell, n)
            m = 0
            for rr in range(max(0, r - 1), min(n, r + 2)):
                for cc in range(max(0, c - 1), min(n, c + 2)):
                    m |= 1 << (rr * n + cc)
            if diagonals:
                for i in range(-n, n):
                    for rr, cc in ((r + i, c + i), (r + i, c - i)):
                        if 0 <= rr < n and 0 <= cc < n:
                            m |= 1 << (rr * n + cc)
            attack.append(m & ~(1 << cell))
        self.attack = tuple(attack)
        self.hit = tuple(a | (1 << cell) for cell, a in enumerate(attack))
        blocks = {}
        for r in range(n - 1):
            for c in range(n - 1):
                a = r * n + c
                blocks[a] = (1 << a) | (1 << (a + 1)) | (1 << (a + n)) | (1 << (a + n + 1))
        cell_blocks = []
        for cell in range(n * n):
            r, c = divmod(cell, n)
            ar = r if r < n - 1 else r - 1
            anchors = [ar * n + cc for cc in (c - 1, c) if 0 <= cc <= n - 2]
            cell_blocks.append(tuple(blocks[a] for a in anchors))
        self.cell_blocks = tuple(cell_blocks)
        self.fits: dict[tuple[int, int], bool] = {}   # can_place answers, shared by every state
        self.prober = None                             # the compiled probe, made on first use

    def names(self, units: Iterable[int]) -> tuple[str, ...]:
        return tuple(self.unit_name[u] for u in units)


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
        smask = 0
        for cell in stars:
            smask |= 1 << cell
        emask = 0
        for cell in eliminated:
            emask |= 1 << cell
        broken = any(geo.attack[c] & smask for c in cells_of(smask))
        return cls(geo, geo.full & ~smask & ~emask, smask, broken)

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
        and the rest of every unit they complete."""
        geo = self.geo
        out = 0
        touched = set()
        for cell in cells_of(placed):
            out |= geo.attack[cell]
            touched.update(geo.cell_units[cell])
        stars = self.stars | placed
        for u in touched:
            m = geo.unit_mask[u]
            if (stars & m).bit_count() >= geo.k:
                out |= m
        return out & self.cand & ~placed

    # -- the ladder's state protocol
    def apply(self, step: Step) -> None:
        geo = self.geo
        placed = 0
        for cell in step.place:
            bit = 1 << cell
            if not self.cand & bit:
                self.broken = True
            placed |= bit
        if placed:
            for cell in step.place:
                if geo.attack[cell] & (self.stars | placed):
                    self.broken = True
            self.stars |= placed
            self.cand &= ~placed
        for cell in step.eliminate:
            self.cand &= ~(1 << cell)
        self.memo = None

    def is_solved(self) -> bool:
        k, stars = self.geo.k, self.stars
        return not self.broken and all((stars & m).bit_count() == k for m in self.geo.unit_mask)

    def is_contradiction(self) -> bool:
        return self.broken_unit() is not None or self.broken

    def broken_unit(self) -> int | None:
        """A unit that can no longer be completed (too many stars, or too little room), or None."""
        geo, k, cand, stars = self.geo, self.geo.k, self.cand, self.stars
        hit = geo.hit
        for u, m in enumerate(geo.unit_mask):
            need = k - (stars & m).bit_count()
            if need < 0:
                return u
            if need:
                free = cand & m
                if free.bit_count() < need or (need > 1 and not can_place(free, need, hit)):
                    return u
        return None

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


# --------------------------------------------------------------------------------------------------
# words


def _cells_text(cells: Iterable[int], geo: Geometry) -> str:
    return ", ".join(geo.cell_name[c] for c in cells)


def _stars_text(count: int) -> str:
    return f"{count} star" + ("" if count == 1 else "s")


def _join(names: Sequence[str]) -> str:
    """'region B', 'regions B and E', 'rows 3, 4 and 5'."""
    if len(names) == 1:
        return names[0]
    kind = names[0].split()[0]
    nums = [name.split()[1] for name in names]
    plural = kind + ("s" if not kind.endswith("s") else "")
    return f"{plural} {', '.join(nums[:-1])} and {nums[-1]}"


def _place_step(state: StarState, name: str, cost: int, placed: int, extra_elim: int,
                units: Sequence[int], why: str) -> Step:
    elim = (state.consequences(placed) | extra_elim) & state.cand & ~placed
    return Step(name, cost, cells_of(placed), cells_of(elim), state.geo.names(units), why)


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
    for u in _REGIONS_FIRST(geo):
        m = geo.unit_mask[u]
        if cand & m and (stars & m).bit_count() >= k:
            return Step(name, cost, (), cells_of(cand & m), (geo.unit_name[u],),
                        f"{geo.unit_name[u]} already has its " + ("star" if k == 1 else f"{k} stars")
                        + ", so its other cells are empty")
    return None


def find_last_free_cells(state: StarState, name: str, cost: int) -> Step | None:
    geo, cand, stars, k = state.geo, state.cand, state.stars, state.geo.k
    for u in _REGIONS_FIRST(geo):
        m = geo.unit_mask[u]
        need = k - (stars & m).bit_count()
        if need > 0:
            free = cand & m
            if free and free.bit_count() == need:
                unit = geo.unit_name[u]
                why = (f"{unit} has one free cell left" if need == 1 else
                       f"{unit} needs {need} more stars and has exactly {need} free cells")
                return _place_step(state, name, cost, free, 0, (u,), why)
    return None


@lru_cache(maxsize=64)
def _regions_first_order(n: int) -> tuple[int, ...]:
    return tuple(range(2 * n, 3 * n)) + tuple(range(2 * n))


def _REGIONS_FIRST(geo: Geometry) -> tuple[int, ...]:
    return _regions_first_order(geo.n)


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
                    why = (f"{_join(ynames)} must still place {_stars_text(need_y)}, all within "
                           f"{_join(xnames)}, which {verb} exactly that many: the rest of "
                           f"{_join(xnames)} is empty")
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
    for u in _REGIONS_FIRST(geo):
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
                        + ("attacks" if geo.diagonals else "touches") + f" {_cells_text(cells_of(common), geo)}")
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
    for u in _REGIONS_FIRST(geo):
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
                        + f": {_cells_text(cells, geo)} " + ("is" if len(cells) == 1 else "are") + " empty")
    return None


# --------------------------------------------------------------------------------------------------
# 2x2 blocks: a 2x2 block holds at most one star (its four cells touch each other). If m blocks cover
# the candidates of a set of cells that needs m more stars, each block holds exactly one of them, no
# star sits where two blocks overlap, and each block's star is inside the set.


def _cover(geo: Geometry, mask: int, m: int) -> list[int] | None:
    """Up to m 2x2 blocks covering the cells of `mask`, or None."""
    if not mask:
        return []
    if m == 0 or mask.bit_count() > 4 * m:
        return None
    low = mask & -mask
    for block in geo.cell_blocks[low.bit_length() - 1]:
        rest = _cover(geo, mask & ~block, m - 1)
        if rest is not None:
            return [block] + rest
    return None


def _block_deductions(state: StarState, area: int, need: int, needs: list[int]):
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


def _block_step(state, name, cost, area_units, need, result) -> Step:
    geo = state.geo
    blocks, place, elim = result
    names = geo.names(area_units)
    what = _join(names) if len(names) > 1 else names[0]
    why = (f"the free cells of {what} fit in {len(blocks)} 2x2 blocks and {what} "
           f"{'need' if len(names) > 1 else 'needs'} {_stars_text(need)}, so each block holds exactly one")
    if place:
        return _place_step(state, name, cost, place, elim, area_units, why)
    return Step(name, cost, (), cells_of(elim & state.cand), names, why)


def find_2x2_bound(state: StarState, name: str, cost: int) -> Step | None:
    geo = state.geo
    needs = state.needs()
    for u in _REGIONS_FIRST(geo):
        need = needs[u]
        if need < 2:
            continue
        result = _block_deductions(state, geo.unit_mask[u], need, needs)
        if result is not None:
            return _block_step(state, name, cost, (u,), need, result)
    return None


def find_squeeze(state: StarState, name: str, cost: int) -> Step | None:
    geo = state.geo
    n = geo.n
    needs = state.needs()
    for base in (0, n):
        for i in range(n - 1):
            a, b = base + i, base + i + 1
            need = needs[a] + needs[b]
            if needs[a] <= 0 or needs[b] <= 0:
                continue
            result = _block_deductions(state, geo.unit_mask[a] | geo.unit_mask[b], need, needs)
            if result is not None:
                return _block_step(state, name, cost, (a, b), need, result)
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
