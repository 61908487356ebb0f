"""The interlocking style: regions drawn as straight runs and blocks, as the published Star Battle site
draws them (calibration: 1,240 boards, 8x8 1-star to 14x14 3-star; bench/bench_shape_classifier.py).

Free growth (the organic style) adds one cell at a time and leaves ragged outlines, plus and T shapes;
published regions are strips, rectangles and L's that lock into each other, with fewer outline corners.
Here the answer comes first, as in every style: the k stars of a region are joined by straight or
once-bent paths, then regions grow by whole segments (a straight run of free cells along one side of
the region), so that a side moves out by one row or column at a time. After repair (which moves single
cells), `tune` moves straight runs of boundary cells back when that removes outline corners and the
board stays unique; at 14x14 3-star (the rules with shape targets, interlocking_targets.py) it pulls
the finished map toward a point drawn as the site's boards of the drawing's kind spread instead.

One to three stars.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.core.grid import orthogonal_neighbours
from engine.core.regions import UNASSIGNED, one_piece_without, region_sizes, target_sizes
from engine.core._regions import label_in_one_piece
from engine.games.starbattle import likeness, targets as shape_targets
from engine.games.starbattle.shape import Look, ShapeFeatures, measure, region_corners
from engine.games.base import Gates
from engine.games.starbattle.count import new_search, only_solution
from engine.games.starbattle.draw import _path_to_free_star
from engine.games.starbattle.gates import gates_for
from engine.games.starbattle.rules import Rules
from engine.games.starbattle.styles._interlocking import segments
from engine.games.starbattle.styles.interlocking_fit import FINISHED, LIKENESS
from engine.games.starbattle.styles.interlocking_targets import TARGETS

NAME = "interlocking"
TUNE_STEPS = 12        # boundary nudges per row after repair: a blocky drawing's corners take many
# Rules with shape targets (interlocking_targets.py) try this many nudges per step: most move the map
# away from its target and cost only a measure; the uniqueness checks stay within `steps` (speed).
TARGET_TRIES = 12
TARGET_NODES = 20_000       # search nodes a nudge's uniqueness count may take (else it is not made):
                            # at 14x14 3-star an unbounded count cost 0.1-0.15 s a nudge
TARGET_MIN_REGION = 6       # tuning toward targets may leave a region this small (the site's blocky
                            # 3-star boards have regions of 6 cells: their smallest averages 6.2)
# Rules with shape targets give up repairing a drawing once this many repair rounds have passed since
# a count last found fewer solutions than every count before it: at 14x14 3-star, failed repairs
# (their count budget spent, or 40 rounds going round in circles) took 4.4 times the repair time of
# the unique ones (seeds 0-19). Half the unique repairs ran longer than that, yet the rounds saved on
# failed ones paid for them: repair time per unique drawing 1.12 -> 0.92 s on that trace. (Tuning a
# repaired map again, up to 3 times, when the finished map's likeness turns it away was quicker but
# raised the shape AUC 0.71 -> 0.77: each tuning judged as a new map, the maps kept no longer follow
# the likeness.)
STALL = 6
TRIES = 6                   # attempts inside one draw before giving the drawing up
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))
# Single-cell teeth per row after growth, by star count: published boards grow more ragged with the
# stars (14x14 3-star regions have 1.86 outline edges per cell against 1.68 for pure segment growth).
JAGS = {1: 0.0, 2: 0.3, 3: 2.5}
ROUGH_JAGS = 1.5            # teeth per row added at the ragged end of the scale (0 at the blocky end)
# How segments are weighted, by star count: length ** WIDTH (wide sides: blocks), and ARM for a single
# cell extending a straight arm (3-star regions are thin straight arms: many outline edges, few corners).
WIDTH = {1: 1.5, 2: 1.5, 3: 0.5}
ARM = {1: 1.0, 2: 1.0, 3: 6.0}
# Region-size spread against the organic style's, by star count: published 3-star boards mix regions
# of 7 and 27 cells at 14x14, the small ones thin (2.2 outline edges per cell).
SPREAD = {1: 1.0, 2: 1.4, 3: 2.0}
# ... at the ragged end of the scale, times this: the site's ragged 3-star boards have even sizes (the
# largest region 12% of the grid against 15% on its blocky ones).
RAGGED_SPREAD = {1: 1.0, 2: 1.0, 3: 0.5}
ARMS: set[int] = set()      # scratch: the free cells of the last `segments` that extend an arm


def available(rules: Rules) -> bool:
    return 1 <= rules.stars <= 3


def draw(rules: Rules, answer: tuple[int, ...], rng: random.Random, *, spread: float = 0.5,
         gifts: int = 0) -> list[int] | None:
    """Regions for `answer` in the interlocking look, or None when no try grouped the stars.
    `spread` is the region-size spread (generator.SPREAD); `gifts` single-cell regions at k = 1."""
    n, k = rules.size, rules.stars
    for _ in range(TRIES):
        regions = [UNASSIGNED] * (n * n)
        cores = _group(n, k, answer, regions, rng)
        if cores is None:
            continue
        # published boards range from blocky to ragged: each drawing takes its own place on that scale
        rough = _roughness(rng)
        scale = SPREAD[k] * (1 + (RAGGED_SPREAD[k] - 1) * rough)
        targets = target_sizes(n * n, [max(2 * k, core) for core in cores], spread * scale, rng)
        closed: set[int] = set()
        if k == 1 and gifts:
            closed.update(rng.sample(range(n), min(gifts, n - 1)))
            for label in closed:
                targets[label] = 1
        _grow(n, k, regions, targets, closed, rng, WIDTH[k] * (3.0 - 2.6 * rough))
        _jag(n, k, regions, set(answer), round((JAGS[k] + ROUGH_JAGS * rough) * 2 * rough * n), rng)
        sizes = region_sizes(regions, n)
        if min(sizes[label] for label in range(n) if label not in closed) >= 2 * k:
            return regions
    return None


def _roughness(rng: random.Random) -> float:
    """Where a drawing sits between blocky (0) and ragged (1). The site draws two kinds of board
    (10x10 2-star: its "medium" boards have 6.0 boundary edges per row, its "hard" ones 7.8, each
    with a spread of 0.35), so a drawing takes one end of the scale or the other."""
    return rng.uniform(0.0, 0.2) if rng.random() < 0.5 else rng.uniform(0.8, 1.0)


# ---- joining the stars ---------------------------------------------------------------------------

def _bent_path(n: int, start: int, end: int, regions: Sequence[int], stars: set[int],
               rows_first: bool) -> list[int] | None:
    """The cells strictly between `start` and `end` on the path going along a column then a row (or a
    row then a column), with `end` last; None when a cell on it is taken or a star."""
    (r0, c0), (r1, c1) = divmod(start, n), divmod(end, n)
    cells = []
    r, c = r0, c0
    for vertical in ((True, False) if rows_first else (False, True)):
        while (r != r1) if vertical else (c != c1):
            if vertical:
                r += 1 if r1 > r else -1
            else:
                c += 1 if c1 > c else -1
            cells.append(r * n + c)
    if not cells or cells[-1] != end:
        return None
    for cell in cells[:-1]:
        if regions[cell] != UNASSIGNED or cell in stars:
            return None
    return cells


def _group(n: int, k: int, answer: tuple[int, ...], regions: list[int],
           rng: random.Random) -> list[int] | None:
    """Label the stars in n groups of k, each joined by straight or once-bent paths through free cells
    (a shortest breadth-first path when none is free); returns each group's size, or None when a group
    finds no free star within reach."""
    stars = set(answer)
    order = list(answer)
    rng.shuffle(order)
    sizes = []
    neighbours = orthogonal_neighbours(n)
    for start in order:
        if regions[start] != UNASSIGNED:
            continue
        label = len(sizes)
        regions[start] = label
        members = [start]
        for _ in range(k - 1):
            free = [s for s in stars if regions[s] == UNASSIGNED]
            if not free:
                return None
            free.sort(key=lambda s: min(abs(s // n - m // n) + abs(s % n - m % n) for m in members)
                      + rng.random() * 2)
            path = None
            for target in free[:4]:
                for source in rng.sample(members, len(members)):
                    for rows_first in rng.sample((True, False), 2):
                        path = _bent_path(n, source, target, regions, stars, rows_first)
                        if path:
                            break
                    if path:
                        break
                if path:
                    break
            if path is None:
                path = _path_to_free_star(neighbours, regions, stars, label, rng)
                if path is None:
                    return None
            for cell in path:
                regions[cell] = label
            members.extend(path)
        sizes.append(len(members))
    return sizes


# ---- growth by segments --------------------------------------------------------------------------

def _grow(n: int, k: int, regions: list[int], targets: Sequence[int], closed: set[int],
          rng: random.Random, width: float) -> None:
    """Grow every region by whole segments toward its target size, then give every cell left over to a
    region beside it, segment by segment: at k = 1 the smallest region first, at k >= 2 the one
    furthest below its target (the smallest first evens the sizes out, where published 2- and 3-star
    boards mix small and large regions)."""
    members: dict[int, list[int]] = {label: [] for label in range(n)}
    for cell, label in enumerate(regions):
        if label != UNASSIGNED:
            members[label].append(cell)
    # each region leans one way: strips grow along their length, blocks in both directions
    lean = [rng.choice((0.25, 1.0, 1.0, 4.0)) for _ in range(n)]
    open_ = [label for label in range(n) if label not in closed]
    while open_:
        weights = [max(1, targets[label] - len(members[label])) for label in open_]
        label = rng.choices(open_, weights)[0]
        want = targets[label] - len(members[label])
        options = segments(n, regions, members[label], ARMS)
        if want <= 0 or not options:
            open_.remove(label)
            continue
        picked = _pick(options, want, lean[label], n, k, targets[label] < 0.8 * n, rng, width)
        for cell in picked:
            regions[cell] = label
        members[label].extend(picked)
    free = sum(label == UNASSIGNED for label in regions)
    while free:
        best = None
        for label in sorted(members, key=lambda lab: (len(members[lab]) - (targets[lab] if k > 1 else 0),
                                                      rng.random())):
            if label in closed:
                continue
            options = segments(n, regions, members[label], ARMS)
            if options:
                best = (label, max(options, key=len))
                break
        if best is None:
            return
        label, picked = best
        for cell in picked:
            regions[cell] = label
        members[label].extend(picked)
        free -= len(picked)


def _pick(options: list[list[int]], want: int, lean: float, n: int, k: int, small: bool,
          rng: random.Random, width: float) -> list[int]:
    """One segment to add: longer ones (a whole side) first, weighted by the region's lean toward rows
    or columns, single cells extending a straight arm by ARM[k]; one longer than the region still
    wants is cut to a piece of it at one end."""
    weights = []
    arm = ARM[k]
    if small and k == 3:
        width, arm = -1.0, 2 * arm        # small 3-star regions are snakes of thin arms
    for run in options:
        horizontal = len(run) == 1 or run[1] - run[0] == 1
        weights.append(len(run) ** width * (lean if horizontal else 1 / lean)
                       * (arm if len(run) == 1 and run[0] in ARMS else 1))
    run = rng.choices(options, weights)[0]
    if len(run) > want + 1:
        start = 0 if rng.random() < 0.5 else len(run) - want
        run = run[start:start + want]
    return run


def _jag(n: int, k: int, regions: list[int], stars: set[int], count: int, rng: random.Random) -> None:
    """Move `count` random boundary cells (never a star) into a neighbouring region: a tooth, as
    published boards have, where the donor stays one piece and keeps more than 2k + 1 cells."""
    neighbours = orthogonal_neighbours(n)
    sizes = region_sizes(regions, n)
    for _ in range(count * 4):
        if count <= 0:
            return
        cell = rng.randrange(n * n)
        own = regions[cell]
        targets = sorted({regions[nb] for nb in neighbours[cell]} - {own})
        if cell in stars or not targets or sizes[own] <= 2 * k + 1:
            continue
        if not one_piece_without(n, regions, cell, own):
            continue
        target = rng.choice(targets)
        regions[cell] = target
        sizes[own] -= 1
        sizes[target] += 1
        count -= 1






# ---- the look: score, gate, tuning ---------------------------------------------------------------

MIN_SCORE = 70
# Bounds fitted on the published corpus by star count (8x8 1-star, 10x10 2-star, 14x14 3-star: about
# the 1st and 99th percentile of each feature), each (low, high): outline corners per region per row,
# rectangle share, bounding-box fill, outline edges per cell (bench/bench_gates.py --style interlocking).
BOUNDS = {
    1: {"corners_per_n": (0.75, 1.35), "rectangles": (0.0, 0.5), "fill": (0.59, 0.85), "perimeter": (1.82, 2.38)},
    2: {"corners_per_n": (0.66, 1.30), "rectangles": (0.0, 0.3), "fill": (0.51, 0.82), "perimeter": (1.57, 2.16)},
    3: {"corners_per_n": (0.77, 1.21), "rectangles": (0.0, 0.08), "fill": (0.47, 0.64), "perimeter": (1.61, 2.02)},
}
# What one unit past a bound costs: 30 points at 0.1 past a corner, fill or perimeter bound.
WEIGHTS = {"corners_per_n": 300, "rectangles": 150, "fill": 300, "perimeter": 300}


def penalties(rules: Rules, regions: Sequence[int]) -> dict[str, int]:
    """Each way the map leaves the range of published boards of its star count, and what it costs
    (0 inside; a gift, 2k - 1 cells or fewer, costs 25 as in the organic score)."""
    return _penalties(rules, *measure(rules.size, regions))


def _penalties(rules: Rules, shape: ShapeFeatures, seen: Look) -> dict[str, int]:
    n, k = rules.size, rules.stars
    values = {"corners_per_n": seen.corners_per_row / n, "rectangles": seen.rectangles,
              "fill": shape.fill, "perimeter": shape.perimeter_per_cell}
    out = {"gifts": 25 * sum(size <= 2 * k - 1 for size in shape.sizes)}
    for name, (low, high) in BOUNDS[min(k, 3)].items():
        out[name] = round(WEIGHTS[name] * (max(0.0, low - values[name]) + max(0.0, values[name] - high)))
    return out


def score(rules: Rules, regions: Sequence[int]) -> int:
    """100 minus the penalties: how far the map stays within the range of published boards."""
    return _score(rules, *measure(rules.size, regions))


def _score(rules: Rules, shape: ShapeFeatures, seen: Look) -> int:
    return max(0, 100 - sum(_penalties(rules, shape, seen).values()))


def gates(rules: Rules) -> Gates:
    """Fun as every board of these rules (gates_for); shape on this style's score."""
    return Gates(min_fun=gates_for(rules).min_fun, min_shape=MIN_SCORE)


def tune(rules: Rules, regions: list[int], answer: tuple[int, ...], rng: random.Random,
         steps: int, drawn: Sequence[int], *, deadline: float = 0.0) -> list[int]:
    """After repair (single-cell moves, which roughen the look): move straight runs of boundary cells
    (a run of a region's cells along its border with one neighbour, all of it or a piece from one end)
    into that neighbour when the map comes closer to the published range and then to what it should
    look like, the donor stays one piece and large enough, and the board stays unique.

    What it should look like: for rules with shape targets (interlocking_targets.py), a point drawn
    as the published boards of the drawing's kind spread (blocky or ragged: the target the drawing
    `drawn` lies nearest), the distance to which must drop; up to TARGET_TRIES * `steps` nudges are tried, at most `steps`
    of them checked for uniqueness. Else the outline it was drawn with (repair adds corners to a
    blocky drawing, which the site's blocky boards do not have), `steps` nudges; a map inside the
    range with no more corners than it was drawn with is left alone.

    Raises DeadlineExceeded when `deadline` (on `monotonic()`; 0 for none) passes first: a map tuned
    only as far as the clock allowed would make the same seed give different boards."""
    n, k = rules.size, rules.stars
    stars = set(answer)
    regions = list(regions)
    fitted = TARGETS.get((k, n))
    if fitted:
        target = fitted[shape_targets.nearest(fitted, n, drawn)].sample(rng)
        tries, smallest, nodes = TARGET_TRIES * steps, TARGET_MIN_REGION, TARGET_NODES

        def quality(trial: Sequence[int]) -> tuple[int, float]:
            shape, seen = measure(n, trial)
            return _score(rules, shape, seen), -target.distance_of(n, shape_targets.features_of(n, shape, seen))
    else:
        goal = sum(region_corners(n, drawn).values())
        tries, smallest, nodes = steps, 2 * k + 1, 0

        def quality(trial: Sequence[int]) -> tuple[int, float]:
            shape, seen = measure(n, trial)      # one walk gives the score's features and the corners
            corners = round(seen.corners_per_row * n)
            return _score(rules, shape, seen), -max(0, corners - goal)

    current = quality(regions)
    sizes = region_sizes(regions, n)
    search = new_search(rules, regions)
    checks = 0
    for _ in range(tries):
        if current == (100, 0) or checks >= steps:
            break
        cell = rng.randrange(n * n)
        own = regions[cell]
        r, c = divmod(cell, n)
        dr, dc = rng.choice(DIRECTIONS)
        if cell in stars or not (0 <= r + dr < n and 0 <= c + dc < n):
            continue
        into = regions[(r + dr) * n + c + dc]
        if into == own:
            continue
        run = _run(n, regions, stars, cell, dr, dc, own, into)
        if rng.random() < 0.5:
            run = run[:rng.randint(1, len(run))]
        if sizes[own] - len(run) < smallest:
            continue
        for moved in run:
            regions[moved] = into
        better = quality(regions)
        if better <= current or not label_in_one_piece(n, regions, own):
            for moved in run:
                regions[moved] = own
            continue
        checks += 1
        if not only_solution(search, regions, answer, nodes, deadline):
            for moved in run:
                regions[moved] = own
            continue
        current = better
        sizes[own] -= len(run)
        sizes[into] += len(run)
    return regions


def repair_stall(rules: Rules) -> int:
    """Repair rounds without fewer solutions found before the generator gives a drawing up (repair's
    `stall`): STALL for rules with shape targets, else 0 (the round cap alone)."""
    return STALL if (rules.stars, rules.size) in TARGETS else 0


def _run(n: int, regions: Sequence[int], stars: set[int], cell: int, dr: int, dc: int, own: int,
         target: int) -> list[int]:
    """The straight run through `cell`, across the direction (dr, dc), of non-star cells of `own`
    whose neighbour that way is in `target`: `cell` first, then outward one side, then the other."""
    run = [cell]
    r, c = divmod(cell, n)
    for sign in (1, -1):
        step = 1
        while True:
            rr, cc = (r + sign * step, c) if dc else (r, c + sign * step)
            nr, nc = rr + dr, cc + dc
            if not (0 <= rr < n and 0 <= cc < n and 0 <= nr < n and 0 <= nc < n):
                break
            here = rr * n + cc
            if regions[here] != own or here in stars or regions[nr * n + nc] != target:
                break
            run.append(here)
            step += 1
    return run


def keep(rules: Rules, regions: Sequence[int], rng: random.Random, drawn: bool) -> bool:
    """Keep a finished map as often as the site's boards of its rules look like it (the fitted
    likeness: 8x8 one-star and 10x10 two-star on the finished map, 14x14 three-star on the drawing
    and then, FINISHED, on the finished map for what the drawing's fit leaves; other rules keep
    every map)."""
    return all(likeness.keep(table.get(rules.stars, {}), rules.size, regions, rng, drawn)
               for table in (LIKENESS, FINISHED))


def repair_keep(rules: Rules) -> int:
    """Repair's own rule (avoid leaving regions of 2k cells or fewer): published 2- and 3-star boards
    have no region that small, and a larger bar costs unique drawings."""
    return 2 * rules.stars


__all__ = ["NAME", "available", "draw", "gates", "keep", "repair_keep", "repair_stall", "score", "tune"]
