"""The Sudoku techniques, declared once: one ordered table of name, tier, cost, compiled finder and
sentence.

Everything else is derived from it: a technique's id is its position here; setup.py compiles the ids
and the dispatch to the finders from it (`include_text`, written to _table.pxi before cythonize);
techniques.py builds the ladder, the caps and the sentences from it. So adding a technique is one line
here, its finder in _logic.pyx and its sentence in techniques.py. The lines are engine.ladder
Techniques (the one record every game's table is written in); this module imports nothing else of
ours and nothing compiled, so that setup.py can read it before anything is built.

Order = the order tried (the ladder); tier = the band it belongs to (1 easy, 2 medium, 3 hard,
4 expert, 5 beyond); cost = HoDoKu's base score per step. Every technique is sound on any position:
it rules out only marks no solution uses and places only digits every solution has, except those
marked `needs_unique`, which assume the position has at most one solution (true on every board we
grade, which the counter proves; the generator re-checks uniqueness whenever one was used to dig).

Not implemented from HoDoKu's list: locked pair and triple, empty rectangle, remote pair, finned and
sashimi fish, multi-colours, uniqueness types 2-6, ALS-XY-Wing, forcing nets. With trial and error at
the top the ladder still solves every unique board; a board that would need one of those is graded by
the next rung that finds its step.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.ladder.table import Technique, in_order


def _entry(name: str, tier: int, cost: int, compiled: str, sentence: str, *, needs_unique: bool = False) -> Technique:
    """A line of the table: `compiled` is the finder's call in _logic.pyx (s is the position, o the
    step it fills), `sentence` the function of techniques.py that says why, in one sentence;
    `needs_unique`: sound only where the position has at most one solution. Its place on the ladder
    (`order`, its id) is its position in the table; techniques.py gives it its finder."""
    return Technique(name, 0, tier, cost, compiled=compiled, sentence=sentence, needs_unique=needs_unique)


class Finding(NamedTuple):
    """What a compiled finder found (Position.find returns one): a step, before it is worded.

    Candidates are cell * 9 + d (cells r * 9 + c, digits d from 0). What `cells` and `kind` hold is the
    technique's own; the comments on the table below say so where it is more than the pattern's cells.
    """

    technique: int              # the id: the technique's position in TABLE
    place: tuple[int, ...]      # candidates placed
    eliminate: tuple[int, ...]  # candidates ruled out
    units: tuple[int, ...]      # units reasoned about: rows 0-8, columns 9-17, boxes 18-26
    cells: tuple[int, ...]      # the pattern
    digits: int                 # the pattern's digits as a mask (bit d: digit d + 1)
    kind: int                   # a detail of the technique's

    @property
    def name(self) -> str:
        return TABLE[self.technique].name


TABLE: tuple[Technique, ...] = in_order((
    _entry("full-house", 1, 4, "f_full_house(s, o)", "full_house"),
    _entry("naked-single", 1, 4, "f_naked_single(s, o)", "naked_single"),
    _entry("hidden-single", 1, 14, "f_hidden_single(s, o)", "hidden_single"),
    # units: where the digit lies, then where it goes; kind 0 pointing (box, line), 1 claiming (line, box)
    _entry("locked-candidates", 2, 50, "f_locked(s, o)", "locked"),
    _entry("naked-pair", 2, 60, "f_naked_subset(s, o, 2)", "naked_subset"),
    _entry("hidden-pair", 2, 70, "f_hidden_subset(s, o, 2)", "hidden_subset"),
    _entry("naked-triple", 2, 80, "f_naked_subset(s, o, 3)", "naked_subset"),
    _entry("hidden-triple", 2, 100, "f_hidden_subset(s, o, 3)", "hidden_subset"),
    _entry("naked-quad", 2, 120, "f_naked_subset(s, o, 4)", "naked_subset"),
    _entry("hidden-quad", 2, 150, "f_hidden_subset(s, o, 4)", "hidden_subset"),
    # cells: the roof (the cell with more than the pair), then the other three
    _entry("unique-rectangle-1", 3, 100, "f_ur1(s, o)", "unique_rectangle", needs_unique=True),
    # cells: end, base, base, end (the bases share a line); kind 0 rows, 1 columns
    _entry("skyscraper", 3, 130, "f_skyscraper(s, o)", "skyscraper"),
    # fish: units are the base lines, then the cover lines; kind 0 rows are the base, 1 columns
    _entry("x-wing", 3, 140, "f_fish(s, o, 2)", "fish"),
    # cells: row end, row cell in the box, column cell in the box, column end; units row, column, box
    _entry("2-string-kite", 3, 150, "f_kite(s, o)", "kite"),
    _entry("swordfish", 3, 150, "f_fish(s, o, 3)", "fish"),
    # cells: the two bivalue cells, then the conjugate pair of the digit kind + 1 in units[0]
    _entry("w-wing", 3, 150, "f_wwing(s, o)", "w_wing"),
    # cells: cell * 2 + colour, in the order coloured; kind 1 colour wrap, 0 colour trap
    _entry("simple-colouring", 3, 150, "f_colouring(s, o)", "colouring"),
    # wings: cells are the pivot, then the two pincers
    _entry("xy-wing", 3, 160, "f_xywing(s, o)", "xy_wing"),
    _entry("jellyfish", 3, 160, "f_fish(s, o, 4)", "fish"),
    _entry("xyz-wing", 3, 180, "f_xyzwing(s, o)", "xyz_wing"),
    # chains: cells are the chain's candidates, start first; a nice loop places its start (kind 1)
    _entry("x-chain", 4, 260, "f_chain(s, o, MODE_X)", "chain"),
    _entry("xy-chain", 4, 260, "f_chain(s, o, MODE_XY)", "chain"),
    _entry("aic", 4, 280, "f_chain(s, o, MODE_AIC)", "chain"),
    # cells: the first set, -1, the second set; kind x * 9 + z (restricted common x, eliminated z)
    _entry("als-xz", 4, 300, "f_alsxz(s, o)", "als_xz"),
    # cells: the cell whose candidates are followed (kind 0, 1), or units[0] and the digit whose places
    # are (kind 2, 3); kind even: an option contradicts, odd: every option agrees (verity)
    _entry("forcing-chain", 4, 500, "f_forcing(s, o)", "forcing"),
    # cells: the cell tried; the counter shows each eliminated digit leaves no solution
    _entry("trial-and-error", 5, 10_000, "f_trial(s, o)", "trial"),
))


# ------------------------------------------------------------------------------------------------
# the compiled side, generated from the table

INCLUDE = "_table.pxi"          # beside _logic.pyx, which includes it
_CALL = re.compile(r"[A-Za-z_]\w*\(s, o(, \w+)*\)")


def id_constant(name: str) -> str:
    """The compile-time constant of a technique's id: "2-string-kite" -> T_2_STRING_KITE."""
    return "T_" + re.sub(r"\W", "_", name).upper()


def include_text(table: tuple[Technique, ...] = TABLE) -> str:
    """The Cython that _logic.pyx includes: the ids (table positions), NTECH, BUILT_FROM (what the
    build came from, for techniques.py to check) and sd_find, the switch from an id to its finder."""
    constants = [id_constant(e.name) for e in table]
    if len(set(constants)) != len(table):
        raise ValueError("technique names must be distinct (also with '-' read as '_')")
    for e in table:
        if not _CALL.fullmatch(e.compiled):
            raise ValueError(f"{e.name}: a finder is a call f(s, o, ...), not {e.compiled!r}")
    lines = ["# Generated by setup.py from table.py: do not edit; change the table and rebuild.", "",
             f"DEF NTECH = {len(table)}"]
    lines += [f"DEF {constant} = {tid}" for tid, constant in enumerate(constants)]
    lines += ["", "BUILT_FROM = ("]
    lines += [f"    ({e.name!r}, {e.compiled!r})," for e in table]
    lines += [")", "",
              "",
              "cdef bint sd_find(int tech, const sd_state *s, sd_step *o) noexcept nogil:",
              '    """Look for a step of technique `tech`: fill o and return 1, or return 0."""',
              "    o.tech = tech"]
    for tid, (constant, e) in enumerate(zip(constants, table)):
        lines += [f"    {'if' if tid == 0 else 'elif'} tech == {constant}:", f"        return {e.compiled}"]
    lines += ["    return 0", ""]
    return "\n".join(lines)


__all__ = ["INCLUDE", "TABLE", "Finding", "id_constant", "include_text"]
