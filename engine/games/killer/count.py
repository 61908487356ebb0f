"""Counting Killer Sudoku solutions: Sudoku's counter with the board's cages, stopping at a limit.

A position is the board's cages with its givens, or with 81 candidate masks (bit d is digit d + 1),
so the counter also answers for a half-solved position with pencil marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.games.sudoku.count import ALL, Count, count_solutions as count_sudoku


class Caged(Protocol):
    """What the counter reads of a board (a board.KillerBoard, which counts itself with this module):
    its givens, each cell's cage and the cages' sums."""
    givens: str

    @property
    def cage_of(self) -> tuple[int, ...]: ...

    @property
    def sums(self) -> tuple[int, ...]: ...


def count_solutions(board: Caged, limit: int = 2, *, masks: Sequence[int] | None = None,
                    deadline: float = 0.0, other_than: str | None = None) -> Count:
    """Up to `limit` solutions of the board (from its givens, or from `masks`); `deadline` is a time
    on the monotonic clock, 0 for none. With `other_than` (a solution, 81 digits), only solutions
    other than it, those that differ from it in few cells first (its digits are tried first): none,
    completely searched, proves it the only one."""
    return count_sudoku(board.givens if masks is None else masks, limit, deadline=deadline,
                        cages=(board.cage_of, board.sums), other_than=other_than)


__all__ = ["ALL", "Count", "count_solutions"]
