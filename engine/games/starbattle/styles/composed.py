"""The composed style: regions drawn the way people draw boards in a level builder.

Hand-drawn Queens boards (calibration: 294 of them, bench/bench_shape_classifier.py) have a large
background region holding the others (about 29% of the board), compact geometric pieces (bars,
rectangles, L, T, plus shapes), some diagonal staircases, concentric rings or a spiral, and boundaries
that mirror each other left to right. The answer comes first, as in every style: each piece is placed
around one of its stars and must hold no other; the background is what is left around its own star.

One-star boards only (Queens, with or without the diagonal rule).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from engine.core.regions import UNASSIGNED, region_sizes
from engine.games.starbattle import likeness
from engine.games.starbattle.shape import measure
from engine.games.base import Gates
from engine.games.starbattle.count import new_search
from engine.games.starbattle.gates import gates_for
from engine.games.starbattle.rules import Rules
from engine.games.starbattle.styles._composed import absorb, carve, cut_paths, pieces, tune_moves
from engine.games.starbattle.styles.composed_fit import LIKENESS

NAME = "composed"
TUNE_STEPS = 4         # boundary nudges per row after repair
ABSORB = 1.0                # free cells go to a neighbour with odds of its size to this power
REGROW = 0.85               # share of tiny or straight regions left by repair that tuning regrows
THIN = 0.8                  # share of a piece's parts drawn as one-cell-wide bars
TRIES = 6                   # attempts inside one draw before giving the drawing up
# Layouts and how often each is drawn (about the mix of the hand-drawn corpus).
LAYOUTS = (("pieces", 0.5), ("rings", 0.1), ("staircase", 0.1), ("spiral", 0.05), ("corner", 0.2),
           ("stripes", 0.05))


def available(rules: Rules) -> bool:
    return rules.stars == 1


def draw(rules: Rules, answer: tuple[int, ...], rng: random.Random, *, spread: float = 0.5,
         gifts: int = 0) -> list[int] | None:
    """Regions for `answer` in the composed look, or None when no try found one (`spread` and `gifts`
    are the organic style's knobs; a composed board has neither)."""
    n = rules.size
    kinds, weights = zip(*LAYOUTS)
    for _ in range(TRIES):
        regions = [UNASSIGNED] * (n * n)
        for label, cell in enumerate(answer):
            regions[cell] = label
        kind = rng.choices(kinds, weights)[0]
        if kind == "rings":
            depth = rng.randint(1, max(1, (n - 3) // 2))
            _cut_paths(n, regions, answer, [_ring(n, d) for d in range(depth)], rng)
        elif kind == "staircase":
            _cut_paths(n, regions, answer, _staircase(n, rng), rng)
        elif kind == "spiral":
            _cut_paths(n, regions, answer, [[c for d in range((n + 1) // 2) for c in _ring(n, d)]], rng)
        elif kind == "corner":
            bands = _corner_bands(n, rng)
            _cut_paths(n, regions, answer, bands[:rng.randint(max(1, len(bands) // 2), len(bands))], rng)
        elif kind == "stripes":
            stripes = _stripes(n, rng)
            _cut_paths(n, regions, answer, rng.sample(stripes, rng.randint(1, max(1, len(stripes) // 2))), rng)
        if kind not in ("spiral", "staircase"):
            _pieces(n, regions, answer, rng)
        _absorb(n, regions, rng)
        _carve(n, regions, answer, rng)
        if UNASSIGNED not in regions and min(region_sizes(regions, n)) >= 2:
            return regions
    return None


# ---- pieces around a background ------------------------------------------------------------------

def _pieces(n: int, regions: list[int], answer: tuple[int, ...], rng: random.Random) -> None:
    """Place a geometric piece around each star not yet in a region, one star kept for the background
    (the free cells around it); a piece's mirror image is taken by the star inside it when it can.
    Compiled (styles/_composed.pyx, pieces), drawing from `rng` in a fixed order, so a seed keeps its board."""
    pieces(n, regions, answer, rng, THIN)


# ---- paths cut at the stars: rings, staircases, spirals ------------------------------------------

@cache
def _ring(n: int, d: int) -> tuple[int, ...]:
    """The cells of ring `d` (d cells in from the edge) in order round it, from its top-left corner."""
    low, high = d, n - 1 - d
    if low == high:
        return (low * n + low,)
    top = [low * n + c for c in range(low, high + 1)]
    right = [r * n + high for r in range(low + 1, high + 1)]
    bottom = [high * n + c for c in range(high - 1, low - 1, -1)]
    left = [r * n + low for r in range(high - 1, low, -1)]
    return tuple(top + right + bottom + left)


def _staircase(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Bands two diagonals wide (anti-diagonals, or diagonals when mirrored), each cell listed so that
    neighbours in the list share an edge: a staircase."""
    flip = rng.random() < 0.5
    start = rng.randrange(2)
    return _staircase_paths(n, flip, start)


@cache
def _staircase_paths(n: int, flip: bool, start: int) -> tuple[tuple[int, ...], ...]:
    """_staircase's bands once drawn (geometry alone: the same for every board of the size)."""
    paths = []
    for s in range(start - 1, 2 * n - 1, 2):
        band = [(r, c) for r in range(n) for c in range(n) if r + c in (s, s + 1)]
        band.sort(key=lambda rc: rc[0] - rc[1])
        paths.append(tuple(r * n + (n - 1 - c if flip else c) for r, c in band))
    return tuple(paths)


def _corner_bands(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Nested L-shaped bands around one corner (one or two cells wide), outermost first, each listed
    end to end along the L."""
    width = rng.choice((1, 1, 2))
    flip_r, flip_c = rng.random() < 0.5, rng.random() < 0.5
    return _corner_paths(n, width, flip_r, flip_c)


@cache
def _corner_paths(n: int, width: int, flip_r: bool, flip_c: bool) -> tuple[tuple[int, ...], ...]:
    """_corner_bands' bands once drawn (geometry alone: the same for every board of the size)."""
    paths = []
    for low in range(n - 1, -1, -width):
        band = [(r, c) for r in range(n) for c in range(n) if low - width < max(r, c) <= low]
        # along the L: down the column part, then along the row part, outer line first
        band.sort(key=lambda rc: (rc[0] - rc[1]) if rc[1] >= rc[0] else (rc[0] - rc[1]))
        band.sort(key=lambda rc: rc[1] - rc[0])
        paths.append(tuple((n - 1 - r if flip_r else r) * n + (n - 1 - c if flip_c else c) for r, c in band))
    return tuple(paths)


def _stripes(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Straight bands across the board (rows or columns, one or two cells wide), each listed so that
    neighbours in the list share an edge (a two-wide band snakes)."""
    width = rng.choice((1, 1, 2))
    across = rng.random() < 0.5
    return _stripe_paths(n, width, across)


@cache
def _stripe_paths(n: int, width: int, across: bool) -> tuple[tuple[int, ...], ...]:
    """_stripes' bands once drawn (geometry alone: the same for every board of the size)."""
    paths = []
    for low in range(0, n - width + 1, width):
        band = [(low + w, c) if (c % 2 == 0 or width == 1) else (low + width - 1 - w, c)
                for c in range(n) for w in range(width)]
        paths.append(tuple((c * n + r) if across else (r * n + c) for r, c in band))
    return tuple(paths)


def _cut_paths(n: int, regions: list[int], answer: tuple[int, ...], paths: Sequence[Sequence[int]],
               rng: random.Random) -> None:
    """Cut each path (split first where neighbours in it do not share an edge) between its stars, at a
    random point of each gap, each piece going to its star's region; pieces with no star stay free.
    Compiled (styles/_composed.pyx, cut_paths), drawing from `rng` in a fixed order, so a seed keeps its board."""
    cut_paths(n, regions, answer, paths, rng)


# ---- finishing ------------------------------------------------------------------------------------

def _absorb(n: int, regions: list[int], rng: random.Random) -> None:
    """Give the free cells to the background (the largest neighbouring region) pocket by pocket, so
    what is left between the pieces becomes background, not ragged growth: each free cell beside a
    region goes to a tiny one (published boards have few), else to one drawn with odds of its size to
    the power ABSORB (compiled)."""
    absorb(n, regions, rng, ABSORB)


def _carve(n: int, regions: list[int], answer: tuple[int, ...], rng: random.Random) -> None:
    """Cut corridors into the largest region: hand a straight run of its cells, from its edge to one
    of its interior cells, to the region beyond that edge, until its interior is down to what the
    corpus shows (about a tenth of its cells; a drawn background is a blob, a hand-drawn one a web).
    Compiled; a map with free cells left is not carved."""
    if UNASSIGNED in regions:
        return
    carve(n, regions, answer, rng)




# ---- the look: score, gate, tuning ---------------------------------------------------------------

# Bounds fitted on the hand-drawn corpus (294 boards, 6x6 to 18x18; bench/bench_gates.py --style
# composed): each is about its 1st or 99th percentile, size-normalised, so that the gate (score >= 70)
# passes at least 95% of the corpus at every size with 20+ boards.
BOUNDS = {
    "singles": 2,             # single-cell regions (a free first move): the corpus has up to 3
    "tiny_per_n": 0.7,        # regions of at most 3 cells, per row
    "straight_per_n": 0.7,    # bars (one row or column), per row
    "interior_per_n": 0.26,   # cells inside their region's four neighbours, per n * n
    "boundary_per_n": 0.5,    # region boundary edges, per n * n (fewer: fat blobs)
    "largest_share": 0.15,    # the largest region's share of the board (less: no background)
    "mirrored": 0.3,          # mirrored vertical boundary bits
    "corners_per_n": 1.45,    # outline corners per region, per row (more: ragged)
    "geometric": 0.25,        # regions with at most 8 corners
}
MIN_SCORE = 70


def penalties(rules: Rules, regions: Sequence[int], bounds: dict[str, float] | None = None) -> dict[str, int]:
    """Each way the map leaves the range of hand-drawn boards, and what it costs (25-30 at a bound's
    first step past it, about; 0 inside). `bounds`: another style's own (default BOUNDS)."""
    n = rules.size
    shape, seen = measure(n, regions)
    b = BOUNDS if bounds is None else bounds
    return {
        "singles": 25 * max(0, sum(size == 1 for size in shape.sizes) - b["singles"]),
        "tiny": round(300 * max(0.0, shape.tiny / n - b["tiny_per_n"])),
        "straight": round(300 * max(0.0, shape.straight / n - b["straight_per_n"])),
        "blobby": round(400 * max(0.0, shape.interior_per_row / n - b["interior_per_n"])),
        "compact": round(300 * max(0.0, b["boundary_per_n"] - shape.boundary_per_row / n)),
        "no-background": round(400 * max(0.0, b["largest_share"] - seen.largest_share)),
        "unmirrored": round(400 * max(0.0, b["mirrored"] - seen.mirrored)),
        "ragged": round(300 * max(0.0, seen.corners_per_row / n - b["corners_per_n"])),
        "organic": round(200 * max(0.0, b["geometric"] - seen.geometric)),
    }


def score(rules: Rules, regions: Sequence[int]) -> int:
    """100 minus the penalties: how far the map stays within the range of hand-drawn boards."""
    return max(0, 100 - sum(penalties(rules, regions).values()))


def gates(rules: Rules) -> Gates:
    """Fun as every one-star board (gates_for); shape on this style's score, fitted on hand-drawn boards."""
    return Gates(min_fun=gates_for(rules).min_fun, min_shape=MIN_SCORE)


def tune(rules: Rules, regions: list[int], answer: tuple[int, ...], rng: random.Random,
         steps: int, drawn: Sequence[int], *, deadline: float = 0.0) -> list[int]:
    """Nudge boundary cells after repair (which moves single cells and roughens pieces): a non-star
    cell moves into a neighbouring region when that removes outline corners, mirrors a boundary or
    grows a tiny region out of a large one, the region it leaves stays one piece, and the board stays
    unique. Returns the tuned regions. (`drawn` is not read: the composed look is the same whatever
    the drawing was.)

    First each region repair left tiny (3 cells or fewer) or straight is grown back to a piece, with
    odds REGROW, a cell at a time from a neighbour of 6+ cells that stays one piece, while the board
    stays unique (hand-drawn boards have about half as many tiny regions and bars as repair leaves).
    Compiled (styles/_composed.pyx, tune_moves), one search serving every check. Raises
    DeadlineExceeded when `deadline` (on `monotonic()`; 0 for none) passes first."""
    regions = list(regions)
    tune_moves(rules.size, regions, answer, rng, steps, new_search(rules, regions), REGROW, deadline)
    return regions


def keep(rules: Rules, regions: Sequence[int], rng: random.Random, drawn: bool) -> bool:
    """Keep a finished map as often as hand-drawn boards look like it (the fitted likeness, at the sizes
    with 20+ hand-drawn boards: 6x6 to 11x11)."""
    return likeness.keep(LIKENESS[1], rules.size, regions, rng, drawn)


def repair_keep(rules: Rules) -> int:
    """Repair should not whittle a piece below 4 cells: hand-drawn boards have few tiny regions."""
    return 4


__all__ = ["NAME", "available", "draw", "gates", "keep", "repair_keep", "score", "tune"]
