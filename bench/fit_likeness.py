"""Fit a drawing style's likeness: how much more often people draw a map like this than the style does.

    .venv/bin/python bench/fit_likeness.py --style composed [--boards 300] [--sizes 6 7 8 9 10 11 13 15]
        [--calibration PATH] [--stars 1] [--jobs 2] [--write]

Needs scikit-learn (`pip install -e '.[bench]'`). Generates `--boards` finished boards per size with the
style's sampling off (`Settings(sample=False)`: the style's own habits), seeds 1,000,000 + i (never the
classifier bench's 70,000 + i), and fits a logistic regression of calibration boards against them on
`engine.core.likeness.features`, each size weighted so that its generated boards count as much as its
calibration boards (sizes of the corpus without generated boards are left out). The cap per size is
the `--quantile` of the generated boards' log-ratio: above it a map is always kept, so the share kept
is the cost (reported). `--write` writes the table to engine/games/starbattle/styles/<style>_fit.py.
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import DeadlineExceeded  # noqa: E402
from engine.core.likeness import NAMES, features  # noqa: E402
from engine.games.starbattle import Rules  # noqa: E402
from engine.games.starbattle.generator import Settings, generate  # noqa: E402

SHARED = ROOT / ".." / "shared" / "calibration"
CORPUS = {"composed": SHARED / "queens-handmade.jsonl", "interlocking": SHARED / "starbattle-labelled.jsonl"}
SEED = 1_000_000


def _board(job: tuple[int, int, str, int]) -> tuple[int, ...] | None:
    size, stars, style, seed = job
    try:
        board, _ = generate(Rules(size, stars), SEED + seed, style=style, timeout=60,
                            settings=Settings(sample=False))
    except DeadlineExceeded:
        return None
    return board.regions


def corpus(path: Path, stars: int) -> dict[int, list[tuple[int, ...]]]:
    out: dict[int, list[tuple[int, ...]]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                board = json.loads(line)
                if board["rules"]["stars"] == stars:
                    out.setdefault(board["rules"]["size"], []).append(
                        tuple(label for row in board["regions"] for label in row))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--style", default="composed")
    parser.add_argument("--stars", type=int, default=1)
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--sizes", type=int, nargs="*", default=[6, 7, 8, 9, 10, 11, 13, 15])
    parser.add_argument("--calibration", type=Path)
    parser.add_argument("--quantile", type=float, default=0.85, help="of the style's own log-ratios")
    parser.add_argument("--strength", type=float, default=1.0, help="inverse regularisation C")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    published = corpus(args.calibration or CORPUS[args.style], args.stars)
    low, high = min(args.sizes), max(args.sizes)
    drawn: dict[int, list[tuple[int, ...]]] = {}
    with Pool(args.jobs) as pool:
        for size in args.sizes:
            maps = pool.map(_board, [(size, args.stars, args.style, i) for i in range(args.boards)], chunksize=4)
            drawn[size] = [m for m in maps if m is not None]
            print(f"{size}x{size}: {len(drawn[size])} boards drawn, {len(published.get(size, []))} published",
                  file=sys.stderr, flush=True)
    xs, ys, weights = [], [], []
    for size in args.sizes:
        theirs = published.get(size, [])
        if not theirs:
            continue
        for regions in theirs:
            xs.append(features(size, regions, low, high)), ys.append(1), weights.append(1.0)
        for regions in drawn[size]:
            xs.append(features(size, regions, low, high)), ys.append(0), weights.append(len(theirs) / len(drawn[size]))
    x, y = np.array(xs), np.array(ys)
    scaler = StandardScaler().fit(x)
    scales = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    model = LogisticRegression(C=args.strength, max_iter=10_000).fit((x - scaler.mean_) / scales, y,
                                                                      sample_weight=weights)
    log_caps = {}
    for size in args.sizes:
        own = model.decision_function((np.array([features(size, r, low, high) for r in drawn[size]])
                                       - scaler.mean_) / scales)
        log_caps[size] = float(np.quantile(own, args.quantile))
        kept = np.minimum(1.0, np.exp(own - log_caps[size])).mean()
        print(f"{size}x{size}: keeps {kept:.0%} of the style's own maps", file=sys.stderr)
    table = (f'"""The fitted likeness of the {args.style} style (engine/core/likeness.py): written by\n'
             f"    .venv/bin/python bench/fit_likeness.py --style {args.style} --stars {args.stars} "
             f"--boards {args.boards} --sizes {' '.join(map(str, args.sizes))} --quantile {args.quantile} "
             f"--strength {args.strength} --write\n"
             f'against {(args.calibration or CORPUS[args.style]).name}; refit after changing the drawing."""\n\n'
             "from engine.core.likeness import Likeness\n\n"
             "LIKENESS = Likeness(\n"
             f"    names={NAMES!r},\n"
             f"    means={tuple(round(float(v), 6) for v in scaler.mean_)!r},\n"
             f"    scales={tuple(round(float(v), 6) for v in scales)!r},\n"
             f"    weights={tuple(round(float(v), 6) for v in model.coef_[0])!r},\n"
             f"    intercept={round(float(model.intercept_[0]), 6)!r},\n"
             f"    log_caps={ {size: round(cap, 6) for size, cap in log_caps.items()}!r},\n)\n")
    if args.write:
        out = ROOT / "engine" / "games" / "starbattle" / "styles" / f"{args.style}_fit.py"
        out.write_text(table, encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)}", file=sys.stderr)
    else:
        print(table)


if __name__ == "__main__":
    main()
