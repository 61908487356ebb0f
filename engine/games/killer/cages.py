"""The arithmetic of cages and of the rule of 45, on candidate masks (bit d = digit d + 1).

`cage_support` (compiled) answers for a cage: the digits each cell can still take in some way of
completing it, and the digit sets those ways use. A *sum group* is cells whose digits add up to a
known total, each cell counted with a sign (+1, or -1 for the outies of an innie-outie difference),
with some pairs of them known distinct (they share a row, column, box or cage). A cage is a sum group
of distinct cells; the innies or outies of a set of units are another. `group_support_c` (compiled,
in _count) answers which digits each cell can still take with the group's total met: the digits of
some assignment that respects every cell's candidates, the distinct pairs and the total.
"""

from __future__ import annotations

from engine.games.killer._count import cage_support, combos as _combos
from engine.games.sudoku.geometry import digits_text

COMBOS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(tuple(_combos(k, s)) for s in range(46))
                                                         for k in range(10))


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


__all__ = ["COMBOS", "bits", "cage_support", "digits_text"]
