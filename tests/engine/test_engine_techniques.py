"""Soundness of every Star Battle family technique, one by one, against brute force.

Thousands of partial positions on random boards (unique generated boards and regions drawn without
repair, which usually leave several solutions; Queens 5..9 with and without diagonals, 2-star 8..10):
some of a known solution's stars, some of its empty cells ruled out, sometimes advanced by the capped
ladder, plus wild positions that may have no solution. For each position the compiled search lists
every solution extending it; a technique may never rule out a cell some solution uses, nor place a
star some solution lacks, and may only touch candidates.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.games.starbattle import Rules
from engine.games.starbattle import state as S
from engine.games.starbattle import techniques as T
from engine.games.starbattle._techniques import FINDERS
from engine.games.starbattle.generator import GENERATION_CAP
from engine.games.starbattle.reference import reference_solutions
from engine.ladder import Ladder
from engine.games.starbattle.techniques import (TRIALS, StarState, cells_of, geometry, ladder_for,
                                                technique_names)
from test_engine_techniques_oracle import PlainFinders, can_place
from test_engine_techniques_support import (KINDS, build_cases, check_step, describe, random_board,
                                            random_position, truth)

# The tests that read the pool of positions run on two xdist workers, each building it once: the
# soundness sweeps on one (their marks add a group), the rest on the other.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("starbattle-pool")]
SOUNDNESS = pytest.mark.xdist_group("soundness")

DATA = Path(__file__).resolve().parents[1] / "data"
CHEAP = [name for name in technique_names() if name not in TRIALS]
PROBES = list(TRIALS)

# how often each technique must fire over the pool, so that a test cannot pass by never looking (each
# fires several hundred times or more; the pool is the same every run)
MIN_FIRED = 300
MIN_FIRED_TRIAL = 100


def test_the_vocabulary_is_large_and_priced_on_one_scale():
    names = technique_names()
    assert len(names) >= 40 and len(set(names)) == len(names)
    costs = [t.cost for t in ladder_for(2)]
    assert min(costs) == 1 and max(costs) == 3840
    assert all(t.cost <= 12 for t in ladder_for(1))       # Queens charges by tier


@lru_cache(maxsize=1)
def pool():
    return build_cases(seed=20240601, boards=2000, per_board=3)


def _sample(every):
    """Every `every`-th case of the pool, with its position and the plain finders of its board."""
    for i, case in enumerate(pool()):
        if i % every == 0:
            yield case, case.state, PlainFinders(case.state.geo)


def _technique(case, name):
    return ladder_for(case.rules.stars)[name]


@SOUNDNESS
@pytest.mark.parametrize("name", CHEAP)
def test_technique_is_sound(name):
    fired = Counter()
    for case in pool():
        step = _technique(case, name).find(case.state)
        if step is None:
            continue
        assert step.technique == name
        fired[case.rules.stars] += 1
        problem = check_step(step, case.state, case.truth)
        assert problem is None, f"{name} {problem}\n{describe(case, step)}"
    assert sum(fired.values()) >= MIN_FIRED, (name, fired)


@SOUNDNESS
@pytest.mark.parametrize("name", PROBES)
def test_hypothetical_is_sound(name):
    fired = 0
    for i, case in enumerate(pool()):
        if i % 4:
            continue
        step = _technique(case, name).find(case.state)
        if step is None:
            continue
        fired += 1
        problem = check_step(step, case.state, case.truth)
        assert problem is None, f"{name} {problem}\n{describe(case, step)}"
    assert fired >= MIN_FIRED_TRIAL, (name, fired)


def test_case_analysis_reads_a_published_board_that_stalls_every_other_rung():
    """Where the ladder without its last rung stalls on a published 14x14 3-star board (the
    position is stored: reaching it takes a minute), case analysis on one region moves, soundly."""
    data = json.loads((DATA / "starbattle_case_position.json").read_text())
    rules = Rules(**data["rules"])
    n = rules.size
    state = StarState.start(rules, [label for row in data["regions"] for label in row],
                            [(r - 1) * n + c - 1 for r, c in data["stars"]],
                            [(r - 1) * n + c - 1 for r, c in data["ruled_out"]])
    step = ladder_for(rules.stars)["trial-cases"].find(state)
    assert step is not None and step.units == ("region A",)
    assert check_step(step, state, truth(rules, state.geo.regions, state)) is None
    assert step.why.startswith("region A can hold the 3 stars it still needs in 12 ways; 9 of them lead")
    # the generator leaves it out (one search can carry thousands of cases on at this size)
    assert "trial-cases" not in {t.name for t in ladder_for(rules.stars).capped(GENERATION_CAP)}


def test_case_analysis_on_impossible_positions_is_well_formed():
    """Positions with no solution (the general test below leaves the trials out for time; this one
    costs about 2 s): case analysis returns None or a step on candidates only."""
    seen = 0
    for case in pool():
        if case.truth.solutions:
            continue
        seen += 1
        step = _technique(case, "trial-cases").find(case.state)
        if step is not None:
            assert step.progress
            assert all(case.state.cand >> c & 1 for c in step.place + step.eliminate)
    assert seen > 100


def test_positions_from_a_solution_keep_it():
    """Positions built from a known answer (some advanced by the ladder) still have a solution: had a
    technique been unsound while advancing them, some would have none."""
    cases = pool()
    assert len(cases) > 3000
    assert all(case.truth.solutions >= 1 for case in cases if case.from_answer)
    assert sum(not case.from_answer for case in cases) > 200


def test_techniques_never_fail_on_impossible_positions():
    """Positions with no solution at all: every finder returns a well-formed step or None."""
    seen = 0
    for case in pool():
        if case.truth.solutions:
            continue
        seen += 1
        for technique in ladder_for(case.rules.stars):
            if technique.tier == 4:
                continue
            step = technique.find(case.state)
            if step is not None:
                assert step.progress
                assert all(case.state.cand >> c & 1 for c in step.place + step.eliminate)
    assert seen > 100


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(KINDS), unique=st.booleans())
def test_every_technique_on_drawn_positions(seed, kind, unique):
    rng = random.Random(seed)
    rules, regions, answer = random_board(rng, kind, unique)
    state = random_position(rng, rules, regions, answer)
    t = truth(rules, regions, state)
    assume(t is not None)       # too many solutions to list: Hypothesis fails if that is most of them
    assert t.solutions >= 1
    for technique in ladder_for(rules.stars):
        step = technique.find(state)
        if step is not None:
            problem = check_step(step, state, t)
            assert problem is None, f"{technique.name} {problem}\n{state.picture()}\n{step}"


def test_oracle_agrees_with_the_reference_counter_on_small_boards():
    """The compiled search, used as the oracle, lists the same solutions as the plain reference."""
    rng = random.Random(7)
    for _ in range(40):
        kind = rng.choice([(5, 1, False), (6, 1, False), (5, 1, True), (6, 1, True)])
        rules, regions, answer = random_board(rng, kind, unique=False)
        state = random_position(rng, rules, regions, answer)
        everything = reference_solutions(rules, regions, 100_000)
        eliminated = set(state.eliminated_cells())
        stars = set(state.star_cells())
        extending = [s for s in everything if stars <= set(s) and not eliminated & set(s)]
        t = truth(rules, regions, state)
        assert t is not None and t.solutions == len(extending)
        some = 0
        for s in extending:
            for c in s:
                some |= 1 << c
        assert t.some == some


# ---------------------------------------------------------------------------------------------
# building blocks


def test_can_place_and_the_compiled_fits_match_brute_force():
    rng = random.Random(3)
    for n, diag in ((6, False), (8, False), (7, True)):
        geo = geometry(n, 1 if diag else 2, diag, tuple(r for r in range(n) for _ in range(n)))
        for _ in range(300):
            mask = 0
            for c in rng.sample(range(n * n), rng.randrange(0, 10)):
                mask |= 1 << c
            cells = cells_of(mask)
            for m in (1, 2, 3):
                brute = any(all(not geo.attack[a] >> b & 1 for a, b in combinations(pick, 2))
                            for pick in combinations(cells, m))
                if diag and m > 1:
                    continue          # the 4-colour shortcut is for king moves (diagonals only at k = 1)
                assert can_place(mask, m, geo.hit) == brute, (n, cells, m)
                assert geo.finders.fits(mask, m) == brute, (n, cells, m)


def test_geometry_attacks():
    geo = geometry(5, 1, True, tuple(range(5)) * 5)
    # (2,2) attacks its 8 neighbours and the 4 corners further along its diagonals
    assert bin(geo.attack[12]).count("1") == 12
    assert all(geo.attack[12] >> c & 1 for c in (0, 4, 20, 24))
    plain = geometry(5, 1, False, tuple(range(5)) * 5)
    assert cells_of(plain.attack[0]) == (1, 5, 6)


def test_state_start_and_apply():
    rules = Rules(5)
    regions = tuple(c // 5 for c in range(25))
    s = StarState.start(rules, regions, stars=[0], eliminated=[3])
    assert s.star_cells() == (0,) and s.eliminated_cells() == (3,)
    assert not s.is_contradiction() and not s.is_solved()
    assert StarState.start(rules, regions, stars=[0, 1]).is_contradiction()      # touching stars
    assert StarState.start(rules, regions, eliminated=range(5)).is_contradiction()  # an empty row


# ---------------------------------------------------------------------------------------------
# the compiled finders against their plain Python oracles (test_engine_techniques_oracle.py)


@pytest.fixture
def plain(monkeypatch):
    """Switch every board's compiled finders for the plain oracles while the test runs: call with True
    to switch, False to switch back."""
    compiled = S.Geometry.finders

    def use(on: bool) -> None:
        monkeypatch.setattr(S.Geometry, "finders", property(PlainFinders) if on else compiled)

    return use


def _compiled_verdicts(state, level, budget):
    prober = state.geo.finders
    nbytes = (state.geo.n ** 2 + 7) // 8
    cand, stars = state.cand.to_bytes(nbytes, "little"), state.stars.to_bytes(nbytes, "little")
    plan = T.TRIAL_PLAN if level == 2 else ()
    return {cell: prober.first_contradiction(cand, stars, [cell], level, budget, plan) == 0
            for cell in cells_of(state.cand)}


def test_the_quick_probe_matches_the_step_by_step_trials():
    """The quick compiled probe (the search's propagation, then the ladder's tier-2 finders by
    TRIAL_PLAN) reaches the verdict of the step-by-step course, compiled (`Prober.trial`) and plain
    (the oracle's, the ladder's own steps applied one at a time), cell by cell; and the two courses
    end alike: the same unit broken, the same tier-2 steps taken."""
    compared = contradictions = 0
    for i, case in enumerate(pool()):
        if i % 6:
            continue
        state = case.state
        oracle = PlainFinders(state.geo)
        for level in (1, 2):
            budget = T.PROBE_BUDGET if i % 12 else 2
            plan = T.TRIAL_PLAN if level == 2 else ()
            fast = _compiled_verdicts(state, level, budget)
            for cell, verdict in fast.items():
                course = state.geo.finders.trial(state.cand, state.stars, state.broken, cell, level, budget,
                                                 T.BASIC_PLAN, plan)
                assert course == oracle.trial(state.cand, state.stars, state.broken, cell, level, budget,
                                              T.BASIC_PLAN, plan), (level, cell, describe(case, None))
                assert verdict == course[0], (level, cell, describe(case, None))
                compared += 1
                if verdict:
                    contradictions += 1
                    assert not case.truth.some >> cell & 1      # and it is sound
    assert compared > 20_000 and contradictions > 2_000


def test_basic_rounds_and_unit_checks_match_the_oracle():
    """`Prober.basic_round` (the ladder's tier 1, one step at a time), `broken_unit`, `solved`,
    `consequences`, `apply` and `near` answer as the plain versions do, on the pool and on the
    positions a star on each candidate leads to."""
    ended = Counter()
    compared = 0
    for case, state, oracle in _sample(3):
        geo, needs = state.geo, state.needs()
        positions = [(state.cand, state.stars, state.broken)]
        for cell in cells_of(state.cand)[::4]:
            placed = 1 << cell
            after = geo.finders.consequences(state.cand, state.stars, placed)
            assert after == oracle.consequences(state.cand, state.stars, placed), describe(case, None)
            moved = geo.finders.apply(state.cand, state.stars, state.broken, placed | (cell % 3 == 0) << 3, after)
            assert moved == oracle.apply(state.cand, state.stars, state.broken, placed | (cell % 3 == 0) << 3, after)
            positions.append(moved)
        for u in range(geo.nunits):
            cells = state.cand & geo.unit_mask[u]
            assert geo.finders.near(cells, needs, state.cand) == oracle.near(cells, needs, state.cand)
        for cand, stars, broken in positions:
            assert geo.finders.broken_unit(cand, stars) == oracle.broken_unit(cand, stars), describe(case, None)
            assert geo.finders.solved(cand, stars) == oracle.solved(cand, stars), describe(case, None)
            fast = geo.finders.basic_round(cand, stars, broken, T.BASIC_PLAN)
            assert fast == oracle.basic_round(cand, stars, broken, T.BASIC_PLAN), describe(case, None)
            assert geo.finders.solved(*fast[1:3]) == oracle.solved(*fast[1:3])
            ended[fast[0]] += 1
            compared += 1
    assert compared > 15_000 and min(ended.values()) > 2_000, (compared, ended)


def test_the_trial_plans_are_the_ladders_tiers_1_and_2():
    ladder = ladder_for(2)
    assert [t.name for t in ladder if t.tier == 1] == ["star-neighbours", "unit-full", "last-free-cells"]
    assert T.BASIC_PLAN == tuple((FINDERS[name], (), ()) for name in ("star-neighbours", "unit-full", "last-free-cells"))
    tier2 = [t.name for t in ladder if t.tier == 2]
    assert tier2 == ["region-in-line", "line-in-region", "shared-neighbour", "crowding"]
    assert [code for code, _, _ in T.TRIAL_PLAN] == [FINDERS["counting"], FINDERS["counting"],
                                                      FINDERS["shared-neighbour"], FINDERS["crowding"]]
    assert T.TRIAL_PLAN[0][1:] == (((T.REG, T.ROW), (T.REG, T.COL)), (1,))


def test_hypothesis_steps_match_the_plain_python_probe(plain):
    """The trials' steps, worded from the compiled course, are those of the plain course (and, for
    the deep trial, of the Python probe with plain rounds of basic steps)."""
    for i, case in enumerate(pool()):
        if i % 25:
            continue
        for name in ("trial-basic", "trial-short") + (("trial-deep",) if i % 100 == 0 else ()):
            technique = ladder_for(case.rules.stars)[name]
            plain(False)
            fast = technique.find(case.state)
            plain(True)
            slow = technique.find(case.state)
            assert fast == slow, (name, describe(case, fast))


def test_compiled_findings_match_the_oracles():
    """`Prober.find` gives exactly the oracle's Finding (or None) for every finder and option set the
    ladder uses."""
    from engine.games.starbattle.techniques import _ENTRIES
    options = [(FINDERS[name], (), ()) for name in ("star-neighbours", "unit-full", "last-free-cells",
                                                     "shared-neighbour", "crowding")]
    options += [(FINDERS["counting"], e.options["pairs"], e.options["sizes"]) for e in _ENTRIES
                if e.find is T.find_counting]
    found = Counter()
    for i, case in enumerate(pool()):
        if i % 2:
            continue
        state = case.state
        oracle = PlainFinders(state.geo)
        for code, pairs, sizes in options:
            fast = state.geo.finders.find(code, state.cand, state.stars, pairs, sizes)
            slow = oracle.find(code, state.cand, state.stars, pairs, sizes)
            assert fast == slow, (code, pairs, sizes, describe(case, None))
            found[code, sizes] += fast is not None
    assert min(found.values()) > 100, found


# the compiled enumerations


def _windows(geo):
    """Areas a composite footprint enumerates: every unit, and two and three adjacent lines."""
    n, masks = geo.n, geo.unit_mask
    yield from masks
    for size in (2, 3):
        for first in range(n - size + 1):
            yield sum(masks[first + i] for i in range(size))
            yield sum(masks[n + first + i] for i in range(size))


def test_compiled_ways_and_agreement_match_the_oracles():
    compared = found = stopped = agreed = 0
    for i, case in enumerate(pool()):
        if i % 20:                  # every 20th position of the pool
            continue
        state, geo = case.state, case.state.geo
        oracle = PlainFinders(geo)
        needs = state.needs()
        for j, window in enumerate(_windows(geo)):
            area = window & state.cand
            m = sum(needs[u] for u in range(geo.nunits) if geo.unit_mask[u] & window == geo.unit_mask[u]
                    and u < 2 * geo.n) or needs[j % geo.nunits]
            for options in ({}, {"first_only": True}, {"telling": True},
                            {"limit": 3, "budget": 40, "telling": True}, {"budget": 7}, {"slack": 2}):
                fast = geo.finders.ways(area, m, needs, state.cand, **options)
                slow = oracle.ways(area, m, needs, state.cand, **options)
                assert fast == slow, (area, m, options, describe(case, None))
                compared += 1
                found += bool(fast)
                stopped += fast is None
            for options in ({}, {"limit": 3, "budget": 40}):
                fast = geo.finders.agreement(area, m, needs, state.cand, **options)
                slow = oracle.agreement(area, m, needs, state.cand, **options)
                assert fast == slow, (area, m, options, describe(case, None))
                agreed += fast is not None and bool(fast[1] or fast[2] or fast[3])
    assert compared > 5_000 and found > 1_250 and stopped > 250 and agreed > 250


def test_compiled_pressured_pair_matches_the_oracle():
    """Each pair alone (not only the first that gives), so that every pair's search is compared."""
    compared = crowders = 0
    rng = random.Random(7)
    for i, case in enumerate(pool()):
        if i % 3:
            continue
        state, geo = case.state, case.state.geo
        oracle = PlainFinders(geo)
        needs, cand = state.needs(), state.cand
        tight = [w for w in range(geo.nunits) if needs[w] > 0]
        for pair in rng.sample(T._pairs_near(geo), 6):
            units = rng.sample(tight, min(len(tight), 6))
            fast = geo.finders.pressured_pair(needs, cand, (pair,), units)
            slow = oracle.pressured_pair(needs, cand, (pair,), units)
            assert fast == slow, (pair, describe(case, None))
            compared += 1
            crowders += fast is not None
    assert compared > 3_000 and crowders > 100


def test_compiled_pressured_crowders_match_the_oracle():
    compared = crowders = 0
    for i, case in enumerate(pool()):
        if i % 10:
            continue
        state, geo = case.state, case.state.geo
        oracle = PlainFinders(geo)
        needs, cand = state.needs(), state.cand
        for window in _windows(geo):
            cells = window & cand
            m = max(1, cells.bit_count() // 4)
            fast = geo.finders.pressured_crowders(cells, m, needs, cand)
            assert fast == oracle.pressured_crowders(cells, m, needs, cand), describe(case, None)
            compared += 1
            crowders += bool(fast)
    assert compared > 5_000 and crowders > 500


def test_compiled_block_arguments_match_the_oracles():
    """`Prober.block_argument`, `Prober.differential` and `Prober.cover_argument` give exactly the
    oracle's Finding (or None) for every kind and window size the ladder uses: the 2x2 bound, the
    squeeze, the windows' remainders and excesses, the set differentials, and the cover of a region or
    two."""
    from engine.games.starbattle import blocks as B
    from engine.games.starbattle.techniques import _LARGE
    found = Counter()
    blocks_used = 0
    for i, case in enumerate(pool()):
        if i % 2:
            continue
        state, geo = case.state, case.state.geo
        oracle = PlainFinders(geo)
        needs, cand = state.needs(), state.cand
        asked = [("bound", ()), ("squeeze", ())]
        asked += [(kind, sizes) for kind in ("remainder", "excess") for sizes in ((1,), (2,), (3,), _LARGE)]
        for what, sizes in asked:
            fast = geo.finders.block_argument(cand, needs, what, sizes)
            assert fast == oracle.block_argument(cand, needs, what, sizes), (what, sizes, describe(case, None))
            found[what, sizes] += fast is not None
            blocks_used += fast is not None and fast.blocks > 0
        for sizes in ((1,), (2,), (3,), _LARGE):
            fast = geo.finders.differential(cand, needs, sizes, B.DIFFERENTIAL_PARTS)
            assert fast == oracle.differential(cand, needs, sizes, B.DIFFERENTIAL_PARTS), (sizes, describe(case, None))
            found["differential", sizes] += fast is not None
        n = geo.n
        for r in range(n - 1):          # one region, and two regions together (as region-pair asks)
            for units in ((2 * n + r,), (2 * n + r, 2 * n + r + 1)):
                area = 0
                for u in units:
                    area |= geo.unit_mask[u]
                need = sum(needs[u] for u in units)
                fast = geo.finders.cover_argument(area, need, needs, cand)
                assert fast == oracle.cover_argument(area, need, needs, cand), (units, describe(case, None))
                found["cover", len(units)] += fast is not None
    assert len(found) == 16 and min(found.values()) > 500 and blocks_used > 2_000, (found, blocks_used)


def test_compiled_window_areas_match_the_oracle():
    """`Prober.window_areas` (the areas pressured-remainder and composite-footprint judge, and the
    block argument's own) lists exactly the oracle's remainders and excesses, window by window."""
    compared = areas = 0
    for case, state, oracle in _sample(3):
        geo, needs, cand = state.geo, state.needs(), state.cand
        for size in range(1, geo.n + 1):
            for kind in ("remainder", "excess"):
                fast = geo.finders.window_areas(cand, needs, size, kind)
                assert fast == oracle.window_areas(cand, needs, size, kind), (size, kind, describe(case, None))
                compared += 1
                areas += len(fast)
    assert compared > 10_000 and areas > 20_000, (compared, areas)


def test_compiled_first_way_crowders_match_the_oracle():
    """Every candidate is asked (not only those near the unit or group), with a known way and a budget
    (as crowded-group asks) and without (as pressured-footprint asks)."""
    compared = crowders = 0
    rng = random.Random(11)
    for i, case in enumerate(pool()):
        if i % 20:
            continue
        state, geo = case.state, case.state.geo
        oracle = PlainFinders(geo)
        needs, cand = state.needs(), state.cand
        tight = T._short_of_room(geo, cand, needs)
        groups = [(u,) for u in rng.sample(range(geo.nunits), 4)] + rng.sample(T._crowded_groups(geo.n, geo.regions), 2)
        for group in groups:
            area = 0
            for u in group:
                area |= geo.unit_mask[u]
            area &= cand
            if len(group) == 1:
                stars, ruled, budget, asked = -1, 0, 0, ()
            else:
                found = T._ways(state, area, sum(needs[u] for u in group), needs, cand, first_only=True,
                                budget=T.GROUP_TRIES)
                if not found:
                    continue
                (stars, ruled), budget, asked = found[0], T.GROUP_TRIES, tight
            args = (area, group, needs, cand, cand, stars, ruled, asked, budget)
            fast = geo.finders.first_way_crowders(*args)
            assert fast == oracle.first_way_crowders(*args), (group, describe(case, None))
            compared += 1
            crowders += fast.bit_count()
    assert compared > 1_500 and crowders > 2_000


@pytest.mark.parametrize("name", ["region-in-line", "line-in-region", "undercount-2", "overcount-3", "x-wing",
                                  "undercount-large", "overcount-large", "fish-large", "shared-neighbour",
                                  "crowding", "pressured-lines", "pressured-remainder", "region-footprint", "line-footprint", "pressured-pair", "pressured-footprint",
                                  "composite-footprint-1", "composite-footprint-2", "composite-footprint-large",
                                  "differential-1", "differential-2", "differential-large", "2x2-bound", "squeeze",
                                  "remainder-1", "excess-1", "remainder-2", "excess-2", "remainder-large",
                                  "excess-large", "region-pair", "region-triple", "crowded-group"])
def test_steps_match_the_plain_finders(name, plain):
    """The whole step (cells, units, sentence) is the one the ladder words from the plain oracles."""
    steps = 0
    for i, case in enumerate(pool()):
        if i % 4:
            continue
        technique = ladder_for(case.rules.stars)[name]
        plain(False)
        fast = technique.find(case.state)
        plain(True)
        slow = technique.find(case.state)
        assert fast == slow, describe(case, fast)
        steps += fast is not None
    assert steps > 50


def test_compiled_finders_refuse_bad_arguments():
    case = pool()[0]
    state, geo = case.state, case.state.geo
    finders = geo.finders
    needs, cand = state.needs(), state.cand
    nbytes = (geo.n ** 2 + 7) // 8
    with pytest.raises(ValueError, match="needs must list"):
        finders.ways(cand, 1, needs[:-1], cand)
    with pytest.raises(ValueError, match="unknown finder"):
        finders.find(7, cand, state.stars)
    with pytest.raises(ValueError, match="unit kinds"):
        finders.find(FINDERS["counting"], cand, state.stars, ((3, 1),), (1,))
    with pytest.raises(ValueError, match="group sizes"):
        finders.find(FINDERS["counting"], cand, state.stars, ((0, 1),), (0,))
    with pytest.raises(ValueError, match="at most"):
        finders.first_contradiction(b"\0" * nbytes, b"\0" * nbytes, [0], 2, 1, T.TRIAL_PLAN * 3)
    with pytest.raises(ValueError, match="bitsets must be"):
        finders.first_contradiction(b"\0" * (nbytes + 1), b"\0" * nbytes, [0], 1, 1)
    with pytest.raises(ValueError, match="off the board"):
        finders.trial(cand, state.stars, False, geo.n ** 2, 1, 1, T.BASIC_PLAN)
    with pytest.raises(ValueError, match="at most"):
        finders.basic_round(cand, state.stars, False, T.BASIC_PLAN * 3)
    with pytest.raises(OverflowError):            # a set of cells larger than the board
        finders.pressured_crowders(1 << (8 * nbytes + 1), 1, needs, cand)
    with pytest.raises(OverflowError):
        finders.find(FINDERS["crowding"], 1 << (8 * nbytes + 1), 0)
    with pytest.raises(ValueError, match="needs must list"):
        finders.differential(cand, needs[:-1], (1,), 2)
    with pytest.raises(ValueError, match="unknown area"):
        finders.window_areas(cand, needs, 1, "remainders")
    with pytest.raises(ValueError, match="needs must list"):
        finders.window_areas(cand, needs[:-1], 1, "excess")
    with pytest.raises(ValueError, match="unknown block argument"):
        finders.block_argument(cand, needs, "remainders", (1,))
    with pytest.raises(ValueError, match="needs must list"):
        finders.block_argument(cand, needs[:-1], "bound")
    with pytest.raises(ValueError, match="needs must list"):
        finders.cover_argument(cand, 2, needs[:-1], cand)
    with pytest.raises(ValueError, match="units off the board"):
        finders.first_way_crowders(cand, (geo.nunits,), needs, cand, cand, -1, 0, (), 0)
    with pytest.raises(ValueError, match="units off the board"):
        finders.pressured_pair(needs, cand, ((0, geo.nunits),), ())
    with pytest.raises(ValueError, match="units off the board"):
        finders.pressured_pair(needs, cand, (), (-1,))
    with pytest.raises(ValueError, match="needs must list"):
        finders.first_way_crowders(cand, (0,), needs[:-1], cand, cand, -1, 0, (), 0)
    assert finders.differential(0, needs, (1, 2, 3), 2) is None        # no candidates, no argument
    assert finders.ways(cand, -1, needs, cand) == [] and finders.agreement(cand, -1, needs, cand) is None


def test_a_stale_build_is_refused(tmp_path):
    """The compiled finders carry the digest of the sources they were built from; other sources give
    another digest, which state.py refuses on import."""
    from engine.games.starbattle import _techniques, built
    assert _techniques.BUILT_FROM == built.source_digest()
    for name in built.SOURCES:
        (tmp_path / name).write_bytes((built.FOLDER / name).read_bytes())
    assert built.source_digest(tmp_path) == _techniques.BUILT_FROM
    with open(tmp_path / "_techniques.pyx", "a") as fh:
        fh.write("# changed\n")
    assert built.source_digest(tmp_path) != _techniques.BUILT_FROM
