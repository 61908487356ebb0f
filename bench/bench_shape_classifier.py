"""Can a classifier tell our boards from people's? Two feature families, two classifiers, an honest split.

    .venv/bin/python bench/bench_shape_classifier.py [--style S] [--sizes 7 8 9 10 11] [--boards 200]
        [--calibration PATH] [--honest] [--repeats 3] [--jobs 1] [--cpu N] [--json PATH]

Needs scikit-learn (`pip install -e '.[bench]'`). For each size of the calibration file (default: the
294 hand-drawn Queens boards of ../shared/calibration/queens-handmade.jsonl; the published Star Battle
file works too, per size and star count), the generator makes `--boards` boards of the same rules in
the given style (`generate(..., style=)`, default settings: what the store would keep; no `--style`:
the game's default), seeds 70,000 + i. Each board is read two ways:

- region shape: the sorted region sizes / n, tiny and straight regions, boundary per row, perimeter
  per cell, bounding-box fill, interior cells per row (`engine.games.starbattle.shape.shape_features`)
  and the look (largest-region share, mirrored boundary share, corners per region, rectangle and
  geometric shares). The styles' likeness is fitted on these.
- boundary texture (bench/boundary_texture.py): how the lines between regions meet and run (junction
  types, straight-run lengths, turns and staircases, outlines floating free of the edge, the share of
  boundary edges matched by their mirror image, half-turn or transpose). Nothing is fitted on these.

Each family goes to a standardised logistic regression and to histogram gradient boosting, scored by
stratified 5-fold cross-validation (seeded, `--repeats` fold draws pooled); the AUC of the out-of-fold
scores is the chance that a generated board looks more machine-made than a human one. 0.5: the family
cannot tell them apart; 1.0: it always can.

`--honest` (the measure that cannot flatter; default file ../shared/calibration/queens-linkedin-odd.jsonl,
the shared half of the daily LinkedIn Queens boards): each size's boards are split in two halves (every
other board, in file order); when the style is fitted on this file (its module's CALIBRATION names it),
its drawing numbers (a style with PARAMS: bench/fit_pictured.py's `params`) and then its likeness are
fitted again on one half only (bench/fit_likeness.py's `fit`, with the arguments of the shipped fit,
the style's FIT; no likeness where a half has too few boards for one), boards are generated with that
fit, and the classifiers tell them from
the other half, which the fit never saw; then the halves swap. A style fitted on another file is
measured against each half as it ships. The pooled AUC counts the correctly ordered (ours, theirs)
pairs of both swaps over all their pairs. `--json PATH` writes every figure, with the command and the
machine; `--honest` also writes bench/results/shape_classifier.json (machine.write_result). Prints
Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import boundary_texture  # noqa: E402
from engine import DeadlineExceeded  # noqa: E402
from engine.games.starbattle import Rules, styles  # noqa: E402
from engine.games.starbattle.generator import generate  # noqa: E402
from engine.games.starbattle.shape import look, shape_features  # noqa: E402
from machine import run_header, write_result  # noqa: E402

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "calibration"
DEFAULT_CALIBRATION = SHARED / "queens-handmade.jsonl"
DAILY = SHARED / "queens-linkedin-odd.jsonl"
SCALARS = ("tiny", "straight", "boundary_per_row", "perimeter_per_cell", "fill", "interior_per_row")
LOOK = ("largest_share", "mirrored", "corners_per_row", "rectangles", "geometric")
FAMILIES = ("shape", "texture")
MODELS = ("logistic", "boosting")
GOAL = 0.70                 # the AUC aimed for, at every size with MIN_BOARDS boards or more
MIN_BOARDS = 30
FITTED = ("PARAMS", "LIKENESS", "TEXTURE")    # a style's tables an honest run fits on each half

Map = tuple[int, ...]


def load_collections(path: Path) -> dict[tuple[int, int], list[Map]]:
    """Calibration region maps by (size, stars), in file order."""
    out: dict[tuple[int, int], list[Map]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                board = json.loads(line)
                rules = board["rules"]
                regions = tuple(label for row in board["regions"] for label in row)
                out.setdefault((rules["size"], rules.get("stars", 1)), []).append(regions)
    return out


def vector(n: int, regions: Map) -> list[float]:
    """The region-shape family: sorted region sizes as multiples of the mean size, the shape
    scalars, then the look."""
    features = shape_features(n, regions)
    seen = look(n, regions)
    return ([size / n for size in features.sizes] + [float(getattr(features, name)) for name in SCALARS]
            + [getattr(seen, name) for name in LOOK])


def shape_names(n: int) -> list[str]:
    return [f"size{i + 1}" for i in range(n)] + list(SCALARS) + list(LOOK)


def family(name: str, n: int, maps: list[Map]) -> tuple[list[list[float]], list[str]]:
    """The maps' feature vectors in one family, and the features' names."""
    if name == "shape":
        return [vector(n, regions) for regions in maps], shape_names(n)
    return [boundary_texture.vector(n, regions) for regions in maps], list(boundary_texture.NAMES)


def _models(seed: int):
    return {"logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
            "boosting": HistGradientBoostingClassifier(random_state=seed)}


def pairs(xs: list[list[float]], ys: list[int], repeats: int = 1) -> dict[str, tuple[float, int]]:
    """Per classifier: (correctly ordered (1, 0) pairs, all such pairs) of the out-of-fold scores,
    summed over `repeats` seeded fold draws (ties count half)."""
    x, y = np.array(xs), np.array(ys)
    total = int((y == 1).sum() * (y == 0).sum())
    out = {name: [0.0, 0] for name in MODELS}
    for seed in range(repeats):
        folds = StratifiedKFold(5, shuffle=True, random_state=seed)
        for name, model in _models(seed).items():
            scores = cross_val_predict(model, x, y, cv=folds, method="predict_proba")[:, 1]
            out[name][0] += float(roc_auc_score(y, scores)) * total
            out[name][1] += total
    return {name: (good, count) for name, (good, count) in out.items()}


def aucs(xs: list[list[float]], ys: list[int], seed: int = 0) -> tuple[float, float]:
    """Out-of-fold AUC of a standardised logistic regression and of gradient boosting (one fold
    draw; bench/fit_likeness.py's round report)."""
    x, y = np.array(xs), np.array(ys)
    folds = StratifiedKFold(5, shuffle=True, random_state=seed)
    out = []
    for model in _models(seed).values():
        scores = cross_val_predict(model, x, y, cv=folds, method="predict_proba")[:, 1]
        out.append(float(roc_auc_score(y, scores)))
    return out[0], out[1]


def generated(rules: Rules, count: int, timeout: float, style: str | None) -> tuple[list[Map], float, int]:
    """`count` stored-quality boards (seeds 70,000 + i), the median seconds per board, timeouts."""
    boards, times, timeouts = [], [], 0
    for seed in range(count):
        started = time.perf_counter()
        try:
            board, _ = generate(rules, 70_000 + seed, timeout=timeout, style=style)
        except DeadlineExceeded:
            timeouts += 1
            continue
        times.append(time.perf_counter() - started)
        boards.append(board.regions)
    return boards, (statistics.median(times) if times else float("nan")), timeouts


def compare(n: int, ours: list[Map], theirs: list[Map], repeats: int) -> dict[str, dict[str, tuple[float, int]]]:
    """Per family and classifier, the ordered pairs of ours (1) against theirs (0)."""
    out = {}
    for name in FAMILIES:
        xs, _ = family(name, n, ours + theirs)
        out[name] = pairs(xs, [1] * len(ours) + [0] * len(theirs), repeats)
    return out


def leaning(n: int, ours: list[Map], theirs: list[Map], count: int = 6) -> dict[str, list[tuple[str, float]]]:
    """Per family, the features whose AUC alone (max(AUC, 1 - AUC)) is highest."""
    out = {}
    ys = [1] * len(ours) + [0] * len(theirs)
    for name in FAMILIES:
        xs, names = family(name, n, ours + theirs)
        alone = sorted(((max(auc, 1 - auc), feature) for feature, auc in
                        ((feature, roc_auc_score(ys, [x[i] for x in xs])) for i, feature in enumerate(names))),
                       reverse=True)
        out[name] = [(feature, round(auc, 3)) for auc, feature in alone[:count]]
    return out


def halves(maps: list[Map]) -> tuple[list[Map], list[Map]]:
    """Every other board, in file order: the two halves of the honest measure."""
    return maps[0::2], maps[1::2]


def fitted_on(style_name: str, calibration: Path) -> bool:
    """Whether the style's fitted constants come from this calibration file."""
    module = styles.named(style_name)
    return getattr(module, "CALIBRATION", None) == calibration.name


def refit(style_name: str, stars: int, sizes: list[int], half: dict[int, list[Map]], jobs: int) -> None:
    """Fit the style again on `half` alone, leaving the fit in the style module for this process's
    generate: first the numbers its drawing is fitted with, for a style that has them (pictured's
    PARAMS, bench/fit_pictured.py), then its likeness, as its shipped fit was made (the style's FIT:
    fit_likeness's arguments), on boards drawn with those numbers."""
    import fit_likeness
    module = styles.named(style_name)
    if hasattr(module, "PARAMS"):
        import fit_pictured
        module.PARAMS = {**module.PARAMS, **fit_pictured.params(half)}
    options = dict(module.FIT)
    if hasattr(module, "TEXTURE"):
        module.TEXTURE = {}              # the likeness is fitted first, without the texture likeness
    if not options.get("pooled") and any(len(half.get(n, ())) < options.get("min_boards", 10) for n in sizes):
        # too few boards in a half for a likeness of its own: none (the shipped one saw both halves)
        module.LIKENESS = {stars: {}}
        if hasattr(module, "TEXTURE"):
            module.TEXTURE = {}
        return
    fit_likeness.fit(style_name, stars, sizes, half, options["boards"], options["rounds"], options["quantile"],
                     options["strength"], jobs, None, False, False, min_boards=options.get("min_boards", 10),
                     pooled=options.get("pooled", False))
    if hasattr(module, "TEXTURE"):     # pictured's texture likeness, over the likeness just fitted
        fit_likeness.fit_texture(style_name, sizes, half, options["boards"], options["rounds"], options["quantile"],
                                 options["strength"], jobs, min_boards=options.get("min_boards", 10),
                                 pooled=options.get("pooled", False))


def auc_of(tally: tuple[float, int]) -> float:
    return tally[0] / tally[1] if tally[1] else float("nan")


HONEST_COLUMNS = ["rules", "style", "calibration boards", "generated boards", "median ms / board", "shape, logistic",
                  "shape, boosting", "texture, logistic", "texture, boosting", "goal"]


def write_honest(calibration: Path, args: argparse.Namespace, report: dict, notes: list[str],
                 load_at_start: float) -> None:
    """bench/results/shape_classifier.json: this honest run's rows, after the rows of other styles that
    an earlier honest run against the same file left there (their command kept in the notes), so the
    default and a candidate style read side by side."""
    from machine import RESULTS
    title = (f"Honest AUC against {calibration.name}: fitted on one half, measured on the other, swapped, "
             f"pooled (goal ≤ {GOAL} at sizes with {MIN_BOARDS}+ boards)")
    rows = [[row["rules"], row["style"] + (" (refitted per half)" if row["refitted_on_halves"] else ""),
             row["calibration_boards"], row["generated"], row["median_ms"]]
            + [row["auc"][fam][model] for fam in FAMILIES for model in MODELS]
            + ["met" if row["met"] else "not met" + ("" if row["counted"] else " (too few boards to count)")]
            for row in report["rows"]]
    ours = {row[1].split(" ")[0] for row in rows}
    kept, earlier = [], []
    try:
        previous = json.loads((RESULTS / "shape_classifier.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        previous = None
    if previous and previous.get("tables") and previous["tables"][0].get("title") == title:
        kept = [row for row in previous["tables"][0]["rows"] if row[1].split(" ")[0] not in ours]
        kept_styles = {row[1].split(" ")[0] for row in kept}
        # each kept row's command: the earlier run's own, or the one its notes carried from a run before it
        carried = {note[len("rows of "):].split(":")[0]: note for note in previous.get("notes", [])
                   if note.startswith("rows of ")}
        own = sorted(kept_styles - set(carried))
        if own:
            earlier = [f"rows of {', '.join(own)}: `{previous['command']}` (commit {previous['commit']}, "
                       f"{previous['when']}, load {previous['load'][0] if previous['load'] else 'unknown'})"]
        earlier += [note for style, note in sorted(carried.items()) if style in kept_styles]
    write_result("shape_classifier", [{"title": title, "columns": HONEST_COLUMNS, "rows": kept + rows}],
                 notes=[f"{args.boards} generated boards per size and half, {args.repeats} fold draws pooled; "
                        f"total run time {report['seconds']:.0f} s"] + notes + earlier,
                 load_at_start=load_at_start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", default=None, help="drawing style of the generated boards (default: the "
                        "game's default for the rules)")
    parser.add_argument("--boards", type=int, default=200, help="generated boards per size (per half with --honest)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[7, 8, 9, 10, 11])
    parser.add_argument("--calibration", type=Path, default=None)
    parser.add_argument("--honest", action="store_true", help="fit on one half of the calibration boards, "
                        "measure against the other, swap, pool (default file: the shared daily boards)")
    parser.add_argument("--repeats", type=int, default=3, help="seeded fold draws pooled per AUC")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per generated board")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the refits")
    parser.add_argument("--cpu", type=int, default=-1, help="pin to this core (-1: no pinning)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here as JSON")
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    calibration = args.calibration or (DAILY if args.honest else DEFAULT_CALIBRATION)
    started = time.perf_counter()
    load_at_start = os.getloadavg()[0]
    notes = [f"{name}: {note}" for name, note in (("style", args.style or "the default for the rules"),)]
    header = run_header()
    print(header)
    report: dict = {"command": header.split("\n")[0].strip("`"), "machine": header.split("\n")[2],
                    "calibration": calibration.name, "honest": args.honest, "boards": args.boards,
                    "repeats": args.repeats, "goal": GOAL, "min_boards": MIN_BOARDS, "rows": []}
    rows, leans = [], []
    collections = load_collections(calibration)
    pooled_fits: dict[tuple[int, int], dict] = {}     # (stars, half) -> the style's fitted tables
    for (n, k), theirs in sorted(collections.items()):
        if n not in args.sizes:
            continue
        rules = Rules(n, k)
        style = args.style or styles.default_for(rules).NAME
        refitting = args.honest and fitted_on(style, calibration)
        parts = []        # (ours, theirs held out, seconds, timeouts) per swap
        if args.honest:
            first, second = halves(theirs)
            module = styles.named(style)
            shipped = getattr(module, "LIKENESS", None)
            shipped_params = getattr(module, "PARAMS", None)
            shipped_texture = getattr(module, "TEXTURE", None)
            try:
                for which, (fit_half, held_out) in enumerate(((first, second), (second, first))):
                    if refitting and module.FIT.get("pooled"):
                        # a fit shared by the sizes: every size's half `which`, fitted once, kept for the others
                        if (k, which) not in pooled_fits:
                            refit(style, k, sorted(m for m, stars in collections if stars == k),
                                  {m: halves(maps)[which] for (m, stars), maps in collections.items() if stars == k},
                                  args.jobs)
                            pooled_fits[k, which] = {name: getattr(module, name) for name in FITTED
                                                     if hasattr(module, name)}
                        for name, value in pooled_fits[k, which].items():
                            setattr(module, name, value)
                    elif refitting:
                        refit(style, k, [n], {n: fit_half}, args.jobs)
                    ours, seconds, timeouts = generated(rules, args.boards, args.timeout, style)
                    parts.append((ours, held_out, seconds, timeouts))
            finally:
                if refitting:
                    module.LIKENESS = shipped
                    if shipped_params is not None:
                        module.PARAMS = shipped_params
                    if shipped_texture is not None:
                        module.TEXTURE = shipped_texture
        else:
            ours, seconds, timeouts = generated(rules, args.boards, args.timeout, style)
            parts.append((ours, theirs, seconds, timeouts))
        tallies = {fam: {model: [0.0, 0] for model in MODELS} for fam in FAMILIES}
        swaps = []
        for ours, held_out, seconds, timeouts in parts:
            swap = compare(n, ours, held_out, args.repeats)
            for fam in FAMILIES:
                for model in MODELS:
                    tallies[fam][model][0] += swap[fam][model][0]
                    tallies[fam][model][1] += swap[fam][model][1]
            swaps.append({"generated": len(ours), "held_out": len(held_out), "timeouts": timeouts,
                          "median_ms": round(seconds * 1000, 2),
                          "auc": {fam: {model: round(auc_of(swap[fam][model]), 4) for model in MODELS}
                                  for fam in FAMILIES}})
        auc = {fam: {model: round(auc_of(tallies[fam][model]), 4) for model in MODELS} for fam in FAMILIES}
        leans_now = leaning(n, [m for ours, *_ in parts for m in ours], theirs)
        counted = len(theirs) >= MIN_BOARDS
        row = {"rules": str(rules), "size": n, "stars": k, "style": style, "refitted_on_halves": refitting,
               "calibration_boards": len(theirs), "generated": sum(len(p[0]) for p in parts),
               "timeouts": sum(p[3] for p in parts),
               "median_ms": round(statistics.median(p[2] for p in parts) * 1000, 2),
               "auc": auc, "swaps": swaps, "leans_on": leans_now, "counted": counted,
               "met": all(value <= GOAL for fam in auc.values() for value in fam.values())}
        report["rows"].append(row)
        rows.append(f"| {rules} | {style}{' (refitted per half)' if refitting else ''} | {len(theirs)} | "
                    f"{row['generated']} ({row['timeouts']} timeouts) | {row['median_ms']:.1f} | "
                    + " | ".join(f"{auc[fam][model]:.3f}" for fam in FAMILIES for model in MODELS)
                    + f" | {'met' if row['met'] else 'not met'}{'' if counted else ' (too few boards to count)'} |")
        for fam in FAMILIES:
            leans.append(f"| {rules} | {fam} | " + ", ".join(f"{name} {value:.2f}" for name, value in leans_now[fam]) + " |")
        print(f"{rules}: " + ", ".join(f"{fam} {model} {auc[fam][model]:.3f}" for fam in FAMILIES for model in MODELS),
              file=sys.stderr, flush=True)
    counted_rows = [row for row in report["rows"] if row["counted"]]
    report["met"] = bool(counted_rows) and all(row["met"] for row in counted_rows)
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(f"{'Honest: fitted on one half, measured on the other, swapped, pooled' if args.honest else 'Cross-validated'}"
          f" against {calibration.name}; AUC goal ≤ {GOAL} at sizes with {MIN_BOARDS}+ boards.\n")
    print("| rules | style | calibration boards | generated boards | median ms / board | shape, logistic "
          "| shape, boosting | texture, logistic | texture, boosting | goal |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))
    print("\nWhat each family leans on: the AUC of each feature alone (max(AUC, 1 - AUC)), the six strongest "
          "(size i: the i-th smallest region's size / n).\n\n| rules | family | features |\n|---|---|---|")
    print("\n".join(leans))
    print(f"\nTotal run time {report['seconds']:.0f} s.")
    if args.honest:
        write_honest(calibration, args, report, notes, load_at_start)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
