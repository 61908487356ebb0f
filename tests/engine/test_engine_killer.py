"""Killer Sudoku: the compiled counter against the plain reference, the cage arithmetic against brute
force, every technique's soundness against the counter on many positions, the fingerprint under the
symmetries, the model's checks, and the published booklets.

Soundness positions: published boards (one solution) advanced by the ladder a random number of steps,
and looser boards made from them by merging two neighbouring cages into one (their sums added), which
often have several solutions. The counter lists every solution (up to 60); a step may never rule out a
candidate some solution uses, nor place a digit not every solution has.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from engine.errors import InvalidBoard, InvalidRules
from engine.games.killer import GAME, board_of, count_solutions
from engine.games.killer._count import (apart_bits, cage_support, combos, group_news, group_support_c, losses,
                                       run_rounds_c)
from engine.games.sudoku.geometry import PEER_BITS
from engine.games.killer.reference import (cage_support_plain, group_support, reference_round_groups, reference_rounds,
                                          reference_solutions)
from engine.games.killer.grade import (CEILINGS, OPENING_BIT_COST, ROUND_COST, RULE_OF_45, RULE_OF_45_COST, SCANNING, SCORING,
                                      SLACK_COST, Measures, Score, band_for, cage_slack, grade, measure, opening_bits,
                                      round_groups, rounds, run_rounds, score)
from engine.games.killer.techniques import (COMBINATION_BIT_COST, GROUP_LIMIT, LADDER, REGIONS, SEVERAL_REGIONS,
                                           SINGLE_REGIONS, TABLE, KillerState, cage_layout, finder)
from engine.ladder import run
from engine.ladder.table import Ladder

# One xdist worker builds the pool of positions once and runs every test that reads it.
pytestmark = [pytest.mark.xdist_group("killer-pool")]

# Every 40th board of the calibration booklets: 100 boards, every volume and book range.
DATA = Path(__file__).resolve().parents[1] / "data" / "killer_booklets_sample.jsonl"

FIRST = json.loads(DATA.read_text().splitlines()[0])      # the first board of the first book


@lru_cache(maxsize=1)
def published() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text().splitlines()]


def board(data: dict, with_solution: bool = False):
    return GAME.board_from_json({k: v for k, v in data.items() if with_solution or k != "solution"})


def merged(rng: random.Random, data: dict) -> dict | None:
    """The board with two neighbouring cages made one (sums added), when the solution keeps its digits
    distinct in it: a looser board, often with several solutions."""
    cages = [dict(c) for c in data["cages"]]
    owner = {tuple(cell): i for i, c in enumerate(cages) for cell in c["cells"]}
    for _ in range(20):
        i = rng.randrange(len(cages))
        r, c = rng.choice(cages[i]["cells"])
        near = [owner[(rr, cc)] for rr, cc in ((r + 1, c), (r, c + 1), (r - 1, c), (r, c - 1))
                if (rr, cc) in owner and owner[(rr, cc)] != i]
        if not near:
            continue
        j = rng.choice(near)
        cells = cages[i]["cells"] + cages[j]["cells"]
        digits = [data["solution"][a * 9 + b] for a, b in cells]
        if len(cells) <= 9 and len(set(digits)) == len(digits):
            rest = [c for k, c in enumerate(cages) if k not in (i, j)]
            return {**data, "cages": rest + [{"sum": cages[i]["sum"] + cages[j]["sum"], "cells": cells}]}
    return None


# --------------------------------------------------------------------------------------------------
# the counter

def test_the_compiled_counter_agrees_with_the_reference() -> None:
    rng = random.Random(7)
    checked = 0
    for data in published()[:40]:
        for loose in (False, True):
            source = merged(rng, data) if loose else data
            if source is None:
                continue
            b = board(source)
            solution = data["solution"]
            # some cells given from the solution, some others narrowed to random digits (with or without
            # the true one): positions with none, one or several solutions
            masks = [0x1FF] * 81
            for cell in rng.sample(range(81), rng.randrange(30, 55)):
                masks[cell] = 1 << (int(solution[cell]) - 1)
            for cell in rng.sample(range(81), 6):
                masks[cell] = rng.randrange(1, 512)
            fast = count_solutions(b, 5, masks=masks).solutions
            slow = reference_solutions(b.cage_of, b.sums, masks, 5)
            assert len(fast) == len(slow)
            if len(slow) < 5:
                assert sorted(fast) == sorted(slow)
            # Leaving one solution out (the generator's question: another solution, or the proof of none).
            if slow:
                left_out = slow[0]
                others = count_solutions(b, 4, masks=masks, other_than=left_out)
                assert others.complete and left_out not in others.solutions
                assert len(others.solutions) == min(4, len(slow) - 1)
                if len(slow) < 5:
                    assert sorted(others.solutions) == sorted(slow[1:])
            checked += 1
    assert checked >= 40


def test_the_counter_proves_a_published_board_unique() -> None:
    b = board(FIRST)
    found = count_solutions(b, 2)
    assert found.solutions == (FIRST["solution"],) and found.complete


@pytest.mark.slow
def test_cage_support_is_brute_force() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        k = rng.randrange(1, 6)
        masks = tuple(rng.randrange(1, 512) | (rng.randrange(1, 512) if rng.random() < 0.5 else 0) for _ in range(k))
        total = rng.randrange(k * (k + 1) // 2, k * (19 - k) // 2 + 1)
        need = 1 << rng.randrange(9) if rng.random() < 0.3 else 0
        support = [0] * k
        sets = set()
        for digits in itertools.product(range(1, 10), repeat=k):
            if (len(set(digits)) == k and sum(digits) == total and all(masks[i] >> (d - 1) & 1 for i, d in enumerate(digits))
                    and all(need >> (d - 1) & 1 == 0 or d in digits for d in range(1, 10))):
                for i, d in enumerate(digits):
                    support[i] |= 1 << (d - 1)
                sets.add(sum(1 << (d - 1) for d in digits))
        got_support, got_sets = cage_support(total, masks, need)
        assert list(got_support) == support and set(got_sets) == sets, (total, masks, need)
        assert set(got_sets) <= set(combos(k, total))


def test_cage_support_is_the_plain_subset_search() -> None:
    # the compiled support (a matching per digit set, Regin's filtering) against the plain reading, the
    # cells filled one by one over the subsets of each set, at every size up to 9 cells
    rng = random.Random(6)
    for _ in range(4000):
        k = rng.randrange(1, 10)
        masks = tuple(rng.randrange(0 if rng.random() < 0.02 else 1, 512)
                      | (rng.randrange(1, 512) if rng.random() < 0.5 else 0) for _ in range(k))
        total = rng.randrange(k * (k + 1) // 2 - 1, k * (19 - k) // 2 + 2)
        need = 1 << rng.randrange(9) if rng.random() < 0.3 else 0
        assert cage_support(total, masks, need) == cage_support_plain(total, masks, need), (total, masks, need)


def test_signed_group_support_is_brute_force() -> None:
    rng = random.Random(4)
    for _ in range(1500):
        k = rng.randrange(1, 5)
        masks = tuple(rng.randrange(1, 512) for _ in range(k))
        signs = tuple(rng.choice((1, -1)) for _ in range(k))
        distinct = tuple((i, j) for i in range(k) for j in range(i + 1, k) if rng.random() < 0.5)
        total = rng.randrange(-12, 25)
        support = [0] * k
        for digits in itertools.product(range(1, 10), repeat=k):
            if (all(masks[i] >> (d - 1) & 1 for i, d in enumerate(digits)) and all(digits[i] != digits[j] for i, j in distinct)
                    and sum(s * d for s, d in zip(signs, digits)) == total):
                for i, d in enumerate(digits):
                    support[i] |= 1 << (d - 1)
        assert list(group_support(total, masks, signs, distinct)) == support
        assert list(group_support_c(total, masks, signs, distinct)) == support


def test_compiled_group_support_is_the_python_search() -> None:
    rng = random.Random(5)
    for _ in range(20000):
        k = rng.randrange(1, 8)
        masks = tuple(rng.randrange(0 if rng.random() < 0.05 else 1, 512) for _ in range(k))
        signs = tuple(rng.choice((1, 1, 1, -1)) for _ in range(k))
        distinct = tuple((i, j) for i in range(k) for j in range(i + 1, k) if rng.random() < 0.6)
        total = rng.randrange(-20, 45)
        assert group_support_c(total, masks, signs, distinct) == group_support(total, masks, signs, distinct)


# --------------------------------------------------------------------------------------------------
# the techniques

@lru_cache(maxsize=1)
def positions() -> list[tuple[KillerState, list[int]]]:
    """(position, truth: per cell the digits some solution uses) for many positions."""
    rng = random.Random(20261201)
    ladder = Ladder([t for t in LADDER if t.name != "trial-and-error"])
    out = []
    for data in published():
        for source in (data, merged(rng, data), merged(rng, data)):
            if source is None:
                continue
            b = board(source)
            for _ in range(3):
                state = KillerState.start(b)
                run(state, ladder, max_steps=rng.randrange(0, 140))
                if state.is_solved() or state.is_contradiction():
                    continue
                found = count_solutions(b, 60, masks=state.masks())
                if not found.complete or not found.solutions or len(found.solutions) >= 60:
                    continue
                truth = [0] * 81
                for solution in found.solutions:
                    for cell, ch in enumerate(solution):
                        truth[cell] |= 1 << (int(ch) - 1)
                out.append((state, truth, len(found.solutions)))
    return out


def test_the_positions_are_varied() -> None:
    cases = positions()
    assert len(cases) >= 150
    assert sum(n > 1 for _, _, n in cases) >= 30 and sum(n == 1 for _, _, n in cases) >= 100


MIN_FIRED = {"cage-combinations": 50, "cage-pointing": 50, "cage-claiming": 20, "rule-of-45": 20,
             "rule-of-45-several": 5, "full-house": 20, "naked-single": 50, "hidden-single": 50,
             "locked-candidates": 20, "trial-and-error": 20}


@pytest.mark.parametrize("name", [e.name for e in TABLE])
def test_technique_is_sound(name: str) -> None:
    find = finder(name)
    fired = 0
    for state, truth, _ in positions():
        marks = state.pos.marks()
        step = find(state)
        if step is None:
            continue
        fired += 1
        assert step.place or step.eliminate, f"{name} makes no progress"
        for x in step.eliminate:
            cell, d = divmod(x, 9)
            assert marks[cell] >> d & 1, f"{name} rules out {d + 1} at r{cell // 9 + 1}c{cell % 9 + 1}, not a candidate"
            assert not truth[cell] >> d & 1, f"{name} rules out {d + 1} at r{cell // 9 + 1}c{cell % 9 + 1}: {step.why}"
        for x in step.place:
            cell, d = divmod(x, 9)
            assert truth[cell] == 1 << d, f"{name} places {d + 1} at r{cell // 9 + 1}c{cell % 9 + 1}: {step.why}"
        assert step.why
    assert fired >= MIN_FIRED.get(name, 0), (name, fired)


def plain_group_news(group, masks: list[int], values: str):
    """group_news's plain twin: the rule of 45 on one sum group, in Python."""
    total, at = group.total, []
    for i, c in enumerate(group.cells):
        if values[c] != ".":
            total -= group.signs[i] * int(values[c])
        else:
            at.append(i)
    k = len(at)
    if k == 0 or k > 9:
        return None
    open_bits = sum(1 << i for i in at)
    like_a_cage = all(group.signs[i] > 0 for i in at) and all(
        group.apart[i] & open_bits == open_bits & ~(1 << i) for i in at)
    if not like_a_cage and k > GROUP_LIMIT:
        return None
    old = tuple(masks[group.cells[i]] for i in at)
    if like_a_cage:
        new, live = cage_support(total, old)
        if not live:
            return None
    else:
        distinct = tuple((i, j) for i in range(k) for j in range(i + 1, k) if group.apart[at[i]] >> at[j] & 1)
        new = group_support_c(total, old, [group.signs[i] for i in at], distinct)
        if not any(new):
            return None
    return None if new == old else (tuple(at), total, old, new)


def test_the_compiled_group_step_is_the_plain_one() -> None:
    learnt = 0
    for state, _, _ in positions():
        masks, values = state.masks(), state.values()
        layout = cage_layout(state.cages)
        for number, region in enumerate(REGIONS):
            for place, group in enumerate(layout.groups(region)):
                news = group_news(layout.compiled, number, place, masks, values, GROUP_LIMIT)
                assert news == plain_group_news(group, masks, values)
                learnt += news is not None
    assert learnt >= 200


def test_the_compiled_layout_holds_the_python_layouts_groups() -> None:
    # every region's sum groups, compiled at once, against CageLayout.groups region by region, on the
    # booklets' boards and the merged-cage ones (larger cages)
    rng = random.Random(8)
    hows = ("innies", "outies", "innies and outies")
    for data in published()[:40]:
        for source in (data, merged(rng, data)):
            if source is None:
                continue
            layout = cage_layout(board(source).cages)
            for number, region in enumerate(REGIONS):
                assert layout.compiled.groups(number) == tuple(
                    (hows.index(g.how), g.cells, g.signs, g.total) for g in layout.groups(region))


def test_the_compiled_round_groups_are_the_plain_ones() -> None:
    for state, _, _ in positions()[::4]:
        assert round_groups(state) == reference_round_groups(state)


def plain_rule_of_45(state: KillerState, regions) -> tuple | None:
    """The rule-of-45 screen's plain twin: the first group of `regions`, in order, that teaches something."""
    masks, values = state.masks(), state.values()
    layout = cage_layout(state.cages)
    for region in regions:
        for place, group in enumerate(layout.groups(region)):
            news = plain_group_news(group, masks, values)
            if news is not None:
                return REGIONS.index(region), place, news
    return None


def test_the_compiled_rule_of_45_screen_is_the_plain_one_along_a_solve() -> None:
    # the screen remembers the groups that taught nothing: along whole solves (the screen asked at every
    # step, the same state), it finds what the plain loop over every group finds
    asked = found = 0
    for data in published()[:12]:
        state = KillerState.start(board(data))
        layout = cage_layout(state.cages).compiled
        for _ in range(200):
            for first, end, regions in ((0, 27, SINGLE_REGIONS), (27, len(REGIONS), SEVERAL_REGIONS)):
                got = state.screen().rule_of_45(layout, first, end, GROUP_LIMIT)
                assert got == plain_rule_of_45(state, regions)
                asked += 1
                found += got is not None
            step = next((s for t in LADDER if t.name != "trial-and-error" and (s := t.find(state))), None)
            if step is None or state.is_solved():
                break
            state.apply(step)
    assert asked >= 500 and found >= 100


def test_the_screen_keeps_in_step_with_the_position_along_solves() -> None:
    # the compiled screen is loaded once and then follows each step (Cages.apply, and the cage mates a
    # placement clears, Cages.mates_gone): against a plain copy that makes the step on the position
    # alone and clears the mates from its marks in Python; each cage's combination against cage_support
    rng = random.Random(9)
    ladder = [t for t in LADDER if t.name != "trial-and-error"]
    steps = placed = 0
    for data in published()[:12]:
        for source in (data, merged(rng, data)):
            if source is None:
                continue
            b = board(source)
            state = KillerState.start(b)
            for _ in range(250):
                screen, masks, values = state.screen(), state.pos.masks(), state.pos.values()
                assert (screen.masks(), screen.values()) == (masks, values)
                for number, cage in enumerate(state.cages):
                    old = tuple(masks[c] for c in cage.cells)
                    open_cells = sum(values[c] == "." for c in cage.cells)
                    rest = cage.total - sum(int(values[c]) for c in cage.cells if values[c] != ".")
                    assert screen.combination(number) == (old, *cage_support(cage.total, old), open_cells, rest)
                step = next((s for t in ladder if (s := t.find(state))), None)
                if step is None or state.is_solved() or state.is_contradiction():
                    break
                plain = state.copy()
                plain.pos.apply(step.place, step.eliminate)
                marks = plain.pos.marks()
                gone = [mate * 9 + x % 9 for x in step.place for mate in plain.cages[plain.cage_of[x // 9]].cells
                        if mate != x // 9 and marks[mate] >> (x % 9) & 1]
                plain.pos.apply((), gone)
                state.apply(step)
                assert (state.pos.masks(), state.pos.values()) == (plain.pos.masks(), plain.pos.values())
                steps += 1
                placed += bool(gone)
    assert steps >= 1000 and placed >= 30


def test_the_compiled_sides_are_the_plain_ones() -> None:
    for data in published()[:20]:
        cages = board(data).cages
        layout = cage_layout(cages)
        for region in SINGLE_REGIONS + SEVERAL_REGIONS:
            inside = sum(cage.total for cage in cages if set(cage.cells) <= region.cells)
            crossing = tuple((cage, tuple(c for c in cage.cells if c in region.cells),
                              tuple(c for c in cage.cells if c not in region.cells))
                             for cage in cages if set(cage.cells) & region.cells and not set(cage.cells) <= region.cells)
            assert layout.sides(region) == (inside, crossing)


def test_the_compiled_apart_bits_are_peers_and_cage_mates() -> None:
    rng = random.Random(7)
    for data in published()[:10]:
        cages = board(data).cages
        cage_of = [next(n for n, cage in enumerate(cages) if c in cage.cells) for c in range(81)]
        for n in (1, 2, 9, 40, 64, 65, 81):
            cells = rng.sample(range(81), n)
            plain = tuple(sum(1 << j for j, b in enumerate(cells) if b != a and (PEER_BITS[a] >> b & 1 or cage_of[a] == cage_of[b]))
                          for a in cells)
            assert apart_bits(cells, bytes(cage_of)) == plain


def test_the_compiled_losses_are_the_candidates_gone() -> None:
    rng = random.Random(3)
    for _ in range(500):
        cells = rng.sample(range(81), rng.randrange(1, 10))
        old = [rng.randrange(512) for _ in cells]
        new = [m & rng.randrange(512) for m in old]
        assert losses(cells, old, new) == tuple(c * 9 + d for c, a, b in zip(cells, old, new) for d in range(9)
                                                if (a & ~b) >> d & 1)


def test_the_ladder_finishes_published_boards_by_logic() -> None:
    for data in published()[:30]:
        graded = grade(board(data))
        assert graded.solved and graded.values == data["solution"]
        assert "trial-and-error" not in {step.technique for step in graded.steps}
        assert graded.band in GAME.bands


def test_a_cage_combinations_step_costs_more_with_more_ways_to_sift() -> None:
    graded = grade(board(FIRST))
    base = TABLE[[e.name for e in TABLE].index("cage-combinations")].cost
    steps = [step for step in graded.steps if step.technique == "cage-combinations"]
    assert steps and all(step.cost >= base for step in steps)
    # replayed: each step's cost is the table's plus COMBINATION_BIT_COST per halving of the ways the open
    # cells can make the cage's remaining sum (one way: the table's cost alone)
    state = KillerState.start(board(FIRST))
    by_name = {cage.name: cage for cage in state.cages}
    seen = set()
    for step in graded.steps:
        if step.technique == "cage-combinations":
            cage = by_name[step.units[0]]
            open_cells = [c for c in cage.cells if state.values()[c] == "."]
            rest = cage.total - sum(int(state.values()[c]) for c in cage.cells if state.values()[c] != ".")
            ways = len(combos(len(open_cells), rest))
            assert step.cost == base + round(COMBINATION_BIT_COST * math.log2(ways))
            seen.add(ways)
        state.apply(step)
    assert 1 in seen and max(seen) >= 4


def test_the_score_is_the_scoring_path_its_rule_of_45_steps_the_sums_slack_the_opening_and_the_rounds() -> None:
    b = board(FIRST)
    graded = grade(b)
    # the scoring solve: the ladder without the scanning moves, from the start
    scoring = run(KillerState.start(b), SCORING)
    assert scoring.solved and not {step.technique for step in scoring.steps} & set(SCANNING)
    shown = {step.technique for step in graded.steps}
    assert "hidden-single" in shown and shown & set(SCANNING)
    steps_45 = sum(step.technique in RULE_OF_45 for step in scoring.steps)
    assert steps_45 >= 1
    # the opening pass: cage combinations alone, from the start, until they teach nothing more
    state = KillerState.start(b)
    run(state, Ladder([t for t in LADDER if t.name == "cage-combinations"]))
    left = sum(math.log2(m.bit_count()) for m in state.masks())
    assert opening_bits(KillerState.start(b)) == pytest.approx(left)
    assert 0 < left < 81 * math.log2(9)
    depth = rounds(KillerState.start(b))
    assert 1 <= depth < 81
    slack = cage_slack(b)
    assert 0 < slack < len(b.cages)
    assert measure(b) == Measures(scoring.total_cost, steps_45, slack, opening_bits(KillerState.start(b)), depth,
                                  scoring.hardest_tier, True)
    assert graded.score == scoring.total_cost + RULE_OF_45_COST * steps_45 + round(SLACK_COST * slack) \
        + round(OPENING_BIT_COST * opening_bits(KillerState.start(b))) + ROUND_COST * depth
    assert score(b) == Score(graded.score, graded.band)
    assert graded.band == band_for(scoring.hardest_tier, graded.score)


def test_a_cages_slack_is_how_near_its_sum_sits_to_the_middle_of_its_sizes_sums() -> None:
    # two cells make 3 to 17: 3 and 17 leave one combination (no slack), 10 sits in the middle (full slack);
    # (the other cells alone, each making 5: the middle of 1 to 9, full slack); nine cells make only 45
    def slack_of(total: int, cells: list[tuple[int, int]]) -> float:
        rest = [(r, c) for r in range(9) for c in range(9) if (r, c) not in cells]
        return cage_slack(board_of([(total, cells)] + [(5, [cell]) for cell in rest])) - len(rest)

    pair = [(0, 0), (0, 1)]
    assert slack_of(3, pair) == pytest.approx(0) and slack_of(17, pair) == pytest.approx(0)
    assert slack_of(10, pair) == pytest.approx(1) and slack_of(6, pair) == pytest.approx(3 / 7)
    assert cage_slack(board_of([(45, [(0, c) for c in range(9)])] + [(5, [(r, c)]) for r in range(1, 9) for c in range(9)])) \
        == pytest.approx(0 + 72 * 1.0)


def test_a_solve_without_words_takes_the_same_steps() -> None:
    # the scoring solve is not worded: the same steps and costs, without units' names and sentences
    for data in published()[:8]:
        b = board(data)
        for ladder in (SCORING, LADDER):
            worded = run(KillerState.start(b), ladder)
            bare = run(KillerState.start(b, words=False), ladder)
            assert [(s.technique, s.cost, s.place, s.eliminate) for s in bare.steps] == \
                [(s.technique, s.cost, s.place, s.eliminate) for s in worded.steps]
            assert not any(s.why or s.units for s in bare.steps) and all(s.why for s in worded.steps)


def test_the_band_is_the_score_against_the_ceilings_raised_by_a_hard_technique() -> None:
    low, mid, high = CEILINGS.values()
    assert [band_for(2, s) for s in (low, low + 1, mid, mid + 1, high, high + 1)] == \
        ["easy", "medium", "medium", "hard", "hard", "expert"]
    assert band_for(3, low) == "hard" and band_for(4, low) == "expert" and band_for(5, high + 1) == "beyond"


def test_a_capped_solve_that_stops_has_no_band_but_keeps_the_boards_score() -> None:
    b = board(FIRST)
    capped = grade(b, cap="cage-combinations")
    assert not capped.solved and capped.band is None and capped.score == score(b).score


def test_the_rounds_never_rule_out_a_solution_digit() -> None:
    # the rounds' deductions (singles, cage combinations, the rule of 45's small groups) on the soundness
    # positions, published and merged-cage boards alike: every digit some solution uses stays
    deepest = 0
    for state, truth, _ in positions():
        before = state.masks()
        depth, masks = run_rounds(state)
        assert state.masks() == before
        deepest = max(deepest, depth)
        for cell in range(81):
            assert masks[cell] & truth[cell] == truth[cell], (cell, masks[cell], truth[cell])
    assert deepest >= 3


# The default lane takes every 24th soundness position and 4 booklet starts; the slow one every 6th
# and 10 (the plain twin's Python group search is slow).
@pytest.mark.parametrize("every, published_starts", [(24, 4), pytest.param(6, 10, marks=pytest.mark.slow)],
                         ids=["sample", "more"])
def test_the_compiled_rounds_are_the_plain_ones(every: int, published_starts: int) -> None:
    # the compiled rounds against the plain Python twin, on the soundness positions and on the
    # booklets' starting positions
    starts = [KillerState.start(board(data)) for data in published()[:published_starts]]
    cases = [state for state, _, _ in positions()[::every]] + starts
    assert len(cases) >= 120 // every + published_starts
    for state in cases:
        depth, masks = run_rounds(state)
        assert (depth, list(masks)) == reference_rounds(state, round_groups(state))
    assert any(run_rounds(state)[0] >= 3 for state in starts)


def test_the_compiled_rounds_refuse_a_malformed_position_or_group_in_one_line() -> None:
    state = KillerState.start(board(published()[0]))
    cage_of, sums, masks = state.cage_of, state.board.sums, state.masks()
    for bad, said in ((dict(masks=masks[:80]), "81 cells"),
                      (dict(groups=[((), 5, ())]), "1 to 9 cells"),
                      (dict(groups=[(tuple(range(10)), 45, ())]), "1 to 9 cells"),
                      (dict(groups=[((0, 1), 3, ())] * 513), "at most 512"),
                      (dict(sums=sums[:-1]), "malformed cages")):
        args = dict(cage_of=cage_of, sums=sums, masks=masks, groups=[]) | bad
        with pytest.raises(ValueError, match=said):
            run_rounds_c(args["cage_of"], args["sums"], args["masks"], args["groups"])


def test_the_steps_word_rows_columns_boxes_and_cages_from_one() -> None:
    graded = grade(board(FIRST))
    text = " ".join(step.why for step in graded.steps)
    assert "r1c1" in text and "cage 11 at r1c1" in text and "r0" not in text and "row 0" not in text


# --------------------------------------------------------------------------------------------------
# the board

def transformed(data: dict, rng: random.Random) -> dict:
    """The board under a random Sudoku symmetry that keeps the sums: transpose, bands, rows in bands,
    stacks, columns in stacks."""
    def order() -> list[int]:
        bands = rng.sample(range(3), 3)
        return [b * 3 + r for b in bands for r in rng.sample(range(3), 3)]
    rows, cols, transpose = order(), order(), rng.random() < 0.5

    def where(r: int, c: int) -> tuple[int, int]:
        r, c = rows.index(r), cols.index(c)
        return (c, r) if transpose else (r, c)
    solution = [""] * 81
    for cell, ch in enumerate(data["solution"]):
        r, c = where(*divmod(cell, 9))
        solution[r * 9 + c] = ch
    cages = [{"sum": cage["sum"], "cells": [list(where(r, c)) for r, c in cage["cells"]]} for cage in data["cages"]]
    return {"game": "killer", "cages": cages, "solution": "".join(solution)}


def test_the_fingerprint_is_the_same_under_the_symmetries() -> None:
    rng = random.Random(11)
    base = board(FIRST)
    for _ in range(20):
        moved = transformed(FIRST, rng)
        cells_kept = all(len({(r // 3, c // 3) for r, c in cage["cells"]}) >= 1 for cage in moved["cages"])
        assert cells_kept
        # a moved cage may fall apart (rows of a band swapped): then it is not a board, which is fine
        try:
            other = GAME.board_from_json(moved)
        except InvalidBoard:
            continue
        assert other.fingerprint == base.fingerprint
    assert base.fingerprint != board(published()[-1]).fingerprint or len(published()) == 1


def test_the_fingerprint_tells_other_cages_apart() -> None:
    rng = random.Random(2)
    loose = merged(rng, FIRST)
    assert loose is not None
    first = board(FIRST, with_solution=True)
    other = GAME.board_from_json(loose)
    assert first.id != other.id


@pytest.mark.parametrize("change, message", [
    (lambda d: d["cages"][0]["cells"].append([0, 1]), "already in"),
    (lambda d: d["cages"].pop(), "is in no cage"),
    (lambda d: d["cages"][2].update(sum=2), "cannot add up to 2"),
    (lambda d: (d["cages"][3].update(cells=[[0, 5], [0, 7]]), d["cages"][4].update(cells=[[0, 6], [0, 8]])),
     "not connected"),
    (lambda d: d.update(solution="1" * 81), "appears twice"),
    (lambda d: d.update(givens="2" + "." * 80), "disagrees"),
])
def test_the_model_names_what_is_wrong(change, message: str) -> None:
    data = json.loads(json.dumps(FIRST))
    change(data)
    with pytest.raises(InvalidBoard, match=message):
        GAME.board_from_json(data)


def test_fields_the_model_does_not_know_are_kept_and_any_id_is_read() -> None:
    model = GAME.validate(FIRST)
    assert model.id == "KD_Killer_IM1-B1-P1" and model.model_extra["volume"] == 1
    assert GAME.validate({**FIRST, "id": 17}).id == 17


def test_the_game_contract() -> None:
    status, out = GAME.solve(board(FIRST))
    assert status == "unique" and out["solution"] == FIRST["solution"]
    assert out["difficulty"]["band"] in GAME.bands and out["steps"] and out["id"] == board(FIRST, True).id
    assert GAME.validate(out).id == out["id"]
    assert GAME.board_from_json(out) == board(FIRST, True)
    text = GAME.text(out)
    assert text.splitlines()[0].startswith(f"# {out['id']} killer") and "solution" in text and "|40 |" in text
    picture = GAME.picture(out, solution=True)
    assert picture.n == 9 and len(picture.symbols) == 81
    # the boxes are the areas, uncoloured as in Sudoku; the cages are drawn apart, each with its sum
    assert picture.areas == tuple(tuple((r // 3) * 3 + c // 3 for c in range(9)) for r in range(9))
    assert not picture.coloured
    cages = tuple((cage["sum"], tuple(sorted(r * 9 + c for r, c in cage["cells"]))) for cage in FIRST["cages"])
    outlined = tuple((int(outline.label), tuple(sorted(outline.cells))) for outline in picture.outlines)
    assert sorted(outlined) == sorted(cages) and len(outlined) == 31
    spec = GAME.play(out)
    assert spec.areas == picture.areas and not spec.coloured and spec.outlines == picture.outlines
    checks = {(check["check"], tuple(sorted(check["cells"])), check.get("total")) for check in spec.checks}
    assert all(("distinct", cells, None) in checks for _, cells in cages), "a repeated digit in a cage is a conflict"
    assert all(("sum", cells, total) in checks for total, cells in cages), "a full cage must make its sum"
    assert spec.mode == "digits" and len(spec.hints) == len(out["steps"]) and "".join(spec.answer) == FIRST["solution"]
    assert all(hint["units"] for hint in spec.hints if hint["why"].startswith("cage "))
    rules = GAME.rules(size=9)
    assert str(rules) == "killer 9" and GAME.parse_rules("killer 9") == rules
    with pytest.raises(InvalidRules):
        GAME.rules(size=8)
    with pytest.raises(InvalidRules):
        GAME.rules(size=9, stars=2)


def test_generate_is_seeded_unique_and_graded() -> None:
    first, stats = GAME.generate(GAME.rules(size=9), 3, timeout=60)
    again, _ = GAME.generate(GAME.rules(size=9), 3, timeout=60)
    assert first == again and first.seed == 3
    assert count_solutions(first, 2).solutions == (first.solution,)
    assert all(1 <= len(cage.cells) <= 6 and len({first.solution[c] for c in cage.cells}) == len(cage.cells)
               for cage in first.cages)
    assert first.extra["difficulty"]["band"] in GAME.bands and stats.grids >= 1
    hard, _ = GAME.generate(GAME.rules(size=9, band="hard"), 5, band="hard", timeout=60)
    assert hard.extra["difficulty"]["band"] == "hard"


def test_generated_cages_are_sized_as_published_ones() -> None:
    """Mostly two and three cells, hardly a cage of one (a given in all but name); the booklets have
    59% pairs, 23% triples and none of one cell."""
    sizes: Counter[int] = Counter()
    for seed in range(12):
        made, _ = GAME.generate(GAME.rules(size=9), seed, timeout=60)
        sizes.update(len(cage.cells) for cage in made.cages)
    total = sum(sizes.values())
    assert sizes[1] / total <= 0.04
    assert 0.45 <= sizes[2] / total <= 0.7 and 0.15 <= sizes[3] / total <= 0.4
    assert max(sizes) <= 6
    with pytest.raises(InvalidRules):
        GAME.rules(size=9, band="beyond")
