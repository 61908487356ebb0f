"""Tango against the published LinkedIn boards: the ladder on them, the generator's speed and band mix,
and whether the layouts it draws can be told from the published ones.

    .venv/bin/python bench/bench_tango.py [--calibration PATH] [--speed 400] [--boards 250] [--repeats 1]
        [--json PATH]

1. The published boards (default ../shared/calibration/tango-linkedin-odd.jsonl, 250 daily boards):
   how many the counter proves unique, how many the ladder finishes without trial, their band mix and
   the hardest technique each needs.
2. Generation speed at 6x6 in this one process, engine only (`generate`, seeds 0..N-1): boards/s,
   and with each band asked for (--band-speed boards each): CPU ms a board and drawings a board.
3. The generated boards' band mix and what was turned away, by reason.
4. A look classifier: each board becomes the features of where its givens and clues sit (counts, =
   share, how symmetric the layout is under each of the 7 symmetries of the square, given pieces side
   by side, clue groups, clues touching givens, how far clues sit from givens, spread over the grid,
   across/down share); a standardised logistic regression and gradient-boosted trees (scikit-learn,
   `pip install -e '.[bench]'`) are scored by stratified 5-fold cross-validation (seeded). The
   out-of-fold ROC AUC is the chance that a generated board looks more machine-made than a published
   one: 0.5 cannot tell them apart, 1.0 always can.
   - honest split (the figure the goal, AUC <= 0.75, is about): the layout model is fitted
     (bench/fit_tango_layout.py) on one half of the published boards (the odd lines of the file) and
     as many boards as the other half holds are generated with it; then the halves swap; the two
     held-out halves and the boards generated from the other halves' models are pooled and classified
     together (so no published board is set against boards drawn from a model that saw it). With
     --repeats N the split is done N times, each with other generation and fold seeds, and the mean
     and the range are printed.
   - in-sample: the shipped model (fitted on all the published boards) against all of them.

Prints the figures and, with --json, writes them to a file.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core.grid import symmetries  # noqa: E402
from engine.games.tango import GAME  # noqa: E402
from engine.games.tango.count import count_solutions  # noqa: E402
from engine.games.tango.generator import generate  # noqa: E402
from engine.games.tango.grade import grade  # noqa: E402
from engine.games.tango.rules import TangoRules  # noqa: E402
from fit_tango_layout import fit  # noqa: E402
from machine import run_header  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[1] / ".." / "shared" / "calibration" / "tango-linkedin-odd.jsonl"
SYMMETRY_NAMES = ("mirror-lr", "mirror-tb", "half-turn", "transpose", "quarter-turn", "quarter-turn-back",
                  "anti-transpose")


def layout(data: dict) -> tuple[int, set[int], list[tuple[int, int, bool]]]:
    n = data["rules"]["size"]
    givens = {i for i, ch in enumerate(data["givens"]) if ch != "."}
    clues = []
    for clue in data["clues"]:
        (r1, c1), (r2, c2) = clue["cells"]
        a, b = sorted((r1 * n + c1, r2 * n + c2))
        clues.append((a, b, clue["kind"] == "same"))
    return n, givens, clues


def _groups(items: list[set[int]]) -> list[int]:
    """Sizes of the groups of cell sets that touch (share a cell or an edge), transitively."""
    parent = list(range(len(items)))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x
    return_sizes: Counter = Counter()
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            if items[i] & items[j]:
                parent[find(i)] = find(j)
    for i in range(len(items)):
        return_sizes[find(i)] += 1
    return list(return_sizes.values())


def features(data: dict) -> list[float]:
    n, givens, clues = layout(data)
    text = data["givens"]
    edges = {(a, b) for a, b, _ in clues}
    elements = {("g", c) for c in givens} | {("e", e) for e in edges}
    out: list[float] = [len(givens), len(clues), sum(s for _, _, s in clues) / max(1, len(clues)),
                        abs(text.count("S") - text.count("M"))]
    # symmetry: the share of the layout that each symmetry maps onto the layout
    scores = []
    for image in symmetries(n)[1:]:
        moved = {("g", image[c]) for c in givens} | {("e", tuple(sorted((image[a], image[b])))) for a, b in edges}
        scores.append(len(moved & elements) / max(1, len(elements)))
    out += scores + [max(scores), sum(s == 1.0 for s in scores)]
    # givens side by side, and clue groups
    def near(cell: int) -> set[int]:
        r, c = divmod(cell, n)
        return {r2 * n + c2 for r2, c2 in ((r, c), (r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                if 0 <= r2 < n and 0 <= c2 < n}
    adjacent = sum(1 for g in givens for h in givens if g < h and h in near(g))
    given_groups = _groups([near(g) & givens | {g} for g in givens]) if givens else [0]
    clue_groups = _groups([near(a) | near(b) for a, b, _ in clues]) if clues else [0]
    touching = sum(1 for a, b, _ in clues if a in givens or b in givens)
    distance = [min((abs(a // n - g // n) + abs(a % n - g % n) for g in givens), default=n) for a, _, _ in clues]
    rows = [g // n for g in givens] or [0]
    cols = [g % n for g in givens] or [0]
    centre = (n - 1) / 2
    out += [adjacent, max(given_groups), len(given_groups), max(clue_groups), len(clue_groups), touching,
            statistics.mean(distance) if distance else 0.0,
            statistics.pstdev(rows), statistics.pstdev(cols),
            statistics.mean(abs(r - centre) + abs(c - centre) for r, c in zip(rows, cols)),
            sum(1 for g in givens if g // n in (0, n - 1) or g % n in (0, n - 1)),
            sum(1 for a, b, _ in clues if b == a + 1) / max(1, len(clues))]
    return out


def generated(model, count: int, first_seed: int) -> list[dict]:
    rules = TangoRules(6)
    return [generate(rules, first_seed + seed, model=model)[0].to_json() for seed in range(count)]


def honest_split(published: list[dict], repeat: int = 0) -> dict:
    """The look AUC of the honest split (the module notes): each half's published boards against the
    boards generated from the model fitted on the other half, pooled."""
    halves = (published[0::2], published[1::2])
    xs: list[list[float]] = []
    ys: list[int] = []
    parts = {}
    for k, (fitted_on, held_out) in enumerate((halves, halves[::-1])):
        model = fit(fitted_on, seed=70_000 + 10_000 * repeat)
        ours = generated(model, len(held_out), 200_000 + 100_000 * repeat + 10_000 * k)
        part_x = [features(data) for data in held_out] + [features(data) for data in ours]
        part_y = [0] * len(held_out) + [1] * len(ours)
        parts[f"half {k + 1}"] = aucs(part_x, part_y, seed=repeat)
        xs += part_x
        ys += part_y
    return {"pooled": aucs(xs, ys, seed=repeat), **parts}


def aucs(xs: list[list[float]], ys: list[int], seed: int = 0) -> dict[str, float]:
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    x, y = np.array(xs), np.array(ys)
    folds = StratifiedKFold(5, shuffle=True, random_state=seed)
    out = {}
    for name, model in (("logistic", make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))),
                        ("boosted-trees", HistGradientBoostingClassifier(max_iter=200, random_state=seed))):
        scores = cross_val_predict(model, x, y, cv=folds, method="predict_proba")[:, 1]
        out[name] = round(float(roc_auc_score(y, scores)), 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibration", type=Path, default=DEFAULT)
    parser.add_argument("--speed", type=int, default=400, help="6x6 boards timed (seeds 0..N-1)")
    parser.add_argument("--boards", type=int, default=250, help="generated boards for the in-sample classifier")
    parser.add_argument("--repeats", type=int, default=1, help="honest splits, each with other seeds")
    parser.add_argument("--band-speed", type=int, default=100, help="6x6 boards timed for each band asked for")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    published = [json.loads(line) for line in args.calibration.read_text().splitlines() if line.strip()]
    result: dict = {"published": len(published), "machine": run_header().strip()}
    print(run_header())

    # 1. the published boards
    unique = finished = 0
    bands: Counter = Counter()
    hardest: Counter = Counter()
    for data in published:
        board = GAME.board_from_json({k: v for k, v in data.items() if k != "solution"})
        if count_solutions(board, 2).solutions == (data.get("solution"),):
            unique += 1
        graded = grade(board, "chain")
        if graded.solved:
            finished += 1
            bands[graded.band] += 1
            hardest[graded.hardest] += 1
    result.update(unique=unique, finished_without_trial=finished, published_bands=dict(bands),
                  published_hardest=dict(hardest))
    print(f"published: {len(published)} boards, {unique} unique, {finished} finished without trial")
    print("  bands:", ", ".join(f"{band} {bands[band]}" for band in GAME.bands))
    print("  hardest:", ", ".join(f"{name} {count}" for name, count in hardest.most_common()))

    # 2. speed, 3. band mix of generated boards
    rules = TangoRules(6)
    started, cpu = time.perf_counter(), time.process_time()
    made_bands: Counter = Counter()
    rejected: Counter = Counter()
    drawings = 0
    for seed in range(args.speed):
        board, stats = generate(rules, seed)
        made_bands[board.extra["difficulty"]["band"]] += 1
        rejected.update(stats.rejected)
        drawings += stats.drawings
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    result.update(speed_boards=args.speed, boards_per_second=round(args.speed / seconds, 1),
                  ms_per_board=round(1000 * seconds / args.speed, 3),
                  cpu_ms_per_board=round(1000 * cpu / args.speed, 3), generated_bands=dict(made_bands),
                  rejected=dict(rejected), acceptance=round(args.speed / drawings, 3))
    print(f"generation 6x6: {args.speed} boards in {seconds:.2f} s: {args.speed / seconds:.0f} boards/s, "
          f"{1000 * seconds / args.speed:.2f} ms a board ({1000 * cpu / args.speed:.2f} ms of CPU); "
          f"{args.speed / drawings:.0%} of drawings kept")
    print("  bands:", ", ".join(f"{band} {made_bands[band]}" for band in GAME.bands))
    print("  rejected:", ", ".join(f"{reason} {count}" for reason, count in rejected.most_common()) or "none")
    by_band = {}
    for band in GAME.bands:
        cpu, drawn = time.process_time(), 0
        for seed in range(args.band_speed):
            drawn += generate(rules, seed, band=band)[1].drawings
        cpu = time.process_time() - cpu
        by_band[band] = {"cpu_ms_per_board": round(1000 * cpu / args.band_speed, 3),
                         "drawings_per_board": round(drawn / args.band_speed, 2)}
    result["band_speed"] = by_band
    print("  asked for a band, CPU a board:", ", ".join(f"{band} {figures['cpu_ms_per_board']:.2f} ms "
                                                      f"({figures['drawings_per_board']:.1f} drawings)"
                                                      for band, figures in by_band.items()))

    # 4. the look classifier
    ours = [generate(rules, 10_000 + seed)[0].to_json() for seed in range(args.boards)]
    xs = [features(data) for data in published] + [features(data) for data in ours]
    ys = [0] * len(published) + [1] * len(ours)
    mean = lambda rows, i: statistics.mean(row[i] for row in rows)  # noqa: E731
    ps, gs = xs[:len(published)], xs[len(published):]
    print(f"look: givens {mean(ps, 0):.1f} published / {mean(gs, 0):.1f} ours, clues {mean(ps, 1):.1f} / "
          f"{mean(gs, 1):.1f}, = share {mean(ps, 2):.2f} / {mean(gs, 2):.2f}, "
          f"some symmetry whole {sum(r[12] > 0 for r in ps) / len(ps):.2f} / {sum(r[12] > 0 for r in gs) / len(gs):.2f}")
    result["look_means"] = {"published": [round(mean(ps, i), 3) for i in range(len(ps[0]))],
                            "ours": [round(mean(gs, i), 3) for i in range(len(gs[0]))]}
    try:
        scored = aucs(xs, ys)
    except ImportError:
        print("look classifier: scikit-learn is not installed (pip install -e '.[bench]')")
    else:
        result["auc_in_sample"] = scored
        print("look classifier, in-sample (shipped model against all published), 5-fold ROC AUC:",
              ", ".join(f"{name} {value:.3f}" for name, value in scored.items()))
        splits = [honest_split(published, repeat) for repeat in range(args.repeats)]
        pooled = {name: [split["pooled"][name] for split in splits] for name in scored}
        result["auc_honest"] = {name: round(statistics.mean(values), 3) for name, values in pooled.items()}
        result["auc_honest_splits"] = splits
        print("look classifier, honest split (fitted on one half, against the other, swapped, pooled), "
              "5-fold ROC AUC (goal <= 0.75):",
              ", ".join(f"{name} {statistics.mean(values):.3f}"
                        + (f" (range {min(values):.3f}-{max(values):.3f} over {len(values)} splits)"
                           if len(values) > 1 else "") for name, values in pooled.items()))
        for k, split in enumerate(splits):
            print(f"  split {k + 1}: " + "; ".join(f"{part} " + ", ".join(f"{name} {value:.3f}" for name, value
                                                                          in figures.items())
                                                for part, figures in split.items()))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
