"""Counting solutions: a typed front for the compiled search, stopping at a limit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.errors import DeadlineExceeded
from engine.games.starbattle._search import Search, monotonic
from engine.games.starbattle.rules import Rules


@dataclass(frozen=True, slots=True)
class Count:
    solutions: tuple[tuple[int, ...], ...]   # up to the limit, each a sorted tuple of star cells
    complete: bool                           # False when the deadline cut the search short

    @property
    def count(self) -> int:
        return len(self.solutions)


def new_search(rules: Rules, regions: Sequence[int]) -> Search:
    """A search loaded with these regions (boards up to 21 x 21, every size the rules allow)."""
    return Search(rules.size, rules.stars, rules.diagonals, list(regions))


def count_solutions(rules: Rules, regions: Sequence[int], limit: int = 2, *, stars: Iterable[int] = (),
                    eliminated: Iterable[int] = (), deadline: float = 0.0) -> Count:
    """Up to `limit` solutions extending a partial position (stars placed, cells ruled out).

    `deadline` is a time on `monotonic()`; 0 means none.
    """
    search = new_search(rules, regions)
    found, complete = search.solve(limit, tuple(stars), tuple(eliminated), deadline)
    return Count(tuple(found), complete)


def only_solution(search: Search, regions: Sequence[int], answer: tuple[int, ...],
                  max_nodes: int = 0, deadline: float = 0.0) -> bool:
    """Whether `answer` is the only solution of `regions`, counted on `search` (loaded with them here):
    a tuning checks thousands of maps of one board, and one search serves them all (building one
    costs more than a small count). A non-zero `max_nodes` answers False for a count that needs more
    search nodes (the same answer on every machine). Raises DeadlineExceeded when `deadline` (on
    `monotonic()`; 0 for none) has passed: never an answer that depends on the clock."""
    if deadline and monotonic() > deadline:
        raise DeadlineExceeded("the time for checking maps ran out")
    search.set_regions(regions)
    found, complete = search.solve(2, max_nodes=max_nodes)
    return complete and found == [answer]


__all__ = ["Count", "Search", "count_solutions", "monotonic", "new_search", "only_solution"]
