"""The Sudoku technique ladder: HoDoKu-style steps with base costs, as one table.

Glossary. A *candidate* (pencil mark) is a digit still possible in an empty cell; in a Step it is the
number cell * 9 + (digit - 1), cells r * 9 + c with rows and columns from 0. Two cells *see* each
other when they share a row, a column or a box. A *strong link* joins two candidates of which at
least one is true (a cell with two candidates; a digit with two places in a unit, a *conjugate pair*);
a *weak link* joins two that cannot both be true (one cell; one digit in cells that see each other).
Placing a digit also removes it from the marks of the cell's peers: that is part of the placement.

The ladder (position = order tried; tier = the band it belongs to; cost = HoDoKu's base score):

    tier 1 easy     full-house 4, naked-single 4, hidden-single 14
    tier 2 medium   locked-candidates 50 (pointing and claiming), naked-pair 60, hidden-pair 70,
                    naked-triple 80, hidden-triple 100, naked-quad 120, hidden-quad 150
    tier 3 hard     unique-rectangle-1 100, skyscraper 130, x-wing 140, 2-string-kite 150,
                    swordfish 150, w-wing 150, simple-colouring 150 (trap and wrap), xy-wing 160,
                    jellyfish 160, xyz-wing 180
    tier 4 expert   x-chain 260, xy-chain 260, aic 280 (alternating inference chains and the nice
                    loops that place a digit), als-xz 300, forcing-chain 500 (cell and unit forcing
                    chains followed with singles: contradiction and verity)
    tier 5 beyond   trial-and-error 10,000 (the counter shows a digit leaves no solution)

Every technique is sound on any position: it rules out only marks no solution uses and places only
digits every solution has, with one declared exception: unique-rectangle-1 assumes the position has at
most one solution (true on every board we grade, which the counter proves; the generator re-checks
uniqueness with the counter whenever a unique rectangle was used to dig).

Finding is compiled (_logic.pyx); each Technique's finder wraps one compiled finder and turns its
result into a Step with a sentence saying why. Not implemented from HoDoKu's list: locked pair and
triple, empty rectangle, remote pair, finned and sashimi fish, multi-colours, uniqueness types 2-6,
ALS-XY-Wing, forcing nets. With trial and error at the top the ladder still solves every unique board;
a board that would need one of those is graded by the next rung that finds its step.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.games.sudoku._logic import IDS, Position
from engine.games.sudoku.board import unit_name
from engine.ladder import Ladder, Step, Technique

BANDS = ("easy", "medium", "hard", "expert", "beyond")

# name, tier, cost; in ladder order
TABLE: tuple[tuple[str, int, int], ...] = (
    ("full-house", 1, 4),
    ("naked-single", 1, 4),
    ("hidden-single", 1, 14),
    ("locked-candidates", 2, 50),
    ("naked-pair", 2, 60),
    ("hidden-pair", 2, 70),
    ("naked-triple", 2, 80),
    ("hidden-triple", 2, 100),
    ("naked-quad", 2, 120),
    ("hidden-quad", 2, 150),
    ("unique-rectangle-1", 3, 100),
    ("skyscraper", 3, 130),
    ("x-wing", 3, 140),
    ("2-string-kite", 3, 150),
    ("swordfish", 3, 150),
    ("w-wing", 3, 150),
    ("simple-colouring", 3, 150),
    ("xy-wing", 3, 160),
    ("jellyfish", 3, 160),
    ("xyz-wing", 3, 180),
    ("x-chain", 4, 260),
    ("xy-chain", 4, 260),
    ("aic", 4, 280),
    ("als-xz", 4, 300),
    ("forcing-chain", 4, 500),
    ("trial-and-error", 5, 10_000),
)
UNIQUENESS = frozenset({"unique-rectangle-1"})          # sound only where the answer is unique
NAME_OF = {tid: name for name, tid in IDS.items()}
TOP_OF_TIER = {tier: [name for name, t, _ in TABLE if t == tier][-1] for tier in range(1, 6)}


def cell_name(cell: int) -> str:
    return f"({cell // 9},{cell % 9})"


def cand_name(x: int) -> str:
    return f"{x % 9 + 1}@{cell_name(x // 9)}"


def digits_text(mask: int) -> str:
    return "{" + ",".join(str(d + 1) for d in range(9) if mask >> d & 1) + "}"


def _cells(cells: Sequence[int]) -> str:
    return " ".join(cell_name(c) for c in cells)


def why(name: str, place: Sequence[int], eliminate: Sequence[int], units: Sequence[int],
        cells: Sequence[int], digits: int, kind: int) -> str:
    """One plain sentence for a step found by the compiled finder."""
    u = [unit_name(x) for x in units]
    d = digits_text(digits)
    gone = ", ".join(cand_name(x) for x in eliminate)
    if name == "full-house":
        return f"{u[0]} has one empty cell left: {cand_name(place[0])}"
    if name == "naked-single":
        return f"{cell_name(place[0] // 9)} has only {place[0] % 9 + 1} left"
    if name == "hidden-single":
        return f"{place[0] % 9 + 1} has one place left in {u[0]}: {cell_name(place[0] // 9)}"
    if name == "locked-candidates":
        how = "pointing" if kind == 0 else "claiming"
        return f"{how}: in {u[0]}, {d[1:-1]} lies only in {u[1]}, so not elsewhere in {u[1]}: {gone}"
    if name.startswith("naked-"):
        return f"{_cells(cells)} hold only {d} in {u[0]}, so those digits leave the rest: {gone}"
    if name.startswith("hidden-"):
        return f"{d} fit only {_cells(cells)} in {u[0]}, so those cells hold nothing else: {gone}"
    if name in ("x-wing", "swordfish", "jellyfish"):
        half = len(u) // 2
        return (f"{d[1:-1]} in {', '.join(u[:half])} lies only in {', '.join(u[half:])}, "
                f"so not elsewhere in those lines: {gone}")
    if name == "skyscraper":
        return (f"{d[1:-1]} has two places in {u[0]} and in {u[1]}, sharing a line through "
                f"{cell_name(cells[1])} and {cell_name(cells[2])}: one of {cell_name(cells[0])}, "
                f"{cell_name(cells[3])} is {d[1:-1]}, so not {gone}")
    if name == "2-string-kite":
        return (f"{d[1:-1]} has two places in {u[0]} and in {u[1]}, joined in {u[2]}: one of "
                f"{cell_name(cells[0])}, {cell_name(cells[3])} is {d[1:-1]}, so not {gone}")
    if name == "xy-wing":
        return (f"pivot {cell_name(cells[0])} with pincers {cell_name(cells[1])} and "
                f"{cell_name(cells[2])} ({d}): one pincer holds the shared digit, so not {gone}")
    if name == "xyz-wing":
        return (f"pivot {cell_name(cells[0])} {d} with pincers {cell_name(cells[1])} and "
                f"{cell_name(cells[2])}: one of the three holds the shared digit, so not {gone}")
    if name == "w-wing":
        return (f"{cell_name(cells[0])} and {cell_name(cells[1])} both hold {d}, and {kind + 1} in "
                f"{u[0]} must be at {cell_name(cells[2])} or {cell_name(cells[3])}: one of the pair "
                f"holds the other digit, so not {gone}")
    if name == "simple-colouring":
        chain = " ".join(cell_name(c // 2) + "ab"[c % 2] for c in cells)
        how = ("two cells of one colour see each other, so that colour is false" if kind == 1 else
               "a cell that sees both colours cannot hold it")
        return f"colouring {d[1:-1]} along {chain}: {how}: {gone}"
    if name == "unique-rectangle-1":
        return (f"{_cells(cells[1:])} and {cell_name(cells[0])} would form a deadly pattern of {d} "
                f"in two boxes (two answers), so {cell_name(cells[0])} is neither: {gone}")
    if name in ("x-chain", "xy-chain", "aic"):
        chain = " - ".join(cand_name(x) for x in cells)
        if place:
            return f"nice loop {chain}: if {cand_name(cells[0])} were false it would be true: place it"
        return f"chain {chain}: one of its ends is true, so not {gone}"
    if name == "als-xz":
        split = list(cells).index(-1)
        x, z = divmod(kind, 9)
        return (f"almost locked sets {_cells(cells[:split])} and {_cells(cells[split + 1:])} share the "
                f"restricted digit {x + 1}, so one holds {z + 1}: not {gone}")
    if name == "forcing-chain":
        source = (f"every candidate of {cell_name(cells[0])}" if kind < 2 else
                  f"every place of {d[1:-1]} in {u[0]}")
        if kind % 2 == 0:
            return f"{source}, followed with singles: {gone} leads to a contradiction"
        what = f"places {cand_name(place[0])}" if place else f"rules out {gone}"
        return f"{source}, followed with singles, {what}"
    if name == "trial-and-error":
        return f"trying each candidate of {cell_name(cells[0])}: with {gone} the board has no solution"
    return gone


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
        found = self.pos.find(tid)
        if found is None:
            return None
        _, place, eliminate, units, cells, digits, kind = found
        name = NAME_OF[tid]
        technique = LADDER[name]
        return Step(name, technique.cost, place, eliminate, tuple(unit_name(u) for u in units),
                    why(name, place, eliminate, units, cells, digits, kind))


def _finder(tid: int):
    def find(state: SudokuState) -> Step | None:
        return state.find(tid)
    return find


LADDER = Ladder(Technique(name, order, tier, cost, _finder(IDS[name]))
                for order, (name, tier, cost) in enumerate(TABLE))


@lru_cache(maxsize=64)
def order_ids(cap: str | int | None = None) -> tuple[int, ...]:
    """The compiled ids of the techniques allowed under `cap` (see Ladder.capped), in ladder order."""
    return tuple(IDS[t.name] for t in LADDER.capped(cap))


def technique_names() -> tuple[str, ...]:
    return LADDER.names


__all__ = ["BANDS", "LADDER", "NAME_OF", "TABLE", "TOP_OF_TIER", "UNIQUENESS", "SudokuState",
           "cand_name", "cell_name", "order_ids", "technique_names", "why"]
