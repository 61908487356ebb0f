"""Plain pure-Python references for the compiled Tango code, slow and obviously right; they exist so
that parity and soundness tests have an oracle:
- reference_solutions: every solution of a position, by backtracking over the cells in reading order,
  each cell trying S then M and checked against the rules the moment it is filled (a line's counts, three
  alike ending at it, the clue to its left and the clue above it);
- reference_valid_lines: the valid lines of length n, by listing every string of S and M;
- REFERENCE_LADDER: the technique ladder with a Python finder for each compiled rung (_ladder.pyx, pair
  to line-links) on techniques.TangoState's bit masks. Each finds what its compiled twin finds (the
  placements, the cost and the detail the sentence is built from, techniques.SAY) and the sentence is
  worded by the same function; chain and trial, Python already, are the live ones, trial's probes run
  on this ladder. grade.reference_grade runs it; the tests hold it equal to the live ladder. It shares
  nothing with the solutions' oracle above.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from itertools import product

from engine.games.tango import techniques as T
from engine.games.tango.board import Clue, line_cells
from engine.games.tango.techniques import LADDER, LINE_PAIR_COST, LINE_PAIR_LIMIT, SAY, WAYS_COST, WAYS_SHOWN, bits
from engine.ladder import Ladder, Step

Facts = tuple[int, tuple[int, ...], int, tuple[int, ...]]       # (cost, placements, where, detail)


def reference_valid_lines(n: int) -> list[str]:
    """Every line of n symbols with n/2 suns, never three alike side by side."""
    out = []
    for symbols in product("SM", repeat=n):
        text = "".join(symbols)
        if text.count("S") * 2 == n and "SSS" not in text and "MMM" not in text:
            out.append(text)
    return out


def reference_solutions(n: int, values: str, clues: Sequence[Clue], limit: int = 10**9) -> list[str]:
    """Up to `limit` solutions of the partial grid `values` (S, M or '.' per cell) under `clues`, in
    the order of the search (S before M in reading order)."""
    left = {(c.first, c.second): c.same for c in clues if c.second == c.first + 1}
    above = {(c.first, c.second): c.same for c in clues if c.second == c.first + n}
    grid = [""] * (n * n)
    found: list[str] = []

    def fits(cell: int) -> bool:
        r, col = divmod(cell, n)
        row = grid[r * n:r * n + col + 1]
        column = [grid[k * n + col] for k in range(r + 1)]
        for line in (row, column):
            if line.count("S") > n // 2 or line.count("M") > n // 2:
                return False
            if len(line) >= 3 and line[-1] == line[-2] == line[-3]:
                return False
        if col > 0 and (cell - 1, cell) in left and (grid[cell - 1] == grid[cell]) != left[cell - 1, cell]:
            return False
        if r > 0 and (cell - n, cell) in above and (grid[cell - n] == grid[cell]) != above[cell - n, cell]:
            return False
        return True

    def search(cell: int) -> bool:
        if cell == n * n:
            found.append("".join(grid))
            return len(found) >= limit
        for symbol in ("S", "M"):
            if values[cell] != "." and values[cell] != symbol:
                continue
            grid[cell] = symbol
            if fits(cell) and search(cell + 1):
                return True
        grid[cell] = ""
        return False

    search(0)
    return found


# ------------------------------------------------------------------------------------------------
# the Python twins of the compiled rungs: each returns Facts, as Position.find does

def _placed(state, line: int, positions: Sequence[int], value: int) -> tuple[int, ...]:
    cells = line_cells(state.n)[line]
    return tuple(sorted(cells[i] * 2 + value for i in positions))


def _first_line(find_in: Callable[..., Facts | None]) -> Callable[..., Facts | None]:
    """A finder that takes the first line (rows, then columns) where `find_in` finds a step."""
    def find(state) -> Facts | None:
        for line in range(2 * state.n):
            found = find_in(state, line)
            if found is not None:
                return found
        return None
    return find


def _pair_in(state, line: int) -> Facts | None:
    """Two alike side by side: the cells at both ends hold the other symbol."""
    n = state.n
    empty = state.full & ~(state.suns[line] | state.moons[line])
    for value, mask in ((0, state.suns[line]), (1, state.moons[line])):
        pairs = mask & (mask >> 1)            # bit i: cells i and i + 1 both hold `value`
        while pairs:
            i = (pairs & -pairs).bit_length() - 1
            pairs &= pairs - 1
            ends = [j for j in (i - 1, i + 2) if 0 <= j < n and empty >> j & 1]
            if ends:
                return _cost("pair"), _placed(state, line, ends, 1 - value), line, (i, value)
    return None


def _sandwich_in(state, line: int) -> Facts | None:
    """Two alike with one empty cell between them: the middle holds the other symbol."""
    empty = state.full & ~(state.suns[line] | state.moons[line])
    for value, mask in ((0, state.suns[line]), (1, state.moons[line])):
        middles = (mask & (mask >> 2)) << 1 & empty
        if middles:
            i = (middles & -middles).bit_length() - 1
            return _cost("sandwich"), _placed(state, line, (i,), 1 - value), line, ()
    return None


def _clue(state) -> Facts | None:
    """A clue with one side known: an `=` copies it, a `×` gives the other symbol."""
    values = state.values
    for number, c in enumerate(state.board.clues):
        a, b = values[c.first], values[c.second]
        if (a < 0) == (b < 0):
            continue
        empty, value = (c.second, a) if b < 0 else (c.first, b)
        target = value if c.same else 1 - value
        return _cost("clue"), (empty * 2 + target,), number, ()
    return None


def _balance_in(state, line: int) -> Facts | None:
    """A line that holds n/2 of a symbol: its other cells hold the other symbol."""
    empty = state.full & ~(state.suns[line] | state.moons[line])
    if not empty:
        return None
    for value, mask in ((0, state.suns[line]), (1, state.moons[line])):
        if mask.bit_count() == state.half:
            return _cost("balance"), _placed(state, line, bits(empty), 1 - value), line, ()
    return None


def _equal_pair_in(state, line: int) -> Facts | None:
    """An `=` between two empty cells with a known cell just beyond it: the pair is the other symbol,
    or the three would be alike."""
    n = state.n
    suns, moons = state.suns[line], state.moons[line]
    empty = state.full & ~(suns | moons)
    pairs = state.same[line] & empty & (empty >> 1)      # bit i: an = between empty cells i, i + 1
    while pairs:
        i = (pairs & -pairs).bit_length() - 1
        pairs &= pairs - 1
        for j in (i - 1, i + 2):
            if 0 <= j < n and (suns | moons) >> j & 1:
                return _cost("equal-pair"), _placed(state, line, (i, i + 1), 1 - (moons >> j & 1)), line, (j,)
    return None


def _disjoint_pairs(mask: int) -> list[int]:
    """Clue positions (bit i: cells i and i + 1) taken left to right without sharing a cell."""
    out, taken = [], 0
    for i in bits(mask):
        if not taken >> i & 3:
            out.append(i)
            taken |= 3 << i
    return out


def _pair_count_in(state, line: int) -> Facts | None:
    """Count a line's clue pairs between empty cells: a `×` pair holds one of each symbol, an `=`
    pair two alike. When the `×` pairs give a line the last of a symbol it needs, its other empty cells
    are the other symbol; when it needs fewer than two more of a symbol, an `=` pair is the other."""
    half = state.half
    suns, moons = state.suns[line], state.moons[line]
    empty = state.full & ~(suns | moons)
    if not empty:
        return None
    opposite = _disjoint_pairs(state.diff[line] & empty & (empty >> 1))
    in_pairs = 0
    for i in opposite:
        in_pairs |= 3 << i
    equal = [i for i in bits(state.same[line] & empty & (empty >> 1)) if not in_pairs >> i & 3]
    for value, mask in ((0, suns), (1, moons)):
        need = half - mask.bit_count() - len(opposite)          # beyond one per × pair
        rest = empty & ~in_pairs
        if opposite and need == 0 and rest:
            return (_cost("pair-count"), _placed(state, line, bits(rest), 1 - value), line,
                    (0, sum(1 << i for i in opposite)))
        if equal and need < 2:
            i = equal[0]
            return (_cost("pair-count"), _placed(state, line, (i, i + 1), 1 - value), line,
                    (1, need, half - mask.bit_count(), len(opposite)))
    return None


def _completions_in(state, line: int) -> tuple[tuple[int, ...], int, int] | None:
    """A line's ways and the suns and moons every way agrees on (masks of empty cells), or None
    when it has no empty cell, no way or nothing forced."""
    full = state.full
    empty = full & ~(state.suns[line] | state.moons[line])
    if not empty:
        return None
    ways = state.line_ways(line)
    if not ways:
        return None
    all_moons, any_moon = full, 0
    for m in ways:
        all_moons &= m
        any_moon |= m
    forced_moons = all_moons & empty
    forced_suns = ~any_moon & empty
    if not (forced_moons or forced_suns):
        return None
    return ways, forced_suns, forced_moons


def _line_completions(state) -> Facts | None:
    """Every way a line can still be completed: a cell that holds the same symbol in all of them is
    forced. The line with the fewest ways that forces something is taken."""
    best, fewest = None, 0
    for line in range(2 * state.n):
        found = _completions_in(state, line)
        if found is not None and (best is None or len(found[0]) < fewest):
            best, fewest = (line, found), len(found[0])
            if fewest == 1:
                break
    if best is None:
        return None
    line, (ways, suns, moons) = best
    place = tuple(sorted(_placed(state, line, bits(suns), 0) + _placed(state, line, bits(moons), 1)))
    shown = tuple(ways) if len(ways) <= WAYS_SHOWN else ()
    return _cost("line-completions") + WAYS_COST * (len(ways) - 1), place, line, (len(ways), *shown)


def _links(state, line: int) -> tuple[int, int]:
    """The clues between a line and the next one (row r and r + 1, column c and c + 1), as masks along
    the lines: (alike, differ)."""
    n = state.n
    same = differ = 0
    for c in state.board.clues:
        first_line, at = (c.first // n, c.first % n) if c.second == c.first + n else (n + c.first % n, c.first // n)
        if first_line == line:
            if c.same:
                same |= 1 << at
            else:
                differ |= 1 << at
    return same, differ


def _pair_empty(state, line: int) -> int:
    """The empty cells of lines `line` and `line + 1` as one mask of 2n positions (the second line's
    shifted by n), as _joint_ways gives their joint ways."""
    n, full = state.n, state.full
    return (full & ~(state.suns[line] | state.moons[line])) | (
        (full & ~(state.suns[line + 1] | state.moons[line + 1])) << n)


def _joint_ways(state, line: int) -> list[int] | None:
    """Lines `line` and `line + 1` taken together: their joint ways that keep the clues between them,
    each one mask of 2n positions (as _pair_empty); None when they have no clue between them, no empty
    cell, or ways that multiply past LINE_PAIR_LIMIT."""
    n = state.n
    if line % n == n - 1:
        return None                       # the last row or column has no next one
    same, differ = _links(state, line)
    if not same | differ or not _pair_empty(state, line):
        return None
    ways_a, ways_b = state.line_ways(line), state.line_ways(line + 1)
    if len(ways_a) * len(ways_b) > LINE_PAIR_LIMIT:
        return None
    return [a | b << n for a in ways_a for b in ways_b if not (a ^ b) & same and (a ^ b) & differ == differ]


def _joint_in(state, line: int) -> tuple[int, tuple[tuple[int, int], tuple[int, int]]] | None:
    """Lines `line` and `line + 1` taken together: how many joint ways and what they force ((moons,
    suns) of the empty cells of each line); None when _joint_ways gives none or nothing is forced."""
    n, full = state.n, state.full
    joint = _joint_ways(state, line)
    if not joint:
        return None
    empty = _pair_empty(state, line)
    all_moons = (1 << 2 * n) - 1
    any_moon = 0
    for m in joint:
        all_moons &= m
        any_moon |= m
    moons, suns = all_moons & empty, ~any_moon & empty
    if not moons | suns:
        return None
    return len(joint), ((moons & full, suns & full), (moons >> n, suns >> n))


def _line_pair(state) -> Facts | None:
    """Two neighbouring lines joined by clues (= or × between them): the ways each can be completed,
    taken together so that the clues between them hold. A cell that holds the same symbol in every
    joint way is forced. The pair with the fewest joint ways that forces something is taken."""
    best, fewest = None, 0
    for line in range(2 * state.n):
        found = _joint_in(state, line)
        if found is not None and (best is None or found[0] < fewest):
            best, fewest = (line, found), found[0]
    if best is None:
        return None
    line, (ways, forced) = best
    place: tuple[int, ...] = ()
    for k, (moons, suns) in enumerate(forced):
        place += _placed(state, line + k, bits(suns), 0) + _placed(state, line + k, bits(moons), 1)
    return (_cost("line-pair") + LINE_PAIR_COST * (ways - 1), tuple(sorted(place)), line,
            (ways, *_links(state, line)))


class _Links:
    """Which cells are alike (0) or differ (1): a union-find with parity, and each link made with where
    it came from (-1 a clue, a line, 2n + line for that line and the next together)."""

    def __init__(self, size: int):
        self.parent = list(range(size))
        self.parity = [0] * size
        self.broken = False
        self.made: list[tuple[int, int, int]] = []

    def sources(self, a: int, b: int) -> list[int]:
        """Where the links on the one path joining a and b came from, one entry a link."""
        came: dict[int, tuple[int, int]] = {a: (a, -1)}
        todo = [a]
        while todo and b not in came:
            cell, todo = todo[0], todo[1:]
            for x, y, source in self.made:
                other = y if x == cell else x if y == cell else None
                if other is not None and other not in came:
                    came[other] = (cell, source)
                    todo.append(other)
        out = []
        while b != a:
            b, source = came[b]
            out.append(source)
        return out

    def root(self, x: int) -> tuple[int, int]:
        parity = 0
        while self.parent[x] != x:
            parity ^= self.parity[x]
            x = self.parent[x]
        return x, parity

    def link(self, a: int, b: int, parity: int, source: int) -> bool:
        """Record the relation; True when it is new (a contradicting one breaks the links)."""
        (ra, pa), (rb, pb) = self.root(a), self.root(b)
        if ra == rb:
            self.broken |= pa ^ pb != parity
            return False
        self.parent[ra], self.parity[ra] = rb, pa ^ pb ^ parity
        self.made.append((a, b, source))
        return True


def _linked_ways(state, links: _Links, line: int) -> tuple[list[int], list[int]]:
    """A line's ways that keep the relations between its empty cells, and per position the first
    earlier empty cell related to it (j * 2 + parity; -1 none or a known cell)."""
    n, cells = state.n, line_cells(state.n)[line]
    empty = [i for i in range(n) if state.values[cells[i]] < 0]
    roots = {i: links.root(cells[i]) for i in empty}
    link = [-1] * n
    for i in empty:
        earlier = [j for j in empty if j < i and roots[j][0] == roots[i][0]]
        if earlier:
            link[i] = earlier[0] * 2 + (roots[i][1] ^ roots[earlier[0]][1])
    kept = [m for m in state.line_ways(line)
            if all((m >> i ^ m >> (j >> 1)) & 1 == j & 1 for i, j in enumerate(link) if j >= 0)]
    return kept, link


def _pair_links(state, links: _Links, line: int) -> bool | None:
    """Lines `line` and `line + 1`, joined by clues, taken together when their ways multiply to at most
    LINE_PAIR_LIMIT: every two of their empty cells alike (or differing) in all the joint ways that
    keep the clues between them and the links so far get linked. Whether a link is new; None when no
    joint way is left."""
    joint = _joint_ways(state, line)
    if joint is None:
        return False
    n = state.n
    cells = line_cells(n)[line] + line_cells(n)[line + 1]
    empty = bits(_pair_empty(state, line))
    roots = {p: links.root(cells[p]) for p in empty}
    related = [(p, q, roots[p][1] ^ roots[q][1]) for p in empty for q in empty if q < p and roots[q][0] == roots[p][0]]
    joint = [m for m in joint if all((m >> p ^ m >> q) & 1 == parity for p, q, parity in related)]
    if not joint:
        return None
    return _link_alike(links, cells, empty, joint, 2 * n + line)


def _link_alike(links: _Links, cells: Sequence[int], empty: Sequence[int], ways: Sequence[int], source: int) -> bool:
    """Link every two of the `empty` positions (of `cells`) alike, or differing, in all the `ways`
    (masks over those positions); whether a link is new."""
    changed = False
    for x, p in enumerate(empty):
        for q in empty[x + 1:]:
            kinds = {(m >> p ^ m >> q) & 1 for m in ways}
            if len(kinds) == 1:
                changed |= links.link(cells[p], cells[q], kinds.pop(), source)
    return changed


def _open_lines(state, links: _Links) -> Iterator[tuple[int, list[int], list[int], list[int]]]:
    """Each line with an empty cell, as the walk reaches it (so that links made on the lines before
    count): the line, its empty cells' positions, and its ways and links as _linked_ways gives them."""
    for line, cells in enumerate(line_cells(state.n)):
        empty = [i for i in range(state.n) if state.values[cells[i]] < 0]
        if empty:
            yield (line, empty, *_linked_ways(state, links, line))


def _line_links(state) -> Facts | None:
    """Link the empty cells: the clues between them, in each line every two of its empty cells that
    are alike (or differ) in every way the line can be completed keeping the links so far, and the
    same for two neighbouring lines joined by clues taken together, over and over until nothing new
    follows. A line whose ways, keeping the links, agree on an empty cell
    forces it; the line with the fewest such ways is taken."""
    n = state.n
    links = _Links(n * n)
    for c in state.board.clues:
        if state.values[c.first] < 0 and state.values[c.second] < 0:
            links.link(c.first, c.second, 0 if c.same else 1, -1)
    lines = line_cells(n)
    changed = True
    while changed and not links.broken:
        changed = False
        for line, empty, ways, _ in _open_lines(state, links):
            if not ways:
                return None
            changed |= _link_alike(links, lines[line], empty, ways, line)
        for line in range(2 * n - 1):
            found = _pair_links(state, links, line)
            if found is None:
                return None
            changed |= found
    if links.broken:
        return None
    best = None
    for line, empty, ways, link in _open_lines(state, links):
        suns = [i for i in empty if all(not m >> i & 1 for m in ways)]
        moons = [i for i in empty if all(m >> i & 1 for m in ways)]
        if (suns or moons) and (best is None or len(ways) < best[0]):
            best = (len(ways), line, suns, moons, link)
    if best is None:
        return None
    ways, line, suns, moons, link = best
    place = tuple(sorted(_placed(state, line, suns, 0) + _placed(state, line, moons, 1)))
    sources: list[int] = []
    for i, j in enumerate(link):
        if j >= 0:
            sources += links.sources(lines[line][j >> 1], lines[line][i])
    from_lines = sum(1 << s for s in set(sources) if 0 <= s < 2 * n and s != line)
    from_pairs = sum(1 << (s - 2 * n) for s in set(sources) if s >= 2 * n)
    return (_cost("line-links") + WAYS_COST * (ways - 1), place, line,
            (ways, *link, from_lines, from_pairs, sources.count(-1)))


FACTS: dict[str, Callable[..., Facts | None]] = {
    "pair": _first_line(_pair_in), "sandwich": _first_line(_sandwich_in), "clue": _clue,
    "balance": _first_line(_balance_in), "equal-pair": _first_line(_equal_pair_in),
    "pair-count": _first_line(_pair_count_in), "line-completions": _line_completions, "line-pair": _line_pair,
    "line-links": _line_links}


def _cost(name: str) -> int:
    return LADDER[name].cost


def _worded(name: str, find: Callable[..., Facts | None]) -> Callable[..., Step | None]:
    """The ladder's finder of a rung from its Python twin, worded by the live sentence (techniques.SAY)."""
    say = SAY[name]

    def step(state) -> Step | None:
        found = find(state)
        if found is None:
            return None
        cost, place, where, detail = found
        units, why = say(state.board, place, where, detail)
        return Step(name, cost, place, (), units, why)
    step.__name__ = name
    return step


def _reference_ladder() -> tuple[Ladder, Ladder]:
    holder: dict[str, Ladder] = {}

    def trial(state) -> Step | None:
        return T.found_step("trial", T.trial(state, holder["lower"]))

    def chain(state) -> Step | None:
        return T.found_step("chain", T.chain(state))

    finders = {name: _worded(name, find) for name, find in FACTS.items()} | {"chain": chain, "trial": trial}
    ladder = Ladder(replace(t, find=finders[t.name]) for t in T.LADDER)
    holder["lower"] = Ladder(ladder.capped(T.TRIAL_CAP))
    return ladder, holder["lower"]


REFERENCE_LADDER, REFERENCE_LOWER = _reference_ladder()


__all__ = ["FACTS", "REFERENCE_LADDER", "REFERENCE_LOWER", "reference_solutions", "reference_valid_lines"]
