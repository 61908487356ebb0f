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
- line-pair (4): two neighbouring lines joined by clues, their ways taken together;
- line-links (4): which empty cells are alike, or differ, in every way their line can still be
  completed (and in every joint way of two neighbouring lines joined by clues), each such link kept
  when the next line's ways are counted, with the clues between empty cells, until nothing new
  follows; a line's ways that keep the links its cells got from the other lines force a cell;
- chain (4): relations (alike, differ) followed from cell to cell across lines;
- trial (5): assume a symbol in a cell and run the rungs below; when that breaks a rule, the cell
  holds the other symbol. The last rung: the generator's boards never need it.

Where each is found. pair to line-links are compiled (_ladder.pyx): the ladder asks them on a
TangoPosition, each once a step, and SAY builds the step's sentence from what the compiled finder
returns (the placements, the line, the detail: no second search). chain and trial are Python, here;
chain is asked only where the compiled check (Position.chain_finds) says it finds something.
TangoState is the Python view of a position (bit masks per line): what chain reads, what trial words
a broken probe from, and what the reference ladder (reference.py: the compiled finders' Python twins,
for the tests) runs on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from engine.games.tango._count import valid_lines
from engine.games.tango._ladder import CONSTANTS, Position
from engine.games.tango.count import clue_triples, codes
from engine.games.tango.board import Clue, TangoBoard, cell_name, line_cells, line_name
from engine.games.tango.rules import BANDS
from engine.ladder import Ladder, Step, Technique, run
from engine.ladder.table import in_order

NAMES = ("sun", "moon")
PLURAL = ("suns", "moons")

# The costs and the limit the compiled rungs apply (_ladder.pyx holds them; the reference reads them here)
WAYS_COST = CONSTANTS["WAYS_COST"]              # line-completions costs this much more for each way beyond the first
WAYS_SHOWN = CONSTANTS["WAYS_SHOWN"]            # its sentence spells out the ways up to this many
LINE_PAIR_COST = CONSTANTS["LINE_PAIR_COST"]    # line-pair costs this much more for each joint way beyond the first
LINE_PAIR_LIMIT = CONSTANTS["LINE_PAIR_LIMIT"]  # two lines are taken together only when their ways multiply to
                                                # at most this (no person sifts more; every pair of 6x6 lines is within it)


def placement(cell: int, value: int) -> int:
    """A placement as a Step carries it."""
    return cell * 2 + value


def bits(mask: int) -> list[int]:
    """The positions of a mask's set bits, lowest first."""
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

    def probe(self) -> TangoState:
        """A copy for trial to assume a symbol in."""
        return self.copy()

    def python(self) -> TangoState:
        return self

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


class TangoPosition:
    """The position the ladder grades on: the compiled Position (_ladder.pyx), whose finders the
    compiled rungs of the table ask, with the board (the sentences name its clues) and whether its
    steps are worded (a probe's or a solve only measured are not)."""

    __slots__ = ("board", "n", "pos", "words", "deadline")

    def __init__(self, board: TangoBoard, pos: Position, words: bool = True, deadline: float = 0.0):
        self.board = board
        self.n = board.n
        self.pos = pos
        self.words = words
        self.deadline = deadline            # trial's probes stop at it (monotonic seconds, 0: none)

    @classmethod
    def start(cls, board: TangoBoard, values: str | None = None, *, words: bool = True,
              deadline: float = 0.0) -> TangoPosition:
        """The position of the board's givens (or of the partial grid `values`: S, M or '.')."""
        return cls(board, Position(board.n, codes(board.givens if values is None else values),
                                   clue_triples(board.clues)), words, deadline)

    def probe(self) -> TangoPosition:
        """A copy for trial to assume a symbol in (its steps need no words)."""
        return TangoPosition(self.board, self.pos.copy(), False, self.deadline)

    def python(self) -> TangoState:
        """The position as the Python finders (chain, trial's words) read it."""
        return TangoState.start(self.board, self.pos.grid(), deadline=self.deadline)

    def place(self, cell: int, value: int) -> None:
        self.pos.place((placement(cell, value),))

    def apply(self, step: Step) -> None:
        self.pos.place(step.place)

    def grid(self) -> str:
        return self.pos.grid()

    def is_solved(self) -> bool:
        return self.pos.solved()

    def is_contradiction(self) -> bool:
        return self.pos.contradiction()


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


def _along(n: int, line: int, cell: int) -> int:
    """The position of a cell along a line through it."""
    return cell % n if line < n else cell // n


def _where(n: int, line: int, place: Sequence[int]) -> list[int]:
    """The positions along `line` of the placements in it."""
    cells = line_cells(n)[line]
    return [_along(n, line, x >> 1) for x in place if x >> 1 in cells]


# ------------------------------------------------------------------------------------------------
# the sentences of the compiled rungs: each words a step from what its finder returns (Position.find:
# the placements, where it was found and its detail), as (units, sentence)

Said = tuple[tuple[str, ...], str]


def _say_pair(board: TangoBoard, place: tuple[int, ...], line: int, detail: tuple[int, ...]) -> Said:
    n, (i, value) = board.n, detail
    ends = _where(n, line, place)
    two = _names(n, line, (i, i + 1))
    return (line_name(n, line),), (f"{two} are both {PLURAL[value]}, and no three alike may stand side by side "
                                   f"in {line_name(n, line)}, so {_names(n, line, ends)} {_are(len(ends), 1 - value)}")


def _say_sandwich(board: TangoBoard, place: tuple[int, ...], line: int, detail: tuple[int, ...]) -> Said:
    n = board.n
    i, value = _along(n, line, place[0] >> 1), 1 - (place[0] & 1)
    return (line_name(n, line),), (f"{_names(n, line, (i - 1, i + 1))} are both {PLURAL[value]}, so "
                                   f"{_names(n, line, (i,))} between them is a {NAMES[1 - value]} "
                                   f"(no three alike in {line_name(n, line)})")


def _say_clue(board: TangoBoard, place: tuple[int, ...], number: int, detail: tuple[int, ...]) -> Said:
    n, c = board.n, board.clues[number]
    empty, target = place[0] >> 1, place[0] & 1
    known = c.first if empty == c.second else c.second
    value = target if c.same else 1 - target
    line, _ = _clue_line(n, c)
    says = "they are alike" if c.same else "they differ"
    return (line_name(n, line),), (f"{cell_name(n, known)} is a {NAMES[value]} and the {c.sign} between it and "
                                   f"{cell_name(n, empty)} says {says}, so {cell_name(n, empty)} is a {NAMES[target]}")


def _say_balance(board: TangoBoard, place: tuple[int, ...], line: int, detail: tuple[int, ...]) -> Said:
    n, half = board.n, board.n // 2
    rest, value = _where(n, line, place), 1 - (place[0] & 1)
    return (line_name(n, line),), (f"{line_name(n, line).capitalize()} already holds its {half} {PLURAL[value]}, so "
                                   f"{_names(n, line, rest)} {_are(len(rest), 1 - value)}")


def _say_equal_pair(board: TangoBoard, place: tuple[int, ...], line: int, detail: tuple[int, ...]) -> Said:
    n, (j,) = board.n, detail
    i, value = _along(n, line, place[0] >> 1), 1 - (place[0] & 1)
    return (line_name(n, line),), (f"The = between {_names(n, line, (i, i + 1))} makes them alike, and beside "
                                   f"them {_names(n, line, (j,))} is a {NAMES[value]}: two more {PLURAL[value]} "
                                   f"would make three side by side, so both are {PLURAL[1 - value]}")


def _say_pair_count(board: TangoBoard, place: tuple[int, ...], line: int, detail: tuple[int, ...]) -> Said:
    n = board.n
    value = 1 - (place[0] & 1)
    if detail[0] == 0:                  # the × pairs give the line the last of a symbol it needs
        opposite = bits(detail[1])
        cells = _where(n, line, place)
        pairs = " and ".join(_names(n, line, (i, i + 1)) for i in opposite)
        a = "a" if len(opposite) == 1 else "each"
        return (line_name(n, line),), (f"{line_name(n, line).capitalize()} needs {len(opposite)} more "
                                       f"{PLURAL[value] if len(opposite) > 1 else NAMES[value]}, and the × between "
                                       f"{pairs} gives {a} one, so {_names(n, line, cells)} "
                                       f"{_are(len(cells), 1 - value)}")
    _, need, short, opposite_count = detail       # an = pair cannot take the symbol the line is short of
    i = _along(n, line, place[0] >> 1)
    counted = " beyond the × pairs" if opposite_count else ""
    return (line_name(n, line),), (f"{line_name(n, line).capitalize()} has room for {max(need, 0)} more "
                                   f"{NAMES[value] if need == 1 else PLURAL[value]}{counted} (it needs {short}), "
                                   f"so the = pair {_names(n, line, (i, i + 1))} cannot be {PLURAL[value]}: "
                                   f"both are {PLURAL[1 - value]}")


def _forced(n: int, line: int, place: tuple[int, ...]) -> str:
    """What a line's placements are, in words: its suns, then its moons."""
    said = []
    cells = line_cells(n)[line]
    for value in (0, 1):
        positions = [_along(n, line, x >> 1) for x in place if x & 1 == value and x >> 1 in cells]
        if positions:
            said.append(f"{_names(n, line, positions)} {_are(len(positions), value)}")
    return " and ".join(said)


def _say_line_completions(board: TangoBoard, place: tuple[int, ...], line: int, detail: tuple[int, ...]) -> Said:
    n, ways, shown = board.n, detail[0], detail[1:]
    name = line_name(n, line)
    if ways == 1:
        how = f"{name.capitalize()} can be completed in one way only, {_spell(n, shown[0])}"
    elif ways <= WAYS_SHOWN:
        how = f"{name.capitalize()} can still be completed in {ways} ways ({', '.join(_spell(n, m) for m in shown)})"
    else:
        how = f"{name.capitalize()} can still be completed in {ways} ways"
    return (name,), f"{how}, balanced, never three alike and keeping its clues; in every one {_forced(n, line, place)}"


def _spell(n: int, moons: int) -> str:
    return "".join("M" if moons >> i & 1 else "S" for i in range(n))


def _say_line_links(board: TangoBoard, place: tuple[int, ...], line: int, detail: tuple[int, ...]) -> Said:
    n, ways, links, (from_lines, from_pairs, from_clues) = board.n, detail[0], detail[1:board.n + 1], detail[board.n + 1:]
    name = line_name(n, line)
    said = [f"{_names(n, line, (j >> 1, i))} {'differ' if j & 1 else 'are alike'}" for i, j in enumerate(links) if j >= 0]
    singles = [line_name(n, other) for other in bits(from_lines)]
    pairs = [f"{'rows' if first < n else 'columns'} {first % n + 1} and {first % n + 2}" for first in bits(from_pairs)]
    units = tuple(dict.fromkeys([name] + [line_name(n, other) for other in bits(from_lines)]
                                + [line_name(n, first + k) for first in bits(from_pairs) for k in (0, 1)]))
    clues = "the clues" if from_clues > 1 else "a clue" if from_clues else ""
    origins = ([clues] if clues else []) + ([f"the ways of {_listed(singles)}"] if singles else [])
    origins += [f"the joint ways of {_listed(pairs)}"] if pairs else []
    whence = f" (from {'; '.join(origins)})" if origins else ""
    how = "one way only:" if ways == 1 else f"only {ways} ways, and in every one"
    return units, (f"Following the clues and what the ways of each line (and of two neighbouring lines joined by "
                   f"clues) keep alike or apart, from line to line: in {name}, "
                   f"{', '.join(said) or 'no two empty cells are linked'}{whence}; keeping that, {name} can be "
                   f"completed in {how} {_forced(n, line, place)}")


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _say_line_pair(board: TangoBoard, place: tuple[int, ...], line: int, detail: tuple[int, ...]) -> Said:
    n, (ways, same, differ) = board.n, detail
    said = [words for words in (_forced(n, line, place), _forced(n, line + 1, place)) if words]
    names = (line_name(n, line), line_name(n, line + 1))
    plural = "Rows" if line < n else "Columns"
    joined = " and ".join(f"{'an' if m == same else 'a'} {'=' if m == same else '×'}" for m in (same, differ) if m)
    how = "one way only" if ways == 1 else f"only {ways} ways"
    return names, (f"{plural} {names[0].split()[1]} and {names[1].split()[1]}, joined by {joined} between them, can be "
                   f"completed together in {how}; in every one {' and '.join(said)}")


SAY: dict[str, Callable[[TangoBoard, tuple[int, ...], int, tuple[int, ...]], Said]] = {
    "pair": _say_pair, "sandwich": _say_sandwich, "clue": _say_clue, "balance": _say_balance,
    "equal-pair": _say_equal_pair, "pair-count": _say_pair_count, "line-completions": _say_line_completions,
    "line-pair": _say_line_pair, "line-links": _say_line_links}


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


def trial(state: TangoState | TangoPosition, lower: Ladder | None = None) -> Found | None:
    """Assume a symbol in an empty cell and run the rungs below trial (`lower`: LOWER, the ladder's
    own; the reference ladder gives its own): when the position then breaks a rule, the cell holds
    the other symbol. Of every cell and symbol, the shortest chain is taken."""
    n, grid = state.n, state.grid()
    lower = LOWER if lower is None else lower
    best: tuple[int, int, int, str] | None = None      # (chain length, cell, value assumed, what broke)
    for cell, value in ((cell, value) for cell in range(n * n) if grid[cell] == "." for value in (0, 1)):
        probe = state.probe()
        probe.place(cell, value)
        limit = best[0] - 1 if best is not None else None
        result = run(probe, lower, max_steps=limit, deadline=state.deadline)
        if result.contradiction:
            chain = len(result.steps)
            if best is None or chain < best[0]:
                best = (chain, cell, value, _broken(probe.python()))
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

def found_step(name: str, found: Found | None) -> Step | None:
    """The Step of what a Python finder (chain, trial) found."""
    if found is None:
        return None
    return Step(name, ENTRY_COST[name] if found.cost is None else found.cost, found.place, (), found.units, found.why)


def _compiled(rung: int, name: str) -> Callable[[TangoPosition], Step | None]:
    """The ladder's finder of a compiled rung: Position.find once, the step worded from what it
    returns (not at all for a position that wants no words)."""
    say = SAY[name]

    def step(state: TangoPosition) -> Step | None:
        found = state.pos.find(rung)
        if found is None:
            return None
        cost, place, where, detail = found
        if not state.words:
            return Step(name, cost, place)
        units, why = say(state.board, place, where, detail)
        return Step(name, cost, place, (), units, why)
    step.__name__ = name
    return step


def _chain(state: TangoPosition) -> Step | None:
    """chain on the Python view of the position, asked only when the compiled check says it finds a
    step (most positions where the rungs below stall have none, and building the relations with their
    facts in Python costs far more than the compiled check)."""
    if not state.pos.chain_finds():
        return None
    return found_step("chain", chain(state.python()))


def _trial(state: TangoPosition) -> Step | None:
    return found_step("trial", trial(state))


def _rung(name: str, tier: int, cost: int) -> Technique:
    """A compiled rung's line of the table; its finder is bound below, by its place (its number in
    _ladder.pyx)."""
    return Technique(name, 0, tier, cost)


# tier 1 easy, 2 medium, 3 hard, 4 expert, 5 beyond (trial); the cost per step (line-completions,
# line-pair, chain and trial add to it per step, see above)
_TABLE: tuple[Technique, ...] = in_order((
    _rung("pair", 1, 1),
    _rung("sandwich", 1, 1),
    _rung("clue", 1, 1),
    _rung("balance", 1, 2),
    _rung("equal-pair", 2, 4),
    _rung("pair-count", 2, 5),
    _rung("line-completions", 3, 8),
    _rung("line-pair", 4, 20),
    _rung("line-links", 4, 22),
    Technique("chain", 0, 4, 24, _chain),
    Technique("trial", 0, 5, 40, _trial),
))
TABLE = tuple(replace(t, find=_compiled(t.order, t.name)) if t.find is None else t for t in _TABLE)
ENTRY_COST = {t.name: t.cost for t in TABLE}
IDS = {t.name: t.order for t in TABLE}
LADDER = Ladder(TABLE)
LOWER = Ladder(LADDER.capped(TRIAL_CAP))         # what a trial runs


__all__ = ["BANDS", "ENTRY_COST", "IDS", "LADDER", "LOWER", "NAMES", "SAY", "TABLE", "TRIAL_CAP", "Found",
           "TangoPosition", "TangoState", "completions", "found_step", "placement", "trial"]
