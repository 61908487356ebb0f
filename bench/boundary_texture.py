"""The texture of a region map's boundaries: how its boundary edges meet and run.

A second family of features for bench/bench_shape_classifier.py, beside the region-shape one (sizes,
tiny and straight regions, perimeter, fill, the look): it never looks at a region as a whole, only at
the lines between regions, so a drawing fitted to the region-shape family is not fitted to it. All are
size-normalised, so boards of one size compare on the same scale.

- junctions: of the (n - 1)^2 inner lattice points, the share where no boundary passes, where one runs
  straight through, where one turns, where three boundary edges meet (T) and where four do (X);
- border: the share of the 4 (n - 1) points along the board's edge where a boundary meets it;
- runs: maximal straight runs of boundary edges (collinear, whatever crosses them): how many per row,
  their mean length / n, the share of length 1 (steps of a staircase), of length 2, and of n / 2 and
  more, the longest / n;
- turns: turning points per boundary edge, and the share of turns whose diagonal neighbour also turns
  the other way (a staircase);
- floating: outlines that never touch the board's edge (figures inside a background, frames), per row;
- symmetry: the share of boundary edges whose image is a boundary edge too, under the left-right
  mirror, the up-down mirror, the half turn, the transpose and the other diagonal's mirror, and the
  largest of the five;
- density: boundary edges / the 2 n (n - 1) inner edges.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

NAMES = ("blank", "straight", "turn", "tee", "cross", "border", "runs_per_row", "run_mean", "run_1",
         "run_2", "run_long", "run_max", "turns_per_edge", "stairs", "floating", "mirror_lr",
         "mirror_ud", "half_turn", "transpose", "anti_transpose", "symmetry_max", "density")


def _edges(n: int, regions: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """V[r, c]: a boundary between cells (r, c) and (r, c + 1); H[r, c]: between (r, c) and (r + 1, c)."""
    grid = np.asarray(regions).reshape(n, n)
    return grid[:, :-1] != grid[:, 1:], grid[:-1, :] != grid[1:, :]


def _runs(bits: np.ndarray) -> list[int]:
    """Lengths of the maximal runs of True along each row of `bits`."""
    out = []
    for line in bits:
        length = 0
        for bit in line:
            if bit:
                length += 1
            elif length:
                out.append(length)
                length = 0
        if length:
            out.append(length)
    return out


def _floating(n: int, v: np.ndarray, h: np.ndarray) -> int:
    """Connected pieces of the boundary (edges joined at lattice points) that never reach the board's
    edge."""
    parent = list(range((n + 1) * (n + 1)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a: int, b: int) -> None:
        parent[find(a)] = find(b)

    used = set()
    for r, c in zip(*np.nonzero(v)):          # the segment (r, c + 1) - (r + 1, c + 1)
        a, b = r * (n + 1) + c + 1, (r + 1) * (n + 1) + c + 1
        join(a, b)
        used.update((a, b))
    for r, c in zip(*np.nonzero(h)):          # the segment (r + 1, c) - (r + 1, c + 1)
        a, b = (r + 1) * (n + 1) + c, (r + 1) * (n + 1) + c + 1
        join(a, b)
        used.update((a, b))
    touching = {find(p) for p in used if p // (n + 1) in (0, n) or p % (n + 1) in (0, n)}
    return len({find(p) for p in used} - touching)


def texture(n: int, regions: Sequence[int]) -> dict[str, float]:
    """The boundary texture of a map (`regions`: flat, n * n labels), by NAMES."""
    v, h = _edges(n, regions)
    edges = int(v.sum() + h.sum())
    # the four edges at inner lattice point (i, j), 1 <= i, j <= n - 1
    # each (n - 1) x (n - 1), index [i - 1, j - 1]: up = v[i - 1, j - 1], down = v[i, j - 1],
    # left = h[i - 1, j - 1], right = h[i - 1, j]
    up, down = v[:-1, :], v[1:, :]
    left, right = h[:, :-1], h[:, 1:]
    degree = up.astype(int) + down + left + right
    straight = (degree == 2) & ((up & down) | (left & right))
    turn = (degree == 2) & ~straight
    inner = (n - 1) ** 2
    border = int(v[0].sum() + v[-1].sum() + h[:, 0].sum() + h[:, -1].sum())
    runs = _runs(v.T) + _runs(h)              # vertical runs down each column line, horizontal along rows
    runs_arr = np.array(runs, dtype=float) if runs else np.zeros(1)
    # a staircase: a turn whose diagonal neighbour turns too, the two making a step
    stairs = 0
    turning = np.argwhere(turn)
    turn_set = {(int(i), int(j)) for i, j in turning}
    for i, j in turn_set:
        if any((i + di, j + dj) in turn_set for di, dj in ((1, 1), (1, -1), (-1, 1), (-1, -1))):
            stairs += 1
    images = {
        "mirror_lr": (v[:, ::-1], h[:, ::-1]),
        "mirror_ud": (v[::-1, :], h[::-1, :]),
        "half_turn": (v[::-1, ::-1], h[::-1, ::-1]),
        "transpose": (h.T, v.T),
        "anti_transpose": (h[::-1, ::-1].T, v[::-1, ::-1].T),
    }
    out = {
        "blank": float((degree == 0).sum()) / inner,
        "straight": float(straight.sum()) / inner,
        "turn": float(turn.sum()) / inner,
        "tee": float((degree == 3).sum()) / inner,
        "cross": float((degree == 4).sum()) / inner,
        "border": border / (4 * (n - 1)),
        "runs_per_row": len(runs) / n,
        "run_mean": float(runs_arr.mean()) / n,
        "run_1": float((runs_arr == 1).mean()),
        "run_2": float((runs_arr == 2).mean()),
        "run_long": float((runs_arr >= n / 2).mean()),
        "run_max": float(runs_arr.max()) / n,
        "turns_per_edge": float(turn.sum()) / max(1, edges),
        "stairs": stairs / max(1, len(turn_set)),
        "floating": _floating(n, v, h) / n,
        "density": edges / (2 * n * (n - 1)),
    }
    for name, (iv, ih) in images.items():
        out[name] = float((v & iv).sum() + (h & ih).sum()) / max(1, edges)
    out["symmetry_max"] = max(out[name] for name in images)
    return {name: out[name] for name in NAMES}


def vector(n: int, regions: Sequence[int]) -> list[float]:
    values = texture(n, regions)
    return [values[name] for name in NAMES]


__all__ = ["NAMES", "texture", "vector"]
