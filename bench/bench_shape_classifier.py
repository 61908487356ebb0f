"""Can region shape alone tell our boards from hand-drawn or published ones? Cross-validated classifiers.

    .venv/bin/python bench/bench_shape_classifier.py --style composed [--sizes 6 7 8 9 11] [--boards 200]
        [--calibration PATH] [--cpu N]

Needs scikit-learn (`pip install -e '.[bench]'`). For each size of the calibration file (default: the
294 hand-drawn Queens boards of ../shared/calibration/queens-handmade.jsonl; the published Star Battle
file works too, per size and star count), the generator makes `--boards` boards of the same rules in
the given style (`generate(..., style=)`, default settings: what the store would keep). Each board
becomes the shape features of `engine.games.starbattle.shape.shape_features` (sorted region sizes per
n, tiny and straight regions, boundary per row, perimeter per cell, bounding-box fill, interior cells
per row) and the size-normalised look of `engine.games.starbattle.shape.look` (largest-region share,
mirrored boundary share, corners per region, rectangle share, geometric share). A standardised logistic regression and a
histogram gradient-boosting classifier are scored by stratified 5-fold cross-validation (seeded); the
AUC of the out-of-fold scores is the chance that a generated board looks more machine-made than a
hand-drawn one. 0.5: shape cannot tell them apart; 1.0: it always can. Prints Markdown: the AUC table,
then the look statistics per size, generated against the calibration boards, then the AUC of each
feature alone (what the classifiers lean on).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
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

from engine import DeadlineExceeded  # noqa: E402
from engine.games.starbattle.shape import look, shape_features  # noqa: E402
from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.generator import generate  # noqa: E402
from machine import cpu_model  # noqa: E402

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "calibration"
DEFAULT_CALIBRATION = SHARED / "queens-handmade.jsonl"
SCALARS = ("tiny", "straight", "boundary_per_row", "perimeter_per_cell", "fill", "interior_per_row")
LOOK = ("largest_share", "mirrored", "corners_per_row", "rectangles", "geometric")


def load_collections(path: Path) -> dict[tuple[int, int], list[tuple[int, ...]]]:
    """Calibration region maps by (size, stars)."""
    out: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                board = json.loads(line)
                rules = board["rules"]
                regions = tuple(label for row in board["regions"] for label in row)
                out.setdefault((rules["size"], rules["stars"]), []).append(regions)
    return out


def vector(n: int, regions: tuple[int, ...]) -> list[float]:
    """Sorted region sizes as multiples of the mean size, the shape scalars, then the look."""
    features = shape_features(n, regions)
    seen = look(n, regions)
    return ([size / n for size in features.sizes] + [float(getattr(features, name)) for name in SCALARS]
            + [getattr(seen, name) for name in LOOK])


def aucs(xs: list[list[float]], ys: list[int], seed: int = 0) -> tuple[float, float]:
    """Out-of-fold AUC of a standardised logistic regression and of gradient boosting."""
    x, y = np.array(xs), np.array(ys)
    folds = StratifiedKFold(5, shuffle=True, random_state=seed)
    out = []
    for model in (make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
                  HistGradientBoostingClassifier(random_state=seed)):
        scores = cross_val_predict(model, x, y, cv=folds, method="predict_proba")[:, 1]
        out.append(float(roc_auc_score(y, scores)))
    return out[0], out[1]


def generated(rules: Rules, count: int, timeout: float, style: str) -> tuple[list[tuple[int, ...]], float, int]:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", default="organic", help="drawing style of the generated boards")
    parser.add_argument("--boards", type=int, default=200, help="generated boards per size")
    parser.add_argument("--sizes", type=int, nargs="*", default=[6, 7, 8, 9, 11])
    parser.add_argument("--calibration", type=Path, default=DEFAULT_CALIBRATION)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per generated board")
    parser.add_argument("--cpu", type=int, default=0, help="pin to this core (-1: no pinning)")
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    started = time.perf_counter()
    print(f"```sh\n.venv/bin/python bench/bench_shape_classifier.py --style {args.style} --boards {args.boards}"
          f" --sizes {' '.join(map(str, args.sizes))}\n```\n")
    print(f"Machine: {cpu_model()}, {os.cpu_count()} cores (pinned to CPU {args.cpu}), Python "
          f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
    rows, stats, leans = [], [], []
    for (n, k), theirs in sorted(load_collections(args.calibration).items()):
        if n not in args.sizes:
            continue
        rules = Rules(n, k)
        ours, seconds, timeouts = generated(rules, args.boards, args.timeout, args.style)
        xs = [vector(n, regions) for regions in ours + theirs]
        ys = [1] * len(ours) + [0] * len(theirs)
        logistic, boosted = aucs(xs, ys)
        names = [f"size{i + 1}" for i in range(n)] + list(SCALARS) + list(LOOK)
        alone = sorted(((max(auc, 1 - auc), name) for name, auc in
                        ((name, roc_auc_score(ys, [x[i] for x in xs])) for i, name in enumerate(names))),
                       reverse=True)
        leans.append(f"| {rules} | " + ", ".join(f"{name} {auc:.2f}" for auc, name in alone[:6]) + " |")
        rows.append(f"| {rules} | {args.style} | {len(theirs)} | {len(ours)} ({timeouts} timeouts) | "
                    f"{seconds * 1000:.1f} | {logistic:.3f} | {boosted:.3f} |")
        for side, maps in (("calibration", theirs), (args.style, ours)):
            looks = [look(n, regions) for regions in maps]
            stats.append(f"| {rules} | {side} | " + " | ".join(
                f"{statistics.mean(getattr(f, name) for f in looks):.3f}" for name in LOOK) + " |")
    print("| rules | style | calibration boards | generated boards | median ms / board "
          "| AUC logistic | AUC boosting |\n|---|---|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    print("\n| rules | side | " + " | ".join(LOOK) + " |\n|---|---|" + "---:|" * len(LOOK))
    print("\n".join(stats))
    print("\nWhat the classifier leans on: the AUC of each feature alone (max(AUC, 1 - AUC)), the six "
          "strongest (size i: the i-th smallest region's size / n).\n\n| rules | features |\n|---|---|")
    print("\n".join(leans))
    print(f"\nTotal run time {time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
