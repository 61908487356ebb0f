"""The arithmetic of cages and of the rule of 45, on candidate masks (bit d = digit d + 1).

`cage_support` (compiled) answers for a cage: the digits each cell can still take in some way of
completing it, and the digit sets those ways use. A *sum group* is cells whose digits add up to a known total, each cell counted with a sign (+1, or -1
for the outies of an innie-outie difference), with some pairs of them known distinct (they share a
row, column, box or cage). A cage is a sum group of distinct cells; the innies or outies of a set of
units are another. `support` answers which digits each cell can still take with the group's total
met: the digits of some assignment that respects every cell's candidates, the distinct pairs and the
total. Answers are cached: a solve asks the same question, unchanged, after almost every step.
"""

from __future__ import annotations

from functools import lru_cache

from engine.games.killer._count import cage_support, combos as _combos

COMBOS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(tuple(_combos(k, s)) for s in range(46))
                                                         for k in range(10))


def digits_text(mask: int) -> str:
    return "{" + ",".join(str(d + 1) for d in range(9) if mask >> d & 1) + "}"


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


@lru_cache(maxsize=1 << 16)
def group_support(total: int, masks: tuple[int, ...], signs: tuple[int, ...],
                  distinct: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """For a signed sum group (a few cells): each cell's supported digits (all 0 when none)."""
    k = len(masks)
    support = [0] * k
    chosen = [0] * k
    # the most and least the cells after i can still add, to cut the search
    high = [0] * (k + 1)
    low = [0] * (k + 1)
    for i in range(k - 1, -1, -1):
        top, bottom = masks[i].bit_length(), (masks[i] & -masks[i]).bit_length()
        high[i] = high[i + 1] + (top if signs[i] > 0 else -bottom)
        low[i] = low[i + 1] + (bottom if signs[i] > 0 else -top)
    apart = [[j for a, j in distinct if a == i] + [a for a, j in distinct if j == i] for i in range(k)]

    def search(i: int, left: int) -> None:
        if i == k:
            if left == 0:
                for j in range(k):
                    support[j] |= chosen[j]
            return
        if not low[i] <= left <= high[i]:
            return
        taken = 0
        for j in apart[i]:
            if j < i:
                taken |= chosen[j]
        for bit in bits(masks[i] & ~taken):
            chosen[i] = bit
            search(i + 1, left - signs[i] * bit.bit_length())
        chosen[i] = 0

    search(0, total)
    return tuple(support)


__all__ = ["COMBOS", "bits", "cage_support", "digits_text", "group_support"]
