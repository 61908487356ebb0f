"""Can region shape alone tell our boards from published ones? A cross-validated logistic regression.

    .venv/bin/python bench/bench_shape_classifier.py [--boards 200] [--calibration PATH] [--cpu N]

For each published collection of the calibration file (one per size and star count), the generator
makes boards of the same rules (`generate`, default settings: what the store would keep). Each board
becomes the shape features of `engine.core.shape.shape_features` (sorted region sizes per n, tiny
regions, straight regions, boundary per row, perimeter per cell, bounding-box fill, interior cells per
row). A logistic regression (plain Python: standardised features, L2-penalised Newton steps) is trained
on 4 folds and scores the fifth, five times over (stratified, seeded); the AUC of the pooled
out-of-fold scores is the chance that a generated board looks more machine-made than a published one.
0.5: shape cannot tell them apart; 1.0: it always can. Prints Markdown, with the feature means per side.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import DeadlineExceeded  # noqa: E402
from engine.core.shape import ShapeFeatures, shape_features  # noqa: E402
from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.generator import generate  # noqa: E402
from machine import cpu_model  # noqa: E402

DEFAULT_CALIBRATION = Path(__file__).resolve().parents[1] / ".." / "shared" / "calibration" / "starbattle-labelled.jsonl"
SCALARS = ("tiny", "straight", "boundary_per_row", "perimeter_per_cell", "fill", "interior_per_row")


def load_collections(path: Path) -> dict[tuple[int, int], list[tuple[int, ...]]]:
    """Published region maps by (size, stars)."""
    out: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                board = json.loads(line)
                rules = board["rules"]
                regions = tuple(label for row in board["regions"] for label in row)
                out.setdefault((rules["size"], rules["stars"]), []).append(regions)
    return out


def vector(features: ShapeFeatures) -> list[float]:
    """Sorted region sizes as multiples of the mean size, then the scalar features."""
    n = features.n
    return [size / n for size in features.sizes] + [float(getattr(features, name)) for name in SCALARS]


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the Newton step; the matrix is small and
    positive definite thanks to the penalty)."""
    size = len(rhs)
    a = [row[:] + [value] for row, value in zip(matrix, rhs)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, size):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, size + 1):
                    a[r][c] -= factor * a[col][c]
    out = [0.0] * size
    for r in reversed(range(size)):
        out[r] = (a[r][size] - sum(a[r][c] * out[c] for c in range(r + 1, size))) / a[r][r]
    return out


def fit(xs: list[list[float]], ys: list[int], l2: float = 1.0, rounds: int = 12) -> list[float]:
    """Logistic regression weights (intercept first) by Newton's method with an L2 penalty on the
    slopes; features must be standardised."""
    d = len(xs[0]) + 1
    w = [0.0] * d
    rows = [[1.0] + x for x in xs]
    for _ in range(rounds):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for row, y in zip(rows, ys):
            z = sum(wi * xi for wi, xi in zip(w, row))
            p = 1 / (1 + math.exp(-max(-35.0, min(35.0, z))))
            g, h = p - y, p * (1 - p)
            for i in range(d):
                grad[i] += g * row[i]
                hi = h * row[i]
                for j in range(i, d):
                    hess[i][j] += hi * row[j]
        for i in range(d):
            for j in range(i):
                hess[i][j] = hess[j][i]
            if i:
                grad[i] += l2 * w[i]
                hess[i][i] += l2
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return w


def standardiser(xs: list[list[float]]):
    columns = list(zip(*xs))
    means = [sum(col) / len(col) for col in columns]
    sds = [math.sqrt(sum((v - m) ** 2 for v in col) / len(col)) or 1.0 for col, m in zip(columns, means)]
    return lambda x: [(v - m) / s for v, m, s in zip(x, means, sds)]


def auc(scores: list[float], ys: list[int]) -> float:
    """The chance that a positive scores above a negative (ties count half): Mann-Whitney by ranks."""
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    ranks = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    positives = sum(ys)
    negatives = len(ys) - positives
    rank_sum = sum(r for r, y in zip(ranks, ys) if y)
    return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives)


def cross_validated_auc(xs: list[list[float]], ys: list[int], folds: int = 5, seed: int = 0) -> float:
    """Stratified k-fold: every board is scored by a model that never saw it; AUC of those scores."""
    rng = random.Random(seed)
    fold_of = [0] * len(ys)
    for label in (0, 1):
        members = [i for i, y in enumerate(ys) if y == label]
        rng.shuffle(members)
        for position, i in enumerate(members):
            fold_of[i] = position % folds
    scores = [0.0] * len(ys)
    for fold in range(folds):
        train = [i for i in range(len(ys)) if fold_of[i] != fold]
        scale = standardiser([xs[i] for i in train])
        w = fit([scale(xs[i]) for i in train], [ys[i] for i in train])
        for i in range(len(ys)):
            if fold_of[i] == fold:
                scores[i] = sum(wi * xi for wi, xi in zip(w, [1.0] + scale(xs[i])))
    return auc(scores, ys)


def generated(rules: Rules, count: int, timeout: float) -> tuple[list[tuple[int, ...]], float, int]:
    """`count` stored-quality boards (seeds 70,000 + i), the median seconds per board, timeouts."""
    boards, times, timeouts = [], [], 0
    for seed in range(count):
        started = time.perf_counter()
        try:
            board, _ = generate(rules, 70_000 + seed, timeout=timeout)
        except DeadlineExceeded:
            timeouts += 1
            continue
        times.append(time.perf_counter() - started)
        boards.append(board.regions)
    times.sort()
    return boards, (times[len(times) // 2] if times else float("nan")), timeouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200, help="generated boards per collection "
                        "(a third of it at 14x14 and above)")
    parser.add_argument("--calibration", type=Path, default=DEFAULT_CALIBRATION)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per generated board")
    parser.add_argument("--only", nargs="*", default=None, help='rules to run, e.g. "queens 8"')
    parser.add_argument("--cpu", type=int, default=0, help="pin to this core (-1: no pinning)")
    args = parser.parse_args()
    if args.cpu >= 0:
        os.sched_setaffinity(0, {args.cpu})
    started = time.perf_counter()
    print(f"```sh\n.venv/bin/python bench/bench_shape_classifier.py --boards {args.boards}\n```\n")
    print(f"Machine: {cpu_model()}, {os.cpu_count()} cores (pinned to CPU {args.cpu}), Python "
          f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.\n")
    rows, means = [], []
    for (n, k), published in sorted(load_collections(args.calibration).items()):
        rules = Rules(n, k)
        if args.only and str(rules) not in args.only:
            continue
        count = args.boards if n < 14 else max(2, args.boards // 3)
        ours, seconds, timeouts = generated(rules, count, args.timeout)
        pub_features = [shape_features(n, regions) for regions in published]
        our_features = [shape_features(n, regions) for regions in ours]
        xs = [vector(f) for f in our_features + pub_features]
        ys = [1] * len(our_features) + [0] * len(pub_features)
        rows.append(f"| {rules} | {len(pub_features)} | {len(our_features)} ({timeouts} timeouts) | "
                    f"{seconds:.3f} | {cross_validated_auc(xs, ys):.3f} | ≤ 0.75 |")
        for side, features in (("published", pub_features), ("generated", our_features)):
            cells = [sum(getattr(f, name) for f in features) / len(features) for name in SCALARS]
            largest = sum(f.sizes[-1] / n for f in features) / len(features)
            smallest = sum(f.sizes[0] for f in features) / len(features)
            means.append(f"| {rules} | {side} | " + " | ".join(f"{v:.2f}" for v in cells)
                         + f" | {smallest:.2f} | {largest:.2f} |")
    print("| rules | published boards | generated boards | median s / generated board "
          "| cross-validated AUC | goal |\n|---|---:|---:|---:|---:|---|")
    print("\n".join(rows))
    print("\n| rules | side | " + " | ".join(SCALARS) + " | smallest region | largest / n |\n|---|---|"
          + "---:|" * (len(SCALARS) + 2))
    print("\n".join(means))
    print(f"\nTotal run time {time.perf_counter() - started:.0f} s.")


if __name__ == "__main__":
    main()
