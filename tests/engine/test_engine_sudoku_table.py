"""The Sudoku technique table is the one declaration of a technique: the compiled ids, the dispatch,
the ladder, the caps and the sentences all come from it, and a finder's result is a record with named
fields that the sentences read."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.games.sudoku import _logic, table, techniques
from engine.games.sudoku._logic import Position
from engine.games.sudoku.table import INCLUDE, TABLE, Finding, id_constant, include_text
from engine.ladder import Technique
from engine.games.sudoku.techniques import (IDS, LADDER, NAME_OF, SAY, SENTENCES, TOP_OF_TIER, UNIQUENESS,
                                            order_ids, why)

NAMES = [e.name for e in TABLE]
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_every_table_name_is_a_compiled_id_in_table_order():
    assert list(_logic.IDS) == NAMES and list(_logic.IDS.values()) == list(range(len(TABLE)))
    assert IDS == _logic.IDS and NAME_OF == dict(enumerate(NAMES))
    assert _logic.BUILT_FROM == tuple((e.name, e.compiled) for e in TABLE)
    assert LADDER.names == tuple(NAMES)
    assert all(type(e) is Technique and e.order == tid for tid, e in enumerate(TABLE))
    assert [(t.order, t.tier, t.cost) for t in LADDER] == [(i, e.tier, e.cost) for i, e in enumerate(TABLE)]
    assert order_ids(None) == tuple(range(len(TABLE)))
    with pytest.raises(ValueError):
        Position.from_givens(PUZZLE).find(len(TABLE))


def test_the_generated_include_matches_the_table():
    text = (Path(table.__file__).parent / INCLUDE).read_text()
    assert text == include_text()
    assert f"DEF NTECH = {len(TABLE)}" in text
    for tid, e in enumerate(TABLE):
        assert f"DEF {id_constant(e.name)} = {tid}\n" in text
        assert f"tech == {id_constant(e.name)}:\n        return {e.compiled}\n" in text


def test_the_include_refuses_a_table_it_cannot_compile():
    with pytest.raises(ValueError, match="distinct"):
        include_text(TABLE + (Technique("full_house", 0, 1, 4, compiled="f_full_house(s, o)", sentence="full_house"),))
    with pytest.raises(ValueError, match="finder"):
        include_text((Technique("bad", 0, 1, 4, compiled="f_full_house(s, o); free(o)", sentence="full_house"),))


def test_derived_facts_come_from_the_table():
    assert UNIQUENESS == {e.name for e in TABLE if e.needs_unique} == {"unique-rectangle-1"}
    assert TOP_OF_TIER == {tier: [e.name for e in TABLE if e.tier == tier][-1] for tier in range(1, 6)}
    assert {e.sentence for e in TABLE} == set(SENTENCES)
    assert SAY == tuple(SENTENCES[e.sentence] for e in TABLE)


def test_a_step_record_has_named_fields():
    assert Finding._fields == ("technique", "place", "eliminate", "units", "cells", "digits", "kind")
    pos = Position.from_givens(PUZZLE)
    found = pos.find(IDS["hidden-single"])
    assert isinstance(found, Finding)
    assert found.technique == IDS["hidden-single"] and found.name == "hidden-single"
    assert len(found.place) == 1 and found.eliminate == () and len(found.units) == 1
    assert found.cells == (found.place[0] // 9,) and found.digits == 1 << (found.place[0] % 9)
    assert pos.find(IDS["naked-single"]) is None
    step = techniques.SudokuState(pos).find(IDS["hidden-single"])
    assert step is not None
    assert (step.technique, step.place, step.why) == ("hidden-single", found.place, why(found))


@pytest.mark.parametrize("name, place, eliminate, units, cells, digits, kind, sentence", [
    ("full-house", (80,), (), (0,), (8,), 1 << 8, 0, "row 1 has one empty cell left: 9@r1c9"),
    ("naked-single", (364,), (), (), (40,), 1 << 4, 0, "r5c5 has only 5 left"),
    ("locked-candidates", (), (29, 38), (18, 0), (0, 1), 1 << 2, 0,
     "pointing: in box 1, 3 lies only in row 1, so not elsewhere in row 1: 3@r1c4, 3@r1c5"),
    ("x-wing", (), (22, 49), (1, 7, 11, 15), (11, 15, 65, 69), 1 << 4, 0,
     "5 in row 2, row 8 lies only in column 3, column 7, so not elsewhere in those lines: 5@r1c3, 5@r1c6"),
    ("xy-chain", (), (72, 324), (), (1, 0, 36), 0b11, 0,
     "chain 2@r1c1 - 1@r1c1 - 1@r1c5: one of its ends is true, so not 1@r1c9, 1@r5c1"),
    ("als-xz", (), (9,), (9, 4), (0, 36, -1, 37), 0b101, 18,
     "almost locked sets r1c1 r5c1 and r5c2 share the restricted digit 3, so one holds 1: not 1@r1c2"),
    ("forcing-chain", (728,), (), (), (0,), 0b11, 1,
     "every candidate of r1c1, followed with singles, places 9@r9c9"),
])
def test_sentences_read_the_record_by_name(name, place, eliminate, units, cells, digits, kind, sentence):
    found = Finding(IDS[name], place, eliminate, units, cells, digits, kind)
    assert why(found) == sentence
