"""Block arguments: a 2x2 block holds at most one star (its four cells touch each other), so m blocks
covering the candidates of an area bound its stars by m. When the area must still hold exactly m stars,
each block holds exactly one of them: no star sits where two blocks overlap, a block's cells outside the
area are empty, and the cells every candidate of a block's part attacks are empty.
"""

from __future__ import annotations

from engine.ladder import Step
from engine.games.starbattle.state import (Geometry, StarState, cells_of, join_names, place_step,
                                           regions_first, stars_text)



def _cover(geo: Geometry, mask: int, m: int) -> list[int] | None:
    """Up to m 2x2 blocks covering the cells of `mask`, or None."""
    if not mask:
        return []
    if m == 0 or mask.bit_count() > 4 * m:
        return None
    low = mask & -mask
    for block in geo.cell_blocks[low.bit_length() - 1]:
        rest = _cover(geo, mask & ~block, m - 1)
        if rest is not None:
            return [block] + rest
    return None


def _block_deductions(state: StarState, area: int, need: int, needs: list[int]):
    """Placements and eliminations from covering the candidates of `area` (needing `need` more stars)
    with `need` 2x2 blocks; None when no such cover exists or it shows nothing."""
    geo, cand = state.geo, state.cand
    free = cand & area
    blocks = _cover(geo, free, need)
    if blocks is None or len(blocks) < need:
        return None
    seen = overlap = 0
    for b in blocks:
        part = b & free
        overlap |= seen & part
        seen |= part
    parts = [b & free & ~overlap for b in blocks]
    if not all(parts):
        return None
    place = 0
    elim = overlap & cand
    attack = geo.attack
    for b, part in zip(blocks, parts):
        elim |= b & cand & ~part
        if part.bit_count() == 1:
            place |= part
        common = cand
        p = part
        while p and common:
            low = p & -p
            common &= attack[low.bit_length() - 1]
            p ^= low
        elim |= common
    # units holding whole parts get a star from each: when that is all they need, the rest is empty
    union_parts = 0
    for p in parts:
        union_parts |= p
    for u, m in enumerate(geo.unit_mask):
        if needs[u] <= 0 or not m & union_parts:
            continue
        inside = 0
        count = 0
        for p in parts:
            if p & m == p:
                count += 1
                inside |= p
        if count and count == needs[u]:
            elim |= cand & m & ~inside
    elim &= ~place
    if not (place or elim):
        return None
    return blocks, place, elim


def _block_step(state, name, cost, area_units, need, result) -> Step:
    geo = state.geo
    blocks, place, elim = result
    names = geo.names(area_units)
    what = join_names(names) if len(names) > 1 else names[0]
    why = (f"the free cells of {what} fit in {len(blocks)} 2x2 blocks and {what} "
           f"{'need' if len(names) > 1 else 'needs'} {stars_text(need)}, so each block holds exactly one")
    if place:
        return place_step(state, name, cost, place, elim, area_units, why)
    return Step(name, cost, (), cells_of(elim & state.cand), names, why)


def find_2x2_bound(state: StarState, name: str, cost: int) -> Step | None:
    geo = state.geo
    needs = state.needs()
    for u in regions_first(geo):
        need = needs[u]
        if need < 2:
            continue
        result = _block_deductions(state, geo.unit_mask[u], need, needs)
        if result is not None:
            return _block_step(state, name, cost, (u,), need, result)
    return None


def find_squeeze(state: StarState, name: str, cost: int) -> Step | None:
    geo = state.geo
    n = geo.n
    needs = state.needs()
    for base in (0, n):
        for i in range(n - 1):
            a, b = base + i, base + i + 1
            need = needs[a] + needs[b]
            if needs[a] <= 0 or needs[b] <= 0:
                continue
            result = _block_deductions(state, geo.unit_mask[a] | geo.unit_mask[b], need, needs)
            if result is not None:
                return _block_step(state, name, cost, (a, b), need, result)
    return None

