"""Counting Tango solutions: a typed front for the compiled search, stopping at a limit.

A position is the board's givens, or any partial grid (`values`: S, M or '.' per cell), under the
board's clues: the counter also answers for a half-solved position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.games.tango._count import count, monotonic, random_solution, valid_lines
from engine.games.tango.board import Clue, TangoBoard

_CODES = bytes.maketrans(b"SM.", b"\x00\x01\x02")


@dataclass(frozen=True, slots=True)
class Count:
    solutions: tuple[str, ...]     # up to the limit, each n * n characters of S and M
    complete: bool                 # False when the deadline cut the search short
    nodes: int = 0                 # search nodes visited

    @property
    def count(self) -> int:
        return len(self.solutions)


def codes(values: str) -> bytes:
    """A grid of S, M and '.' as the compiled counter's bytes (0 sun, 1 moon, 2 empty)."""
    return values.encode("ascii").translate(_CODES)


def clue_triples(clues: Sequence[Clue]) -> list[tuple[int, int, bool]]:
    return [(clue.first, clue.second, clue.same) for clue in clues]


def count_solutions(board: TangoBoard, limit: int = 2, *, values: str | None = None,
                    deadline: float = 0.0) -> Count:
    """Up to `limit` solutions of the board (from its givens, or from the partial grid `values`);
    `deadline` is a time on `monotonic()`, 0 for none."""
    grid = board.givens if values is None else values
    found, complete, nodes = count(board.n, codes(grid), clue_triples(board.clues), limit, deadline)
    return Count(tuple(found), complete, nodes)


__all__ = ["Count", "clue_triples", "codes", "count_solutions", "monotonic", "random_solution", "valid_lines"]
