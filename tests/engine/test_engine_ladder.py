"""The ladder: the generic loop on a toy game, then the Star Battle ladder and grader on generated
boards (never a contradiction; a solve gives the unique answer) and on published boards."""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.errors import DeadlineExceeded
from engine.games.starbattle import Board, Rules, generate
from engine.games.starbattle.draw import draw_regions, plant
from engine.games.starbattle.grade import BANDS, Grade, band_for, grade, steps_json
from engine.games.starbattle.pzpr import from_url
from engine.games.starbattle.techniques import StarState, ladder_for, technique_names
from engine.ladder import Ladder, NoProgress, SolveResult, Step, Technique, run
from engine.ladder.table import in_order

DATA = Path(__file__).resolve().parent.parent / "data" / "starbattle_published.json"


# ---------------------------------------------------------------------------------------------
# the generic loop, on a toy game: cross numbers off a set


@dataclass
class Toy:
    left: set[int]
    log: list[str] = field(default_factory=list)
    poisoned: bool = False

    def apply(self, step: Step) -> None:
        self.left -= set(step.eliminate)
        if 99 in step.place:
            self.poisoned = True

    def is_solved(self) -> bool:
        return not self.left

    def is_contradiction(self) -> bool:
        return self.poisoned


def _odd(state: Toy):
    state.log.append("odd")
    odd = sorted(x for x in state.left if x % 2)
    return Step("odd", 1, (), (odd[0],), (), "odd numbers go") if odd else None


def _big(state: Toy):
    state.log.append("big")
    big = sorted(x for x in state.left if x >= 10)
    return Step("big", 5, (), tuple(big[:1]), (), "big numbers go") if big else None


def _any(state: Toy):
    state.log.append("any")
    return Step("any", 20, (), (min(state.left),), (), "anything goes") if state.left else None


TOY = Ladder([Technique("big", 20, 2, 5, _big), Technique("odd", 10, 1, 1, _odd),
              Technique("any", 30, 3, 20, _any)])


def test_ladder_table_is_ordered_and_capped():
    assert TOY.names == ("odd", "big", "any")
    assert [t.name for t in TOY.capped(None)] == ["odd", "big", "any"]
    assert [t.name for t in TOY.capped(2)] == ["odd", "big"]
    assert [t.name for t in TOY.capped("tier 1")] == ["odd"]
    assert [t.name for t in TOY.capped("big")] == ["odd", "big"]
    with pytest.raises(ValueError):
        TOY.capped("nonsense")
    with pytest.raises(ValueError):
        Ladder([Technique("a", 1, 1, 1, _odd), Technique("a", 2, 1, 1, _odd)])


def test_a_table_written_as_a_list_takes_its_places_and_tops_its_tiers():
    # another table's rows, and one of its own
    rows = in_order([TOY["any"], TOY["odd"], Technique("big", 0, 1, 5, _big)])
    assert [(t.name, t.order) for t in rows] == [("any", 0), ("odd", 1), ("big", 2)]
    assert rows[0].find is TOY["any"].find and TOY["any"].order == 30              # the row taken is not changed
    assert Ladder(rows).top_of_tier == {3: "any", 1: "big"}
    assert TOY.top_of_tier == {1: "odd", 2: "big", 3: "any"}


def test_loop_uses_the_cheapest_rung_and_restarts_from_the_bottom():
    state = Toy({1, 2, 3, 12})
    result = run(state, TOY)
    assert result.solved and not result.contradiction and not result.stalled
    assert [s.technique for s in result.steps] == ["odd", "odd", "big", "any"]
    # after every step the loop asks the cheapest technique first again
    assert state.log == ["odd", "odd", "odd", "big", "odd", "big", "any"]
    assert result.total_cost == 1 + 1 + 5 + 20
    assert (result.hardest, result.hardest_tier) == ("any", 3)


def test_loop_stalls_under_a_cap():
    result = run(Toy({1, 2, 12}), TOY, cap=2)
    assert result.stalled and not result.solved
    assert result.hardest == "big"
    result = run(Toy({2}), TOY, cap="odd")
    assert result.stalled and result.steps == () and result.hardest is None and result.hardest_tier == 0


def test_loop_honours_its_deadline():
    """A deadline already passed stops the loop before it asks any technique; none leaves it alone."""
    state = Toy({1, 2, 3, 12})
    with pytest.raises(DeadlineExceeded):
        run(state, TOY, deadline=time.monotonic() - 1)
    assert state.log == [] and state.left == {1, 2, 3, 12}
    assert run(state, TOY, deadline=0.0).solved


def test_grade_honours_its_deadline():
    """The 15x15 3-star board takes over half a second to grade: a deadline 0.1 s away ends it early."""
    item = next(b for b in _published() if b["name"] == "noqx-example-15x15-3")
    board = Board(Rules(15, 3), tuple(label for row in item["regions"] for label in row))
    started, cpu = time.monotonic(), time.process_time()
    with pytest.raises(DeadlineExceeded):
        grade(board, deadline=started + 0.1)
    assert time.process_time() - cpu < 2.0      # CPU time: a pathological overrun, not a loaded machine


def test_loop_reports_contradictions_and_rejects_empty_steps():
    poison = Technique("poison", 5, 1, 1, lambda s: Step("poison", 1, (99,), (), (), "bad"))
    result = run(Toy({1}), Ladder([poison]))
    assert result.contradiction and not result.solved and len(result.steps) == 1
    idle = Technique("idle", 1, 1, 1, lambda s: Step("idle", 1))
    with pytest.raises(NoProgress):
        run(Toy({1}), Ladder([idle]))
    assert run(Toy({1, 3, 5}), TOY, max_steps=2).steps[-1].technique == "odd"


def test_step_is_a_value():
    a = Step("x", 3, (1,), (2, 3), ("row 0",), "why")
    assert a == Step("x", 3, (1,), (2, 3), ("row 0",), "why") and hash(a) == hash(Step("x", 3, (1,), (2, 3),
                                                                                         ("row 0",), "why"))
    with pytest.raises(AttributeError):
        a.cost = 4  # type: ignore[misc]
    assert isinstance(run(Toy(set()), TOY), SolveResult)


# ---------------------------------------------------------------------------------------------
# the Star Battle ladder on generated boards

GENERATED = [(n, 1, False) for n in range(5, 11)] + [(n, 1, True) for n in range(5, 10)] + \
    [(8, 2, False), (9, 2, False), (10, 2, False)]


@pytest.mark.parametrize("kind", GENERATED, ids=lambda k: f"{k[0]}x{k[0]}-k{k[1]}{'-diag' if k[2] else ''}")
def test_ladder_on_unique_boards_never_contradicts_and_finds_the_answer(kind):
    n, k, diagonals = kind
    rules = Rules(n, k, diagonals)
    solved = 0
    for seed in range(12):
        board, _ = generate(rules, 7000 + seed)
        state = StarState.start(rules, board.regions)
        result = run(state, ladder_for(k))
        assert not result.contradiction, (seed, board.regions)
        if result.solved:
            solved += 1
            assert state.star_cells() == board.solution
        for step in result.steps:
            assert step.why and step.cost == ladder_for(k)[step.technique].cost
    assert solved >= 10       # the ladder finishes nearly every board (rare deep diagonal boards stall)


@pytest.mark.parametrize("kind", [(6, 1, False), (7, 1, True), pytest.param((8, 2, False), marks=pytest.mark.slow),
                                  pytest.param((10, 2, False), marks=pytest.mark.slow)])
def test_ladder_on_ambiguous_boards_neither_solves_nor_contradicts(kind):
    """With several solutions no sound ladder can finish, and none may find a contradiction."""
    n, k, diagonals = kind
    rules = Rules(n, k, diagonals)
    rng = random.Random(11)
    from engine.games.starbattle.count import count_solutions
    checked = 0
    while checked < (8 if k == 1 else 4):
        regions = draw_regions(rules, plant(rules, rng), rng, spread=0.6)
        if regions is None or count_solutions(rules, regions, 2).count < 2:
            continue
        checked += 1
        result = run(StarState.start(rules, regions), ladder_for(k))
        assert not result.solved and not result.contradiction


def test_grade_is_deterministic_and_replays_to_the_answer():
    board, _ = generate(Rules(9), 42)
    first, second = grade(board), grade(board)
    assert first == second and first.solved and first.band in BANDS
    assert first.stars == board.solution
    # replay the JSON steps on a fresh position: same stars, every placement on a candidate
    state = StarState.start(board.rules, board.regions)
    n = board.n
    for item in steps_json(first.steps, n):
        assert set(item) == {"technique", "cost", "place", "eliminate", "units", "why"}
        assert all(isinstance(p, list) and len(p) == 2 for p in item["place"] + item["eliminate"])
        step = Step(item["technique"], item["cost"], tuple(r * n + c for r, c in item["place"]),
                    tuple(r * n + c for r, c in item["eliminate"]), tuple(item["units"]), item["why"])
        state.apply(step)
        assert not state.broken
    assert state.is_solved() and state.star_cells() == board.solution
    assert sum(s["cost"] for s in steps_json(first.steps, n)) == first.score
    assert first.difficulty_json() == {"band": first.band, "score": first.score, "hardest": first.hardest}
    assert len(first.tiers) == len(first.steps) and max(first.tiers) == first.hardest_tier


def test_threads_grading_one_board_get_the_grade_one_thread_gets():
    """Boards of the same regions share one cached geometry, and its compiled finders hold the position
    they work on and release the GIL: each thread needs its own (a shared one crashed the process)."""
    boards = [generate(Rules(10, 2), seed)[0] for seed in (3, 4)]
    expected = [grade(board) for board in boards]
    results: list[list[Grade]] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            results.append([grade(board) for _ in range(4) for board in boards])
        except BaseException as exc:    # reported below, with the other threads' results
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert results == [expected * 4] * 4


def test_grade_with_a_cap():
    # find a Queens board that needs tier 2, then cap it at tier 1
    for seed in range(200):
        board, _ = generate(Rules(8), seed)
        full = grade(board)
        if full.hardest_tier >= 2:
            break
    capped = grade(board, cap=1)
    assert not capped.solved and capped.band is None and not capped.contradiction
    assert all(ladder_for(1)[s.technique].tier == 1 for s in capped.steps)
    assert grade(board, cap=full.hardest).solved
    assert grade(board, cap=f"tier {full.hardest_tier}").band == full.band


def test_bands():
    assert band_for(2, 10, 399, 2) == "easy"
    assert band_for(2, 10, 400, 2) == "medium"
    assert band_for(2, 10, 1800, 4) == "hard"
    assert band_for(2, 10, 8000, 3) == "expert"
    assert band_for(1, 9, 22, 2) == "easy"
    assert band_for(1, 9, 23, 2) == "medium"
    assert band_for(1, 9, 30, 3) == "hard"
    assert band_for(1, 9, 40, 4) == "expert"


def test_technique_table():
    assert ladder_for(1).names == technique_names()
    queens = {t.name: t for t in ladder_for(1)}
    assert {t.tier: t.cost for t in queens.values()} == {1: 1, 2: 3, 3: 6, 4: 12}
    scores = [t.cost for t in ladder_for(2)]
    assert scores[0] == 1 and max(scores) >= 1000


# ---------------------------------------------------------------------------------------------
# published boards


def _published():
    return json.loads(DATA.read_text())


def _board(entry) -> Board:
    board = Board.from_json({"game": "queens" if entry["rules"]["stars"] == 1 else "starbattle",
                             "rules": entry["rules"], "regions": entry["regions"]})
    assert from_url(entry["url"]).regions == board.regions
    return board


@pytest.mark.parametrize("entry", [e for e in _published() if e["rules"]["size"] <= 13],
                         ids=lambda e: e["name"])
def test_published_boards_are_solved(entry):
    board = _board(entry)
    n = board.n
    answer = tuple(sorted(r * n + c for r, c in entry["solution"]))
    result: Grade = grade(board)
    assert result.solved and not result.contradiction
    assert result.stars == answer
    assert result.band in BANDS
    if entry["solved_without_hypotheticals"]:
        capped = grade(board, cap=3)
        assert capped.solved and capped.stars == answer and capped.hardest_tier <= 3


def test_published_corpus_holds_hand_made_boards():
    entries = _published()
    assert len(entries) >= 8
    assert sum(e["solved_without_hypotheticals"] for e in entries) >= 4
    assert any(e.get("published_solution") for e in entries)


@pytest.mark.slow
@pytest.mark.parametrize("entry", [e for e in _published() if e["rules"]["size"] > 13], ids=lambda e: e["name"])
def test_large_published_boards_are_solved(entry):
    board = _board(entry)
    n = board.n
    result = grade(board)
    assert result.solved and result.stars == tuple(sorted(r * n + c for r, c in entry["solution"]))
