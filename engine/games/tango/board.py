"""A Tango board as a value: the size, the givens, the clues on the edges between neighbouring cells
and, once known, the solution; with its board JSON, a text form and a fingerprint.

Glossary. Cells are r * n + c, rows and columns from 0 (in words, from 1: r1c1 is the top left). A
cell holds a sun (S, 0 inside the engine) or a moon (M, 1). A *line* is a row or a column; every line
holds n/2 suns and n/2 moons, never three alike side by side. A *clue* sits on the edge between two
neighbouring cells: `=` (same) says they are alike, `×` (opposite) that they differ. The JSON lists a
clue's cells in reading order (the first above or left of the second); so does `Clue`.

Fingerprint. Two boards are the same puzzle when one maps onto the other by one of the 8 symmetries
of the square, by swapping suns and moons, or both (16 transforms; a clue keeps its kind under all of
them). The canonical form is the least (givens, clues) text over those transforms.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from operator import itemgetter
from typing import Any, NamedTuple

from engine.core.grid import symmetries
from engine.errors import InvalidBoard
from engine.games.tango.rules import SIZES

SUN, MOON, EMPTY = "S", "M", "."
SYMBOLS = SUN + MOON                 # index = the engine's value: 0 sun, 1 moon
KINDS = ("same", "opposite")
SIGNS = {"same": "=", "opposite": "×"}


class Clue(NamedTuple):
    first: int                   # cell r * n + c: above or left of `second`
    second: int
    same: bool                   # True: `=` (alike); False: `×` (differ)

    @property
    def kind(self) -> str:
        return "same" if self.same else "opposite"

    @property
    def sign(self) -> str:
        return "=" if self.same else "×"

    def holds(self, a: str, b: str) -> bool:
        """Whether symbols a (at `first`) and b (at `second`) obey the clue."""
        return (a == b) == self.same


def cell_name(n: int, cell: int) -> str:
    """A cell in words: r1c1 is the top left."""
    return f"r{cell // n + 1}c{cell % n + 1}"


def line_name(n: int, line: int) -> str:
    """A line in words: lines 0..n-1 are the rows, n..2n-1 the columns, counted from 1."""
    return f"row {line + 1}" if line < n else f"column {line - n + 1}"


@cache
def line_cells(n: int) -> tuple[tuple[int, ...], ...]:
    """The cells of every line: the rows, then the columns."""
    return (tuple(tuple(r * n + c for c in range(n)) for r in range(n))
            + tuple(tuple(r * n + c for r in range(n)) for c in range(n)))


def rule_breach(n: int, grid: str) -> str | None:
    """How a full grid of S and M breaks the line rules (balance, three alike), or None."""
    for line, cells in enumerate(line_cells(n)):
        text = "".join(grid[cell] for cell in cells)
        if text.count(SUN) != n // 2:
            return f"{line_name(n, line)} holds {text.count(SUN)} suns and {text.count(MOON)} moons, not {n // 2} of each"
        for three in ("SSS", "MMM"):
            at = text.find(three)
            if at >= 0:
                return f"{line_name(n, line)} has three {'suns' if three[0] == SUN else 'moons'} side by side"
    return None


def board_of(n: Any, givens: str, clues: Iterable[tuple[Sequence[Sequence[int]], str]], solution: str = "",
             seed: int | None = None) -> TangoBoard:
    """A checked board from the size, the givens line ('' for none) and the clues as ([[r, c], [r, c]],
    kind); InvalidBoard names what is wrong. The solution is a claim: it must obey the rules and the
    clues (the counter, not this check, says whether it is the board's)."""
    if type(n) is not int or n not in SIZES:
        raise InvalidBoard(f"rules.size: tango grids are even sizes {SIZES.start} to {SIZES.stop - 2}, not {n!r}")
    givens = givens or EMPTY * (n * n)
    if len(givens) != n * n or set(givens) - set(SYMBOLS + EMPTY):
        raise InvalidBoard(f"givens: must be {n * n} characters, each S (sun), M (moon) or '.' (empty)")
    out: list[Clue] = []
    seen: dict[tuple[int, int], int] = {}
    for number, (cells, kind) in enumerate(clues):
        if len(cells) != 2 or any(len(cell) != 2 for cell in cells):
            raise InvalidBoard(f"clues[{number}].cells: must be two cells [row, column]")
        (r1, c1), (r2, c2) = cells
        if not all(0 <= x < n for x in (r1, c1, r2, c2)):
            raise InvalidBoard(f"clues[{number}].cells: a cell lies outside the {n}x{n} grid")
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            raise InvalidBoard(f"clues[{number}].cells: r{r1 + 1}c{c1 + 1} and r{r2 + 1}c{c2 + 1} are not neighbours")
        if kind not in KINDS:
            raise InvalidBoard(f"clues[{number}].kind: must be 'same' or 'opposite', not {kind!r}")
        a, b = sorted((r1 * n + c1, r2 * n + c2))
        if (a, b) in seen:
            raise InvalidBoard(f"clues[{number}]: the edge between {cell_name(n, a)} and {cell_name(n, b)} "
                               f"already has clues[{seen[a, b]}]")
        seen[a, b] = number
        out.append(Clue(a, b, kind == "same"))
    if solution:
        if len(solution) != n * n or set(solution) - set(SYMBOLS):
            raise InvalidBoard(f"solution: must be {n * n} characters, each S or M")
        breach = rule_breach(n, solution)
        if breach:
            raise InvalidBoard(f"solution: {breach}")
        for number, clue in enumerate(out):
            if not clue.holds(solution[clue.first], solution[clue.second]):
                raise InvalidBoard(f"solution: breaks clues[{number}] ({clue.sign} between "
                                   f"{cell_name(n, clue.first)} and {cell_name(n, clue.second)})")
    return TangoBoard(n, givens, tuple(sorted(out)), solution, seed)


@cache
def _transforms(n: int) -> tuple[tuple[tuple[int, ...], Any], ...]:
    """The 8 symmetries of the square: each as its image (image[i] is where cell i goes) and a getter
    of the moved grid's characters (the cell each position comes from). The swap of suns and moons
    doubles them into the 16 transforms."""
    out = []
    for image in symmetries(n):
        source = [0] * (n * n)
        for cell, to in enumerate(image):
            source[to] = cell
        out.append((image, itemgetter(*source)))
    return tuple(out)


_SWAP = str.maketrans("SM", "MS")


def canonical(n: int, givens: str, clues: Sequence[Clue]) -> str:
    """The least (givens, clues) text over the 16 transforms (see the module notes)."""
    best = None
    for image, moved in _transforms(n):
        text = "".join(moved(givens))
        edges = sorted((min(image[c.first], image[c.second]), max(image[c.first], image[c.second]), c.same)
                       for c in clues)
        tail = "|" + ",".join(f"{a}{'=' if same else 'x'}{b}" for a, b, same in edges)
        for form in (text + tail, text.translate(_SWAP) + tail):
            if best is None or form < best:
                best = form
    assert best is not None
    return best


@dataclass(frozen=True)
class TangoBoard:
    n: int
    givens: str                                  # n * n characters: S, M or '.'
    clues: tuple[Clue, ...] = ()                 # sorted by cells
    solution: str = ""                           # n * n characters of S and M, or "" when not known
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)   # grade, fun, steps, stats

    game = "tango"

    @property
    def rules(self) -> dict[str, int]:
        return {"size": self.n}

    @property
    def given_count(self) -> int:
        return self.n * self.n - self.givens.count(EMPTY)

    @cached_property
    def fingerprint(self) -> str:
        return hashlib.sha256(f"tango {self.n}:{canonical(self.n, self.givens, self.clues)}".encode()).hexdigest()

    @property
    def id(self) -> str:
        return self.fingerprint[:16]

    def with_solution(self, solution: str) -> TangoBoard:
        return TangoBoard(self.n, self.givens, self.clues, solution, self.seed, dict(self.extra))

    def clues_json(self) -> list[dict[str, Any]]:
        n = self.n
        return [{"cells": [[c.first // n, c.first % n], [c.second // n, c.second % n]], "kind": c.kind}
                for c in self.clues]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "game": self.game, "rules": {"size": self.n}, "givens": self.givens,
                               "clues": self.clues_json(), "solution": self.solution}
        out.update(self.extra)
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    def _grid_lines(self, grid: str) -> list[str]:
        """The grid with the clues drawn between its cells: `=` or `x` between two cells of a row, and
        on a line of their own between two rows, under the cells they join."""
        n = self.n
        across = {c.first: ("=" if c.same else "x") for c in self.clues if c.second == c.first + 1}
        down = {c.first: ("=" if c.same else "x") for c in self.clues if c.second == c.first + n}
        lines = []
        for r in range(n):
            lines.append("".join(grid[r * n + c] + (across.get(r * n + c, " ") if c < n - 1 else "")
                                 for c in range(n)))
            if r < n - 1:
                lines.append(" ".join(down.get(r * n + c, " ") for c in range(n)).rstrip())
        return lines

    def to_text(self, *, with_solution: bool = False) -> str:
        """A header line, then the givens ('.' for empty) with the clues between the cells; with
        `with_solution`, the solution the same way under a "solution" line."""
        lines = [f"# {self.id} tango {self.n}x{self.n} givens={self.given_count} clues={len(self.clues)}"]
        lines += self._grid_lines(self.givens)
        if with_solution and self.solution:
            lines.append("solution")
            lines += self._grid_lines(self.solution)
        return "\n".join(lines)


__all__ = ["EMPTY", "KINDS", "MOON", "SIGNS", "SUN", "SYMBOLS", "Clue", "TangoBoard", "board_of", "canonical",
           "cell_name", "line_cells", "line_name", "rule_breach"]
