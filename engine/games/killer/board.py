"""A 9x9 Killer Sudoku board as a value: the cages, the givens (usually none) and, once proved, the
solution, with its board JSON and a text form.

Glossary. Cells are r * 9 + c, rows and columns from 0 (in words, from 1: r1c1 is the top left). A
*cage* is a set of connected cells whose digits are distinct and add up to its sum. A *unit* is a row,
a column or a 3x3 box, numbered as Sudoku numbers them (rows 0-8, columns 9-17, boxes 18-26).

Fingerprint. Two boards are the same puzzle when one maps onto the other by transposing, permuting
the rows inside a band, the bands, the columns inside a stack or the stacks, the cages moving with
their cells (the 8 symmetries of the square are among these). Relabelling the digits is not a
symmetry: it changes the sums. The canonical form is the least (solution grid, cage map, givens)
over those transforms; since a transform that makes the solution grid least must put a 1 in r1c1,
and the rows and columns of a solution hold distinct digits, choosing the transpose and which 1 goes
to r1c1 fixes the rest (18 candidates), and the least of those is the canonical form.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from engine.core.regions import is_connected
from engine.errors import InvalidBoard
from engine.games.killer._count import combos
from engine.games.killer.count import count_solutions
from engine.games.sudoku.board import EMPTY, SIZE, Grid9, cell_name, check_solution, parse_line, unit_name
from engine.games.sudoku.geometry import grid_lines

KIND = "killer 9"
NO_GIVENS = EMPTY * 81


class Cage(NamedTuple):
    total: int                   # the sum
    cells: tuple[int, ...]       # ascending

    @property
    def name(self) -> str:
        """The cage in words: its sum and its first cell, "cage 11 at r1c1"."""
        return f"cage {self.total} at {cell_name(self.cells[0])}"


def board_of(cages: Sequence[tuple[int, Sequence[tuple[int, int]]]], givens: str = "", solution: str = "",
             seed: int | None = None) -> KillerBoard:
    """A checked board from (sum, [(row, column), ...]) cages; InvalidBoard names what is wrong."""
    owner: dict[int, int] = {}
    out = []
    for number, (total, cells) in enumerate(cages):
        ids = []
        for r, c in cells:
            if not (0 <= r < SIZE and 0 <= c < SIZE):
                raise InvalidBoard(f"cages[{number}]: cell [{r}, {c}] is outside the 9x9 grid")
            cell = r * SIZE + c
            if cell in owner:
                raise InvalidBoard(f"cages[{number}]: {cell_name(cell)} is already in cages[{owner[cell]}]")
            owner[cell] = number
            ids.append(cell)
        out.append(Cage(total, tuple(sorted(ids))))
    if len(owner) != 81:
        missing = min(set(range(81)) - owner.keys())
        raise InvalidBoard(f"cages: {cell_name(missing)} is in no cage")
    for number, cage in enumerate(out):
        if not is_connected(SIZE, cage.cells):
            raise InvalidBoard(f"cages[{number}]: its cells are not connected")
        if not combos(len(cage.cells), cage.total):
            raise InvalidBoard(f"cages[{number}]: {len(cage.cells)} distinct digits cannot add up to {cage.total}")
    line = parse_line(givens).givens if givens else NO_GIVENS
    for number, cage in enumerate(out):
        digits = [line[cell] for cell in cage.cells if line[cell] != EMPTY]
        if len(set(digits)) != len(digits):
            raise InvalidBoard(f"cages[{number}]: a given digit appears twice in the cage")
        held = sum(1 << (int(d) - 1) for d in digits)
        if not any(combo & held == held for combo in combos(len(cage.cells), cage.total)):
            raise InvalidBoard(f"cages[{number}]: the givens {', '.join(digits)} cannot make {cage.total}")
    if solution:
        check_solution(line, solution)
        for number, cage in enumerate(out):
            digits = [int(solution[cell]) for cell in cage.cells]
            if len(set(digits)) != len(digits) or sum(digits) != cage.total:
                raise InvalidBoard(f'"solution" breaks cages[{number}]: distinct digits adding up to {cage.total}')
    return KillerBoard(tuple(sorted(out, key=lambda cage: cage.cells[0])), line, solution, seed)


def _order(first: int, key: Sequence[int]) -> list[int]:
    """The 9 lines (rows or columns) in the order a least grid puts them: line `first` leads, then the
    other two of its band by `key` (a line's distinct value in the leading row or column), then each
    other band, least leader first, its lines by `key`."""
    band = first // 3
    out = [first] + sorted((line for line in range(band * 3, band * 3 + 3) if line != first), key=key.__getitem__)
    rest = [sorted(range(b * 3, b * 3 + 3), key=key.__getitem__) for b in range(3) if b != band]
    rest.sort(key=lambda lines: key[lines[0]])
    return out + rest[0] + rest[1]


@dataclass(frozen=True)
class KillerBoard(Grid9):
    cages: tuple[Cage, ...]                      # by first cell
    givens: str = NO_GIVENS                      # 81 characters, '.' for empty
    solution: str = ""                           # 81 digits, or "" when not known
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)   # grade, fun, steps, stats

    game = "killer"

    @cached_property
    def cage_of(self) -> tuple[int, ...]:
        """Each cell's cage, as an index into `cages`."""
        out = [0] * 81
        for number, cage in enumerate(self.cages):
            for cell in cage.cells:
                out[cell] = number
        return tuple(out)

    @property
    def sums(self) -> tuple[int, ...]:
        return tuple(cage.total for cage in self.cages)

    def count(self, limit: int) -> Any:
        return count_solutions(self, limit)

    def canonical(self) -> str:
        """The canonical form (see the module notes): the solution, the cage map and the givens."""
        grid = self.solved()
        best: tuple[str, ...] | None = None
        # the grid as read after the transpose or not: seen[r * 9 + c] is the digit of (r, c) there
        flipped = "".join([grid[c * 9 + r] for r in range(9) for c in range(9)])
        for transpose, seen in ((False, grid), (True, flipped)):
            for r0, c0 in (divmod(at, 9) for at in range(81) if seen[at] == "1"):
                rows = _order(r0, [int(seen[r * 9 + c0]) for r in range(9)])
                cols = _order(c0, [int(seen[r0 * 9 + c]) for c in range(9)])
                cells = ([c * 9 + r for r in rows for c in cols] if transpose
                         else [r * 9 + c for r in rows for c in cols])
                form_grid = "".join([grid[cell] for cell in cells])
                if best is not None and form_grid > best[0]:
                    continue
                label: dict[int, int] = {}
                cage_map = ",".join(f"{label.setdefault(self.cage_of[cell], len(label))}" for cell in cells)
                form = (form_grid, cage_map, "".join(self.givens[cell] for cell in cells))
                if best is None or form < best:
                    best = form
        assert best is not None
        return ":".join(best)

    @cached_property
    def fingerprint(self) -> str:
        return hashlib.sha256(f"{KIND}:{self.canonical()}".encode()).hexdigest()

    @property
    def id(self) -> str:
        return self.fingerprint[:16]

    def with_solution(self, solution: str) -> KillerBoard:
        return KillerBoard(self.cages, self.givens, solution, self.seed, dict(self.extra))

    def cages_json(self) -> list[dict[str, Any]]:
        return [{"sum": cage.total, "cells": [[cell // 9, cell % 9] for cell in cage.cells]} for cage in self.cages]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id if self.solution else None, "game": self.game, "rules": {"size": SIZE},
                               "cages": self.cages_json()}
        if self.givens != NO_GIVENS:
            out["givens"] = self.givens
        out["solution"] = self.solution
        out.update(self.extra)
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    def to_text(self, *, with_solution: bool = False) -> str:
        """A header line, then the cages drawn with walls (each cage's sum in its first cell, a given
        digit in the middle of its cell); with `with_solution`, the solution grid under a "solution" line."""
        ident = self.id if self.solution else "?"
        lines = [f"# {ident} killer 9x9 cages={len(self.cages)} clues={self.clues}"]
        first = {cage.cells[0]: cage.total for cage in self.cages}
        cage_of = self.cage_of
        for r in range(10):
            lines.append("".join("+" + ("---" if r in (0, 9) or cage_of[r * 9 + c] != cage_of[(r - 1) * 9 + c]
                                        else "   ") for c in range(9)) + "+")
            if r == 9:
                break
            row = ""
            for c in range(9):
                cell = r * 9 + c
                row += "|" if c == 0 or cage_of[cell] != cage_of[cell - 1] else " "
                total = f"{first[cell]}" if cell in first else ""
                digit = self.givens[cell] if self.givens[cell] != EMPTY else ""
                row += (total + " " * (3 - len(total) - len(digit)) + digit) if total else f" {digit or ' '} "
            lines.append(row + "|")
        if with_solution and self.solution:
            lines += ["solution"] + grid_lines(self.solution)
        return "\n".join(lines)


__all__ = ["Cage", "KIND", "KillerBoard", "NO_GIVENS", "SIZE", "board_of", "cell_name", "unit_name"]
