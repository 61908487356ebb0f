"""A 9x9 givens line read and checked: 81 characters row by row, '.' for an empty cell ('0' is read
as empty too), and a solution checked against it. The board (board.py) and the board JSON's model
(model.py) both check lines here; this module imports only the grid's words (geometry.py)."""

from __future__ import annotations

from operator import itemgetter

from engine.errors import InvalidBoard
from engine.games.sudoku.geometry import CELL_UNITS, UNIT_CELLS, cell_name, unit_name

EMPTY = "."

# each unit's cells, read from a line in one call
_UNIT_READERS = tuple(itemgetter(*cells) for cells in UNIT_CELLS)


def _check_units(line: str, what: str) -> None:
    """Raise InvalidBoard when a digit appears twice in a unit of `line` ('.' for empty)."""
    for read in _UNIT_READERS:                   # the common case, a valid line: one pass per unit
        digits = "".join(read(line)).replace(EMPTY, "")
        if len(set(digits)) != len(digits):
            break
    else:
        return
    seen: dict[tuple[int, str], int] = {}
    for cell, ch in enumerate(line):
        if ch == EMPTY:
            continue
        for u in CELL_UNITS[cell]:
            other = seen.setdefault((u, ch), cell)
            if other != cell:
                raise InvalidBoard(f"{what}: digit {ch} appears twice in {unit_name(u)} "
                                   f"({cell_name(other)} and {cell_name(cell)})")


def read_givens(text: str) -> str:
    """The givens of a line ('.' for empty); surrounding whitespace is ignored. InvalidBoard (one
    line) for a line of another length, a character other than 1-9, '.' or '0', or a digit twice in a
    unit."""
    line = text.strip()
    if len(line) != 81:
        raise InvalidBoard(f"a Sudoku line has 81 characters, got {len(line)}")
    for i, ch in enumerate(line):
        if ch not in ".0123456789":
            raise InvalidBoard(f"character {ch!r} at position {i + 1} ({cell_name(i)}): expected 1-9, '.' or '0'")
    line = line.replace("0", EMPTY)
    _check_units(line, "contradictory givens")
    return line


def check_solution(givens: str, solution: str) -> None:
    """InvalidBoard unless `solution` is 81 digits, valid, and agrees with the givens."""
    if len(solution) != 81 or any(ch not in "123456789" for ch in solution):
        raise InvalidBoard('"solution" must be 81 digits 1-9')
    _check_units(solution, "invalid solution")
    if any(g != EMPTY and g != s for g, s in zip(givens, solution)):
        raise InvalidBoard('"solution" disagrees with the givens')


__all__ = ["EMPTY", "check_solution", "read_givens"]
