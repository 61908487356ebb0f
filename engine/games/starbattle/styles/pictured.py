"""The pictured style: regions drawn as a symmetric picture, as the daily Queens boards people play are.

The daily boards (calibration: ../shared/calibration/queens-linkedin-odd.jsonl) are pictures: a
background holding figures and frames, often mirrored left to right (sometimes up-down, or turned a
half turn), the symmetry broken only where the unique answer needs it. So this style draws the picture
first and finds the answer in it, where the other styles draw around a planted answer:

1. pick a symmetry (left-right, up-down, half turn, or none) with the fitted odds for the size;
2. grow n regions on it: a background (its share of the board drawn from the fitted distribution)
   and pieces of drawn target sizes, each either its own mirror image or one of a mirrored pair;
   cells are taken an orbit at a time (a cell with its image), compact cells first, so that pieces
   come out as bars, blocks and frames; most pictures are framed (FRAMED): the background starts on
   the board's edge and runs along it, the pieces start inside, so that few boundaries end at the
   edge and the frame gives long straight lines; blobs are then carved into corridors (thin pieces);
3. take a random answer of that map (one star per row, column and region, none touching); a map
   without one is given up;
4. the generator's repair then moves cells until that answer is the only one: a symmetric map always
   has the answer's mirror image as a second solution, so repair breaks the symmetry, and only there;
   tune then gives repair's moves back to the picture where the answer stays the only one (which
   keeps every symmetry the picture had, a second one too) and mends the drawn symmetry.

The picture is drawn by compiled code (_pictured.pyx), from the same generator as the pure-Python
drawing (picture_reference, the same picture with the frame off).

One-star boards only. The few numbers drawn per size are fitted on the daily boards
(pictured_params.py, bench/fit_pictured.py); the likeness (pictured_fit.py, bench/fit_likeness.py)
then keeps the finished maps as often as the daily boards look like them, in region shape and then in
boundary texture (the texture likeness, TEXTURE: edge endings, straight runs, junctions, symmetries).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from engine.core.grid import orthogonal_neighbours
from engine.core.regions import is_connected
from engine.games.base import Gates
from engine.games.starbattle import likeness
from engine.games.starbattle.count import monotonic, new_search, only_solution
from engine.games.starbattle.rules import Rules
from engine.games.starbattle.styles._pictured import (picture as _draw, relabel as _relabel, symmetry_of as _symmetry_of,
                                                      texture as _texture)
from engine.games.starbattle.styles.composed import BOUNDS as COMPOSED_BOUNDS
from engine.games.starbattle.styles.composed import penalties as composed_penalties
from engine.games.starbattle.styles import pictured_frames
from engine.games.starbattle.styles.pictured_fit import LIKENESS, TEXTURE
from engine.games.starbattle.styles.pictured_params import PARAMS
from engine.games.starbattle.styles.pictured_types import Params

NAME = "pictured"
CALIBRATION = "queens-linkedin-odd.jsonl"      # what PARAMS and LIKENESS are fitted on
# bench/fit_likeness.py's arguments for LIKENESS (bench/bench_shape_classifier.py --honest refits with them)
FIT = {"boards": 300, "rounds": 4, "quantile": 0.85, "strength": 0.25, "min_boards": 10, "pooled": True}
PLANTS = True              # draws its own answer: draw_planted, not draw
TUNE_STEPS = 8              # symmetry mends tried per row after repair
TRIES = 4                  # pictures tried inside one drawing before giving it up
ANSWER_NODES = 5_000       # search nodes for the picture's random answer (found in tens when one exists)
PAIR_SHARE = 0.5           # share of the pieces drawn as a mirrored pair rather than their own image
COMPACT = 1.0              # a free cell's weight for a piece: its neighbours in the piece to this power
BACKGROUND_COMPACT = -2.0  # ... for the background: negative, so it runs thin between the pieces
BLOCKS = 0.7               # share of pictures drawn as compact blocks kept apart on a background
BLOCK_COMPACT = 6.0        # a block's compactness power (near rectangles)
GAP = 0.05                 # weight of a cell touching another piece (pieces keep apart)
UNASSIGNED = -1
CARVE_INTERIOR = 0.2        # interior cells per row the carving stops at (daily boards: about 0.3-0.5;
                            # lower here, as repair gives some back)
CARVE_TRIES = 60            # corridors tried per picture
MIN_PIECE = 3              # cells a piece is drawn with at least
SYMMETRIES = ("lr", "ud", "half", "diag", "anti")
RESTORE = 1.0              # tries at giving repair's moves back to the picture, per symmetry mend
FRAMED = 0.8               # share of pictures drawn framed: the background along the board's edge
FRAME = 20.0               # ... its growth weight for a cell on the edge (pieces start inside the frame)
KEEP_CELLS = 2             # a mend leaves every region at least this many cells: single cells come from the picture or repair


def available(rules: Rules) -> bool:
    return rules.stars == 1


def fitted(rules: Rules) -> bool:
    """Whether these are the daily boards' rules (Queens without the diagonal rule) at a size its
    numbers were fitted on: the rules it is the default for."""
    return available(rules) and not rules.diagonals and rules.size in PARAMS


def params(n: int) -> Params:
    """The fitted numbers for size n (the nearest fitted size beyond the daily boards' sizes)."""
    if n in PARAMS:
        return PARAMS[n]
    return PARAMS[min(PARAMS, key=lambda size: (abs(size - n), size))]


def draw(rules: Rules, answer: tuple[int, ...], rng: random.Random, *, spread: float = 0.5,
         gifts: int = 0) -> list[int] | None:
    """Not used: this style finds its answer in its own picture (draw_planted)."""
    raise NotImplementedError("the pictured style draws its own answer: call draw_planted")


def draw_planted(rules: Rules, rng: random.Random, *, spread: float = 0.5, gifts: int = 0,
                 deadline: float = 0.0) -> tuple[list[int], tuple[int, ...]] | None:
    """A symmetric picture of n regions and a random answer of it, or None when no try found both.
    `spread` widens the pieces' size spread (the generator steers bands with it); `gifts` is not
    used (daily boards have no single-cell regions)."""
    n = rules.size
    fitted = params(n)
    for _ in range(TRIES):
        kind = rng.choices(fitted.symmetries, fitted.symmetry_odds)[0]
        if n in pictured_frames.SHARE and rng.random() < pictured_frames.SHARE[n]:
            regions = pictured_frames.framed(n, image(n, kind), rng,
                                             lambda size: picture(size, kind, params(size), spread, rng))
        else:
            regions = picture(n, kind, fitted, spread, rng)
        if regions is None:
            continue
        answer = new_search(rules, regions).random_solution(rng.getrandbits(64), deadline, ANSWER_NODES)
        if answer is not None:
            return regions, answer
        if deadline and monotonic() > deadline:
            return None
    return None


# ---- the picture ------------------------------------------------------------------------------------

@cache
def image(n: int, kind: str) -> tuple[int, ...]:
    """Each cell's image under the symmetry `kind` (none: itself)."""
    def cell(r: int, c: int) -> int:
        if kind == "lr":
            return r * n + (n - 1 - c)
        if kind == "ud":
            return (n - 1 - r) * n + c
        if kind == "half":
            return (n - 1 - r) * n + (n - 1 - c)
        if kind == "diag":
            return c * n + r
        if kind == "anti":
            return (n - 1 - c) * n + (n - 1 - r)
        return r * n + c
    return tuple(cell(i // n, i % n) for i in range(n * n))


def _draw_quantile(values: Sequence[float], rng: random.Random) -> float:
    """A draw from the distribution whose quantiles (evenly spaced, 0 to 1) are `values`."""
    at = rng.random() * (len(values) - 1)
    low = int(at)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (at - low)


def picture(n: int, kind: str, fitted: Params, spread: float, rng: random.Random, *,
            frame: float | None = None) -> list[int] | None:
    """n regions, symmetric under `kind` but where growth could not keep it, or None when a piece
    found no seed. Label 0 is the background. Compiled (_pictured.pyx); with `frame` 0 it draws what
    picture_reference draws from the same generator, cell for cell."""
    if frame is None:
        frame = FRAME if FRAMED and rng.random() < FRAMED else 0.0
    return _draw(n, kind, image(n, kind), fitted.largest, fitted.spread, spread, rng, PAIR_SHARE,
                 COMPACT, BACKGROUND_COMPACT, BLOCKS, BLOCK_COMPACT, GAP, MIN_PIECE,
                 CARVE_INTERIOR, CARVE_TRIES, frame)


def picture_reference(n: int, kind: str, fitted: Params, spread: float, rng: random.Random) -> list[int] | None:
    """The pure-Python drawing (picture with the frame off): n regions, symmetric under `kind` but
    where growth could not keep it, or None when a piece found no seed. Label 0 is the background."""
    sigma = image(n, kind)
    neighbours = orthogonal_neighbours(n)
    cells = n * n
    regions = [UNASSIGNED] * cells
    partner: list[int] = []          # each label's image: itself (self-symmetric), its pair, or -1 (free)

    def centred(cell: int) -> bool:
        """Whether a region seeded here can be its own image and one piece."""
        twin = sigma[cell]
        return twin == cell or twin in neighbours[cell]

    def free_seeds(spaced: bool) -> list[int]:
        return [cell for cell in range(cells) if regions[cell] == UNASSIGNED
                and (not spaced or all(regions[nb] == UNASSIGNED for nb in neighbours[cell]))]

    def claim(cell: int, label: int) -> None:
        regions[cell] = label
        twin = sigma[cell]
        other = partner[label]
        if other >= 0 and twin != cell and regions[twin] == UNASSIGNED:
            regions[twin] = other

    # the background first: its own image when the symmetry allows (a centred seed), else free
    background_share = _draw_quantile(fitted.largest, rng)
    seeds = [cell for cell in free_seeds(False) if centred(cell)] if kind != "none" else []
    if kind == "half" and not seeds:         # even n: the centre block is its own image, one piece
        partner.append(0)
        for r in (n // 2 - 1, n // 2):
            for c in (n // 2 - 1, n // 2):
                regions[r * n + c] = 0
    else:
        partner.append(0 if seeds else -1)
        claim(rng.choice(seeds or free_seeds(False)), 0)
    # the pieces: n - 1 labels, as mirrored pairs or their own images
    units: list[int] = []            # the label that grows for each piece (a pair grows through its first)
    while len(partner) < n:
        label = len(partner)
        spaced = free_seeds(True) or free_seeds(False)
        if not spaced:
            return None
        paired = (kind != "none" and n - label >= 2 and rng.random() < PAIR_SHARE)
        if paired:
            options = [cell for cell in spaced if sigma[cell] != cell and regions[sigma[cell]] == UNASSIGNED
                       and sigma[cell] not in neighbours[cell]]
            if options:
                partner.extend((label + 1, label))
                claim(rng.choice(options), label)
                units.append(label)
                continue
        centre = [cell for cell in spaced if centred(cell) and regions[sigma[cell]] == UNASSIGNED] \
            if kind != "none" else []
        partner.append(label if centre else -1)
        claim(rng.choice(centre or spaced), label)
        units.append(label)
    # blocks on a background (compact pieces kept apart), or pieces grown freely against each other
    blocks = rng.random() < BLOCKS
    compact, gap = (BLOCK_COMPACT, 0.0) if blocks else (COMPACT, GAP)
    # target sizes: the background's drawn share, the rest split with the drawn spread
    rest = cells * (1 - background_share)
    spread_now = max(0.0, _draw_quantile(fitted.spread, rng) * (1 + spread - 0.325))   # 0.325: no band
    copies = {u: 2 if partner[u] not in (u, -1) else 1 for u in units}
    weights = [max(0.2, rng.gauss(1.0, spread_now)) * copies[u] for u in units]
    total = sum(weights)
    targets = {u: max(MIN_PIECE, round(rest * w / total / copies[u])) for u, w in zip(units, weights)}
    targets[0] = max(1, round(cells * background_share / (1 if partner[0] == -1 else 1)))
    members = {u: [cell for cell in range(cells) if regions[cell] == u] for u in [0] + units}

    def fits(cell: int, unit: int) -> bool:
        """Whether `unit` may take this free cell (and its image) keeping the picture symmetric and
        each region one piece."""
        twin, other = sigma[cell], partner[unit]
        if other >= 0 and other != unit:      # a pair: the image must be free and touch the partner
            return (twin != cell and regions[twin] == UNASSIGNED and twin not in neighbours[cell]
                    and any(regions[nb] == other for nb in neighbours[twin]))
        if other == unit and twin != cell:    # its own image: the image must join it too
            return regions[twin] == UNASSIGNED and (twin in neighbours[cell]
                                                    or any(regions[nb] == unit for nb in neighbours[twin]))
        return True

    # grow every region, the one furthest from its target first (ties at random), a cell at a time
    growing = [0] + units
    while growing:
        unit = max(growing, key=lambda u: (targets[u] - len(members[u])) / targets[u] + rng.random() * 0.3)
        if len(members[unit]) >= targets[unit]:
            growing.remove(unit)
            continue
        options, weights_now = [], []
        for cell in {nb for member in members[unit] for nb in neighbours[member] if regions[nb] == UNASSIGNED}:
            if not fits(cell, unit):
                continue
            inside = sum(regions[nb] == unit for nb in neighbours[cell])
            # pieces keep apart, so the background runs between them as in a picture
            apart = gap if unit and any(regions[nb] not in (UNASSIGNED, 0, unit) for nb in neighbours[cell]) else 1.0
            options.append(cell)
            weights_now.append(inside ** (compact if unit else BACKGROUND_COMPACT) * apart)
        if not options or not sum(weights_now):
            growing.remove(unit)
            continue
        cell = rng.choices(sorted(options), [w for _, w in sorted(zip(options, weights_now))])[0]
        claim(cell, unit)
        for taken in (cell, sigma[cell]):
            if regions[taken] >= 0 and taken not in members.setdefault(regions[taken], []):
                members[regions[taken]].append(taken)
    # what is left goes to a neighbour that keeps the symmetry (the background first), else to any
    left = [cell for cell in range(cells) if regions[cell] == UNASSIGNED]
    while left:
        progress = False
        for cell in left:
            if regions[cell] != UNASSIGNED:
                continue
            touching = sorted({regions[nb] for nb in neighbours[cell] if regions[nb] != UNASSIGNED})
            keeping = [label for label in touching if fits(cell, label)]
            if keeping:
                claim(cell, 0 if 0 in keeping else rng.choice(keeping))
                progress = True
        left = [cell for cell in left if regions[cell] == UNASSIGNED]
        if not progress:
            for cell in left:
                touching = sorted({regions[nb] for nb in neighbours[cell] if regions[nb] != UNASSIGNED})
                if touching:
                    regions[cell] = rng.choice(touching)
            left = [cell for cell in left if regions[cell] == UNASSIGNED]
    _carve(n, regions, sigma, partner, rng)
    return regions


def _carve(n: int, regions: list[int], sigma: Sequence[int], partner: Sequence[int], rng: random.Random) -> None:
    """Cut corridors into blobs, with their images: hand a straight run of a region's cells, from one
    of its interior cells to its edge, to the region beyond that edge, while the board has more
    interior cells than CARVE_INTERIOR per row (the daily boards' regions are bars, frames and webs,
    not blobs). A cut that would split a region or break the picture's symmetry is not made."""
    neighbours = orthogonal_neighbours(n)
    steps = ((0, 1), (0, -1), (1, 0), (-1, 0))
    interior: list[int] = []
    changed = True
    for _ in range(CARVE_TRIES):
        if changed:
            interior = [cell for cell in range(n * n) if len(neighbours[cell]) == 4
                        and all(regions[nb] == regions[cell] for nb in neighbours[cell])]
            changed = False
        if len(interior) <= CARVE_INTERIOR * n:
            return
        start = rng.choice(interior)
        label = regions[start]
        dr, dc = rng.choice(steps)
        r, c = divmod(start, n)
        run = []
        while 0 <= r < n and 0 <= c < n and regions[r * n + c] == label:
            run.append(r * n + c)
            r, c = r + dr, c + dc
        if not (0 <= r < n and 0 <= c < n):
            continue                         # the run met the board's edge: nothing to hand it to
        to = regions[r * n + c]
        moves = {cell: to for cell in run}
        if partner[label] >= 0 and partner[to] >= 0:
            for cell in run:
                moves.setdefault(sigma[cell], partner[to])
        if any(regions[cell] != (label if moved == to else partner[label]) for cell, moved in moves.items()):
            continue
        before = {cell: regions[cell] for cell in moves}
        for cell, moved in moves.items():
            regions[cell] = moved
        touched = set(before.values()) | set(moves.values())
        if any(not is_connected(n, [cell for cell in range(n * n) if regions[cell] == was]) for was in touched) \
                or any(was not in regions for was in touched):
            for cell, was in before.items():
                regions[cell] = was
        else:
            changed = True


# ---- the look: score, gate, likeness ----------------------------------------------------------------

# The composed style's bounds, widened where the daily boards go beyond the hand-drawn ones (many tiny
# regions and bars at 7x7, a few regions that are neither bar nor L nor T, more outline corners), so
# that with the fun bar below 95%+ of the shared daily boards and of the hand-drawn corpus pass both
# gates at every size (bench/bench_gates.py --queens).
BOUNDS = {**COMPOSED_BOUNDS, "tiny_per_n": 0.86, "straight_per_n": 0.86, "corners_per_n": 1.65, "geometric": 0.0}
MIN_SCORE = 70
# Fun: the daily boards' 3rd percentile by size is 45-53, the hand-drawn 9x9's lowest 42 (the one-star
# gate, 55, turned away 7-14% of the daily boards: a hardest step past the middle of the solve, or no
# a-ha, is common in boards people play every day).
MIN_FUN = 42


def penalties(rules: Rules, regions: Sequence[int]) -> dict[str, int]:
    """Each way the map leaves the range of the daily and hand-drawn boards, and what it costs."""
    return composed_penalties(rules, regions, BOUNDS)


def score(rules: Rules, regions: Sequence[int]) -> int:
    """100 minus the penalties (composed's terms, with the bounds above)."""
    return max(0, 100 - sum(penalties(rules, regions).values()))


def gates(rules: Rules) -> Gates:
    """Fun and shape bars fitted on the daily boards and the hand-drawn corpus."""
    return Gates(min_fun=MIN_FUN, min_shape=MIN_SCORE)


def symmetry_of(n: int, regions: Sequence[int]) -> tuple[str, dict[int, int]]:
    """The symmetry a map was drawn under (the kind whose image maps most cells' labels one to one)
    and the label each label's cells map to ("none" and {} when no kind maps 90% of the cells).
    Compiled for maps labelled 0 to n - 1 (symmetry_of_reference otherwise)."""
    if all(0 <= label < n for label in regions):
        return _symmetry_of(n, regions, SYMMETRIES, tuple(image(n, kind) for kind in SYMMETRIES))
    return symmetry_of_reference(n, regions)


def symmetry_of_reference(n: int, regions: Sequence[int]) -> tuple[str, dict[int, int]]:
    """symmetry_of in Python."""
    best, best_share, best_pairs = "none", 0.9, {}
    for kind in SYMMETRIES:
        sigma = image(n, kind)
        votes: dict[int, dict[int, int]] = {}
        for cell, label in enumerate(regions):
            row = votes.setdefault(label, {})
            row[regions[sigma[cell]]] = row.get(regions[sigma[cell]], 0) + 1
        pairs = {label: max(row, key=row.get) for label, row in votes.items()}
        share = sum(votes[label][pairs[label]] for label in votes) / (n * n)
        if share > best_share:
            best, best_share, best_pairs = kind, share, pairs
    return best, best_pairs


def tune(rules: Rules, regions: list[int], answer: tuple[int, ...], rng: random.Random,
         steps: int, drawn: Sequence[int], *, deadline: float = 0.0) -> list[int]:
    """Mend the symmetry repair broke beyond what the answer needs: a cell whose label is not the image
    of its image's label takes that label, when both regions stay one piece and the answer stays the
    only one (at most `steps` tries; the drawing's symmetry is read from `drawn`). Raises
    DeadlineExceeded when `deadline` passes first."""
    n = rules.size
    regions = list(regions)
    if steps <= 0:
        return regions
    kind, pairs = symmetry_of(n, drawn)
    search = new_search(rules, regions)
    if RESTORE:         # first give back what repair moved: the picture's straight runs, frame and symmetries
        _relabel(n, regions, answer, rng, round(RESTORE * steps), search, deadline, tuple(drawn), (), {},
                 KEEP_CELLS, only_solution)
    if kind == "none":
        return regions
    # each cell the label its image's region pairs with (compiled: _pictured.relabel)
    return _relabel(n, regions, answer, rng, steps, search, deadline, None, image(n, kind), pairs,
                    KEEP_CELLS, only_solution)


def keep(rules: Rules, regions: Sequence[int], rng: random.Random, drawn: bool) -> bool:
    """Keep a finished map as often as the daily boards look like it (the fitted likeness, at the sizes
    with enough daily boards), then as often as their boundaries run as its do (the texture likeness:
    edge endings, straight runs, junctions, the symmetries' shares; one more draw of `rng`)."""
    if not likeness.keep(LIKENESS.get(1, {}), rules.size, regions, rng, drawn):
        return False
    fitted = TEXTURE.get(rules.size)
    if drawn or fitted is None:
        return True
    return rng.random() < fitted.keep_probability(_texture(rules.size, regions))


def repair_keep(rules: Rules) -> int:
    """Repair should not whittle a piece below 3 cells."""
    return 3


def repair_roomy(rules: Rules) -> bool:
    """From 9x9 on, repair looks past the most shared impostors for a move that keeps a piece whole:
    there its quicker moves leave the daily boards' share of two-cell regions three times over and
    more bars, and the classifiers see it. At 7x7 and 8x8 the boards pass without it, and it would
    double the repair rounds (bench/bench_shape_classifier.py --honest, BENCHMARKS.md)."""
    return rules.size >= 9


__all__ = ["NAME", "available", "draw", "draw_planted", "gates", "keep", "repair_keep", "repair_roomy", "score", "tune"]
