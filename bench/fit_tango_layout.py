"""Fit the Tango layout model (engine/games/tango/layout.py) on published boards, and write the one
fitted on the calibration file into engine/games/tango/published.py.

    .venv/bin/python bench/fit_tango_layout.py [--calibration PATH] [--write] [--rounds 5] [--per-round 400]

What is fitted, in order:
1. the pieces: each board's layout is cut into given pieces (given cells joined side by side) and clue
   pieces (clued edges sharing a cell or side by side); the pieces that are images of one another
   under the board's symmetry group are one piece with that many images; a piece's shape is kept up to
   the 8 symmetries of the square and where it stands (the drawer turns and moves it);
2. the recipes: each board's group and its pieces (on a board without symmetry, the pieces whose
   image under its nearest symmetry is on the board too are paired under that symmetry);
3. `touch`: the share of boards with a clue touching a given;
4. `dist_weight`, `same_odds` and `group_weight`, in rounds: boards are generated with the model, and
   each weight is multiplied by how much more often the published boards have that distance of a
   clue piece from the givens (that share of `=` clues, that symmetry group) than the generated ones
   (to the power 0.8), five rounds;
5. `look`: the envelope, the fewest and most givens and clues of the boards; then boards are
   generated once more with the model, and of those inside the envelope, the acceptance of a layout
   by its given count, clue count and mean clue-to-given distance is the published boards' share of
   its bin over the generated boards' (the two marginals (givens, clues) and (distance), each
   smoothed toward the generated share, fitted together by iterative proportional fitting), scaled
   so that the generated layouts' weights up to the 80th percentile (--keep) are kept at 1: the 20%
   most over-drawn are thinned less than the bins' shares alone would ask, which keeps 59% of the
   drawings instead of 36% (at the 95th) for no measurable change of the honest-split AUC.

Nothing here reads anything but the boards it is given: bench_tango.py fits one half of the
calibration file with `fit` and measures the look on the other half.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.grid import symmetries  # noqa: E402
from engine.games.tango.layout import CLUE, GIVEN, GROUPS, LayoutModel  # noqa: E402

DEFAULT = ROOT / ".." / "shared" / "calibration" / "tango-linkedin-odd.jsonl"
TARGET = ROOT / "engine" / "games" / "tango" / "published.py"
DMAX = 4
G_EDGES = (5.0, 8.0, 10.0, 13.0)               # given counts: <5, 5-7, 8-9, 10-12, 13 and more
C_EDGES = (4.0, 6.0, 8.0, 10.0, 13.0)          # clue counts: <4, 4-5, 6-7, 8-9, 10-12, 13 and more
D_EDGES = (1.0, 1.5, 2.0, 2.5, 3.0)            # mean distance of a clue's first cell from a given
SMOOTHING = 10.0                               # pseudo-boards pulling a bin's published share toward the generated
KEEP_QUANTILE = 0.8


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def layout_of(data: dict) -> tuple[int, set[int], set[tuple[int, int]]]:
    n = data["rules"]["size"]
    givens = {i for i, ch in enumerate(data["givens"]) if ch != "."}
    edges = set()
    for clue in data["clues"]:
        (r1, c1), (r2, c2) = clue["cells"]
        a, b = sorted((r1 * n + c1, r2 * n + c2))
        edges.add((a, b))
    return n, givens, edges


def group_of(n: int, givens: set[int], edges: set[tuple[int, int]]) -> int:
    maps = symmetries(n)
    members = tuple(i for i, m in enumerate(maps) if {m[x] for x in givens} == givens
                    and {tuple(sorted((m[a], m[b]))) for a, b in edges} == edges)
    return GROUPS.index(members)


def _touch(n: int, e: tuple[int, int], f: tuple[int, int]) -> bool:
    """Edges sharing a cell or side by side (the drawer's rule, _generate.pyx)."""
    (a, b), (c, d) = e, f
    if {a, b} & {c, d}:
        return True
    if b - a == 1 and d - c == 1 and abs(c - a) == n:
        return True
    return b - a == n and d - c == n and abs(c - a) == 1 and a // n == c // n


def components(n: int, givens: set[int], edges: set[tuple[int, int]]) -> list[tuple[int, frozenset]]:
    """The given pieces (cells joined side by side) and the clue pieces (edges touching)."""
    out: list[tuple[int, frozenset]] = []
    left = set(givens)
    while left:
        todo = [left.pop()]
        piece = set(todo)
        while todo:
            x = todo.pop()
            r, c = divmod(x, n)
            for y, ok in ((x - 1, c > 0), (x + 1, c < n - 1), (x - n, r > 0), (x + n, r < n - 1)):
                if ok and y in left:
                    left.remove(y)
                    piece.add(y)
                    todo.append(y)
        out.append((GIVEN, frozenset(piece)))
    left_edges = set(edges)
    while left_edges:
        todo = [left_edges.pop()]
        piece = set(todo)
        while todo:
            e = todo.pop()
            for f in [f for f in left_edges if _touch(n, e, f)]:
                left_edges.remove(f)
                piece.add(f)
                todo.append(f)
        out.append((CLUE, frozenset(piece)))
    return out


def _image(m: tuple[int, ...], kind: int, piece: frozenset) -> frozenset:
    if kind == GIVEN:
        return frozenset(m[x] for x in piece)
    return frozenset(tuple(sorted((m[a], m[b]))) for a, b in piece)


def shape_of(n: int, kind: int, piece: frozenset) -> tuple[tuple[int, ...], ...]:
    """A piece's shape: its elements relative to its corner, the least over the 8 symmetries."""
    best = None
    for m in symmetries(n):
        if kind == GIVEN:
            points = [divmod(m[x], n) for x in piece]
            r0, c0 = min(r for r, _ in points), min(c for _, c in points)
            form = tuple(sorted((r - r0, c - c0) for r, c in points))
        else:
            pairs = [sorted((m[a], m[b])) for a, b in piece]
            cells = [divmod(x, n) for pair in pairs for x in pair]
            r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
            form = tuple(sorted((a // n - r0, a % n - c0, b // n - r0, b % n - c0) for a, b in pairs))
        if best is None or form < best:
            best = form
    assert best is not None
    return best


def nearest_symmetry(n: int, givens: set[int], edges: set[tuple[int, int]]) -> int:
    """The group of the symmetry that maps the most of a layout onto itself (an index into GROUPS):
    a mirror, a diagonal, the half turn, or the quarter turns together; the identity's when none maps
    anything."""
    elements = {("g", x) for x in givens} | {("e", e) for e in edges}
    best, best_share = 0, 0.0
    for k, m in enumerate(symmetries(n)):
        if k == 0:
            continue
        moved = {("g", m[x]) for x in givens} | {("e", tuple(sorted((m[a], m[b])))) for a, b in edges}
        share = len(moved & elements) / max(1, len(elements))
        if share > best_share:
            best, best_share = k, share
    if best == 0:
        return 0
    return next(g for g, members in enumerate(GROUPS) if members == ((0, 3, 5, 6) if best in (5, 6) else (0, best)))


def decompose(boards: list[dict]) -> tuple[list[tuple[int, tuple]], list[tuple[int, tuple]]]:
    """The shapes and the recipes of these boards (steps 1 and 2 of the module notes; layout.py says
    what a recipe's pieces are)."""
    shapes: dict[tuple[int, tuple], int] = {}
    recipes = []
    for data in boards:
        n, givens, edges = layout_of(data)
        group = group_of(n, givens, edges)
        if group == 0:
            group = nearest_symmetry(n, givens, edges)
        maps = [symmetries(n)[i] for i in GROUPS[group]]
        pieces_of = components(n, givens, edges)
        present = set(pieces_of)
        seen: set[tuple[int, frozenset]] = set()
        pieces = []
        for kind, piece in pieces_of:
            if (kind, piece) in seen:
                continue
            images = {_image(m, kind, piece) for m in maps}
            if all((kind, image) in present for image in images):
                piece_group, count = group, len(images)
                seen |= {(kind, image) for image in images}
            else:
                piece_group, count = 0, 1               # alone: its images are not on the board
                seen.add((kind, piece))
            key = (kind, shape_of(n, kind, piece))
            shape = shapes.setdefault(key, len(shapes))
            pieces.append((shape, piece_group, count))
        recipes.append((group, tuple(sorted(pieces))))
    return [key for key, _ in sorted(shapes.items(), key=lambda item: item[1])], recipes


def clue_distances(data: dict) -> Counter:
    """How far each clue piece of a board sits from the givens (cells, at most DMAX)."""
    n, givens, edges = layout_of(data)
    out: Counter = Counter()
    for kind, piece in components(n, givens, edges):
        if kind == CLUE:
            cells = {x for e in piece for x in e}
            out[min([DMAX] + [abs(a // n - g // n) + abs(a % n - g % n) for a in cells for g in givens])] += 1
    return out


def same_share(boards: list[dict]) -> float:
    same = sum(clue["kind"] == "same" for data in boards for clue in data["clues"])
    return same / max(1, sum(len(data["clues"]) for data in boards))


def look_summary(data: dict) -> tuple[int, int, float]:
    """Given count, clue count and the mean distance of a clue's first cell from the nearest given
    (the drawer's look summary, _generate.pyx)."""
    n, givens, edges = layout_of(data)
    far = [min([n] + [abs(a // n - g // n) + abs(a % n - g % n) for g in givens]) for a, _ in edges]
    return len(givens), len(edges), sum(far) / len(far) if far else 0.0


def _bin(value: float, edges: tuple[float, ...]) -> int:
    return sum(value >= edge for edge in edges)


def look_bins(data: dict) -> tuple[int, int, int]:
    g, c, d = look_summary(data)
    return _bin(g, G_EDGES), _bin(c, C_EDGES), _bin(d, D_EDGES)


def generated(model: LayoutModel, count: int, first_seed: int) -> list[dict]:
    from engine.games.tango.generator import generate
    from engine.games.tango.rules import TangoRules
    return [generate(TangoRules(6), first_seed + seed, model=model)[0].to_json() for seed in range(count)]


def _share(counter: Counter, keys) -> dict:
    total = sum(counter.values()) or 1
    return {key: counter[key] / total for key in keys}


def fit_look(published: list[dict], ours: list[dict], keep: float = KEEP_QUANTILE) -> tuple[float, ...]:
    """Step 5 of the module notes: the acceptance table, given-major."""
    pub = [look_bins(data) for data in published]
    gen = [look_bins(data) for data in ours]
    gc_keys = [(g, c) for g in range(len(G_EDGES) + 1) for c in range(len(C_EDGES) + 1)]
    d_keys = list(range(len(D_EDGES) + 1))
    targets = []
    for project, keys in ((lambda b: b[:2], gc_keys), (lambda b: b[2], d_keys)):
        p = Counter(project(b) for b in pub)
        q = _share(Counter(project(b) for b in gen), keys)
        targets.append((project, {k: (p[k] + SMOOTHING * q[k]) / (len(pub) + SMOOTHING) for k in keys}))
    factors = [{k: 1.0 for k in keys} for keys in (gc_keys, d_keys)]
    for _ in range(50):
        for which, (project, target) in enumerate(targets):
            weight = Counter()
            for b in gen:
                weight[project(b)] += factors[0][b[:2]] * factors[1][b[2]]
            total = sum(weight.values())
            for key in factors[which]:
                if weight[key] > 0:
                    factors[which][key] *= target[key] / (weight[key] / total)
    raw = {(g, c, d): factors[0][g, c] * factors[1][d] for (g, c) in gc_keys for d in d_keys}
    kept = sorted(raw[b] for b in gen)
    scale = kept[min(len(kept) - 1, int(keep * len(kept)))]
    return tuple(round(min(1.0, raw[g, c, d] / scale), 4) for (g, c) in gc_keys for d in d_keys)


def fit(boards: list[dict], *, rounds: int = 5, per_round: int = 400, seed: int = 70_000,
        keep: float = KEEP_QUANTILE, verbose: bool = False) -> LayoutModel:
    """The layout model of these boards (the module notes)."""
    shapes, recipes = decompose(boards)
    touching = sum(any(a in layout_of(d)[1] or b in layout_of(d)[1] for a, b in layout_of(d)[2]) for d in boards)
    model = LayoutModel(tuple(shapes), tuple(recipes), (0.2, 1.0, 2.0, 2.0, 2.0), 1.5,
                        round(touching / len(boards), 4), 0.2)
    target = Counter()
    for data in boards:
        target += clue_distances(data)
    target_share = _share(target, range(DMAX + 1))
    target_same = same_share(boards)
    target_groups = _share(Counter(group_of(*layout_of(data)) for data in boards), range(len(GROUPS)))
    group_weight = [1.0] * len(GROUPS)
    for round_ in range(rounds):
        ours = generated(model, per_round, seed + round_ * per_round)
        have = Counter()
        for data in ours:
            have += clue_distances(data)
        have_share = _share(have, range(DMAX + 1))
        same = same_share(ours)
        have_groups = _share(Counter(group_of(*layout_of(data)) for data in ours), range(len(GROUPS)))
        if verbose:
            print(f"  round {round_}: clue distance {[round(have_share[d], 3) for d in range(DMAX + 1)]} "
                  f"(published {[round(target_share[d], 3) for d in range(DMAX + 1)]}), = share {same:.3f} "
                  f"({target_same:.3f}), groups {[round(have_groups[g], 3) for g in range(len(GROUPS))]} "
                  f"({[round(target_groups[g], 3) for g in range(len(GROUPS))]})", flush=True)
        weights = tuple(round(w * ((target_share[d] + 1e-3) / (have_share[d] + 1e-3)) ** 0.8, 4)
                        for d, w in enumerate(model.dist_weight))
        odds = round(model.same_odds * ((target_same / (1 - target_same)) / (same / (1 - same))) ** 0.8, 4)
        group_weight = [round(w * ((target_groups[g] + 0.01) / (have_groups[g] + 0.01)) ** 0.8, 4)
                        for g, w in enumerate(group_weight)]
        model = LayoutModel(model.shapes, model.recipes, weights, odds, model.touch, model.extra_given,
                            group_weight=tuple(group_weight))
    counts = [look_summary(data)[:2] for data in boards]
    envelope = (min(g for g, _ in counts), max(g for g, _ in counts), min(c for _, c in counts),
                max(c for _, c in counts))
    ours = [data for data in generated(model, 2 * per_round, seed + rounds * per_round)
            if envelope[0] <= look_summary(data)[0] <= envelope[1] and envelope[2] <= look_summary(data)[1] <= envelope[3]]
    look = fit_look(boards, ours, keep)
    return LayoutModel(model.shapes, model.recipes, model.dist_weight, model.same_odds, model.touch,
                       model.extra_given, (G_EDGES, C_EDGES, D_EDGES, look, envelope),
                       group_weight=model.group_weight)


def source(model: LayoutModel, boards: int) -> str:
    """published.py's text."""
    def rows(items, per_line):
        out = []
        for i in range(0, len(items), per_line):
            out.append("    " + " ".join(f"{item!r}," for item in items[i:i + per_line]))
        return "\n".join(out)
    assert model.look is not None
    g, c, d, table, envelope = model.look
    return f'''"""The layout model fitted on the {boards} published boards of the calibration file (written by
bench/fit_tango_layout.py --write; layout.py says what each part is). Do not edit by hand."""

from engine.games.tango.layout import LayoutModel

SHAPES = (
{rows(model.shapes, 1)}
)

RECIPES = (
{rows(model.recipes, 2)}
)

LOOK_TABLE = (
{rows(list(table), 12)}
)

MODEL = LayoutModel(SHAPES, RECIPES, dist_weight={model.dist_weight!r}, same_odds={model.same_odds!r},
                    touch={model.touch!r}, extra_given={model.extra_given!r},
                    look=({g!r}, {c!r}, {d!r}, LOOK_TABLE, {envelope!r}),
                    group_weight={model.group_weight!r})
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibration", type=Path, default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-round", type=int, default=400)
    parser.add_argument("--keep", type=float, default=KEEP_QUANTILE,
                        help="the quantile of the generated layouts' weights kept at acceptance 1")
    parser.add_argument("--write", action="store_true", help=f"write {TARGET.relative_to(ROOT)}")
    args = parser.parse_args()
    boards = load(args.calibration)
    model = fit(boards, rounds=args.rounds, per_round=args.per_round, keep=args.keep, verbose=True)
    print(f"{len(model.shapes)} shapes, {len(model.recipes)} recipes, dist_weight {model.dist_weight}, "
          f"same_odds {model.same_odds}, touch {model.touch}")
    if args.write:
        TARGET.write_text(source(model, len(boards)))
        print(f"wrote {TARGET.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
