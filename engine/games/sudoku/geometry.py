"""The 9x9 grid of Sudoku and Killer Sudoku, in Python: its units, each cell's units and peers, and the
words for cells, units, candidates and digit sets. Both games' Python reads these tables (the compiled
modules have their own, built by the counter: _count.pxd).

Cells are r * 9 + c, rows and columns from 0 (in words, from 1: r1c1 is the top left). Units are rows
0-8, columns 9-17 and boxes 18-26 (boxes row by row). A candidate is cell * 9 + d, digits d from 0; a
digit set is a 9-bit mask, bit d = digit d + 1. Two cells *see* each other (are peers) when they share
a unit. This module imports nothing of ours, so that a game's words load without its compiled code.
"""

from __future__ import annotations

SIZE = 9


def units_of(cell: int) -> tuple[int, int, int]:
    """The cell's row, column and box, as unit numbers."""
    r, c = divmod(cell, 9)
    return r, 9 + c, 18 + (r // 3) * 3 + c // 3


def _unit_cells() -> tuple[tuple[int, ...], ...]:
    cells: list[list[int]] = [[] for _ in range(27)]
    for cell, units in enumerate(CELL_UNITS):
        for u in units:
            cells[u].append(cell)
    return tuple(map(tuple, cells))


CELL_UNITS: tuple[tuple[int, int, int], ...] = tuple(units_of(cell) for cell in range(81))
UNIT_CELLS: tuple[tuple[int, ...], ...] = _unit_cells()                  # each unit's cells, ascending
_UNIT_BITS = tuple(sum(1 << cell for cell in cells) for cells in UNIT_CELLS)
PEER_BITS: tuple[int, ...] = tuple((_UNIT_BITS[r] | _UNIT_BITS[c] | _UNIT_BITS[b]) & ~(1 << cell)   # as 81-bit sets
                                   for cell, (r, c, b) in enumerate(CELL_UNITS))


def __getattr__(name: str) -> tuple[tuple[int, ...], ...]:
    # PEERS (each cell's 20 peers, ascending) is made on first use: the games' hot paths read PEER_BITS,
    # and every process that loads a Sudoku board loads this module
    if name == "PEERS":
        peers = tuple(tuple(sorted(set(UNIT_CELLS[r] + UNIT_CELLS[c] + UNIT_CELLS[b]) - {cell}))
                      for cell, (r, c, b) in enumerate(CELL_UNITS))
        globals()["PEERS"] = peers
        return peers
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def sees(a: int, b: int) -> bool:
    """Whether two different cells share a row, a column or a box."""
    return PEER_BITS[a] >> b & 1 == 1


def unit_name(u: int) -> str:
    """A unit in words: rows, columns and boxes counted from 1 (boxes row by row)."""
    return f"row {u + 1}" if u < 9 else f"column {u - 8}" if u < 18 else f"box {u - 17}"


def cell_name(cell: int) -> str:
    """A cell in words: r1c1 is the top left."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def cand_name(x: int) -> str:
    """A candidate in words: "5@r1c2"."""
    return f"{x % 9 + 1}@{cell_name(x // 9)}"


def digits_text(mask: int) -> str:
    """A digit set in words: "{1,2}"."""
    return "{" + ",".join(str(d + 1) for d in range(9) if mask >> d & 1) + "}"


def cells_text(cells: tuple[int, ...] | list[int]) -> str:
    """Cells in words, by spaces: "r1c1 r1c2"."""
    return " ".join(cell_name(c) for c in cells)


def grid_lines(grid: str) -> list[str]:
    """An 81-character grid as 11 lines of text, the boxes ruled: "1 2 3 | 4 5 6 | 7 8 9"."""
    lines = []
    for r in range(9):
        if r and r % 3 == 0:
            lines.append("------+-------+------")
        row = grid[r * 9:(r + 1) * 9]
        lines.append(" | ".join(" ".join(row[i:i + 3]) for i in (0, 3, 6)))
    return lines


__all__ = ["CELL_UNITS", "PEERS", "PEER_BITS", "SIZE", "UNIT_CELLS", "cand_name", "cell_name", "cells_text",
           "digits_text", "grid_lines", "sees", "unit_name", "units_of"]
