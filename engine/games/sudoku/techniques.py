"""The Sudoku technique ladder: the table (table.py) made into a Ladder, and a sentence for each step.

Glossary. A *candidate* (pencil mark) is a digit still possible in an empty cell; in a Step it is the
number cell * 9 + (digit - 1), cells r * 9 + c with rows and columns from 0. Two cells *see* each
other when they share a row, a column or a box. A *strong link* joins two candidates of which at
least one is true (a cell with two candidates; a digit with two places in a unit, a *conjugate pair*);
a *weak link* joins two that cannot both be true (one cell; one digit in cells that see each other).
Placing a digit also removes it from the marks of the cell's peers: that is part of the placement.

The finders are compiled (_logic.pyx); each returns a Finding, a record with named fields. A
technique's table line (table.py) names the sentence function below that words its Finding, so the
technique is declared in that one line, and the ids, tiers, costs and caps here all come from it.
The compiled module carries the table it was built from; importing this module checks it against
table.py, so a stale build fails loudly instead of giving the techniques the wrong ids.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from engine.games.sudoku._logic import BUILT_FROM, Position, __file__ as _LOGIC_FILE
from engine.games.sudoku.geometry import cand_name, cell_name, cells_text as _cells, digits_text, unit_name
from engine.games.sudoku.table import TABLE, Finding
from engine.games.sudoku.rules import BANDS
from engine.ladder import Ladder, Step

if BUILT_FROM != tuple((e.name, e.compiled) for e in TABLE):
    raise ImportError(f"{_LOGIC_FILE} was built from another technique table than table.py: rebuild it "
                      "(make build)")

IDS = {e.name: tid for tid, e in enumerate(TABLE)}
NAME_OF = {tid: e.name for tid, e in enumerate(TABLE)}
UNIQUENESS = frozenset(e.name for e in TABLE if e.needs_unique)    # sound only where the answer is unique


# ------------------------------------------------------------------------------------------------
# sentences: one plain sentence for a step, from its Finding; table lines name them

Sentence = Callable[[Finding], str]
SENTENCES: dict[str, Sentence] = {}


def _sentence(fn: Sentence) -> Sentence:
    SENTENCES[fn.__name__] = fn
    return fn


def _unit(f: Finding, i: int = 0) -> str:
    return unit_name(f.units[i])


def _bare(f: Finding) -> str:
    """The pattern's digits without braces: "3", "1,2"."""
    return digits_text(f.digits)[1:-1]


def _gone(f: Finding) -> str:
    return ", ".join(cand_name(x) for x in f.eliminate)


@_sentence
def full_house(f: Finding) -> str:
    return f"{_unit(f)} has one empty cell left: {cand_name(f.place[0])}"


@_sentence
def naked_single(f: Finding) -> str:
    return f"{cell_name(f.place[0] // 9)} has only {f.place[0] % 9 + 1} left"


@_sentence
def hidden_single(f: Finding) -> str:
    return f"{f.place[0] % 9 + 1} has one place left in {_unit(f)}: {cell_name(f.place[0] // 9)}"


@_sentence
def locked(f: Finding) -> str:
    how = "pointing" if f.kind == 0 else "claiming"
    return (f"{how}: in {_unit(f)}, {_bare(f)} lies only in {_unit(f, 1)}, so not elsewhere in "
            f"{_unit(f, 1)}: {_gone(f)}")


@_sentence
def naked_subset(f: Finding) -> str:
    return (f"{_cells(f.cells)} hold only {digits_text(f.digits)} in {_unit(f)}, so those digits leave "
            f"the rest: {_gone(f)}")


@_sentence
def hidden_subset(f: Finding) -> str:
    return (f"{digits_text(f.digits)} fit only {_cells(f.cells)} in {_unit(f)}, so those cells hold "
            f"nothing else: {_gone(f)}")


@_sentence
def fish(f: Finding) -> str:
    units = [unit_name(u) for u in f.units]
    half = len(units) // 2
    return (f"{_bare(f)} in {', '.join(units[:half])} lies only in {', '.join(units[half:])}, "
            f"so not elsewhere in those lines: {_gone(f)}")


@_sentence
def skyscraper(f: Finding) -> str:
    end, base, base2, end2 = (cell_name(c) for c in f.cells)
    return (f"{_bare(f)} has two places in {_unit(f)} and in {_unit(f, 1)}, sharing a line through "
            f"{base} and {base2}: one of {end}, {end2} is {_bare(f)}, so not {_gone(f)}")


@_sentence
def kite(f: Finding) -> str:
    return (f"{_bare(f)} has two places in {_unit(f)} and in {_unit(f, 1)}, joined in {_unit(f, 2)}: one "
            f"of {cell_name(f.cells[0])}, {cell_name(f.cells[3])} is {_bare(f)}, so not {_gone(f)}")


@_sentence
def xy_wing(f: Finding) -> str:
    pivot, q1, q2 = (cell_name(c) for c in f.cells)
    return (f"pivot {pivot} with pincers {q1} and {q2} ({digits_text(f.digits)}): one pincer holds the "
            f"shared digit, so not {_gone(f)}")


@_sentence
def xyz_wing(f: Finding) -> str:
    pivot, q1, q2 = (cell_name(c) for c in f.cells)
    return (f"pivot {pivot} {digits_text(f.digits)} with pincers {q1} and {q2}: one of the three holds "
            f"the shared digit, so not {_gone(f)}")


@_sentence
def w_wing(f: Finding) -> str:
    a, b, s1, s2 = (cell_name(c) for c in f.cells)
    return (f"{a} and {b} both hold {digits_text(f.digits)}, and {f.kind + 1} in {_unit(f)} must be at "
            f"{s1} or {s2}: one of the pair holds the other digit, so not {_gone(f)}")


@_sentence
def colouring(f: Finding) -> str:
    chain = " ".join(cell_name(c // 2) + "ab"[c % 2] for c in f.cells)
    how = ("two cells of one colour see each other, so that colour is false" if f.kind == 1 else
           "a cell that sees both colours cannot hold it")
    return f"colouring {_bare(f)} along {chain}: {how}: {_gone(f)}"


@_sentence
def unique_rectangle(f: Finding) -> str:
    roof = cell_name(f.cells[0])
    return (f"{_cells(f.cells[1:])} and {roof} would form a deadly pattern of {digits_text(f.digits)} "
            f"in two boxes (two answers), so {roof} is neither: {_gone(f)}")


@_sentence
def chain(f: Finding) -> str:
    links = " - ".join(cand_name(x) for x in f.cells)
    if f.place:
        return f"nice loop {links}: if {cand_name(f.cells[0])} were false it would be true: place it"
    return f"chain {links}: one of its ends is true, so not {_gone(f)}"


@_sentence
def als_xz(f: Finding) -> str:
    split = f.cells.index(-1)
    x, z = divmod(f.kind, 9)
    return (f"almost locked sets {_cells(f.cells[:split])} and {_cells(f.cells[split + 1:])} share the "
            f"restricted digit {x + 1}, so one holds {z + 1}: not {_gone(f)}")


@_sentence
def forcing(f: Finding) -> str:
    source = (f"every candidate of {cell_name(f.cells[0])}" if f.kind < 2 else
              f"every place of {_bare(f)} in {_unit(f)}")
    if f.kind % 2 == 0:
        return f"{source}, followed with singles: {_gone(f)} leads to a contradiction"
    what = f"places {cand_name(f.place[0])}" if f.place else f"rules out {_gone(f)}"
    return f"{source}, followed with singles, {what}"


@_sentence
def trial(f: Finding) -> str:
    return f"trying each candidate of {cell_name(f.cells[0])}: with {_gone(f)} the board has no solution"


_unknown = sorted({e.sentence for e in TABLE} - SENTENCES.keys())
_unused = sorted(SENTENCES.keys() - {e.sentence for e in TABLE})
if _unknown or _unused:
    raise ImportError(f"table.py names sentences not here: {_unknown}; sentences no table line names: "
                      f"{_unused}")
SAY: tuple[Sentence, ...] = tuple(SENTENCES[e.sentence] for e in TABLE)        # by technique id


def why(found: Finding) -> str:
    """One plain sentence for a step found by the compiled finder."""
    return SAY[found.technique](found)


def compiled_step(pos: Position, tid: int, *, words: bool = True) -> Step | None:
    """The step the compiled finder of technique `tid` finds in `pos`, worded (with `words` false,
    without its units' names and sentence: for a solve only scored); None when it finds none.
    (Killer Sudoku's position is Sudoku's: its state asks the same.)"""
    found = pos.find(tid)
    if found is None:
        return None
    entry = TABLE[tid]
    if not words:
        return Step(entry.name, entry.cost, found.place, found.eliminate, (), "")
    return Step(entry.name, entry.cost, found.place, found.eliminate, tuple(unit_name(u) for u in found.units),
                SAY[tid](found))


class SudokuState:
    """A position for the shared ladder loop: wraps the compiled Position (placed digits and marks)."""

    __slots__ = ("pos",)

    def __init__(self, pos: Position):
        self.pos = pos

    @classmethod
    def start(cls, givens: str) -> SudokuState:
        return cls(Position.from_givens(givens))

    def apply(self, step: Step) -> None:
        self.pos.apply(step.place, step.eliminate)

    def is_solved(self) -> bool:
        return self.pos.is_solved()

    def is_contradiction(self) -> bool:
        return self.pos.is_contradiction()

    def values(self) -> str:
        return self.pos.values()

    def find(self, tid: int) -> Step | None:
        return compiled_step(self.pos, tid)


def _finder(tid: int):
    def find(state: SudokuState) -> Step | None:      # or any state whose find(tid) asks the compiled finder
        return state.find(tid)
    return find


LADDER = Ladder(replace(e, find=_finder(tid)) for tid, e in enumerate(TABLE))
TOP_OF_TIER = LADDER.top_of_tier          # the last rung of each tier


@lru_cache(maxsize=64)
def order_ids(cap: str | int | None = None) -> tuple[int, ...]:
    """The compiled ids of the techniques allowed under `cap` (see Ladder.capped), in ladder order."""
    return tuple(t.order for t in LADDER.capped(cap))


def technique_names() -> tuple[str, ...]:
    return LADDER.names


__all__ = ["BANDS", "IDS", "LADDER", "NAME_OF", "SAY", "SENTENCES", "TABLE", "TOP_OF_TIER", "UNIQUENESS",
           "Finding", "SudokuState", "cand_name", "cell_name", "compiled_step", "digits_text", "order_ids",
           "technique_names", "why"]
