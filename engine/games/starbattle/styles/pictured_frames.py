"""Concentric frames for the pictured style's large boards: one-cell-wide rings along the board's edge,
each cut in two, around a smaller picture.

Some published large Queens boards are designs rather than pieces fitted together: a region runs one
cell wide along the edge, a second inside it, the figure in the middle. Measured with `frame_rings`
(a frame: a region of n+ cells with 70%+ of them in one ring, covering 40%+ of that ring; a design:
two frames, or one inside the outer ring) on the shared daily boards and the hand-drawn corpus, pooled
(the daily 11x11 boards are only 14): 10x10 12 of 61 boards have a frame, 4 a design; 11x11 9 of 62
and 3. SHARE is the share of *drawings* made framed; the generator's boards hold far more of them
(a framed drawing comes through repair, the gates and the likeness more often than an ordinary one,
and a board takes many drawings), so it is set by the boards' shares (bench/bench_designs.py measures both, BENCHMARKS.md). The pictured style's ordinary drawing makes the rest, its background along
the edge giving most of the other frames.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

SHARE = {10: 0.005, 11: 0.05}      # drawings made inside concentric frames, by size
DEPTHS = (1, 2)                    # rings drawn ...
DEPTH_ODDS = (0.7, 0.3)            # ... and how often


def ring(n: int, depth: int) -> list[int]:
    """The cells `depth` steps in from the edge, clockwise from the ring's top-left corner."""
    low, high = depth, n - 1 - depth
    top = [(low, c) for c in range(low, high + 1)]
    right = [(r, high) for r in range(low + 1, high + 1)]
    bottom = [(high, c) for c in range(high - 1, low - 1, -1)]
    left = [(r, low) for r in range(high - 1, low, -1)]
    return [r * n + c for r, c in top + right + bottom + left]


def _cut(cells: Sequence[int], sigma: Sequence[int], rng: random.Random) -> int:
    """Where to cut a ring in two halves (the first half starts there) so that the halves are the
    symmetry's images of each other or each its own (ties at random)."""
    length = len(cells)
    best, best_offsets = -1, []
    for offset in range(length):
        half = {cells[(offset + i) % length] for i in range(length // 2)}
        same = sum((cell in half) == (sigma[cell] in half) for cell in cells)
        score = max(same, length - same)
        if score > best:
            best, best_offsets = score, [offset]
        elif score == best:
            best_offsets.append(offset)
    return rng.choice(best_offsets)


def framed(n: int, sigma: Sequence[int], rng: random.Random,
           inner: Callable[[int], list[int] | None]) -> list[int] | None:
    """n regions: 1 or 2 one-cell-wide rings from the edge in, each cut into two regions (mirror
    images under the picture's symmetry `sigma` where a cut allows), around `inner(m)`, a picture of m
    regions on the m x m middle; None when that picture failed."""
    depth = rng.choices(DEPTHS, DEPTH_ODDS)[0]
    size = n - 2 * depth
    middle = inner(size)
    if middle is None:
        return None
    regions = [0] * (n * n)
    for r in range(size):
        for c in range(size):
            regions[(r + depth) * n + c + depth] = middle[r * size + c] + 2 * depth
    for step in range(depth):
        cells = ring(n, step)
        offset = _cut(cells, sigma, rng)
        for i, cell in enumerate(cells):
            regions[cell] = 2 * step + (0 if (i - offset) % len(cells) < len(cells) // 2 else 1)
    return regions


def frame_rings(n: int, regions: Sequence[int]) -> list[int]:
    """The rings (0: the edge) holding a frame: a region of n+ cells, 70%+ of them in that ring,
    covering 40%+ of it."""
    cells_of: dict[int, list[int]] = {}
    for cell, label in enumerate(regions):
        cells_of.setdefault(label, []).append(cell)
    found = []
    for cells in cells_of.values():
        depth, inside = Counter(min(r, c, n - 1 - r, n - 1 - c) for r, c in (divmod(cell, n) for cell in cells)
                                ).most_common(1)[0]
        length = max(1, 4 * (n - 2 * depth) - 4)
        if len(cells) >= n and inside >= 0.7 * len(cells) and inside >= 0.4 * length:
            found.append(depth)
    return sorted(found)


def is_design(n: int, regions: Sequence[int]) -> bool:
    """Two frames, or one inside the edge ring: a map drawn as concentric frames."""
    rings = frame_rings(n, regions)
    return len(rings) >= 2 or any(depth >= 1 for depth in rings)


__all__ = ["DEPTHS", "DEPTH_ODDS", "SHARE", "frame_rings", "framed", "is_design", "ring"]
