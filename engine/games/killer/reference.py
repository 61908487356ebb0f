"""Plain pure-Python references for the compiled Killer code, slow and obviously right; they exist so
that parity tests keep the compiled searches honest:
- reference_solutions: a solution counter, backtracking over cells in order, each cell trying the
  digits its row, column, box and cage do not hold, a cage checked when its last cell is filled and
  cut off when its partial sum leaves no room;
- cage_support_plain: a cage's supported digits and live digit sets (_count.cage_support);
- group_support: a signed sum group's supported digits (_count.group_support_c);
- reference_rounds: rounds of basic deductions (_count.run_rounds_c), and reference_round_groups the
  sum groups they use (grade.round_groups, from the compiled layout).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.games.killer.cages import COMBOS, bits, cage_support
from engine.games.killer.techniques import SEVERAL_REGIONS, SINGLE_REGIONS, KillerState, cage_layout
from engine.games.sudoku.geometry import PEERS, UNIT_CELLS


def reference_solutions(cage_of: Sequence[int], sums: Sequence[int], masks: Sequence[int], limit: int) -> list[str]:
    size = [0] * len(sums)
    for cage in cage_of:
        size[cage] += 1
    filled = [0] * len(sums)          # cells of each cage filled so far
    total = [0] * len(sums)           # their digits' sum
    used = [0] * (27 + len(sums))     # digits held by each row, column, box and cage, as masks
    grid = [0] * 81
    found: list[str] = []

    def units(cell: int) -> tuple[int, ...]:
        r, c = divmod(cell, 9)
        return r, 9 + c, 18 + (r // 3) * 3 + c // 3, 27 + cage_of[cell]

    def search(cell: int) -> bool:
        if cell == 81:
            found.append("".join(map(str, grid)))
            return len(found) >= limit
        cage = cage_of[cell]
        left = size[cage] - filled[cage] - 1          # cells of the cage after this one
        for d in range(9):
            bit = 1 << d
            if not masks[cell] & bit or any(used[u] & bit for u in units(cell)):
                continue
            rest = sums[cage] - total[cage] - (d + 1)
            # the cells left must make `rest` with distinct digits: between 1+2+.. and 9+8+..
            if rest < left * (left + 1) // 2 or rest > left * (19 - left) // 2:
                continue
            grid[cell] = d + 1
            filled[cage] += 1
            total[cage] += d + 1
            for u in units(cell):
                used[u] |= bit
            stop = search(cell + 1)
            for u in units(cell):
                used[u] &= ~bit
            total[cage] -= d + 1
            filled[cage] -= 1
            grid[cell] = 0
            if stop:
                return True
        return False

    search(0)
    return found


def cage_support_plain(total: int, masks: Sequence[int], need: int = 0) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """_count.cage_support in plain Python: for distinct cells adding up to `total` (with every digit of
    `need` among them), (each cell's digits some assignment within the cells' candidates uses, the digit
    sets those assignments use); all empty when none. Per digit set, the cells are filled one by one:
    `reached[i]` holds the subsets of the set the first i cells can take together, and a cell keeps a
    digit when the cells after it can take the rest of the set."""
    k = len(masks)
    support = [0] * k
    live = []
    for combo in COMBOS[k][total] if 0 <= total <= 45 else ():
        if combo & need != need:
            continue
        reached = [{0}]
        for i in range(k):
            reached.append({used | bit for used in reached[i] for bit in bits(masks[i] & combo & ~used)})
        if combo not in reached[k]:
            continue
        good = {combo}                    # subsets from which the cells left can complete the set
        found = [0] * k
        for i in range(k - 1, -1, -1):
            before = set()
            for used in reached[i]:
                for bit in bits(masks[i] & combo & ~used):
                    if used | bit in good:
                        found[i] |= bit
                        before.add(used)
            good = before
        live.append(combo)
        for i in range(k):
            support[i] |= found[i]
    if not live:
        return (0,) * k, ()
    return tuple(support), tuple(live)


def group_support(total: int, masks: tuple[int, ...], signs: tuple[int, ...],
                  distinct: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """For a signed sum group (a few cells): each cell's supported digits (all 0 when none); the
    plain search that keeps the compiled group_support_c honest."""
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


def reference_rounds(state: KillerState, groups: Sequence[tuple[Sequence[int], int, Sequence[tuple[int, int]]]]) -> tuple[int, list[int]]:
    """_count.run_rounds_c in plain Python: rounds of basic deductions (naked and hidden singles, each
    cage's combinations, the sum groups `groups`), all made at once each round, until they finish or
    stop; the rounds made and the masks then."""
    masks = list(state.masks())
    cages = state.cages
    cage_of = state.cage_of
    n = 0
    while True:
        new = list(masks)
        for c in range(81):
            m = masks[c]
            if m.bit_count() == 1:
                for p in PEERS[c]:
                    new[p] &= ~m
                for p in cages[cage_of[c]].cells:
                    if p != c:
                        new[p] &= ~m
        for cells in UNIT_CELLS:
            once = twice = 0
            for c in cells:
                twice |= once & masks[c]
                once |= masks[c]
            alone = once & ~twice               # digits with one place in the unit
            if alone:
                for c in cells:
                    if masks[c] & alone:
                        new[c] &= masks[c] & alone
        for cage in cages:
            support, live = cage_support(cage.total, [masks[c] for c in cage.cells])
            if live:
                for c, m in zip(cage.cells, support):
                    new[c] &= m
        for cells, total, distinct in groups:
            support = group_support(total, [masks[c] for c in cells], (1,) * len(cells), distinct)
            if any(support):
                for c, m in zip(cells, support):
                    new[c] &= m
        for c in range(81):
            if masks[c].bit_count() == 1:
                new[c] = masks[c]
        if new == masks or 0 in new:
            return n, masks
        masks = new
        n += 1


def reference_round_groups(state: KillerState, most: int = 5) -> list[tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]]:
    """grade.round_groups from the Python layout: for every region (rows, columns and boxes, then the
    runs of them), its innies and its outies when they are 1 to `most` cells, as (cells, total, the
    pairs of them known distinct)."""
    layout = cage_layout(state.cages)
    out = []
    for region in SINGLE_REGIONS + SEVERAL_REGIONS:
        for group in layout.groups(region):
            k = len(group.cells)
            if group.how != "innies and outies" and 1 <= k <= most:
                apart = group.apart
                out.append((group.cells, group.total,
                            tuple((i, j) for i in range(k) for j in range(i + 1, k) if apart[i] >> j & 1)))
    return out
