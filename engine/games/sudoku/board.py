"""A 9x9 Sudoku board as a value: the givens and (once proved) the solution, with its board JSON and a
text line that parses back to the same board.

Glossary. Cells are r * 9 + c, rows and columns from 0 (in words, from 1: r1c1 is the top left). A
*givens line* is 81 characters, row by row, '.' for an empty cell ('0' is read as empty too). A *unit*
is a row, a column or a 3x3 box.

Fingerprint. Two puzzles are the same puzzle when one maps onto the other by relabelling the digits,
transposing, permuting the rows inside a band, the bands, the columns inside a stack, or the stacks
(2 * 6^8 * 9! transforms). `fingerprint` is exact for boards with one solution: it names the canonical
form computed by `_canon.pyx` (the least transformed puzzle among the transforms that put the solution
grid in its least form), so two boards share a fingerprint exactly when they are equivalent. A board
without a solution is solved first; one with none or several has no fingerprint (InvalidBoard).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.errors import InvalidBoard
from engine.games.model import validate_board
from engine.games.sudoku._canon import canonical
from engine.games.sudoku.geometry import SIZE, cell_name, grid_lines, unit_name
from engine.games.sudoku.givens import EMPTY, check_solution, read_givens
from engine.games.sudoku.model import SudokuBoardModel

KIND = "sudoku 9"

def parse_line(text: str) -> SudokuBoard:
    """A board from a givens line; surrounding whitespace is ignored."""
    return SudokuBoard(read_givens(text))


class Grid9:
    """What a 9x9 board of digits answers the same way in Sudoku and Killer Sudoku (each board's
    dataclass has `givens` and `solution`, and counts its own solutions: `count`)."""

    givens: str
    solution: str
    n = SIZE

    @property
    def rules(self) -> dict[str, int]:
        return {"size": SIZE}

    @property
    def clues(self) -> int:
        return 81 - self.givens.count(EMPTY)

    def count(self, limit: int) -> Any:
        """The board's solutions up to `limit` (a count.Count)."""
        raise NotImplementedError

    def solved(self) -> str:
        """The solution, found by the counter when not known; InvalidBoard unless it is unique."""
        if self.solution:
            return self.solution
        found = self.count(2)
        if found.count != 1:
            raise InvalidBoard("the board has no solution" if found.count == 0 else
                               "the board has several solutions")
        return found.solutions[0]


@dataclass(frozen=True)
class SudokuBoard(Grid9):
    givens: str                                  # 81 characters, '.' for empty
    solution: str = ""                           # 81 digits, or "" when not known
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)  # grade, fun, steps, stats

    game = "sudoku"

    @property
    def line(self) -> str:
        return self.givens

    def __str__(self) -> str:
        return self.givens

    def count(self, limit: int) -> Any:
        from engine.games.sudoku.count import count_solutions
        return count_solutions(self.givens, limit)

    @cached_property
    def fingerprint(self) -> str:
        # Kept once computed (the board is frozen): the id, the JSON and the store all ask for it, and
        # the canonical form costs about as much as a tenth of generating the board.
        form, _ = canonical(self.solved(), self.givens)
        return hashlib.sha256(f"{KIND}:{form}".encode()).hexdigest()

    @property
    def id(self) -> str:
        return self.fingerprint[:16]

    def with_solution(self, solution: str) -> SudokuBoard:
        return SudokuBoard(self.givens, solution, self.seed, dict(self.extra))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id if self.solution else None, "game": self.game,
                               "rules": {"size": SIZE}, "givens": self.givens, "solution": self.solution}
        out.update(self.extra)
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    def to_text(self, *, with_solution: bool = False) -> str:
        """A header line, then the givens as a grid with box rules ('.' for empty); with
        `with_solution`, the solution grid follows under a "solution" line."""
        ident = self.id if self.solution else "?"
        lines = [f"# {ident} sudoku 9x9 clues={self.clues}"]
        grids = [self.givens] + ([self.solution] if with_solution and self.solution else [])
        for number, grid in enumerate(grids):
            if number:
                lines.append("solution")
            lines += grid_lines(grid)
        return "\n".join(lines)

    @classmethod
    def from_json(cls, data: Any) -> SudokuBoard:
        """Read a board in the JSON contract; the solution, if given, is checked against the givens."""
        model = validate_board(SudokuBoardModel, data)
        assert isinstance(model, SudokuBoardModel)
        return cls(model.givens, model.solution, model.seed)


__all__ = ["EMPTY", "SIZE", "Grid9", "SudokuBoard", "cell_name", "check_solution", "parse_line", "unit_name"]
