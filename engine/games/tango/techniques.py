"""The Tango technique ladder: one table of techniques, the way people solve the LinkedIn puzzle, from
the rules read off the grid up to trial.

Glossary. Cells are r * n + c; a value is 0 for a sun, 1 for a moon; a placement in a Step is the
number cell * 2 + value (in the board JSON, [row, column, value]: the third number is 0 for a sun and
1 for a moon). Tango has nothing to eliminate: ruling a symbol out of a cell places the other, so a
step only places. A *line* is a row (lines 0..n-1) or a column (lines n..2n-1); inside the state a line
is two bitmasks along it (bit i: the line's i-th cell, left to right or top to bottom), its suns and
its moons, and its clues are two more (bit i: a clue between its cells i and i + 1), `=` and `×`.
Every rule of the game lives inside one line (its balance, three alike, the clues on its edges), so
every technique below reasons about one line, except trial.

The ladder, in order (tier: 1 easy, 2 medium, 3 hard, 4 expert):
- pair (1): two alike side by side; the cells at both ends are the other symbol;
- sandwich (1): two alike with one cell between; the middle is the other symbol;
- clue (1): a clue with one side known; the other side follows;
- balance (1): a line holds n/2 of a symbol; its other cells are the other symbol;
- equal-pair (2): an `=` between two empty cells beside a known cell; both differ from it (else three
  alike);
- pair-count (2): counting a line's `×` pairs as one of each symbol and its `=` pairs as two alike: the
  other cells have the other symbol, or an `=` pair cannot take the symbol the line is short of;
- line-completions (3): the ways a line can still be completed (balanced, never three alike, its
  clues, its known cells); what every way agrees on is forced; costs more the more ways there are;
- trial (4): assume a symbol in a cell and run the rungs below; when that breaks a rule, the cell
  holds the other symbol. The last rung: the generator's boards never need it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from engine.games.tango._count import valid_lines
from engine.games.tango.board import Clue, TangoBoard, cell_name, line_cells, line_name
from engine.games.tango.rules import BANDS
from engine.ladder import Ladder, Step, Technique, run
from engine.ladder.table import in_order

NAMES = ("sun", "moon")
PLURAL = ("suns", "moons")


def placement(cell: int, value: int) -> int:
    """A placement as a Step carries it."""
    return cell * 2 + value


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@lru_cache(maxsize=1 << 16)
def completions(n: int, suns: int, moons: int, same: int, diff: int) -> tuple[int, ...]:
    """The ways a line of length n can still be completed, as moon masks: valid lines (balanced, never
    three alike) that keep its known suns and moons and obey its `=` (same) and `×` (diff) clues (bit
    i: a clue between cells i and i + 1)."""
    known = suns | moons
    out = []
    for m in valid_lines(n):
        step = m ^ (m >> 1)
        if (m & known) == moons and not step & same and step & diff == diff:
            out.append(m)
    return tuple(out)


class TangoState:
    """A position for the shared ladder loop: each cell's value (-1 empty) and, per line, its suns,
    moons and clues as bitmasks (see the module notes)."""

    __slots__ = ("board", "n", "half", "full", "values", "suns", "moons", "same", "diff", "deadline")

    def __init__(self, board: TangoBoard, values: Sequence[int], suns: list[int], moons: list[int],
                 same: list[int], diff: list[int], deadline: float = 0.0):
        self.board = board
        self.n = board.n
        self.half = board.n // 2
        self.full = (1 << board.n) - 1
        self.values = list(values)
        self.suns, self.moons = suns, moons
        self.same, self.diff = same, diff
        self.deadline = deadline            # trial's sub-solves stop at it (monotonic seconds, 0: none)

    @classmethod
    def start(cls, board: TangoBoard, values: str | None = None, *, deadline: float = 0.0) -> TangoState:
        """The position of the board's givens (or of the partial grid `values`: S, M or '.')."""
        n = board.n
        same, diff = [0] * (2 * n), [0] * (2 * n)
        for clue in board.clues:
            line, at = _clue_line(n, clue)
            if clue.same:
                same[line] |= 1 << at
            else:
                diff[line] |= 1 << at
        state = cls(board, [-1] * (n * n), [0] * (2 * n), [0] * (2 * n), same, diff, deadline)
        for cell, ch in enumerate(board.givens if values is None else values):
            if ch != ".":
                state.place(cell, "SM".index(ch))
        return state

    def copy(self) -> TangoState:
        return TangoState(self.board, self.values, list(self.suns), list(self.moons), self.same, self.diff,
                          self.deadline)

    def place(self, cell: int, value: int) -> None:
        r, c = divmod(cell, self.n)
        self.values[cell] = value
        masks = self.moons if value else self.suns
        masks[r] |= 1 << c
        masks[self.n + c] |= 1 << r

    def apply(self, step: Step) -> None:
        for x in step.place:
            self.place(x >> 1, x & 1)

    def grid(self) -> str:
        return "".join("." if v < 0 else "SM"[v] for v in self.values)

    def line_ways(self, line: int) -> tuple[int, ...]:
        return completions(self.n, self.suns[line], self.moons[line], self.same[line], self.diff[line])

    def is_solved(self) -> bool:
        return -1 not in self.values and not self.is_contradiction()

    def is_contradiction(self) -> bool:
        """Some line breaks a rule or a clue, or can no longer be completed."""
        for line in range(2 * self.n):
            if not self.line_ways(line):
                return True
        return False


def _clue_line(n: int, clue: Clue) -> tuple[int, int]:
    """The line a clue lies along and the position of its first cell in it."""
    if clue.second == clue.first + 1:
        return clue.first // n, clue.first % n
    return n + clue.first % n, clue.first // n


class Found(NamedTuple):
    place: tuple[int, ...]
    units: tuple[str, ...]
    why: str
    cost: int | None = None      # None: the table's cost


def _names(n: int, line: int, positions: Sequence[int]) -> str:
    cells = line_cells(n)[line]
    names = [cell_name(n, cells[i]) for i in positions]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _are(count: int, value: int) -> str:
    return f"is a {NAMES[value]}" if count == 1 else f"are {PLURAL[value]}"


def _found(state: TangoState, line: int, positions: Sequence[int], value: int, why: str,
           cost: int | None = None) -> Found:
    cells = line_cells(state.n)[line]
    return Found(tuple(placement(cells[i], value) for i in positions), (line_name(state.n, line),),
                 why, cost)


# ------------------------------------------------------------------------------------------------
# tier 1: the rules read off the grid

def _first_line(find_in: Callable[[TangoState, int], Found | None]) -> Callable[[TangoState], Found | None]:
    """A finder that takes the first line (rows, then columns) where `find_in` finds a step."""
    def find(state: TangoState) -> Found | None:
        for line in range(2 * state.n):
            found = find_in(state, line)
            if found is not None:
                return found
        return None
    find.__doc__ = find_in.__doc__
    return find


def _pair_in(state: TangoState, line: int) -> Found | None:
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
                two = _names(n, line, (i, i + 1))
                return _found(state, line, ends, 1 - value,
                              f"{two} are both {PLURAL[value]}, and no three alike may stand side by side "
                              f"in {line_name(n, line)}, so {_names(n, line, ends)} {_are(len(ends), 1 - value)}")
    return None


pair = _first_line(_pair_in)


def _sandwich_in(state: TangoState, line: int) -> Found | None:
    """Two alike with one empty cell between them: the middle holds the other symbol."""
    n = state.n
    empty = state.full & ~(state.suns[line] | state.moons[line])
    for value, mask in ((0, state.suns[line]), (1, state.moons[line])):
        middles = (mask & (mask >> 2)) << 1 & empty
        if middles:
            i = (middles & -middles).bit_length() - 1
            return _found(state, line, (i,), 1 - value,
                          f"{_names(n, line, (i - 1, i + 1))} are both {PLURAL[value]}, so "
                          f"{_names(n, line, (i,))} between them is a {NAMES[1 - value]} "
                          f"(no three alike in {line_name(n, line)})")
    return None


sandwich = _first_line(_sandwich_in)


def _clue_at(state: TangoState, number: int) -> Found | None:
    """A clue (the board's clue `number`) with one side known: an `=` copies it, a `×` gives the
    other symbol."""
    n, values = state.n, state.values
    c = state.board.clues[number]
    a, b = values[c.first], values[c.second]
    if (a < 0) == (b < 0):
        return None
    known, empty, value = (c.first, c.second, a) if b < 0 else (c.second, c.first, b)
    target = value if c.same else 1 - value
    line, _ = _clue_line(n, c)
    says = "they are alike" if c.same else "they differ"
    return Found((placement(empty, target),), (line_name(n, line),),
                 f"{cell_name(n, known)} is a {NAMES[value]} and the {c.sign} between it and "
                 f"{cell_name(n, empty)} says {says}, so {cell_name(n, empty)} is a {NAMES[target]}")


def clue(state: TangoState) -> Found | None:
    """A clue with one side known: an `=` copies it, a `×` gives the other symbol."""
    for number in range(len(state.board.clues)):
        found = _clue_at(state, number)
        if found is not None:
            return found
    return None


def _balance_in(state: TangoState, line: int) -> Found | None:
    """A line that holds n/2 of a symbol: its other cells hold the other symbol."""
    n, half = state.n, state.half
    empty = state.full & ~(state.suns[line] | state.moons[line])
    if not empty:
        return None
    for value, mask in ((0, state.suns[line]), (1, state.moons[line])):
        if mask.bit_count() == half:
            rest = _bits(empty)
            return _found(state, line, rest, 1 - value,
                          f"{line_name(n, line).capitalize()} already holds its {half} {PLURAL[value]}, so "
                          f"{_names(n, line, rest)} {_are(len(rest), 1 - value)}")
    return None


balance = _first_line(_balance_in)


# ------------------------------------------------------------------------------------------------
# tier 2: the clues between empty cells

def _equal_pair_in(state: TangoState, line: int) -> Found | None:
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
                value = moons >> j & 1
                return _found(state, line, (i, i + 1), 1 - value,
                              f"The = between {_names(n, line, (i, i + 1))} makes them alike, and beside "
                              f"them {_names(n, line, (j,))} is a {NAMES[value]}: two more {PLURAL[value]} "
                              f"would make three side by side, so both are {PLURAL[1 - value]}")
    return None


equal_pair = _first_line(_equal_pair_in)


def _disjoint_pairs(mask: int) -> list[int]:
    """Clue positions (bit i: cells i and i + 1) taken left to right without sharing a cell."""
    out, taken = [], 0
    for i in _bits(mask):
        if not taken >> i & 3:
            out.append(i)
            taken |= 3 << i
    return out


def _pair_count_in(state: TangoState, line: int) -> Found | None:
    """Count a line's clue pairs between empty cells: a `×` pair holds one of each symbol, an `=`
    pair two alike. When the `×` pairs give a line the last of a symbol it needs, its other empty cells
    are the other symbol; when it needs fewer than two more of a symbol, an `=` pair is the other."""
    n, half = state.n, state.half
    suns, moons = state.suns[line], state.moons[line]
    empty = state.full & ~(suns | moons)
    if not empty:
        return None
    opposite = _disjoint_pairs(state.diff[line] & empty & (empty >> 1))
    in_pairs = 0
    for i in opposite:
        in_pairs |= 3 << i
    equal = [i for i in _bits(state.same[line] & empty & (empty >> 1)) if not in_pairs >> i & 3]
    for value, mask in ((0, suns), (1, moons)):
        need = half - mask.bit_count() - len(opposite)          # beyond one per × pair
        rest = empty & ~in_pairs
        if opposite and need == 0 and rest:
            cells = _bits(rest)
            pairs = " and ".join(_names(n, line, (i, i + 1)) for i in opposite)
            a = "a" if len(opposite) == 1 else "each"
            return _found(state, line, cells, 1 - value,
                          f"{line_name(n, line).capitalize()} needs {len(opposite)} more "
                          f"{PLURAL[value] if len(opposite) > 1 else NAMES[value]}, and the × between "
                          f"{pairs} gives {a} one, so {_names(n, line, cells)} "
                          f"{_are(len(cells), 1 - value)}")
        if equal and need < 2:
            i = equal[0]
            short = half - mask.bit_count()
            counted = " beyond the × pairs" if opposite else ""
            return _found(state, line, (i, i + 1), 1 - value,
                          f"{line_name(n, line).capitalize()} has room for {max(need, 0)} more "
                          f"{NAMES[value] if need == 1 else PLURAL[value]}{counted} (it needs {short}), "
                          f"so the = pair {_names(n, line, (i, i + 1))} cannot be {PLURAL[value]}: "
                          f"both are {PLURAL[1 - value]}")
    return None


pair_count = _first_line(_pair_count_in)


# ------------------------------------------------------------------------------------------------
# tier 3: the ways a line can still be completed

WAYS_COST = 3          # line-completions costs this much more for each way beyond the first
WAYS_SHOWN = 3         # the sentence spells out the ways up to this many


def _completions_in(state: TangoState, line: int) -> tuple[tuple[int, ...], int, int] | None:
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


def _line_completions_in(state: TangoState, line: int) -> Found | None:
    """What every way of completing `line` agrees on, worded (None when nothing is forced)."""
    found = _completions_in(state, line)
    if found is None:
        return None
    n = state.n
    ways, forced_suns, forced_moons = found
    cells = line_cells(n)[line]
    place = tuple(sorted([placement(cells[i], 0) for i in _bits(forced_suns)]
                         + [placement(cells[i], 1) for i in _bits(forced_moons)]))
    said = []
    for value, mask in ((0, forced_suns), (1, forced_moons)):
        if mask:
            said.append(f"{_names(n, line, _bits(mask))} {_are(mask.bit_count(), value)}")
    name = line_name(n, line)
    if len(ways) == 1:
        how = f"{name.capitalize()} can be completed in one way only, {_spell(n, ways[0])}"
    elif len(ways) <= WAYS_SHOWN:
        how = (f"{name.capitalize()} can still be completed in {len(ways)} ways "
               f"({', '.join(_spell(n, m) for m in ways)})")
    else:
        how = f"{name.capitalize()} can still be completed in {len(ways)} ways"
    why = f"{how}, balanced, never three alike and keeping its clues; in every one {' and '.join(said)}"
    return Found(place, (name,), why, ENTRY_COST["line-completions"] + WAYS_COST * (len(ways) - 1))


def line_completions(state: TangoState) -> Found | None:
    """Every way a line can still be completed: a cell that holds the same symbol in all of them is
    forced. The line with the fewest ways that forces something is taken."""
    best, fewest = None, 0
    for line in range(2 * state.n):
        found = _completions_in(state, line)
        if found is not None and (best is None or len(found[0]) < fewest):
            best, fewest = line, len(found[0])
            if fewest == 1:
                break
    return None if best is None else _line_completions_in(state, best)


def _spell(n: int, moons: int) -> str:
    return "".join("M" if moons >> i & 1 else "S" for i in range(n))


# ------------------------------------------------------------------------------------------------
# tier 4: two neighbouring lines together

LINE_PAIR_COST = 2      # line-pair costs this much more for each joint way beyond the first
LINE_PAIR_LIMIT = 400   # two lines are taken together only when their ways multiply to at most this
                        # (no person sifts more; every pair of 6x6 lines is within it)


def _links(state: TangoState, line: int) -> tuple[int, int]:
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


def _joint_in(state: TangoState, line: int) -> tuple[int, tuple[tuple[int, int], tuple[int, int]], int, int] | None:
    """Lines `line` and `line + 1` taken together: how many joint ways, what they force ((moons, suns)
    of the empty cells of each line) and the clues between them (=, ×); None when they have no clue
    between them, no empty cell, too many ways, no joint way or nothing forced."""
    n, full = state.n, state.full
    if line % n == n - 1:
        return None                       # the last row or column has no next one
    same, differ = _links(state, line)
    if not same | differ:
        return None
    other = line + 1
    empty_a = full & ~(state.suns[line] | state.moons[line])
    empty_b = full & ~(state.suns[other] | state.moons[other])
    if not empty_a | empty_b:
        return None
    ways_a, ways_b = state.line_ways(line), state.line_ways(other)
    if len(ways_a) * len(ways_b) > LINE_PAIR_LIMIT:
        return None
    joint = [(a, b) for a in ways_a for b in ways_b if not (a ^ b) & same and (a ^ b) & differ == differ]
    if not joint:
        return None
    all_a = all_b = full
    any_a = any_b = 0
    for a, b in joint:
        all_a &= a
        any_a |= a
        all_b &= b
        any_b |= b
    forced = ((all_a & empty_a, ~any_a & empty_a), (all_b & empty_b, ~any_b & empty_b))
    if not any(m or s for m, s in forced):
        return None
    return len(joint), forced, same, differ


def _line_pair_in(state: TangoState, line: int) -> Found | None:
    """What lines `line` and `line + 1` force taken together, worded (None when nothing)."""
    found = _joint_in(state, line)
    if found is None:
        return None
    n = state.n
    ways, forced, same, differ = found
    place, said = [], []
    for k, (moons, suns) in enumerate(forced):
        cells = line_cells(n)[line + k]
        place += [placement(cells[i], 0) for i in _bits(suns)] + [placement(cells[i], 1) for i in _bits(moons)]
        for value, mask in ((0, suns), (1, moons)):
            if mask:
                said.append(f"{_names(n, line + k, _bits(mask))} {_are(mask.bit_count(), value)}")
    names = (line_name(n, line), line_name(n, line + 1))
    plural = "Rows" if line < n else "Columns"
    joined = " and ".join(f"{'an' if m == same else 'a'} {'=' if m == same else '×'}" for m in (same, differ) if m)
    how = "one way only" if ways == 1 else f"only {ways} ways"
    why = (f"{plural} {names[0].split()[1]} and {names[1].split()[1]}, joined by {joined} between them, can be "
           f"completed together in {how}; in every one {' and '.join(said)}")
    return Found(tuple(sorted(place)), names, why, ENTRY_COST["line-pair"] + LINE_PAIR_COST * (ways - 1))


def line_pair(state: TangoState) -> Found | None:
    """Two neighbouring lines joined by clues (= or × between them): the ways each can be completed,
    taken together so that the clues between them hold. A cell that holds the same symbol in every
    joint way is forced. The pair with the fewest joint ways that forces something is taken."""
    best, fewest = None, 0
    for line in range(2 * state.n):
        found = _joint_in(state, line)
        if found is not None and (best is None or found[0] < fewest):
            best, fewest = line, found[0]
    return None if best is None else _line_pair_in(state, best)


# ------------------------------------------------------------------------------------------------
# tier 4: chains of relations across lines

CHAIN_FACT_COST = 2                     # chain costs this much more for each link it spells out


class _Relations:
    """Which cells are alike or differ, as far as the clues, the known cells and the pair and
    sandwich rules applied to relations (not only to values) tell: a union-find with parity over the
    cells and one more node, `sun` (a cell related to it with parity 0 is a sun, 1 a moon). Every
    union is a *fact* (cells, parity, reason, the facts it rests on); the facts form a forest, so two
    related cells are joined by exactly one path of facts."""

    def __init__(self, n: int):
        self.n = n
        self.sun = n * n
        self.parent = list(range(n * n + 1))
        self.parity = [0] * (n * n + 1)          # to the parent
        self.facts: list[tuple[int, int, int, tuple, tuple[int, ...]]] = []
        self.links: list[list[tuple[int, int]]] = [[] for _ in range(n * n + 1)]   # node -> (node, fact)
        self.broken = False

    def find(self, x: int) -> tuple[int, int]:
        parity = 0
        root = x
        while self.parent[root] != root:
            parity ^= self.parity[root]
            root = self.parent[root]
        # compress: point x's path at the root with its parity
        walk, walked = x, parity
        while self.parent[walk] != root and walk != root:
            up, step = self.parent[walk], self.parity[walk]
            self.parent[walk], self.parity[walk] = root, walked
            walk, walked = up, walked ^ step
        return root, parity

    def relation(self, a: int, b: int) -> int | None:
        """0 alike, 1 differ, None unknown."""
        ra, pa = self.find(a)
        rb, pb = self.find(b)
        return pa ^ pb if ra == rb else None

    def relate(self, a: int, b: int, parity: int, reason: tuple, premises: tuple[int, ...]) -> bool:
        """Record that a and b are alike (0) or differ (1); True when that is new."""
        ra, pa = self.find(a)
        rb, pb = self.find(b)
        if ra == rb:
            if pa ^ pb != parity:
                self.broken = True
            return False
        self.parent[ra], self.parity[ra] = rb, pa ^ pb ^ parity
        fact = len(self.facts)
        self.facts.append((a, b, parity, reason, premises))
        self.links[a].append((b, fact))
        self.links[b].append((a, fact))
        return True

    def path(self, a: int, b: int) -> tuple[int, ...]:
        """The facts joining two related nodes."""
        came: dict[int, tuple[int, int]] = {a: (-1, -1)}
        todo = [a]
        while todo and b not in came:
            x = todo.pop()
            for y, fact in self.links[x]:
                if y not in came:
                    came[y] = (x, fact)
                    todo.append(y)
        out = []
        while b != a:
            b, fact = came[b]
            out.append(fact)
        return tuple(out)

    def closure(self, facts: Sequence[int]) -> list[int]:
        """The facts with every fact they rest on, in the order they were found."""
        seen: set[int] = set()
        todo = list(facts)
        while todo:
            fact = todo.pop()
            if fact not in seen:
                seen.add(fact)
                todo.extend(self.facts[fact][4])
        return sorted(seen)


def _relations(state: TangoState) -> _Relations:
    """Every relation the clues, the known cells and the pair and sandwich rules give, to a fixed point."""
    n = state.n
    rel = _Relations(n)
    for cell, value in enumerate(state.values):
        if value >= 0:
            rel.relate(cell, rel.sun, value, ("known",), ())
    for c in state.board.clues:
        rel.relate(c.first, c.second, 0 if c.same else 1, ("clue", c), ())
    lines = line_cells(n)
    changed = True
    while changed and not rel.broken:
        changed = False
        for line, cells in enumerate(lines):
            for i in range(n - 1):
                a, b = cells[i], cells[i + 1]
                if rel.relation(a, b) == 0:
                    for j in (i - 1, i + 2):
                        if 0 <= j < n and rel.relation(cells[j], a) is None:
                            changed |= rel.relate(cells[j], a, 1, ("pair", line, a, b), rel.path(a, b))
            for i in range(n - 2):
                a, b = cells[i], cells[i + 2]
                if rel.relation(a, b) == 0 and rel.relation(cells[i + 1], a) is None:
                    changed |= rel.relate(cells[i + 1], a, 1, ("sandwich", line, a, b), rel.path(a, b))
    return rel


def _fact_words(n: int, fact: tuple) -> str:
    a, b, parity, reason, _ = fact
    kind = reason[0]
    if kind == "known":
        return f"{cell_name(n, a)} is a {NAMES[parity]}"
    if kind == "clue":
        c = reason[1]
        return (f"the {c.sign} makes {cell_name(n, c.first)} and {cell_name(n, c.second)} "
                f"{'alike' if c.same else 'differ'}")
    _, line, x, y = reason
    where = "beside" if kind == "pair" else "between"
    return (f"{cell_name(n, x)} and {cell_name(n, y)} being alike, {cell_name(n, a)} {where} them in "
            f"{line_name(n, line)} differs from them")


def chain(state: TangoState) -> Found | None:
    """Follow the relations between cells across lines: the clues, and the pair and sandwich rules
    applied to cells known only to be alike (two alike side by side, or with one cell between, make
    their neighbours or the middle differ from them, whatever symbol they hold). A chain of such links
    from a known cell to an empty one places it; of every cell so placed, the shortest chain is taken."""
    n = state.n
    rel = _relations(state)
    if rel.broken:
        return None
    best: tuple[list[int], int, int] | None = None
    root, _ = rel.find(rel.sun)
    for cell in range(n * n):
        if state.values[cell] >= 0:
            continue
        value = rel.relation(cell, rel.sun)
        if value is None:
            continue
        facts = rel.closure(rel.path(rel.sun, cell))
        if best is None or len(facts) < len(best[0]):
            best = (facts, cell, value)
    if best is None:
        return None
    facts, cell, value = best
    units = tuple(dict.fromkeys(line_name(n, rel.facts[f][3][1]) for f in facts if rel.facts[f][3][0] in ("pair", "sandwich")))
    words = "; ".join(_fact_words(n, rel.facts[f]) for f in facts)
    return Found((placement(cell, value),), units,
                 f"Follow the chain: {words}; so {cell_name(n, cell)} is a {NAMES[value]}",
                 ENTRY_COST["chain"] + CHAIN_FACT_COST * len(facts))


# ------------------------------------------------------------------------------------------------
# tier 5: trial

TRIAL_CAP = "chain"                     # the rungs a trial runs
TRIAL_STEP_COST = 2                     # trial costs this much more for each step of its chain


def trial(state: TangoState) -> Found | None:
    """Assume a symbol in an empty cell and run the rungs below trial: when the position then breaks
    a rule, the cell holds the other symbol. Of every cell and symbol, the shortest chain is taken."""
    n = state.n
    best: tuple[int, int, int, str] | None = None      # (chain length, cell, value assumed, what broke)
    for cell, value in ((cell, value) for cell in range(n * n) if state.values[cell] < 0 for value in (0, 1)):
        probe = state.copy()
        probe.place(cell, value)
        limit = best[0] - 1 if best is not None else None
        result = run(probe, LOWER, max_steps=limit, deadline=state.deadline)
        if result.contradiction:
            chain = len(result.steps)
            if best is None or chain < best[0]:
                best = (chain, cell, value, _broken(probe))
                if chain == 0:
                    break
    if best is None:
        return None
    chain, cell, value, broken = best
    after = "at once" if chain == 0 else f"after {chain} step{'s' if chain > 1 else ''} of the easier rules"
    name = cell_name(n, cell)
    return Found((placement(cell, 1 - value),), (), f"If {name} were a {NAMES[value]}, {broken} {after}; "
                 f"so {name} is a {NAMES[1 - value]}", ENTRY_COST["trial"] + TRIAL_STEP_COST * chain)


def _broken(state: TangoState) -> str:
    """What a contradictory position breaks, in words."""
    n, half = state.n, state.half
    for line in range(2 * n):
        name = line_name(n, line)
        for value, mask in ((0, state.suns[line]), (1, state.moons[line])):
            if mask.bit_count() > half:
                return f"{name} would hold {mask.bit_count()} {PLURAL[value]}"
            if mask & (mask >> 1) & (mask >> 2):
                return f"{name} would have three {PLURAL[value]} side by side"
    for c in state.board.clues:
        a, b = state.values[c.first], state.values[c.second]
        if a >= 0 and b >= 0 and (a == b) != c.same:
            return f"the {c.sign} between {cell_name(n, c.first)} and {cell_name(n, c.second)} would break"
    line = next(line for line in range(2 * n) if not state.line_ways(line))
    return f"{line_name(n, line)} could not be completed"


# ------------------------------------------------------------------------------------------------
# the table

def _technique(name: str, tier: int, cost: int, find: Callable[[TangoState], Found | None]) -> Technique:
    """A line of the table: tier 1 easy, 2 medium, 3 hard, 4 expert, 5 beyond (trial); the cost per
    step (line-completions, line-pair, chain and trial add to it per step, see above)."""
    def step(state: TangoState) -> Step | None:
        found = find(state)
        if found is None:
            return None
        return Step(name, cost if found.cost is None else found.cost, found.place, (), found.units, found.why)
    step.__name__ = name
    return Technique(name, 0, tier, cost, step)


TABLE: tuple[Technique, ...] = in_order((
    _technique("pair", 1, 1, pair),
    _technique("sandwich", 1, 1, sandwich),
    _technique("clue", 1, 1, clue),
    _technique("balance", 1, 2, balance),
    _technique("equal-pair", 2, 4, equal_pair),
    _technique("pair-count", 2, 5, pair_count),
    _technique("line-completions", 3, 8, line_completions),
    _technique("line-pair", 4, 20, line_pair),
    _technique("chain", 4, 24, chain),
    _technique("trial", 5, 40, trial),
))
ENTRY_COST = {t.name: t.cost for t in TABLE}
IDS = {t.name: t.order for t in TABLE}
LADDER = Ladder(TABLE)

# The finders of one place: a line (a clue's number for `clue`), as the compiled rungs name where they
# found a step (grade.worded words a compiled path with these).
AT: dict[str, Callable[[TangoState, int], Found | None]] = {
    "pair": _pair_in, "sandwich": _sandwich_in, "clue": _clue_at, "balance": _balance_in,
    "equal-pair": _equal_pair_in, "pair-count": _pair_count_in, "line-completions": _line_completions_in,
    "line-pair": _line_pair_in}
LOWER = Ladder(LADDER.capped(TRIAL_CAP))         # what a trial runs


__all__ = ["AT", "BANDS", "ENTRY_COST", "IDS", "LADDER", "LOWER", "NAMES", "TABLE", "TRIAL_CAP", "Found",
           "TangoState", "completions", "placement"]
