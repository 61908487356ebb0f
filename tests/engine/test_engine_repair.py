"""Repair invariants, checked after every single move.

repair() is deterministic for a given rng, and a run capped at r rounds makes exactly the first r moves
of an uncapped run (the cap is checked before a move), so replaying with max_rounds = 0, 1, 2, ...
shows the board after each move without touching the engine.
"""

from __future__ import annotations

import random

import pytest

from engine.games.starbattle import Rules, count_solutions
from engine.games.starbattle.count import Search, monotonic, new_search
from engine.games.starbattle.draw import draw_regions, plant
from engine.games.starbattle.reference import reference_solutions
from engine.games.starbattle.repair import RepairOutcome, repair
from test_engine_starbattle_support import assert_regions_sound, assert_solution, oracle_solutions

ALL = 10**6
MAX_ROUNDS = 25


def drawing(rules: Rules, seed: int) -> tuple[tuple[int, ...], list[int]]:
    rng = random.Random(seed)
    answer = plant(rules, rng)
    while True:
        regions = draw_regions(rules, answer, rng, spread=rng.uniform(0.2, 0.9))
        if regions is not None:
            return answer, regions


def run(rules: Rules, regions: list[int], answer, seed: int, max_rounds: int, **kwargs):
    regions = list(regions)
    search = new_search(rules, regions)
    outcome = repair(rules.size, search, regions, answer, random.Random(seed), max_rounds=max_rounds,
                     **kwargs)
    return outcome, regions, search


def independent_solutions(rules: Rules, regions) -> list[tuple[int, ...]]:
    n, k = rules.size, rules.stars
    if (k == 1 and n <= 9) or (k == 2 and n <= 9):
        return reference_solutions(rules, regions, ALL)
    return oracle_solutions(rules, regions)


def small(rules: Rules) -> bool:
    """Boards whose full solution sets are cheap to list before and after each move."""
    return (rules.stars == 1 and rules.size <= 8) or (rules.stars == 2 and rules.size == 8)


CASES = ([(Rules(n), seed) for n in (6, 7, 8, 9) for seed in range(10)]
         + [(Rules(8, 1, True), seed) for seed in range(8)]
         + [(Rules(8, 2), seed) for seed in range(8)]
         + [(Rules(9, 2), seed) for seed in range(5)]
         + [(Rules(10, 2), seed) for seed in range(5)])


# roomy moves (a style's repair_roomy) come from any impostor: the same invariants must hold
ROOMY_CASES = [(Rules(n), seed) for n in (7, 9, 10) for seed in range(6)]


@pytest.mark.parametrize("rules,seed,roomy", [(r, s, False) for r, s in CASES] + [(r, s, True) for r, s in ROOMY_CASES],
                         ids=lambda v: str(v))
def test_invariants_after_every_move(rules: Rules, seed: int, roomy: bool) -> None:
    answer, start = drawing(rules, seed)
    assert_regions_sound(rules, start, answer)
    previous = list(start)
    previous_solutions = set(count_solutions(rules, start, ALL).solutions) if small(rules) else None
    moves = 0
    for cap in range(MAX_ROUNDS + 1):
        outcome, regions, search = run(rules, start, answer, seed, cap, roomy=roomy)
        assert isinstance(outcome, RepairOutcome)
        assert outcome.rounds <= cap
        # the answer survives and regions stay sound
        assert_solution(rules, regions, answer)
        assert count_solutions(rules, regions, 2, stars=answer).solutions == (answer,)
        assert_regions_sound(rules, regions, answer)
        assert all(regions[c] == start[c] for c in answer), "an answer star changed region"
        # the search object was kept in step with the edits
        assert set(search.solve(ALL, (), (), 0.0)[0]) == set(Search(rules.size, rules.stars, rules.diagonals,
                                                                    regions).solve(ALL, (), (), 0.0)[0])
        moved = {c for c in range(rules.size ** 2) if regions[c] != previous[c]}
        if moved:
            moves += 1
            assert not moved & set(answer)
            assert len({previous[c] for c in moved}) == 1, "one move empties cells of one region"
            assert len({regions[c] for c in moved}) == 1, "one move hands cells to one region"
            if previous_solutions is not None:
                now = set(count_solutions(rules, regions, ALL).solutions)
                killed = {s for s in previous_solutions if set(s) & moved}
                assert killed, "a move must kill at least one alternative"
                assert now >= previous_solutions - killed, "a solution without a star on a moved cell died"
                assert not now & killed, "an alternative with a star on a moved cell survived"
                assert all(set(s) & moved for s in now - previous_solutions)
                previous_solutions = now
        if outcome.unique:
            assert independent_solutions(rules, regions) == [answer]
            break
        assert outcome.reason in ("ambiguous", "stuck", "slow-count"), outcome
        if outcome.reason == "ambiguous":
            assert outcome.rounds == cap
            assert moves == cap
            assert count_solutions(rules, regions, 2).count == 2
        else:
            break
        previous = regions
    # one uncapped run ends where the replay ended
    outcome_all, regions_all, _ = run(rules, start, answer, seed, cap, roomy=roomy)
    assert (outcome_all, regions_all) == (outcome, regions)


def test_roomy_moves_leave_fewer_small_regions() -> None:
    """What roomy is for: of the same drawings made unique, fewer regions whittled to 2 cells or less."""
    rules, keep = Rules(9), 3
    small_regions = {False: 0, True: 0}
    unique = {False: 0, True: 0}
    for seed in range(30):
        answer, start = drawing(rules, seed)
        for roomy in (False, True):
            outcome, regions, _ = run(rules, start, answer, seed, 60, keep=keep, roomy=roomy)
            if outcome.unique:
                unique[roomy] += 1
                small_regions[roomy] += sum(1 for label in set(regions) if regions.count(label) <= 2)
    # measured: 1.2 such regions a unique board without, 0.2 with (and 14 unique boards of 30, not 26)
    assert unique[True] >= 10 and unique[False] >= 20
    assert small_regions[True] / unique[True] < 0.5 * small_regions[False] / unique[False], (small_regions, unique)


def test_repair_usually_succeeds() -> None:
    unique = 0
    for seed in range(40):
        rules = Rules(8 + seed % 2)
        answer, start = drawing(rules, seed)
        outcome, regions, _ = run(rules, start, answer, seed, 40)
        unique += outcome.unique
    assert unique >= 30


def test_repair_leaves_a_unique_board_alone() -> None:
    from engine.games.starbattle import generate
    for seed in range(10):
        board, _ = generate(Rules(8), seed)
        outcome, regions, _ = run(board.rules, list(board.regions), board.solution, seed, 10)
        assert outcome == RepairOutcome(True, 0, "")
        assert tuple(regions) == board.regions


@pytest.mark.parametrize("alternatives", [1, 2, 3, 16])
def test_repair_with_any_number_of_alternatives(alternatives: int) -> None:
    for seed in range(8):
        rules = Rules(7 + seed % 3)
        answer, start = drawing(rules, seed)
        outcome, regions, _ = run(rules, start, answer, seed, 40, alternatives=alternatives)
        assert_regions_sound(rules, regions, answer)
        assert_solution(rules, regions, answer)
        if outcome.unique:
            assert reference_solutions(rules, regions, 3) == [answer]


def test_repair_is_deterministic() -> None:
    for seed in range(6):
        rules = Rules(10, 2) if seed % 2 else Rules(9)
        answer, start = drawing(rules, seed)
        assert run(rules, start, answer, seed, 40)[:2] == run(rules, start, answer, seed, 40)[:2]


def _ambiguous_drawing(rules: Rules) -> tuple[tuple[int, ...], list[int]]:
    for seed in range(100):
        answer, regions = drawing(rules, seed)
        if count_solutions(rules, regions, 2).count == 2:
            return answer, regions
    raise AssertionError("no ambiguous drawing found")


def test_node_budget_gives_slow_count_and_no_edit() -> None:
    rules = Rules(10)
    answer, start = _ambiguous_drawing(rules)
    outcome, regions, _ = run(rules, start, answer, 1, 40, count_budget=1)
    assert outcome == RepairOutcome(False, 0, "slow-count")
    assert regions == start


def test_budget_cut_after_the_deadline_is_a_timeout() -> None:
    rules = Rules(10)
    answer, start = _ambiguous_drawing(rules)
    outcome, regions, _ = run(rules, start, answer, 1, 40, count_budget=1, deadline=monotonic() - 1.0)
    assert outcome == RepairOutcome(False, 0, "timeout")
    assert regions == start


def test_round_cap_zero_only_counts() -> None:
    rules = Rules(9)
    answer, start = _ambiguous_drawing(rules)
    outcome, regions, _ = run(rules, start, answer, 1, 0)
    assert outcome == RepairOutcome(False, 0, "ambiguous")
    assert regions == start
