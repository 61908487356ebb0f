"""The compiled counter against known answer counts (OEIS) and its API contract: limits, partial
positions, deadlines, reuse of one Search, bad input."""

from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.games.starbattle import Rules, count_solutions
from engine.games.starbattle.count import Search, monotonic, new_search
from test_engine_starbattle_support import (assert_solution, grown_regions, oracle_solutions, problems,
                                            rows_as_regions)

REPO = Path(__file__).resolve().parents[2]

# OEIS A002464: n stars, one per row and column, none touching (king moves).
A002464 = {4: 2, 5: 14, 6: 90, 7: 646, 8: 5242, 9: 47622}
# OEIS A000170: n queens.
A000170 = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724}


def _columns(n: int, solution: tuple[int, ...]) -> list[int]:
    """The column of the star in each row (the solution is sorted, one star per row)."""
    assert [cell // n for cell in solution] == list(range(n)), solution
    return [cell % n for cell in solution]


@pytest.mark.parametrize("n", sorted(A002464))
def test_no_touching_layouts_match_a002464(n: int) -> None:
    search = Search(n, 1, False, rows_as_regions(n))
    solutions, complete = search.solve(10**6, (), (), 0.0)
    assert complete
    assert len(solutions) == A002464[n]
    assert len(set(solutions)) == len(solutions), "a layout was reported twice"
    for solution in solutions:
        columns = _columns(n, solution)
        assert sorted(columns) == list(range(n))
        assert all(abs(a - b) >= 2 for a, b in zip(columns, columns[1:])), solution


@pytest.mark.parametrize("n", sorted(A000170))
def test_diagonal_layouts_match_a000170(n: int) -> None:
    count = count_solutions(Rules(n, 1, True), rows_as_regions(n), 10**6)
    assert count.complete
    assert count.count == A000170[n]
    assert len(set(count.solutions)) == count.count
    for solution in count.solutions:
        columns = _columns(n, solution)
        assert sorted(columns) == list(range(n))
        for (r1, c1), (r2, c2) in itertools.combinations(enumerate(columns), 2):
            assert abs(r1 - r2) != abs(c1 - c2), solution


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_layouts_equal_filtered_permutations(n: int) -> None:
    """The exact set, not just the count: every permutation with no touching neighbours."""
    expected = {tuple(sorted(r * n + c for r, c in enumerate(p))) for p in itertools.permutations(range(n))
                if all(abs(a - b) >= 2 for a, b in zip(p, p[1:]))}
    got = count_solutions(Rules(n), rows_as_regions(n), 10**6).solutions
    assert set(got) == expected and len(got) == len(expected)


@pytest.mark.parametrize("n,k", [(8, 2), (9, 2), (12, 3)])
def test_multi_star_layouts_match_oracle(n: int, k: int) -> None:
    rules = Rules(n, k)
    expected = oracle_solutions(rules, rows_as_regions(n))
    got = count_solutions(rules, rows_as_regions(n), 10**6)
    assert got.complete
    assert set(got.solutions) == set(expected)
    assert got.count == len(expected)
    for solution in got.solutions[:500]:
        assert_solution(rules, rows_as_regions(n), solution)


def test_no_layout_below_the_smallest_sizes() -> None:
    """2 stars need 8 columns and 3 stars need 12 (facts the size table relies on)."""
    for n in range(4, 8):
        assert Search(n, 2, False, rows_as_regions(n)).solve(1, (), (), 0.0) == ([], True)
    for n in range(4, 12):
        assert Search(n, 3, False, rows_as_regions(n)).solve(1, (), (), 0.0) == ([], True)
        # Rules refuses these sizes, so the oracle gets a bare stand-in
        assert oracle_solutions(SimpleNamespace(size=n, stars=3, diagonals=False), rows_as_regions(n), 1) == []


@pytest.mark.parametrize("n,diagonals", [(7, False), (8, False), (8, True), (10, True)])
def test_limit_returns_min_of_limit_and_total(n: int, diagonals: bool) -> None:
    rules = Rules(n, 1, diagonals)
    everything = set(count_solutions(rules, rows_as_regions(n), 10**6).solutions)
    total = len(everything)
    for limit in sorted({1, 2, 3, 7, 50, total - 1, total, total + 1, 10 * total}):
        got = count_solutions(rules, rows_as_regions(n), limit)
        assert got.complete
        assert got.count == min(limit, total)
        assert len(set(got.solutions)) == got.count
        assert set(got.solutions) <= everything


def test_partial_position_keeps_exactly_the_matching_layouts() -> None:
    n = 7
    rules = Rules(n)
    everything = count_solutions(rules, rows_as_regions(n), 10**6).solutions
    for star in range(n * n):
        got = set(count_solutions(rules, rows_as_regions(n), 10**6, stars=[star]).solutions)
        assert got == {s for s in everything if star in s}
        got = set(count_solutions(rules, rows_as_regions(n), 10**6, eliminated=[star]).solutions)
        assert got == {s for s in everything if star not in s}


def test_contradictory_partial_positions_have_no_solution() -> None:
    n = 8
    rules = Rules(n)
    regions = rows_as_regions(n)
    assert count_solutions(rules, regions, 10, stars=[0, 1]).solutions == ()       # touching
    assert count_solutions(rules, regions, 10, stars=[0, 9]).solutions == ()       # touching diagonally
    assert count_solutions(rules, regions, 10, stars=[0, 4]).solutions == ()       # same row
    assert count_solutions(rules, regions, 10, stars=[0, 32]).solutions == ()      # same column
    assert count_solutions(rules, regions, 10, stars=[5], eliminated=[5]).solutions == ()
    assert count_solutions(rules, regions, 10, eliminated=range(8)).solutions == ()  # a row emptied
    assert count_solutions(Rules(n, 1, True), regions, 10, stars=[0, 18]).solutions == ()  # diagonal
    result = count_solutions(rules, regions, 10, stars=[0, 4])
    assert result.complete


def test_a_full_answer_as_stars_gives_back_exactly_that_answer() -> None:
    n = 9
    rules = Rules(n)
    for solution in count_solutions(rules, rows_as_regions(n), 40).solutions:
        assert count_solutions(rules, rows_as_regions(n), 5, stars=solution).solutions == (solution,)
        # the stars in any order, given as a list or a generator
        assert count_solutions(rules, rows_as_regions(n), 5,
                               stars=(c for c in reversed(solution))).solutions == (solution,)


def test_search_object_can_be_reused_and_regions_replaced() -> None:
    import random
    rng = random.Random(4)
    n = 7
    rules = Rules(n)
    search = new_search(rules, rows_as_regions(n))
    first = search.solve(10**4, (), (), 0.0)
    assert search.solve(10**4, (), (), 0.0) == first
    search.random_solution(123)
    assert search.solve(10**4, (), (), 0.0) == first, "random_solution left state behind"
    search.solve(3, (3,), (10, 11), 0.0)
    assert search.solve(10**4, (), (), 0.0) == first, "a partial position leaked into the next call"
    for _ in range(30):
        regions = grown_regions(n, rng)
        search.set_regions(regions)
        fresh = Search(n, 1, False, regions).solve(10**4, (), (), 0.0)
        assert search.solve(10**4, (), (), 0.0) == fresh
    search.set_regions(rows_as_regions(n))
    assert search.solve(10**4, (), (), 0.0) == first


def test_random_solution_is_seeded_and_valid() -> None:
    for rules in (Rules(9), Rules(9, 1, True), Rules(10, 2), Rules(13, 3)):
        search = new_search(rules, rows_as_regions(rules.size))
        seen = set()
        for seed in range(25):
            answer = search.random_solution(seed)
            assert answer is not None
            assert_solution(rules, rows_as_regions(rules.size), answer)
            assert search.random_solution(seed) == answer
            assert new_search(rules, rows_as_regions(rules.size)).random_solution(seed) == answer
            seen.add(answer)
        assert len(seen) >= 10, f"{rules}: only {len(seen)} different answers from 25 seeds"
    assert Search(7, 2, False, rows_as_regions(7)).random_solution(1) is None   # no layout exists


def test_deadline_in_the_past_stops_a_long_search() -> None:
    n = 14
    regions = rows_as_regions(n)
    started = time.process_time()
    count = count_solutions(Rules(n), regions, 10**5, deadline=monotonic() - 1.0)
    assert not count.complete
    assert time.process_time() - started < 2.0     # CPU time: a search that ignores its deadline
    assert count.count < 10**5
    for solution in count.solutions[:200]:
        assert_solution(Rules(n), regions, solution)
    search = new_search(Rules(n), regions)
    assert search.random_solution(5, monotonic() - 1.0) in (None, search.random_solution(5))


def test_randomised_branching_finds_the_same_set() -> None:
    for rules in (Rules(8), Rules(9, 1, True), Rules(9, 2)):
        n = rules.size
        everything = set(count_solutions(rules, rows_as_regions(n), 10**6).solutions)
        search = new_search(rules, rows_as_regions(n))
        for seed in (1, 2, 3, 2**64 - 1):
            found, complete = search.solve(10**6, (), (), 0.0, seed, 0)
            assert complete and len(found) == len(everything) and set(found) == everything
            few, complete = search.solve(5, (), (), 0.0, seed, 0)
            assert complete and len(set(few)) == 5 and set(few) <= everything
            assert search.solve(5, (), (), 0.0, seed, 0) == (few, True), "same seed, same solutions"
        firsts = {search.solve(1, (), (), 0.0, seed, 0)[0][0] for seed in range(1, 30)}
        assert len(firsts) >= 5, "a seed should spread the first solution found"


def test_node_budget_ends_the_search_incomplete_and_deterministic() -> None:
    n = 9
    regions = rows_as_regions(n)
    search = Search(n, 1, False, regions)
    found, complete = search.solve(10**6, (), (), 0.0, 0, 1000)
    assert not complete
    assert 0 < len(found) < A002464[n]
    assert search.node_count <= 1001
    for solution in found:
        assert_solution(Rules(n), regions, solution)
    assert search.solve(10**6, (), (), 0.0, 0, 1000) == (found, False)
    assert search.solve(10**6, (), (), 0.0, 7, 1000) == search.solve(10**6, (), (), 0.0, 7, 1000)
    found, complete = search.solve(10**6, (), (), 0.0, 0, 10**9)
    assert complete and len(found) == A002464[n]
    # a budget left from one call must not cut the next one short
    search.solve(10, (), (), 0.0, 0, 5)
    assert search.random_solution(3) is not None
    assert search.solve(10**6, (), (), 0.0)[1]


def test_deadline_zero_means_none_and_future_deadline_completes() -> None:
    n = 8
    regions = rows_as_regions(n)
    assert count_solutions(Rules(n), regions, 10**6).count == A002464[n]
    count = count_solutions(Rules(n), regions, 10**6, deadline=monotonic() + 60.0)
    assert count.complete and count.count == A002464[n]


def test_node_count_is_reported() -> None:
    search = Search(8, 1, False, rows_as_regions(8))
    search.solve(1, (), (), 0.0)
    small = search.node_count
    search.solve(10**6, (), (), 0.0)
    assert 0 < small < search.node_count


def test_bad_arguments_raise_value_error() -> None:
    n = 6
    search = Search(n, 1, False, rows_as_regions(n))
    with pytest.raises(ValueError):
        search.solve(0, (), (), 0.0)
    with pytest.raises(ValueError):
        search.solve(-5, (), (), 0.0)
    with pytest.raises(ValueError):
        search.solve(1, (n * n,), (), 0.0)
    with pytest.raises(ValueError):
        search.solve(1, (-1,), (), 0.0)
    with pytest.raises(ValueError):
        search.solve(1, (), (n * n,), 0.0)
    with pytest.raises(ValueError):
        search.set_regions(rows_as_regions(n)[:-1])
    with pytest.raises(ValueError):
        search.set_regions([0] * (n * n - 1) + [n])
    with pytest.raises(ValueError):
        search.set_regions([-1] + [0] * (n * n - 1))
    with pytest.raises(ValueError):
        Search(n, 1, False, [0] * (n * n + 1))
    # a rejected set_regions leaves the old map in place
    assert len(search.solve(10**4, (), (), 0.0)[0]) == A002464[n]


def test_a_star_given_twice_is_the_same_position() -> None:
    n = 7
    regions = rows_as_regions(n)
    once = count_solutions(Rules(n), regions, 10**4, stars=[3])
    assert once.count > 0
    assert count_solutions(Rules(n), regions, 10**4, stars=[3, 3]).solutions == once.solutions


def _run(code: str, timeout: float = 30.0) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("seed", [0, 12345])
def test_an_unused_region_label_is_refused_or_has_no_solution(seed: int) -> None:
    """Search accepts any labels 0..n-1; a map with an empty region must not crash the process."""
    code = f"""
        from engine.games.starbattle.count import Search, monotonic
        n = 5
        regions = [min(cell // n, 3) for cell in range(n * n)]   # label 4 unused
        try:
            found, complete = Search(n, 1, False, regions).solve(10, (), (), monotonic() + 5, {seed}, 0)
            print(len(found))
        except ValueError:
            print("refused")
    """
    try:
        done = _run(code)
    except subprocess.TimeoutExpired:
        pytest.fail("the search hung")
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-500:]}"
    assert done.stdout.strip() in ("0", "refused")


def test_problems_helper_rejects_bad_answers() -> None:
    """The validity check the other tests rely on must itself be able to fail."""
    n = 6
    rules = Rules(n)
    regions = rows_as_regions(n)
    good = count_solutions(rules, regions, 1).solutions[0]
    assert problems(rules, regions, good) == []
    assert problems(rules, regions, good[:-1])
    assert problems(rules, regions, tuple(sorted(good[:-1] + (good[-1] - 1,))))
    queens = set(oracle_solutions(Rules(n, 1, True), regions))
    on_a_diagonal = next(s for s in count_solutions(rules, regions, 100).solutions if s not in queens)
    assert problems(rules, regions, on_a_diagonal) == []
    assert problems(Rules(n, 1, True), regions, on_a_diagonal)
    swapped = list(good)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert problems(rules, regions, swapped)
    assert problems(rules, regions, (0, 1, 2, 3, 4, 5))
