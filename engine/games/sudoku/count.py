"""Counting Sudoku solutions: a typed front for the compiled search, stopping at a limit.

A position is either a givens line (81 characters, '.' for empty) or 81 candidate masks (bit d is
digit d + 1), so the counter can also answer for a half-solved position with pencil marks. The same
counter counts a Killer board: its cages are an option (`cages`), and a Sudoku board is a count with
none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.games.sudoku._count import count_masks, monotonic, solve

ALL = 0x1FF


@dataclass(frozen=True, slots=True)
class Count:
    solutions: tuple[str, ...]     # up to the limit, each 81 digits
    complete: bool                 # False when the deadline cut the search short
    nodes: int = 0                 # search nodes visited

    @property
    def count(self) -> int:
        return len(self.solutions)


def masks_of(givens: str) -> list[int]:
    """Candidate masks of a givens line ('.' or '0' empty; checked lines only, see board.parse_line)."""
    return [ALL if ch in ".0" else 1 << (ord(ch) - 49) for ch in givens]


def count_solutions(position: str | Sequence[int], limit: int = 2, *, deadline: float = 0.0,
                    cages: tuple[Sequence[int], Sequence[int]] | None = None, other_than: str | None = None) -> Count:
    """Up to `limit` solutions of a givens line or of 81 candidate masks.

    `deadline` is a time on `monotonic()`; 0 means none (when it passes first, the count is not
    complete and holds the solutions found so far). `cages` is a Killer board's (cage_of, sums): each
    cell's cage number and each cage's sum; None for a Sudoku board. With `other_than` (a solution,
    81 digits), only solutions other than it, its digits tried first.
    """
    masks = masks_of(position) if isinstance(position, str) else position
    if cages is None:
        found, complete, nodes = solve(masks, limit, deadline, other_than=other_than)
    else:
        found, complete, nodes = solve(masks, limit, deadline, cage_of=cages[0], sums=cages[1], other_than=other_than)
    return Count(tuple(found), complete, nodes)


def is_unique(givens: str) -> bool:
    return count_masks(masks_of(givens), 2) == 1


__all__ = ["ALL", "Count", "count_masks", "count_solutions", "is_unique", "masks_of", "monotonic"]
